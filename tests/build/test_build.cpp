// navlab build on small scenes made here: audit results, face counts, area against Recast's
// polygon mesh, seam coincidence, links, determinism, and the binder read back.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "audit/audit.h"
#include "audit/audit_load.h"
#include "audit/audit_rules.h"
#include "build/farcry2_out.h"
#include "build/pipeline.h"
#include "build/tile_navmesh.h"
#include "build/scenes.h"
#include "codec/dcx.h"
#include "container/bnd4.h"
#include "formats/fromsoft/aabb_tree6.h"
#include "formats/fromsoft/cluster_graph.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "formats/farcry2/world.h"
#include "io/error.h"
#include "io/file.h"
#include "support/samples.h"
#include "synth/scene.h"

using namespace navlab;
using namespace navlab::build;

namespace {

BuildResult make(const TriangleSoup& scene, BuildSpec spec, FromGame game = FromGame::EldenRing,
                  unsigned threads = 1, Compression c = Compression::Dflt) {
    BuildOptions o;
    o.game = game;
    o.spec = std::move(spec);
    o.threads = threads;
    o.compression = c;
    return build_fromsoft(scene, o);
}

/// Audits every member of the written binder; returns the failed invariants' ids.
std::vector<std::string> failed_invariants(const BuildResult& r) {
    const dcx::Decoded d = dcx::decompress(r.binder);
    const bnd4::Binder binder = bnd4::read(d.payload);
    std::vector<audit::TagfileAudit> results;
    for (std::size_t e = 0; e < binder.entries.size(); ++e)
        results.push_back(audit::audit_tagfile(
            audit::load_audit_tagfile(binder.entries[e].data(), "out.nvmhktbnd.dcx", binder.entries[e].name, e), 3));
    const audit::AuditReport report = audit::merge_audit(results, {"out.nvmhktbnd.dcx"}, 3);
    std::vector<std::string> failed;
    const auto rules = audit::all_rules();
    for (std::size_t i = 0; i < rules.size(); ++i)
        if (audit::rule_status(report, i) == "fail" && rules[i].kind == audit::Kind::Invariant) {
            std::string what = rules[i].id;
            if (!report.rules[i].examples.empty()) what += ": " + report.rules[i].examples[0].message;
            failed.push_back(what);
        }
    return failed;
}

void expect_area_matches_recast(const BuildResult& r) {
    ASSERT_GT(r.stats.recast_area, 0);
    EXPECT_NEAR(r.stats.face_area / r.stats.recast_area, 1.0, 0.005)
        << "faces " << r.stats.face_area << " m², Recast polygons " << r.stats.recast_area << " m²";
}

/// Every corner of every face lies inside its leaf's decoded box within 0.5 mm (rule R72).
void expect_corners_in_leaves(const fromsoft::NavTagfile& t) {
    ASSERT_TRUE(t.mediator);
    const auto tree = fromsoft::decode_aabb_tree6(t.mediator->nodes, t.mediator->domain);
    ASSERT_TRUE(tree.valid) << tree.problem;
    ASSERT_EQ(tree.leaves.size(), t.mesh.faces.size());
    for (const auto& leaf : tree.leaves) {
        const auto& box = tree.boxes[leaf.node];
        const auto& f = t.mesh.faces[leaf.face];
        for (int k = 0; k < f.numEdges; ++k) {
            const auto& v = t.mesh.vertices[t.mesh.edges[f.startEdgeIndex + k].a];
            const double p[3] = {v.x, v.y, v.z};
            for (int i = 0; i < 3; ++i) {
                EXPECT_GE(p[i], box.min[i] - 5e-4);
                EXPECT_LE(p[i], box.max[i] + 5e-4);
            }
        }
    }
}

BuildSpec small_tiles(float tile) {
    BuildSpec s;
    s.tile_size = tile;
    return s;
}

}  // namespace

