// bench_query: navlab path queries against Detour on the same Recast-built polygons.
//
// Recast builds a scene (build/recast_mesh.h: the welded detail triangles the synth shaping
// path starts from); the triangles go, quantised once onto Detour's grid, into Detour
// (dtCreateNavMeshData, one tile) and into navlab as an hkaiNavMesh (faces, edges with
// opposites) read through FromSoftView. Fixed random pairs of face centres in one island;
// one thread. Prints queries per second and ratios against Detour findPath+findStraightPath,
// path length ratios, exact vs a brute-force visibility graph (single-level mesh), nearest-face
// speed (stored ER tree vs BVH vs scan) and memory per face.
//
// Usage: bench_query [--pairs N] [--large-pairs N] [--large-only] [--small-only]
// (defaults: 10,000 pairs on the small mesh, 1,000 on the large one, whose exact queries are
// long; the brute force checks the first 1,000 pairs of the small mesh).
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
#include "build/recast_mesh.h"
#include "synth/scene.h"
#include "synth/scene.h"

using namespace navlab;
using query::Vec3;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// The polygons as an hkaiNavMesh: faces in order, regular edges with mutual opposites.
fromsoft::NavMesh to_navmesh(const std::vector<Vec3>& verts, const std::vector<std::vector<std::uint32_t>>& polys) {
    fromsoft::NavMesh m;
    for (const Vec3& v : verts) m.vertices.push_back({float(v.x), float(v.y), float(v.z), 0});
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> edge_of;
    std::vector<std::uint32_t> owner;
    for (std::size_t f = 0; f < polys.size(); ++f) {
        fromsoft::Face face;
        face.startEdgeIndex = static_cast<std::int32_t>(m.edges.size());
        face.numEdges = static_cast<std::int16_t>(polys[f].size());
        m.faces.push_back(face);
        for (std::size_t k = 0; k < polys[f].size(); ++k) {
            fromsoft::Edge e;
            e.a = static_cast<std::int32_t>(polys[f][k]);
            e.b = static_cast<std::int32_t>(polys[f][(k + 1) % polys[f].size()]);
            edge_of[{polys[f][k], polys[f][(k + 1) % polys[f].size()]}] = static_cast<std::uint32_t>(m.edges.size());
            m.edges.push_back(e);
            owner.push_back(static_cast<std::uint32_t>(f));
        }
    }
    for (std::size_t f = 0; f < polys.size(); ++f)
        for (int k = 0; k < m.faces[f].numEdges; ++k) {
            fromsoft::Edge& e = m.edges[m.faces[f].startEdgeIndex + k];
            auto it = edge_of.find({static_cast<std::uint32_t>(e.b), static_cast<std::uint32_t>(e.a)});
            if (it == edge_of.end()) continue;
            e.oppositeEdge = it->second;
            e.oppositeFace = owner[it->second];
        }
    m.faceData.assign(polys.size(), 0);
    return m;
}

