#include "formats/igi/stream.h"

#include <fmt/format.h>

namespace navlab::igi {
namespace {

/// Consumes the tag byte and fails when it is not `want`.
void expect_tag(ByteReader& r, std::uint8_t want, std::string_view field) {
    const std::size_t at = r.pos();
    const std::uint8_t got = r.u8(fmt::format("{} tag", field));
    if (got != want)
        r.fail_at(at, fmt::format("{}: tag {} ({}) where tag {} ({}) was expected", field, got, tag_name(got),
                                  want, tag_name(want)));
}

}  // namespace

std::string_view tag_name(std::uint8_t tag) {
    static constexpr std::string_view names[] = {"uint8", "int8",  "uint16", "int16", "uint32", "int32",
                                                 "float", "double", "vec3",  "string", "blob"};
    return tag <= kMaxTag ? names[tag] : "invalid";
}

std::size_t fixed_payload_size(std::uint8_t tag) {
    static constexpr std::size_t sizes[] = {1, 1, 2, 2, 4, 4, 4, 8, 24};
    return tag < kTagString ? sizes[tag] : 0;
}

std::uint32_t field_hash(std::string_view name) {
    std::uint32_t acc = 0;
    std::uint16_t m = 1;
    for (char ch : name) {
        if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 0x20);
        // The engine multiplies a signed char: bytes >= 0x80 contribute negatively.
        acc += static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<signed char>(ch)) *
                                          static_cast<std::int32_t>(m));
        m = static_cast<std::uint16_t>(m + 317);
    }
    return acc;
}

std::uint8_t read_tagged_u8(ByteReader& r, std::string_view field) {
    expect_tag(r, kTagU8, field);
    return r.u8(field);
}

std::uint32_t read_tagged_u32(ByteReader& r, std::string_view field) {
    expect_tag(r, kTagU32, field);
    return r.u32(field);
}

std::int32_t read_tagged_i32(ByteReader& r, std::string_view field) {
    expect_tag(r, kTagI32, field);
    return r.i32(field);
}

float read_tagged_f32(ByteReader& r, std::string_view field) {
    expect_tag(r, kTagF32, field);
    return r.f32(field);
}

Vec3 read_tagged_vec3(ByteReader& r, std::string_view field) {
    expect_tag(r, kTagVec3, field);
    Vec3 v;
    v.x = r.f64(field);
    v.y = r.f64(field);
    v.z = r.f64(field);
    return v;
}

std::string read_tagged_string(ByteReader& r, std::string_view field) {
    expect_tag(r, kTagString, field);
    const std::size_t at = r.pos();
    const std::uint8_t length = r.u8(fmt::format("{} length", field));
    if (length == 0) r.fail_at(at, fmt::format("{}: string length 0 (the length counts the terminating NUL)", field));
    Bytes chars = r.bytes(length, field);
    if (chars.back() != 0)
        r.fail_at(at + length, fmt::format("{}: string of length {} does not end with a NUL", field, length));
    return std::string(reinterpret_cast<const char*>(chars.data()), length - 1);
}

Bytes read_tagged_raw(ByteReader& r, std::string_view field) {
    const std::size_t start = r.pos();
    const std::uint8_t tag = r.u8(fmt::format("{} tag", field));
    if (tag > kMaxTag) r.fail_at(start, fmt::format("{}: invalid tag {} (tags are 0..10)", field, tag));
    if (tag == kTagBlob)
        r.fail_at(start, fmt::format("{}: a blob (tag 10) cannot be skipped: its size is not in the stream", field));
    if (tag == kTagString) {
        const std::uint8_t length = r.u8(fmt::format("{} length", field));
        r.skip(length, field);
    } else {
        r.skip(fixed_payload_size(tag), field);
    }
    return r.data().subspan(start, r.pos() - start);
}

std::uint8_t peek_tag(const ByteReader& r, std::string_view field) {
    return r.peek_at<std::uint8_t>(r.pos(), fmt::format("{} tag", field));
}

void write_tagged_u8(ByteWriter& w, std::uint8_t v) {
    w.u8(kTagU8);
    w.u8(v);
}

void write_tagged_u32(ByteWriter& w, std::uint32_t v) {
    w.u8(kTagU32);
    w.u32(v);
}

void write_tagged_i32(ByteWriter& w, std::int32_t v) {
    w.u8(kTagI32);
    w.i32(v);
}

void write_tagged_f32(ByteWriter& w, float v) {
    w.u8(kTagF32);
    w.f32(v);
}

void write_tagged_vec3(ByteWriter& w, const Vec3& v) {
    w.u8(kTagVec3);
    w.f64(v.x);
    w.f64(v.y);
    w.f64(v.z);
}

void write_tagged_string(ByteWriter& w, std::string_view s) {
    if (s.size() > 254) throw Error(fmt::format("string of {} bytes is too long for a tag-9 value (254 at most)", s.size()));
    w.u8(kTagString);
    w.u8(static_cast<std::uint8_t>(s.size() + 1));
    w.bytes(s);
    w.u8(0);
}

void write_field_key(ByteWriter& w, std::uint32_t hash, std::uint8_t declared_type) {
    write_tagged_u32(w, hash);
    write_tagged_u8(w, declared_type);
}

}  // namespace navlab::igi
