#include "synth/shape.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "build/opposites.h"
#include "build/tile_faces.h"

namespace navlab::synth {
namespace {

using Ring = std::vector<int>;
using Point = std::array<float, 3>;

std::uint64_t edge_key(int a, int b) {
    if (a > b) std::swap(a, b);
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

/// Newell normal (not normalised) and corner centroid of a ring.
struct RingPlane {
    double n[3] = {0, 0, 0};
    double c[3] = {0, 0, 0};
};

template <class CornerFn>
RingPlane plane_of(std::size_t count, CornerFn corner) {
    RingPlane pl;
    for (std::size_t k = 0; k < count; ++k) {
        Point p = corner(k), q = corner((k + 1) % count);
        pl.n[0] += (static_cast<double>(p[1]) * q[2] - static_cast<double>(p[2]) * q[1]);
        pl.n[1] += (static_cast<double>(p[2]) * q[0] - static_cast<double>(p[0]) * q[2]);
        pl.n[2] += (static_cast<double>(p[0]) * q[1] - static_cast<double>(p[1]) * q[0]);
        for (int i = 0; i < 3; ++i) pl.c[i] += p[i];
    }
    for (double& v : pl.c) v /= static_cast<double>(count);
    double len = std::sqrt(pl.n[0] * pl.n[0] + pl.n[1] * pl.n[1] + pl.n[2] * pl.n[2]);
    if (len > 0)
        for (double& v : pl.n) v /= len;
    return pl;
}

double signed_distance(const RingPlane& pl, const Point& p) {
    return (p[0] - pl.c[0]) * pl.n[0] + (p[1] - pl.c[1]) * pl.n[1] + (p[2] - pl.c[2]) * pl.n[2];
}

/// The mesh being shaped: rings of vertex indices, each with its Recast region.
struct Work {
    std::vector<Point> verts;
    std::vector<Ring> rings;
    std::vector<std::uint16_t> regions;

    RingPlane plane(const Ring& r) const {
        return plane_of(r.size(), [&](std::size_t k) { return verts[r[k]]; });
    }
    double off_plane(const Ring& r) const {
        RingPlane pl = plane(r);
        double d = 0;
        for (int v : r) d = std::max(d, std::abs(signed_distance(pl, verts[v])));
        return d;
    }
};

/// Picks `count` polygons of the tile as one irregular blob (random growth from a random
/// polygon; a new seed when the blob's component is used up).
std::vector<int> crop(const LibraryTile& tile, int count, Rng& rng) {
    const int n = static_cast<int>(tile.mesh.polys.size());
    count = std::min(count, n);
    std::vector<char> taken(n, 0);
    std::vector<int> chosen, frontier;
    while (static_cast<int>(chosen.size()) < count) {
        if (frontier.empty()) {
            int start = static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
            while (taken[start]) start = (start + 1) % n;
            taken[start] = 1;
            frontier.push_back(start);
        }
        std::size_t pick = rng.below(static_cast<std::uint32_t>(frontier.size()));
        int p = frontier[pick];
        frontier[pick] = frontier.back();
        frontier.pop_back();
        chosen.push_back(p);
        for (int q : tile.neighbours[p])
            if (!taken[q]) {
                taken[q] = 1;
                frontier.push_back(q);
            }
    }
    std::sort(chosen.begin(), chosen.end());  // keep Recast's polygon order
    return chosen;
}

Work extract(const LibraryTile& tile, const std::vector<int>& chosen, const MeshRecipe& recipe) {
    Work w;
    std::vector<int> remap(tile.mesh.verts.size(), -1);
    for (int p : chosen) {
        Ring ring;
        for (int v : tile.mesh.polys[p]) {
            if (remap[v] < 0) {
                remap[v] = static_cast<int>(w.verts.size());
                Point q = tile.mesh.verts[v];
                for (int t = 0; t < (recipe.quarter_turns & 3); ++t) q = {q[2], q[1], -q[0]};  // proper rotation
                w.verts.push_back({q[0] + recipe.offset[0], q[1] + recipe.offset[1], q[2] + recipe.offset[2]});
            }
            ring.push_back(remap[v]);
        }
        w.rings.push_back(std::move(ring));
        w.regions.push_back(tile.mesh.regions[p]);
    }
    return w;
}

/// Which faces use each undirected edge (at most two are remembered; more marks it shared).
struct EdgeUse {
    int face[2] = {-1, -1};
    int count = 0;
};
using EdgeMap = std::unordered_map<std::uint64_t, EdgeUse>;

EdgeMap edge_map(const std::vector<Ring>& rings, const std::vector<char>* alive = nullptr) {
    EdgeMap map;
    map.reserve(rings.size() * 4);
    for (std::size_t f = 0; f < rings.size(); ++f) {
        if (alive && !(*alive)[f]) continue;
        const Ring& r = rings[f];
        for (std::size_t k = 0; k < r.size(); ++k) {
            EdgeUse& u = map[edge_key(r[k], r[(k + 1) % r.size()])];
            if (u.count < 2) u.face[u.count] = static_cast<int>(f);
            ++u.count;
        }
    }
    return map;
}

/// Whether a ring is simple in its own (Newell) plane: no two edges cross or touch there
/// (a small tolerance keeps clear of near-misses). Faces bent over a step can fold in that
/// plane though simple from above, and ear clipping in the Newell plane (the audit's
/// triangulation) would then turn a triangle against the face.
bool simple_in_own_plane(const Work& w, const Ring& r) {
    const std::size_t n = r.size();
    if (n <= 3) return true;
    const RingPlane pl = w.plane(r);
    // An orthonormal basis (u, v) of the plane.
    double u[3] = {pl.n[1], -pl.n[0], 0};
    if (std::abs(pl.n[2]) > 0.9) u[0] = 1, u[1] = 0, u[2] = 0;
    const double d = u[0] * pl.n[0] + u[1] * pl.n[1] + u[2] * pl.n[2];
    for (int i = 0; i < 3; ++i) u[i] -= d * pl.n[i];
    const double len = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (len == 0) return false;
    for (double& x : u) x /= len;
    const double v[3] = {pl.n[1] * u[2] - pl.n[2] * u[1], pl.n[2] * u[0] - pl.n[0] * u[2], pl.n[0] * u[1] - pl.n[1] * u[0]};
    std::vector<std::array<double, 2>> q(n);
    for (std::size_t k = 0; k < n; ++k) {
        const Point& p = w.verts[r[k]];
        q[k] = {p[0] * u[0] + p[1] * u[1] + p[2] * u[2], p[0] * v[0] + p[1] * v[1] + p[2] * v[2]};
    }
    auto cross = [](const std::array<double, 2>& a, const std::array<double, 2>& b, const std::array<double, 2>& c) {
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    };
    auto seg_len = [&](std::size_t i) { return std::hypot(q[(i + 1) % n][0] - q[i][0], q[(i + 1) % n][1] - q[i][1]); };
    for (std::size_t i = 0; i < n; ++i) {
        const auto &a = q[i], &b = q[(i + 1) % n];
        const double t_a = 1e-5 * seg_len(i);  // 10 micrometres off the line, times its length
        for (std::size_t j = i + 1; j < n; ++j) {
            const auto &c = q[j], &e = q[(j + 1) % n];
            const double t_c = 1e-5 * seg_len(j);
            if (j == i + 1 || (i == 0 && j == n - 1)) {
                // Neighbouring edges share a corner; they must not fold back onto each other.
                const auto& near = j == i + 1 ? a : c;
                const auto& mid = j == i + 1 ? b : a;
                const auto& far = j == i + 1 ? e : b;
                const double dot = (mid[0] - near[0]) * (far[0] - mid[0]) + (mid[1] - near[1]) * (far[1] - mid[1]);
                if (std::abs(cross(near, mid, far)) <= t_a * seg_len(j) && dot < 0) return false;
                continue;
            }
            const double c1 = cross(a, b, c), c2 = cross(a, b, e), c3 = cross(c, e, a), c4 = cross(c, e, b);
            const bool apart = (c1 > t_a && c2 > t_a) || (c1 < -t_a && c2 < -t_a) || (c3 > t_c && c4 > t_c) ||
                               (c3 < -t_c && c4 < -t_c);
            if (apart) continue;
            // Not apart by orientation: they cross, touch, or lie on one line (then the boxes tell).
            const double m = 1e-5;
            if (std::max(a[0], b[0]) + m < std::min(c[0], e[0]) || std::max(c[0], e[0]) + m < std::min(a[0], b[0]) ||
                std::max(a[1], b[1]) + m < std::min(c[1], e[1]) || std::max(c[1], e[1]) + m < std::min(a[1], b[1]))
                continue;
            return false;
        }
    }
    return true;
}

/// Whether a counter-clockwise ring turns left (or goes straight) at every corner, seen from
/// above: turn t = u_z w_x - u_x w_z with u, w the edges into and out of the corner.
bool convex_from_above(const Work& w, const Ring& r) {
    const std::size_t n = r.size();
    for (std::size_t k = 0; k < n; ++k) {
        const Point& p = w.verts[r[(k + n - 1) % n]];
        const Point& q = w.verts[r[k]];
        const Point& s = w.verts[r[(k + 1) % n]];
        const double ux = q[0] - p[0], uz = q[2] - p[2], wx = s[0] - q[0], wz = s[2] - q[2];
        if (uz * wx - ux * wz < 0) return false;
    }
    return true;
}

/// Merges random neighbouring faces until `merges` are done. Two faces merge only when they
/// share exactly one edge and no other corner, so the joined ring is simple. Results that are
/// not convex seen from above are accepted only while they stay under `non_convex_share` of
/// the final faces (and freely once convex merges run out, so the face count is always met).
/// Faces that would bend more than half the game's off-plane maximum are not merged.
void merge_faces(Work& w, int merges, int max_edges, double non_convex_share, float max_off_plane, Rng& rng) {
    if (merges <= 0) return;
    const int n = static_cast<int>(w.rings.size());
    std::vector<char> alive(n, 1), concave(n, 0);
    EdgeMap map = edge_map(w.rings);
    const double concave_cap = non_convex_share * (n - merges);
    int concave_count = 0;
    const int budget = merges * 80;
    for (int attempts = 0; merges > 0 && attempts < budget * 2; ++attempts) {
        int fa = static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
        if (!alive[fa]) continue;
        Ring& a = w.rings[fa];
        std::size_t ia = rng.below(static_cast<std::uint32_t>(a.size()));
        int u = a[ia], v = a[(ia + 1) % a.size()];
        auto it = map.find(edge_key(u, v));
        if (it->second.count != 2) continue;
        int fb = it->second.face[0] == fa ? it->second.face[1] : it->second.face[0];
        if (fb == fa || !alive[fb]) continue;
        const Ring& b = w.rings[fb];
        if (static_cast<int>(a.size() + b.size()) - 2 > max_edges) continue;
        int shared = 0;
        for (int x : a) shared += static_cast<int>(std::count(b.begin(), b.end(), x));
        auto jt = std::find(b.begin(), b.end(), v);
        std::size_t jb = static_cast<std::size_t>(jt - b.begin());
        if (shared != 2 || b[(jb + 1) % b.size()] != u) continue;
        Ring joined = build::join_rings(a, ia, b, jb);
        if (w.off_plane(joined) > max_off_plane * 0.5) continue;  // keep room for the pushed corners
        if (!simple_in_own_plane(w, joined)) continue;
        const bool is_concave = !convex_from_above(w, joined);
        const bool stuck = attempts >= budget;
        const int concave_after = concave_count - concave[fa] - concave[fb] + is_concave;
        if (is_concave && !stuck && concave_after > concave_cap) continue;
        for (std::size_t k = 0; k < b.size(); ++k) {
            EdgeUse& e = map[edge_key(b[k], b[(k + 1) % b.size()])];
            for (int& f : e.face)
                if (f == fb) f = fa;
        }
        map.erase(it);
        a = std::move(joined);
        alive[fb] = 0;
        concave[fa] = is_concave;
        concave_count = concave_after;
        --merges;
    }
    std::size_t out = 0;
    for (std::size_t f = 0; f < w.rings.size(); ++f)
        if (alive[f]) {
            if (out != f) w.rings[out] = std::move(w.rings[f]);  // self-move would empty it
            w.regions[out++] = w.regions[f];
        }
    w.rings.resize(out);
    w.regions.resize(out);
}

/// Pushes corners off plane: small noise everywhere, larger bumps on a few corners, then
/// faces beyond the game's maximum are pulled back towards their plane.
void push_off_plane(Work& w, float cap, Rng& rng) {
    const std::vector<Point> original = w.verts;
    for (Point& p : w.verts) {
        p[1] += rng.range(-0.03, 0.03);
        if (rng.chance(0.01)) p[1] += rng.range(-1.0, 1.0) * cap;
    }
    const double limit = cap * 0.99;
    for (int pass = 0; pass < 12; ++pass) {
        bool changed = false;
        for (const Ring& r : w.rings) {
            if (w.off_plane(r) <= limit) continue;
            RingPlane pl = w.plane(r);
            if (std::abs(pl.n[1]) < 0.2) continue;
            const double pull = pass < 8 ? 0.6 : 1.0;
            for (int v : r) w.verts[v][1] -= static_cast<float>(pull * signed_distance(pl, w.verts[v]) / pl.n[1]);
            changed = true;
        }
        if (!changed) break;
    }
    // Faces that fold in their own plane get their corners' original heights back (the
    // merged faces were simple there), until none folds.
    for (bool again = true; again;) {
        again = false;
        for (const Ring& r : w.rings)
            if (!simple_in_own_plane(w, r))
                for (int v : r)
                    if (w.verts[v][1] != original[v][1]) {
                        w.verts[v][1] = original[v][1];
                        again = true;
                    }
    }
}

void turn_some_clockwise(Work& w, double share, Rng& rng) {
    for (Ring& r : w.rings)
        if (rng.chance(share)) std::reverse(r.begin(), r.end());
}

/// Adds `count` degenerate faces: a triangle standing on a boundary edge a->b, its third
/// corner straight above a, so it has no area seen from above (N_y is exactly 0).
void add_slivers(Work& w, int count, Rng& rng) {
    if (count <= 0) return;
    EdgeMap map = edge_map(w.rings);
    const int n = static_cast<int>(w.rings.size());
    for (int attempts = count * 50; count > 0 && attempts > 0; --attempts) {
        int f = static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
        const Ring& r = w.rings[f];
        std::size_t k = rng.below(static_cast<std::uint32_t>(r.size()));
        int a = r[k], b = r[(k + 1) % r.size()];
        EdgeUse& use = map[edge_key(a, b)];
        if (use.count != 1) continue;
        use.count = 2;  // now shared with the sliver
        Point top = w.verts[a];
        top[1] += rng.range(0.2, 0.6);
        w.verts.push_back(top);
        w.rings.push_back({b, a, static_cast<int>(w.verts.size()) - 1});
        w.regions.push_back(w.regions[f]);
        --count;
    }
}

std::int32_t face_data_for(std::uint16_t region, const GameStyle& style, std::uint64_t seed) {
    Rng r(derive_seed(seed, region));
    const auto& values = style.face_data_values;
    if (r.chance(0.7)) return values[0];
    return values[1 + r.below(static_cast<std::uint32_t>(values.size() - 1))];
}

float stale_w(Rng& rng, const std::vector<Point>& verts) {
    double u = rng.unit();
    if (u < 0.85) return 1.0f;
    if (u < 0.95) return 0.99999988f;
    return std::abs(verts[rng.below(static_cast<std::uint32_t>(verts.size()))][0]);
}

fromsoft::NavMesh lay_out(const Work& w, const GameStyle& style, Rng& rng) {
    fromsoft::NavMesh mesh;
    for (std::size_t f = 0; f < w.rings.size(); ++f) {
        fromsoft::Face face;
        face.startEdgeIndex = static_cast<std::int32_t>(mesh.edges.size());
        face.numEdges = static_cast<std::int16_t>(w.rings[f].size());
        mesh.faces.push_back(face);
        const Ring& r = w.rings[f];
        for (std::size_t k = 0; k < r.size(); ++k) {
            fromsoft::Edge e;
            e.a = r[k];
            e.b = r[(k + 1) % r.size()];
            mesh.edges.push_back(e);
        }
    }
    build::link_opposites(mesh);
    for (const Point& p : w.verts) mesh.vertices.push_back({p[0], p[1], p[2], stale_w(rng, w.verts)});
    const std::uint64_t data_seed = rng.next();
    for (std::uint16_t region : w.regions) mesh.faceData.push_back(face_data_for(region, style, data_seed));
    mesh.edgeData.assign(mesh.edges.size(), 0);
    return mesh;
}

}  // namespace

LibraryTile make_library_tile(PolyMesh mesh) {
    LibraryTile tile;
    EdgeMap map = edge_map(mesh.polys);
    tile.neighbours.resize(mesh.polys.size());
    for (const auto& [key, use] : map)
        if (use.count == 2 && use.face[0] != use.face[1]) {
            tile.neighbours[use.face[0]].push_back(use.face[1]);
            tile.neighbours[use.face[1]].push_back(use.face[0]);
        }
    for (auto& n : tile.neighbours) std::sort(n.begin(), n.end());  // independent of hash order
    tile.mesh = std::move(mesh);
    return tile;
}

fromsoft::NavMesh shape_navmesh(const LibraryTile& tile, const MeshRecipe& recipe, const GameStyle& style) {
    Rng rng(recipe.seed);
    int slivers = static_cast<int>(std::floor(recipe.faces * style.degenerate_share + rng.unit()));
    slivers = std::min(slivers, recipe.faces / 4);
    const int kept = recipe.faces - slivers;
    // Merging T triangles into F faces leaves 3T - 2(T - F) edges, so T = F (edges_per_face - 2).
    const int raw = static_cast<int>(std::lround(kept * (style.edges_per_face - 2)));
    Work w = extract(tile, crop(tile, raw, rng), recipe);
    merge_faces(w, static_cast<int>(w.rings.size()) - kept, style.max_merged_edges, style.non_convex_share,
                style.max_off_plane, rng);
    push_off_plane(w, style.max_off_plane, rng);
    turn_some_clockwise(w, style.clockwise_share, rng);
    add_slivers(w, slivers, rng);
    return lay_out(w, style, rng);
}

fromsoft::Aabb mesh_aabb(const fromsoft::NavMesh& mesh, std::uint32_t margin_bits, bool exact, Rng& rng) {
    float margin;
    std::memcpy(&margin, &margin_bits, 4);
    fromsoft::Aabb box;
    if (mesh.vertices.empty()) {
        box.min.w = -margin;
        box.max.w = margin;
        return box;
    }
    float lo[3] = {mesh.vertices[0].x, mesh.vertices[0].y, mesh.vertices[0].z}, hi[3] = {lo[0], lo[1], lo[2]};
    for (const auto& v : mesh.vertices) {
        const float p[3] = {v.x, v.y, v.z};
        for (int i = 0; i < 3; ++i) {
            lo[i] = std::min(lo[i], p[i]);
            hi[i] = std::max(hi[i], p[i]);
        }
    }
    float grow[6] = {};
    if (!exact) {
        // "Larger": the real boxes reach past the grown bounds, on at least one lane.
        int lane = static_cast<int>(rng.below(6));
        for (int i = 0; i < 6; ++i)
            if (i == lane || rng.chance(0.4)) grow[i] = rng.range(0.25, 12);
    }
    box.min = {lo[0] - margin - grow[0], lo[1] - margin - grow[1], lo[2] - margin - grow[2], -margin};
    box.max = {hi[0] + margin + grow[3], hi[1] + margin + grow[4], hi[2] + margin + grow[5], margin};
    return box;
}

double face_off_plane(const fromsoft::NavMesh& mesh, int face) {
    const fromsoft::Face& f = mesh.faces[face];
    auto corner = [&](std::size_t k) {
        const auto& v = mesh.vertices[mesh.edges[f.startEdgeIndex + k].a];
        return Point{v.x, v.y, v.z};
    };
    RingPlane pl = plane_of(static_cast<std::size_t>(f.numEdges), corner);
    double d = 0;
    for (int k = 0; k < f.numEdges; ++k) d = std::max(d, std::abs(signed_distance(pl, corner(k))));
    return d;
}

}  // namespace navlab::synth
