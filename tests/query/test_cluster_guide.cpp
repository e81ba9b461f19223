// The cluster guide (corridor mode guided by Sekiro's hkaiDirectedGraphExplicitCost). No real
// Sekiro navmesh is among the samples (../shared/samples/havok/README.md: none was found in
// any public repository), so the mesh is bench_query's small Recast mesh with Sekiro-sized
// clusters and the graph the seed page defines (fromsoft::make_directed_graph). Checked: the
// guide never loses a path, `exact` ignores it (same answer bit for bit), a guided corridor
// never enters a cluster outside the cluster corridor, and a graph that does not fit the mesh
// gives no guide. Last, the command on a synthetic Sekiro binder.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "build/clusters.h"
#include "formats/fromsoft/cluster_graph.h"
#include "query/cluster_guide.h"
#include "io/file.h"
#include "query/nav_view.h"
#include "query/navmesh_query.h"
#include "query/query_input.h"
#include "support/recast_polygons.h"
#include "support/samples.h"
#include "synth/style.h"

namespace navlab::query {
namespace {

struct Clustered {
    testing::RecastPolygons rp;
    std::unique_ptr<testing::DetourMesh> dt;
    fromsoft::NavMesh mesh;
    fromsoft::DirectedGraph graph;
};

Clustered clustered_mesh() {
    synth::SceneParams params;
    params.size = 230, params.buildings = 0, params.bridges = 0, params.rocks = 150;  // bench_query's small mesh
    Clustered c;
    c.rp = testing::make_recast_polygons(params, 7);
    c.dt = testing::make_detour_mesh(c.rp.verts, c.rp.polys, c.rp.cell);
    c.mesh = testing::to_navmesh(c.dt->verts, c.rp.polys);
    const int size = static_cast<int>(synth::kSekiroStyle.faces_per_cluster + 0.5);  // Sekiro's mean, 13 faces
    build::grow_clusters(c.mesh, [&] { return size; });
    c.graph = fromsoft::make_directed_graph(c.mesh, fromsoft::build_cluster_graph(c.mesh));
    return c;
}

TEST(QueryClusterGuide, KeepsEveryPathAndNeverChangesExact) {
    Clustered c = clustered_mesh();
    FromSoftView view(c.mesh, "clustered");
    NavMeshQuery q(view);
    std::optional<ClusterGuide> guide = ClusterGuide::from_mesh(c.mesh, c.graph);
    ASSERT_TRUE(guide);
    ASSERT_GT(guide->cluster_count(), 50u);
    QueryFilter guided;
    guided.cluster_guide = &*guide;
    const Vec3 ext{0.05, 1.0, 0.05};
    std::vector<testing::CentrePair> pairs = testing::centre_pairs(*c.dt, q, 300);
    ASSERT_EQ(pairs.size(), 300u);
    int changed = 0, found = 0;
    double worst = 1, sum = 0;
    std::vector<std::uint8_t> allowed;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        PathResult u = q.find_path(pairs[i].s, pairs[i].e, PathMode::Corridor, {}, ext);
        PathResult g = q.find_path(pairs[i].s, pairs[i].e, PathMode::Corridor, guided, ext);
        ASSERT_EQ(u.status, PathStatus::Found) << "pair " << i;  // one island: every pair joins
        ASSERT_EQ(g.status, PathStatus::Found) << "pair " << i;
        ++found;
        double ratio = g.length_xz / u.length_xz;
        sum += ratio, worst = std::max(worst, ratio);
        changed += g.faces != u.faces;
        // The guided corridor stays in the cluster corridor (no fallback on this mesh).
        ASSERT_TRUE(guide->corridor(g.start_face, g.end_face, allowed));
        for (std::uint32_t f : g.faces) EXPECT_TRUE(allowed[guide->cluster_of(f)]) << "pair " << i << " face " << f;
        if (i < 40) {  // exact is slow-ish: a sample of pairs
            PathResult xu = q.find_path(pairs[i].s, pairs[i].e, PathMode::Exact, {}, ext);
            PathResult xg = q.find_path(pairs[i].s, pairs[i].e, PathMode::Exact, guided, ext);
            EXPECT_EQ(xu.length, xg.length) << "pair " << i;
            EXPECT_EQ(xu.points, xg.points) << "pair " << i;
            EXPECT_EQ(xu.faces, xg.faces) << "pair " << i;
        }
    }
    std::printf("cluster guide: %d pairs, %zu clusters; guided/unguided xz length mean %.4f, max %.4f; corridor changed on %d\n",
                found, guide->cluster_count(), sum / found, worst, changed);
    EXPECT_LT(worst, 1.5);  // a guide corridor holds the unguided path's neighbourhood: no wild detours
}

TEST(QueryClusterGuide, FallsBackWhenTheClusterCorridorIsBlocked) {
    Clustered c = clustered_mesh();
    FromSoftView view(c.mesh, "clustered");
    NavMeshQuery q(view);
    // A graph without edges: every cluster path between different clusters is missing, so
    // the guided search must fall back to the unguided one (same answer).
    fromsoft::DirectedGraph cut = c.graph;
    for (auto& n : cut.nodes) n.numEdges = 0;
    std::optional<ClusterGuide> guide = ClusterGuide::from_mesh(c.mesh, cut);
    ASSERT_TRUE(guide);
    QueryFilter guided;
    guided.cluster_guide = &*guide;
    const Vec3 ext{0.05, 1.0, 0.05};
    for (const auto& p : testing::centre_pairs(*c.dt, q, 30)) {
        PathResult u = q.find_path(p.s, p.e, PathMode::Corridor, {}, ext);
        PathResult g = q.find_path(p.s, p.e, PathMode::Corridor, guided, ext);
        EXPECT_EQ(g.status, u.status);
        EXPECT_EQ(g.faces, u.faces);
        EXPECT_EQ(g.length, u.length);
    }
}

TEST(QueryClusterGuide, RejectsAGraphThatDoesNotFitTheMesh) {
    Clustered c = clustered_mesh();
    fromsoft::DirectedGraph g = c.graph;
    g.edges[0].target = static_cast<std::uint32_t>(g.nodes.size());  // target out of range
    EXPECT_FALSE(ClusterGuide::from_mesh(c.mesh, g));
    g = c.graph;
    g.nodes.back().numEdges = static_cast<std::int32_t>(g.edges.size()) + 1;  // edge range outside
    EXPECT_FALSE(ClusterGuide::from_mesh(c.mesh, g));
    g = c.graph;
    g.edges[0].cost = 0xFFC0;  // NaN
    EXPECT_FALSE(ClusterGuide::from_mesh(c.mesh, g));
    fromsoft::NavMesh m = c.mesh;
    m.faces[0].clusterIndex = static_cast<std::int16_t>(c.graph.nodes.size());  // no such node
    EXPECT_FALSE(ClusterGuide::from_mesh(m, c.graph));
}

}  // namespace
}  // namespace navlab::query

