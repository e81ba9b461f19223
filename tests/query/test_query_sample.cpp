// The real Elden Ring sample, the commands, and IGI routes.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "container/bnd4.h"
#include "formats/fromsoft/cluster_graph.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "formats/igi/graph_io.h"
#include "formats/igi/routes.h"
#include "io/file.h"
#include "io/shared_bytes.h"
#include "query/igi_path.h"
#include "query/navmesh_query.h"
#include "query/query_input.h"
#include "havok/navmesh_fixture.h"
#include "support/samples.h"

namespace navlab::query {
namespace {

constexpr const char* kEr = "havok/er/n10_01_00_00_001700.hkx";

TEST(QuerySample, EveryPairOfFaceCentresInAnIsland) {
    NAVLAB_REQUIRE_SAMPLE(path, kEr);
    const SharedBytes file = SharedBytes::map_file(path.string());
    fromsoft::NavTagfile t = fromsoft::read_nav_tagfile(file.span());
    FromSoftView view(t.mesh, path.string());
    ASSERT_TRUE(t.mediator.has_value());
    NavMeshQuery q(view, &*t.mediator);
    EXPECT_TRUE(q.uses_stored_tree());
    const std::size_t F = t.mesh.faces.size();
    std::vector<Vec3> centre(F);
    std::vector<std::uint32_t> face(F);
    for (std::size_t f = 0; f < F; ++f) {
        fromsoft::Vec4 c = fromsoft::face_centre(t.mesh, f);
        NearestResult n = q.nearest_face({c.x, c.y, c.z});
        ASSERT_TRUE(n.found);
        centre[f] = n.point;
        face[f] = n.face;
        // The stored tree and a scan agree.
        NearestResult lin = q.nearest_face_linear({c.x, c.y, c.z});
        EXPECT_EQ(lin.face, n.face);
    }
    auto on_mesh = [&](const Vec3& p) { return q.nearest_face_linear(p, {1e-3, 1e-3, 1e-3}).distance < 1e-4; };
    std::size_t found = 0;
    for (std::size_t a = 0; a < F; ++a)
        for (std::size_t b = 0; b < F; ++b) {
            if (q.island_of(face[a]) != q.island_of(face[b])) continue;
            const Vec3 &s = centre[a], &e = centre[b];
            PathResult x = q.find_path(s, e, PathMode::Exact), c = q.find_path(s, e, PathMode::Corridor);
            ASSERT_EQ(x.status, PathStatus::Found) << a << " -> " << b;
            ASSERT_EQ(c.status, PathStatus::Found) << a << " -> " << b;
            double straight = std::sqrt((s.x - e.x) * (s.x - e.x) + (s.y - e.y) * (s.y - e.y) + (s.z - e.z) * (s.z - e.z));
            for (const PathResult* r : {&x, &c}) {
                EXPECT_GE(r->length, straight - 1e-9);
                EXPECT_GE(r->length, r->length_xz - 1e-9);
                for (const Vec3& p : r->points) EXPECT_TRUE(on_mesh(p)) << a << " -> " << b << " at " << p.x << "," << p.y << "," << p.z;
            }
            EXPECT_LE(x.length_xz, c.length_xz * (1 + 1e-9) + 1e-9) << a << " -> " << b;
            ++found;
        }
    EXPECT_GT(found, 2700u);
}

TEST(QuerySample, CommandsOnTheSample) {
    NAVLAB_REQUIRE_SAMPLE(path, kEr);
    auto dir = test::scratch_dir("query_cli");
    std::string out;
    std::string nav = test::navlab_binary();
    ASSERT_EQ(test::run_command(nav + " islands " + path.string() + " --json " + (dir / "i.json").string(), &out), 0) << out;
    auto islands = nlohmann::json::parse(std::ifstream(dir / "i.json"));
    EXPECT_EQ(islands[0]["faces"], 60);
    // Off the mesh: off_mesh with the distance.
    ASSERT_EQ(test::run_command(nav + " path " + path.string() + " --from -31,26,-137 --to -24,29,-112 --json " + (dir / "p.json").string(), &out), 0);
    auto p = nlohmann::json::parse(std::ifstream(dir / "p.json"));
    EXPECT_EQ(p["status"], "off_mesh");
    EXPECT_GT(p["distance"].get<double>(), 1);
    // A malformed PAIRS line names its line.
    std::ofstream(dir / "pairs.csv") << "sx,sy,sz,ex,ey,ez\n-27,25.3,-120,-27,25.3,-121\n1,2,oops,4,5,6\n";
    EXPECT_EQ(test::run_command(nav + " path " + path.string() + " --pairs " + (dir / "pairs.csv").string() + " --json " +
                                    (dir / "o.json").string(), &out), 1);
    EXPECT_NE(out.find("line 3"), std::string::npos) << out;
    std::ofstream(dir / "pairs.csv") << "-27,25.3,-120,-27,25.3,-125\n-27,25.3,-120,500,0,0\n";
    ASSERT_EQ(test::run_command(nav + " path " + path.string() + " --pairs " + (dir / "pairs.csv").string() + " --json " +
                                    (dir / "o.json").string() + " --mode corridor --threads 2", &out), 0) << out;
    auto o = nlohmann::json::parse(std::ifstream(dir / "o.json"));
    ASSERT_EQ(o.size(), 2u);
    EXPECT_EQ(o[0]["status"], "found");
    EXPECT_EQ(o[0]["mode"], "corridor");
    EXPECT_EQ(o[1]["status"], "off_mesh");
    EXPECT_EQ(test::run_command(nav + " path " + path.string() + " --from 1,2 --to 1,2,3", &out), 2);
}

// Query points must be finite and within ±1e7 m: a point at 1e39 read as a double but was
// "0.000 m from the mesh" in float arithmetic; NaN came through PAIRS.csv. Extents are
// half-sizes, so >= 0. Points are checked before the input is read: no sample needed.
TEST(QueryPoints, FiniteWithinTenThousandKilometres) {
    EXPECT_TRUE(parse_point("1e7,-1e7,0.5"));
    for (const char* bad : {"1e39,0,0", "0,-1.0000001e7,0", "nan,0,0", "0,inf,0", "1,2", "1,2,3,4", "1,2,x"})
        EXPECT_FALSE(parse_point(bad)) << bad;
    auto dir = test::scratch_dir("query_points");
    const std::string input = (dir / "mesh.hkx").string();
    write_file_atomic(input, std::string("not read"));
    const std::string nav = test::navlab_binary();
    std::string out;
    EXPECT_EQ(test::run_command(nav + " nearest " + input + " 1e39,0,0", &out), 2) << out;
    EXPECT_NE(out.find("three numbers within ±1e7 m"), std::string::npos) << out;
    EXPECT_EQ(test::run_command(nav + " nearest " + input + " 0,0,0 --extents -1,1,1", &out), 2) << out;
    EXPECT_NE(out.find("--extents are half-sizes of the search box"), std::string::npos) << out;
    write_file_atomic(dir / "pairs.csv", std::string("sx,sy,sz,ex,ey,ez\n0,0,0,1,1,1\n1,inf,0,1,1,1\n"));
    EXPECT_EQ(test::run_command(nav + " path " + input + " --pairs " + (dir / "pairs.csv").string() + " --json " +
                                    (dir / "o.json").string(),
                                &out),
              1)
        << out;
    EXPECT_NE(out.find("pairs.csv: pairs: line 3: expected sx,sy,sz,ex,ey,ez"), std::string::npos) << out;
}

// A face index means nothing without its mesh: on a binder of several navmeshes the text of
// nearest, raycast and path starts with the member the point fell in, as the JSON's "mesh" does.
TEST(QueryCli, TextNamesTheMeshOfAnInputWithSeveral) {
    auto dir = test::scratch_dir("query_named");
    const auto binder = dir / "two.nvmhktbnd";
    // (3.5, 0, 2.5) lies only on the second member, the 4 × 3 grid.
    write_file_atomic(binder, bnd4::write(bnd4::build_navmesh_binder(
                                  {{"N:\\small.hkx", 1, test::grid_navmesh(2, 2)}, {"N:\\large.hkx", 2, test::grid_navmesh(4, 3)}})));
    const std::string nav = test::navlab_binary(), in = binder.string();
    std::string out;
    ASSERT_EQ(test::run_command(nav + " nearest " + in + " 3.5,0.2,2.5", &out), 0) << out;
    EXPECT_EQ(out.rfind(in + " | large.hkx: face 11: ", 0), 0u) << out;  // the mesh as islands names it
    ASSERT_EQ(test::run_command(nav + " raycast " + in + " --from 3.5,0,2.5 --to 2.5,0,2.5", &out), 0) << out;
    EXPECT_EQ(out.rfind(in + " | large.hkx: clear", 0), 0u) << out;
    ASSERT_EQ(test::run_command(nav + " path " + in + " --from 3.5,0,2.5 --to 0.5,0,0.5", &out), 0) << out;
    EXPECT_EQ(out.rfind(in + " | large.hkx: found: ", 0), 0u) << out;
    // One mesh: no name, as before.
    ASSERT_EQ(test::run_command(nav + " nearest " + in + " 3.5,0.2,2.5 --entry 1", &out), 0) << out;
    EXPECT_EQ(out.rfind("face 11: ", 0), 0u) << out;
    // A PAIRS.csv with no pair is an error, not an empty answer written with exit 0.
    write_file_atomic(dir / "pairs.csv", std::string("sx,sy,sz,ex,ey,ez\n\n"));
    EXPECT_EQ(test::run_command(nav + " path " + in + " --pairs " + (dir / "pairs.csv").string() + " --json " +
                                    (dir / "o.json").string(), &out), 1) << out;
    EXPECT_NE(out.find("pairs.csv: pairs: no pairs: expected lines sx,sy,sz,ex,ey,ez"), std::string::npos) << out;
    EXPECT_FALSE(std::filesystem::exists(dir / "o.json"));
}

igi::Graph square_graph() {
    igi::Graph g;
    g.max_nodes = 8;
    for (int i = 0; i < 4; ++i) {
        igi::Node n;
        n.id = i;
        n.position = {static_cast<double>(i % 2) * 10, 0, static_cast<double>(i / 2) * 10};
        g.nodes.push_back(n);
    }
    g.links = {{0, 1, 1}, {1, 3, 1}, {0, 2, 1}, {2, 3, 1}, {0, 3, 1}};
    g.routes = igi::rebuild_routes(g, false).table;
    return g;
}

// A node without links: the table's "no route" at the start and Dijkstra's "not connected"
// agree (a match, exit 0). A table that starts a route toward it, or claims none to a
// connected node, disagrees with Dijkstra.
TEST(QueryIgi, UnreachableNodeAgreesWhenBothSayNoRoute) {
    igi::Graph g = square_graph();
    igi::Node lone;
    lone.id = 5;
    lone.position = {50, 0, 50};
    g.nodes.push_back(lone);
    g.routes = igi::rebuild_routes(g, false).table;
    IgiPathReport r = igi_path(g, 0, 5);
    EXPECT_FALSE(r.table.reached);
    EXPECT_TRUE(r.table.no_route && r.shortest.no_route);
    EXPECT_TRUE(r.match);
    auto dir = test::scratch_dir("query_igi_lone");
    write_file_atomic(dir / "graph1.dat", igi::write_graph(g));
    std::string out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " path " + (dir / "graph1.dat").string() + " --from-node 0 --to-node 5", &out), 0) << out;
    EXPECT_NE(out.find("; match"), std::string::npos) << out;
    igi::Graph stale = g;
    stale.routes[stale.route_index(0, 5)] = {1, 10.0f};  // a first step toward the lone node
    r = igi_path(stale, 0, 5);
    EXPECT_FALSE(r.table.no_route);
    EXPECT_FALSE(r.match);
    stale = g;
    stale.routes[stale.route_index(0, 3)] = {-1, -1.0f};  // "no route" to a connected node
    r = igi_path(stale, 0, 3);
    EXPECT_TRUE(r.table.no_route);
    EXPECT_FALSE(r.match);
}

