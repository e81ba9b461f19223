// Level and sector files: layout, version gates, byte-exact round trips, malformed inputs.
#include <gtest/gtest.h>

#include <cstring>

#include "farcry2/fixtures.h"
#include "formats/farcry2/grid.h"
#include "formats/farcry2/level_file.h"
#include "formats/farcry2/sector_file.h"

using namespace navlab;
using namespace navlab::farcry2;
using navlab::farcry2::fixture::FixtureOptions;

namespace {

std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}
float f32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
    float v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}
void put_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

/// Expects read(bytes) to throw a navlab::Error at `offset` whose text contains `text`.
template <class Read>
void expect_error(Read read, const std::vector<std::uint8_t>& bytes, std::uint64_t offset, const std::string& text) {
    try {
        read(bytes);
        FAIL() << "expected an error containing '" << text << "'";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), offset) << e.what();
        EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
}
const auto kReadSector = [](const std::vector<std::uint8_t>& b) { read_sector(b); };
const auto kReadLevel = [](const std::vector<std::uint8_t>& b) { read_level(b); };

}  // namespace

TEST(Fc2Grid, SectorIdsRowsColumnsAndCells) {
    EXPECT_EQ(sector_id(32, 16), 2576u);
    EXPECT_EQ(sector_row(2577), 32u);
    EXPECT_EQ(sector_column(2577), 17u);
    EXPECT_EQ(sector_cell(2576), (Box2{1024, 2048, 1088, 2112}));  // spec §2: the measured box of nv_2576
}

TEST(Fc2Grid, BothSectorFileNamings) {
    EXPECT_EQ(sector_path(2576, SectorNaming::Satellite), "nv\\sectors\\nv_2576.nvm");
    EXPECT_EQ(sector_path(2576, SectorNaming::Doubled), "nv\\nv2576_2576.nvm");
    EXPECT_EQ(parse_sector_file_name("nv_2576.nvm"), 2576u);
    EXPECT_EQ(parse_sector_file_name("NV_0.NVM"), 0u);
    EXPECT_EQ(parse_sector_file_name("nv2576_2576.nvm"), 2576u);
    EXPECT_EQ(parse_sector_file_name("nv2576_2577.nvm"), std::nullopt);
    EXPECT_EQ(parse_sector_file_name("nv_65536.nvm"), std::nullopt);
    EXPECT_EQ(parse_sector_file_name("nv_12.nvm.bak"), std::nullopt);
    EXPECT_EQ(parse_sector_file_name("nv.nvm"), std::nullopt);
    EXPECT_EQ(parse_sector_file_name("nv_-1.nvm"), std::nullopt);
    EXPECT_TRUE(is_level_file_name("NV.nvm"));
}

TEST(Fc2Packing, SpecWorkedExample) {
    auto pack = packing_for({1024, 2048, 1088, 2112});
    ASSERT_TRUE(pack);
    EXPECT_EQ(pack->scale, 256.0);
    EXPECT_EQ(pack->decode({256, -512, 640}), (Vec3{1057, 2078, 20}));
    Packed3 q;
    ASSERT_TRUE(pack->encode({1057, 2078, 20}, q));
    EXPECT_EQ(q, (Packed3{256, -512, 640}));
    EXPECT_FALSE(pack->encode({1056 + 200, 2080, 0}, q));  // beyond +-128 m
    EXPECT_FALSE(packing_for({0, 0, 48, 48}));              // span 96 is not a power of two
    EXPECT_FALSE(packing_for({0, 0, 0, 0}));
    EXPECT_FALSE(packing_for({0, 64, 64, 0}));  // inverted
    EXPECT_EQ(packing_for({0, 0, 512, 512})->scale, 32.0);  // span 1024
}

