// Raycast along the surface with dtNavMeshQuery::raycast semantics: walk the pieces the xz
// segment crosses until it ends inside one (no hit) or leaves through a wall.
#include <cmath>
#include <limits>

#include "query/query_mesh.h"

namespace navlab::query {

RaycastResult NavMeshQuery::raycast(const Vec3& from, const Vec3& to, const QueryFilter& filter, const Vec3& extents) const {
    const Impl& m = *impl_;
    RaycastResult r;
    Vec3 s;
    std::int64_t start = std::isfinite(from.x) && std::isfinite(from.y) && std::isfinite(from.z)
                             ? m.nearest_piece(from, extents, s)
                             : -1;
    if (start < 0 || !std::isfinite(to.x) || !std::isfinite(to.z)) {
        r.off_mesh = true;
        return r;
    }
    P2 a = xz(s), d = xz(to) - a;
    auto p = static_cast<std::uint32_t>(start);
    double t = 0;
    r.faces.push_back(m.piece_face[p]);
    // Each step moves to a piece whose exit parameter is >= the current one; the cap guards
    // against cycling on degenerate pieces.
    for (std::size_t guard = 0; guard <= m.pieces(); ++guard) {
        std::uint32_t n = m.corners(p);
        double t_exit = std::numeric_limits<double>::infinity();
        std::int32_t exit_edge = -1;
        for (std::uint32_t k = 0; k < n; ++k) {
            P2 u = xz(m.corner(p, k)), v = xz(m.corner(p, (k + 1) % n));
            double s0 = orient2(u, v, a), ds = cross2(v - u, d);
            if (ds >= 0) continue;  // not leaving through this edge
            double te = -s0 / ds;
            if (te < t_exit) t_exit = te, exit_edge = static_cast<std::int32_t>(k);
        }
        if (exit_edge < 0 || t_exit >= 1) {
            r.t = 1;
            r.hit_point = {to.x, m.height_at(p, xz(to)), to.z};
            return r;
        }
        t = std::max(t, t_exit);
        std::int32_t q = m.piece_nbr[m.piece_first[p] + exit_edge];
        if (q < 0 || m.piece_weight(static_cast<std::uint32_t>(q), filter) == 0) {
            r.hit = true;
            r.t = t;
            P2 hp{a.x + d.x * t, a.z + d.z * t};
            r.hit_point = {hp.x, m.height_at(p, hp), hp.z};
            // The wall edge of the face; a cut between pieces of one face never is a wall.
            std::int32_t id = m.piece_edge[m.piece_first[p] + exit_edge];
            r.wall_face = m.piece_face[p];
            r.wall_edge = id < 0 ? 0 : static_cast<std::uint32_t>(id);
            P2 u = xz(m.corner(p, exit_edge)), v = xz(m.corner(p, (exit_edge + 1) % n));
            P2 e = v - u;
            double len = std::hypot(e.x, e.z);
            // Inward normal of a counter-clockwise (cross2) ring: the edge turned left.
            if (len > 0) r.normal = {-e.z / len, 0, e.x / len};
            return r;
        }
        p = static_cast<std::uint32_t>(q);
        if (r.faces.back() != m.piece_face[p]) r.faces.push_back(m.piece_face[p]);
    }
    r.hit = true;
    r.t = t;
    return r;
}

}  // namespace navlab::query