TEST(Build, FlatFloorWithPillarOneTile) {
    const BuildResult r = make(scenes::floor_with_pillar(20), small_tiles(32));
    ASSERT_EQ(r.tiles.size(), 1u);
    EXPECT_TRUE(failed_invariants(r).empty()) << ::testing::PrintToString(failed_invariants(r));
    expect_area_matches_recast(r);
    // A flat floor has no detail samples: the merged triangles give back Recast's polygons.
    EXPECT_EQ(r.stats.faces, r.stats.recast_polygons);
    // The pillar (2 m + 2 x 0.4 m erosion) is a hole: walkable area = 400 - 2.8² roughly.
    EXPECT_NEAR(r.stats.face_area, 400 - 0.8 * 4 * 20 - 2.8 * 2.8, 12);
    expect_corners_in_leaves(r.tiles[0].tagfile);
    const auto back = fromsoft::read_nav_tagfile(r.tiles[0].bytes);
    EXPECT_TRUE(fromsoft::same_model(back, r.tiles[0].tagfile));
    EXPECT_EQ(r.tiles[0].name, "N:\\GR\\data\\INTERROOT_win64\\map\\m10_00_00_00\\navimesh\\bind6\\n10_00_00_00_001000.hkx");
    EXPECT_EQ(r.tiles[0].id, 10000);
}

TEST(Build, FlatFloorInTilesHasCoincidentSeams) {
    const BuildResult r = make(scenes::floor_with_pillar(40), small_tiles(16));
    EXPECT_EQ(r.stats.cols, 3);
    EXPECT_EQ(r.tiles.size(), 9u);
    EXPECT_TRUE(failed_invariants(r).empty()) << ::testing::PrintToString(failed_invariants(r));
    expect_area_matches_recast(r);
    EXPECT_GE(r.stats.seams.seam_edges, 12);  // 12 line segments between the 9 tiles
    EXPECT_EQ(r.stats.seams.unmatched_edges, 0);
    // Independent check: every vertex on an inner grid line appears, bit for bit, in the tile
    // on the other side of the line.
    std::map<std::pair<int, int>, std::set<std::array<float, 3>>> verts;
    for (const auto& t : r.tiles)
        for (const auto& v : t.tagfile.mesh.vertices) verts[{t.tx, t.tz}].insert({v.x, v.y, v.z});
    const float x0 = 0;  // the scene's min x and z (the floor starts at 0)
    int checked = 0;
    for (const auto& t : r.tiles) {
        for (const auto& v : t.tagfile.mesh.vertices) {
            const float east = x0 + 16.0f * static_cast<float>(t.tx + 1);
            if (v.x == east && t.tx + 1 < 3) {
                EXPECT_TRUE((verts[{t.tx + 1, t.tz}].count({v.x, v.y, v.z}) == 1)) << v.x << " " << v.y << " " << v.z;
                ++checked;
            }
        }
    }
    EXPECT_GE(checked, 12);
    for (const auto& t : r.tiles) expect_corners_in_leaves(t.tagfile);
}

TEST(Build, StairsAndBridgeAuditClean) {
    for (const auto& scene : {scenes::stairs(), scenes::bridge_over_road()}) {
        const BuildResult r = make(scene, small_tiles(16));
        EXPECT_TRUE(failed_invariants(r).empty()) << ::testing::PrintToString(failed_invariants(r));
        expect_area_matches_recast(r);
        EXPECT_EQ(r.stats.seams.unmatched_edges, 0);
        EXPECT_LE(r.stats.max_corners, kMaxFaceCorners);
    }
}

TEST(Build, BridgeKeepsBothLayers) {
    const BuildResult r = make(scenes::bridge_over_road(), small_tiles(64));
    ASSERT_EQ(r.tiles.size(), 1u);
    // Faces under the deck (road, y 0) and on it (y 4.5) at the same x, z.
    bool road = false, deck = false;
    const auto& m = r.tiles[0].tagfile.mesh;
    for (const auto& f : m.faces) {
        const auto& v = m.vertices[m.edges[f.startEdgeIndex].a];
        if (v.x >= 16 && v.x <= 24 && v.z >= 12 && v.z <= 20) {
            if (v.y < 1) road = true;
            if (v.y > 4) deck = true;
        }
    }
    EXPECT_TRUE(road);
    EXPECT_TRUE(deck);
}

