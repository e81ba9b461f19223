// The same convex polygons in Detour and in navlab, for the query tests and bench_query:
// vertices are quantised onto Detour's cell grid first, and navlab gets the dequantised
// positions Detour itself stores, so both libraries see identical geometry.
#pragma once

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <vector>

#include "query/nav_view.h"

namespace navlab::testing {

struct DetourMesh {
    dtNavMesh* mesh = nullptr;
    dtNavMeshQuery* query = nullptr;
    std::vector<navlab::query::Vec3> verts;           ///< the dequantised vertices
    std::vector<std::vector<std::uint32_t>> polys;    ///< as given (counter-clockwise by cross2)
    std::vector<dtPolyRef> refs;                      ///< Detour ref of each polygon
    DetourMesh() = default;
    DetourMesh(const DetourMesh&) = delete;
    ~DetourMesh() {
        dtFreeNavMeshQuery(query);
        dtFreeNavMesh(mesh);
    }
    navlab::query::PolygonView view() const { return navlab::query::PolygonView(verts, polys); }
};

/// Detour's quantisation of one tile's vertices (as make_detour_mesh does it): 16-bit steps of
/// cs (x, z) and ch (y) from the box minimum, back to the float positions Detour stores. A
/// tile spans at most 65,535 steps: 655 m at 1 cm.
inline std::vector<std::array<float, 3>> quantise_like_detour(const std::vector<std::array<float, 3>>& in_verts, float cs, float ch) {
    float bmin[3] = {1e30f, 1e30f, 1e30f}, bmax[3] = {-1e30f, -1e30f, -1e30f};
    for (const auto& v : in_verts)
        for (int k = 0; k < 3; ++k) bmin[k] = std::min(bmin[k], v[k]), bmax[k] = std::max(bmax[k], v[k]);
    if ((bmax[0] - bmin[0]) / cs > 65535 || (bmax[2] - bmin[2]) / cs > 65535 || (bmax[1] - bmin[1]) / ch > 65535)
        throw std::runtime_error("the vertices span more than 65,535 Detour steps");
    std::vector<std::array<float, 3>> out;
    for (const auto& v : in_verts) {
        long q[3] = {std::lround((v[0] - bmin[0]) / cs), std::lround((v[1] - bmin[1]) / ch), std::lround((v[2] - bmin[2]) / cs)};
        out.push_back({bmin[0] + static_cast<unsigned short>(q[0]) * cs, bmin[1] + static_cast<unsigned short>(q[1]) * ch,
                       bmin[2] + static_cast<unsigned short>(q[2]) * cs});
    }
    return out;
}

/// Builds a one-tile Detour mesh of convex polygons (at most 6 corners, < 65535 vertices),
/// each ring in either winding: Detour gets every ring clockwise seen from +y (rcPolyMesh's
/// winding, negative by navlab's cross2), whatever the input's.
inline std::unique_ptr<DetourMesh> make_detour_mesh(const std::vector<std::array<float, 3>>& in_verts,
                                                    const std::vector<std::vector<std::uint32_t>>& polys, float cs = 0.01f,
                                                    float ch = 0.01f) {
    auto out = std::make_unique<DetourMesh>();
    float bmin[3] = {1e30f, 1e30f, 1e30f}, bmax[3] = {-1e30f, -1e30f, -1e30f};
    for (const auto& v : in_verts)
        for (int k = 0; k < 3; ++k) bmin[k] = std::min(bmin[k], v[k]), bmax[k] = std::max(bmax[k], v[k]);
    std::vector<unsigned short> qv;
    for (const auto& v : in_verts) {
        unsigned short q[3] = {static_cast<unsigned short>(std::lround((v[0] - bmin[0]) / cs)),
                               static_cast<unsigned short>(std::lround((v[1] - bmin[1]) / ch)),
                               static_cast<unsigned short>(std::lround((v[2] - bmin[2]) / cs))};
        qv.insert(qv.end(), q, q + 3);
        out->verts.push_back({bmin[0] + q[0] * cs, bmin[1] + q[1] * ch, bmin[2] + q[2] * cs});
    }
    const int nvp = 6;
    std::vector<unsigned short> dpolys(polys.size() * 2 * nvp, 0xffff);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> owner;
    std::vector<std::vector<std::uint32_t>> rev(polys.size());
    for (std::size_t p = 0; p < polys.size(); ++p) {
        double area = 0;
        for (std::size_t k = 0; k < polys[p].size(); ++k) {
            const auto& a = in_verts[polys[p][k]];
            const auto& b = in_verts[polys[p][(k + 1) % polys[p].size()]];
            area += static_cast<double>(a[0]) * b[2] - static_cast<double>(a[2]) * b[0];
        }
        if (area > 0) rev[p].assign(polys[p].rbegin(), polys[p].rend());
        else rev[p] = polys[p];
        for (std::size_t k = 0; k < rev[p].size(); ++k) owner[{rev[p][k], rev[p][(k + 1) % rev[p].size()]}] = p;
    }
    for (std::size_t p = 0; p < polys.size(); ++p) {
        if (polys[p].size() > nvp) throw std::runtime_error("more than 6 corners");
        for (std::size_t k = 0; k < rev[p].size(); ++k) {
            dpolys[p * 2 * nvp + k] = static_cast<unsigned short>(rev[p][k]);
            auto it = owner.find({rev[p][(k + 1) % rev[p].size()], rev[p][k]});
            if (it != owner.end()) dpolys[p * 2 * nvp + nvp + k] = static_cast<unsigned short>(it->second);
        }
    }
    std::vector<unsigned short> flags(polys.size(), 1);
    std::vector<unsigned char> areas(polys.size(), 0);
    dtNavMeshCreateParams params{};
    params.verts = qv.data();
    params.vertCount = static_cast<int>(in_verts.size());
    params.polys = dpolys.data();
    params.polyFlags = flags.data();
    params.polyAreas = areas.data();
    params.polyCount = static_cast<int>(polys.size());
    params.nvp = nvp;
    params.walkableHeight = 2;
    params.walkableRadius = 0.5f;
    params.walkableClimb = 0.5f;
    std::copy(bmin, bmin + 3, params.bmin);
    std::copy(bmax, bmax + 3, params.bmax);
    params.cs = cs;
    params.ch = ch;
    params.buildBvTree = true;
    unsigned char* data = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&params, &data, &size)) throw std::runtime_error("dtCreateNavMeshData failed");
    out->mesh = dtAllocNavMesh();
    if (dtStatusFailed(out->mesh->init(data, size, DT_TILE_FREE_DATA))) throw std::runtime_error("dtNavMesh::init failed");
    out->query = dtAllocNavMeshQuery();
    if (dtStatusFailed(out->query->init(out->mesh, 65535))) throw std::runtime_error("dtNavMeshQuery::init failed");
    const dtNavMesh* cm = out->mesh;
    dtPolyRef base = cm->getPolyRefBase(cm->getTile(0));
    for (std::size_t p = 0; p < polys.size(); ++p) out->refs.push_back(base | static_cast<dtPolyRef>(p));
    out->polys = polys;
    return out;
}

/// Detour's findPath + findStraightPath between two points known to lie on polygons sp, ep;
/// returns the straight path's length seen from above (xz; Detour's points carry no heights
/// between corners), or -1 when Detour finds no complete path.
inline double detour_path_length(const DetourMesh& m, std::uint32_t sp, const float* s, std::uint32_t ep, const float* e,
                                 std::vector<float>* points = nullptr) {
    dtQueryFilter filter;
    static thread_local std::vector<dtPolyRef> path(4096);
    int n = 0;
    if (dtStatusFailed(m.query->findPath(m.refs[sp], m.refs[ep], s, e, &filter, path.data(), &n, static_cast<int>(path.size()))) ||
        n == 0 || path[n - 1] != m.refs[ep])
        return -1;
    static thread_local std::vector<float> straight(3 * 4096);
    int count = 0;
    m.query->findStraightPath(s, e, path.data(), n, straight.data(), nullptr, nullptr, &count, 4096);
    double len = 0;
    for (int i = 1; i < count; ++i)
        len += std::hypot(straight[3 * i] - straight[3 * i - 3], straight[3 * i + 2] - straight[3 * i - 1]);
    if (points) points->assign(straight.begin(), straight.begin() + 3 * count);
    return len;
}

}  // namespace navlab::testing
