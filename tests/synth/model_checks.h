// The page's universal properties, checked on a generated model (the tests' own independent
// reading, kept small: the audit engineer's full rule set is the real check).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <vector>

#include "formats/fromsoft/navmesh.h"
#include "synth/style.h"

namespace navlab::synth::checks {

/// Owner face of each edge (-1 when none), from the faces' regular and user ranges.
inline std::vector<int> edge_owners(const fromsoft::NavMesh& m) {
    std::vector<int> owner(m.edges.size(), -1);
    for (int f = 0; f < static_cast<int>(m.faces.size()); ++f) {
        const auto& face = m.faces[f];
        for (int k = 0; k < face.numEdges; ++k) {
            EXPECT_EQ(owner[face.startEdgeIndex + k], -1) << "edge owned twice";
            owner[face.startEdgeIndex + k] = f;
        }
        for (int k = 0; k < face.numUserEdges; ++k) {
            EXPECT_EQ(owner[face.startUserEdgeIndex + k], -1) << "user edge owned twice";
            owner[face.startUserEdgeIndex + k] = f;
        }
    }
    return owner;
}

/// Checks topology, records, aabb and user edges of one mesh (rules R15, R21-R36, R49-R52,
/// R55, R74-R78, R81 of the audit catalog).
inline void check_mesh(const fromsoft::NavMesh& m, Game game) {
    using fromsoft::kNoOpposite;
    const int F = static_cast<int>(m.faces.size()), E = static_cast<int>(m.edges.size());
    const int V = static_cast<int>(m.vertices.size());
    ASSERT_EQ(m.faceData.size(), m.faces.size());
    ASSERT_EQ(m.edgeData.size(), m.edges.size());
    EXPECT_EQ(m.faceDataStriding, 1);
    EXPECT_EQ(m.edgeDataStriding, 1);
    EXPECT_EQ(m.erosionRadius, 0.0f);
    int R = 0;
    for (const auto& f : m.faces) {
        ASSERT_EQ(f.startEdgeIndex, R) << "faces tile the regular edges";
        ASSERT_GE(f.numEdges, 3);
        EXPECT_EQ(f.padding, 0xCDCD);
        EXPECT_EQ(f.startUserEdgeIndex == -1, f.numUserEdges == 0);
        EXPECT_LE(f.numUserEdges, 56);
        if (game == Game::EldenRing) EXPECT_EQ(f.clusterIndex, -1);
        else EXPECT_GE(f.clusterIndex, 0);
        for (int k = 0; k < f.numEdges; ++k) {
            const auto& e = m.edges[R + k];
            const auto& next = m.edges[R + (k + 1) % f.numEdges];
            ASSERT_EQ(e.b, next.a) << "ring closed";
        }
        R += f.numEdges;
    }
    if (game == Game::Sekiro) {
        EXPECT_EQ(R, E) << "no user edges in Sekiro";
    }
    const auto owner = edge_owners(m);
    for (int e = 0; e < E; ++e) {
        const auto& edge = m.edges[e];
        ASSERT_GE(owner[e], 0) << "every edge has a face";
        ASSERT_TRUE(edge.a >= 0 && edge.a < V && edge.b >= 0 && edge.b < V);
        EXPECT_EQ(edge.paddingByte, 0);
        EXPECT_EQ(edge.userEdgeCost, 0);
        EXPECT_EQ(edge.oppositeEdge == kNoOpposite, edge.oppositeFace == kNoOpposite);
        if (edge.oppositeEdge != kNoOpposite) {
            ASSERT_LT(edge.oppositeEdge, static_cast<std::uint32_t>(E));
            EXPECT_EQ(static_cast<int>(edge.oppositeFace), owner[edge.oppositeEdge]);
            EXPECT_EQ(m.edges[edge.oppositeEdge].oppositeEdge, static_cast<std::uint32_t>(e)) << "mutual";
            EXPECT_NE(edge.oppositeFace, static_cast<std::uint32_t>(owner[e]));
        }
        if (e < R) {
            EXPECT_EQ(edge.flags, 4);
            EXPECT_EQ(m.edgeData[e], 0);
            if (edge.oppositeEdge != kNoOpposite) {
                EXPECT_LT(edge.oppositeEdge, static_cast<std::uint32_t>(R));
            }
        } else {
            EXPECT_TRUE(edge.flags == 20 || edge.flags == 52);
            const auto data = static_cast<std::uint32_t>(m.edgeData[e]);
            EXPECT_TRUE((data & 0xFF) == 2 || (data & 0xFF) == 4 || (data & 0xFF) == 18 || (data & 0xFF) == 20);
            EXPECT_EQ(data >> 16, 0u);
            EXPECT_NE(data >> 8, 0u);
            if (edge.oppositeEdge == kNoOpposite) EXPECT_EQ(edge.flags, 52);
            else EXPECT_GE(edge.oppositeEdge, static_cast<std::uint32_t>(R));
            const auto& f = m.faces[owner[e]];
            for (int k = 0; k < f.numEdges; ++k) {
                EXPECT_NE(m.edges[f.startEdgeIndex + k].a, edge.a) << "user-edge end is a corner of its face";
                EXPECT_NE(m.edges[f.startEdgeIndex + k].a, edge.b) << "user-edge end is a corner of its face";
            }
        }
    }
    if (F == 0) return;
    const float margin = m.aabb.max.w;
    EXPECT_EQ(m.aabb.min.w, -margin);
    if (game == Game::Sekiro) EXPECT_EQ(margin, 1.1f);
    else EXPECT_TRUE(margin == 2.0f || margin == 8.0f || margin == 2.3999998569f) << margin;
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (const auto& v : m.vertices) {
        const float p[3] = {v.x, v.y, v.z};
        for (int i = 0; i < 3; ++i) lo[i] = std::min(lo[i], p[i]), hi[i] = std::max(hi[i], p[i]);
    }
    const float bmin[3] = {m.aabb.min.x, m.aabb.min.y, m.aabb.min.z}, bmax[3] = {m.aabb.max.x, m.aabb.max.y, m.aabb.max.z};
    for (int i = 0; i < 3; ++i) {
        EXPECT_LE(bmin[i], lo[i] - margin * 0.999f) << "aabb holds the grown bounds";
        EXPECT_GE(bmax[i], hi[i] + margin * 0.999f) << "aabb holds the grown bounds";
    }
}

/// Checks the user-edge setups of one tagfile (R85-R88, R90-R95).
inline void check_setups(const std::vector<fromsoft::UserEdgeSetup>& setups, Game game) {
    for (const auto& s : setups) {
        EXPECT_EQ(s.worldUpA.x, 0.0f);
        EXPECT_EQ(s.worldUpA.y, 1.0f);
        EXPECT_EQ(s.worldUpA.z, 0.0f);
        EXPECT_EQ(s.forceAlign, 1);
        EXPECT_TRUE(s.direction == 1 || s.direction == 3);
        if (game == Game::Sekiro) {
            EXPECT_EQ(s.space, 1);
        }
        for (const auto* box : {&s.obbA, &s.obbB}) {
            const auto& t = box->transform;
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b) {
                    double dot = 0;
                    for (int r = 0; r < 3; ++r) dot += static_cast<double>(t[a * 4 + r]) * t[b * 4 + r];
                    EXPECT_NEAR(dot, a == b ? 1.0 : 0.0, 1e-5) << "orthonormal columns";
                }
            if (game == Game::EldenRing) {
                EXPECT_EQ(t[3], 0.0f);
                EXPECT_NE(t[15], 0.0f);
            } else {
                EXPECT_EQ(t[15], 0.0f);
            }
            EXPECT_GT(box->halfExtents.x, 0.0f);
            EXPECT_GT(box->halfExtents.y, 0.0f);
            EXPECT_GT(box->halfExtents.z, 0.0f);
        }
    }
}

}  // namespace navlab::synth::checks