namespace navlab::query {
namespace {

// The whole chain on a synthetic Sekiro binder (`navlab synth --preset small`): the stored
// graph is read back, the guide built from it, and `navlab path --guide clusters` answers as
// the library does.
TEST(QueryClusterGuide, CommandOnASyntheticSekiroBinder) {
    auto dir = test::scratch_dir("query_guide");
    const std::string nav = test::navlab_binary();
    std::string out;
    ASSERT_EQ(test::run_command(nav + " synth --preset small --threads 1 --out " + (dir / "corpus").string(), &out), 0) << out;
    const std::string binder = (dir / "corpus/map/m10_00_00_00/m10_00_00_00.nvmhktbnd.dcx").string();
    QueryInput in = load_query_input(binder, "");
    const QueryMesh* best = nullptr;
    for (const QueryMesh& m : in.meshes)
        if (m.guide && (!best || m.view->face_count() > best->view->face_count())) best = &m;
    ASSERT_NE(best, nullptr) << "no Sekiro mesh with a cluster graph in " << binder;
    ASSERT_GT(best->guide->cluster_count(), 5u);
    const std::string entry = best->name.substr(best->name.find(" | ") + 3);
    // Face centres (snapped onto their faces) of pairs in one island.
    std::vector<std::pair<Vec3, Vec3>> pairs;
    const std::size_t F = best->view->face_count();
    for (std::size_t a = 0; a < F && pairs.size() < 40; a += 7) {
        std::size_t b = (a * 131 + 17) % F;
        if (!best->query->reachable(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b))) continue;
        auto centre = [&](std::size_t f) {
            Vec3 c{};
            const std::size_t n = best->view->corner_count(f);
            for (std::size_t k = 0; k < n; ++k) {
                Vec3 v = best->view->vertex(best->view->corner(f, k));
                c.x += v.x / n, c.y += v.y / n, c.z += v.z / n;
            }
            return c;
        };
        pairs.push_back({centre(a), centre(b)});
    }
    ASSERT_GE(pairs.size(), 10u);
    {
        std::ofstream csv(dir / "pairs.csv");
        csv.precision(17);
        for (const auto& [s, e] : pairs) csv << s.x << ',' << s.y << ',' << s.z << ',' << e.x << ',' << e.y << ',' << e.z << '\n';
    }
    const std::string cmd = nav + " path " + binder + " --entry " + entry + " --pairs " + (dir / "pairs.csv").string() +
                            " --mode corridor --guide clusters --json " + (dir / "g.json").string();
    ASSERT_EQ(test::run_command(cmd, &out), 0) << out;
    nlohmann::json j = nlohmann::json::parse(read_file((dir / "g.json").string()));
    ASSERT_EQ(j.size(), pairs.size());
    QueryFilter guided;
    guided.cluster_guide = &*best->guide;
    int found = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        PathResult r = best->query->find_path(pairs[i].first, pairs[i].second, PathMode::Corridor, guided);
        PathResult u = best->query->find_path(pairs[i].first, pairs[i].second, PathMode::Corridor);
        EXPECT_EQ(r.status, u.status) << "pair " << i;  // the guide never loses a path
        ASSERT_EQ(j[i]["status"], std::string(status_name(r.status))) << "pair " << i;
        found += r.status == PathStatus::Found;
        if (r.status == PathStatus::Found) {
            EXPECT_NEAR(j[i]["length"].get<double>(), r.length, 1e-6 * (1 + r.length)) << "pair " << i;
        }
    }
    EXPECT_GE(found, 10);
    EXPECT_EQ(test::run_command(nav + " path " + binder + " --from 1,2,3 --to 1,2,3 --guide roads", &out), 2) << out;
}

}  // namespace
}  // namespace navlab::query
