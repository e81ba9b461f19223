// Worlds: loading a folder, stitching across sectors, checking links.
#include <gtest/gtest.h>

#include <algorithm>

#include "farcry2/fixtures.h"
#include "formats/farcry2/world.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;
using namespace navlab::farcry2;

namespace {

std::filesystem::path world_dir(const std::string& name, const std::vector<SectorFile>& sectors, bool mixed = false) {
    return fixture::write_world(navlab::test::scratch_dir(name), sectors, mixed);
}

bool has_finding(const CheckReport& r, Finding::Severity severity, const std::string& text) {
    return std::any_of(r.findings.begin(), r.findings.end(), [&](const Finding& f) {
        return f.severity == severity && f.message.find(text) != std::string::npos;
    });
}

/// Index of the first link entry of `s` that names another sector.
std::size_t first_cross_link(const SectorFile& s) {
    for (std::size_t i = 0; i < s.links.size(); ++i)
        if (s.links[i] != kNoLink && decode_link(s.links[i]).sector != s.header.sector_id) return i;
    return s.links.size();
}

}  // namespace

TEST(Fc2World, TwoByTwoBlockStitchesAndChecksClean) {
    auto dir = world_dir("fc2_world_ok", fixture::make_sectors(32, 16, 2, 2), true);
    World world = load_world(dir, 2);
    ASSERT_TRUE(world.failures.empty());
    ASSERT_TRUE(world.level);
    EXPECT_EQ(world.level->descriptors.size(), 6400u);
    ASSERT_EQ(world.sectors.size(), 4u);
    EXPECT_EQ(world.sectors[0].file.header.sector_id, 2576);
    EXPECT_EQ(world.sectors[3].file.header.sector_id, 2657);
    EXPECT_NE(world.sectors[1].path.find("nv2577_2577.nvm"), std::string::npos);  // the doubled naming

    CheckReport report = check_world(world, 2);
    EXPECT_TRUE(report.ok());
    EXPECT_EQ(report.warnings, 0u);
    EXPECT_EQ(report.stats.sectors, 4u);
    EXPECT_EQ(report.stats.triangles, 32u);
    EXPECT_EQ(report.stats.vertices, 36u);
    // Each sector has 2 shared borders of 2 quads; one border triangle per quad edge.
    EXPECT_EQ(report.stats.cross_sector_links, 16u);
    EXPECT_EQ(report.stats.broken_links, 0u);
    EXPECT_EQ(report.stats.unchecked_links, 0u);
    EXPECT_EQ(check_world(world, 1).stats.links, report.stats.links);
}

TEST(Fc2World, StitchedTrianglesLieInTheirCellsAndNeighboursShareEdges) {
    auto dir = world_dir("fc2_world_stitch", fixture::make_sectors(32, 16, 2, 2));
    World world = load_world(dir);
    WorldMesh mesh = stitch(world);
    ASSERT_EQ(mesh.triangles.size(), 32u);
    ASSERT_EQ(mesh.neighbour_first.size(), 33u);
    std::size_t cross = 0;
    for (const auto& range : mesh.sectors) {
        const Box2 cell = sector_cell(range.sector);
        for (std::uint32_t t = range.first_triangle; t < range.first_triangle + range.triangle_count; ++t) {
            for (auto v : mesh.triangles[t]) {
                EXPECT_GE(mesh.vertices[v].x, cell.min_x);
                EXPECT_LE(mesh.vertices[v].x, cell.max_x);
                EXPECT_GE(mesh.vertices[v].y, cell.min_y);
                EXPECT_LE(mesh.vertices[v].y, cell.max_y);
            }
            for (auto k = mesh.neighbour_first[t]; k < mesh.neighbour_first[t + 1]; ++k) {
                const std::int64_t n = mesh.neighbours[k];
                ASSERT_NE(n, WorldMesh::kBroken);
                if (n < 0) continue;
                // Neighbours share two world positions, across sector borders too.
                int shared = 0;
                for (auto a : mesh.triangles[t])
                    for (auto b : mesh.triangles[n]) shared += mesh.vertices[a] == mesh.vertices[b];
                EXPECT_EQ(shared, 2);
                const bool other_sector = n < range.first_triangle || n >= range.first_triangle + range.triangle_count;
                cross += other_sector;
            }
        }
    }
    EXPECT_EQ(cross, 16u);

    WorldMesh one = stitch(world, 2577);
    ASSERT_EQ(one.sectors.size(), 1u);
    EXPECT_EQ(one.triangles.size(), 8u);
    EXPECT_GE(one.vertices[0].x, 1088.0);
    EXPECT_EQ(std::count(one.neighbours.begin(), one.neighbours.end(), WorldMesh::kBroken), 4);
    EXPECT_THROW(stitch(world, 1), Error);
}