TEST(Fc2Sector, SpecExampleBytesExactly) {
    // Spec §5.7 hex dump of a one-triangle sector, transcribed.
    const std::vector<std::uint8_t> expected = {
        0x00, 0x00, 0x00, 0x00, 0x68, 0x4d, 0x76, 0x4e, 0x00, 0x41, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x10, 0x0a, 0x00, 0x00, 0x80, 0x44, 0x00, 0x00, 0x00, 0x45, 0x00, 0x00, 0x88, 0x44,
        0x00, 0x00, 0x04, 0x45, 0x00, 0x00, 0x80, 0x4f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff,
        0xfe, 0xff, 0x01, 0x00, 0x00, 0x00, 0x3c, 0x00, 0x00, 0x00, 0x10, 0x0a, 0x00, 0x00, 0x01, 0x00,
        0x03, 0x00, 0x00, 0x00, 0x00, 0x55, 0x00, 0x55, 0x00, 0x80, 0x02, 0x00, 0x00, 0x7f, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x02,
        0x00, 0x01, 0x00, 0x00, 0x80, 0x02, 0x00, 0x00, 0x00, 0x01, 0x80, 0x02};
    ASSERT_EQ(expected.size(), 140u);
    WrittenSector written = write_sector(fixture::spec_example_sector());
    EXPECT_EQ(written.bytes, expected);
    ASSERT_EQ(written.warnings.size(), 1u);  // built from scratch: no tail
    EXPECT_NE(written.warnings[0].find("from scratch"), std::string::npos);

    SectorFile s = read_sector(expected);
    EXPECT_EQ(s.header.sector_id, 2576);
    EXPECT_EQ(s.vertex_position(1), (Vec3{1024 + 32 + 1, 2048 + 32, 20}));
    const Vec3 c = s.centroid_position(s.nodes[0]);
    EXPECT_NEAR(c.x, 1056 + 85.0 / 256, 1e-9);
    EXPECT_EQ(s.node_links(s.nodes[0]).size(), 3u);
    EXPECT_TRUE(s.tail.empty());
}

TEST(Fc2Sector, RetailRoundTripIsByteExactAndKeepsTail) {
    auto sectors = fixture::make_sectors(32, 16, 1, 2);
    for (const auto& built : sectors) {
        auto bytes = fixture::sector_bytes(built);
        SectorFile s = read_sector(bytes);
        EXPECT_EQ(s.header.version, kRetailVersion);
        EXPECT_EQ(s.tail, built.tail);
        EXPECT_FALSE(s.tail.empty());
        EXPECT_EQ(s.nodes.size(), 8u);
        EXPECT_EQ(s.nodes[3].flags, (std::array<std::uint8_t, 2>{1, 0}));
        EXPECT_EQ(s.nodes[3].unknown_tail[9], 3 + 9);
        WrittenSector again = write_sector(s);
        EXPECT_EQ(again.bytes, bytes);
        EXPECT_TRUE(again.warnings.empty());
        EXPECT_EQ(layout_of(s).tail, bytes.size() - s.tail.size());
    }
}

TEST(Fc2Sector, EditedGeometryKeepsTailWithWarning) {
    auto bytes = fixture::sector_bytes(fixture::make_sectors(32, 16, 1, 1)[0]);
    SectorFile s = read_sector(bytes);
    s.vertices[0][2] += 32;  // raise one corner by 1 m
    WrittenSector w = write_sector(s);
    ASSERT_EQ(w.warnings.size(), 1u);
    EXPECT_NE(w.warnings[0].find("opaque tail"), std::string::npos);
    EXPECT_EQ(read_sector(w.bytes).tail, s.tail);
    EXPECT_TRUE(std::equal(s.tail.begin(), s.tail.end(), w.bytes.end() - s.tail.size()));
}

