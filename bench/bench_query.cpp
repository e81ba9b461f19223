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
// The huge mesh (~150k faces, beyond one Detour tile) is built per 64 m tile by navlab build's
// pipeline and given to Detour as a tiled navmesh (see make_tiled_mesh).
//
// exact is timed as Auto (the corner graph, built before the timing and reported apart), then
// again with the corner graph forced on every pair and with the interval search alone on the
// first --intervals-pairs / --large-intervals / --huge-intervals pairs; their lengths are
// compared.
//
// Usage: bench_query [--pairs N] [--brute-pairs N] [--large-pairs N] [--large-size METRES]
//                    [--huge-pairs N] [--huge-exact-pairs N] [--huge-size METRES]
//                    [--intervals-pairs N] [--large-intervals N] [--huge-intervals N]
//                    [--small-only | --large-only | --huge-only | --no-huge]
// (defaults: 10,000 pairs on the small mesh, all checked by the brute force and by the
// interval search; 1,000 on the large one, an 800 m scene whose buildings, bridges and rocks
// scale with --large-size, the interval search on its first 20; 1,000 on the huge 1400 m one,
// all exact, the interval search on its first 5).
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <random>
#include <string>

#include "bench_options.h"
#include "build/pipeline.h"
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

/// exact's two searches on the same pairs: the corner graph (forced) on all of them, the
/// interval search alone on the first `k`; their lengths must agree (the graph is exact too).
/// Prints q/s with ratios against Detour's time per query, and the graph's build figures.
void compare_exact_searches(query::NavMeshQuery& q, const std::vector<std::pair<Vec3, Vec3>>& pairs, std::size_t k,
                            double detour_seconds_per_query, std::size_t faces) {
    const Vec3 ext{0.05, 1.0, 0.05};
    query::CornerGraphStats st = q.corner_graph_stats();
    std::printf("   corner graph: %zu corners, %zu edges (%.1f per corner), built in %.2f s, %.0f B/face\n", st.nodes, st.edges,
                st.nodes ? double(st.edges) / st.nodes : 0.0, st.build_seconds, double(st.bytes) / faces);
    auto run_mode = [&](query::ExactSearch how, std::size_t count, std::vector<double>& len) {
        q.set_exact_search(how);
        len.assign(count, -1);
        auto t = Clock::now();
        for (std::size_t i = 0; i < count; ++i) {
            auto r = q.find_path(pairs[i].first, pairs[i].second, query::PathMode::Exact, {}, ext);
            len[i] = r.status == query::PathStatus::Found ? r.length_xz : -1;
        }
        return seconds_since(t);
    };
    std::vector<double> lg, li;
    std::uint64_t fb0 = q.corner_graph_stats().fallbacks;
    double tg = run_mode(query::ExactSearch::CornerGraph, pairs.size(), lg);
    std::uint64_t fallbacks = q.corner_graph_stats().fallbacks - fb0;
    k = std::min(k, pairs.size());
    double ti = run_mode(query::ExactSearch::Intervals, k, li);
    q.set_exact_search(query::ExactSearch::Auto);
    std::size_t differ = 0, missing = 0;
    double worst = 0;
    for (std::size_t i = 0; i < k; ++i) {
        if ((lg[i] < 0) != (li[i] < 0) && ++missing <= 3)
            std::printf("   pair %zu found only by %s (%.6f m)\n", i, lg[i] < 0 ? "intervals" : "the corner graph", std::max(lg[i], li[i]));
        if (lg[i] < 0 || li[i] < 0) continue;
        double rel = std::fabs(lg[i] - li[i]) / std::max(li[i], 1e-9);
        worst = std::max(worst, rel);
        differ += rel > 1e-9;
    }
    double n = double(pairs.size());
    std::printf("   exact by corner graph  %9.1f q/s  ratio %.3fx Detour (%zu pairs; %llu answered by the interval search "
                "after a failed re-trace)\n",
                n / tg, detour_seconds_per_query * n / tg, pairs.size(), static_cast<unsigned long long>(fallbacks));
    std::printf("   exact by intervals     %9.1f q/s  ratio %.3fx Detour (first %zu pairs)\n", k / ti,
                detour_seconds_per_query * k / ti, k);
    std::printf("   graph vs intervals on %zu pairs: %zu differ by > 1e-9 relative (worst %.2e), %zu found by one only\n", k,
                differ, worst, missing);
}

