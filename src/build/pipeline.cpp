#include "build/pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "build/recast_mesh.h"
#include "build/tile_navmesh.h"
#include "codec/dcx.h"
#include "container/bnd4.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "io/error.h"
#include "io/parallel.h"

namespace navlab::build {
namespace {

class Stopwatch {
public:
    explicit Stopwatch(std::vector<StageTime>& out) : out_(out) {}
    void lap(const char* stage) {
        const auto now = std::chrono::steady_clock::now();
        out_.push_back({stage, std::chrono::duration<double>(now - last_).count()});
        last_ = now;
    }

private:
    std::vector<StageTime>& out_;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

RecastParams recast_params(const BuildSpec& s) {
    RecastParams p;
    p.cell_size = s.cell_size, p.cell_height = s.cell_height;
    p.agent_height = s.agent_height, p.agent_radius = s.agent_radius, p.agent_climb = s.agent_climb;
    p.max_slope_degrees = s.max_slope_degrees;
    p.detail_sample_distance = s.detail_sample_distance, p.detail_max_error = s.detail_max_error;
    return p;
}

/// The tile (0 .. count - 1) holding coordinate v, clamped in double before the cast (a link
/// end may lie anywhere a float reaches; casting first would be undefined beyond INT_MAX).
int tile_column(double v, double origin, double tile_size, int count) {
    return static_cast<int>(std::clamp(std::floor((v - origin) / tile_size), 0.0, static_cast<double>(count - 1)));
}

/// The vertex farthest (on x or z) from the median vertex: a stray that widens the grid shows
/// here, however many vertices the level has.
std::size_t farthest_vertex(const TriangleSoup& scene) {
    const std::size_t n = scene.verts.size() / 3;
    auto median = [&](int axis) {
        std::vector<float> v(n);
        for (std::size_t i = 0; i < n; ++i) v[i] = scene.verts[i * 3 + axis];
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2), v.end());
        return static_cast<double>(v[n / 2]);
    };
    const double mx = median(0), mz = median(2);
    std::size_t far = 0;
    double most = -1;
    for (std::size_t i = 0; i < n; ++i) {
        const double d = std::max(std::abs(scene.verts[i * 3] - mx), std::abs(scene.verts[i * 3 + 2] - mz));
        if (d > most) most = d, far = i;
    }
    return far;
}

TileGrid make_grid(const TriangleSoup& scene, const BuildSpec& s, float& min_y, float& max_y) {
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (std::size_t i = 0; i < scene.verts.size(); ++i) {
        lo[i % 3] = std::min(lo[i % 3], scene.verts[i]);
        hi[i % 3] = std::max(hi[i % 3], scene.verts[i]);
    }
    // In double: a span of finite floats can exceed FLT_MAX, and a count beyond int is UB to cast.
    const double cols = std::max(1.0, std::ceil((static_cast<double>(hi[0]) - lo[0]) / s.tile_size));
    const double rows = std::max(1.0, std::ceil((static_cast<double>(hi[2]) - lo[2]) / s.tile_size));
    if (cols * rows > kMaxGridTiles) {
        const std::size_t far = farthest_vertex(scene);
        throw Error(fmt::format("the geometry (x {} .. {}, z {} .. {}) spans {:.0f} × {:.0f} tiles of {} m; navlab builds "
                                "at most {} tiles. The vertex farthest from the middle of the others lies at ({}, {}, {}): "
                                "if it is a stray, remove it; else use a larger tile_size, or build the level in parts",
                                lo[0], hi[0], lo[2], hi[2], cols, rows, s.tile_size, kMaxGridTiles,
                                scene.verts[far * 3], scene.verts[far * 3 + 1], scene.verts[far * 3 + 2]),
                    kNoOffset, "tile_size");
    }
    TileGrid g;
    g.origin_x = lo[0], g.origin_z = lo[2], g.tile_size = s.tile_size;
    g.cols = static_cast<int>(cols), g.rows = static_cast<int>(rows);
    min_y = lo[1] - 1, max_y = hi[1] + s.agent_height + 1;
    return g;
}

/// Triangles overlapping each tile grown by its border, in scene order.
std::vector<std::vector<int>> bucket_triangles(const TriangleSoup& scene, const TileGrid& g, float pad) {
    std::vector<std::vector<int>> buckets(static_cast<std::size_t>(g.cols) * g.rows);
    auto cell = [&](double v, double origin, int count) { return tile_column(v, origin, g.tile_size, count); };
    for (int t = 0; t < scene.triangle_count(); ++t) {
        float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
        for (int k = 0; k < 3; ++k) {
            const float* v = &scene.verts[scene.tris[t * 3 + k] * 3];
            lo[0] = std::min(lo[0], v[0]), hi[0] = std::max(hi[0], v[0]);
            lo[1] = std::min(lo[1], v[2]), hi[1] = std::max(hi[1], v[2]);
        }
        const int x0 = cell(lo[0] - pad, g.origin_x, g.cols), x1 = cell(hi[0] + pad, g.origin_x, g.cols);
        const int z0 = cell(lo[1] - pad, g.origin_z, g.rows), z1 = cell(hi[1] + pad, g.origin_z, g.rows);
        for (int tz = z0; tz <= z1; ++tz)
            for (int tx = x0; tx <= x1; ++tx) buckets[g.index(tx, tz)].push_back(t);
    }
    return buckets;
}

std::vector<AreaPrism> area_prisms(const BuildSpec& s) {
    std::vector<AreaPrism> out;
    for (std::size_t i = 0; i < s.volumes.size(); ++i)
        out.push_back({s.volumes[i].xz, s.volumes[i].y_min, s.volumes[i].y_max, static_cast<std::uint8_t>(i + 1)});
    return out;
}

std::string link_label(const LinkSpec& l, std::size_t i) {
    return l.name.empty() ? fmt::format("link {}", i) : fmt::format("link {} ('{}')", i, l.name);
}

struct PlacedLinks {
    std::vector<std::vector<UserEdgeIn>> user_edges;                 ///< per tile
    std::vector<std::vector<fromsoft::UserEdgeSetup>> setups;       ///< per tile
};

/// Places every link's user edges (Elden Ring) and setups in the tile both its ends fall in.
PlacedLinks place_links(const std::vector<TileFaces>& tiles, const TileGrid& g, const BuildSpec& s, FromGame game) {
    PlacedLinks placed;
    placed.user_edges.resize(tiles.size());
    placed.setups.resize(tiles.size());
    auto& per_tile = placed.user_edges;
    auto tile_of = [&](const std::array<float, 3>& p) {
        return g.index(tile_column(p[0], g.origin_x, g.tile_size, g.cols), tile_column(p[2], g.origin_z, g.tile_size, g.rows));
    };
    const float reach = std::max(1.0f, s.agent_height * 0.5f);
    for (std::size_t i = 0; i < s.links.size(); ++i) {
        const LinkSpec& l = s.links[i];
        const std::string where = "BUILD.json: links: " + link_label(l, i);
        const std::size_t ta = tile_of(l.from), tb = tile_of(l.to);
        if (ta != tb)
            throw Error(fmt::format("its ends lie in different tiles ({}, {}) and ({}, {}): a user edge stays inside one "
                                    "tagfile; move the link or use a larger tile_size",
                                    tiles[ta].tx, tiles[ta].tz, tiles[tb].tx, tiles[tb].tz),
                        kNoOffset, where);
        const TileFaces& t = tiles[ta];
        const auto f = face_under(t, l.from, reach), gface = face_under(t, l.to, reach);
        if (!f) throw Error(fmt::format("'from' ({}, {}, {}) is off the mesh", l.from[0], l.from[1], l.from[2]), kNoOffset, where);
        if (!gface) throw Error(fmt::format("'to' ({}, {}, {}) is off the mesh", l.to[0], l.to[1], l.to[2]), kNoOffset, where);
        if (*f == *gface) throw Error("both ends are on the same face", kNoOffset, where);
        if (l.setup_half_extents) placed.setups[ta].push_back(link_setup(game, l.from, l.to, *l.setup_half_extents, l.both_ways));
        if (game == FromGame::Sekiro) continue;  // Sekiro meshes have no user edges (R74)
        // Each user edge is a segment across the link at the far end, on the far face.
        double dx = l.to[0] - l.from[0], dz = l.to[2] - l.from[2];
        const double len = std::hypot(dx, dz);
        if (len > 0) dx /= len, dz /= len;
        else dx = 1, dz = 0;
        const float hx = static_cast<float>(-dz * l.width / 2), hz = static_cast<float>(dx * l.width / 2);
        auto segment = [&](const std::array<float, 3>& at, int face, float sign) {
            const float y = face_height_at(t, face, at[0], at[2]);
            return std::pair{std::array<float, 3>{at[0] + sign * hx, y, at[2] + sign * hz},
                             std::array<float, 3>{at[0] - sign * hx, y, at[2] - sign * hz}};
        };
        auto& list = per_tile[ta];
        const int first = static_cast<int>(list.size());
        const auto [a, b] = segment(l.to, *gface, 1);
        list.push_back({*f, a, b, l.both_ways ? first + 1 : -1, l.flags, l.edgeData});
        if (l.both_ways) {
            const auto [c, d] = segment(l.from, *f, -1);
            list.push_back({*gface, c, d, first, l.flags, l.edgeData});
        }
    }
    return placed;
}

}  // namespace