/// Greedy Hertel-Mehlhorn: joins neighbouring polygons while the union stays convex seen from
/// above and has at most 6 corners (Detour's limit), as Recast merges its own polygons. Both
/// libraries then get the same merged polygons.
std::vector<std::vector<std::uint32_t>> merge_convex(const std::vector<std::array<float, 3>>& v,
                                                     std::vector<std::vector<std::uint32_t>> polys) {
    auto turn = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        return (double(v[b][0]) - v[a][0]) * (double(v[c][2]) - v[a][2]) - (double(v[b][2]) - v[a][2]) * (double(v[c][0]) - v[a][0]);
    };
    double sign = 0;  // winding of the input (all rings alike)
    for (std::size_t k = 0; k < 3; ++k) sign += turn(polys[0][0], polys[0][1], polys[0][2]);
    sign = sign > 0 ? 1 : -1;
    std::vector<bool> alive(polys.size(), true);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> owner;
    for (std::uint32_t p = 0; p < polys.size(); ++p)
        for (std::size_t k = 0; k < polys[p].size(); ++k) owner[{polys[p][k], polys[p][(k + 1) % polys[p].size()]}] = p;
    for (std::uint32_t p = 0; p < polys.size(); ++p) {
        bool merged = true;
        while (alive[p] && merged) {
            merged = false;
            auto& a = polys[p];
            for (std::size_t k = 0; k < a.size() && !merged; ++k) {
                auto it = owner.find({a[(k + 1) % a.size()], a[k]});
                if (it == owner.end() || it->second == p || !alive[it->second]) continue;
                auto& b = polys[it->second];
                if (a.size() + b.size() - 2 > 6) continue;
                // Union ring: a from k+1 round to k, then b's corners between the shared edge.
                std::size_t j = 0;
                while (b[j] != a[(k + 1) % a.size()]) ++j;
                std::vector<std::uint32_t> ring;
                for (std::size_t i = 0; i < a.size(); ++i) ring.push_back(a[(k + 1 + i) % a.size()]);
                for (std::size_t i = 2; i < b.size(); ++i) ring.push_back(b[(j + i) % b.size()]);
                bool convex = true;
                // Convex with a margin (sine of the turn > 1e-4), so a float ulp in either library
                // cannot make a corner straight or reflex.
                for (std::size_t i = 0; i < ring.size() && convex; ++i) {
                    std::uint32_t x = ring[i], y = ring[(i + 1) % ring.size()], z = ring[(i + 2) % ring.size()];
                    double l1 = std::hypot(double(v[y][0]) - v[x][0], double(v[y][2]) - v[x][2]);
                    double l2 = std::hypot(double(v[z][0]) - v[y][0], double(v[z][2]) - v[y][2]);
                    convex = turn(x, y, z) * sign > 1e-4 * l1 * l2;
                }
                std::vector<std::uint32_t> sorted = ring;
                std::sort(sorted.begin(), sorted.end());
                if (!convex || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) continue;
                std::uint32_t q = it->second;
                alive[q] = false;
                a = ring;
                for (std::size_t i = 0; i < a.size(); ++i) owner[{a[i], a[(i + 1) % a.size()]}] = p;
                merged = true;
            }
        }
    }
    std::vector<std::vector<std::uint32_t>> out;
    for (std::uint32_t p = 0; p < polys.size(); ++p)
        if (alive[p]) out.push_back(polys[p]);
    return out;
}

struct Pair {
    std::uint32_t a, b;
    Vec3 s, e;
};

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * (v.size() - 1) + 0.5))];
}