void run(const char* label, const synth::SceneParams& sp, std::uint64_t seed, int pair_count, bool brute, std::size_t brute_pairs,
         std::size_t intervals_pairs) {
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
    auto dt = testing::make_detour_mesh(rp.verts, polys, rp.cell);
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
    q.corner_graph_stats();  // Auto uses the graph on large meshes: build it before the timing
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
    {
        std::vector<std::pair<Vec3, Vec3>> se;
        for (const auto& pr : pairs) se.push_back({pr.s, pr.e});
        compare_exact_searches(q, se, intervals_pairs, t_detour / n, polys.size());
    }
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


/// Detour's tiled navmesh of stitched Recast tiles (one dtCreateNavMeshData per tile, joined by
/// Detour's own external links on the tile borders), and the same faces welded into one navlab
/// mesh. Detour gets each face without the corners stitching inserted on tile lines (it joins
/// tiles by overlapping border edges itself, and takes at most 6 corners); navlab gets the
/// stitched rings, so both see the same polygons seen from above. Vertices are quantised once
/// onto a 1 cm grid aligned with the tiles.
struct TiledMesh {
    dtNavMesh* mesh = nullptr;
    dtNavMeshQuery* query = nullptr;
    std::vector<Vec3> verts;                         ///< navlab: welded, quantised
    std::vector<std::vector<std::uint32_t>> polys;   ///< navlab faces
    std::vector<std::vector<std::uint32_t>> corners; ///< per face: Detour's corners (indices into verts)
    std::vector<dtPolyRef> refs;                     ///< per face
    TiledMesh() = default;
    TiledMesh(const TiledMesh&) = delete;
    ~TiledMesh() {
        dtFreeNavMeshQuery(query);
        dtFreeNavMesh(mesh);
    }
};

std::unique_ptr<TiledMesh> make_tiled_mesh(const build::TiledFaces& tf) {
    auto out = std::make_unique<TiledMesh>();
    const double cs = 0.01;
    const build::TileGrid& g = tf.grid;
    float ymin = INFINITY, ymax = -INFINITY;
    for (const auto& t : tf.tiles)
        for (const auto& v : t.verts) ymin = std::min(ymin, v[1]), ymax = std::max(ymax, v[1]);
    ymin = std::floor(ymin) - 1, ymax = std::ceil(ymax) + 1;
    // One 1 cm grid from the scene's origin: tile lines are multiples of it.
    using Key = std::array<std::int64_t, 3>;
    std::map<Key, std::uint32_t> weld;
    auto key_of = [&](const std::array<float, 3>& v) {
        return Key{std::llround((v[0] - g.origin_x) / cs), std::llround((v[1] - ymin) / cs), std::llround((v[2] - g.origin_z) / cs)};
    };
    auto vertex = [&](const Key& k) {
        auto [it, added] = weld.try_emplace(k, static_cast<std::uint32_t>(out->verts.size()));
        if (added) out->verts.push_back({g.origin_x + k[0] * cs, ymin + k[1] * cs, g.origin_z + k[2] * cs});
        return it->second;
    };
    dtNavMeshParams np{};
    np.orig[0] = float(g.origin_x), np.orig[1] = ymin, np.orig[2] = float(g.origin_z);
    np.tileWidth = np.tileHeight = float(g.tile_size);
    int most = 1;
    for (const auto& t : tf.tiles) most = std::max(most, static_cast<int>(t.rings.size()));
    np.maxTiles = g.cols * g.rows;
    np.maxPolys = most;
    out->mesh = dtAllocNavMesh();
    if (dtStatusFailed(out->mesh->init(&np))) throw std::runtime_error("dtNavMesh::init (tiled) failed");
    for (const auto& t : tf.tiles) {
        if (t.rings.empty()) continue;
        const double x0 = g.origin_x + t.tx * g.tile_size, z0 = g.origin_z + t.tz * g.tile_size;
        const std::int64_t gx0 = std::llround(t.tx * g.tile_size / cs), gz0 = std::llround(t.tz * g.tile_size / cs);
        const std::int64_t gx1 = gx0 + std::llround(g.tile_size / cs), gz1 = gz0 + std::llround(g.tile_size / cs);
        std::vector<Key> keys;
        for (const auto& v : t.verts) keys.push_back(key_of(v));
        auto on_line = [&](const Key& k) { return k[0] == gx0 || k[0] == gx1 || k[2] == gz0 || k[2] == gz1; };
        // Detour's rings: drop corners that sit straight between their neighbours on a tile line.
        std::vector<std::vector<int>> rings;
        for (const auto& r : t.rings) {
            std::vector<int> kept;
            for (std::size_t i = 0; i < r.size(); ++i) {
                const Key &a = keys[r[(i + r.size() - 1) % r.size()]], &b = keys[r[i]], &c = keys[r[(i + 1) % r.size()]];
                bool straight = (b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0]) == 0;
                if (!(straight && on_line(b) && ((a[0] == b[0] && b[0] == c[0]) || (a[2] == b[2] && b[2] == c[2])))) kept.push_back(r[i]);
            }
            if (kept.size() > 6) throw std::runtime_error("a tile face keeps more than 6 corners");
            rings.push_back(kept);
        }
        // Tile-local vertices (Detour quantises from the tile's bmin with the same 1 cm).
        std::map<int, unsigned short> local;
        std::vector<unsigned short> qv;
        for (const auto& r : rings)
            for (int v : r)
                if (local.try_emplace(v, static_cast<unsigned short>(qv.size() / 3)).second) {
                    const Key& k = keys[v];
                    qv.push_back(static_cast<unsigned short>(k[0] - gx0));
                    qv.push_back(static_cast<unsigned short>(k[1]));
                    qv.push_back(static_cast<unsigned short>(k[2] - gz0));
                }
        const int nvp = 6;
        std::vector<unsigned short> dp(rings.size() * 2 * nvp, 0xffff);
        std::map<std::pair<int, int>, int> owner;  // Detour's winding: negative by cross2
        std::vector<std::vector<int>> rev;
        for (std::size_t p = 0; p < rings.size(); ++p) {
            std::int64_t area = 0;
            for (std::size_t k = 0; k < rings[p].size(); ++k) {
                const Key &a = keys[rings[p][k]], &b = keys[rings[p][(k + 1) % rings[p].size()]];
                area += a[0] * b[2] - a[2] * b[0];
            }
            if (area > 0) rev.emplace_back(rings[p].rbegin(), rings[p].rend());
            else rev.push_back(rings[p]);
            for (std::size_t k = 0; k < rev[p].size(); ++k) owner[{rev[p][k], rev[p][(k + 1) % rev[p].size()]}] = int(p);
        }
        for (std::size_t p = 0; p < rev.size(); ++p)
            for (std::size_t k = 0; k < rev[p].size(); ++k) {
                int a = rev[p][k], b = rev[p][(k + 1) % rev[p].size()];
                dp[p * 2 * nvp + k] = local[a];
                auto it = owner.find({b, a});
                const Key &ka = keys[a], &kb = keys[b];
                unsigned short& nei = dp[p * 2 * nvp + nvp + k];
                if (it != owner.end()) nei = static_cast<unsigned short>(it->second);
                else if (ka[0] == gx0 && kb[0] == gx0) nei = 0x8000 | 0;  // rcPolyMesh's portal codes
                else if (ka[2] == gz1 && kb[2] == gz1) nei = 0x8000 | 1;
                else if (ka[0] == gx1 && kb[0] == gx1) nei = 0x8000 | 2;
                else if (ka[2] == gz0 && kb[2] == gz0) nei = 0x8000 | 3;
            }
        std::vector<unsigned short> flags(rings.size(), 1);
        std::vector<unsigned char> areas(rings.size(), 0);
        dtNavMeshCreateParams params{};
        params.verts = qv.data();
        params.vertCount = static_cast<int>(qv.size() / 3);
        params.polys = dp.data();
        params.polyFlags = flags.data();
        params.polyAreas = areas.data();
        params.polyCount = static_cast<int>(rings.size());
        params.nvp = nvp;
        params.walkableHeight = 2, params.walkableRadius = 0.5f, params.walkableClimb = 0.5f;
        params.tileX = t.tx, params.tileY = t.tz, params.tileLayer = 0;
        params.bmin[0] = float(x0), params.bmin[1] = ymin, params.bmin[2] = float(z0);
        params.bmax[0] = float(x0 + g.tile_size), params.bmax[1] = ymax, params.bmax[2] = float(z0 + g.tile_size);
        params.cs = float(cs), params.ch = float(cs);
        params.buildBvTree = true;
        unsigned char* data = nullptr;
        int size = 0;
        if (!dtCreateNavMeshData(&params, &data, &size)) throw std::runtime_error("dtCreateNavMeshData (tile) failed");
        dtTileRef tref = 0;
        if (dtStatusFailed(out->mesh->addTile(data, size, DT_TILE_FREE_DATA, 0, &tref))) throw std::runtime_error("addTile failed");
        dtPolyRef base = out->mesh->getPolyRefBase(out->mesh->getTileByRef(tref));
        for (std::size_t p = 0; p < rings.size(); ++p) {
            std::vector<std::uint32_t> face, det;
            for (int v : t.rings[p]) face.push_back(vertex(keys[v]));
            for (int v : rings[p]) det.push_back(vertex(keys[v]));
            out->polys.push_back(face);
            out->corners.push_back(det);
            out->refs.push_back(base | static_cast<dtPolyRef>(p));
        }
    }
    out->query = dtAllocNavMeshQuery();
    if (dtStatusFailed(out->query->init(out->mesh, 65535))) throw std::runtime_error("dtNavMeshQuery::init failed");
    return out;
}

