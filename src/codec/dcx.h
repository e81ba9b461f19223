// DCX — FromSoftware's single-file compression wrapper (spec fromsoft-containers.md §1).
//
// A DCX file is a big-endian header naming a codec (DFLT zlib, KRAK Oodle Kraken, ZSTD,
// EDGE chunked deflate) and the payload's declared sizes, followed by the compressed stream.
// The variant name (DCX_DFLT_10000_44_9, ...) is not stored: it is derived from header
// constants. Header keeps every raw constant so a rewrite reproduces the header exactly.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "io/buffer_pool.h"
#include "io/byte_reader.h"

namespace navlab::dcx {

/// Every container form navlab reads. The DFLT/KRAK names follow SoulsFormats.
enum class Variant {
    None,                ///< not compressed: the payload is the file itself
    Zlib,                ///< a bare zlib stream (starts 78 01/5E/9C/DA), no DCX header
    DcpDflt,             ///< DCP_DFLT: old headerless "DCP\0DFLT" form with a zlib stream
    DcpEdge,             ///< DCP_EDGE: old headerless "DCP\0EDGE" form with deflate chunks
    Edge,                ///< DCX_EDGE: 64 KiB raw-deflate chunks (Demon's Souls)
    Dflt_10000_24_9,     ///< DCX_DFLT_10000_24_9 (DS1, DS1R, DS2)
    Dflt_10000_44_9,     ///< DCX_DFLT_10000_44_9 (Bloodborne, DS3)
    Dflt_11000_44_8,     ///< DCX_DFLT_11000_44_8
    Dflt_11000_44_9,     ///< DCX_DFLT_11000_44_9
    Dflt_11000_44_9_15,  ///< DCX_DFLT_11000_44_9_15 (ER regulation before 1.12)
    Krak,                ///< DCX_KRAK, level 6 (Sekiro, Elden Ring)
    KrakMax,             ///< DCX_KRAK_MAX, level 9 (Armored Core VI)
    Zstd,                ///< DCX_ZSTD (ER regulation since 1.12)
};

/// The raw header of a DCX (or DCP) file. Field names give the offset in a "DCX\0" header;
/// for the DCP forms the same values come from the DCP header (see dcx.cpp).
/// Every value is kept as read so that compress(payload, variant, &header) writes it back.
struct Header {
    Variant variant = Variant::None;
    std::uint32_t version = 0;           ///< 0x04: 0x10000 or 0x11000
    std::uint32_t dcs_offset = 0x18;     ///< 0x08: offset of "DCS\0"
    std::uint32_t dcp_offset = 0x24;     ///< 0x0C: offset of "DCP\0"
    std::uint32_t field10 = 0;           ///< 0x10: 0x24 or 0x44 (a version constant)
    std::uint32_t field14 = 0;           ///< 0x14: 0x2C / 0x4C, EDGE 0x50 + 16 * chunks
    std::uint32_t uncompressed_size = 0; ///< 0x1C: payload size
    std::uint32_t compressed_size = 0;   ///< 0x20: stream size (EDGE: with chunk padding)
    std::uint32_t dcp_size = 0x20;       ///< 0x2C: size of the DCP chunk
    std::uint32_t level_word = 0;        ///< 0x30: level byte in the first (high) byte
    std::uint32_t field34 = 0;           ///< 0x34: 0, EDGE 0x10000 (chunk size)
    std::uint32_t field38 = 0;           ///< 0x38: 0, or 0x0F000000 in DFLT_11000_44_9_15
    std::uint32_t field3c = 0;           ///< 0x3C: 0
    std::uint32_t field40 = 0;           ///< 0x40: 0x00010100, EDGE 0x00100100
    std::uint32_t dca_size = 8;          ///< 0x48: size of the DCA chunk (EDGE: 8 + EgdT)
    std::uint32_t trailing_padding = 0;  ///< zero bytes after the stream (KRAK/ZSTD pad to 16)
    char codec[4] = {0, 0, 0, 0};        ///< 0x28: "DFLT", "KRAK", "ZSTD", "EDGE"

    /// The compression level byte (0x30): 9 for DFLT, 6 or 9 for KRAK, 15/21 for ZSTD.
    std::uint8_t level() const noexcept { return static_cast<std::uint8_t>(level_word >> 24); }
};

/// A decompressed DCX: its header and the payload (exactly header.uncompressed_size bytes;
/// for Variant::None the whole input). A decompressed payload's memory may come from the
/// buffer pool (io/buffer_pool.h); whatever payload a Decoded drops goes back to it (a payload
/// moved out into SharedBytes goes back when the last SharedBytes on it goes).
struct Decoded {
    Header header;
    PayloadBuffer payload;  ///< see io/buffer_pool.h

