// Synthetic navmesh tagfiles for the audit tests and benchmark: a W × H grid of square faces
// that satisfies every rule of audit-rules.md, as Elden Ring (mediator with a valid 6-byte
// tree, optional user edges and a setup array) or Sekiro (one cluster per grid row and the
// cluster graph). Tests break one rule at a time on top of it.
#pragma once

#include <cstring>
#include <functional>
#include <string>

#include "nav/audit_input.h"

namespace navlab::test {

struct SyntheticOptions {
    int width = 4, height = 3;
    bool sekiro = false;
    bool user_edges = true;  ///< Elden Ring: one user-edge pair between the first and last face
};

inline float float_from_bits(std::uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

/// Pre-order 6-byte tree over faces [lo, hi) with all nibbles 0 (every box is the domain).
inline void build_tree(std::vector<fromsoft::AabbTreeNode6>& nodes, std::uint32_t lo, std::uint32_t hi) {
    fromsoft::AabbTreeNode6 n;
    if (hi - lo == 1) {
        n.hiData = static_cast<std::uint8_t>(lo >> 16);
        n.loData = static_cast<std::uint16_t>(lo & 0xFFFF);
        nodes.push_back(n);
        return;
    }
    std::uint32_t first = (hi - lo) / 2;
    std::uint32_t data = 0x800000u | first;
    n.hiData = static_cast<std::uint8_t>(data >> 16);
    n.loData = static_cast<std::uint16_t>(data & 0xFFFF);
    nodes.push_back(n);
    build_tree(nodes, lo, lo + first);
    build_tree(nodes, lo + first, hi);
}

/// The type-table facts of a well-formed file (layouts of spec §9).
inline std::map<std::string, nav::TypeLayout> synthetic_types(bool sekiro) {
    using nav::TypeLayout;
    std::map<std::string, TypeLayout> t;
    t["hkaiNavMesh"] = {"hkaiNavMesh", 208, 16,
                        {{"faces", 24, 16}, {"edges", 40, 16}, {"vertices", 56, 16}, {"streamingSets", 72, 16},
                         {"faceData", 88, 16}, {"edgeData", 104, 16}, {"faceDataStriding", 120, 4},
                         {"edgeDataStriding", 124, 4}, {"aabb", 144, 32}, {"erosionRadius", 176, 4},
                         {"userData", 184, 8}, {"clearanceCacheSeedingDataSet", 192, 8}}};
    t["hkaiNavMesh::Face"] = {"hkaiNavMesh::Face", 16, 6,
                              {{"startEdgeIndex", 0, 4}, {"startUserEdgeIndex", 4, 4}, {"numEdges", 8, 2},
                               {"numUserEdges", 10, 2}, {"clusterIndex", 12, 2}, {"padding", 14, 2}}};
    t["hkaiNavMesh::Edge"] = {"hkaiNavMesh::Edge", 20, 8,
                              {{"a", 0, 4}, {"b", 4, 4}, {"oppositeEdge", 8, 4}, {"oppositeFace", 12, 4},
                               {"flags", 16, 1}, {"paddingByte", 17, 1}, {"userEdgeCost", 18, 2}}};
    t["hkVector4"] = {"hkVector4", 16, 0, {}};
    t["hkaiUserEdgeUtils::UserEdgeSetup"] = {"hkaiUserEdgeUtils::UserEdgeSetup", 224, 0,
                                             {{"obbA", 0, 80}, {"obbB", 80, 80}, {"userDataA", 160, 4},
                                              {"userDataB", 164, 4}, {"costAtoB", 168, 4}, {"costBtoA", 172, 4},
                                              {"worldUpA", 176, 16}, {"worldUpB", 192, 16}, {"direction", 208, 1},
                                              {"space", 209, 1}, {"forceAlign", 210, 1}}};
    t["hkaiUserEdgeUtils::Obb"] = {"hkaiUserEdgeUtils::Obb", 80, 0, {{"transform", 0, 64}, {"halfExtents", 64, 16}}};
    if (sekiro) {
        t["hkaiDirectedGraphExplicitCost"] = {"hkaiDirectedGraphExplicitCost", 0, 0,
                                              {{"positions", 16, 16}, {"nodes", 32, 16}, {"edges", 48, 16},
                                               {"nodeData", 64, 16}, {"edgeData", 80, 16}, {"nodeDataStriding", 96, 4},
                                               {"edgeDataStriding", 100, 4}, {"streamingSets", 104, 16}}};
        t["hkaiDirectedGraphExplicitCost::Node"] = {"hkaiDirectedGraphExplicitCost::Node", 8, 0,
                                                    {{"startEdgeIndex", 0, 4}, {"numEdges", 4, 4}}};
        t["hkaiDirectedGraphExplicitCost::Edge"] = {"hkaiDirectedGraphExplicitCost::Edge", 8, 0,
                                                    {{"cost", 0, 2}, {"flags", 2, 2}, {"target", 4, 4}}};
    } else {
        t["hkcdCompressedAabbCodecs::Aabb6BytesCodec"] = {"hkcdCompressedAabbCodecs::Aabb6BytesCodec", 6, 0,
                                                          {{"xyz", 0, 3}, {"hiData", 3, 1}, {"loData", 4, 2}}};
    }
    return t;
}

/// Sets the mesh aabb to the vertex bounds grown by `margin` (minus on min, plus on max).
inline void fit_aabb(fromsoft::NavMesh& m, float margin) {
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (const auto& v : m.vertices) {
        float c[3] = {v.x, v.y, v.z};
        for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], c[k]), hi[k] = std::max(hi[k], c[k]);
    }
    m.aabb.min = {float(double(lo[0]) - margin), float(double(lo[1]) - margin), float(double(lo[2]) - margin), -margin};
    m.aabb.max = {float(double(hi[0]) + margin), float(double(hi[1]) + margin), float(double(hi[2]) + margin), margin};
}