TEST(Build, TwoPlatformsJoinedOnlyByALink) {
    BuildSpec s = small_tiles(64);
    s.links.push_back({"jump", {5, 0, 5}, {21, 0, 5}, 1, true, 20, 0x0102, std::nullopt});
    const BuildResult r = make(scenes::two_platforms(), s);
    ASSERT_EQ(r.tiles.size(), 1u);
    EXPECT_TRUE(failed_invariants(r).empty()) << ::testing::PrintToString(failed_invariants(r));
    const auto& m = r.tiles[0].tagfile.mesh;
    ASSERT_EQ(r.stats.user_edges, 2);
    // User edges come after every regular edge and are each other's opposites.
    const std::size_t first = m.edges.size() - 2;
    EXPECT_EQ(m.edges[first].oppositeEdge, first + 1);
    EXPECT_EQ(m.edges[first + 1].oppositeEdge, first);
    EXPECT_EQ(m.edgeData[first], 0x0102);
    // Without the link no edge joins the platforms: the user edges' faces are on either side.
    const auto owner_x = [&](std::uint32_t face) {
        return m.vertices[m.edges[m.faces[face].startEdgeIndex].a].x;
    };
    EXPECT_LT(owner_x(m.edges[first + 1].oppositeFace), 11);
    EXPECT_GT(owner_x(m.edges[first].oppositeFace), 15);

    BuildSpec oneWay = s;
    oneWay.links[0].both_ways = false;
    oneWay.links[0].flags = 52;
    const BuildResult one = make(scenes::two_platforms(), oneWay);
    EXPECT_EQ(one.stats.user_edges, 1);
    EXPECT_TRUE(failed_invariants(one).empty());
}

TEST(Build, LinkOffTheMeshIsAnError) {
    BuildSpec s = small_tiles(64);
    s.links.push_back({"", {5, 0, 5}, {13, 0, 5}, 1, true, 20, 0x0102, std::nullopt});
    try {
        make(scenes::two_platforms(), s);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("link 0"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("off the mesh"), std::string::npos) << e.what();
    }
    // An end far beyond the scene (any finite float) is clamped to a tile in double, not cast
    // to int first (undefined beyond INT_MAX tiles: UBSan stopped here).
    s.links[0].from = {1e30f, 0, -1e30f};
    try {
        make(scenes::two_platforms(), s);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("off the mesh"), std::string::npos) << e.what();
    }
}

TEST(Build, AreaVolumeSetsFaceData) {
    BuildSpec s = small_tiles(32);
    AreaVolume v;
    v.name = "water";
    v.xz = {{0, 0}, {8, 0}, {8, 8}, {0, 8}};
    v.y_min = -1, v.y_max = 1;
    v.faceData = 1 << 12;
    s.volumes.push_back(v);
    const BuildResult r = make(scenes::floor_with_pillar(20), s);
    const auto& m = r.tiles[0].tagfile.mesh;
    int marked = 0;
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
        double cx = 0, cz = 0;
        const auto& face = m.faces[f];
        for (int k = 0; k < face.numEdges; ++k) {
            const auto& p = m.vertices[m.edges[face.startEdgeIndex + k].a];
            cx += p.x / face.numEdges, cz += p.z / face.numEdges;
        }
        const bool inside = cx < 8 && cz < 8;
        EXPECT_EQ(m.faceData[f], inside ? 1 << 12 : 0) << "face " << f << " at " << cx << ", " << cz;
        marked += inside;
    }
    EXPECT_GT(marked, 0);
    EXPECT_TRUE(failed_invariants(r).empty());
}

TEST(Build, SameBytesWhateverTheThreads) {
    const TriangleSoup scene = scenes::bridge_over_road();
    const BuildResult a = make(scene, small_tiles(16), FromGame::EldenRing, 1);
    const BuildResult b = make(scene, small_tiles(16), FromGame::EldenRing, 2);
    EXPECT_EQ(a.binder, b.binder);
}

TEST(Build, SekiroHasClusterGraphs) {
    const BuildResult r = make(scenes::floor_with_pillar(40), small_tiles(16), FromGame::Sekiro);
    EXPECT_TRUE(failed_invariants(r).empty()) << ::testing::PrintToString(failed_invariants(r));
    for (const auto& t : r.tiles) {
        EXPECT_EQ(t.tagfile.sdk_version, 20160200u);
        ASSERT_TRUE(t.tagfile.graph);
        EXPECT_FALSE(t.tagfile.mediator);
    }
    EXPECT_EQ(r.tiles[0].name.rfind("N:\\NTC\\data\\Target\\INTERROOT_win64\\map\\m10_00_00_00\\navimesh\\bind6\\", 0), 0u);
}

