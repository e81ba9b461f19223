// `exact` against the brute-force visibility graph on bench_query's small Recast mesh (the same
// scene, seed, polygons and pairs): Recast's grid puts many vertices exactly on one line, the
// mesh has pinch vertices (two fans touching at a corner, no portal) and, before the folds were
// dropped, overlapping triangles — the cases where the two disagreed.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "query/nav_view.h"
#include "query/navmesh_query.h"
#include "support/recast_polygons.h"
#include "support/visibility_graph.h"

namespace navlab::query {
namespace {

TEST(QueryExactRecast, MatchesBruteForceOnTheBenchMesh) {
    synth::SceneParams params;
    params.size = 230, params.buildings = 0, params.bridges = 0, params.rocks = 150;  // bench_query's small mesh
    testing::RecastPolygons rp = testing::make_recast_polygons(params, 7);
    ASSERT_TRUE(rp.one_tile);
    auto dt = testing::make_detour_mesh(rp.verts, rp.polys, rp.cell);
    fromsoft::NavMesh mesh = testing::to_navmesh(dt->verts, rp.polys);
    FromSoftView view(mesh, "bench-small");
    NavMeshQuery q(view);
    testing::VisibilityGraph brute(q, dt->verts, rp.polys);
    EXPECT_GE(brute.pinches(), 1u);  // the mesh does hold the hard case
    EXPECT_GE(rp.folds, 1u);

    // The first 2,000 bench pairs, and every pair that once disagreed among the 10,000.
    const std::set<std::size_t> once_wrong = {24,  190, 242, 317, 499, 590,  650,  701,  725,  803,
                                              847, 878, 881, 940, 973, 1537, 5043, 6166, 7566, 8672};
    std::vector<testing::CentrePair> pairs = testing::centre_pairs(*dt, q, 8673);
    ASSERT_EQ(pairs.size(), 8673u);
    int checked = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (i >= 2000 && !once_wrong.count(i)) continue;
        PathResult r = q.find_path(pairs[i].s, pairs[i].e, PathMode::Exact, {}, {0.05, 1.0, 0.05});
        ASSERT_EQ(r.status, PathStatus::Found) << "pair " << i;
        // Paths up to 0.1 % longer than exact's are searched: exact too long or too short shows.
        double expected = brute.shortest(pairs[i].s, pairs[i].e, r.length_xz * 1.001 + 1e-9);
        EXPECT_NEAR(r.length_xz, expected, 1e-6 * r.length_xz) << "pair " << i;
        ++checked;
    }
    EXPECT_EQ(checked, 2000 + 4);

    // The corner graph (exact's search on large meshes) gives the same lengths on every pair,
    // its paths on the mesh and never shorter than the straight line; no pair falls back.
    q.set_exact_search(ExactSearch::CornerGraph);
    NavMeshQuery by_intervals(view);
    by_intervals.set_exact_search(ExactSearch::Intervals);
    for (std::size_t i = 0; i < pairs.size(); i += 2) {
        PathResult g = q.find_path(pairs[i].s, pairs[i].e, PathMode::Exact, {}, {0.05, 1.0, 0.05});
        PathResult r = by_intervals.find_path(pairs[i].s, pairs[i].e, PathMode::Exact, {}, {0.05, 1.0, 0.05});
        ASSERT_EQ(g.status, PathStatus::Found) << "pair " << i;
        EXPECT_NEAR(g.length_xz, r.length_xz, 1e-9 * r.length_xz) << "pair " << i;
        EXPECT_GE(g.length, g.length_xz * (1 - 1e-12)) << "pair " << i;
        EXPECT_GE(g.length_xz, std::hypot(pairs[i].e.x - pairs[i].s.x, pairs[i].e.z - pairs[i].s.z) * (1 - 1e-12));
        for (const Vec3& p : {g.points.front(), g.points[g.points.size() / 2], g.points.back()})
            EXPECT_LT(q.nearest_face(p, {0.01, 0.5, 0.01}).distance, 1e-3) << "pair " << i;
        EXPECT_EQ(g.start_face, r.start_face);
        EXPECT_EQ(g.end_face, r.end_face);
    }
    CornerGraphStats st = q.corner_graph_stats();
    EXPECT_GT(st.nodes, 100u);
    EXPECT_EQ(st.queries, (pairs.size() + 1) / 2);
    EXPECT_EQ(st.fallbacks, 0u);
}

}  // namespace
}  // namespace navlab::query
