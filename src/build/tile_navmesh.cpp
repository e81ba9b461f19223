#include "build/tile_navmesh.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <numeric>

#include "build/clusters.h"
#include "build/opposites.h"
#include "formats/fromsoft/aabb_tree6.h"
#include "formats/fromsoft/cluster_graph.h"
#include "io/error.h"

namespace navlab::build {
namespace {

/// The margin as the games store it (2.4 is the float 0x40199999, one below 2.4f).
float stored_margin(FromGame game, float margin) {
    std::uint32_t bits = 0x3F8CCCCD;  // Sekiro: 1.1
    if (game == FromGame::EldenRing) bits = margin == 2.0f ? 0x40000000 : margin == 8.0f ? 0x41000000 : 0x40199999;
    float out;
    std::memcpy(&out, &bits, 4);
    return out;
}

bool inside_from_above(const TileFaces& t, const std::vector<int>& ring, float x, float z) {
    for (std::size_t k = 0; k < ring.size(); ++k) {
        const auto& a = t.verts[ring[k]];
        const auto& b = t.verts[ring[(k + 1) % ring.size()]];
        // Counter-clockwise from +y: the point is on the inner side of every edge.
        const double side = (static_cast<double>(b[2]) - a[2]) * (x - b[0]) - (static_cast<double>(b[0]) - a[0]) * (z - b[2]);
        if (side < -1e-9) return false;
    }
    return true;
}

}  // namespace

void check_tile_limits(const TileCounts& counts, FromGame game, const BuildSpec& spec, const std::string& label) {
    // Sekiro's clusterIndex (int16) is checked while the clusters grow (grow_clusters).
    auto smaller_tile = [&](double limit, double count) {
        // Faces grow with the tile's area: shrink the edge by the square root, 10 % to spare.
        const double cells = std::floor(spec.tile_size * std::sqrt(limit / count) * 0.9 / spec.cell_size);
        return std::max(8.0, cells) * spec.cell_size;
    };
    if (game == FromGame::EldenRing && counts.faces > kMaxTreeFaces)
        throw Error(fmt::format("{} faces: the AABB tree's face index holds {} (23 bits); try \"tile_size\": {}", counts.faces,
                                kMaxTreeFaces, smaller_tile(kMaxTreeFaces, static_cast<double>(counts.faces))),
                    kNoOffset, label);
    constexpr std::size_t kInt32 = 0x7FFFFFFF;
    if (counts.edges > kInt32 || counts.vertices > kInt32)
        throw Error(fmt::format("{} edges, {} vertices: indices are int32; try \"tile_size\": {}", counts.edges,
                                counts.vertices,
                                smaller_tile(kInt32, static_cast<double>(std::max(counts.edges, counts.vertices)))),
                    kNoOffset, label);
}

float face_height_at(const TileFaces& t, int face, float x, float z) {
    const RingPlane plane = ring_plane(t.verts, t.rings[face]);
    const double* n = plane.n;
    const double* c = plane.centroid;
    if (std::abs(n[1]) < 1e-12) return static_cast<float>(c[1]);
    return static_cast<float>(c[1] - (n[0] * (x - c[0]) + n[2] * (z - c[2])) / n[1]);
}

std::optional<int> face_under(const TileFaces& t, const std::array<float, 3>& point, float max_dy) {
    std::optional<int> best;
    float best_dy = max_dy;
    for (std::size_t f = 0; f < t.rings.size(); ++f) {
        if (!inside_from_above(t, t.rings[f], point[0], point[2])) continue;
        const float dy = std::abs(face_height_at(t, static_cast<int>(f), point[0], point[2]) - point[1]);
        if (dy <= best_dy) {
            if (best && dy == best_dy) continue;  // keep the first of equals
            best = static_cast<int>(f);
            best_dy = dy;
        }
    }
    return best;
}

double faces_area_from_above(const fromsoft::NavMesh& mesh) {
    double area = 0;
    for (const auto& f : mesh.faces) {
        double twice = 0;
        for (int k = 0; k < f.numEdges; ++k) {
            const auto& e = mesh.edges[f.startEdgeIndex + k];
            const auto& p = mesh.vertices[e.a];
            const auto& q = mesh.vertices[e.b];
            twice += static_cast<double>(p.z) * q.x - static_cast<double>(p.x) * q.z;
        }
        area += std::abs(twice) * 0.5;
    }
    return area;
}

fromsoft::UserEdgeSetup link_setup(FromGame game, const std::array<float, 3>& from, const std::array<float, 3>& to,
                                   const std::array<float, 3>& halfExtents, bool both_ways) {
    double dx = static_cast<double>(to[0]) - from[0], dz = static_cast<double>(to[2]) - from[2];
    const double ground = std::hypot(dx, dz);
    if (ground > 0) dx /= ground, dz /= ground;
    else dx = 1, dz = 0;
    auto box = [&](const std::array<float, 3>& at) {
        fromsoft::Obb o;
        const float cols[3][3] = {{static_cast<float>(dx), 0, static_cast<float>(dz)},
                                  {0, 1, 0},
                                  {static_cast<float>(-dz), 0, static_cast<float>(dx)}};
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) o.transform[c * 4 + r] = cols[c][r];
        o.transform[12] = at[0], o.transform[13] = at[1], o.transform[14] = at[2];
        o.transform[15] = game == FromGame::EldenRing ? 1.0f : 0.0f;
        o.halfExtents = {halfExtents[0], halfExtents[1], halfExtents[2], 0};
        return o;
    };
    fromsoft::UserEdgeSetup s;
    s.obbA = box(from);
    s.obbB = box(to);
    const double d = std::hypot(ground, static_cast<double>(to[1]) - from[1]);
    s.costAtoB = s.costBtoA = static_cast<float>(d);
    s.worldUpA = s.worldUpB = {0, 1, 0, 0};
    s.direction = both_ways ? 3 : 1;
    s.space = 1;
    s.forceAlign = 1;
    return s;
}

