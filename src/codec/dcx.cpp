// DCX reading and writing (spec fromsoft-containers.md §1). Layout summary:
//   DCX:  "DCX\0" header (0x4C bytes, big-endian) then the stream; EDGE puts its chunk
//         table (EgdT) inside the DCA chunk and the chunks after it.
//   DCP:  "DCP\0" + codec + 6 words, "DCS\0" usize csize, stream, "DCA\0" (+ EgdT for EDGE).
#include "codec/dcx.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "codec/kraken/kraken.h"
#include "codec/stream_codecs.h"
#include "io/byte_writer.h"
#include "io/error.h"
#include "io/memory_advice.h"
#include "io/text.h"

namespace navlab::dcx {
namespace {

constexpr std::size_t kDcaOffset = 0x44;
constexpr std::uint32_t kEdgeChunkSize = 0x10000;
/// A zstd RLE block is 4 bytes for up to 128 KiB of output.
constexpr std::uint64_t kZstdMaxRatio = 32768;

struct VariantInfo {
    Variant variant;
    std::string_view name;
    const char* codec;  // "" for None / Zlib
    std::uint32_t version, field10, field14, level, field34, field38, field40;
};

// field14 of EDGE depends on the chunk count; compress() fills it in.
constexpr VariantInfo kVariants[] = {
    {Variant::None, "NONE", "", 0, 0, 0, 0, 0, 0, 0},
    {Variant::Zlib, "ZLIB", "", 0, 0, 0, 0, 0, 0, 0},
    {Variant::DcpDflt, "DCP_DFLT", "DFLT", 0, 0, 0, 9, 0, 0, 0x00010100},
    {Variant::DcpEdge, "DCP_EDGE", "EDGE", 0, 0, 0, 9, 0x10000, 0, 0x00100100},
    {Variant::Edge, "DCX_EDGE", "EDGE", 0x10000, 0x24, 0, 9, 0x10000, 0, 0x00100100},
    {Variant::Dflt_10000_24_9, "DCX_DFLT_10000_24_9", "DFLT", 0x10000, 0x24, 0x2C, 9, 0, 0, 0x00010100},
    {Variant::Dflt_10000_44_9, "DCX_DFLT_10000_44_9", "DFLT", 0x10000, 0x44, 0x4C, 9, 0, 0, 0x00010100},
    {Variant::Dflt_11000_44_8, "DCX_DFLT_11000_44_8", "DFLT", 0x11000, 0x44, 0x4C, 8, 0, 0, 0x00010100},
    {Variant::Dflt_11000_44_9, "DCX_DFLT_11000_44_9", "DFLT", 0x11000, 0x44, 0x4C, 9, 0, 0, 0x00010100},
    {Variant::Dflt_11000_44_9_15, "DCX_DFLT_11000_44_9_15", "DFLT", 0x11000, 0x44, 0x4C, 9, 0, 0x0F000000,
     0x00010100},
    {Variant::Krak, "DCX_KRAK", "KRAK", 0x11000, 0x44, 0x4C, 6, 0, 0, 0x00010100},
    {Variant::KrakMax, "DCX_KRAK_MAX", "KRAK", 0x11000, 0x44, 0x4C, 9, 0, 0, 0x00010100},
    // The ZSTD level byte is unsettled (15 or 21); SoulsFormats writes 21.
    {Variant::Zstd, "DCX_ZSTD", "ZSTD", 0x11000, 0x44, 0x4C, 21, 0, 0, 0x00010100},
};

const VariantInfo& info(Variant v) {
    for (const auto& i : kVariants)
        if (i.variant == v) return i;
    throw Error("unknown DCX variant");
}

bool codec_is(const Header& h, const char* codec) { return std::memcmp(h.codec, codec, 4) == 0; }
bool is_dcp(Variant v) { return v == Variant::DcpDflt || v == Variant::DcpEdge; }

bool is_zlib_header(Bytes file) {
    return file.size() >= 2 && file[0] == 0x78 &&
           (file[1] == 0x01 || file[1] == 0x5E || file[1] == 0x9C || file[1] == 0xDA);
}

/// The named variant a DCX header is closest to. Mod tools alter constants, so only the
/// codec is decisive; the raw fields are kept in Header either way.
Variant classify_dcx(const Header& h, const ByteReader& r) {
    if (codec_is(h, "KRAK")) return h.level() == 9 ? Variant::KrakMax : Variant::Krak;
    if (codec_is(h, "ZSTD")) return Variant::Zstd;
    if (codec_is(h, "EDGE")) return Variant::Edge;
    if (!codec_is(h, "DFLT"))
        r.fail_at(0x28, fmt::format("unknown DCX codec \"{}\" (expected DFLT, KRAK, ZSTD or EDGE)",
                                    escape_non_utf8(std::string_view(h.codec, 4))));
    if (h.field10 == 0x24) return Variant::Dflt_10000_24_9;
    if (h.version == 0x10000) return Variant::Dflt_10000_44_9;
    if (h.field38 == 0x0F000000) return Variant::Dflt_11000_44_9_15;
    if (h.level() == 8) return Variant::Dflt_11000_44_8;
    return Variant::Dflt_11000_44_9;
}

/// Reads "DCP\0", the codec and the six words that follow it (at 0x24 of a DCX, at 0 of a DCP).
void read_dcp_chunk(ByteReader& r, Header& h) {
    r.expect(std::string_view("DCP\0", 4), "DCP magic");
    std::memcpy(h.codec, r.bytes(4, "codec").data(), 4);
    h.dcp_size = r.u32("DCP size");
    h.level_word = r.u32("level");
    h.field34 = r.u32("field 0x34");
    h.field38 = r.u32("field 0x38");
    h.field3c = r.u32("field 0x3C");
    h.field40 = r.u32("field 0x40");
}

void read_dcs_chunk(ByteReader& r, Header& h) {
    r.expect(std::string_view("DCS\0", 4), "DCS magic");
    h.uncompressed_size = r.u32("uncompressed size");
    h.compressed_size = r.u32("compressed size");
}

/// Reads the 0x4C-byte "DCX\0" header; the reader ends at 0x4C.
Header read_dcx_header(ByteReader& r) {
    Header h;
    r.expect(std::string_view("DCX\0", 4), "DCX magic");
    h.version = r.u32("format version (0x04)");
    h.dcs_offset = r.u32("DCS offset (0x08)");
    h.dcp_offset = r.u32("DCP offset (0x0C)");
    h.field10 = r.u32("field 0x10");
    h.field14 = r.u32("field 0x14");
    read_dcs_chunk(r, h);
    read_dcp_chunk(r, h);
    r.expect(std::string_view("DCA\0", 4), "DCA magic");
    h.dca_size = r.u32("DCA size (0x48)");
    h.variant = classify_dcx(h, r);
    if (h.variant != Variant::Edge && h.dca_size != 8)
        r.fail_at(0x48, fmt::format("DCA size is {}, expected 8 for {}", h.dca_size, variant_name(h.variant)));
    return h;
}

/// Reads the "DCP\0" header and its "DCS\0" sizes; the reader ends at the stream (DCP_DFLT)
/// or at the zero word before it (DCP_EDGE). The DCP words land in the DCX-named fields.
Header read_dcp_header(ByteReader& r) {
    Header h;
    read_dcp_chunk(r, h);
    if (codec_is(h, "DFLT")) h.variant = Variant::DcpDflt;
    else if (codec_is(h, "EDGE")) h.variant = Variant::DcpEdge;
    else r.fail_at(4, "unknown DCP codec (expected DFLT or EDGE)");
    h.version = 0, h.field10 = 0, h.field14 = 0, h.dcs_offset = 0, h.dcp_offset = 0;
    read_dcs_chunk(r, h);
    return h;
}

/// Counts the bytes after the stream; they must all be zero (KRAK/ZSTD pad to 16).
std::uint32_t trailing_zeros(const ByteReader& r, std::size_t end) {
    Bytes rest = r.data().subspan(end);
    for (std::size_t i = 0; i < rest.size(); ++i)
        if (rest[i] != 0)
            r.fail_at(end + i, fmt::format("non-zero byte 0x{:02X} after the end of the compressed stream "
                                           "(compressed size says the stream ends at {})",
                                           rest[i], hex(end)));
    return static_cast<std::uint32_t>(rest.size());
}

/// Checks that a declared size is one `csize` compressed bytes could produce, so a lying
/// header cannot make us allocate gigabytes (decompression bomb).
void check_ratio(const ByteReader& r, const Header& h, std::uint64_t max_out, std::size_t size_field) {
    if (h.uncompressed_size > max_out)
        r.fail_at(size_field, fmt::format("uncompressed size {} cannot come from {} compressed bytes "
                                          "(at most {}): the header lies or the file is a decompression bomb",
                                          h.uncompressed_size, h.compressed_size, max_out));
}

// ---- EDGE ---------------------------------------------------------------------------

struct EdgeChunk {
    std::uint32_t offset, size, flag;
    std::size_t record = 0;  ///< absolute offset of the record's chunk-offset field (for errors)
};

/// Reads an EgdT table at the reader's position. DCX_EDGE has a "last chunk size" field
/// (header 0x24 bytes); DCP_EDGE does not (0x20).
std::vector<EdgeChunk> read_egdt(ByteReader& r, const Header& h, bool dcx_form) {
    const std::size_t start = r.pos();
    r.expect("EgdT", "EgdT magic");
    r.u32("EgdT version");
    const std::uint32_t header_size = r.u32("EgdT header size");
    if (header_size != (dcx_form ? 0x24u : 0x20u))
        r.fail_at(r.pos() - 4, fmt::format("EgdT header size is {}, expected {}", hex(header_size),
                                           hex(dcx_form ? 0x24 : 0x20)));
    if (r.u32("EgdT record size") != 0x10) r.fail_at(r.pos() - 4, "EgdT chunk record size is not 0x10");
    if (r.u32("EgdT chunk size") != kEdgeChunkSize) r.fail_at(r.pos() - 4, "EgdT chunk size is not 0x10000");
    if (dcx_form) {
        const std::uint32_t last = r.u32("EgdT last chunk size");
        const std::uint32_t expect = h.uncompressed_size % kEdgeChunkSize ? h.uncompressed_size % kEdgeChunkSize
                                                                          : kEdgeChunkSize;
        if (last != expect)
            r.fail_at(r.pos() - 4, fmt::format("EgdT last chunk size is {}, the uncompressed size implies {}",
                                               hex(last), hex(expect)));
    }
    const std::uint32_t egdt_size = r.u32("EgdT size");
    const std::uint32_t count = r.u32("EgdT chunk count");
    r.u32("EgdT unknown (0x00100000)");
    if (std::uint64_t{count} * 16 > r.remaining())
        r.fail_at(r.pos() - 8, fmt::format("EgdT chunk count {} needs {} bytes of records, only {} remain", count,
                                           std::uint64_t{count} * 16, r.remaining()));
    if (egdt_size != header_size + 16ull * count)
        r.fail_at(start + header_size - 12, fmt::format("EgdT size {} does not match {} chunks", hex(egdt_size), count));
    const std::uint64_t chunks_needed = (std::uint64_t{h.uncompressed_size} + kEdgeChunkSize - 1) / kEdgeChunkSize;
    if (count != chunks_needed)
        r.fail_at(start + header_size - 8, fmt::format("EgdT has {} chunks, the uncompressed size {} needs {}", count,
                                                       h.uncompressed_size, chunks_needed));
    std::vector<EdgeChunk> chunks(count);
    for (auto& c : chunks) {
        r.u32("EgdT record zero");
        c.record = r.pos();
        c.offset = r.u32("EgdT chunk offset");
        c.size = r.u32("EgdT chunk compressed size");
        c.flag = r.u32("EgdT chunk flag");
    }
    return chunks;
}

/// Decodes EDGE chunks whose offsets are relative to data.base().
void decode_edge(const ByteReader& data, const std::vector<EdgeChunk>& chunks, std::span<std::uint8_t> out) {
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        const EdgeChunk& c = chunks[i];
        const std::size_t begin = i * kEdgeChunkSize;
        auto dst = out.subspan(begin, std::min<std::size_t>(kEdgeChunkSize, out.size() - begin));
        const std::string field = fmt::format("EDGE chunk {}", i);
        // Named at the EgdT record that holds the bad range, not at an offset outside the file.
        if (std::uint64_t{c.offset} + c.size > data.size())
            throw Error(fmt::format("{} at {} + {} bytes runs past the end of the compressed stream ({} bytes)", field,
                                    hex(c.offset), c.size, data.size()),
                        c.record, data.context());
        Bytes src = data.view(c.offset, c.size, field);
        if (c.flag == 0) {
            if (c.size != dst.size())
                data.fail_at(c.offset, fmt::format("{}: stored chunk of {} bytes, expected {}", field, c.size, dst.size()));
            std::memcpy(dst.data(), src.data(), dst.size());
        } else if (c.flag == 1) {
            try {
                if (codec::deflate_inflate(src, dst, data.absolute(c.offset)) != src.size())
                    data.fail_at(c.offset, "deflate data end before the chunk's compressed size");
            } catch (Error& e) {
                throw e.in(field);
            }
        } else {
            data.fail_at(c.offset, fmt::format("{}: unknown chunk flag {}", field, c.flag));
        }
    }
}

/// Compresses payload into 16-aligned raw-deflate chunks; returns the chunk area (with its
/// padding) and fills `chunks`.
std::vector<std::uint8_t> encode_edge(Bytes payload, std::vector<EdgeChunk>& chunks) {
    ByteWriter area;
    for (std::size_t pos = 0; pos < payload.size(); pos += kEdgeChunkSize) {
        Bytes piece = payload.subspan(pos, std::min<std::size_t>(kEdgeChunkSize, payload.size() - pos));
        std::vector<std::uint8_t> packed = codec::raw_deflate(piece, 9);
        const bool stored = packed.size() >= piece.size();
        Bytes body = stored ? piece : Bytes(packed);
        area.align(16);
        chunks.push_back({static_cast<std::uint32_t>(area.size()), static_cast<std::uint32_t>(body.size()),
                          stored ? 0u : 1u});
        area.bytes(body);
    }
    area.align(16);
    return std::move(area).finish();
}

void write_egdt(ByteWriter& w, const std::vector<EdgeChunk>& chunks, std::uint32_t usize, bool dcx_form) {
    const std::uint32_t header_size = dcx_form ? 0x24 : 0x20;
    w.bytes("EgdT");
    w.u32(dcx_form ? 0x00010100 : 0x00010000);
    w.u32(header_size);
    w.u32(0x10);
    w.u32(kEdgeChunkSize);
    if (dcx_form) w.u32(usize % kEdgeChunkSize ? usize % kEdgeChunkSize : kEdgeChunkSize);
    w.u32(header_size + 16 * static_cast<std::uint32_t>(chunks.size()));
    w.u32(static_cast<std::uint32_t>(chunks.size()));
    w.u32(0x00100000);
    for (const auto& c : chunks) {
        w.u32(0);
        w.u32(c.offset);
        w.u32(c.size);
        w.u32(c.flag);
    }
}

// ---- per-form decoders --------------------------------------------------------------

/// Sizes `payload` to `n` bytes for a decoder to fill whole (not zeroed: PayloadBuffer): on a
/// pooled buffer when one is large enough (its pages mapped from an earlier payload, up to that
/// payload's size + the pool's slack), else on new memory with huge pages asked for first.
/// Either way the pages are mapped in one call (the pooled buffer's pages past the slack were
/// given back).
void size_for_decoding(PayloadBuffer& payload, std::size_t n) {
    payload = take_pooled_buffer(n);
    if (payload.capacity() < n) {
        payload.reserve(n);
        advise_huge_pages(payload.data(), n);
    }
    prefault_pages(payload.data(), n);
    payload.resize(n);  // not filled: the decoder writes every byte or throws
}

/// The compressed stream, compressed_size bytes at data_start, lies inside the file.
void check_stream_fits(const ByteReader& r, const Header& h, std::size_t data_start) {
    const std::size_t size = r.data().size();
    if (data_start > size || size - data_start < h.compressed_size)
        r.fail_at(0x20, fmt::format("compressed size {}: the stream from {} would run past the end of the file ({})",
                                    h.compressed_size, hex(data_start), hex(size)));
}

Decoded decode_dcx(Bytes file) {
    ByteReader r(file, 0, Endian::Big);
    r.set_context("DCX");
    Decoded d;
    Header& h = d.header;
    h = read_dcx_header(r);
    const std::size_t data_start = kDcaOffset + h.dca_size;
    std::vector<EdgeChunk> chunks;
    if (h.variant == Variant::Edge) {
        chunks = read_egdt(r, h, true);
        if (h.dca_size != 8 + 0x24 + 16 * chunks.size())
            r.fail_at(0x48, fmt::format("DCA size {} does not match the EgdT table of {} chunks", hex(h.dca_size),
                                        chunks.size()));
    }
    check_stream_fits(r, h, data_start);
    const ByteReader stream = r.sub(data_start, h.compressed_size, "compressed stream");
    const std::size_t end = data_start + h.compressed_size;
    const std::uint64_t csize = h.compressed_size;
    if (h.variant == Variant::Edge) {
        check_ratio(r, h, csize * codec::kDeflateMaxRatio, 0x1C);
        size_for_decoding(d.payload, h.uncompressed_size);
        decode_edge(stream, chunks, d.payload);
    } else if (codec_is(h, "KRAK")) {
        check_ratio(r, h, kraken::max_decoded_size(csize), 0x1C);
        size_for_decoding(d.payload, h.uncompressed_size);
        kraken::decode(stream.data(), d.payload, 0);
    } else if (codec_is(h, "ZSTD")) {
        check_ratio(r, h, csize * kZstdMaxRatio, 0x1C);
        size_for_decoding(d.payload, h.uncompressed_size);
        if (codec::zstd_decompress(stream.data(), d.payload, data_start) != csize)
            r.fail_at(0x20, "the zstd frame is shorter than the compressed size says");
    } else {
        check_ratio(r, h, csize * codec::kDeflateMaxRatio, 0x1C);
        size_for_decoding(d.payload, h.uncompressed_size);
        const std::size_t used = codec::zlib_inflate(stream.data(), d.payload, data_start);
        if (used != csize)
            r.fail_at(0x20, fmt::format("the zlib stream is {} bytes but the compressed size says {}", used, csize));
    }
    h.trailing_padding = trailing_zeros(r, end);
    return d;
}

Decoded decode_dcp(Bytes file) {
    ByteReader r(file, 0, Endian::Big);
    r.set_context("DCP");
    Decoded d;
    Header& h = d.header;
    h = read_dcp_header(r);
    if (h.variant == Variant::DcpEdge) h.field10 = r.u32("DCS zero word");
    const std::size_t data_start = r.pos();
    if (file.size() - data_start < h.compressed_size)
        r.fail_at(0x28, fmt::format("compressed size {} runs past the end of the file", h.compressed_size));
    const ByteReader stream = r.sub(data_start, h.compressed_size, "compressed stream");
    r.seek(data_start + h.compressed_size, "DCA");
    r.expect(std::string_view("DCA\0", 4), "DCA magic");
    h.dca_size = r.u32("DCA size");
    if (h.variant == Variant::DcpDflt) {
        if (h.dca_size != 8) r.fail_at(r.pos() - 4, "DCA size is not 8");
        check_ratio(r, h, std::uint64_t{h.compressed_size} * codec::kDeflateMaxRatio, 0x24);
        size_for_decoding(d.payload, h.uncompressed_size);
        if (codec::zlib_inflate(stream.data(), d.payload, data_start) != h.compressed_size)
            r.fail_at(0x28, "the zlib stream is shorter than the compressed size says");
    } else {
        const auto chunks = read_egdt(r, h, false);
        check_ratio(r, h, std::uint64_t{h.compressed_size} * codec::kDeflateMaxRatio, 0x24);
        if (h.dca_size != 8 + 0x20 + 16 * chunks.size()) r.fail_at(data_start + h.compressed_size + 4, "DCA size does not match the EgdT table");
        size_for_decoding(d.payload, h.uncompressed_size);
        decode_edge(stream, chunks, d.payload);
    }
    h.trailing_padding = trailing_zeros(r, r.pos());
    return d;
}

Decoded decode_zlib(Bytes file) {
    Decoded d;
    d.header.variant = Variant::Zlib;
    std::size_t used = 0;
    try {
        d.payload = codec::zlib_inflate_bounded(file, file.size() * codec::kDeflateMaxRatio, 0, &used);
    } catch (Error& e) {
        throw e.in("bare zlib");
    }
    ByteReader r(file);
    r.set_context("bare zlib");
    d.header.compressed_size = static_cast<std::uint32_t>(used);
    if (d.payload.size() > 0xFFFFFFFFu) r.fail_at(0, "inflated size exceeds 4 GiB");
    d.header.uncompressed_size = static_cast<std::uint32_t>(d.payload.size());
    d.header.trailing_padding = trailing_zeros(r, used);
    return d;
}

/// "DCS\0" and the two sizes: the same chunk in both forms.
void put_dcs_chunk(ByteWriter& w, const Header& h) {
    w.bytes(std::string_view("DCS\0", 4));
    w.u32(h.uncompressed_size);
    w.u32(h.compressed_size);
}

/// "DCP\0", the codec and six words: the same chunk at 0x24 of a DCX and at 0 of a DCP file.
void put_dcp_chunk(ByteWriter& w, const Header& h) {
    w.bytes(std::string_view("DCP\0", 4));
    w.bytes(Bytes(reinterpret_cast<const std::uint8_t*>(h.codec), 4));
    for (std::uint32_t v : {h.dcp_size, h.level_word, h.field34, h.field38, h.field3c, h.field40}) w.u32(v);
}

void put_dcx_header(ByteWriter& w, const Header& h) {
    w.bytes(std::string_view("DCX\0", 4));
    for (std::uint32_t v : {h.version, h.dcs_offset, h.dcp_offset, h.field10, h.field14}) w.u32(v);
    put_dcs_chunk(w, h);
    put_dcp_chunk(w, h);
    w.bytes(std::string_view("DCA\0", 4));
    w.u32(h.dca_size);
}

void put_dcp_header(ByteWriter& w, const Header& h) {
    put_dcp_chunk(w, h);
    put_dcs_chunk(w, h);
}

std::uint32_t checked_u32(std::size_t n, const char* what) {
    if (n > 0xFFFFFFFFu) throw Error(fmt::format("{} of {} bytes does not fit DCX's 32-bit size fields", what, n));
    return static_cast<std::uint32_t>(n);
}

std::vector<std::uint8_t> compress_dcp(Bytes payload, Header& h) {
    ByteWriter w(Endian::Big);
    if (h.variant == Variant::DcpDflt) {
        const auto stream = codec::zlib_deflate(payload, 9);
        h.compressed_size = checked_u32(stream.size(), "compressed stream");
        put_dcp_header(w, h);
        w.bytes(stream);
        w.bytes(std::string_view("DCA\0", 4));
        w.u32(8);
    } else {
        std::vector<EdgeChunk> chunks;
        const auto area = encode_edge(payload, chunks);
        h.compressed_size = checked_u32(area.size(), "compressed stream");
        put_dcp_header(w, h);
        w.u32(h.field10);
        w.bytes(area);
        w.bytes(std::string_view("DCA\0", 4));
        w.u32(static_cast<std::uint32_t>(8 + 0x20 + 16 * chunks.size()));
        write_egdt(w, chunks, h.uncompressed_size, false);
    }
    return std::move(w).finish();
}

}  // namespace

