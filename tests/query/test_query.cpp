// Path queries on generated meshes with known answers, and against Detour.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "formats/fromsoft/aabb_tree6.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "havok/navmesh_fixture.h"
#include "formats/fromsoft/navmesh.h"
#include "io/error.h"
#include "io/file.h"
#include "meshes.h"
#include "query/navmesh_query.h"
#include "query/query_input.h"
#include "support/detour_mesh.h"
#include "support/samples.h"

namespace navlab::query {
namespace {

using testing::grid_mesh;

constexpr PathMode kModes[] = {PathMode::Exact, PathMode::Corridor};

double polyline_xz(const std::vector<Vec3>& pts) {
    double s = 0;
    for (std::size_t i = 1; i < pts.size(); ++i) s += std::hypot(pts[i].x - pts[i - 1].x, pts[i].z - pts[i - 1].z);
    return s;
}

TEST(QueryPath, SquareWithHoleGoesAroundACorner) {
    PolygonView view = testing::square_with_hole();
    NavMeshQuery q(view);
    const double expected = 2 * std::sqrt(10.0) + 2;
    for (PathMode mode : kModes) {
        PathResult r = q.find_path({1, 0, 5}, {9, 0, 5}, mode);
        ASSERT_EQ(r.status, PathStatus::Found);
        EXPECT_NEAR(r.length_xz, expected, 1e-9) << mode_name(mode);
        EXPECT_NEAR(r.length, expected, 1e-9);
        EXPECT_NEAR(polyline_xz(r.points), expected, 1e-9);
        EXPECT_EQ(r.start_face, 3u);
        EXPECT_EQ(r.end_face, 1u);
        EXPECT_EQ(r.faces.front(), 3u);
        EXPECT_EQ(r.faces.back(), 1u);
    }
}

TEST(QueryPath, NonConvexFaceIsSplitByEarClipping) {
    PolygonView view = testing::square_with_hole_one_face();
    NavMeshQuery q(view);
    PathResult r = q.find_path({1, 0, 5}, {9, 0, 5}, PathMode::Exact);
    ASSERT_EQ(r.status, PathStatus::Found);
    EXPECT_NEAR(r.length_xz, 2 * std::sqrt(10.0) + 2, 1e-9);
    EXPECT_EQ(r.faces, std::vector<std::uint32_t>{0});
}

TEST(QueryPath, UShape) {
    PolygonView view = grid_mesh(10, 10, [](int i, int j) { return i < 2 || i >= 8 || j < 2; });
    NavMeshQuery q(view);
    const double expected = 2 * std::hypot(1.0, 7.5) + 6;
    PathResult exact = q.find_path({1, 0, 9.5}, {9, 0, 9.5}, PathMode::Exact);
    ASSERT_EQ(exact.status, PathStatus::Found);
    EXPECT_NEAR(exact.length_xz, expected, 1e-9);
    PathResult corridor = q.find_path({1, 0, 9.5}, {9, 0, 9.5}, PathMode::Corridor);
    ASSERT_EQ(corridor.status, PathStatus::Found);
    EXPECT_GE(corridor.length_xz, expected - 1e-9);
    EXPECT_LE(corridor.length_xz, expected * 1.1);
}

TEST(QueryPath, StairsLiftTheLength) {
    // A straight ramp of 10 unit quads rising 0.3 m per metre: planar, so the lifted length is
    // exactly the slope length.
    PolygonView view = grid_mesh(10, 1, [](int, int) { return true; }, [](double x, double) { return 0.3 * x; });
    NavMeshQuery q(view);
    for (PathMode mode : kModes) {
        PathResult r = q.find_path({0.5, 0.15, 0.5}, {9.5, 2.85, 0.5}, mode);
        ASSERT_EQ(r.status, PathStatus::Found);
        EXPECT_NEAR(r.length_xz, 9.0, 1e-9);
        EXPECT_NEAR(r.length, std::hypot(9.0, 2.7), 1e-9);
        EXPECT_EQ(r.faces.size(), 10u);
        EXPECT_NEAR(r.points.back().y, 2.85, 1e-9);
    }
}

TEST(QueryPath, BridgeOverGroundFollowsAdjacency) {
    // Ground: 10 × 10 at y 0. Bridge deck: x 4..6, z -2..12 at y 5, not connected to the ground.
    std::vector<Vec3> v = {{0, 0, 0}, {10, 0, 0}, {10, 0, 10}, {0, 0, 10}, {4, 5, -2}, {6, 5, -2}, {6, 5, 12}, {4, 5, 12}};
    PolygonView view(v, {{0, 1, 2, 3}, {4, 5, 6, 7}});
    NavMeshQuery q(view);
    for (PathMode mode : kModes) {
        PathResult deck = q.find_path({5, 5, -1}, {5, 5, 11}, mode);
        ASSERT_EQ(deck.status, PathStatus::Found);
        EXPECT_EQ(deck.faces, std::vector<std::uint32_t>{1});
        EXPECT_NEAR(deck.length, 12, 1e-9);
        for (const Vec3& p : deck.points) EXPECT_EQ(p.y, 5);
        PathResult under = q.find_path({5, 0, 1}, {5, 0, 9}, mode);
        ASSERT_EQ(under.status, PathStatus::Found);
        EXPECT_EQ(under.faces, std::vector<std::uint32_t>{0});
        EXPECT_EQ(q.find_path({5, 0, 1}, {5, 5, 11}, mode).status, PathStatus::NoPath);
    }
    EXPECT_EQ(q.islands().size(), 2u);
}

// Two U-shapes on two levels, one over the other and open on opposite sides, their corners at
// the same (x, z): each level's exact path goes round its own U (a global 2-D map would let
// the deck's path cut across the ground's bar). Both exact searches; the corner graph turns
// at fans of the right level only.
TEST(QueryPath, TwoLevelsOfUShapesKeepTheirOwnCorners) {
    std::vector<Vec3> v;
    std::vector<std::vector<std::uint32_t>> polys;
    auto level = [&](double y, auto free) {
        const auto base = static_cast<std::uint32_t>(v.size());
        for (int j = 0; j <= 10; ++j)
            for (int i = 0; i <= 10; ++i) v.push_back({double(i), y, double(j)});
        auto id = [&](int i, int j) { return base + static_cast<std::uint32_t>(j * 11 + i); };
        for (int j = 0; j < 10; ++j)
            for (int i = 0; i < 10; ++i)
                if (free(i, j)) polys.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
    };
    level(0, [](int i, int j) { return i < 2 || i >= 8 || j < 2; });   // ground: bar at z < 2
    level(5, [](int i, int j) { return i < 2 || i >= 8 || j >= 8; });  // deck: bar at z >= 8
    PolygonView view(v, polys);
    const double around = 2 * std::hypot(1.0, 7.5) + 6;
    for (ExactSearch how : {ExactSearch::Intervals, ExactSearch::CornerGraph}) {
        NavMeshQuery q(view);
        q.set_exact_search(how);
        PathResult ground = q.find_path({1, 0, 9.5}, {9, 0, 9.5}, PathMode::Exact);
        ASSERT_EQ(ground.status, PathStatus::Found);
        EXPECT_NEAR(ground.length_xz, around, 1e-9);
        for (const Vec3& p : ground.points) EXPECT_EQ(p.y, 0);
        PathResult deck = q.find_path({1, 5, 0.5}, {9, 5, 0.5}, PathMode::Exact);
        ASSERT_EQ(deck.status, PathStatus::Found);
        EXPECT_NEAR(deck.length_xz, around, 1e-9);
        for (const Vec3& p : deck.points) EXPECT_EQ(p.y, 5);
        PathResult straight = q.find_path({1, 0, 0.5}, {9, 0, 0.5}, PathMode::Exact);
        EXPECT_NEAR(straight.length_xz, 8, 1e-9);
        EXPECT_EQ(q.find_path({1, 0, 0.5}, {1, 5, 0.5}, PathMode::Exact).status, PathStatus::NoPath);
    }
}

PolygonView gap_mesh() {
    std::vector<Vec3> v = {{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}, {6, 0, 0}, {10, 0, 0}, {10, 0, 4}, {6, 0, 4}};
    return PolygonView(v, {{0, 1, 2, 3}, {4, 5, 6, 7}}, {{0, 1, {4, 0, 2}, {6, 0, 2}}});
}

TEST(QueryPath, GapCrossedOnlyByAOneWayUserEdge) {
    PolygonView view = gap_mesh();
    NavMeshQuery q(view);
    for (PathMode mode : kModes) {
        PathResult r = q.find_path({1, 0, 2}, {9, 0, 2}, mode);
        ASSERT_EQ(r.status, PathStatus::Found) << mode_name(mode);
        EXPECT_NEAR(r.length, 8, 1e-9);
        EXPECT_EQ(r.links, std::vector<std::uint32_t>{0});
        EXPECT_EQ(r.faces, (std::vector<std::uint32_t>{0, 1}));
        EXPECT_EQ(q.find_path({9, 0, 2}, {1, 0, 2}, mode).status, PathStatus::NoPath);  // one way
        QueryFilter no_links;
        no_links.use_links = false;
        EXPECT_EQ(q.find_path({1, 0, 2}, {9, 0, 2}, mode, no_links).status, PathStatus::NoPath);
    }
    EXPECT_EQ(q.islands(true).size(), 2u);  // one-way: still two strongly connected islands
    EXPECT_TRUE(q.reachable(0, 1, true));
    EXPECT_FALSE(q.reachable(1, 0, true));
    EXPECT_FALSE(q.reachable(0, 1, false));
}

TEST(QueryPath, DisconnectedIslandsAndOffMesh) {
    PolygonView view = grid_mesh(10, 3, [](int i, int) { return i < 3 || i > 6; });
    NavMeshQuery q(view);
    auto islands = q.islands();
    ASSERT_EQ(islands.size(), 2u);
    EXPECT_NEAR(islands[0].area_xz, 9, 1e-12);
    EXPECT_EQ(islands[0].faces.size(), 9u);
    EXPECT_EQ(islands[1].min.x, 7);
    PathResult r = q.find_path({1, 0, 1}, {8, 0, 1}, PathMode::Exact);
    EXPECT_EQ(r.status, PathStatus::NoPath);
    PathResult off = q.find_path({1, 0, 1}, {5, 0, 1.5}, PathMode::Exact);
    EXPECT_EQ(off.status, PathStatus::OffMesh);
    EXPECT_NEAR(off.off_mesh_distance, 2, 1e-9);
    EXPECT_EQ(q.find_path({NAN, 0, 0}, {1, 0, 1}, PathMode::Corridor).status, PathStatus::OffMesh);
}

TEST(QueryPath, FilterExcludesAndWeighsFaces) {
    // A 3-wide strip; the middle row's faces carry bit 0. Excluded, the path goes around.
    std::vector<Vec3> verts;
    std::vector<std::vector<std::uint32_t>> polys;
    std::vector<std::uint32_t> bits;
    {
        PolygonView g = grid_mesh(5, 3, [](int, int) { return true; });
        for (std::size_t i = 0; i < g.vertex_count(); ++i) verts.push_back(g.vertex(i));
        for (std::size_t f = 0; f < g.face_count(); ++f) {
            polys.push_back({g.corner(f, 0), g.corner(f, 1), g.corner(f, 2), g.corner(f, 3)});
            bool middle = f / 5 == 1 && f % 5 >= 1 && f % 5 <= 3;
            bits.push_back(middle ? 1u : 0u);
        }
    }
    PolygonView view(verts, polys, {}, bits);
    NavMeshQuery q(view);
    QueryFilter f;
    f.exclude_bits = 1;
    for (PathMode mode : kModes) {
        EXPECT_NEAR(q.find_path({0.5, 0, 1.5}, {4.5, 0, 1.5}, mode).length_xz, 4, 1e-9);
        PathResult r = q.find_path({0.5, 0, 1.5}, {4.5, 0, 1.5}, mode, f);
        ASSERT_EQ(r.status, PathStatus::Found);
        EXPECT_NEAR(r.length_xz, 2 * std::hypot(0.5, 0.5) + 3, 1e-9) << mode_name(mode);
    }
    EXPECT_EQ(q.find_path({2.5, 0, 1.5}, {4.5, 0, 1.5}, PathMode::Corridor, f).status, PathStatus::NoPath);
    QueryFilter costly;
    costly.cost_multipliers = {{0, 10.0}};
    PathResult r = q.find_path({0.5, 0, 1.5}, {4.5, 0, 1.5}, PathMode::Corridor, costly);
    EXPECT_GT(r.length_xz, 4.1);  // walks around the expensive row
}

TEST(QueryNearest, TreeScanAndExtents) {
    PolygonView view = grid_mesh(20, 20, [](int i, int j) { return (i + j) % 7 != 0; }, [](double x, double z) { return 0.1 * x - 0.05 * z; });
    NavMeshQuery q(view);
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-2, 22);
    for (int i = 0; i < 500; ++i) {
        Vec3 p{u(rng), u(rng) / 4, u(rng)};
        NearestResult a = q.nearest_face(p, {1.5, 3, 1.5}), b = q.nearest_face_linear(p, {1.5, 3, 1.5});
        ASSERT_EQ(a.found, b.found);
        if (a.found) {
            EXPECT_NEAR(a.distance, b.distance, 1e-12);
        }
    }
    NearestResult n = q.nearest_face({5.5, 10, 5.25}, {0.5, 20, 0.5});
    ASSERT_TRUE(n.found);
    EXPECT_NEAR(n.point.y, 0.1 * 5.5 - 0.05 * 5.25, 1e-12);
}

// An Elden Ring mesh whose vertices moved after its AABB tree was built (R72 fails): the
// stored tree would find no face at the mesh, or a face half a kilometre away as "found".
// The query keeps the stored tree only while every leaf holds its face, else builds its BVH.
TEST(QueryNearest, AStoredTreeThatDoesNotHoldItsFacesIsNotUsed) {
    const std::vector<std::uint8_t> bytes = test::grid_navmesh(6, 5);
    fromsoft::NavTagfile t = fromsoft::read_nav_tagfile(bytes);
    const fromsoft::QueryMediator mediator = fromsoft::build_query_mediator(t.mesh);  // the tree the game's tools make
    {
        FromSoftView view(t.mesh, "grid");
        NavMeshQuery q(view, &mediator);
        EXPECT_TRUE(q.uses_stored_tree());
    }
    // R72 allows corners 0.5 mm outside their leaf's box: a tree 0.3 mm off is still used, as
    // the game would use it; 0.7 mm off is not.
    for (const double shift : {0.0003, 0.0007}) {
        fromsoft::NavMesh near = t.mesh;
        for (auto& v : near.vertices) v.x = static_cast<float>(v.x + shift);
        FromSoftView view(near, "shifted");
        NavMeshQuery q(view, &mediator);
        EXPECT_EQ(q.uses_stored_tree(), shift < fromsoft::kLeafBoxTolerance) << shift;
    }
    for (auto& v : t.mesh.vertices) v.x += 500;
    FromSoftView moved(t.mesh, "moved");
    NavMeshQuery q(moved, &mediator);
    EXPECT_FALSE(q.uses_stored_tree());
    for (const Vec3& p : {Vec3{502.5, 0.2, 2.5}, Vec3{2.5, 0.2, 2.5}, Vec3{505.9, -0.5, 4.9}}) {
        const NearestResult a = q.nearest_face(p), b = q.nearest_face_linear(p);
        ASSERT_EQ(a.found, b.found) << p.x;
        if (a.found) {
            EXPECT_EQ(a.face, b.face) << p.x;
        }
    }
    EXPECT_TRUE(q.nearest_face({502.5, 0.2, 2.5}).found);
    EXPECT_FALSE(q.nearest_face({2.5, 0.2, 2.5}).found);
}

// A Havok tagfile of another kind (here one clearance cache, as an animation or a collision
// tagfile would be) reads, but holds no hkaiNavMesh: the queries said "0 faces, 0 islands"
// and exit 0; now "no navmesh in the input".
TEST(QueryInput, ATagfileWithoutANavMeshIsNoInput) {
    havok::Builder b(havok::navmesh_types_2018(), "20180100");
    const havok::NodeId cache = b.object("hkaiNavMeshClearanceCache");
    b.set_float(b.at(cache, "clearanceCeiling"), 2.0);
    b.add_variant(cache);
    const auto dir = test::scratch_dir("query_no_navmesh");
    const std::string file = (dir / "cache.hkx").string();
    write_file_atomic(file, b.finish({}));
    try {
        load_query_input(file, "");
        ADD_FAILURE() << "a tagfile without a navmesh was taken for an empty one";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(file + ": no navmesh in the input"), std::string::npos) << e.what();
    }
    std::string out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " islands " + file, &out), 1) << out;
    EXPECT_NE(out.find("no navmesh in the input"), std::string::npos) << out;
}