TEST(Fc2World, MissingSectorBreaksLinksIntoIt) {
    auto sectors = fixture::make_sectors(32, 16, 1, 2);
    auto dir = world_dir("fc2_world_missing", {sectors[0]});
    CheckReport report = check_world(load_world(dir));
    EXPECT_FALSE(report.ok());
    EXPECT_EQ(report.stats.broken_links, 2u);
    EXPECT_TRUE(has_finding(report, Finding::Severity::Error, "(sector 2577 node"));
    EXPECT_TRUE(has_finding(report, Finding::Severity::Error, "sector is not loaded"));

    // The same file checked alone cannot see its neighbour: unchecked, not broken.
    auto alone = dir / "nv" / "sectors" / "nv_2576.nvm";
    CheckReport single = check_world(load_world(alone));
    EXPECT_TRUE(single.ok());
    EXPECT_EQ(single.stats.unchecked_links, 2u);
}

TEST(Fc2World, AsymmetricOutOfRangeAndSelfLinksAreBroken) {
    auto sectors = fixture::make_sectors(32, 16, 1, 2);
    SectorFile& a = sectors[0];
    const std::size_t cross = first_cross_link(a);
    ASSERT_LT(cross, a.links.size());
    a.links[cross] = encode_link({2577, 7});  // not the node that links back
    a.links[0] = kNoLink;                     // node 0's edge 0 neighbour no longer answers
    a.links[1] = encode_link({2576, 0});      // node 0 links to itself
    a.links[3] = encode_link({2576, 100});    // node 1 to a node that does not exist
    auto dir = world_dir("fc2_world_asym", sectors);
    CheckReport report = check_world(load_world(dir));
    EXPECT_FALSE(report.ok());
    EXPECT_TRUE(has_finding(report, Finding::Severity::Error, "does not link back"));
    EXPECT_TRUE(has_finding(report, Finding::Severity::Error, "links to itself"));
    EXPECT_TRUE(has_finding(report, Finding::Severity::Error, "node out of range (sector has 8 nodes)"));
    const auto broken = std::find_if(report.findings.begin(), report.findings.end(),
                                     [](const Finding& f) { return f.message.find("itself") != std::string::npos; });
    EXPECT_EQ(broken->offset, kSectorHeaderBytes + 4 + 4 * 1);  // the offending link entry
}

TEST(Fc2World, MalformedFilesDuplicatesAndNameMismatchesAreReported) {
    auto sectors = fixture::make_sectors(32, 16, 1, 2);
    auto dir = world_dir("fc2_world_bad", sectors);
    auto bytes = fixture::sector_bytes(sectors[1]);
    bytes.resize(100);
    write_file_atomic(dir / "nv" / "sectors" / "nv_2577.nvm", bytes);
    std::filesystem::create_directories(dir / "copy");
    write_file_atomic(dir / "copy" / "nv_9.nvm", fixture::sector_bytes(sectors[0]));  // id 2576 again, wrong name
    World world = load_world(dir);
    ASSERT_EQ(world.failures.size(), 2u);
    CheckReport report = check_world(world);
    EXPECT_TRUE(has_finding(report, Finding::Severity::Error, "needs"));  // truncated nv_2577
    EXPECT_TRUE(has_finding(report, Finding::Severity::Error, "duplicate sector id 2576"));
    EXPECT_EQ(report.stats.sectors, 1u);
}

TEST(Fc2World, SatelliteModeLevelNamesMissingSectors) {
    auto sectors = fixture::make_sectors(32, 16, 1, 1);
    auto dir = world_dir("fc2_world_mode3", sectors);
    LevelFile level = header_only_level(80, 80);
    level.mode = kModeSatellites;
    level.descriptors[2576] = 1;
    level.descriptors[2577] = 1;
    write_file_atomic(dir / "nv" / "sectors" / "nv.nvm", write_level(level));
    CheckReport report = check_world(load_world(dir));
    EXPECT_EQ(report.errors, 1u);
    EXPECT_TRUE(has_finding(report, Finding::Severity::Error, "nv_2577.nvm is not loaded"));
    EXPECT_EQ(report.findings[0].offset, 0x50u + 4 * 2577);
}

TEST(Fc2World, RetailInvariantsAreWarnings) {
    auto sectors = fixture::make_sectors(32, 16, 1, 1);
    sectors[0].nodes[1].centroid[0] += 100;  // centroid off by 0.39 m
    sectors[0].header.box = {0, 0, 64, 64};  // not the cell of 2576
    auto dir = world_dir("fc2_world_warn", sectors);
    CheckReport report = check_world(load_world(dir));
    EXPECT_TRUE(report.ok());
    EXPECT_TRUE(has_finding(report, Finding::Severity::Warning, "node 1: centroid"));
    EXPECT_TRUE(has_finding(report, Finding::Severity::Warning, "is not the grid cell of sector 2576"));
}

TEST(Fc2World, FileKindFromNameOrContent) {
    auto sector = fixture::sector_bytes(fixture::make_sectors(0, 0, 1, 1)[0]);
    auto level = write_level(header_only_level(8, 8));
    EXPECT_EQ(kind_of("nv.nvm", sector), FileKind::Level);  // the name decides
    EXPECT_EQ(kind_of("nv_0.nvm", level), FileKind::Sector);
    EXPECT_EQ(kind_of("copy.nvm", sector), FileKind::Sector);
    EXPECT_EQ(kind_of("copy.nvm", level), FileKind::Level);
    EXPECT_EQ(kind_of("copy.nvm", std::vector<std::uint8_t>{1, 2}), FileKind::Sector);
}