TEST(Fc2Sector, OlderVersionsUseTheirNodeLayouts) {
    struct Case {
        std::uint32_t version;
        std::size_t node_bytes;
    };
    for (Case c : {Case{0x13701, 52}, Case{0x13800, 46}, Case{0x13900, 48}, Case{0x14000, 48}}) {
        SCOPED_TRACE(hex(c.version));
        FixtureOptions o;
        o.version = c.version;
        auto built = fixture::make_sectors(10, 10, 1, 1, o)[0];
        auto bytes = fixture::sector_bytes(built);
        SectorFile s = read_sector(bytes);
        EXPECT_EQ(node_record_size(c.version), c.node_bytes);
        EXPECT_EQ(layout_of(s).node(1) - layout_of(s).node(0), c.node_bytes);
        EXPECT_EQ(write_sector(s).bytes, bytes);
        const Vec3 centroid = s.centroid_position(s.nodes[0]);
        EXPECT_NEAR(centroid.x, 640 + 64.0 * 2 / 3 / 2, 0.01);  // mean of corners (640,640) (672,640) (672,672)
        if (c.version < 0x13800) {
            EXPECT_EQ(s.nodes[0].centroid_f32[0], float(centroid.x));
        }
    }
}

TEST(Fc2Sector, UnknownAndUndecodableVersionsAreClearErrors) {
    auto bytes = fixture::sector_bytes(fixture::make_sectors(0, 0, 1, 1)[0]);
    put_u32(bytes, 8, 0x14101);
    expect_error(kReadSector, bytes, 8, "unknown sector file version 0x14101");
    put_u32(bytes, 8, 0x13600);
    expect_error(kReadSector, bytes, 8, "extra byte");
}

TEST(Fc2Sector, MalformedInputsNameTheOffset) {
    const auto good = fixture::sector_bytes(fixture::make_sectors(32, 16, 1, 1)[0]);
    const SectorFile s = read_sector(good);
    const SectorLayout at = layout_of(s);
    {
        auto b = good;
        b[5] = 'X';
        expect_error(kReadSector, b, 4, "tag");
    }
    {
        auto b = good;
        put_u32(b, kSectorHeaderBytes, 0x40000000);
        expect_error(kReadSector, b, kSectorHeaderBytes, "link count 1073741824 needs");
    }
    {
        auto b = good;
        put_u32(b, at.nodes - 4, 1000);
        expect_error(kReadSector, b, at.nodes - 4, "node count 1000 needs 48000 bytes");
    }
    {
        auto b = good;
        put_u32(b, at.vertices - 4, 0xFFFFFFFF);
        expect_error(kReadSector, b, at.vertices - 4, "vertex count");
    }
    {
        auto b = good;
        put_u32(b, at.node(2) + at.vertex_field + 8, static_cast<std::uint32_t>(s.vertices.size()));
        expect_error(kReadSector, b, at.node(2) + at.vertex_field + 8, "node 2: vertex 2: vertex index 9 is past");
    }
    {
        auto b = good;
        put_u32(b, at.node(5) + 0x0B, static_cast<std::uint32_t>(s.links.size()) - 1);
        expect_error(kReadSector, b, at.node(5) + 0x0B, "node 5: link offset: link range");
    }
    {
        auto b = good;
        put_u32(b, at.node(0) + 0x0B, 0xFFFFFFFF);  // offset + count would wrap in 32 bits
        expect_error(kReadSector, b, at.node(0) + 0x0B, "outside the link table");
    }
    {
        auto b = good;
        std::uint32_t nan = 0x7FC00000;
        put_u32(b, 0x1C, nan);
        expect_error(kReadSector, b, 0x14, "no packing basis");
    }
}

TEST(Fc2Sector, TruncationAtEveryByteIsAnErrorUntilTheTail) {
    const auto good = fixture::sector_bytes(fixture::make_sectors(32, 16, 1, 1)[0]);
    const std::size_t tail_start = layout_of(read_sector(good)).tail;
    for (std::size_t n = 0; n < good.size(); ++n) {
        std::vector<std::uint8_t> cut(good.begin(), good.begin() + n);
        if (n < tail_start) {
            EXPECT_THROW(read_sector(cut), Error) << n;
        } else {
            EXPECT_EQ(read_sector(cut).tail.size(), n - tail_start) << n;  // the tail is opaque: any length reads
        }
    }
}