TEST(QueryRaycast, DetourSemantics) {
    PolygonView view = testing::square_with_hole();
    NavMeshQuery q(view);
    RaycastResult hit = q.raycast({1, 0, 5}, {9, 0, 5});
    ASSERT_TRUE(hit.hit);
    EXPECT_NEAR(hit.t, 3.0 / 8.0, 1e-12);
    EXPECT_NEAR(hit.hit_point.x, 4, 1e-12);
    EXPECT_EQ(hit.wall_face, 3u);
    EXPECT_NEAR(hit.normal.x, -1, 1e-12);  // back towards the start
    EXPECT_NEAR(hit.normal.z, 0, 1e-12);
    RaycastResult clear = q.raycast({1, 0, 2}, {9, 0, 2});
    EXPECT_FALSE(clear.hit);
    EXPECT_EQ(clear.t, 1);
    EXPECT_EQ(clear.faces.front(), 3u);
    EXPECT_EQ(clear.faces, (std::vector<std::uint32_t>{3, 0, 1}));
    RaycastResult out = q.raycast({1, 0, 1}, {1, 0, -5});
    ASSERT_TRUE(out.hit);
    EXPECT_NEAR(out.t, 1.0 / 6.0, 1e-12);
    EXPECT_TRUE(q.raycast({50, 0, 50}, {1, 0, 1}).off_mesh);
}

