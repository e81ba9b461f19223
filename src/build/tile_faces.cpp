#include "build/tile_faces.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace navlab::build {

std::vector<int> join_rings(const std::vector<int>& a, std::size_t ia, const std::vector<int>& b, std::size_t jb) {
    std::vector<int> out;
    const std::size_t na = a.size(), nb = b.size();
    for (std::size_t k = 1; k <= na; ++k) out.push_back(a[(ia + k) % na]);  // v ... u
    for (std::size_t k = 2; k < nb; ++k) out.push_back(b[(jb + k) % nb]);   // after u, before v
    return out;
}

bool convex_from_above(const std::vector<std::array<float, 3>>& verts, const std::vector<int>& ring) {
    const std::size_t n = ring.size();
    for (std::size_t k = 0; k < n; ++k) {
        const auto& a = verts[ring[k]];
        const auto& b = verts[ring[(k + 1) % n]];
        const auto& c = verts[ring[(k + 2) % n]];
        const double ux = static_cast<double>(b[0]) - a[0], uz = static_cast<double>(b[2]) - a[2];
        const double vx = static_cast<double>(c[0]) - b[0], vz = static_cast<double>(c[2]) - b[2];
        // Counter-clockwise from +y in navlab's convention (Newell N_y = sum z_i x_j - x_i z_j).
        const double turn = uz * vx - ux * vz;
        const double scale = std::sqrt((ux * ux + uz * uz) * (vx * vx + vz * vz));
        if (turn < -1e-6 * scale) return false;
        if (turn <= 1e-6 * scale && ux * vx + uz * vz <= 0) return false;  // straight back
    }
    return true;
}

RingPlane ring_plane(const std::vector<std::array<float, 3>>& verts, const std::vector<int>& ring) {
    RingPlane pl;
    const std::size_t count = ring.size();
    for (std::size_t k = 0; k < count; ++k) {
        const auto& p = verts[ring[k]];
        const auto& q = verts[ring[(k + 1) % count]];
        pl.n[0] += static_cast<double>(p[1]) * q[2] - static_cast<double>(p[2]) * q[1];
        pl.n[1] += static_cast<double>(p[2]) * q[0] - static_cast<double>(p[0]) * q[2];
        pl.n[2] += static_cast<double>(p[0]) * q[1] - static_cast<double>(p[1]) * q[0];
        for (int i = 0; i < 3; ++i) pl.centroid[i] += p[i] / static_cast<double>(count);
    }
    pl.length = std::sqrt(pl.n[0] * pl.n[0] + pl.n[1] * pl.n[1] + pl.n[2] * pl.n[2]);
    return pl;
}

bool convex_in_own_plane(const std::vector<std::array<float, 3>>& verts, const std::vector<int>& ring) {
    const std::size_t count = ring.size();
    const RingPlane plane = ring_plane(verts, ring);
    const double* n = plane.n;
    const double len = plane.length;
    if (len == 0) return false;
    for (std::size_t k = 0; k < count; ++k) {
        const auto& a = verts[ring[k]];
        const auto& b = verts[ring[(k + 1) % count]];
        const auto& c = verts[ring[(k + 2) % count]];
        double u[3], v[3];
        for (int i = 0; i < 3; ++i) u[i] = static_cast<double>(b[i]) - a[i], v[i] = static_cast<double>(c[i]) - b[i];
        const double turn = ((u[1] * v[2] - u[2] * v[1]) * n[0] + (u[2] * v[0] - u[0] * v[2]) * n[1] +
                             (u[0] * v[1] - u[1] * v[0]) * n[2]) / len;
        const double scale = std::sqrt((u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
        // Strictly convex corners only: a straight corner in the face's own plane is where the
        // audit's ear clipping (in that plane) finds no ear on bent faces.
        if (turn <= 1e-3 * scale) return false;
    }
    return true;
}

double ring_off_plane(const std::vector<std::array<float, 3>>& verts, const std::vector<int>& ring) {
    const RingPlane plane = ring_plane(verts, ring);
    if (plane.length == 0) return 0;
    double worst = 0;
    for (int v : ring) {
        double d = 0;
        for (int i = 0; i < 3; ++i) d += (verts[v][i] - plane.centroid[i]) * plane.n[i] / plane.length;
        worst = std::max(worst, std::abs(d));
    }
    return worst;
}

namespace {

/// Merges the triangles `group` (indices into mesh.polys) of one Recast polygon.
void merge_group(const PolyMesh& mesh, const std::vector<int>& group, double max_off_plane, int max_corners,
                 std::vector<std::vector<int>>& out) {
    std::vector<std::vector<int>> rings;
    for (int t : group) rings.push_back(mesh.polys[t]);
    std::vector<char> alive(rings.size(), 1);
    // Directed edge (u, v) -> ring owning it.
    std::map<std::pair<int, int>, int> owner;
    for (std::size_t r = 0; r < rings.size(); ++r)
        for (std::size_t k = 0; k < rings[r].size(); ++k)
            owner[{rings[r][k], rings[r][(k + 1) % rings[r].size()]}] = static_cast<int>(r);
    for (std::size_t i = 0; i < rings.size(); ++i) {
        for (std::size_t k = 0; alive[i] && k < rings[i].size(); ++k) {
            const std::vector<int>& a = rings[i];
            const int u = a[k], v = a[(k + 1) % a.size()];
            const auto it = owner.find({v, u});
            if (it == owner.end() || it->second == static_cast<int>(i) || !alive[it->second]) continue;
            const int j = it->second;
            const std::vector<int>& b = rings[j];
            int shared = 0;
            for (int x : a) shared += std::count(b.begin(), b.end(), x) > 0;
            if (shared != 2) continue;  // joining would pinch the ring
            const std::size_t jb = static_cast<std::size_t>(std::find(b.begin(), b.end(), v) - b.begin());
            if (b[(jb + 1) % b.size()] != u) continue;
            std::vector<int> joined = join_rings(a, k, b, jb);
            if (static_cast<int>(joined.size()) > max_corners || !convex_from_above(mesh.verts, joined) ||
                !convex_in_own_plane(mesh.verts, joined) || ring_off_plane(mesh.verts, joined) > max_off_plane)
                continue;
            owner.erase({u, v}), owner.erase({v, u});
            for (std::size_t m = 0; m < b.size(); ++m) {
                const auto e = std::make_pair(b[m], b[(m + 1) % b.size()]);
                if (owner.count(e)) owner[e] = static_cast<int>(i);
            }
            alive[j] = 0;
            rings[i] = std::move(joined);
            k = static_cast<std::size_t>(-1);  // scan the grown ring again from its start
        }
    }
    for (std::size_t r = 0; r < rings.size(); ++r)
        if (alive[r]) out.push_back(std::move(rings[r]));
}

}  // namespace

TileFaces merge_detail_triangles(const PolyMesh& mesh, double max_off_plane, int max_corners) {
    TileFaces t;
    t.verts = mesh.verts;
    t.recast_polygons = mesh.recast_polygons;
    t.recast_area = mesh.recast_area;
    std::map<int, std::vector<int>> by_source;  // Recast polygon -> its triangles, in order
    for (std::size_t i = 0; i < mesh.polys.size(); ++i) by_source[mesh.source_polys[i]].push_back(static_cast<int>(i));
    for (const auto& [poly, tris] : by_source) {
        merge_group(mesh, tris, max_off_plane, max_corners, t.rings);
        t.areas.resize(t.rings.size(), mesh.areas[tris.front()]);
    }
    return t;
}

}  // namespace navlab::build
