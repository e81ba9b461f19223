// Brute-force shortest paths seen from above on a single-level polygon mesh, the reference
// `exact` is checked against (query tests, bench_query): Dijkstra over the start, the goal and
// the boundary vertices, two points joined when the straight segment between them stays on
// the mesh. What it shares with `exact` is only NavMeshQuery::raycast (the walk along a
// segment); the turning points, the graph and the search are its own.
//
// The graph follows the mesh's topology, not the plane: a boundary vertex where two fans of
// polygons touch with no edge between them (a pinch: two rocks' holes meeting at a corner) is
// one node per fan, and a segment from such a vertex belongs to the fan whose corner wedge it
// leaves through. The polygons have no portal at a pinch, so an agent cannot squeeze through
// it; a plane-only visibility graph (every vertex one node) does, and then finds paths shorter
// than any path over the mesh.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <queue>
#include <utility>
#include <vector>

#include "query/navmesh_query.h"

namespace navlab::testing {

class VisibilityGraph {
public:
    /// `verts`/`polys`: the mesh `q` was built from (rings of either winding, convex, one level).
    VisibilityGraph(const query::NavMeshQuery& q, const std::vector<query::Vec3>& verts,
                    const std::vector<std::vector<std::uint32_t>>& polys)
        : q_(q) {
        std::map<std::pair<std::uint32_t, std::uint32_t>, bool> directed;
        for (const auto& p : polys)
            for (std::size_t k = 0; k < p.size(); ++k) directed[{p[k], p[(k + 1) % p.size()]}] = true;
        auto portal = [&](std::uint32_t a, std::uint32_t b) { return directed.count({b, a}) > 0; };
        std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> at(verts.size());  // (poly, corner)
        for (std::uint32_t f = 0; f < polys.size(); ++f)
            for (std::uint32_t k = 0; k < polys[f].size(); ++k) at[polys[f][k]].push_back({f, k});
        for (std::uint32_t v = 0; v < verts.size(); ++v) {
            const auto& around = at[v];
            bool boundary = false;
            for (auto [f, k] : around) {
                const auto& p = polys[f];
                boundary |= !portal(v, p[(k + 1) % p.size()]) || !portal(p[(k + p.size() - 1) % p.size()], v);
            }
            if (!boundary) continue;
            // Fans: the polygons around v joined through the portals that end at v.
            std::vector<int> fan(around.size(), -1);
            int fans = 0;
            for (std::size_t i = 0; i < around.size(); ++i) {
                if (fan[i] >= 0) continue;
                std::vector<std::size_t> todo{i};
                fan[i] = fans;
                while (!todo.empty()) {
                    std::size_t x = todo.back();
                    todo.pop_back();
                    const auto& px = polys[around[x].first];
                    std::uint32_t kx = around[x].second;
                    std::uint32_t nx = px[(kx + 1) % px.size()], pv = px[(kx + px.size() - 1) % px.size()];
                    for (std::size_t y = 0; y < around.size(); ++y) {
                        if (fan[y] >= 0) continue;
                        const auto& py = polys[around[y].first];
                        std::uint32_t ky = around[y].second;
                        std::uint32_t ny = py[(ky + 1) % py.size()], pw = py[(ky + py.size() - 1) % py.size()];
                        if ((ny == pv && portal(v, ny)) || (pw == nx && portal(v, nx))) fan[y] = fans, todo.push_back(y);
                    }
                }
                ++fans;
            }
            pinches_ += fans > 1;
            for (int c = 0; c < fans; ++c) {
                Node n{verts[v], {}};
                for (std::size_t i = 0; i < around.size(); ++i) {
                    if (fan[i] != c) continue;
                    const auto& p = polys[around[i].first];
                    std::uint32_t k = around[i].second;
                    const query::Vec3 &nx = verts[p[(k + 1) % p.size()]], &pv = verts[p[(k + p.size() - 1) % p.size()]];
                    n.wedges.push_back({nx.x - n.at.x, nx.z - n.at.z, pv.x - n.at.x, pv.z - n.at.z});
                }
                nodes_.push_back(std::move(n));
            }
        }
        adj_.resize(nodes_.size());
        for (std::uint32_t i = 0; i < nodes_.size(); ++i)
            for (std::uint32_t j = i + 1; j < nodes_.size(); ++j) {
                const query::Vec3 &a = nodes_[i].at, &b = nodes_[j].at;
                double dx = b.x - a.x, dz = b.z - a.z;
                if ((dx == 0 && dz == 0) || !leaves(nodes_[i], dx, dz) || !leaves(nodes_[j], -dx, -dz) || !visible_either(a, b))
                    continue;
                double d = std::hypot(dx, dz);
                adj_[i].push_back({j, d});
                adj_[j].push_back({i, d});
            }
    }