TEST(QueryView, BrokenFromSoftMeshIsRefusedNamingTheEdge) {
    fromsoft::NavMesh m;
    m.vertices = {{0, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 1, 0}};
    m.faces = {{0, -1, 3, 0, -1, 0xCDCD}};
    m.edges = {{0, 1}, {1, 2}, {2, 0}};
    EXPECT_NO_THROW(FromSoftView(m, "a.hkx"));
    m.edges[1].oppositeFace = 7;
    try {
        FromSoftView v(m, "a.hkx");
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("a.hkx"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("hkaiNavMesh edge 1"), std::string::npos) << e.what();
    }
    m.edges[1].oppositeFace = fromsoft::kNoOpposite;
    m.edges[1].b = 0;  // the ring no longer closes
    EXPECT_THROW(FromSoftView(m, "a.hkx"), Error);
}

// Read from a file, a refusal names the member's byte in the tagfile: the 4 bytes there hold
// the bad value, and the record's first 8 bytes are the edge's a and b.
TEST(QueryView, RefusalNamesTheByteOfTheMemberInTheTagfile) {
    fromsoft::NavTagfile nav;
    nav.sdk_version = fromsoft::kSdkEldenRing;
    nav.mesh.vertices = {{0, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 1, 0}, {0, 0, 1, 0}};
    nav.mesh.faces = {{0, -1, 3, 0, -1, 0}, {3, -1, 3, 0, -1, 0}};
    nav.mesh.edges = {{0, 1}, {1, 2}, {2, 0}, {0, 2}, {2, 3}, {3, 0}};
    nav.mesh.faceData = {0, 0};
    nav.mesh.edgeData.assign(6, 0);
    std::vector<std::uint8_t> bytes = fromsoft::write_nav_tagfile(nav);
    const fromsoft::NavTagfile clean = fromsoft::read_nav_tagfile(bytes);
    EXPECT_NO_THROW(FromSoftView(clean.mesh, "a.hkx", &clean.layouts));
    // Edge 4's oppositeEdge, found by its neighbours' values: the edges' records in file order.
    const std::uint64_t edges_at = clean.layouts.edges_at, size = clean.layouts.edge->size;
    ASSERT_NE(edges_at, kNoOffset);
    ASSERT_EQ(size, 20u);
    auto u32_at = [&](std::uint64_t at) {
        std::uint32_t v;
        std::memcpy(&v, bytes.data() + at, 4);
        return v;
    };
    ASSERT_EQ(u32_at(edges_at + 4 * size), 2u);      // a of edge 4
    ASSERT_EQ(u32_at(edges_at + 4 * size + 4), 3u);  // b of edge 4
    const fromsoft::MemberInfo* opposite = clean.layouts.edge->find("oppositeEdge");
    ASSERT_NE(opposite, nullptr);
    const std::uint64_t field = edges_at + 4 * size + opposite->offset;
    ASSERT_EQ(u32_at(field), fromsoft::kNoOpposite);
    std::memcpy(bytes.data() + field, "\x39\x30\x00\x00", 4);  // 12345
    const fromsoft::NavTagfile broken = fromsoft::read_nav_tagfile(bytes);
    try {
        FromSoftView v(broken.mesh, "a.hkx", &broken.layouts);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), field) << e.what();
        EXPECT_EQ(u32_at(e.offset()), 12345u);
        EXPECT_NE(std::string(e.what()).find("hkaiNavMesh edge 4: oppositeEdge 12345 out of range (6 edges)"), std::string::npos)
            << e.what();
    }
    // Without the layouts (a mesh made in memory) the same refusal has no offset.
    try {
        FromSoftView v(broken.mesh, "a.hkx");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), kNoOffset);
    }
}