/// The very large mesh: Recast per 64 m tile (navlab build's pipeline: merged faces of at most
/// 6 corners, seams stitched), a tiled Detour mesh, navlab on the welded faces. Exact runs on
/// the first `exact_pairs` pairs only (its searches are long on multi-level meshes).
void run_tiled(const char* label, const synth::SceneParams& sp, std::uint64_t seed, int pair_count, int exact_pairs,
               std::size_t intervals_pairs) {
    auto t0 = Clock::now();
    synth::TriangleSoup scene = synth::make_scene(sp, seed);
    build::BuildSpec spec;
    spec.cell_size = 0.4f;
    std::vector<build::StageTime> stages;
    build::TiledFaces tf = build::build_tiles(scene, spec, 1, 10, stages);
    auto tm = make_tiled_mesh(tf);
    std::printf("\n== %s: scene %.0f m, %zu faces in %d x %d tiles of %.0f m (Detour: %zu polygons), %zu vertices; %d seam "
                "edges, %d corners inserted (Recast + tiles %.1f s)\n",
                label, sp.size, tm->polys.size(), tf.grid.cols, tf.grid.rows, tf.grid.tile_size, tm->corners.size(), tm->verts.size(),
                tf.seams.seam_edges, tf.seams.inserted_vertices, seconds_since(t0));
    fromsoft::NavMesh mesh = testing::to_navmesh(tm->verts, tm->polys);
    query::FromSoftView view(mesh, label);
    t0 = Clock::now();
    query::NavMeshQuery q(view);
    std::printf("   navlab build %.0f ms, memory %.0f B/face\n", seconds_since(t0) * 1e3, double(q.memory_bytes()) / tm->polys.size());
    auto centre = [&](std::uint32_t p) {
        Vec3 c{};
        const auto& ring = tm->corners[p];
        for (std::uint32_t v : ring) c = {c.x + tm->verts[v].x / ring.size(), 0, c.z + tm->verts[v].z / ring.size()};
        c.y = q.nearest_face({c.x, tm->verts[ring[0]].y, c.z}, {0.01, 3, 0.01}).point.y;
        return c;
    };
    std::mt19937_64 rng(1234);
    struct P { std::uint32_t a, b; Vec3 s, e; };
    std::vector<P> pairs;
    for (int tries = 0; int(pairs.size()) < pair_count && tries < pair_count * 50; ++tries) {
        auto a = static_cast<std::uint32_t>(rng() % tm->polys.size()), b = static_cast<std::uint32_t>(rng() % tm->polys.size());
        if (q.island_of(a) != q.island_of(b)) continue;
        pairs.push_back({a, b, centre(a), centre(b)});
    }
    const Vec3 ext{0.05, 1.0, 0.05};
    dtQueryFilter filter;
    std::vector<dtPolyRef> path(8192);
    std::vector<float> straight(3 * 8192);
    auto detour = [&](const P& pr) {
        float s[3] = {float(pr.s.x), float(pr.s.y), float(pr.s.z)}, e[3] = {float(pr.e.x), float(pr.e.y), float(pr.e.z)};
        int n = 0, count = 0;
        if (dtStatusFailed(tm->query->findPath(tm->refs[pr.a], tm->refs[pr.b], s, e, &filter, path.data(), &n, int(path.size()))) ||
            n == 0 || path[n - 1] != tm->refs[pr.b])
            return -1.0;
        tm->query->findStraightPath(s, e, path.data(), n, straight.data(), nullptr, nullptr, &count, 8192);
        double len = 0;
        for (int i = 1; i < count; ++i) len += std::hypot(straight[3 * i] - straight[3 * i - 3], straight[3 * i + 2] - straight[3 * i - 1]);
        return len;
    };
    auto timed = [&](std::size_t count, auto&& fn, std::vector<double>& len) {
        len.assign(count, -1);
        auto t = Clock::now();
        for (std::size_t i = 0; i < count; ++i) len[i] = fn(pairs[i]);
        return seconds_since(t);
    };
    auto navlab = [&](query::PathMode mode) {
        return [&q, &ext, mode](const P& pr) {
            auto r = q.find_path(pr.s, pr.e, mode, {}, ext);
            return r.status == query::PathStatus::Found ? r.length_xz : -1.0;
        };
    };
    std::vector<double> ld, lc, lx, ld_x;
    double td = timed(pairs.size(), detour, ld), tc = timed(pairs.size(), navlab(query::PathMode::Corridor), lc);
    std::size_t ne = std::min<std::size_t>(pairs.size(), std::size_t(exact_pairs));
    q.corner_graph_stats();  // Auto uses the graph here: build it before the timing
    double tdx = timed(ne, detour, ld_x), tx = timed(ne, navlab(query::PathMode::Exact), lx);
    std::vector<double> rc, rx;
    int detour_missing = 0, navlab_missing = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        detour_missing += ld[i] < 0, navlab_missing += lc[i] < 0;
        if (ld[i] <= 0 || lc[i] < 0) continue;
        rc.push_back(lc[i] / ld[i]);
        if (i < ne && lx[i] >= 0) rx.push_back(lx[i] / ld[i]);
    }
    std::printf("   %zu pairs, one thread: Detour %.0f q/s, navlab corridor %.0f q/s (ratio %.2fx Detour)\n", pairs.size(),
                pairs.size() / td, pairs.size() / tc, td / tc);
    std::printf("   first %zu pairs: Detour %.1f q/s, navlab exact %.2f q/s (ratio %.3fx Detour)\n", ne, ne / tdx, ne / tx, tdx / tx);
    std::printf("   path length / Detour (xz), p1 p50 p99 max: corridor %.4f %.4f %.4f %.4f; exact %.4f %.4f %.4f %.4f "
                "(no path: Detour %d pairs, navlab corridor %d)\n",
                percentile(rc, 0.01), percentile(rc, 0.5), percentile(rc, 0.99), percentile(rc, 1), percentile(rx, 0.01),
                percentile(rx, 0.5), percentile(rx, 0.99), percentile(rx, 1), detour_missing, navlab_missing);
    std::vector<std::pair<Vec3, Vec3>> se;
    for (std::size_t i = 0; i < ne; ++i) se.push_back({pairs[i].s, pairs[i].e});
    compare_exact_searches(q, se, intervals_pairs, tdx / ne, tm->polys.size());
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress shows when piped to a file
    int pairs = 10000, large_pairs = 1000, brute_pairs = 10000;
    int huge_pairs = 1000, huge_exact = 1000;
    int intervals_pairs = 10000, large_intervals = 20, huge_intervals = 5;
    double large_size = 800, huge_size = 1400;
    bool small = true, large = true, huge = true;
    bench::Options("usage: bench_query [options]\n"
                   "Path queries on Recast-built scenes against Detour and brute force (see bench/bench_query.cpp).")
        .value("--pairs", "N", "query pairs on the small scene (default 10000)", pairs)
        .value("--brute-pairs", "N", "small-scene pairs checked against the brute-force shortest path (default 10000)", brute_pairs)
        .value("--intervals-pairs", "N", "small-scene pairs for the exact interval search (default 10000)", intervals_pairs)
        .value("--large-pairs", "N", "query pairs on the large scene (default 1000)", large_pairs)
        .value("--large-size", "M", "side of the large scene in metres (default 800)", large_size)
        .value("--large-intervals", "N", "large-scene pairs for the exact interval search (default 20)", large_intervals)
        .value("--huge-pairs", "N", "query pairs on the huge scene (default 1000)", huge_pairs)
        .value("--huge-exact-pairs", "N", "huge-scene pairs in exact mode (default 1000)", huge_exact)
        .value("--huge-size", "M", "side of the huge scene in metres (default 1400)", huge_size)
        .value("--huge-intervals", "N", "huge-scene pairs for the exact interval search (default 5)", huge_intervals)
        .flag("--small-only", "only the small scene", [&] { large = huge = false; })
        .flag("--large-only", "only the large scene", [&] { small = huge = false; })
        .flag("--huge-only", "only the huge scene", [&] { small = large = false; })
        .flag("--no-huge", "leave the huge scene out", huge, false)
        .parse(argc, argv);
    if (small) {
        // Single level (no buildings or bridges) so the brute force may work in xz.
        synth::SceneParams p;
        p.size = 230, p.buildings = 0, p.bridges = 0, p.rocks = 150;
        run("small (single level)", p, 7, pairs, true, static_cast<std::size_t>(brute_pairs), std::size_t(intervals_pairs));
    }
    if (large) {
        synth::SceneParams p;
        // The largest scene whose polygons fit one Detour tile (16-bit vertex indices).
        // Buildings, bridges and rocks scale with the area (800 m: 200, 40, 1000).
        double a = large_size * large_size / (800.0 * 800.0);
        p.size = large_size, p.buildings = int(200 * a), p.bridges = int(40 * a), p.rocks = int(1000 * a);
        run("large (multi level)", p, 7, large_pairs, false, 0, std::size_t(large_intervals));
    }
    if (huge) {
        // The issue's ~150k polygons: beyond one Detour tile, so Detour gets a tiled mesh.
        synth::SceneParams p;
        double a = huge_size * huge_size / (800.0 * 800.0);
        p.size = huge_size, p.buildings = int(200 * a), p.bridges = int(40 * a), p.rocks = int(1000 * a);
        run_tiled("huge (multi level, tiled)", p, 7, huge_pairs, huge_exact, std::size_t(huge_intervals));
    }
    return 0;
}
