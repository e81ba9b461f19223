// Byte-array headers (spec 2.1) and the array types built from other arrays: RLE (2.5) and
// recursive / multi-array (2.6). Huffman and tANS payloads live in their own files.
#include "codec/kraken/byte_array.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "codec/kraken/bit_reader.h"
#include "codec/kraken/stream_info.h"

namespace navlab::kraken::detail {
namespace {

/// Largest dst_size a header can express; the capacity of an RLE prefix array (spec 2.5).
constexpr std::size_t kMaxArraySize = 0x40000;

struct Header {
    unsigned type;
    std::size_t header_size;
    std::size_t src_size;
    std::size_t dst_size;
};

Header parse_header(const Context& ctx, const std::uint8_t* in, std::size_t avail) {
    ctx.check(avail >= 2, in, "byte array: header truncated");
    const unsigned b0 = in[0];
    Header h{(b0 >> 4) & 7, 0, 0, 0};
    if (h.type == 0) {
        if (b0 >= 0x80) {
            h.header_size = 2;
            h.dst_size = (b0 & 0x0F) << 8 | in[1];
        } else {
            ctx.check(avail >= 3, in, "byte array: header truncated");
            h.header_size = 3;
            h.dst_size = u24be(in);
            ctx.check(h.dst_size <= 0x3FFFF, in, "stored array: size above 0x3FFFF");
        }
        h.src_size = h.dst_size;
        return h;
    }
    ctx.check(h.type <= 5, in, "byte array: invalid type 6 or 7");
    if (b0 >= 0x80) {
        ctx.check(avail >= 3, in, "byte array: header truncated");
        const std::uint32_t x = u24be(in);
        h.header_size = 3;
        h.src_size = x & 0x3FF;
        h.dst_size = h.src_size + ((x >> 10) & 0x3FF) + 1;
    } else {
        ctx.check(avail >= 5, in, "byte array: header truncated");
        const std::uint64_t x = std::uint64_t{u24be(in)} << 16 | std::uint64_t{in[3]} << 8 | in[4];
        h.header_size = 5;
        h.src_size = x & 0x3FFFF;
        h.dst_size = ((x >> 18) & 0x3FFFF) + 1;
        ctx.check(h.src_size < h.dst_size, in, "byte array: long header with src_size >= dst_size");
    }
    return h;
}

/// Spec 2.5.
void decode_rle(const Context& ctx, const std::uint8_t* src, std::size_t src_size, std::uint8_t* out,
                std::size_t dst_size, int depth) {
    ctx.check(src_size >= 1, src, "RLE: empty payload");
    if (src_size == 1) {
        std::memset(out, src[0], dst_size);
        return;
    }
    const std::uint8_t* cb;
    std::size_t cb_size;
    if (src[0] == 0) {
        cb = src + 1;
        cb_size = src_size - 1;
    } else {
        // The buffer is sized by the prefix's own header, not by the largest prefix allowed:
        // the scratch grew zero-filled then (it grows without a fill since, DefaultInitVector),
        // and a first 256 KiB of it cost a third of a small file's decode (sekiro_spaar_item,
        // one block: 0.80 M instructions, then 0.54 M).
        std::uint8_t* buffer;
        ArrayResult prefix;
        try {
            // decode_array's own first check, made before the header is read for the size.
            ctx.check(depth + 1 <= kMaxDepth, src, "byte array: nested too deeply");
            const std::size_t capacity = std::min(parse_header(ctx, src, src_size).dst_size, kMaxArraySize);
            buffer = ensure(ctx.scratch->level[depth], capacity + src_size);
            prefix = decode_array(ctx, src, src_size, buffer, capacity, depth + 1, false);
        } catch (Error& e) {
            throw e.in("RLE prefix");
        }
        std::memcpy(buffer + prefix.size, src + prefix.used, src_size - prefix.used);
        cb = buffer;
        cb_size = prefix.size + src_size - prefix.used;
    }
    std::size_t f = 0, b = cb_size, o = 0;
    std::uint8_t fill = 0;
    while (f < b) {
        const unsigned c = cb[b - 1];
        std::size_t copy = 0, run = 0;
        if (c == 0 || c >= 0x30) {
            b -= 1;
            copy = 15 - (c & 15);
            run = c >> 4;
        } else if (c == 1) {
            b -= 1;
            ctx.check(f < b, src, "RLE: fill command without a fill byte");
            fill = cb[f++];
        } else {
            ctx.check(b - f >= 2, src, "RLE: two-byte command truncated");
            const unsigned x = cb[b - 2] | c << 8;
            b -= 2;
            if (c >= 0x10) {
                copy = (x - 0x1000) & 63;
                run = (x - 0x1000) >> 6;
            } else if (c >= 9) {
                run = (x - 0x8FF) * std::size_t{128};
            } else {
                copy = (x - 0x1FF) * std::size_t{64};
            }
        }
        ctx.check(copy <= b - f && copy + run <= dst_size - o, src, "RLE: command runs past its data or output");
        if (copy <= 16 && run <= 16 && dst_size - o >= 32 && cb_size - f >= 16) [[likely]] {
            // Most commands are one byte (copy and run below 16). memcpy and memset of their
            // varying sizes mispredicted inside glibc: ~110 branches of a 45 KB one-block
            // decode. Fixed 16-byte moves instead: the fill covers every byte the copy wrote
            // past `copy`, so the bytes past the run are all `fill`, inside the output, and
            // written again by the next commands (o == dst_size is checked at the end). The
            // command buffer needs its own guard: it may be the source payload, without slack.
            std::memcpy(out + o, cb + f, 16);
            std::memset(out + o + copy, fill, 16);
        } else {
            std::memcpy(out + o, cb + f, copy);
            std::memset(out + o + copy, fill, run);
        }
        f += copy, o += copy + run;
    }
    ctx.check(o == dst_size, src, "RLE: output shorter than declared");
}

/// Multi-array structure of spec 2.6, starting at its header byte src[0].
void decode_multi_array(const Context& ctx, const std::uint8_t* src, std::size_t src_size, std::uint8_t* out,
                        std::size_t dst_size, int depth) {
    const unsigned K = src[0] & 0x3F;
    std::size_t q = 1;
    if (K == 0) {
        const ArrayResult only = decode_array(ctx, src + q, src_size - q, out, dst_size, depth + 1, false);
        ctx.check(only.size == dst_size && q + only.used == src_size, src, "multi-array: size mismatch");
        return;
    }
    // Sources back to back in this depth's buffer, then the index and length-log arrays.
    std::uint8_t* buffer = ensure(ctx.scratch->level[depth], 3 * dst_size);
    struct Source {
        const std::uint8_t* data;
        std::size_t left;
    };
    std::vector<Source> sources(K + 1);
    std::size_t total = 0;
    for (unsigned j = 1; j <= K; ++j) {
        const ArrayResult r =
            decode_array(ctx, src + q, src_size - q, buffer + total, dst_size - total, depth + 1, true);
        sources[j] = {r.data, r.size};
        total += r.size;
        q += r.used;
    }
    ctx.check(total == dst_size, src, "multi-array: sources do not add up to the output size");
    ctx.check(src_size - q >= 3, src + q, "multi-array: truncated before the length region size");
    const unsigned qw = u16le(src + q);
    q += 2;
    const bool packed = (qw & 0x8000) != 0;
    std::uint8_t* idx_buf = buffer + dst_size;
    std::uint8_t* log_buf = buffer + 2 * dst_size;
    const ArrayResult idx = decode_array(ctx, src + q, src_size - q, idx_buf, total, depth + 1, true);
    q += idx.used;
    const std::size_t n_idx = idx.size;
    ctx.check(n_idx >= 2, src, "multi-array: index array too short");
    std::vector<std::uint8_t> index(n_idx), length_log(n_idx);
    std::size_t n_len;
    if (packed) {
        for (std::size_t i = 0; i < n_idx; ++i) index[i] = idx.data[i] & 15, length_log[i] = idx.data[i] >> 4;
        n_len = n_idx;
    } else {
        std::memcpy(index.data(), idx.data, n_idx);
        const ArrayResult logs = decode_array(ctx, src + q, src_size - q, log_buf, n_idx - 1, depth + 1, true);
        ctx.check(logs.size == n_idx - 1, src + q, "multi-array: length-log array size mismatch");
        q += logs.used;
        n_len = n_idx - 1;
        for (std::size_t i = 0; i < n_len; ++i) {
            length_log[i] = logs.data[i];
            ctx.check(length_log[i] <= 16, src, "multi-array: length log above 16");
        }
    }
    const std::size_t region_size = qw & 0x3FFF;
    ctx.check(region_size <= src_size - q, src + q, "multi-array: length region truncated");
    const std::uint8_t* region = src + q;
    MsbForward fwd(region, region_size);
    MsbBackward bwd(region, region_size);
    std::vector<std::size_t> lengths(n_len);
    for (std::size_t i = 0; i < n_len; ++i) {
        const unsigned k = length_log[i];
        lengths[i] = (std::size_t{1} << k) + ((i & 1) ? bwd.read(k) : fwd.read(k));
    }
    ctx.check(fwd.footprint() + bwd.footprint() <= region_size, region, "multi-array: length streams overlap");
    ctx.check(index[n_idx - 1] == 0, src, "multi-array: index array does not end with 0");
    std::size_t ii = 0, li = 0, o = 0;
    for (;;) {
        const unsigned v = index[ii++];
        if (v == 0) {
            if (packed) ++li;
            break;
        }
        ctx.check(v <= K && li < n_len, src, "multi-array: bad source index");
        Source& s = sources[v];
        const std::size_t n = lengths[li++];
        ctx.check(n <= s.left && n <= dst_size - o, src, "multi-array: copy past a source or the output");
        std::memcpy(out + o, s.data, n);
        s.data += n, s.left -= n, o += n;
    }
    ctx.check(ii == n_idx && li == n_len && o == dst_size, src, "multi-array: index list ends early");
    for (unsigned j = 1; j <= K; ++j) ctx.check(sources[j].left == 0, src, "multi-array: source not fully used");
    ctx.check(q + region_size == src_size, src, "multi-array: payload not fully consumed");
}

/// Spec 2.6.
void decode_recursive(const Context& ctx, const std::uint8_t* src, std::size_t src_size, std::uint8_t* out,
                      std::size_t dst_size, int depth) {
    ctx.check(src_size >= 6, src, "recursive array: payload below 6 bytes");
    const unsigned h = src[0];
    ctx.check((h & 0x7F) >= 2, src, "recursive array: fewer than 2 parts");
    if (h & 0x80) {
        decode_multi_array(ctx, src, src_size, out, dst_size, depth);
        return;
    }
    std::size_t q = 1, o = 0;
    for (unsigned i = 0; i < h; ++i) {
        const ArrayResult r = decode_array(ctx, src + q, src_size - q, out + o, dst_size - o, depth + 1, false);
        q += r.used, o += r.size;
    }
    ctx.check(o == dst_size && q == src_size, src, "recursive array: parts do not fill the array exactly");
}

}  // namespace

ArrayResult decode_array(const Context& ctx, const std::uint8_t* in, std::size_t avail, std::uint8_t* out,
                         std::size_t capacity, int depth, bool alias) {
    ctx.check(depth <= kMaxDepth, in, "byte array: nested too deeply");
    const Header h = parse_header(ctx, in, avail);
    ctx.check(h.dst_size <= capacity, in, "byte array: larger than its context allows");
    ctx.check(h.src_size <= avail - h.header_size, in, "byte array: payload truncated");
    const std::uint8_t* payload = in + h.header_size;
    ArrayResult result{out, h.dst_size, h.header_size + h.src_size};
    if (ctx.info) [[unlikely]]
        ctx.info->blocks.back().chunks.back().arrays.push_back(
            {static_cast<std::size_t>(in - ctx.begin), depth, h.type, h.header_size, h.src_size, h.dst_size});
    switch (h.type) {
        case 0:
            if (alias) result.data = payload;
            else std::memcpy(out, payload, h.dst_size);
            break;
        case 1: decode_tans(ctx, payload, h.src_size, out, h.dst_size); break;
        case 2: decode_huffman(ctx, payload, h.src_size, out, h.dst_size, false); break;
        case 3: decode_rle(ctx, payload, h.src_size, out, h.dst_size, depth); break;
        case 4: decode_huffman(ctx, payload, h.src_size, out, h.dst_size, true); break;
        case 5: decode_recursive(ctx, payload, h.src_size, out, h.dst_size, depth); break;
    }
    return result;
}

}  // namespace navlab::kraken::detail
