// bench_query: navlab path queries against Detour on the same Recast-built polygons.
//
// Recast builds a scene (support/recast_polygons.h: its welded detail triangles, quantised once
// onto Detour's grid, slivers and folds dropped, merged into convex polygons); the polygons go
// into Detour (dtCreateNavMeshData, one tile) and into navlab as an hkaiNavMesh (faces, edges
// with opposites) read through FromSoftView. Fixed random pairs of face centres in one island;
// one thread. Prints queries per second and ratios against Detour findPath+findStraightPath,
// path length ratios, exact vs the brute-force visibility graph of support/visibility_graph.h
// (single-level mesh), nearest-face speed (stored ER tree vs BVH vs scan) and memory per face.
//
// Usage: bench_query [--pairs N] [--large-pairs N] [--brute-pairs N] [--large-size METRES]
//                    [--large-only] [--small-only]
// (defaults: 10,000 pairs on the small mesh, all checked by the brute force; 1,000 on the
// large one, an 800 m scene whose buildings, bridges and rocks scale with --large-size).
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <queue>
#include <random>
#include <string>

#include "formats/fromsoft/aabb_tree6.h"
#include "formats/fromsoft/navmesh.h"
#include "query/navmesh_query.h"
#include "support/detour_mesh.h"
#include "support/recast_polygons.h"
#include "support/visibility_graph.h"

using namespace navlab;
using query::Vec3;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * (v.size() - 1) + 0.5))];
}