TiledFaces build_tiles(const TriangleSoup& scene, const BuildSpec& spec, unsigned threads, int max_corners,
                       std::vector<StageTime>& stages, const TileProgress& progress) {
    if (scene.triangle_count() == 0) throw Error("the scene has no triangle");
    Stopwatch clock(stages);
    const RecastParams rp = recast_params(spec);
    float min_y = 0, max_y = 0;
    TiledFaces out;
    out.grid = make_grid(scene, spec, min_y, max_y);
    const TileGrid& grid = out.grid;
    const int border = static_cast<int>(std::ceil(spec.agent_radius / spec.cell_size)) + 3;
    const auto buckets = bucket_triangles(scene, grid, static_cast<float>(border) * spec.cell_size);
    const auto prisms = area_prisms(spec);
    clock.lap("tiling");

    out.tiles.resize(buckets.size());
    if (progress.started)
        progress.started(static_cast<std::size_t>(
            std::count_if(buckets.begin(), buckets.end(), [](const std::vector<int>& b) { return !b.empty(); })));
    parallel_for(out.tiles.size(), threads, [&](std::size_t i) {
        const int tx = static_cast<int>(i % grid.cols), tz = static_cast<int>(i / grid.cols);
        TileFaces& t = out.tiles[i];
        if (!buckets[i].empty()) {
            TileBox box{grid.line_x(tx), grid.line_z(tz), grid.line_x(tx + 1), grid.line_z(tz + 1), min_y, max_y, border};
            try {
                t = merge_detail_triangles(build_recast_tile(scene, buckets[i], rp, box, prisms), spec.merge_off_plane,
                                           std::max(3, max_corners - 4));
            } catch (Error& e) {
                throw e.in(fmt::format("tile ({}, {})", tx, tz));
            }
            if (progress.tile_done) progress.tile_done();
        }
        t.tx = tx, t.tz = tz;
        snap_to_tile_lines(t, grid, spec.cell_size * 0.01f);
    });
    clock.lap("recast + merge");
    out.seams = stitch_seams(out.tiles, grid, spec.agent_climb);
    clock.lap("seams");
    return out;
}