TEST(QueryIgi, RouteTableAgainstDijkstra) {
    igi::Graph g = square_graph();
    IgiPathReport r = igi_path(g, 1, 2);
    EXPECT_TRUE(r.match);
    EXPECT_NEAR(r.shortest.length, 20, 1e-9);  // 1 -> 0 -> 2 or 1 -> 3 -> 2
    // A stale table: from 0 to 3 go round by 1 instead of the diagonal.
    g.routes[g.route_index(0, 3)] = {1, 20.0f};
    r = igi_path(g, 0, 3);
    EXPECT_FALSE(r.match);
    EXPECT_EQ(r.table.nodes, (std::vector<std::int32_t>{0, 1, 3}));
    EXPECT_NEAR(r.shortest.length, std::sqrt(200.0), 1e-9);
    auto dir = test::scratch_dir("query_igi");
    write_file_atomic(dir / "graph1.dat", igi::write_graph(g));
    std::string out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " path " + (dir / "graph1.dat").string() + " --from-node 0 --to-node 3", &out), 1);
    EXPECT_NE(out.find("MISMATCH"), std::string::npos) << out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " path " + (dir / "graph1.dat").string() + " --from-node 1 --to-node 2", &out), 0) << out;
    EXPECT_THROW(igi_path(g, 0, 7), Error);
    // A node the graph does not have: the command names the file.
    EXPECT_EQ(test::run_command(test::navlab_binary() + " path " + (dir / "graph1.dat").string() + " --from-node 0 --to-node 7", &out), 1);
    EXPECT_NE(out.find("graph1.dat: node: 7 is not a node of the graph"), std::string::npos) << out;
}

}  // namespace
}  // namespace navlab::query