TEST(Build, BinderReadsBackInEveryCompression) {
    for (Compression c : {Compression::Dflt, Compression::Zstd, Compression::Krak}) {
        const BuildResult r = make(scenes::floor_with_pillar(40), small_tiles(16), FromGame::EldenRing, 1, c);
        const dcx::Header h = dcx::read_header(r.binder);
        if (c == Compression::Krak) {
            EXPECT_EQ(h.variant, dcx::Variant::Krak);
        }
        const dcx::Decoded decoded = dcx::decompress(r.binder);  // the binder's entries view its payload
        const bnd4::Binder b = bnd4::read(decoded.payload);
        ASSERT_EQ(b.entries.size(), r.tiles.size());
        for (std::size_t i = 0; i < b.entries.size(); ++i) {
            EXPECT_EQ(b.entries[i].name, r.tiles[i].name);
            EXPECT_EQ(b.entries[i].id, r.tiles[i].id);
            const auto data = b.entries[i].data();
            EXPECT_TRUE(std::equal(data.begin(), data.end(), r.tiles[i].bytes.begin(), r.tiles[i].bytes.end()));
        }
    }
}

TEST(Build, SynthTerrainInTilesAuditsClean) {
    synth::SceneParams sp;
    sp.size = 96;
    sp.buildings = 8;
    sp.bridges = 1;
    sp.rocks = 8;
    const BuildResult r = make(synth::make_scene(sp, 3), small_tiles(24));
    EXPECT_TRUE(failed_invariants(r).empty()) << ::testing::PrintToString(failed_invariants(r));
    expect_area_matches_recast(r);
    EXPECT_GT(r.stats.seams.seam_edges, 20);
    EXPECT_LE(r.stats.max_corners, kMaxFaceCorners);
    std::printf("terrain: %zu tiles, %lld faces, seams %d matched / %d unmatched, %d moved, %d inserted\n",
                r.tiles.size(), static_cast<long long>(r.stats.faces), r.stats.seams.seam_edges,
                r.stats.seams.unmatched_edges, r.stats.seams.moved_vertices, r.stats.seams.inserted_vertices);
}

TEST(Build, FarCry2SectorsCheckCleanWithCrossSectorLinks) {
    const auto dir = navlab::test::scratch_dir("fc2_build");
    const Fc2Result r = build_farcry2(scenes::floor_with_pillar(100), BuildSpec{}, 2);
    ASSERT_EQ(r.files.size(), 1u + 4u);  // 2 x 2 sectors of 64 m
    EXPECT_EQ(r.files[0].name, "nv.nvm");
    EXPECT_EQ(r.cross_sector_links, 8);  // 4 seam edges of a flat floor, both ways
    for (const auto& f : r.files) write_file_atomic(dir / f.name, f.bytes);
    const farcry2::World world = farcry2::load_world(dir, 1);
    ASSERT_TRUE(world.failures.empty());
    const farcry2::CheckReport check = farcry2::check_world(world, 1);
    EXPECT_TRUE(check.ok()) << (check.findings.empty() ? "" : check.findings[0].message);
    EXPECT_EQ(check.stats.broken_links, 0u);
    EXPECT_EQ(check.stats.cross_sector_links, static_cast<std::size_t>(r.cross_sector_links));
    EXPECT_EQ(check.stats.triangles, static_cast<std::size_t>(r.triangles));
    // Same bytes whatever the threads.
    const Fc2Result one = build_farcry2(scenes::floor_with_pillar(100), BuildSpec{}, 1);
    for (std::size_t i = 0; i < r.files.size(); ++i) EXPECT_EQ(one.files[i].bytes, r.files[i].bytes);
    std::string log;
    EXPECT_EQ(navlab::test::run_command(navlab::test::navlab_binary() + " fc2 check " + dir.string(), &log), 0) << log;
}

