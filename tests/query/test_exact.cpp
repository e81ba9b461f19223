// `exact` against a brute-force visibility-graph shortest path on small generated meshes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <queue>
#include <random>

#include "meshes.h"
#include "query/navmesh_query.h"
#include "support/visibility_graph.h"

namespace navlab::query {
namespace {

/// Grid cells with random rectangular obstacles, rejected when two free cells touch only at a
/// corner (the mesh has no portal there but the plane does).
std::vector<std::vector<bool>> random_free(int w, int d, std::mt19937& rng) {
    for (;;) {
        std::vector<std::vector<bool>> free(w, std::vector<bool>(d, true));
        int blocks = 2 + static_cast<int>(rng() % 4);
        for (int b = 0; b < blocks; ++b) {
            int x = rng() % w, z = rng() % d, bw = 1 + rng() % 3, bd = 1 + rng() % 3;
            for (int i = x; i < std::min(w, x + bw); ++i)
                for (int j = z; j < std::min(d, z + bd); ++j) free[i][j] = false;
        }
        bool pinched = false;
        for (int i = 0; i + 1 < w; ++i)
            for (int j = 0; j + 1 < d; ++j) {
                bool a = free[i][j], b = free[i + 1][j], c = free[i][j + 1], e = free[i + 1][j + 1];
                if ((a && e && !b && !c) || (b && c && !a && !e)) pinched = true;
            }
        if (!pinched) return free;
    }
}

/// Brute force: Dijkstra over start, goal and every vertex of the polygons, joining two points
/// when the segment between them stays inside the union of the polygons (every piece between
/// successive crossings of polygon edges has its midpoint inside a polygon).
struct BruteForce {
    const PolygonView& view;
    bool inside(double x, double z) const {
        for (std::size_t f = 0; f < view.face_count(); ++f) {
            bool in = true;
            std::size_t n = view.corner_count(f);
            for (std::size_t k = 0; k < n && in; ++k) {
                Vec3 a = view.vertex(view.corner(f, k)), b = view.vertex(view.corner(f, (k + 1) % n));
                in = (b.x - a.x) * (z - a.z) - (b.z - a.z) * (x - a.x) >= -1e-12;
            }
            if (in) return true;
        }
        return false;
    }
    bool visible(const Vec3& p, const Vec3& q) const {
        std::vector<double> ts{0, 1};
        for (std::size_t f = 0; f < view.face_count(); ++f) {
            std::size_t n = view.corner_count(f);
            for (std::size_t k = 0; k < n; ++k) {
                Vec3 a = view.vertex(view.corner(f, k)), b = view.vertex(view.corner(f, (k + 1) % n));
                double dx = q.x - p.x, dz = q.z - p.z, ex = b.x - a.x, ez = b.z - a.z;
                double den = dx * ez - dz * ex;
                if (den == 0) continue;
                double t = ((a.x - p.x) * ez - (a.z - p.z) * ex) / den;
                double u = ((a.x - p.x) * dz - (a.z - p.z) * dx) / den;
                if (t > 0 && t < 1 && u >= 0 && u <= 1) ts.push_back(t);
            }
        }
        std::sort(ts.begin(), ts.end());
        for (std::size_t i = 1; i < ts.size(); ++i) {
            double m = (ts[i - 1] + ts[i]) / 2;
            if (!inside(p.x + (q.x - p.x) * m, p.z + (q.z - p.z) * m)) return false;
        }
        return true;
    }
    double shortest(const Vec3& s, const Vec3& t) const {
        std::vector<Vec3> pts{s, t};
        for (std::size_t v = 0; v < view.vertex_count(); ++v) pts.push_back(view.vertex(v));
        std::vector<double> dist(pts.size(), std::numeric_limits<double>::infinity());
        std::vector<bool> done(pts.size());
        dist[0] = 0;
        for (;;) {
            std::size_t u = pts.size();
            for (std::size_t i = 0; i < pts.size(); ++i)
                if (!done[i] && dist[i] < std::numeric_limits<double>::infinity() && (u == pts.size() || dist[i] < dist[u])) u = i;
            if (u == pts.size() || u == 1) break;
            done[u] = true;
            for (std::size_t i = 0; i < pts.size(); ++i) {
                if (done[i]) continue;
                double d = dist[u] + std::hypot(pts[i].x - pts[u].x, pts[i].z - pts[u].z);
                if (d < dist[i] && visible(pts[u], pts[i])) dist[i] = d;
            }
        }
        return dist[1];
    }
};

/// Checks exact's s -> t against a brute-force length (infinity: no path); the path when both
/// found one.
std::optional<PathResult> check_exact(const NavMeshQuery& q, const Vec3& s, const Vec3& t, double expected, int mesh, int pair) {
    PathResult r = q.find_path(s, t, PathMode::Exact, {}, {0.01, 1, 0.01});
    if (!std::isfinite(expected)) {
        EXPECT_EQ(r.status, PathStatus::NoPath) << mesh << "/" << pair;
        return std::nullopt;
    }
    EXPECT_EQ(r.status, PathStatus::Found) << mesh << "/" << pair;
    if (r.status != PathStatus::Found) return std::nullopt;
    EXPECT_NEAR(r.length_xz, expected, 1e-6 * expected + 1e-9) << mesh << "/" << pair;
    return r;
}

// Both searches of exact mode (the interval search, and the corner graph re-traced through the
// mesh) must give the brute force's lengths.
class QueryExactBoth : public ::testing::TestWithParam<ExactSearch> {};

TEST_P(QueryExactBoth, MatchesBruteForceVisibilityGraph) {
    std::mt19937 rng(42);
    int compared = 0;
    for (int mesh = 0; mesh < 12; ++mesh) {
        int w = 6 + rng() % 4, d = 6 + rng() % 4;
        auto free = random_free(w, d, rng);
        PolygonView view = testing::grid_mesh(w, d, [&](int i, int j) { return free[i][j]; });
        NavMeshQuery q(view);
        q.set_exact_search(GetParam());
        BruteForce brute{view};
        std::uniform_real_distribution<double> ux(0, w), uz(0, d);
        for (int pair = 0; pair < 15; ++pair) {
            Vec3 s{ux(rng), 0, uz(rng)}, t{ux(rng), 0, uz(rng)};
            if (!brute.inside(s.x, s.z) || !brute.inside(t.x, t.z)) continue;
            std::optional<PathResult> found = check_exact(q, s, t, brute.shortest(s, t), mesh, pair);
            if (!found) continue;
            const PathResult& r = *found;
            // Every point of the path lies on the mesh.
            for (const Vec3& p : r.points) EXPECT_TRUE(brute.inside(p.x, p.z));
            for (std::size_t i = 1; i < r.points.size(); ++i) EXPECT_TRUE(brute.visible(r.points[i - 1], r.points[i]));
            ++compared;
        }
    }
    EXPECT_GT(compared, 100);
}

// Grids whose free cells may touch only at a corner (pinch vertices): the mesh has no portal
// there, so exact must go around; the reference is the visibility graph that follows the
// mesh's fans (one node per fan at a pinch). A plane-only visibility graph (the one above) gives
// a shorter answer on 17 of these pairs: it squeezes through the pinches.
TEST_P(QueryExactBoth, MatchesTheFanAwareBruteForceOnPinchedGrids) {
    std::mt19937 rng(7);
    int compared = 0, pinches = 0;
    for (int mesh = 0; mesh < 10; ++mesh) {
        const int w = 7, d = 7;
        std::vector<std::vector<bool>> free(w, std::vector<bool>(d, true));
        for (int i = 0; i < w; ++i)
            for (int j = 0; j < d; ++j) free[i][j] = rng() % 10 >= 3;
        std::vector<Vec3> verts;
        for (int j = 0; j <= d; ++j)
            for (int i = 0; i <= w; ++i) verts.push_back({double(i), 0, double(j)});
        auto id = [&](int i, int j) { return static_cast<std::uint32_t>(j * (w + 1) + i); };
        std::vector<std::vector<std::uint32_t>> polys;
        for (int j = 0; j < d; ++j)
            for (int i = 0; i < w; ++i)
                if (free[i][j]) polys.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
        PolygonView view(verts, polys);
        NavMeshQuery q(view);
        q.set_exact_search(GetParam());
        testing::VisibilityGraph brute(q, verts, polys);
        pinches += static_cast<int>(brute.pinches());
        std::uniform_int_distribution<std::size_t> cell(0, polys.size() - 1);
        std::uniform_real_distribution<double> in(0.1, 0.9);
        for (int pair = 0; pair < 20; ++pair) {
            const Vec3 &a = verts[polys[cell(rng)][0]], &b = verts[polys[cell(rng)][0]];
            Vec3 s{a.x + in(rng), 0, a.z + in(rng)}, t{b.x + in(rng), 0, b.z + in(rng)};
            compared += check_exact(q, s, t, brute.shortest(s, t), mesh, pair).has_value();
        }
    }
    EXPECT_GT(pinches, 5);  // the grids do pinch
    EXPECT_GT(compared, 100);
}

INSTANTIATE_TEST_SUITE_P(Searches, QueryExactBoth, ::testing::Values(ExactSearch::Intervals, ExactSearch::CornerGraph),
                         [](const auto& info) { return info.param == ExactSearch::Intervals ? "Intervals" : "CornerGraph"; });

}  // namespace
}  // namespace navlab::query