Form form_of(Bytes file) noexcept {
    if (file.size() >= 4 && std::memcmp(file.data(), "DCX\0", 4) == 0) return Form::Dcx;
    if (file.size() >= 4 && std::memcmp(file.data(), "DCP\0", 4) == 0) return Form::Dcp;
    if (is_zlib_header(file)) return Form::Zlib;
    return Form::Plain;
}

bool is_dcx(Bytes file) { return form_of(file) != Form::Plain; }

Header read_header(Bytes file) {
    Header h;
    const Form form = form_of(file);
    if (form == Form::Dcx || form == Form::Dcp) {
        ByteReader r(file, 0, Endian::Big);
        r.set_context(form == Form::Dcx ? "DCX" : "DCP");
        h = form == Form::Dcx ? read_dcx_header(r) : read_dcp_header(r);
    } else if (form == Form::Zlib) {
        h.variant = Variant::Zlib;
        h.compressed_size = checked_u32(file.size(), "file");
    } else {
        h.uncompressed_size = checked_u32(file.size(), "file");
    }
    return h;
}

Bytes compressed_stream(Bytes file) {
    ByteReader r(file, 0, Endian::Big);
    r.set_context("DCX");
    if (form_of(file) != Form::Dcx) r.fail_at(0, "not a DCX file (no \"DCX\\0\" magic)");
    const Header h = read_dcx_header(r);
    const std::size_t data_start = kDcaOffset + h.dca_size;
    check_stream_fits(r, h, data_start);
    return file.subspan(data_start, h.compressed_size);
}

