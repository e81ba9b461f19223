// Small hand-built navmeshes for the fromsoft tests.
#pragma once

#include <functional>
#include <map>
#include <utility>

#include "formats/fromsoft/navmesh.h"

namespace navlab::fromsoft::fixture {

/// A grid of nx × nz unit quads on the y = height(x, z) surface, wound counter-clockwise seen
/// from above, with opposite edges/faces filled in, faceData/edgeData 0, aabb = bounds grown by
/// 2.4 (w lanes ±2.4). cluster(i, j) gives the clusterIndex of quad (i, j).
inline NavMesh grid_mesh(int nx, int nz, std::function<std::int16_t(int, int)> cluster = nullptr,
                         std::function<float(int, int)> height = nullptr) {
    NavMesh m;
    auto vid = [&](int i, int j) { return j * (nx + 1) + i; };
    for (int j = 0; j <= nz; ++j)
        for (int i = 0; i <= nx; ++i)
            m.vertices.push_back(Vec4{float(i), height ? height(i, j) : 0.0f, float(j), 1.0f});
    std::map<std::pair<int, int>, std::uint32_t> edgeOf;
    for (int j = 0; j < nz; ++j)
        for (int i = 0; i < nx; ++i) {
            Face f;
            f.startEdgeIndex = static_cast<std::int32_t>(m.edges.size());
            f.numEdges = 4;
            f.clusterIndex = cluster ? cluster(i, j) : -1;
            const int ring[4] = {vid(i, j), vid(i, j + 1), vid(i + 1, j + 1), vid(i + 1, j)};
            for (int k = 0; k < 4; ++k) {
                Edge e;
                e.a = ring[k];
                e.b = ring[(k + 1) % 4];
                edgeOf[{e.a, e.b}] = static_cast<std::uint32_t>(m.edges.size());
                m.edges.push_back(e);
            }
            m.faces.push_back(f);
        }
    std::vector<std::uint32_t> owner;
    for (std::uint32_t f = 0; f < m.faces.size(); ++f)
        for (int k = 0; k < 4; ++k) owner.push_back(f);
    for (Edge& e : m.edges) {
        auto it = edgeOf.find({e.b, e.a});
        if (it != edgeOf.end()) e.oppositeEdge = it->second, e.oppositeFace = owner[it->second];
    }
    m.faceData.assign(m.faces.size(), 0);
    m.edgeData.assign(m.edges.size(), 0);
    m.aabb.min = {-2.4f, -2.4f, -2.4f, -2.4f};
    m.aabb.max = {float(nx) + 2.4f, 2.4f, float(nz) + 2.4f, 2.4f};
    for (const Vec4& v : m.vertices) m.aabb.min.y = std::min(m.aabb.min.y, v.y - 2.4f), m.aabb.max.y = std::max(m.aabb.max.y, v.y + 2.4f);
    return m;
}

}  // namespace navlab::fromsoft::fixture