void run(const char* label, const synth::SceneParams& sp, std::uint64_t seed, int pair_count, bool brute, std::size_t brute_pairs) {
    auto t0 = Clock::now();
    testing::RecastPolygons rp = testing::make_recast_polygons(sp, seed);
    const auto& polys = rp.polys;
    std::printf("\n== %s: scene %.0f m, %zu convex polygons (merged from %zu triangles; %zu slivers and %zu folds dropped), "
                "%zu vertices (Recast %.1f s)\n",
                label, sp.size, polys.size(), rp.triangles, rp.slivers, rp.folds, rp.verts.size(), seconds_since(t0));
    if (!rp.one_tile) {
        std::printf("   too large for one Detour tile (16-bit vertex and neighbour indices): skipped\n");
        return;
    }
    auto dt = testing::make_detour_mesh(rp.verts, polys);
    // Detour wants its own winding; navlab reads the rings as Havok stores them (counter-clockwise).
    fromsoft::NavMesh mesh = testing::to_navmesh(dt->verts, polys);
    mesh.aabb = fromsoft::tree_domain_of(mesh);
    fromsoft::QueryMediator mediator = fromsoft::build_query_mediator(mesh);
    query::FromSoftView view(mesh, label);
    t0 = Clock::now();
    query::NavMeshQuery q(view);
    double build_bvh = seconds_since(t0);
    t0 = Clock::now();
    query::NavMeshQuery q_tree(view, &mediator);
    double build_tree = seconds_since(t0);
    std::printf("   build: %.1f ms (BVH), %.1f ms (stored tree); memory %.0f B/face (BVH), %.0f B/face (stored tree)\n",
                build_bvh * 1e3, build_tree * 1e3, double(q.memory_bytes()) / polys.size(), double(q_tree.memory_bytes()) / polys.size());

    std::vector<testing::CentrePair> pairs = testing::centre_pairs(*dt, q, static_cast<std::size_t>(pair_count));
    auto centre = [&](std::uint32_t p) { return testing::polygon_centre(*dt, p); };
    const Vec3 ext{0.05, 1.0, 0.05};
    std::vector<double> len_detour(pairs.size()), len_corridor(pairs.size()), len_exact(pairs.size());
    // Detour.
    t0 = Clock::now();
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        float s[3] = {float(pairs[i].s.x), float(pairs[i].s.y), float(pairs[i].s.z)};
        float e[3] = {float(pairs[i].e.x), float(pairs[i].e.y), float(pairs[i].e.z)};
        len_detour[i] = testing::detour_path_length(*dt, pairs[i].a, s, pairs[i].b, e);
    }
    double t_detour = seconds_since(t0);
    t0 = Clock::now();
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        auto r = q.find_path(pairs[i].s, pairs[i].e, query::PathMode::Corridor, {}, ext);
        len_corridor[i] = r.status == query::PathStatus::Found ? r.length_xz : -1;
    }
    double t_corridor = seconds_since(t0);
    t0 = Clock::now();
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        auto r = q.find_path(pairs[i].s, pairs[i].e, query::PathMode::Exact, {}, ext);
        len_exact[i] = r.status == query::PathStatus::Found ? r.length_xz : -1;
    }
    double t_exact = seconds_since(t0);
    double n = static_cast<double>(pairs.size());
    std::printf("   %zu pairs, one thread\n", pairs.size());
    std::printf("   Detour findPath+findStraightPath %9.0f q/s\n", n / t_detour);
    std::printf("   navlab corridor                  %9.0f q/s  ratio %.2fx Detour (goal >= 1.0)\n", n / t_corridor, t_detour / t_corridor);
    std::printf("   navlab exact                     %9.0f q/s  ratio %.2fx Detour (goal >= 0.5)\n", n / t_exact, t_detour / t_exact);
    std::vector<double> rc, rx;
    int failed = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (len_detour[i] <= 0 || len_corridor[i] < 0 || len_exact[i] < 0) {
            failed += len_detour[i] < 0 || len_corridor[i] < 0 || len_exact[i] < 0;
            continue;
        }
        rc.push_back(len_corridor[i] / len_detour[i]);
        rx.push_back(len_exact[i] / len_detour[i]);
    }
    std::printf("   path length / Detour (xz), p1 p50 p99 max: corridor %.4f %.4f %.4f %.4f; exact %.4f %.4f %.4f %.4f "
                "(%d pairs without a path in some library)\n",
                percentile(rc, 0.01), percentile(rc, 0.5), percentile(rc, 0.99), percentile(rc, 1), percentile(rx, 0.01),
                percentile(rx, 0.5), percentile(rx, 0.99), percentile(rx, 1), failed);
    int shorter = 0;
    for (double r : rx) shorter += r < 1 - 1e-9;
    std::printf("   exact is shorter than Detour on %d of %zu pairs (mean saving %.2f%%)\n", shorter, rx.size(),
                rx.empty() ? 0.0 : 100.0 * (1.0 - [&] { double s = 0; for (double r : rx) s += r; return s / rx.size(); }()));

    if (brute) {
        t0 = Clock::now();
        testing::VisibilityGraph vg(q, dt->verts, polys);
        std::size_t checked = 0, equal = 0, exact_longer = 0;
        double worst = 0;
        std::size_t limit = std::min<std::size_t>(pairs.size(), brute_pairs);
        for (std::size_t i = 0; i < limit; ++i) {
            // Only paths up to 0.1 % longer than exact's are searched: a shorter one (exact
            // wrong) or one within that margin is found; none means exact is too short.
            if (len_exact[i] < 0) continue;
            double b = vg.shortest(pairs[i].s, pairs[i].e, len_exact[i] * 1.001 + 1e-9);
            ++checked;
            double rel = std::fabs(len_exact[i] - b) / std::max(b, 1e-9);
            worst = std::max(worst, rel);
            equal += rel <= 1e-6;
            exact_longer += len_exact[i] > b * (1 + 1e-6);
            if (rel > 1e-6 && std::getenv("BENCH_DEBUG")) {
                auto r = q.find_path(pairs[i].s, pairs[i].e, query::PathMode::Exact, {}, ext);
                std::printf("     pair %zu: exact %.6f brute %.6f\n       brute:", i, len_exact[i], b);
                for (auto& p : vg.last_path()) std::printf(" %.3f,%.3f", p.x, p.z);
                std::printf("\n       exact:");
                for (auto& p : r.points) std::printf(" %.3f,%.3f", p.x, p.z);
                std::printf("\n");
            }
        }
        std::printf("   exact vs brute-force visibility graph (%zu nodes, %zu pinch vertices, %.1f s): %zu of %zu pairs within "
                    "1e-6 relative, worst %.2e, exact longer on %zu\n",
                    vg.nodes(), vg.pinches(), seconds_since(t0), equal, checked, worst, exact_longer);
    }

    // Nearest face: stored ER tree vs BVH vs scan, on points near the mesh.
    std::vector<Vec3> pts;
    std::mt19937_64 rng(4321);
    std::uniform_int_distribution<std::size_t> pick(0, polys.size() - 1);
    std::uniform_real_distribution<double> off(-0.5, 0.5);
    for (int i = 0; i < 20000; ++i) {
        Vec3 c = centre(static_cast<std::uint32_t>(pick(rng)));
        pts.push_back({c.x + off(rng), c.y + off(rng), c.z + off(rng)});
    }
    auto time_nearest = [&](auto&& fn, std::size_t count) {
        auto t = Clock::now();
        std::size_t found = 0;
        for (std::size_t i = 0; i < count; ++i) found += fn(pts[i]).found;
        return std::pair{count / seconds_since(t), found};
    };
    auto [qps_tree, f1] = time_nearest([&](const Vec3& p) { return q_tree.nearest_face(p); }, pts.size());
    auto [qps_bvh, f2] = time_nearest([&](const Vec3& p) { return q.nearest_face(p); }, pts.size());
    auto [qps_scan, f3] = time_nearest([&](const Vec3& p) { return q.nearest_face_linear(p); }, 500);
    dtQueryFilter filter;
    auto t_dt = Clock::now();
    std::size_t f4 = 0;
    for (const Vec3& p : pts) {
        float c[3] = {float(p.x), float(p.y), float(p.z)}, he[3] = {1, 2, 1}, nearest[3];
        dtPolyRef ref = 0;
        dt->query->findNearestPoly(c, he, &filter, &ref, nearest);
        f4 += ref != 0;
    }
    double qps_dt = pts.size() / seconds_since(t_dt);
    std::printf("   nearest face (extents 1,2,1): stored ER tree %.0f q/s, BVH %.0f q/s, scan %.0f q/s, Detour %.0f q/s "
                "(tree/BVH %.2fx, BVH/scan %.0fx, BVH/Detour %.2fx; found %zu/%zu/%zu-of-500/%zu)\n",
                qps_tree, qps_bvh, qps_scan, qps_dt, qps_tree / qps_bvh, qps_bvh / qps_scan, qps_bvh / qps_dt, f1, f2, f3, f4);
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress shows when piped to a file
    int pairs = 10000, large_pairs = 1000, brute_pairs = 10000;
    double large_size = 800;
    bool small = true, large = true;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--pairs") && i + 1 < argc) pairs = std::atoi(argv[++i]);
        if (!std::strcmp(argv[i], "--large-pairs") && i + 1 < argc) large_pairs = std::atoi(argv[++i]);
        if (!std::strcmp(argv[i], "--brute-pairs") && i + 1 < argc) brute_pairs = std::atoi(argv[++i]);
        if (!std::strcmp(argv[i], "--large-size") && i + 1 < argc) large_size = std::atof(argv[++i]);
        if (!std::strcmp(argv[i], "--small-only")) large = false;
        if (!std::strcmp(argv[i], "--large-only")) small = false;
    }
    if (small) {
        // Single level (no buildings or bridges) so the brute force may work in xz.
        synth::SceneParams p;
        p.size = 230, p.buildings = 0, p.bridges = 0, p.rocks = 150;
        run("small (single level)", p, 7, pairs, true, static_cast<std::size_t>(brute_pairs));
    }
    if (large) {
        synth::SceneParams p;
        // The largest scene whose polygons fit one Detour tile (16-bit vertex indices).
        // Buildings, bridges and rocks scale with the area (800 m: 200, 40, 1000).
        double a = large_size * large_size / (800.0 * 800.0);
        p.size = large_size, p.buildings = int(200 * a), p.bridges = int(40 * a), p.rocks = int(1000 * a);
        run("large (multi level)", p, 7, large_pairs, false, 0);
    }
    return 0;
}
