#include "build/farcry2_out.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <map>

#include "formats/farcry2/level_file.h"
#include "formats/farcry2/sector_file.h"
#include "io/error.h"
#include "io/parallel.h"

namespace navlab::build {
namespace {

using Point = std::array<float, 3>;
using Triangle = std::array<int, 3>;

/// Triangles of a convex face ring: a fan from a corner that gives no zero-area triangle (seam
/// corners are straight), else from a new centre vertex.
void triangulate(std::vector<Point>& verts, const std::vector<int>& ring, std::vector<Triangle>& out) {
    const std::size_t n = ring.size();
    auto area2 = [&](int a, int b, int c) {
        const Point &p = verts[a], &q = verts[b], &r = verts[c];
        return (static_cast<double>(q[2]) - p[2]) * (r[0] - p[0]) - (static_cast<double>(q[0]) - p[0]) * (r[2] - p[2]);
    };
    for (std::size_t s = 0; s < n; ++s) {
        bool ok = true;
        for (std::size_t k = 1; k + 1 < n && ok; ++k) ok = area2(ring[s], ring[(s + k) % n], ring[(s + k + 1) % n]) > 1e-9;
        if (!ok) continue;
        for (std::size_t k = 1; k + 1 < n; ++k) out.push_back({ring[s], ring[(s + k) % n], ring[(s + k + 1) % n]});
        return;
    }
    Point c{0, 0, 0};
    for (int v : ring)
        for (int i = 0; i < 3; ++i) c[i] += verts[v][i] / static_cast<float>(n);
    const int centre = static_cast<int>(verts.size());
    verts.push_back(c);
    for (std::size_t k = 0; k < n; ++k) out.push_back({centre, ring[k], ring[(k + 1) % n]});
}

struct SectorTris {
    std::uint16_t id = 0;
    std::vector<Point> verts;            ///< scene coordinates
    std::vector<Triangle> tris;          ///< counter-clockwise from +y (navlab's convention)
};

farcry2::Vec3 to_fc2(const Point& p, const TileGrid& g) {
    return {static_cast<double>(p[0]) - g.origin_x, static_cast<double>(p[2]) - g.origin_z, static_cast<double>(p[1])};
}

using EdgeKey = std::pair<Point, Point>;

}  // namespace

Fc2Result build_farcry2(const TriangleSoup& scene, BuildSpec spec, unsigned threads, const TileProgress& progress) {
    if (!spec.volumes.empty() || !spec.links.empty())
        throw Error("Far Cry 2 nodes carry no area values or links: remove area_volumes and links", kNoOffset, "BUILD.json");
    spec.tile_size = farcry2::kSectorMetres;
    validate_build_spec(spec, "BUILD.json");
    Fc2Result result;
    TiledFaces tiled = build_tiles(scene, spec, threads, 3, result.stages, progress);
    result.seams = tiled.seams;
    const TileGrid& g = tiled.grid;
    if (g.cols > static_cast<int>(farcry2::kGridColumns) || farcry2::sector_id(g.rows - 1, g.cols - 1) > 0xFFFF)
        throw Error(fmt::format("the scene spans {} x {} sectors of 64 m; Far Cry 2 worlds are at most 80 columns", g.cols,
                                g.rows));
    const auto start = std::chrono::steady_clock::now();

    std::vector<SectorTris> sectors;
    for (const TileFaces& t : tiled.tiles) {
        if (t.rings.empty()) continue;
        SectorTris s;
        s.id = static_cast<std::uint16_t>(farcry2::sector_id(t.tz, t.tx));
        s.verts = t.verts;
        for (const auto& ring : t.rings) triangulate(s.verts, ring, s.tris);
        if (s.tris.size() > 0xFFFE) throw Error(fmt::format("{} triangles: node index is 16 bits", s.tris.size()), kNoOffset, fmt::format("sector {}", s.id));
        sectors.push_back(std::move(s));
    }
    if (sectors.empty()) throw Error("no walkable face in the scene: check the bounds printed above (--up, --scale)");
    // Every directed edge by its two points: the neighbour across an edge is the triangle with
    // the reverse edge, in the same sector or (seams coincide exactly) in the next one.
    std::map<EdgeKey, farcry2::LinkTarget> owner;
    for (const auto& s : sectors)
        for (std::size_t i = 0; i < s.tris.size(); ++i)
            for (int k = 0; k < 3; ++k)
                owner[{s.verts[s.tris[i][k]], s.verts[s.tris[i][(k + 1) % 3]]}] = {s.id, static_cast<std::uint16_t>(i)};

    std::vector<Fc2File> sector_files(sectors.size());
    std::vector<std::vector<std::string>> warnings(sectors.size());
    std::vector<std::int64_t> cross(sectors.size()), same(sectors.size());
    parallel_for(sectors.size(), threads, [&](std::size_t si) {
        const SectorTris& s = sectors[si];
        farcry2::SectorFile f;
        f.header.sector_id = s.id;
        f.header.box = farcry2::sector_cell(s.id);
        const farcry2::Packing packing = *farcry2::packing_for(f.header.box);
        for (const Point& p : s.verts) {
            farcry2::Packed3 q{};
            if (!packing.encode(to_fc2(p, g), q))
                throw Error(fmt::format("vertex ({}, {}, {}) does not fit the packed range", p[0], p[1], p[2]), kNoOffset,
                            fmt::format("sector {}", s.id));
            f.vertices.push_back(q);
        }
        for (std::size_t i = 0; i < s.tris.size(); ++i) {
            // Reversed corners: counter-clockwise seen from +z after the mirror.
            const Triangle t{s.tris[i][0], s.tris[i][2], s.tris[i][1]};
            farcry2::Node node;
            node.sector_id = s.id;
            node.index = static_cast<std::uint16_t>(i);
            node.link_offset = static_cast<std::uint32_t>(f.links.size());
            farcry2::Vec3 c{0, 0, 0};
            std::array<farcry2::Vec3, 3> w;
            for (int k = 0; k < 3; ++k) {
                node.vertices[k] = static_cast<std::uint32_t>(t[k]);
                w[k] = f.vertex_position(t[k]);
                c = {c.x + w[k].x / 3, c.y + w[k].y / 3, c.z + w[k].z / 3};
            }
            packing.encode(c, node.centroid);
            const double ux = w[1].x - w[0].x, uy = w[1].y - w[0].y, uz = w[1].z - w[0].z;
            const double vx = w[2].x - w[0].x, vy = w[2].y - w[0].y, vz = w[2].z - w[0].z;
            double n[3] = {uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx};
            const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            for (int k = 0; k < 3; ++k)
                node.normal[k] = static_cast<std::int8_t>(len > 0 ? std::lround(127 * n[k] / len) : (k == 2 ? 127 : 0));
            // Link k is across edge k (corner k to corner k+1): the owner of the reverse edge.
            for (int k = 0; k < 3; ++k) {
                // This triangle runs edge k the other way in navlab's winding (its corners are
                // reversed), so the owner of (t[k], t[k+1]) there is the neighbour.
                const auto jt = owner.find({s.verts[t[k]], s.verts[t[(k + 1) % 3]]});
                std::uint32_t entry = farcry2::kNoLink;
                if (jt != owner.end()) {
                    entry = farcry2::encode_link(jt->second);
                    (jt->second.sector == s.id ? same : cross)[si] += 1;
                }
                f.links.push_back(entry);
            }
            f.nodes.push_back(node);
        }
        farcry2::WrittenSector w = farcry2::write_sector(f);
        sector_files[si] = {farcry2::sector_file_name(s.id, farcry2::SectorNaming::Satellite), std::move(w.bytes)};
        for (auto& m : w.warnings) warnings[si].push_back(std::move(m));
    });
    farcry2::LevelFile level = farcry2::header_only_level(farcry2::kGridColumns, static_cast<std::uint32_t>(g.rows));
    result.files.push_back({std::string(farcry2::kLevelFileName), farcry2::write_level(level)});
    for (std::size_t i = 0; i < sectors.size(); ++i) {
        result.files.push_back(std::move(sector_files[i]));
        result.triangles += static_cast<std::int64_t>(sectors[i].tris.size());
        result.cross_sector_links += cross[i], result.same_sector_links += same[i];
        for (auto& w : warnings[i]) result.warnings.push_back(std::move(w));
    }
    result.stages.push_back({"sectors", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
    return result;
}

}  // namespace navlab::build
