// The BHD5 plaintext (spec bhd5.md §2): header with salt, bucket table, 0x28-byte file
// headers (Sekiro/DS3 or Elden Ring layout), SHA records and AES records.
//
// parse_bhd5() is strict: every count, offset, size and range is checked against the
// plaintext and the .bdt size before use, and errors name the file, the plaintext offset,
// the entry's hash and the field. write_bhd5() lays a BHD5 out canonically (header, buckets,
// file headers bucket by bucket, then each file's SHA and AES records) for the test writer.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "container/archive/game.h"
#include "io/byte_reader.h"

namespace navlab::archive {

/// A byte range of one file's data, relative to the file's start (§2.7). A range with
/// start or end -1, or start == end, is an empty slot.
struct Range {
    std::int64_t start = -1;  ///< inclusive
    std::int64_t end = -1;    ///< exclusive
    bool empty() const noexcept { return start == -1 || end == -1 || start == end; }
};

/// The "salted SHA" record (§2.5). Its algorithm is unknown (spec [U]); kept, never checked.
struct ShaRecord {
    std::array<std::uint8_t, 32> digest{};
    std::vector<Range> ranges;
};

/// The AES record (§2.6): the file's AES-128 key and the ranges stored encrypted (ECB).
struct AesRecord {
    std::array<std::uint8_t, 16> key{};
    std::vector<Range> ranges;
};

/// One file header, both layouts in one shape.
struct FileHeader {
    std::uint64_t hash = 0;             ///< path hash (Sekiro: 32 bits, zero-extended)
    std::uint32_t paddedSize = 0;       ///< bytes to read from the .bdt
    std::int64_t unpaddedSize = 0;      ///< real size; 0 (or -1) = not recorded, use paddedSize
    std::uint64_t dataOffset = 0;       ///< absolute offset in the .bdt
    std::optional<ShaRecord> sha;       ///< present when the SHA offset is non-zero
    std::optional<AesRecord> aes;       ///< present when the AES offset is non-zero
    std::uint64_t headerOffset = 0;     ///< where the header sits in the plaintext (for errors)

    /// The size of the file once read: unpaddedSize when recorded, else paddedSize.
    std::uint64_t size() const noexcept {
        return unpaddedSize > 0 ? static_cast<std::uint64_t>(unpaddedSize) : paddedSize;
    }
    /// Whether any non-empty AES range is stored encrypted.
    bool encrypted() const noexcept;
};

/// A parsed BHD5.
struct Bhd5 {
    std::uint8_t flag05 = 1;             ///< byte 0x05 (meaning unknown, 1 in DS3/Sekiro/ER)
    std::int32_t sizeField = 0;          ///< header 0x0C (meaning disputed, spec [U]; kept)
    std::string salt;                    ///< e.g. "GR_..." (Elden Ring), "NTC_..." (Sekiro)
    std::vector<std::vector<FileHeader>> buckets;  ///< file headers, bucket by bucket
};

/// Parses a BHD5 plaintext (any tail past the last record is ignored: RSA rounding).
/// @param plaintext the decrypted .bhd (or a plaintext .bhd as is).
/// @param game      selects the file-header layout (§2.3 Sekiro/DS3, §2.4 Elden Ring).
/// @param bdtSize   size of the .bdt: every data offset + padded size must fit in it.
/// @param file      the .bhd path, for errors (offsets in them are plaintext offsets).
/// Throws navlab::Error naming file, plaintext offset, entry hash and field.
Bhd5 parse_bhd5(Bytes plaintext, Game game, std::uint64_t bdtSize, const std::string& file);

/// Lays out `bhd` canonically in `game`'s layout (salt, buckets and records as given; the
/// SHA and AES offsets are computed; header 0x0C becomes the total length, as the games'
/// tools write it). The inverse of parse_bhd5 for files in this layout.
std::vector<std::uint8_t> write_bhd5(const Bhd5& bhd, Game game);

/// Checks one file's AES ranges against its padded size: non-empty ranges must satisfy
/// 0 <= start < end <= paddedSize with a length that is a multiple of 16 (whole AES blocks).
/// Throws navlab::Error naming `file`, the entry's hash and the range's field.
void check_aes_ranges(const FileHeader& header, Game game, const std::string& file);

}  // namespace navlab::archive
