#include "build/recast_mesh.h"

#include <Recast.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <unordered_map>

#include "io/error.h"

namespace navlab::build {
namespace {

struct RecastFree {
    void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
    void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
    void operator()(rcContourSet* p) const { rcFreeContourSet(p); }
    void operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); }
    void operator()(rcPolyMeshDetail* p) const { rcFreePolyMeshDetail(p); }
};
template <class T>
using RecastPtr = std::unique_ptr<T, RecastFree>;

void require(bool ok, const char* step) {
    if (!ok) throw Error(std::string("Recast step failed: ") + step);
}

/// N_y of the Newell normal of a ring (positive = counter-clockwise seen from +y).
double newell_y(const PolyMesh& m, const std::vector<int>& ring) {
    double s = 0;
    for (std::size_t k = 0; k < ring.size(); ++k) {
        const auto& p = m.verts[ring[k]];
        const auto& q = m.verts[ring[(k + 1) % ring.size()]];
        s += static_cast<double>(p[2]) * q[0] - static_cast<double>(p[0]) * q[2];
    }
    return s;
}

/// Area of Recast's polygons seen from above (shoelace on the cell grid), m².
double polygon_area(const rcPolyMesh& pm) {
    double cells = 0;
    for (int p = 0; p < pm.npolys; ++p) {
        const unsigned short* poly = &pm.polys[p * 2 * pm.nvp];
        int n = 0;
        while (n < pm.nvp && poly[n] != RC_MESH_NULL_IDX) ++n;
        double twice = 0;
        for (int k = 0; k < n; ++k) {
            const unsigned short* a = &pm.verts[poly[k] * 3];
            const unsigned short* b = &pm.verts[poly[(k + 1) % n] * 3];
            twice += static_cast<double>(a[2]) * b[0] - static_cast<double>(a[0]) * b[2];
        }
        cells += std::abs(twice) * 0.5;
    }
    return cells * pm.cs * pm.cs;
}

/// The detail mesh as one welded triangle mesh: Recast keeps each polygon's detail triangles
/// apart, so corners and edge samples shared by neighbouring polygons are welded when they
/// sit at the same x, z (to 1 cm) and within half a metre in height (walkable layers are
/// at least an agent height apart, so floors never weld to the deck above them).
PolyMesh to_world(const rcPolyMesh& pm, const rcPolyMeshDetail& dm) {
    PolyMesh out;
    std::unordered_map<std::uint64_t, std::vector<int>> buckets;
    auto weld = [&](const float* v) {
        const auto qx = static_cast<std::int32_t>(std::lround(v[0] * 100.0f));
        const auto qz = static_cast<std::int32_t>(std::lround(v[2] * 100.0f));
        const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(qx)) << 32) |
                                  static_cast<std::uint32_t>(qz);
        auto& ids = buckets[key];
        for (int id : ids)
            if (std::abs(out.verts[id][1] - v[1]) < 0.5f) return id;
        ids.push_back(static_cast<int>(out.verts.size()));
        out.verts.push_back({v[0], v[1], v[2]});
        return ids.back();
    };
    for (int p = 0; p < dm.nmeshes; ++p) {
        const unsigned int* sub = &dm.meshes[p * 4];
        std::vector<int> ids(sub[1]);
        for (unsigned int j = 0; j < sub[1]; ++j) ids[j] = weld(&dm.verts[(sub[0] + j) * 3]);
        for (unsigned int t = 0; t < sub[3]; ++t) {
            const unsigned char* tri = &dm.tris[(sub[2] + t) * 4];
            std::vector<int> ring = {ids[tri[0]], ids[tri[1]], ids[tri[2]]};
            if (ring[0] == ring[1] || ring[1] == ring[2] || ring[0] == ring[2]) continue;
            if (newell_y(out, ring) < 0) std::swap(ring[1], ring[2]);
            out.polys.push_back(std::move(ring));
            out.regions.push_back(pm.regs[p]);
            out.areas.push_back(pm.areas[p]);
            out.source_polys.push_back(p);
        }
    }
    out.recast_polygons = pm.npolys;
    out.recast_area = polygon_area(pm);
    return out;
}