    /// Length seen from above of the shortest path s -> t over the mesh (s, t inside polygons),
    /// infinity when there is none; its turning points go to last_path(). With a `bound`,
    /// only paths no longer than it are searched (vertices outside the ellipse |s v| + |v t|
    /// <= bound are left out): the answer is exact when it is <= bound, else infinity.
    double shortest(const query::Vec3& s, const query::Vec3& t, double bound = INFINITY) {
        last_path_ = {s, t};
        if (visible_either(s, t)) return std::hypot(s.x - t.x, s.z - t.z);
        std::size_t C = nodes_.size();
        std::vector<double> dist(C, INFINITY), to_t(C, INFINITY);
        std::vector<int> parent(C, -1);
        using E = std::pair<double, std::uint32_t>;
        std::priority_queue<E, std::vector<E>, std::greater<>> open;
        std::vector<bool> near(C, true);
        for (std::uint32_t i = 0; i < C; ++i) {
            const query::Vec3& c = nodes_[i].at;
            near[i] = std::hypot(s.x - c.x, s.z - c.z) + std::hypot(t.x - c.x, t.z - c.z) <= bound;
            if (!near[i]) continue;
            if (leaves(nodes_[i], s.x - c.x, s.z - c.z) && visible_either(s, c))
                dist[i] = std::hypot(s.x - c.x, s.z - c.z), open.push({dist[i], i});
            if (leaves(nodes_[i], t.x - c.x, t.z - c.z) && visible_either(c, t)) to_t[i] = std::hypot(t.x - c.x, t.z - c.z);
        }
        double best = INFINITY;
        int best_u = -1;
        while (!open.empty()) {
            auto [d, u] = open.top();
            open.pop();
            if (d != dist[u] || d >= best) continue;
            if (d + to_t[u] < best) best = d + to_t[u], best_u = static_cast<int>(u);
            for (auto [v, w] : adj_[u])
                if (near[v] && d + w < dist[v]) dist[v] = d + w, parent[v] = static_cast<int>(u), open.push({dist[v], v});
        }
        last_path_ = {t};
        for (int u = best_u; u >= 0; u = parent[u]) last_path_.push_back(nodes_[u].at);
        last_path_.push_back(s);
        std::reverse(last_path_.begin(), last_path_.end());
        return best;
    }

    const std::vector<query::Vec3>& last_path() const { return last_path_; }
    std::size_t nodes() const { return nodes_.size(); }
    /// Boundary vertices with more than one fan.
    std::size_t pinches() const { return pinches_; }

private:
    struct Wedge {
        double nx, nz, px, pz;  ///< towards the next and the previous corner of the polygon
    };
    struct Node {
        query::Vec3 at;
        std::vector<Wedge> wedges;  ///< one per polygon of the fan
    };

    /// Whether direction (dx, dz) from the node's vertex enters one of its fan's corners
    /// (closed wedges; convex corners, either winding).
    static bool leaves(const Node& n, double dx, double dz) {
        for (const Wedge& w : n.wedges) {
            double c = w.nx * w.pz - w.nz * w.px;
            double tol = 1e-12 * std::hypot(dx, dz) * (std::hypot(w.nx, w.nz) + std::hypot(w.px, w.pz));
            double c1 = (w.nx * dz - w.nz * dx) * (c > 0 ? 1 : -1), c2 = (dx * w.pz - dz * w.px) * (c > 0 ? 1 : -1);
            if (c1 >= -tol && c2 >= -tol) return true;
        }
        return false;
    }
    bool visible(const query::Vec3& a, const query::Vec3& b) const {
        double d = std::hypot(b.x - a.x, b.z - a.z);
        if (d == 0) return true;
        // Start a hair inside the segment so the walk starts in the polygon the segment enters.
        query::Vec3 a1{a.x + (b.x - a.x) * 1e-9, a.y, a.z + (b.z - a.z) * 1e-9};
        query::RaycastResult r = q_.raycast(a1, b, {}, {1e-6, 1.0, 1e-6});
        return !r.off_mesh && (!r.hit || r.t * d >= d - 1e-7);
    }
    /// Either direction: a walk that starts exactly on a vertex may start in a polygon the
    /// segment does not enter (a false wall); visibility itself is symmetric.
    bool visible_either(const query::Vec3& a, const query::Vec3& b) const { return visible(a, b) || visible(b, a); }

    const query::NavMeshQuery& q_;
    std::vector<Node> nodes_;
    std::vector<std::vector<std::pair<std::uint32_t, double>>> adj_;
    std::vector<query::Vec3> last_path_;
    std::size_t pinches_ = 0;
};

}  // namespace navlab::testing