fromsoft::NavTagfile make_tile_tagfile(const TileFaces& tile, FromGame game, const BuildSpec& spec,
                                       const std::vector<UserEdgeIn>& user_edges,
                                       const std::vector<fromsoft::UserEdgeSetup>& setups, const std::string& label) {
    fromsoft::NavTagfile t;
    t.sdk_version = game == FromGame::Sekiro ? fromsoft::kSdkSekiro : fromsoft::kSdkEldenRing;
    fromsoft::NavMesh& mesh = t.mesh;
    for (std::size_t f = 0; f < tile.rings.size(); ++f) {
        const auto& r = tile.rings[f];
        if (r.size() > static_cast<std::size_t>(kMaxFaceCorners))
            throw Error(fmt::format("face has {} corners (at most {})", r.size(), kMaxFaceCorners), kNoOffset,
                        fmt::format("{}: face {}", label, f));
        fromsoft::Face face;
        face.startEdgeIndex = static_cast<std::int32_t>(mesh.edges.size());
        face.numEdges = static_cast<std::int16_t>(r.size());
        mesh.faces.push_back(face);
        for (std::size_t k = 0; k < r.size(); ++k) {
            fromsoft::Edge e;
            e.a = r[k];
            e.b = r[(k + 1) % r.size()];
            mesh.edges.push_back(e);
        }
        const std::uint8_t area = tile.areas[f];
        mesh.faceData.push_back(area == kWalkableArea || area == 0 ? spec.faceData : spec.volumes.at(area - 1).faceData);
    }
    link_opposites(mesh);
    for (const auto& v : tile.verts) mesh.vertices.push_back({v[0], v[1], v[2], 1.0f});
    mesh.edgeData.assign(mesh.edges.size(), 0);

    // User edges after the regular ones, each face's as one block, faces in order.
    std::vector<int> order(user_edges.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return user_edges[x].face < user_edges[y].face; });
    std::vector<std::uint32_t> slot(user_edges.size());
    for (std::size_t i = 0; i < order.size(); ++i) slot[order[i]] = static_cast<std::uint32_t>(mesh.edges.size() + i);
    for (int i : order) {
        const UserEdgeIn& u = user_edges[i];
        fromsoft::Face& face = mesh.faces.at(u.face);
        if (face.numUserEdges == 0) face.startUserEdgeIndex = static_cast<std::int32_t>(slot[i]);
        ++face.numUserEdges;
        fromsoft::Edge e;
        e.a = static_cast<std::int32_t>(mesh.vertices.size());
        mesh.vertices.push_back({u.a[0], u.a[1], u.a[2], 1.0f});
        e.b = static_cast<std::int32_t>(mesh.vertices.size());
        mesh.vertices.push_back({u.b[0], u.b[1], u.b[2], 1.0f});
        if (u.partner >= 0) {
            e.oppositeEdge = slot[u.partner];
            e.oppositeFace = static_cast<std::uint32_t>(user_edges[u.partner].face);
        }
        e.flags = u.flags;
        mesh.edges.push_back(e);
        mesh.edgeData.push_back(static_cast<std::int32_t>(u.edgeData));
    }
    check_tile_limits({mesh.faces.size(), mesh.edges.size(), mesh.vertices.size()}, game, spec, label);

    const float margin = stored_margin(game, spec.aabb_margin);
    if (!mesh.vertices.empty()) {
        fromsoft::Vec4 lo = mesh.vertices[0], hi = lo;
        for (const auto& v : mesh.vertices) {
            lo = {std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z), 0};
            hi = {std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z), 0};
        }
        mesh.aabb.min = {lo.x - margin, lo.y - margin, lo.z - margin, -margin};
        mesh.aabb.max = {hi.x + margin, hi.y + margin, hi.z + margin, margin};
    }
    mesh.has_clearance_cache_seeding = !mesh.faces.empty();  // as every game mesh with faces
    if (game == FromGame::Sekiro) {
        const int target = static_cast<int>(std::lround(kSekiroFacesPerCluster));
        try {
            grow_clusters(mesh, [&] { return target; });
        } catch (Error& e) {
            throw e.in(label);
        }
        t.graph = fromsoft::make_directed_graph(mesh, fromsoft::build_cluster_graph(mesh));
    } else {
        t.mediator = fromsoft::build_query_mediator(mesh);
    }
    if (!setups.empty()) t.user_edge_setups = setups;
    return t;
}

}  // namespace navlab::build