/// The pipeline on a heightfield of w x h cells from bmin; `border` cells on each x/z side
/// belong to the neighbours (0 for a whole scene).
PolyMesh run_recast(const float* verts, int nverts, const int* tris, int ntris, const RecastParams& p,
                    const float* bmin, const float* bmax, int w, int h, int border,
                    const std::vector<AreaPrism>& volumes) {
    rcContext ctx(false);
    const int walk_height = static_cast<int>(std::ceil(p.agent_height / p.cell_height));
    const int walk_climb = static_cast<int>(std::floor(p.agent_climb / p.cell_height));
    const int walk_radius = static_cast<int>(std::ceil(p.agent_radius / p.cell_size));

    RecastPtr<rcHeightfield> solid(rcAllocHeightfield());
    require(solid && rcCreateHeightfield(&ctx, *solid, w, h, bmin, bmax, p.cell_size, p.cell_height),
            "rcCreateHeightfield");
    std::vector<unsigned char> areas(ntris, 0);
    rcMarkWalkableTriangles(&ctx, p.max_slope_degrees, verts, nverts, tris, ntris, areas.data());
    require(rcRasterizeTriangles(&ctx, verts, nverts, tris, areas.data(), ntris, *solid, walk_climb),
            "rcRasterizeTriangles");
    rcFilterLowHangingWalkableObstacles(&ctx, walk_climb, *solid);
    rcFilterLedgeSpans(&ctx, walk_height, walk_climb, *solid);
    rcFilterWalkableLowHeightSpans(&ctx, walk_height, *solid);

    RecastPtr<rcCompactHeightfield> chf(rcAllocCompactHeightfield());
    require(chf && rcBuildCompactHeightfield(&ctx, walk_height, walk_climb, *solid, *chf), "rcBuildCompactHeightfield");
    solid.reset();
    require(rcErodeWalkableArea(&ctx, walk_radius, *chf), "rcErodeWalkableArea");
    for (const AreaPrism& v : volumes) {
        std::vector<float> outline;
        for (const auto& c : v.xz) outline.insert(outline.end(), {c[0], v.y_min, c[1]});
        rcMarkConvexPolyArea(&ctx, outline.data(), static_cast<int>(v.xz.size()), v.y_min, v.y_max, v.area, *chf);
    }
    require(rcBuildDistanceField(&ctx, *chf), "rcBuildDistanceField");
    require(rcBuildRegions(&ctx, *chf, border, p.min_region_cells, p.merge_region_cells), "rcBuildRegions");

    RecastPtr<rcContourSet> cset(rcAllocContourSet());
    require(cset && rcBuildContours(&ctx, *chf, p.maxSimplificationError,
                                    static_cast<int>(p.max_edge_length / p.cell_size), *cset),
            "rcBuildContours");
    RecastPtr<rcPolyMesh> pmesh(rcAllocPolyMesh());
    require(pmesh && rcBuildPolyMesh(&ctx, *cset, 6, *pmesh), "rcBuildPolyMesh");
    RecastPtr<rcPolyMeshDetail> dmesh(rcAllocPolyMeshDetail());
    require(dmesh && rcBuildPolyMeshDetail(&ctx, *pmesh, *chf, p.detail_sample_distance, p.detail_max_error, *dmesh),
            "rcBuildPolyMeshDetail");
    return to_world(*pmesh, *dmesh);
}

}  // namespace

PolyMesh build_recast_mesh(const TriangleSoup& scene, const RecastParams& p) {
    float bmin[3], bmax[3];
    rcCalcBounds(scene.verts.data(), scene.vertex_count(), bmin, bmax);
    int w = 0, h = 0;
    rcCalcGridSize(bmin, bmax, p.cell_size, &w, &h);
    return run_recast(scene.verts.data(), scene.vertex_count(), scene.tris.data(), scene.triangle_count(), p, bmin,
                      bmax, w, h, 0, {});
}

PolyMesh build_recast_tile(const TriangleSoup& scene, std::span<const int> tris, const RecastParams& p,
                           const TileBox& tile, const std::vector<AreaPrism>& volumes) {
    std::vector<int> indices;
    indices.reserve(tris.size() * 3);
    for (int t : tris) indices.insert(indices.end(), &scene.tris[t * 3], &scene.tris[t * 3] + 3);
    const float pad = static_cast<float>(tile.border_cells) * p.cell_size;
    const float bmin[3] = {tile.min_x - pad, tile.min_y, tile.min_z - pad};
    const float bmax[3] = {tile.max_x + pad, tile.max_y, tile.max_z + pad};
    const int w = static_cast<int>(std::lround((tile.max_x - tile.min_x) / p.cell_size)) + 2 * tile.border_cells;
    const int h = static_cast<int>(std::lround((tile.max_z - tile.min_z) / p.cell_size)) + 2 * tile.border_cells;
    return run_recast(scene.verts.data(), scene.vertex_count(), indices.data(), static_cast<int>(tris.size()), p,
                      bmin, bmax, w, h, tile.border_cells, volumes);
}

}  // namespace navlab::build
