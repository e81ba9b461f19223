#include "export/detour_export.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>

#include "io/byte_writer.h"
#include "io/error.h"

namespace navlab::exporter {
namespace {

constexpr int kNvp = DT_VERTS_PER_POLYGON;  // 6
constexpr std::int32_t kSetMagic = 'M' << 24 | 'S' << 16 | 'E' << 8 | 'T';
constexpr std::int32_t kSetVersion = 1;
constexpr std::uint16_t kNullIndex = 0xFFFF;
constexpr std::size_t kMaxTileVertices = 0xFFFE;  // 0xFFFF marks an unused polygon corner
constexpr std::size_t kMaxTilePolygons = 0x7FFF;  // neighbour words with bit 15 are portals
constexpr float kOffMeshRadius = 0.25f;           // metres; user edges end on face centres
// Detour converts positions to integer cells and BV-tree boxes with plain casts: a coordinate
// of 1e35 (a damaged vertex) made those casts undefined and addTile() read out of bounds.
// Game levels span kilometres; ±1e7 m leaves every product Detour forms inside a float.
constexpr float kMaxCoordinate = 1e7f;

using Ring = std::vector<std::uint32_t>;

/// Twice the signed area of (a, b, c) in the xz plane (Detour's walking plane).
double area_xz(const Point3& a, const Point3& b, const Point3& c) {
    return (double{b[2]} - a[2]) * (double{c[0]} - a[0]) - (double{b[0]} - a[0]) * (double{c[2]} - a[2]);
}

int sign(double v) { return (v > 0) - (v < 0); }

/// Twice the signed area of a ring in xz; positive = counter-clockwise seen from +y (Newell
/// N_y > 0), the winding Havok stores and Detour's portals and raycasts expect.
double ring_area_xz(const std::vector<Point3>& v, const std::vector<std::uint32_t>& ring) {
    double s = 0;
    for (std::size_t k = 0; k < ring.size(); ++k) {
        const Point3& p = v[ring[k]];
        const Point3& q = v[ring[(k + 1) % ring.size()]];
        s += double{p[2]} * q[0] - double{p[0]} * q[2];
    }
    return s;
}

/// Whether `ring` is strictly convex in xz with turns of sign `s`, without repeated corners.
bool convex_xz(const std::vector<Point3>& v, const Ring& ring, int s) {
    const std::size_t n = ring.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (std::count(ring.begin(), ring.end(), ring[i]) != 1) return false;
        if (sign(area_xz(v[ring[(i + n - 1) % n]], v[ring[i]], v[ring[(i + 1) % n]])) != s) return false;
    }
    return true;
}

/// The ring made of `a` and `b` joined along a's edge ea (a[ea] -> a[ea+1]) = b's edge eb reversed.
Ring join(const Ring& a, std::size_t ea, const Ring& b, std::size_t eb) {
    Ring out;
    for (std::size_t i = 0; i + 1 < a.size(); ++i) out.push_back(a[(ea + 1 + i) % a.size()]);
    for (std::size_t i = 0; i + 1 < b.size(); ++i) out.push_back(b[(eb + 1 + i) % b.size()]);
    return out;
}

/// One face's triangles merged greedily (longest shared edge first, as Recast merges) into
/// convex polygons of at most 6 corners. Triangles with no area in xz stay alone.
std::vector<Ring> convex_polygons(const SceneMember& m, std::size_t first_triangle, std::size_t end_triangle) {
    std::vector<Ring> polys;
    std::vector<int> turn;
    for (std::size_t t = first_triangle; t < end_triangle; ++t) {
        const auto& tri = m.triangles[t];
        polys.push_back({tri[0], tri[1], tri[2]});
        turn.push_back(sign(area_xz(m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]])));
    }
    for (;;) {
        double best_length = -1;
        std::size_t bi = 0, bj = 0;
        Ring best;
        for (std::size_t i = 0; i < polys.size(); ++i)
            for (std::size_t j = i + 1; j < polys.size(); ++j) {
                if (turn[i] == 0 || turn[i] != turn[j] || polys[i].size() + polys[j].size() - 2 > kNvp) continue;
                for (std::size_t ea = 0; ea < polys[i].size(); ++ea)
                    for (std::size_t eb = 0; eb < polys[j].size(); ++eb) {
                        const auto& a = polys[i];
                        const auto& b = polys[j];
                        if (a[ea] != b[(eb + 1) % b.size()] || a[(ea + 1) % a.size()] != b[eb]) continue;
                        Ring joined = join(a, ea, b, eb);
                        if (!convex_xz(m.vertices, joined, turn[i])) continue;
                        const Point3& p = m.vertices[a[ea]];
                        const Point3& q = m.vertices[b[eb]];
                        const double length = std::hypot(p[0] - q[0], p[2] - q[2]);
                        if (length > best_length) best_length = length, bi = i, bj = j, best = std::move(joined);
                    }
            }
        if (best_length < 0) return polys;
        polys[bi] = std::move(best);
        polys.erase(polys.begin() + static_cast<std::ptrdiff_t>(bj));
        turn.erase(turn.begin() + static_cast<std::ptrdiff_t>(bj));
    }
}

