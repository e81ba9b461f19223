#include "codec/stream_codecs.h"

#include <fmt/format.h>
#include <libdeflate.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <memory>

#include "io/error.h"

namespace navlab::codec {
namespace {

struct DecompressorDeleter {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

/// One libdeflate decompressor per thread (they are not thread-safe, and cheap to keep).
libdeflate_decompressor* decompressor() {
    thread_local std::unique_ptr<libdeflate_decompressor, DecompressorDeleter> d(libdeflate_alloc_decompressor());
    if (!d) throw Error("out of memory allocating a deflate decompressor");
    return d.get();
}

using LibdeflateFn = libdeflate_result (*)(libdeflate_decompressor*, const void*, size_t, void*, size_t, size_t*,
                                           size_t*);

std::size_t inflate_exact(LibdeflateFn fn, const char* what, Bytes src, std::span<std::uint8_t> dst,
                          std::uint64_t base) {
    std::size_t in_used = 0, out_used = 0;
    switch (fn(decompressor(), src.data(), src.size(), dst.data(), dst.size(), &in_used, &out_used)) {
        case LIBDEFLATE_SUCCESS: break;
        case LIBDEFLATE_INSUFFICIENT_SPACE:
            throw Error(fmt::format("{} stream inflates past the declared size of {} bytes", what, dst.size()), base);
        default: throw Error(fmt::format("corrupt or truncated {} stream", what), base);
    }
    if (out_used != dst.size())
        throw Error(fmt::format("{} stream inflates to {} bytes but the declared size is {}", what, out_used,
                                dst.size()),
                    base);
    return in_used;
}

struct ZStream {
    z_stream s{};
    bool inflating;
    explicit ZStream(bool inflate_mode, int window_bits, int level = 9) : inflating(inflate_mode) {
        int rc = inflating ? inflateInit2(&s, window_bits)
                           : deflateInit2(&s, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
        if (rc != Z_OK) throw Error("zlib initialisation failed");
    }
    ~ZStream() { inflating ? inflateEnd(&s) : deflateEnd(&s); }
};

std::vector<std::uint8_t> deflate_with(Bytes src, int level, int window_bits) {
    ZStream z(false, window_bits, level);
    std::vector<std::uint8_t> out(deflateBound(&z.s, static_cast<uLong>(src.size())));
    z.s.next_in = const_cast<Bytef*>(src.data());
    z.s.avail_in = static_cast<uInt>(src.size());
    z.s.next_out = out.data();
    z.s.avail_out = static_cast<uInt>(out.size());
    if (src.size() > 0xFFFFFFFFu || deflate(&z.s, Z_FINISH) != Z_STREAM_END)
        throw Error("zlib compression failed (input too large?)");
    out.resize(z.s.total_out);
    return out;
}

}  // namespace

std::size_t zlib_inflate(Bytes src, std::span<std::uint8_t> dst, std::uint64_t base) {
    return inflate_exact(libdeflate_zlib_decompress_ex, "zlib", src, dst, base);
}

std::size_t deflate_inflate(Bytes src, std::span<std::uint8_t> dst, std::uint64_t base) {
    return inflate_exact(libdeflate_deflate_decompress_ex, "deflate", src, dst, base);
}

PayloadBuffer zlib_inflate_bounded(Bytes src, std::size_t max_out, std::uint64_t base, std::size_t* consumed) {
    ZStream z(true, 15);
    PayloadBuffer out;
    z.s.next_in = const_cast<Bytef*>(src.data());
    z.s.avail_in = static_cast<uInt>(std::min<std::size_t>(src.size(), 0xFFFFFFFFu));
    for (;;) {
        // Grow geometrically, but never past max_out: memory follows real output.
        std::size_t done = z.s.total_out;
        if (done == max_out) {
            std::uint8_t probe;
            z.s.next_out = &probe;
            z.s.avail_out = 1;
            int rc = inflate(&z.s, Z_NO_FLUSH);
            if (rc == Z_STREAM_END && z.s.avail_out == 1) break;
            throw Error(fmt::format("zlib stream inflates past {} bytes ({}:1 is more than deflate can encode)",
                                    max_out, kDeflateMaxRatio),
                        base + z.s.total_in);
        }
        out.resize(std::min(max_out, std::max<std::size_t>(done * 2, 1 << 16)));
        z.s.next_out = out.data() + done;
        z.s.avail_out = static_cast<uInt>(out.size() - done);
        int rc = inflate(&z.s, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) break;
        if (rc == Z_BUF_ERROR && z.s.avail_in == 0)
            throw Error("zlib stream is truncated", base + z.s.total_in);
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            throw Error(fmt::format("corrupt zlib stream ({})", z.s.msg ? z.s.msg : "error"), base + z.s.total_in);
    }
    out.resize(z.s.total_out);
    *consumed = z.s.total_in;
    return out;
}

std::vector<std::uint8_t> zlib_deflate(Bytes src, int level) { return deflate_with(src, level, 15); }
std::vector<std::uint8_t> raw_deflate(Bytes src, int level) { return deflate_with(src, level, -15); }

std::size_t zstd_decompress(Bytes src, std::span<std::uint8_t> dst, std::uint64_t base) {
    const std::size_t frame = ZSTD_findFrameCompressedSize(src.data(), src.size());
    if (ZSTD_isError(frame))
        throw Error(fmt::format("corrupt or truncated zstd frame ({})", ZSTD_getErrorName(frame)), base);
    std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> ctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
    if (!ctx) throw Error("out of memory allocating a zstd decoder");
    const std::size_t got = ZSTD_decompressDCtx(ctx.get(), dst.data(), dst.size(), src.data(), frame);
    if (ZSTD_isError(got)) {
        if (ZSTD_getErrorCode(got) == ZSTD_error_dstSize_tooSmall)
            throw Error(fmt::format("zstd frame decodes past the declared size of {} bytes", dst.size()), base);
        throw Error(fmt::format("corrupt zstd frame ({})", ZSTD_getErrorName(got)), base);
    }
    if (got != dst.size())
        throw Error(fmt::format("zstd frame decodes to {} bytes but the declared size is {}", got, dst.size()), base);
    return frame;
}

std::vector<std::uint8_t> zstd_compress(Bytes src, int level, int window_log) {
    std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> ctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
    if (!ctx) throw Error("out of memory allocating a zstd encoder");
    ZSTD_CCtx_setParameter(ctx.get(), ZSTD_c_compressionLevel, std::min(level, ZSTD_maxCLevel()));
    ZSTD_CCtx_setParameter(ctx.get(), ZSTD_c_windowLog, window_log);
    ZSTD_CCtx_setParameter(ctx.get(), ZSTD_c_contentSizeFlag, 0);
    std::vector<std::uint8_t> out(ZSTD_compressBound(src.size()));
    const std::size_t n = ZSTD_compress2(ctx.get(), out.data(), out.size(), src.data(), src.size());
    if (ZSTD_isError(n)) throw Error(fmt::format("zstd compression failed: {}", ZSTD_getErrorName(n)));
    out.resize(n);
    return out;
}

}  // namespace navlab::codec