    Decoded() = default;
    Decoded(const Decoded&) = default;
    Decoded(Decoded&&) noexcept = default;
    Decoded& operator=(const Decoded&) = default;
    Decoded& operator=(Decoded&& other) noexcept {
        if (this != &other) {
            recycle_buffer(std::move(payload));
            header = other.header;
            payload = std::move(other.payload);
        }
        return *this;
    }
    ~Decoded() { recycle_buffer(std::move(payload)); }
};

/// The outer form of a file, from its first bytes alone.
enum class Form {
    Plain,  ///< not compressed
    Dcx,    ///< "DCX\0" header
    Dcp,    ///< "DCP\0" header
    Zlib,   ///< a bare zlib stream (0x78 then a standard level byte)
};
/// The form of `file` (the one magic test every reader of this header uses).
Form form_of(Bytes file) noexcept;

/// True when `file` starts like any compressed form above (DCX, DCP or a zlib header);
/// false for Variant::None.
bool is_dcx(Bytes file);

/// Detects the form of `file` and reads its header without decompressing. Variant::None
/// when the file is not compressed. Throws navlab::Error (with offset) on a malformed header.
Header read_header(Bytes file);

/// The compressed stream of a "DCX\0" file (header.compressed_size bytes after its DCA
/// chunk), as a view of `file`. Throws navlab::Error (with offset) on another form, a
/// malformed header or a stream running past the file.
Bytes compressed_stream(Bytes file);

/// Decompresses any form. The declared size is checked against the data, the output
/// never grows past it, and a declared size that the compressed bytes could not produce
/// (a decompression bomb) is rejected before allocating. KRAK uses navlab's own Kraken
/// decoder (codec/kraken).
/// Throws navlab::Error with the absolute offset and the field on malformed input.
Decoded decompress(Bytes file);

/// Compresses `payload` as `variant`, writing that variant's exact header constants:
/// DFLT with zlib level 9, ZSTD with its level byte (window log 16, no content size),
/// KRAK with navlab's Kraken encoder (256 KiB restart blocks, 8C 06), EDGE as 64 KiB
/// raw-deflate chunks.
/// @param keep when non-null and of the same codec as `variant`, its raw constants
///             (version, 0x10, 0x14 rule, level, 0x34..0x40) are written instead of the
///             standard ones, so a rewrite keeps the original header.
/// @param kraken_level KRAK only: the encoder level, 0 (stored blocks) to 9; -1 = the
///             header's level byte (6 for DCX_KRAK, 9 for DCX_KRAK_MAX). The header keeps
///             its level byte whatever the encoder level.
/// @param kraken_block_done KRAK only: kraken::encode's per-block callback (a progress
///             line; thread-safe, see kraken::encode). Not called for other codecs.
/// Variant::None returns the payload unchanged.
std::vector<std::uint8_t> compress(Bytes payload, Variant variant, const Header* keep = nullptr, int kraken_level = -1,
                                   const std::function<void(std::size_t)>& kraken_block_done = {});

/// The standard header constants of a variant (sizes zero).
Header standard_header(Variant variant);

/// "DCX_KRAK", "DCX_DFLT_10000_44_9", "DCP_EDGE", "ZLIB", "NONE", ...
std::string_view variant_name(Variant variant);

/// The codec a variant's stream uses: "DFLT", "EDGE", "KRAK" or "ZSTD"; "" for None and Zlib.
std::string_view codec_name(Variant variant);

/// Parses a variant name, case-insensitive, with or without the "DCX_" prefix; also
/// accepts the aliases DCX_KRAK_6, DCX_KRAK_9, KRAK, DFLT (= DCX_DFLT_11000_44_9), ZSTD,
/// EDGE. Throws navlab::Error listing the valid names otherwise.
Variant parse_variant_name(std::string_view name);

/// Every variant, in enum order (for --help texts and tests).
std::vector<Variant> all_variants();

/// Differences between the header's constants and its variant's standard constants,
/// one line each ("0x30 level 8, standard 9"); empty when standard. Mod tools sometimes
/// alter constants; readers accept them and report them here.
std::vector<std::string> nonstandard_fields(const Header& header);

}  // namespace navlab::dcx