TEST(Build, FieldLimitsSuggestATileSize) {
    BuildSpec s;
    s.tile_size = 256;
    try {
        check_tile_limits({kMaxTreeFaces + 1000, 10, 10}, FromGame::EldenRing, s, "tile (0, 0)");
        FAIL() << "no error";
    } catch (const Error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("tile (0, 0)"), std::string::npos) << m;
        EXPECT_NE(m.find("23 bits"), std::string::npos) << m;
        EXPECT_NE(m.find("\"tile_size\": 230"), std::string::npos) << m;  // 256 x sqrt(limit/count) x 0.9
    }
    EXPECT_NO_THROW(check_tile_limits({kMaxTreeFaces, 10, 10}, FromGame::EldenRing, s, "t"));
    EXPECT_NO_THROW(check_tile_limits({kMaxTreeFaces + 1, 10, 10}, FromGame::Sekiro, s, "t"));
    EXPECT_THROW(check_tile_limits({1, 0x80000000ull, 10}, FromGame::Sekiro, s, "t"), Error);
}

namespace {

/// Faces reachable from `from` across opposites (regular edges, and user edges when asked).
std::set<std::uint32_t> reachable(const fromsoft::NavMesh& m, std::uint32_t from, bool user_edges) {
    std::set<std::uint32_t> seen{from};
    std::vector<std::uint32_t> todo{from};
    while (!todo.empty()) {
        const auto f = todo.back();
        todo.pop_back();
        const auto& face = m.faces[f];
        std::vector<std::uint32_t> edges;
        for (int k = 0; k < face.numEdges; ++k) edges.push_back(face.startEdgeIndex + k);
        if (user_edges)
            for (int k = 0; k < face.numUserEdges; ++k) edges.push_back(face.startUserEdgeIndex + k);
        for (auto e : edges) {
            const auto g = m.edges[e].oppositeFace;
            if (g != fromsoft::kNoOpposite && seen.insert(g).second) todo.push_back(g);
        }
    }
    return seen;
}

/// The face whose corner centroid is nearest (x, y, z).
std::uint32_t face_near(const fromsoft::NavMesh& m, float x, float y, float z) {
    std::uint32_t best = 0;
    double bestD = 1e30;
    for (std::uint32_t f = 0; f < m.faces.size(); ++f) {
        const auto c = fromsoft::face_centre(m, f);
        const double d = (c.x - x) * (c.x - x) + (c.y - y) * (c.y - y) + (c.z - z) * (c.z - z);
        if (d < bestD) bestD = d, best = f;
    }
    return best;
}

}  // namespace

TEST(Build, PathsExistWhereTheSceneConnects) {
    // Two platforms: only the link joins them.
    BuildSpec s = small_tiles(64);
    s.links.push_back({"jump", {5, 0, 5}, {21, 0, 5}, 1, true, 20, 0x0102, std::nullopt});
    const BuildResult platforms = make(scenes::two_platforms(), s);
    const auto& m = platforms.tiles[0].tagfile.mesh;
    const auto west = face_near(m, 5, 0, 5), east = face_near(m, 21, 0, 5);
    EXPECT_FALSE(reachable(m, west, false).count(east));
    EXPECT_TRUE(reachable(m, west, true).count(east));
    // The bridge: south and north ends meet over the deck; the road below stays apart.
    const BuildResult bridge = make(scenes::bridge_over_road(), small_tiles(64));
    const auto& b = bridge.tiles[0].tagfile.mesh;
    const auto south = face_near(b, 20, 0, -10), north = face_near(b, 20, 0, 42), road = face_near(b, 4, 0, 16);
    const auto fromSouth = reachable(b, south, false);
    EXPECT_TRUE(fromSouth.count(north));
    EXPECT_FALSE(fromSouth.count(road));
    // Stairs: the floor reaches the landing 2 m up.
    const BuildResult stairs = make(scenes::stairs(), small_tiles(64));
    const auto& st = stairs.tiles[0].tagfile.mesh;
    EXPECT_TRUE(reachable(st, face_near(st, 2, 0, 5), false).count(face_near(st, 25, 2.0f, 5)));
}