BuildResult build_fromsoft(const TriangleSoup& scene, const BuildOptions& options) {
    const BuildSpec& spec = options.spec;
    validate_build_spec(spec, "BUILD.json");
    if (options.game == FromGame::Sekiro)
        for (std::size_t i = 0; i < spec.links.size(); ++i)
            if (!spec.links[i].setup_half_extents)
                throw Error("Sekiro meshes carry no user edges (rule R74): give the link a \"setup\" (a user-edge setup) "
                            "or build for eldenring",
                            kNoOffset, "BUILD.json: links: " + link_label(spec.links[i], i));
    BuildResult result;
    TiledFaces tiled = build_tiles(scene, spec, options.threads, kMaxFaceCorners, result.stages, options.progress);
    const TileGrid& grid = tiled.grid;
    const std::vector<TileFaces>& tiles = tiled.tiles;
    result.stats.seams = tiled.seams;
    Stopwatch clock(result.stages);
    const PlacedLinks links = place_links(tiles, grid, spec, options.game);
    std::vector<std::size_t> used;
    for (std::size_t i = 0; i < tiles.size(); ++i)
        if (!tiles[i].rings.empty()) used.push_back(i);
    if (used.empty())
        throw Error("no walkable face in the scene: check the bounds printed above (--up, --scale) and the agent size");
    if (used.size() > kMaxBinderMeshes)
        throw Error(fmt::format("{} tiles have walkable faces; a navmesh binder holds at most {} (model numbers 1000 + "
                                "100·k must keep six digits, member ids 10000 + k below the lo-res range): use a "
                                "larger tile_size, or build the level in parts",
                                used.size(), kMaxBinderMeshes),
                    kNoOffset, "BUILD.json: tile_size");
    result.tiles.resize(used.size());
    parallel_for(used.size(), options.threads, [&](std::size_t k) {
        const TileFaces& t = tiles[used[k]];
        BuiltTile& out = result.tiles[k];
        out.tx = t.tx, out.tz = t.tz;
        out.name = navmesh_member_name(options.game, spec.map, 'n', navmesh_model_number(static_cast<int>(k)));
        out.id = navmesh_member_id('n', static_cast<int>(k));
        out.tagfile = make_tile_tagfile(t, options.game, spec, links.user_edges[used[k]], links.setups[used[k]],
                                        fmt::format("tile ({}, {})", t.tx, t.tz));
    });
    clock.lap("navmesh + tree");
    parallel_for(result.tiles.size(), options.threads,
                 [&](std::size_t k) { result.tiles[k].bytes = fromsoft::write_nav_tagfile(result.tiles[k].tagfile); });
    clock.lap("tagfiles");

    std::vector<bnd4::NewEntry> entries;
    for (const auto& t : result.tiles) entries.push_back({t.name, t.id, t.bytes});
    result.binder = dcx::compress(bnd4::write(bnd4::build_navmesh_binder(std::move(entries))), dcx_variant(options.compression));
    clock.lap("binder + dcx");

    BuildStats& st = result.stats;
    st.cols = grid.cols, st.rows = grid.rows, st.tiles_in_grid = grid.cols * grid.rows;
    for (const auto& t : tiles) st.recast_polygons += t.recast_polygons, st.recast_area += t.recast_area;
    for (const auto& t : result.tiles) {
        const auto& m = t.tagfile.mesh;
        std::int64_t regular = 0;
        for (const auto& f : m.faces) regular += f.numEdges, st.max_corners = std::max<int>(st.max_corners, f.numEdges);
        st.faces += static_cast<std::int64_t>(m.faces.size());
        st.edges += static_cast<std::int64_t>(m.edges.size());
        st.user_edges += static_cast<std::int64_t>(m.edges.size()) - regular;
        st.vertices += static_cast<std::int64_t>(m.vertices.size());
        st.face_area += faces_area_from_above(m);
    }
    return result;
}

}  // namespace navlab::build