/// Brute force on a single-level mesh: Dijkstra over start, goal and the boundary vertices,
/// two points joined when a raycast between them reaches the target (the walk is the only
/// navlab code it shares with `exact`).
struct VisibilityGraph {
    const query::NavMeshQuery& q;
    std::vector<Vec3> corners;
    std::vector<std::vector<std::pair<std::uint32_t, double>>> adj;
    mutable std::vector<Vec3> last_path;  ///< turning points of the last shortest() answer
    bool visible(const Vec3& a, const Vec3& b) const {
        double d = std::hypot(b.x - a.x, b.z - a.z);
        if (d == 0) return true;
        // Start a hair inside the segment so the walk starts in the face the segment enters.
        Vec3 a1{a.x + (b.x - a.x) * 1e-9, a.y, a.z + (b.z - a.z) * 1e-9};
        query::RaycastResult r = q.raycast(a1, b, {}, {1e-6, 1.0, 1e-6});
        return !r.off_mesh && (!r.hit || r.t * d >= d - 1e-7);
    }
    /// Either direction: a walk that starts exactly on a vertex may start in a face the
    /// segment does not enter (a false "wall"); visibility itself is symmetric.
    bool visible_either(const Vec3& a, const Vec3& b) const { return visible(a, b) || visible(b, a); }
    VisibilityGraph(const query::NavMeshQuery& query, std::vector<Vec3> c) : q(query), corners(std::move(c)), adj(corners.size()) {
        for (std::uint32_t i = 0; i < corners.size(); ++i)
            for (std::uint32_t j = i + 1; j < corners.size(); ++j)
                if (visible_either(corners[i], corners[j])) {
                    double d = std::hypot(corners[i].x - corners[j].x, corners[i].z - corners[j].z);
                    adj[i].push_back({j, d});
                    adj[j].push_back({i, d});
                }
    }
    double shortest(const Vec3& s, const Vec3& t) const {
        last_path = {s, t};
        if (visible_either(s, t)) return std::hypot(s.x - t.x, s.z - t.z);
        std::size_t C = corners.size();
        std::vector<double> dist(C, INFINITY), to_t(C, INFINITY);
        std::vector<int> parent(C, -1);
        int best_u = -1;
        using E = std::pair<double, std::uint32_t>;
        std::priority_queue<E, std::vector<E>, std::greater<>> open;
        for (std::uint32_t i = 0; i < C; ++i) {
            if (visible_either(s, corners[i])) dist[i] = std::hypot(s.x - corners[i].x, s.z - corners[i].z), open.push({dist[i], i});
            if (visible_either(corners[i], t)) to_t[i] = std::hypot(t.x - corners[i].x, t.z - corners[i].z);
        }
        double best = INFINITY;
        while (!open.empty()) {
            auto [d, u] = open.top();
            open.pop();
            if (d != dist[u] || d >= best) continue;
            if (d + to_t[u] < best) best = d + to_t[u], best_u = static_cast<int>(u);
            for (auto [v, w] : adj[u])
                if (d + w < dist[v]) dist[v] = d + w, parent[v] = static_cast<int>(u), open.push({dist[v], v});
        }
        last_path = {t};
        for (int u = best_u; u >= 0; u = parent[u]) last_path.push_back(corners[u]);
        last_path.push_back(s);
        std::reverse(last_path.begin(), last_path.end());
        return best;
    }
};