// ---- against Detour ----------------------------------------------------------------------

/// Random convex polygons: a jittered grid of quads, some split into triangles, holes punched.
struct RandomPolys {
    std::vector<std::array<float, 3>> verts;
    std::vector<std::vector<std::uint32_t>> polys;
};
RandomPolys random_polys(int n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> jitter(-0.3f, 0.3f);
    RandomPolys out;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i)
            out.verts.push_back({i + (i > 0 && i < n ? jitter(rng) : 0), 0.1f * i, j + (j > 0 && j < n ? jitter(rng) : 0)});
    auto id = [&](int i, int j) { return static_cast<std::uint32_t>(j * (n + 1) + i); };
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            if (rng() % 6 == 0) continue;  // a hole
            std::uint32_t a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
            if (rng() % 2) {
                out.polys.push_back({a, b, c});
                out.polys.push_back({a, c, d});
            } else {
                out.polys.push_back({a, b, c, d});
            }
        }
    return out;
}

TEST(QueryDetour, CorridorMatchesDetourOnTheSamePolygons) {
    RandomPolys rp = random_polys(24, 11);
    auto dt = testing::make_detour_mesh(rp.verts, rp.polys);
    PolygonView view = dt->view();
    NavMeshQuery q(view);
    std::mt19937 rng(3);
    int compared = 0, equal = 0;
    for (int i = 0; i < 400; ++i) {
        std::uint32_t a = rng() % rp.polys.size(), b = rng() % rp.polys.size();
        auto centre = [&](std::uint32_t p) {
            Vec3 c{};
            for (std::uint32_t v : rp.polys[p]) c = {c.x + view.vertex(v).x, c.y + view.vertex(v).y, c.z + view.vertex(v).z};
            double n = static_cast<double>(rp.polys[p].size());
            return Vec3{c.x / n, c.y / n, c.z / n};
        };
        Vec3 s = centre(a), e = centre(b);
        PathResult r = q.find_path(s, e, PathMode::Corridor, {}, {0.01, 1, 0.01});
        PathResult x = q.find_path(s, e, PathMode::Exact, {}, {0.01, 1, 0.01});
        float fs[3] = {float(s.x), float(s.y), float(s.z)}, fe[3] = {float(e.x), float(e.y), float(e.z)};
        std::vector<float> dpts;
        double d = testing::detour_path_length(*dt, a, fs, b, fe, &dpts);
        if (std::getenv("NAVLAB_DEBUG_DETOUR") && std::fabs(r.length_xz - d) > 1e-4) {
            std::printf("pair %d: navlab %.6f detour %.6f\n navlab:", i, r.length_xz, d);
            for (auto& p : r.points) std::printf(" (%.3f %.3f)", p.x, p.z);
            std::printf("\n detour:");
            for (std::size_t k = 0; k < dpts.size(); k += 3) std::printf(" (%.3f %.3f)", dpts[k], dpts[k + 2]);
            std::printf("\n");
        }
        ASSERT_EQ(d < 0, r.status != PathStatus::Found) << i;
        if (d < 0) continue;
        ++compared;
        EXPECT_NEAR(r.length_xz, d, 0.05 * std::max(1.0, d)) << i;  // same A* and funnel, ties aside
        equal += std::fabs(r.length_xz - d) < 1e-4;
        EXPECT_LE(x.length_xz, r.length_xz + 1e-9) << i;  // exact is never longer
        EXPECT_GE(x.length_xz, std::hypot(s.x - e.x, s.z - e.z) - 1e-9);
    }
    EXPECT_GT(compared, 200);
    EXPECT_GT(equal, compared * 9 / 10);
}

}  // namespace
}  // namespace navlab::query