TEST(Fc2Level, HeaderOnlyLevelsHaveTheMeasuredShape) {
    // Spec §4.2: 360, 504 and 25,704 bytes for 8x8 (tmpla), 10x10 (mp_16_airbase), 80x80 (world1).
    for (auto [grid, size] : {std::pair{8u, 360u}, std::pair{10u, 504u}, std::pair{80u, 25704u}}) {
        auto bytes = write_level(header_only_level(grid, grid));
        ASSERT_EQ(bytes.size(), size);
        EXPECT_EQ(u32_at(bytes, 4), kTag);
        EXPECT_EQ(f32_at(bytes, 0x18), grid * 64.0f);
        EXPECT_EQ(f32_at(bytes, 0x1C), grid * 64.0f);
        EXPECT_EQ(u32_at(bytes, 0x40), grid);
        EXPECT_EQ(u32_at(bytes, 0x44), grid);
        EXPECT_EQ(u32_at(bytes, 0x48), 2u);
        EXPECT_EQ(u32_at(bytes, 0x4C), grid * grid);
        LevelFile level = read_level(bytes);
        EXPECT_EQ(level.tail.size(), 24u);
        EXPECT_EQ(descriptor_table_offset(level), 0x50u);
        EXPECT_EQ(write_level(level), bytes);
    }
}

TEST(Fc2Level, VersionGates) {
    LevelFile level = header_only_level(8, 8);
    level.header_words = {1, 2, 3, 4, 5, 6};
    level.descriptors[9] = 0x1234;
    const auto retail = write_level(level);

    level.version = 0xFFFF;  // grid y (+0x70) only; no grid x, no mode flag
    auto b = write_level(level);
    EXPECT_EQ(b.size(), retail.size() - 8);
    EXPECT_EQ(u32_at(b, 0x40), 8u);    // grid y
    EXPECT_EQ(u32_at(b, 0x44), 64u);   // count
    LevelFile back = read_level(b);
    EXPECT_EQ(back.mode, kModeSingleFileOld);
    EXPECT_EQ(back.descriptors[9], 0x1234u);
    EXPECT_EQ(descriptor_table_offset(back), 0x48u);
    EXPECT_EQ(write_level(back), b);

    level.version = 0xFFFE;  // neither
    b = write_level(level);
    EXPECT_EQ(b.size(), retail.size() - 12);
    EXPECT_EQ(u32_at(b, 0x40), 64u);
    EXPECT_EQ(read_level(b).header_words[5], 6u);
    EXPECT_EQ(write_level(read_level(b)), b);

    auto unknown = retail;
    put_u32(unknown, 8, 0x14200);
    expect_error(kReadLevel, unknown, 8, "unknown level file version 0x14200");
    level.version = 0x20000;
    EXPECT_THROW(write_level(level), Error);
}

TEST(Fc2Level, MalformedAndTruncated) {
    const auto good = write_level(header_only_level(8, 8));
    auto bad_tag = good;
    bad_tag[4] = 0;
    expect_error(kReadLevel, bad_tag, 4, "tag");
    auto big_count = good;
    put_u32(big_count, 0x4C, 1000);
    expect_error(kReadLevel, big_count, 0x4C, "sector count 1000 needs a 4000-byte descriptor table");
    const std::size_t table_end = 0x50 + 64 * 4;
    for (std::size_t n = 0; n < good.size(); ++n) {
        std::vector<std::uint8_t> cut(good.begin(), good.begin() + n);
        if (n < table_end) EXPECT_THROW(read_level(cut), Error) << n;
        else EXPECT_EQ(read_level(cut).tail.size(), n - table_end) << n;
    }
}
