// Tagged-value primitives and the field-name hash (spec §3, §4.1).
#include <gtest/gtest.h>

#include "formats/igi/fields.h"
#include "formats/igi/stream.h"

using namespace navlab;
using namespace navlab::igi;

TEST(IgiHash, ReproducesEveryFieldHashOfTheSpec) {
    const std::pair<const char*, std::uint32_t> vectors[] = {
        {"nMaxNodes", 0x000D3AE6},     {"RouteTable", 0x000FDE0D},    {"nNodeID", 0x000735CE},
        {"tNodePosition", 0x001D4295}, {"vNodeGamma", 0x000F7E9C},    {"vNodeRadius", 0x00143023},
        {"nNodeMaterial", 0x001BB629}, {"nNodeCriteria", 0x001BD3E5}, {"nLinkID1", 0x0009104A},
        {"nLinkID2", 0x000918F6},      {"eLinkType", 0x000DA923},     {"vNodeLightValue", 0x002654DE},
        {"sNodeLinksInfo", 0x00214E00}, {"", 0},                        {"A", 0x41},
        {"a", 0x41},                   {"AB", 0x523D}};
    for (const auto& [name, hash] : vectors) EXPECT_EQ(field_hash(name), hash) << name;
}

TEST(IgiHash, IsCaseInsensitiveAndWrapsTheMultiplier) {
    EXPECT_EQ(field_hash("nnodeid"), field_hash("NNODEID"));
    // After 207 characters the 16-bit multiplier has wrapped: 1 + 207·317 = 65620 -> 84.
    const std::string long_name(208, 'A');
    std::uint32_t expect = 0;
    std::uint16_t m = 1;
    for (int i = 0; i < 208; ++i, m = static_cast<std::uint16_t>(m + 317)) expect += 0x41u * m;
    EXPECT_EQ(field_hash(long_name), expect);
    std::uint32_t unwrapped = 0;
    for (std::uint32_t i = 0; i < 208; ++i) unwrapped += 0x41u * (1 + 317 * i);
    EXPECT_NE(field_hash(long_name), unwrapped);
}

TEST(IgiHash, KeyBytesMatchTheSpecTable) {
    ByteWriter w;
    const FieldInfo* f = find_field(0x000735CE);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->name, "nNodeID");
    write_field_key(w, f->hash, f->declared_type);
    const std::vector<std::uint8_t> expect = {0x04, 0xCE, 0x35, 0x07, 0x00, 0x00, 0x05};
    EXPECT_EQ(std::vector<std::uint8_t>(w.data().begin(), w.data().end()), expect);
    EXPECT_EQ(find_field(field_hash("vNodeLightValue")), nullptr);
    EXPECT_EQ(igi2_field_name(0x002654DE), "vNodeLightValue");
}

TEST(IgiStream, PrimitivesRoundTrip) {
    ByteWriter w;
    write_tagged_u8(w, 7);
    write_tagged_u32(w, 0xDEADBEEF);
    write_tagged_i32(w, -5);
    write_tagged_f32(w, 0.5f);
    write_tagged_vec3(w, {1.5, -2, 4096});
    write_tagged_string(w, "NODECRITERIA_DOOR");
    write_tagged_string(w, "");
    auto bytes = std::move(w).finish();
    EXPECT_EQ(bytes.size(), 2u + 5 + 5 + 5 + 25 + 20 + 3);
    ByteReader r(bytes);
    EXPECT_EQ(read_tagged_u8(r, "a"), 7);
    EXPECT_EQ(read_tagged_u32(r, "b"), 0xDEADBEEFu);
    EXPECT_EQ(read_tagged_i32(r, "c"), -5);
    EXPECT_EQ(read_tagged_f32(r, "d"), 0.5f);
    EXPECT_EQ(read_tagged_vec3(r, "e"), (Vec3{1.5, -2, 4096}));
    EXPECT_EQ(peek_tag(r, "f"), kTagString);
    EXPECT_EQ(read_tagged_string(r, "f"), "NODECRITERIA_DOOR");
    EXPECT_EQ(read_tagged_string(r, "g"), "");
    EXPECT_TRUE(r.at_end());
    EXPECT_THROW(peek_tag(r, "h"), Error);
}

TEST(IgiStream, StringLengthCountsTheNul) {
    ByteWriter w;
    write_tagged_string(w, "AB");
    const std::vector<std::uint8_t> expect = {0x09, 0x03, 'A', 'B', 0x00};
    EXPECT_EQ(std::vector<std::uint8_t>(w.data().begin(), w.data().end()), expect);
    EXPECT_THROW(write_tagged_string(w, std::string(255, 'x')), Error);
    EXPECT_NO_THROW(write_tagged_string(w, std::string(254, 'x')));
}

TEST(IgiStream, StrictTagChecksGiveTheOffset) {
    const std::uint8_t wrong_tag[] = {0x04, 1, 0, 0, 0};
    ByteReader r(wrong_tag, 0x40);
    try {
        read_tagged_i32(r, "nNodeID");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), 0x40u);
        EXPECT_NE(std::string(e.what()).find("tag 4 (uint32) where tag 5 (int32) was expected"), std::string::npos);
    }
    const std::uint8_t zero_length[] = {0x09, 0x00};
    ByteReader z(zero_length);
    EXPECT_THROW(read_tagged_string(z, "criteria"), Error);
    const std::uint8_t no_nul[] = {0x09, 0x02, 'A', 'B'};
    ByteReader n(no_nul);
    EXPECT_THROW(read_tagged_string(n, "criteria"), Error);
    const std::uint8_t blob[] = {0x0A, 0, 0, 0, 0};
    ByteReader b(blob);
    EXPECT_THROW(read_tagged_raw(b, "unknown"), Error);
    const std::uint8_t bad[] = {0x0B, 0};
    ByteReader x(bad);
    EXPECT_THROW(read_tagged_raw(x, "unknown"), Error);
}

TEST(IgiStream, RawValuesSkipByTag) {
    const std::uint8_t data[] = {0x07, 1, 2, 3, 4, 5, 6, 7, 8, 0x09, 0x02, 'x', 0, 0x03, 1, 2};
    ByteReader r(data);
    EXPECT_EQ(read_tagged_raw(r, "a").size(), 9u);
    EXPECT_EQ(read_tagged_raw(r, "b").size(), 4u);
    EXPECT_EQ(read_tagged_raw(r, "c").size(), 3u);
    EXPECT_TRUE(r.at_end());
}
