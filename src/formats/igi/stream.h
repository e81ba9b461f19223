// The IGI "GraphStream" primitives: every value is one tag byte followed by a payload whose
// size the tag decides (spec igi-graph.md §3). Named fields are keyed by a 32-bit hash of the
// field name (§4.1). These helpers read with strict tag checks (the engine does not check
// tags at all) and write exactly the bytes the retail tools emit.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "io/byte_reader.h"
#include "io/byte_writer.h"

namespace navlab::igi {

/// Tag byte of a tagged value (§3). The signedness of the 0/1, 2/3 and 4/5 pairs is inferred.
enum Tag : std::uint8_t {
    kTagU8 = 0,
    kTagI8 = 1,
    kTagU16 = 2,
    kTagI16 = 3,
    kTagU32 = 4,
    kTagI32 = 5,
    kTagF32 = 6,
    kTagF64 = 7,
    kTagVec3 = 8,    ///< 3 × float64
    kTagString = 9,  ///< length byte L (counts the NUL), then L bytes
    kTagBlob = 10,   ///< 7-byte blob header, then a size only the caller knows
};
inline constexpr std::uint8_t kMaxTag = kTagBlob;

/// Size of the blob header that precedes the RouteTable bytes (§4.3; values unverified).
inline constexpr std::size_t kBlobHeaderSize = 7;
using BlobHeader = std::array<std::uint8_t, kBlobHeaderSize>;

/// A position: three float64 in the AIGraph task's local frame (world units, 4096 = 1 m).
struct Vec3 {
    double x = 0, y = 0, z = 0;
    bool operator==(const Vec3&) const = default;
};

/// Human name of a tag ("int32", "string"), or "invalid" for tags above 10.
std::string_view tag_name(std::uint8_t tag);

/// Payload size of a fixed-size tag (0..8); 0 for strings, blobs and invalid tags.
std::size_t fixed_payload_size(std::uint8_t tag);

/// The GraphStream field-name hash (engine sub_4F9E70): a-z folded to upper case, then
/// acc += c·m with m starting at 1 and growing by 317 mod 65536 after each character.
/// @param name the field name as bytes; characters are signed, as in the engine.
std::uint32_t field_hash(std::string_view name);

/// Strict readers of tagged values: each consumes the tag byte, fails (offset + `field`)
/// when it is not the expected one, then reads the payload.
std::uint8_t read_tagged_u8(ByteReader& r, std::string_view field);
std::uint32_t read_tagged_u32(ByteReader& r, std::string_view field);
std::int32_t read_tagged_i32(ByteReader& r, std::string_view field);
float read_tagged_f32(ByteReader& r, std::string_view field);
Vec3 read_tagged_vec3(ByteReader& r, std::string_view field);
/// A tag-9 string. The length byte must be ≥ 1 and the last byte must be the NUL; the
/// result holds the bytes before that final NUL (embedded NULs are kept verbatim).
std::string read_tagged_string(ByteReader& r, std::string_view field);
/// Any value of tags 0..9 (tag byte included), as stored bytes; tag 10 and above fail
/// because a blob's size cannot be known from the stream alone (§3, skipper note).
Bytes read_tagged_raw(ByteReader& r, std::string_view field);
/// The next tag byte without consuming it; fails at the end of the data.
std::uint8_t peek_tag(const ByteReader& r, std::string_view field);

/// Writers of tagged values (tag byte, then the little-endian payload).
void write_tagged_u8(ByteWriter& w, std::uint8_t v);
void write_tagged_u32(ByteWriter& w, std::uint32_t v);
void write_tagged_i32(ByteWriter& w, std::int32_t v);
void write_tagged_f32(ByteWriter& w, float v);
void write_tagged_vec3(ByteWriter& w, const Vec3& v);
/// Writes a tag-9 string; the length byte counts the NUL, so at most 254 bytes fit.
void write_tagged_string(ByteWriter& w, std::string_view s);

/// Writes a named field's key and declared type: 04 hash(4) 00 type (7 bytes, §4.2).
void write_field_key(ByteWriter& w, std::uint32_t hash, std::uint8_t declared_type);

}  // namespace navlab::igi