Decoded decompress(Bytes file) {
    switch (form_of(file)) {
        case Form::Dcx: return decode_dcx(file);
        case Form::Dcp: return decode_dcp(file);
        case Form::Zlib: return decode_zlib(file);
        case Form::Plain: break;
    }
    Decoded d;
    d.header.uncompressed_size = checked_u32(file.size(), "file");
    d.payload.assign(file.begin(), file.end());
    return d;
}

Header standard_header(Variant variant) {
    const VariantInfo& i = info(variant);
    Header h;
    h.variant = variant;
    std::memcpy(h.codec, i.codec, std::strlen(i.codec));
    h.version = i.version;
    h.field10 = i.field10;
    h.field14 = i.field14;
    h.level_word = i.level << 24;
    h.field34 = i.field34;
    h.field38 = i.field38;
    h.field40 = i.field40;
    if (is_dcp(variant)) h.dcs_offset = 0, h.dcp_offset = 0;
    return h;
}

std::vector<std::uint8_t> compress(Bytes payload, Variant variant, const Header* keep, int kraken_level,
                                   const std::function<void(std::size_t)>& kraken_block_done) {
    if (variant == Variant::None) return {payload.begin(), payload.end()};
    if (variant == Variant::Zlib) return codec::zlib_deflate(payload, 9);
    Header h = keep && keep->variant == variant ? *keep : standard_header(variant);
    h.uncompressed_size = checked_u32(payload.size(), "payload");
    if (is_dcp(variant)) return compress_dcp(payload, h);

    std::vector<std::uint8_t> stream;
    std::vector<EdgeChunk> chunks;
    bool pad16 = true;
    if (codec_is(h, "DFLT")) {
        // The level byte is the zlib level (9, or 8 in DCX_DFLT_11000_44_8).
        stream = codec::zlib_deflate(payload, std::clamp<int>(h.level() ? h.level() : 9, 1, 9));
        pad16 = false;
    } else if (codec_is(h, "KRAK")) {
        const int level = kraken_level >= 0 ? kraken_level : std::clamp<int>(h.level() ? h.level() : 6, 1, kraken::kMaxLevel);
        stream = kraken::encode(payload, level, 0, kraken_block_done);
    } else if (codec_is(h, "ZSTD")) {
        // The level byte is the zstd level, capped at 19: with a 64 KiB window the "ultra"
        // levels 20..22 only cost time (minutes for a 77 MB binder).
        stream = codec::zstd_compress(payload, std::clamp<int>(h.level() ? h.level() : 19, 1, 19), 16);
    } else {
        stream = encode_edge(payload, chunks);
        pad16 = false;
        h.dca_size = static_cast<std::uint32_t>(8 + 0x24 + 16 * chunks.size());
        h.field14 = static_cast<std::uint32_t>(0x50 + 16 * chunks.size());
    }
    if (variant != Variant::Edge) h.dca_size = 8;
    h.compressed_size = checked_u32(stream.size(), "compressed stream");
    ByteWriter w(Endian::Big);
    put_dcx_header(w, h);
    if (variant == Variant::Edge) write_egdt(w, chunks, h.uncompressed_size, true);
    w.bytes(stream);
    if (pad16) w.align(16);
    return std::move(w).finish();
}

