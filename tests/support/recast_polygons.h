// The Recast-built polygons bench_query and the query tests share: Recast's welded detail
// triangles of a synth scene, quantised onto Detour's 1 cm grid, without slivers and folds,
// merged into convex polygons of at most 6 corners; and the same polygons as an hkaiNavMesh.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "build/recast_mesh.h"
#include "formats/fromsoft/navmesh.h"
#include "query/navmesh_query.h"
#include "support/detour_mesh.h"
#include "synth/scene.h"

namespace navlab::testing {

using query::Vec3;

/// The polygons as an hkaiNavMesh: faces in order, regular edges with mutual opposites.
inline fromsoft::NavMesh to_navmesh(const std::vector<Vec3>& verts, const std::vector<std::vector<std::uint32_t>>& polys) {
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
inline std::vector<std::vector<std::uint32_t>> merge_convex(const std::vector<std::array<float, 3>>& v,
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

/// Recast polygons of a scene, ready for both libraries.
struct RecastPolygons {
    std::vector<std::array<float, 3>> verts;        ///< on Detour's grid when the mesh fits one tile
    std::vector<std::vector<std::uint32_t>> polys;  ///< merged, convex seen from above, <= 6 corners
    std::size_t triangles = 0;                      ///< Recast's welded detail triangles
    std::size_t slivers = 0;                        ///< triangles dropped: flat or turned over on the grid
    std::size_t folds = 0;                          ///< triangles dropped: overlapping an earlier one
    bool one_tile = false;                          ///< fits one Detour tile (16-bit indices, 15-bit neighbours)
    float cell = 0.01f;                             ///< Detour's cs (x, z) the vertices are quantised with; ch is 1 cm
};

/// Builds the polygons of synth::make_scene(params, seed) (see the file comment). Recast's
/// welded detail triangles may fold: two triangles on the same side of one edge (a directed
/// edge used twice), which overlap seen from above; the later one is dropped, so the mesh is
/// a proper planar partition where it is single-level.
inline RecastPolygons make_recast_polygons(const synth::SceneParams& params, std::uint64_t seed) {
    RecastPolygons out;
    synth::TriangleSoup scene = synth::make_scene(params, seed);
    build::PolyMesh pm = build::build_recast_mesh(scene, build::RecastParams{});
    std::vector<std::vector<std::uint32_t>> polys;
    for (const auto& r : pm.polys) polys.push_back({std::uint32_t(r[0]), std::uint32_t(r[1]), std::uint32_t(r[2])});
    out.triangles = polys.size();
    // Quantise onto Detour's grid first, so the merged polygons are convex in the coordinates
    // both libraries see (quantising is stable: a second pass gives the same values). The step
    // is 1 cm, 2 cm for scenes wider than one tile spans at 1 cm (655 m).
    float lo = INFINITY, hi = -INFINITY;
    for (const auto& v : pm.verts) lo = std::min({lo, v[0], v[2]}), hi = std::max({hi, v[0], v[2]});
    out.cell = hi - lo < 650 ? 0.01f : 0.02f;
    if (pm.verts.size() < 65535 && polys.size() < 65535) {
        const auto detour = make_detour_mesh(pm.verts, polys, out.cell);  // named: a temporary ends before the loop
        for (const Vec3& v : detour->verts) out.verts.push_back({float(v.x), float(v.y), float(v.z)});
    } else  // too many triangles for a Detour tile: the same steps without one
        out.verts = quantise_like_detour(pm.verts, out.cell, 0.01f);
    const auto& gv = out.verts;
    // Quantising turns a few slivers over or flat; both libraries get the mesh without them.
    std::erase_if(polys, [&](const std::vector<std::uint32_t>& t) {
        const auto &a = gv[t[0]], &b = gv[t[1]], &c = gv[t[2]];
        return (double(b[0]) - a[0]) * (double(c[2]) - a[2]) - (double(b[2]) - a[2]) * (double(c[0]) - a[0]) >= 0;
    });
    out.slivers = out.triangles - polys.size();
    std::map<std::pair<std::uint32_t, std::uint32_t>, bool> used;
    std::erase_if(polys, [&](const std::vector<std::uint32_t>& t) {
        for (int k = 0; k < 3; ++k)
            if (used.count({t[k], t[(k + 1) % 3]})) return true;
        for (int k = 0; k < 3; ++k) used[{t[k], t[(k + 1) % 3]}] = true;
        return false;
    });
    out.folds = out.triangles - out.slivers - polys.size();
    out.polys = merge_convex(out.verts, std::move(polys));
    out.one_tile = out.verts.size() < 65535 && out.polys.size() < 32767;
    return out;
}

/// The corner centroid of polygon p seen from above, lifted onto the polygon's fan from
/// corner 0 (the surface both libraries use for a polygon without detail triangles).
inline Vec3 polygon_centre(const DetourMesh& dt, std::uint32_t p) {
    const auto& poly = dt.polys[p];
    Vec3 c{};
    double n = static_cast<double>(poly.size());
    for (std::uint32_t v : poly) c = {c.x + dt.verts[v].x / n, 0, c.z + dt.verts[v].z / n};
    const Vec3& a = dt.verts[poly[0]];
    for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
        const Vec3 &b = dt.verts[poly[k]], &d = dt.verts[poly[k + 1]];
        double det = (b.x - a.x) * (d.z - a.z) - (b.z - a.z) * (d.x - a.x);
        double u = ((c.x - a.x) * (d.z - a.z) - (c.z - a.z) * (d.x - a.x)) / det;
        double w = ((b.x - a.x) * (c.z - a.z) - (b.z - a.z) * (c.x - a.x)) / det;
        if (u >= -1e-12 && w >= -1e-12 && u + w <= 1 + 1e-12) {
            c.y = a.y + u * (b.y - a.y) + w * (d.y - a.y);
            break;
        }
    }
    return c;
}

/// A query between the centres of polygons a and b.
struct CentrePair {
    std::uint32_t a, b;
    Vec3 s, e;
};

/// bench_query's fixed random pairs: polygon centres in one island (face = polygon), drawn
/// from mt19937_64(1234).
inline std::vector<CentrePair> centre_pairs(const DetourMesh& dt, const query::NavMeshQuery& q, std::size_t count) {
    std::mt19937_64 rng(1234);
    std::vector<CentrePair> pairs;
    const std::size_t n = dt.polys.size();
    for (std::size_t tries = 0; pairs.size() < count && tries < count * 50; ++tries) {
        auto a = static_cast<std::uint32_t>(rng() % n), b = static_cast<std::uint32_t>(rng() % n);
        if (q.island_of(a) != q.island_of(b)) continue;
        pairs.push_back({a, b, polygon_centre(dt, a), polygon_centre(dt, b)});
    }
    return pairs;
}

}  // namespace navlab::testing