/// A well-formed synthetic tagfile.
inline nav::AuditTagfile synthetic_tagfile(const SyntheticOptions& o = {}) {
    using namespace fromsoft;
    NavTagfile t;
    t.sdkVersion = o.sekiro ? 20160200 : 20180100;
    NavMesh& m = t.mesh;
    const int W = o.width, H = o.height;
    auto vid = [&](int i, int j) { return j * (W + 1) + i; };
    for (int j = 0; j <= H; ++j)
        for (int i = 0; i <= W; ++i) m.vertices.push_back({float(i), 0.25f * float(i), float(j), 1.0f});
    for (int j = 0; j < H; ++j)
        for (int i = 0; i < W; ++i) {
            int f = j * W + i;
            Face face;
            face.startEdgeIndex = 4 * f;
            face.numEdges = 4;
            face.clusterIndex = static_cast<std::int16_t>(o.sekiro ? j : -1);
            m.faces.push_back(face);
            int ring[4] = {vid(i, j), vid(i, j + 1), vid(i + 1, j + 1), vid(i + 1, j)};
            // Neighbours across west, north, east, south and their matching edge slot.
            int nb[4] = {i > 0 ? f - 1 : -1, j + 1 < H ? f + W : -1, i + 1 < W ? f + 1 : -1, j > 0 ? f - W : -1};
            int slot[4] = {2, 3, 0, 1};
            for (int k = 0; k < 4; ++k) {
                Edge e;
                e.a = ring[k];
                e.b = ring[(k + 1) % 4];
                if (nb[k] >= 0) {
                    e.oppositeEdge = static_cast<std::uint32_t>(4 * nb[k] + slot[k]);
                    e.oppositeFace = static_cast<std::uint32_t>(nb[k]);
                }
                m.edges.push_back(e);
            }
        }
    const int F = W * H;
    if (!o.sekiro && o.user_edges && F >= 2) {
        // One user edge on the first and the last face, each the other's opposite, with
        // their own vertices above the faces.
        int v0 = static_cast<int>(m.vertices.size());
        m.vertices.push_back({0.5f, 1.0f, 0.5f, 1.0f});
        m.vertices.push_back({0.5f, 1.0f, 0.6f, 1.0f});
        m.vertices.push_back({W - 0.5f, 1.0f, H - 0.5f, 1.0f});
        m.vertices.push_back({W - 0.5f, 1.0f, H - 0.4f, 1.0f});
        std::uint32_t R = static_cast<std::uint32_t>(m.edges.size());
        m.faces[0].startUserEdgeIndex = static_cast<std::int32_t>(R);
        m.faces[0].numUserEdges = 1;
        m.faces[F - 1].startUserEdgeIndex = static_cast<std::int32_t>(R + 1);
        m.faces[F - 1].numUserEdges = 1;
        Edge a{v0, v0 + 1, R + 1, static_cast<std::uint32_t>(F - 1), 20, 0, 0};
        Edge b{v0 + 2, v0 + 3, R, 0, 20, 0, 0};
        m.edges.push_back(a);
        m.edges.push_back(b);
    }
    m.faceData.assign(m.faces.size(), 0);
    m.edgeData.assign(m.edges.size(), 0);
    for (std::size_t e = static_cast<std::size_t>(4 * F); e < m.edges.size(); ++e) m.edgeData[e] = 0x0102;
    m.hasClearanceCacheSeeding = true;
    fit_aabb(m, o.sekiro ? 1.1f : float_from_bits(0x40199999));  // Elden Ring's stored 2.4

    t.variants.push_back({"hkaiNavMesh", "hkaiNavMesh"});
    if (o.sekiro) {
        DirectedGraph g;
        for (int j = 0; j < H; ++j) {
            g.positions.push_back({W / 2.0f, 0.25f * W / 2.0f, j + 0.5f, 0});
            GraphNode node;
            node.startEdgeIndex = static_cast<std::int32_t>(g.edges.size());
            if (j > 0) g.edges.push_back({0x3F80, 0, static_cast<std::uint32_t>(j - 1)});
            if (j + 1 < H) g.edges.push_back({0x3F80, 0, static_cast<std::uint32_t>(j + 1)});
            node.numEdges = static_cast<std::int32_t>(g.edges.size()) - node.startEdgeIndex;
            g.nodes.push_back(node);
        }
        t.graph = g;
        t.variants.push_back({"hkaiDirectedGraphExplicitCost", "hkaiDirectedGraphExplicitCost"});
    } else {
        QueryMediator q;
        if (F > 0) build_tree(q.nodes, 0, static_cast<std::uint32_t>(F));
        float lo[4] = {1e30f, 1e30f, 1e30f, 1e30f}, hi[4] = {-1e30f, -1e30f, -1e30f, -1e30f};
        for (const auto& v : m.vertices) {
            float c[4] = {v.x, v.y, v.z, v.w};
            for (int k = 0; k < 4; ++k) lo[k] = std::min(lo[k], c[k]), hi[k] = std::max(hi[k], c[k]);
        }
        q.domain = {{lo[0], lo[1], lo[2], lo[3]}, {hi[0], hi[1], hi[2], hi[3]}};
        t.mediator = q;
        t.variants.push_back({"hkaiStaticTreeNavMeshQueryMediator", "hkaiStaticTreeNavMeshQueryMediator"});
    }
    if (o.sekiro || o.user_edges) {
        UserEdgeSetup s;
        for (Obb* b : {&s.obbA, &s.obbB}) {
            b->transform = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 2, 0, 3, o.sekiro ? 0.0f : 1.0f};
            if (o.sekiro) b->transform[3] = 0.5f;  // stale padding
            b->halfExtents = {0.5f, 1, 0.5f, 0};
        }
        s.worldUpA = {0, 1, 0, 0};
        s.worldUpB = {0, 1, 0, 0};
        s.direction = 1;
        s.space = o.sekiro ? 1 : 0;
        s.forceAlign = 1;
        t.userEdgeSetups = std::vector<UserEdgeSetup>{s};
        t.variants.push_back({"hkaiUserEdgeSetupArray", "hkaiUserEdgeSetupArray"});
    }

    nav::AuditTagfile f;
    f.entry = o.sekiro ? "n11_00_00_00_000100.hkx" : "n10_00_00_00_000700.hkx";
    f.sdk = std::to_string(t.sdkVersion);
    f.type_section = "TYPE";
    f.types = synthetic_types(o.sekiro);
    f.objects_per_class = {{"hkaiNavMesh", 1}};
    f.model = std::move(t);
    return f;
}

}  // namespace navlab::test