void run(const char* label, const synth::SceneParams& sp, std::uint64_t seed, int pair_count, bool brute) {
    auto t0 = Clock::now();
    synth::TriangleSoup scene = synth::make_scene(sp, seed);
    build::PolyMesh pm = build::build_recast_mesh(scene, build::RecastParams{});
    std::vector<std::vector<std::uint32_t>> polys;
    for (const auto& r : pm.polys) polys.push_back({std::uint32_t(r[0]), std::uint32_t(r[1]), std::uint32_t(r[2])});
    std::size_t triangles = polys.size();
    // Quantise onto Detour's grid first, so the merged polygons are convex in the coordinates
    // both libraries see (quantising is stable: a second pass gives the same values).
    std::vector<std::array<float, 3>> grid_verts;
    if (pm.verts.size() < 65535 && polys.size() < 65535)
        for (const Vec3& v : testing::make_detour_mesh(pm.verts, polys)->verts)
            grid_verts.push_back({float(v.x), float(v.y), float(v.z)});
    else
        grid_verts = pm.verts;
    // Quantising turns a few slivers over or flat; both libraries get the mesh without them.
    std::erase_if(polys, [&](const std::vector<std::uint32_t>& t) {
        const auto &a = grid_verts[t[0]], &b = grid_verts[t[1]], &c = grid_verts[t[2]];
        return (double(b[0]) - a[0]) * (double(c[2]) - a[2]) - (double(b[2]) - a[2]) * (double(c[0]) - a[0]) >= 0;
    });
    std::size_t dropped = triangles - polys.size();
    polys = merge_convex(grid_verts, std::move(polys));
    std::printf("\n== %s: scene %.0f m, %zu convex polygons (merged from %zu triangles, %zu slivers dropped), %zu vertices "
                "(Recast %.1f s)\n",
                label, sp.size, polys.size(), triangles, dropped, pm.verts.size(), seconds_since(t0));
    if (pm.verts.size() >= 65535 || polys.size() >= 65535) {
        std::printf("   too large for one Detour tile (16-bit vertex and neighbour indices): skipped\n");
        return;
    }
    auto dt = testing::make_detour_mesh(grid_verts, polys);
    // Detour wants its own winding; navlab reads the rings as Havok stores them (counter-clockwise).
    fromsoft::NavMesh mesh = to_navmesh(dt->verts, polys);
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

    // Fixed random pairs of polygon centres in one island.
    std::mt19937_64 rng(1234);
    std::vector<Pair> pairs;
    // The corner centroid seen from above, lifted onto the polygon's fan from corner 0 (the
    // surface both libraries use for a polygon without detail triangles).
    auto centre = [&](std::uint32_t p) {
        Vec3 c{};
        double n = static_cast<double>(polys[p].size());
        for (std::uint32_t v : polys[p]) c = {c.x + dt->verts[v].x / n, 0, c.z + dt->verts[v].z / n};
        const Vec3& a = dt->verts[polys[p][0]];
        for (std::size_t k = 1; k + 1 < polys[p].size(); ++k) {
            const Vec3 &b = dt->verts[polys[p][k]], &d = dt->verts[polys[p][k + 1]];
            double det = (b.x - a.x) * (d.z - a.z) - (b.z - a.z) * (d.x - a.x);
            double u = ((c.x - a.x) * (d.z - a.z) - (c.z - a.z) * (d.x - a.x)) / det;
            double w = ((b.x - a.x) * (c.z - a.z) - (b.z - a.z) * (c.x - a.x)) / det;
            if (u >= -1e-12 && w >= -1e-12 && u + w <= 1 + 1e-12) {
                c.y = a.y + u * (b.y - a.y) + w * (d.y - a.y);
                break;
            }
        }
        return c;
    };
    for (int tries = 0; static_cast<int>(pairs.size()) < pair_count && tries < pair_count * 50; ++tries) {
        std::uint32_t a = rng() % polys.size(), b = rng() % polys.size();
        if (q.island_of(a) != q.island_of(b)) continue;
        pairs.push_back({a, b, centre(a), centre(b)});
    }
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
        std::vector<Vec3> corners;
        std::vector<bool> used(mesh.vertices.size());
        for (const auto& e : mesh.edges)
            if (e.oppositeFace == fromsoft::kNoOpposite)
                for (int v : {e.a, e.b})
                    if (!used[v]) used[v] = true, corners.push_back(dt->verts[v]);
        // Pinch vertices: corners whose faces form more than one fan (faces joined by an edge
        // through the vertex). The brute force works in the plane and squeezes through them;
        // the mesh has no portal there, so `exact` (which follows the adjacency) must not.
        std::vector<std::vector<std::uint32_t>> faces_at(mesh.vertices.size());
        for (std::uint32_t f = 0; f < polys.size(); ++f)
            for (std::uint32_t v : polys[f]) faces_at[v].push_back(f);
        std::map<std::pair<double, double>, bool> pinch;
        for (std::uint32_t v = 0; v < faces_at.size(); ++v) {
            auto& fs = faces_at[v];
            if (fs.empty()) continue;
            std::vector<int> comp(fs.size(), -1);
            int comps = 0;
            for (std::size_t i = 0; i < fs.size(); ++i) {
                if (comp[i] >= 0) continue;
                std::vector<std::size_t> todo{i};
                comp[i] = comps;
                while (!todo.empty()) {
                    std::size_t x = todo.back();
                    todo.pop_back();
                    const fromsoft::Face& fx = mesh.faces[fs[x]];
                    for (int k = 0; k < fx.numEdges; ++k) {
                        const fromsoft::Edge& e = mesh.edges[fx.startEdgeIndex + k];
                        if ((e.a != static_cast<int>(v) && e.b != static_cast<int>(v)) || e.oppositeFace == fromsoft::kNoOpposite) continue;
                        for (std::size_t y = 0; y < fs.size(); ++y)
                            if (fs[y] == e.oppositeFace && comp[y] < 0) comp[y] = comps, todo.push_back(y);
                    }
                }
                ++comps;
            }
            if (comps > 1) pinch[{dt->verts[v].x, dt->verts[v].z}] = true;
        }
        auto touches_pinch = [&](const std::vector<Vec3>& path) {
            for (std::size_t k = 1; k < path.size(); ++k)
                for (const auto& [xz, yes] : pinch) {
                    const Vec3 &a = path[k - 1], &b = path[k];
                    double len = std::hypot(b.x - a.x, b.z - a.z);
                    double o = (b.x - a.x) * (xz.second - a.z) - (b.z - a.z) * (xz.first - a.x);
                    double u = len > 0 ? ((xz.first - a.x) * (b.x - a.x) + (xz.second - a.z) * (b.z - a.z)) / (len * len) : 0;
                    if (std::fabs(o) <= 1e-9 * std::max(1.0, len) && u > 0 && u < 1 + 1e-12) return true;
                }
            return false;
        };
        std::size_t explained = 0;
        t0 = Clock::now();
        VisibilityGraph vg(q, corners);
        std::size_t checked = 0, equal = 0, exact_longer = 0;
        double worst = 0;
        std::size_t limit = std::min<std::size_t>(pairs.size(), 1000);
        for (std::size_t i = 0; i < limit; ++i) {
            double b = vg.shortest(pairs[i].s, pairs[i].e);
            if (!std::isfinite(b) || len_exact[i] < 0) continue;
            ++checked;
            double rel = std::fabs(len_exact[i] - b) / std::max(b, 1e-9);
            worst = std::max(worst, rel);
            equal += rel <= 1e-6;
            exact_longer += len_exact[i] > b * (1 + 1e-6);
            if (rel > 1e-6) {
                auto r = q.find_path(pairs[i].s, pairs[i].e, query::PathMode::Exact, {}, ext);
                explained += touches_pinch(vg.last_path) || touches_pinch(r.points);
            }
            if (std::getenv("BENCH_DEBUG") && rel > 1e-6)
                std::printf("     pair %zu: exact %.6f brute %.6f  s %.3f,%.3f e %.3f,%.3f\n", i, len_exact[i], b, pairs[i].s.x,
                            pairs[i].s.z, pairs[i].e.x, pairs[i].e.z);
        }
        std::printf("   exact vs brute-force visibility graph (%zu corners, %.1f s): %zu of %zu pairs within 1e-6 relative, "
                    "worst %.2e, exact longer on %zu; %zu of the %zu others pass a pinch vertex (%zu in the mesh)\n",
                    corners.size(), seconds_since(t0), equal, checked, worst, exact_longer, explained, checked - equal, pinch.size());
    }

    // Nearest face: stored ER tree vs BVH vs scan, on points near the mesh.
    std::vector<Vec3> pts;
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
    int pairs = 10000, large_pairs = 1000;
    bool small = true, large = true;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--pairs") && i + 1 < argc) pairs = std::atoi(argv[++i]);
        if (!std::strcmp(argv[i], "--large-pairs") && i + 1 < argc) large_pairs = std::atoi(argv[++i]);
        if (!std::strcmp(argv[i], "--small-only")) large = false;
        if (!std::strcmp(argv[i], "--large-only")) small = false;
    }
    if (small) {
        // Single level (no buildings or bridges) so the brute force may work in xz.
        synth::SceneParams p;
        p.size = 230, p.buildings = 0, p.bridges = 0, p.rocks = 150;
        run("small (single level)", p, 7, pairs, true);
    }
    if (large) {
        synth::SceneParams p;
        // The largest scene whose polygons fit one Detour tile (16-bit vertex indices).
        p.size = 800, p.buildings = 200, p.bridges = 40, p.rocks = 1000;
        run("large (multi level)", p, 7, large_pairs, false);
    }
    return 0;
}
