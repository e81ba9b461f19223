// Synthetic navmesh tagfiles for the audit tests and benchmark: a W × H grid of square faces
// that satisfies every rule of audit-rules.md, as Elden Ring (mediator with the FromSoftware
// tree encoder's 6-byte tree, optional user edges and a setup array) or Sekiro (one cluster
// per grid row and the cluster graph). Tests break one rule at a time on top of it.
#pragma once

#include <cstring>
#include <functional>
#include <tuple>
#include <string>

#include "formats/fromsoft/aabb_tree6.h"
#include "audit/audit_input.h"

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

/// A record layout from (name, offset, size) members.
inline fromsoft::RecordInfo record(const char* name, std::uint32_t size, std::uint32_t version,
                                   std::initializer_list<std::tuple<const char*, std::uint32_t, std::uint32_t>> members) {
    fromsoft::RecordInfo r;
    r.name = name;
    r.size = size;
    r.version = version;
    std::vector<fromsoft::MemberInfo> list;
    for (auto [m, offset, bytes] : members) list.push_back({m, offset, bytes, "", 0, 0});
    r.set_members(std::move(list));
    return r;
}

/// The layouts of the page's tables and spec §9 (the same in both games).
inline fromsoft::LayoutSummary standard_layouts() {
    fromsoft::LayoutSummary l;
    l.navMesh = record("hkaiNavMesh", 208, 16,
                       {{"faces", 24, 16}, {"edges", 40, 16}, {"vertices", 56, 16}, {"streamingSets", 72, 16},
                        {"faceData", 88, 16}, {"edgeData", 104, 16}, {"faceDataStriding", 120, 4},
                        {"edgeDataStriding", 124, 4}, {"aabb", 144, 32}, {"erosionRadius", 176, 4},
                        {"userData", 184, 8}, {"clearanceCacheSeedingDataSet", 192, 8}});
    l.face = record("hkaiNavMesh::Face", 16, 6,
                    {{"startEdgeIndex", 0, 4}, {"startUserEdgeIndex", 4, 4}, {"numEdges", 8, 2}, {"numUserEdges", 10, 2},
                     {"clusterIndex", 12, 2}, {"padding", 14, 2}});
    l.edge = record("hkaiNavMesh::Edge", 20, 8,
                    {{"a", 0, 4}, {"b", 4, 4}, {"oppositeEdge", 8, 4}, {"oppositeFace", 12, 4}, {"flags", 16, 1},
                     {"paddingByte", 17, 1}, {"userEdgeCost", 18, 2}});
    l.vertex = record("hkVector4", 16, 0, {});
    l.graph = record("hkaiDirectedGraphExplicitCost", 128, 0,
                     {{"positions", 16, 16}, {"nodes", 32, 16}, {"edges", 48, 16}, {"nodeData", 64, 16},
                      {"edgeData", 80, 16}, {"nodeDataStriding", 96, 4}, {"edgeDataStriding", 100, 4},
                      {"streamingSets", 104, 16}});
    l.graph_node = record("hkaiDirectedGraphExplicitCost::Node", 8, 0, {{"startEdgeIndex", 0, 4}, {"numEdges", 4, 4}});
    l.graph_edge = record("hkaiDirectedGraphExplicitCost::Edge", 8, 0, {{"cost", 0, 2}, {"flags", 2, 2}, {"target", 4, 4}});
    l.tree_node = record("hkcdCompressedAabbCodecs::Aabb6BytesCodec", 6, 0, {{"xyz", 0, 3}, {"hiData", 3, 1}, {"loData", 4, 2}});
    l.user_edge_setup = record("hkaiUserEdgeUtils::UserEdgeSetup", 224, 0,
                             {{"obbA", 0, 80}, {"obbB", 80, 80}, {"userDataA", 160, 4}, {"userDataB", 164, 4},
                              {"costAtoB", 168, 4}, {"costBtoA", 172, 4}, {"worldUpA", 176, 16}, {"worldUpB", 192, 16},
                              {"direction", 208, 1}, {"space", 209, 1}, {"forceAlign", 210, 1}});
    l.obb = record("hkaiUserEdgeUtils::Obb", 80, 0, {{"transform", 0, 64}, {"halfExtents", 64, 16}});
    fromsoft::RecordInfo transform = record("hkTransform", 64, 0, {});
    transform.format = 0x1028;
    l.obb_transform = std::move(transform);
    return l;
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
inline audit::AuditTagfile synthetic_tagfile(const SyntheticOptions& o = {}) {
    using namespace fromsoft;
    NavTagfile t;
    t.sdk_version = o.sekiro ? 20160200 : 20180100;
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
    m.has_clearance_cache_seeding = true;
    fit_aabb(m, o.sekiro ? 1.1f : float_from_bits(0x40199999));  // Elden Ring's stored 2.4

    t.variants.push_back({"hkaiNavMesh", "hkaiNavMesh", "", 0});  // type and item: filled below
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
        t.variants.push_back({"hkaiDirectedGraphExplicitCost", "hkaiDirectedGraphExplicitCost", "", 0});
    } else {
        t.mediator = build_query_mediator(m);
        t.variants.push_back({"hkaiStaticTreeNavMeshQueryMediator", "hkaiStaticTreeNavMeshQueryMediator", "", 0});
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
        t.user_edge_setups = std::vector<UserEdgeSetup>{s};
        t.variants.push_back({"hkaiUserEdgeSetupArray", "hkaiUserEdgeSetupArray", "", 0});
    }

    // What the strict reader fills from a real file: SDK string, variant object types,
    // object counts and the record layouts of the file's type table (tagfile spec §9).
    t.sdk_string = std::to_string(t.sdk_version);
    for (auto& v : t.variants) v.type_name = v.className;
    t.object_counts = {{"hkaiNavMesh", 1}};
    t.layouts = standard_layouts();
    audit::AuditTagfile f;
    f.entry = o.sekiro ? "n11_00_00_00_000100.hkx" : "n10_00_00_00_000700.hkx";
    f.model = std::move(t);
    return f;
}

}  // namespace navlab::test
