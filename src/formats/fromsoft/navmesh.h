// The model of a FromSoftware (Havok AI) navmesh tagfile: plain structs whose
// layouts equal the on-disk records of the page ../shared/seeds/000 (Face 16 bytes, Edge 20
// bytes), so arrays can be filled with one copy from a tagfile and written back unchanged.
// Every field is kept, including the ones that are "not data" (vertex w, face padding), so a
// model read from a file writes back byte for byte.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace navlab::fromsoft {

/// Value of oppositeEdge / oppositeFace on the mesh boundary.
inline constexpr std::uint32_t kNoOpposite = 0xFFFFFFFFu;

struct Vec4 {
    float x = 0, y = 0, z = 0, w = 0;
};
static_assert(sizeof(Vec4) == 16);

/// hkAabb: min and max corners; the w lanes hold the margin (-m on min, +m on max).
struct Aabb {
    Vec4 min, max;
};
static_assert(sizeof(Aabb) == 32);

/// hkaiNavMesh::Face (16 bytes, page table "Face").
struct Face {
    std::int32_t startEdgeIndex = 0;
    std::int32_t startUserEdgeIndex = -1;  ///< -1 when the face has no user edges
    std::int16_t numEdges = 0;
    std::int16_t numUserEdges = 0;
    std::int16_t clusterIndex = -1;  ///< Sekiro: graph node; Elden Ring: -1
    std::uint16_t padding = 0xCDCD;  ///< serialized; 0xCDCD on every real face
};
static_assert(sizeof(Face) == 16);

/// hkaiNavMesh::Edge (20 bytes, page table "Edge").
struct Edge {
    std::int32_t a = 0;  ///< start vertex
    std::int32_t b = 0;  ///< end vertex
    std::uint32_t oppositeEdge = kNoOpposite;
    std::uint32_t oppositeFace = kNoOpposite;
    std::uint8_t flags = 4;  ///< 4 on regular edges, 20 or 52 on user edges
    std::uint8_t paddingByte = 0;
    std::uint16_t userEdgeCost = 0;  ///< hkHalf16 bits
};
static_assert(sizeof(Edge) == 20);

/// hkaiNavMesh (208 bytes, version 16).
struct NavMesh {
    std::vector<Face> faces;
    std::vector<Edge> edges;  ///< regular edges in face order, then user edges
    std::vector<Vec4> vertices;  ///< w is not data but is kept
    std::vector<std::int32_t> faceData;  ///< faces × faceDataStriding words
    std::vector<std::int32_t> edgeData;  ///< edges × edgeDataStriding words
    std::int32_t faceDataStriding = 1;
    std::int32_t edgeDataStriding = 1;
    std::uint8_t flags = 0;
    Aabb aabb;
    float erosionRadius = 0;
    std::uint64_t userData = 0;
    std::uint32_t streamingSetCount = 0;  ///< empty on every real mesh
    bool hasClearanceCacheSeeding = false;  ///< the opaque seeding object is present
};

/// hkaiDirectedGraphExplicitCost::Node (8 bytes).
struct GraphNode {
    std::int32_t startEdgeIndex = 0;
    std::int32_t numEdges = 0;
};
/// hkaiDirectedGraphExplicitCost::Edge (8 bytes).
struct GraphEdge {
    std::uint16_t cost = 0;  ///< hkHalf16 bits
    std::uint16_t flags = 0;
    std::uint32_t target = 0;  ///< node index
};
static_assert(sizeof(GraphNode) == 8 && sizeof(GraphEdge) == 8);

/// hkaiDirectedGraphExplicitCost: the Sekiro cluster graph.
struct DirectedGraph {
    std::vector<Vec4> positions;  ///< one per node
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    std::vector<std::uint32_t> nodeData, edgeData;
    std::int32_t nodeDataStriding = 0;
    std::int32_t edgeDataStriding = 0;
    std::uint32_t streamingSetCount = 0;
};

/// hkcdStaticTree Aabb6BytesCodec node: 3 axis-nibble bytes, hiData, loData.
struct AabbTreeNode6 {
    std::array<std::uint8_t, 3> xyz{};
    std::uint8_t hiData = 0;
    std::uint16_t loData = 0;
};
static_assert(sizeof(AabbTreeNode6) == 6);

/// hkaiStaticTreeNavMeshQueryMediator with its hkcdStaticAabbTree (Elden Ring).
struct QueryMediator {
    std::vector<AabbTreeNode6> nodes;  ///< pre-order
    Aabb domain;
    bool navMeshIsFileMesh = true;  ///< the mediator's navMesh is the tagfile's mesh
};

/// hkaiUserEdgeUtils::Obb: transform as 16 raw floats (3 rotation columns of 4, translation,
/// one more float), then half extents.
struct Obb {
    std::array<float, 16> transform{};
    Vec4 halfExtents;
};
static_assert(sizeof(Obb) == 80);

/// hkaiUserEdgeUtils::UserEdgeSetup (224 bytes).
struct UserEdgeSetup {
    Obb obbA, obbB;
    std::uint32_t userDataA = 0, userDataB = 0;
    float costAtoB = 0, costBtoA = 0;
    Vec4 worldUpA, worldUpB;
    std::uint8_t direction = 0, space = 0, forceAlign = 0;
};

/// One root variant of the tagfile's hkRootLevelContainer.
struct RootVariant {
    std::string name, className;
};

/// Everything navlab models in one navmesh tagfile.
struct NavTagfile {
    std::uint32_t sdkVersion = 0;  ///< 20160200 (Sekiro) or 20180100 (Elden Ring)
    std::vector<RootVariant> variants;
    NavMesh mesh;
    std::optional<DirectedGraph> graph;
    std::optional<QueryMediator> mediator;
    std::optional<std::vector<UserEdgeSetup>> userEdgeSetups;
};

}  // namespace navlab::fromsoft