std::string_view variant_name(Variant variant) { return info(variant).name; }
std::string_view codec_name(Variant variant) { return info(variant).codec; }

Variant parse_variant_name(std::string_view name) {
    std::string upper;
    for (char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    struct Alias {
        std::string_view name;
        Variant variant;
    };
    static constexpr Alias kAliases[] = {
        {"DCX_KRAK_6", Variant::Krak}, {"DCX_KRAK_9", Variant::KrakMax}, {"KRAK", Variant::Krak},
        {"DFLT", Variant::Dflt_11000_44_9}, {"ZSTD", Variant::Zstd},     {"EDGE", Variant::Edge},
    };
    for (const auto& a : kAliases)
        if (upper == a.name || upper == "DCX_" + std::string(a.name)) return a.variant;
    std::string valid;
    for (const auto& i : kVariants) {
        if (upper == i.name || "DCX_" + upper == i.name) return i.variant;
        valid += (valid.empty() ? "" : ", ") + std::string(i.name);
    }
    throw Error(fmt::format("unknown DCX variant \"{}\" (valid: {})", name, valid));
}

std::vector<Variant> all_variants() {
    std::vector<Variant> out;
    for (const auto& i : kVariants) out.push_back(i.variant);
    return out;
}

std::vector<std::string> nonstandard_fields(const Header& h) {
    std::vector<std::string> out;
    if (h.variant == Variant::None || h.variant == Variant::Zlib) return out;
    const Header s = standard_header(h.variant);
    const bool dcx_form = !is_dcp(h.variant);
    auto check = [&](const char* field, std::uint32_t got, std::uint32_t want) {
        if (got != want) out.push_back(fmt::format("{} is {}, standard {}", field, hex(got), hex(want)));
    };
    if (dcx_form) {
        check("0x04 version", h.version, s.version);
        check("0x08 DCS offset", h.dcs_offset, s.dcs_offset);
        check("0x0C DCP offset", h.dcp_offset, s.dcp_offset);
        check("0x10", h.field10, s.field10);
        if (h.variant != Variant::Edge) check("0x14", h.field14, s.field14);
    }
    check("DCP size", h.dcp_size, s.dcp_size);
    // ZSTD's level byte is not settled (15 and 21 are both written), so it is not reported.
    if (h.variant != Variant::Zstd) check("level word", h.level_word, s.level_word);
    check("field 0x34", h.field34, s.field34);
    check("field 0x38", h.field38, s.field38);
    check("field 0x3C", h.field3c, s.field3c);
    check("field 0x40", h.field40, s.field40);
    return out;
}

}  // namespace navlab::dcx