struct Bounds {
    Point3 min{std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
    Point3 max{-std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()};
    void add(const Point3& p) {
        for (int i = 0; i < 3; ++i) min[i] = std::min(min[i], p[i]), max[i] = std::max(max[i], p[i]);
    }
    bool empty() const { return min[0] > max[0]; }
};

/// One tile being assembled: welded quantised vertices, polygons, off-mesh connections.
struct TileData {
    std::vector<std::uint16_t> verts;  // x, y, z quanta
    /// Quantised position (and welding scope) -> tile vertex.
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint16_t> weld;
    std::vector<Ring> polys;           // tile vertex indices
    /// Per polygon side, the polygon the navmesh's own opposites put across it (-1 none):
    /// used where no other polygon shares the side's two corners (T-junctions).
    std::vector<std::array<std::int32_t, kNvp>> across;
    std::vector<float> off_verts, off_radius;
    std::vector<std::uint16_t> off_flags;
    std::vector<std::uint8_t> off_areas, off_dir;
    std::vector<std::uint32_t> off_ids;
};

struct Quantiser {
    Point3 origin;
    float cs = 1, ch = 1;
    std::array<std::uint16_t, 3> operator()(const Point3& p) const {
        auto q = [](float v, float o, float step) {
            return static_cast<std::uint16_t>(std::clamp(std::lround((v - o) / step), 0L, 65535L));
        };
        return {q(p[0], origin[0], cs), q(p[1], origin[1], ch), q(p[2], origin[2], cs)};
    }
};

/// The tile vertex at quantised position `q`; vertices weld only inside one `scope`.
std::uint16_t tile_vertex(TileData& tile, std::uint32_t scope, const std::array<std::uint16_t, 3>& q) {
    const std::uint64_t key = std::uint64_t{q[0]} << 32 | std::uint64_t{q[1]} << 16 | q[2];
    auto [it, added] = tile.weld.emplace(std::pair{scope, key}, static_cast<std::uint16_t>(tile.verts.size() / 3));
    if (added) tile.verts.insert(tile.verts.end(), q.begin(), q.end());
    return it->second;
}

/// Detour polygon records as rcPolyMesh holds them: nvp corner indices, then nvp neighbour
/// words (the polygon index; 0xFFFF, a border with direction 0xF, for a wall):
/// the polygon sharing the side's two (welded) corners, else the one the stored opposite names.
std::vector<std::uint16_t> polygon_records(const TileData& tile) {
    std::vector<std::uint16_t> out(tile.polys.size() * 2 * kNvp, kNullIndex);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::pair<std::size_t, std::size_t>>> sides;
    for (std::size_t p = 0; p < tile.polys.size(); ++p) {
        const Ring& r = tile.polys[p];
        for (std::size_t k = 0; k < r.size(); ++k) {
            out[p * 2 * kNvp + k] = static_cast<std::uint16_t>(r[k]);
            const std::uint32_t a = r[k], b = r[(k + 1) % r.size()];
            sides[{std::min(a, b), std::max(a, b)}].push_back({p, k});
        }
    }
    for (const auto& [key, users] : sides)
        if (users.size() == 2 && users[0].first != users[1].first) {
            out[users[0].first * 2 * kNvp + kNvp + users[0].second] = static_cast<std::uint16_t>(users[1].first);
            out[users[1].first * 2 * kNvp + kNvp + users[1].second] = static_cast<std::uint16_t>(users[0].first);
        }
    for (std::size_t p = 0; p < tile.polys.size(); ++p)
        for (std::size_t k = 0; k < tile.polys[p].size(); ++k) {
            std::uint16_t& word = out[p * 2 * kNvp + kNvp + k];
            if (word == kNullIndex && tile.across[p][k] >= 0) word = static_cast<std::uint16_t>(tile.across[p][k]);
        }
    return out;
}

/// Adds one member's polygons and user edges to `tile`; false when its vertices do not fit.
/// Vertices weld inside `weld_scope`: FromSoftware tagfiles are separate meshes (and may lie
/// on top of one another), Far Cry 2 sectors are one stitched world.
bool add_member(TileData& tile, const SceneMember& m, const Quantiser& quantise, std::uint32_t member,
                std::uint32_t weld_scope) {
    const TileData before = tile;
    // Each face boundary side (corner k -> k+1) lands on one side of one polygon.
    struct Side {
        std::int32_t poly = -1;
        std::int32_t side = -1;
    };
    std::vector<Side> corner_side(m.corners.size());
    std::vector<std::vector<std::int32_t>> face_polys(m.face_count());
    std::size_t t = 0;
    for (std::size_t f = 0; f < m.face_count(); ++f) {
        const std::size_t first = t;
        while (t < m.triangles.size() && m.triangle_face[t] == f) ++t;
        const std::uint32_t c0 = m.face_start[f], n = m.face_start[f + 1] - c0;
        for (Ring ring : convex_polygons(m, first, t)) {
            // Faces stored clockwise are turned, so every polygon winds as Detour expects.
            if (ring_area_xz(m.vertices, ring) < 0) std::reverse(ring.begin(), ring.end());
            Ring welded = ring;
            for (auto& v : welded) v = tile_vertex(tile, weld_scope, quantise(m.vertices[v]));
            // Welding can fold a sliver polygon onto itself: it would have repeated corners.
            Ring unique = welded;
            std::sort(unique.begin(), unique.end());
            if (std::adjacent_find(unique.begin(), unique.end()) != unique.end()) continue;
            const auto p = static_cast<std::int32_t>(tile.polys.size());
            for (std::size_t j = 0; j < ring.size(); ++j)
                for (std::uint32_t k = 0; k < n; ++k) {
                    const std::uint32_t u = m.corners[c0 + k], w = m.corners[c0 + (k + 1) % n];
                    const std::uint32_t r0 = ring[j], r1 = ring[(j + 1) % ring.size()];
                    if ((u == r0 && w == r1) || (u == r1 && w == r0)) corner_side[c0 + k] = {p, static_cast<std::int32_t>(j)};
                }
            face_polys[f].push_back(p);
            tile.polys.push_back(std::move(welded));
            tile.across.emplace_back().fill(-1);
        }
        if (tile.verts.size() / 3 > kMaxTileVertices || tile.polys.size() > kMaxTilePolygons) {
            tile = before;
            return false;
        }
    }
    // The stored opposites: across a face side, the opposite face's polygon nearest to it.
    for (std::size_t c = 0; c < m.corners.size(); ++c) {
        const std::int32_t g = m.corner_opposite[c];
        if (g < 0 || corner_side[c].poly < 0 || face_polys[g].empty()) continue;
        const Ring& own = tile.polys[corner_side[c].poly];
        const auto side_mid = [&](const Ring& r, std::size_t j) {
            const std::uint16_t* a = &tile.verts[3 * r[j]];
            const std::uint16_t* b = &tile.verts[3 * r[(j + 1) % r.size()]];
            return std::array<double, 3>{(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0, (a[2] + b[2]) / 2.0};
        };
        const auto mid = side_mid(own, static_cast<std::size_t>(corner_side[c].side));
        double best = std::numeric_limits<double>::max();
        for (std::int32_t q : face_polys[g])
            for (std::size_t j = 0; j < tile.polys[q].size(); ++j) {
                const auto o = side_mid(tile.polys[q], j);
                const double d = std::hypot(o[0] - mid[0], o[1] - mid[1], o[2] - mid[2]);
                if (d < best) best = d, tile.across[corner_side[c].poly][corner_side[c].side] = q;
            }
    }
    for (const SceneLine& l : m.lines) {
        if (!l.directed || l.face < 0 || l.target_face < 0) continue;
        tile.off_verts.insert(tile.off_verts.end(), l.from.begin(), l.from.end());
        tile.off_verts.insert(tile.off_verts.end(), l.to.begin(), l.to.end());
        tile.off_radius.push_back(kOffMeshRadius);
        tile.off_flags.push_back(1);
        tile.off_areas.push_back(1);
        tile.off_dir.push_back(0);  // one way: a user edge leads from its face to the opposite one
        tile.off_ids.push_back(member << 20 | (static_cast<std::uint32_t>(l.edge) & 0xFFFFF));
    }
    return true;
}

struct DetourData {
    unsigned char* data = nullptr;
    int size = 0;
};

DetourData create_tile(const TileData& tile, int layer, const Bounds& b, const Quantiser& q) {
    const std::vector<std::uint16_t> polys = polygon_records(tile);
    const std::vector<std::uint16_t> flags(tile.polys.size(), 1);
    const std::vector<std::uint8_t> areas(tile.polys.size(), 0);
    dtNavMeshCreateParams p{};
    p.verts = tile.verts.data();
    p.vertCount = static_cast<int>(tile.verts.size() / 3);
    p.polys = polys.data();
    p.polyFlags = flags.data();
    p.polyAreas = areas.data();
    p.polyCount = static_cast<int>(tile.polys.size());
    p.nvp = kNvp;
    p.offMeshConVerts = tile.off_verts.data();
    p.offMeshConRad = tile.off_radius.data();
    p.offMeshConFlags = tile.off_flags.data();
    p.offMeshConAreas = tile.off_areas.data();
    p.offMeshConDir = tile.off_dir.data();
    p.offMeshConUserID = tile.off_ids.data();
    p.offMeshConCount = static_cast<int>(tile.off_radius.size());
    p.tileLayer = layer;
    std::copy(b.min.begin(), b.min.end(), p.bmin);
    std::copy(b.max.begin(), b.max.end(), p.bmax);
    p.walkableHeight = 2.0f;
    p.walkableRadius = 0.5f;
    p.walkableClimb = std::max(0.5f, q.ch);
    p.cs = q.cs;
    p.ch = q.ch;
    p.buildBvTree = true;
    DetourData out;
    if (!dtCreateNavMeshData(&p, &out.data, &out.size))
        throw Error(fmt::format("Detour refused tile {} ({} polygons, {} vertices)", layer, p.polyCount, p.vertCount));
    return out;
}

unsigned next_pow2(unsigned v) {
    unsigned p = 1;
    while (p < v) p <<= 1;
    return p;
}

void write_params(ByteWriter& out, const dtNavMeshParams& params) {
    for (float o : params.orig) out.f32(o);
    out.f32(params.tileWidth);
    out.f32(params.tileHeight);
    out.i32(params.maxTiles);
    out.i32(params.maxPolys);
}

}  // namespace

DetourSet scene_to_detour_set(const Scene& scene) {
    Bounds bounds;
    for (const auto& m : scene.members)
        for (std::size_t f = 0; f < m.face_count(); ++f)
            for (std::uint32_t c = m.face_start[f]; c < m.face_start[f + 1]; ++c) {
                const Point3& p = m.vertices[m.corners[c]];
                for (const float x : p)
                    if (!(std::fabs(x) <= kMaxCoordinate))  // also NaN
                        throw Error(fmt::format("({}, {}, {}): Detour needs finite coordinates within ±{:g} m", p[0],
                                                p[1], p[2], kMaxCoordinate),
                                    kNoOffset, fmt::format("{}: face {}: vertex {}", m.name, f, m.corners[c]))
                            .set_file(scene.source);
                bounds.add(p);
            }
    DetourSet set;
    dtNavMeshParams params{};
    params.maxTiles = 1;
    params.maxPolys = 1;
    params.tileWidth = params.tileHeight = 1;
    std::vector<TileData> tiles;
    Quantiser quantise;
    if (!bounds.empty()) {
        const float extent_xz = std::max(bounds.max[0] - bounds.min[0], bounds.max[2] - bounds.min[2]);
        quantise.origin = bounds.min;
        quantise.cs = std::max(extent_xz / kDetourQuantumSteps, 1e-3f);
        quantise.ch = std::max((bounds.max[1] - bounds.min[1]) / kDetourQuantumSteps, 1e-3f);
        tiles.emplace_back();
        for (std::size_t i = 0; i < scene.members.size(); ++i) {
            if (scene.members[i].face_count() == 0) continue;
            const auto member = static_cast<std::uint32_t>(i);
            const std::uint32_t scope = scene.family == Family::FarCry2 ? 0 : member;
            if (add_member(tiles.back(), scene.members[i], quantise, member, scope)) continue;
            tiles.emplace_back();
            if (!add_member(tiles.back(), scene.members[i], quantise, member, scope))
                throw Error(fmt::format("{}: more than {} vertices or {} polygons for one Detour tile",
                                        scene.members[i].name, kMaxTileVertices, kMaxTilePolygons));
        }
        if (tiles.size() > static_cast<std::size_t>(kMaxDetourTiles))
            throw Error(fmt::format("the input needs {} Detour tiles, more than the {} one query can see; "
                                    "export fewer members with --entry",
                                    tiles.size(), kMaxDetourTiles));
        std::size_t max_polys = 1;
        for (const auto& t : tiles) max_polys = std::max(max_polys, t.polys.size() + t.off_radius.size());
        params.maxTiles = static_cast<int>(next_pow2(static_cast<unsigned>(tiles.size())));
        params.maxPolys = static_cast<int>(next_pow2(static_cast<unsigned>(max_polys)));
        std::copy(bounds.min.begin(), bounds.min.end(), params.orig);
        // One cell holds the whole scene, so every tile sits at (0, 0) on its own layer.
        params.tileWidth = bounds.max[0] - bounds.min[0] + 1.0f;
        params.tileHeight = bounds.max[2] - bounds.min[2] + 1.0f;
        set.cell_size = quantise.cs;
        set.cell_height = quantise.ch;
    }
    std::unique_ptr<dtNavMesh, void (*)(dtNavMesh*)> nav(dtAllocNavMesh(), dtFreeNavMesh);
    if (!nav || dtStatusFailed(nav->init(&params)))
        throw Error(fmt::format("Detour cannot hold {} tiles of up to {} polygons (32-bit references)", params.maxTiles,
                                params.maxPolys));
    for (std::size_t i = 0; i < tiles.size(); ++i) {
        if (tiles[i].polys.empty()) continue;
        DetourData d = create_tile(tiles[i], static_cast<int>(i), bounds, quantise);
        if (dtStatusFailed(nav->addTile(d.data, d.size, DT_TILE_FREE_DATA, 0, nullptr))) {
            dtFree(d.data);
            throw Error(fmt::format("Detour did not accept tile {}", i));
        }
        set.polygons += static_cast<int>(tiles[i].polys.size());
        set.off_mesh += static_cast<int>(tiles[i].off_radius.size());
        ++set.tiles;
    }
    // As RecastDemo's Sample_TileMesh::saveAll: header, then each tile's ref, size and data.
    ByteWriter out;
    out.i32(kSetMagic);
    out.i32(kSetVersion);
    out.i32(set.tiles);
    write_params(out, params);
    const dtNavMesh& mesh = *nav;
    for (int i = 0; i < mesh.getMaxTiles(); ++i) {
        const dtMeshTile* tile = mesh.getTile(i);
        if (!tile || !tile->header || !tile->dataSize) continue;
        out.put<dtTileRef>(mesh.getTileRef(tile));
        out.i32(tile->dataSize);
        out.bytes(std::span<const std::uint8_t>(tile->data, static_cast<std::size_t>(tile->dataSize)));
    }
    set.bytes = std::move(out).finish();
    return set;
}

}  // namespace navlab::exporter