TEST(Build, LinkSetupsInBothGames) {
    BuildSpec s = small_tiles(64);
    LinkSpec l{"ladder", {5, 0, 5}, {21, 0, 5}, 1, true, 20, 0x0102, std::nullopt};
    l.setup_half_extents = std::array<float, 3>{1, 2, 0.5f};
    s.links.push_back(l);
    for (FromGame game : {FromGame::EldenRing, FromGame::Sekiro}) {
        const BuildResult r = make(scenes::two_platforms(), s, game);
        EXPECT_TRUE(failed_invariants(r).empty()) << ::testing::PrintToString(failed_invariants(r));
        const auto& t = r.tiles[0].tagfile;
        ASSERT_TRUE(t.user_edge_setups);
        ASSERT_EQ(t.user_edge_setups->size(), 1u);
        const auto& setup = (*t.user_edge_setups)[0];
        EXPECT_EQ(setup.obbA.transform[12], 5);
        EXPECT_EQ(setup.obbB.transform[12], 21);
        EXPECT_FLOAT_EQ(setup.costAtoB, 16);
        EXPECT_EQ(setup.direction, 3);
        EXPECT_EQ(r.stats.user_edges, game == FromGame::EldenRing ? 2 : 0);
        const auto back = fromsoft::read_nav_tagfile(r.tiles[0].bytes);
        EXPECT_TRUE(fromsoft::same_model(back, t));
    }
    s.links[0].setup_half_extents.reset();
    EXPECT_THROW(make(scenes::two_platforms(), s, FromGame::Sekiro), Error);
}

// Geometry spanning more tiles than the grid may hold is refused before Recast runs (the grid
// used to be sized by a float-to-int cast of the span, undefined beyond INT_MAX tiles).
TEST(Build, GeometryBeyondTheTileLimitIsRefused) {
    TriangleSoup scene;
    const float a[3] = {0, 0, 0}, b[3] = {1e7f, 0, 0}, c[3] = {1e7f, 0, 1e7f}, d[3] = {0, 0, 1e7f};
    scenes::add_quad(scene, a, b, c, d);
    try {
        make(scene, small_tiles(8));
        FAIL() << "no error";
    } catch (const Error& e) {
        // 1e7 / 8 = 1,250,000 tiles a side.
        EXPECT_STREQ(e.what(), "tile_size: the geometry (x 0 .. 10000000, z 0 .. 10000000) spans 1250000 × 1250000 "
                               "tiles of 8 m; navlab builds at most 1048576 tiles. The vertex farthest from the middle "
                               "of the others lies at (0, 0, 0): if it is a stray, remove it; else use a larger "
                               "tile_size, or build the level in parts");
    }
    // A level of 40 m with one stray vertex 1e8 m away: the message points at the stray.
    TriangleSoup stray;
    const float p[3] = {0, 0, 0}, q[3] = {40, 0, 0}, r[3] = {40, 0, 40}, t[3] = {0, 0, 40};
    scenes::add_quad(stray, p, q, r, t);
    const float u[3] = {20, 0, 20}, v[3] = {1e8f, 0, 21}, w[3] = {21, 0, 21}, x[3] = {20, 0, 21};
    scenes::add_quad(stray, u, v, w, x);
    try {
        make(stray, small_tiles(8));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("lies at (100000000, 0, 21): if it is a stray"), std::string::npos) << e.what();
    }
    // The largest finite span: (FLT_MAX - -FLT_MAX) overflows float, not the double it is counted in.
    TriangleSoup huge;
    const float m = 3.4e38f, e[3] = {-m, 0, -m}, f[3] = {m, 0, -m}, g[3] = {m, 0, m}, h[3] = {-m, 0, m};
    scenes::add_quad(huge, e, f, g, h);
    EXPECT_THROW(make(huge, BuildSpec{}), Error);
}

// The k-th mesh of a binder is model 1000 + 100·k: from k = 9990 on the member name would
// need seven digits (and its id 10000 + k would reach the lo-res range at 20000). A floor cut
// into 100 × 100 tiles of 4 m is one mesh too many for a binder.
TEST(Build, MoreMeshesThanABinderNamesAreRefused) {
    TriangleSoup scene;
    const float a[3] = {0, 0, 0}, b[3] = {400, 0, 0}, c[3] = {400, 0, 400}, d[3] = {0, 0, 400};
    scenes::add_quad(scene, a, b, c, d);
    BuildSpec spec = small_tiles(4);
    try {
        make(scene, spec, FromGame::EldenRing, 2);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()).rfind("BUILD.json: tile_size: 10000 tiles have walkable faces; a navmesh binder "
                                              "holds at most 9990", 0), 0u)
            << e.what();
    }
    EXPECT_EQ(navmesh_model_number(9989), 999900);  // the last six-digit model
}
