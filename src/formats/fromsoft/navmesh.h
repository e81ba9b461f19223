// The model of a FromSoftware (Havok AI) navmesh tagfile: plain structs whose
// layouts equal the on-disk records of the page ../shared/seeds/000 (Face 16 bytes, Edge 20
// bytes), so arrays can be filled with one copy from a tagfile and written back unchanged.
// Every field is kept, including the ones that are "not data" (vertex w, face padding), so a
// model read from a file writes back byte for byte.
//
// Besides the objects, a NavTagfile keeps what the audit needs to judge the file itself: the
// SDK version, the root variants, the layouts of the modelled records as the file's own type
// table states them (LayoutSummary), per-class object counts and the strict reader's warnings.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/fromsoft/game.h"
#include "io/default_init_vector.h"
#include "io/error.h"

namespace navlab::fromsoft {

/// Value of oppositeEdge / oppositeFace on the mesh boundary.
inline constexpr std::uint32_t kNoOpposite = 0xFFFFFFFFu;


struct Vec4 {
    float x = 0, y = 0, z = 0, w = 0;

    friend bool operator==(const Vec4&, const Vec4&) = default;
};
static_assert(sizeof(Vec4) == 16);

/// hkAabb: min and max corners; the w lanes hold the margin (-m on min, +m on max).
struct Aabb {
    Vec4 min, max;

    friend bool operator==(const Aabb&, const Aabb&) = default;
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

    friend bool operator==(const Face&, const Face&) = default;
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
    std::uint16_t userEdgeCost = 0;  ///< hkHalf16 bits (half.h)

    friend bool operator==(const Edge&, const Edge&) = default;
};
static_assert(sizeof(Edge) == 20);

/// hkaiNavMesh (208 bytes, version 16).
struct NavMesh {
    // RecordVector: std::vector, except that the reader grows them without constructing the
    // records it then copies in (append_uninitialized).
    RecordVector<Face> faces;
    RecordVector<Edge> edges;  ///< regular edges in face order, then user edges
    RecordVector<Vec4> vertices;  ///< w is not data but is kept
    RecordVector<std::int32_t> faceData;  ///< faces × faceDataStriding words
    RecordVector<std::int32_t> edgeData;  ///< edges × edgeDataStriding words
    std::int32_t faceDataStriding = 1;
    std::int32_t edgeDataStriding = 1;
    std::uint8_t flags = 0;
    Aabb aabb;
    float erosionRadius = 0;
    std::uint64_t userData = 0;
    std::uint32_t streaming_set_count = 0;  ///< length of streamingSets (empty on every real mesh)
    /// The clearanceCacheSeedingDataSet pointer is non-null. Its content is opaque to navlab:
    /// it is not modelled and the writer does not emit it (the pointer is written null).
    bool has_clearance_cache_seeding = false;
    std::uint32_t clearance_cache_data_count = 0;  ///< length of its cacheDatas (read only)

    friend bool operator==(const NavMesh&, const NavMesh&) = default;
};

/// hkaiDirectedGraphExplicitCost::Node (8 bytes).
struct GraphNode {
    std::int32_t startEdgeIndex = 0;
    std::int32_t numEdges = 0;

    friend bool operator==(const GraphNode&, const GraphNode&) = default;
};
/// hkaiDirectedGraphExplicitCost::Edge (8 bytes).
struct GraphEdge {
    std::uint16_t cost = 0;  ///< hkHalf16 bits (half.h)
    std::uint16_t flags = 0;
    std::uint32_t target = 0;  ///< node index

    friend bool operator==(const GraphEdge&, const GraphEdge&) = default;
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
    std::uint32_t streaming_set_count = 0;  ///< length of streamingSets (read only)

    friend bool operator==(const DirectedGraph&, const DirectedGraph&) = default;
};

/// hkcdStaticTree Aabb6BytesCodec node: 3 axis-nibble bytes, hiData, loData (aabb_tree6.h).
struct AabbTreeNode6 {
    std::array<std::uint8_t, 3> xyz{};
    std::uint8_t hiData = 0;
    std::uint16_t loData = 0;

    friend bool operator==(const AabbTreeNode6&, const AabbTreeNode6&) = default;
};
static_assert(sizeof(AabbTreeNode6) == 6);

/// hkaiStaticTreeNavMeshQueryMediator with its hkcdStaticAabbTree (Elden Ring).
struct QueryMediator {
    std::vector<AabbTreeNode6> nodes;  ///< pre-order
    Aabb domain;
    bool nav_mesh_is_file_mesh = true;  ///< navMesh is the item of the hkaiNavMesh root variant
    std::uint32_t nav_mesh_item = 0;  ///< item index navMesh points to (0 = null; read only)
    /// Type name of the object `tree` points to ("hkcdStaticAabbTree"); empty when null.
    std::string tree_class = "hkcdStaticAabbTree";
    bool has_tree_impl = true;  ///< the tree's treePtr is non-null
};

/// hkaiUserEdgeUtils::Obb: transform as 16 raw floats (3 rotation columns of 4, translation,
/// one more float), then half extents.
struct Obb {
    std::array<float, 16> transform{};
    Vec4 halfExtents;

    friend bool operator==(const Obb&, const Obb&) = default;
};
static_assert(sizeof(Obb) == 80);

/// hkaiUserEdgeUtils::UserEdgeSetup (224 bytes).
struct UserEdgeSetup {
    Obb obbA, obbB;
    std::uint32_t userDataA = 0, userDataB = 0;
    float costAtoB = 0, costBtoA = 0;
    Vec4 worldUpA, worldUpB;
    std::uint8_t direction = 0, space = 0, forceAlign = 0;  ///< raw storage bytes

    friend bool operator==(const UserEdgeSetup&, const UserEdgeSetup&) = default;
};

/// One root variant of the tagfile's hkRootLevelContainer.
struct RootVariant {
    std::string name, className;
    std::string type_name;  ///< type of the object `variant` points to; empty when null
    std::uint32_t item = 0;  ///< item index of that object (0 = null)
};

/// One member of a record as the file's own type table declares it.
struct MemberInfo {
    std::string name;
    std::uint32_t offset = 0;  ///< from the start of the object (parent members included)
    std::uint32_t size = 0;  ///< byte size of the member's type
    std::string type_name;  ///< the member's declared type ("hkaiIndex<hkInt32>", "hkHalf16")
    /// Format word of the type after following aliases (§4.5 of the tagfile spec): kind in
    /// bits 0-3 (4 Int, 5 Float, 7 Record, 8 Array...), 0x200 signed, 0x20 inline array.
    std::uint32_t format = 0;
    std::uint32_t flags = 0;  ///< member flags (32 = serialized field, 1 = not serialized)
};

/// The layout of one record type in the file's own type table; absent when name is empty.
struct RecordInfo {
    std::string name;
    std::uint32_t size = 0, alignment = 0, version = 0;
    std::uint32_t format = 0;  ///< resolved format word (0x7 record, 0x428 hkVector4...)

    bool present() const noexcept { return !name.empty(); }
    /// The members declared by this type and its parents, by offset.
    std::span<const MemberInfo> members() const noexcept { return members_; }
    void set_members(std::vector<MemberInfo> members) { members_ = std::move(members); }
    /// The list of members, to change. Spans and pointers from members() and find() before a
    /// change that resizes it may dangle after it.
    std::vector<MemberInfo>& mutable_members() noexcept { return members_; }
    /// The member called `member`, or nullptr. A view: the layout rules ask it with literals,
    /// and a std::string made per call allocated for the longer names (R05, R06, R90).
    const MemberInfo* find(std::string_view member) const {
        for (const MemberInfo& m : members())
            if (m.name == member) return &m;
        return nullptr;
    }

private:
    std::vector<MemberInfo> members_;
};

/// One role's layout in a LayoutSummary: a RecordInfo shared, never changed once shared. The
/// model reader keeps one per type table and type (its per-thread memo) and every model read
/// from that table points at it: copying the ≈ 11 layouts into each model (a name and a
/// shared member list each, after a hash lookup) was ≈ 2.9 M instructions on Sekiro's 1,509
/// tagfiles. The model owns a share, so the layout outlives the memo's entry and thread.
/// Reads as a const RecordInfo (an absent one when none was set).
class RecordRef {
public:
    RecordRef() = default;
    /// A layout of its own (tests and hand-made models assign RecordInfos).
    RecordRef(RecordInfo info) : info_(std::make_shared<const RecordInfo>(std::move(info))) {}
    /// A share of `info` (null: absent).
    explicit RecordRef(std::shared_ptr<const RecordInfo> info) noexcept : info_(std::move(info)) {}

    const RecordInfo& operator*() const noexcept { return info_ ? *info_ : absent(); }
    const RecordInfo* operator->() const noexcept { return &**this; }
    /// This role's layout to change: a copy of its own first (other models and the memo keep
    /// theirs). Copies of this RecordRef made afterwards share the changes made later.
    RecordInfo& edit() {
        auto own = std::make_shared<RecordInfo>(**this);
        info_ = own;
        return *own;
    }

private:
    static const RecordInfo& absent() noexcept {
        static const RecordInfo none;
        return none;
    }
    std::shared_ptr<const RecordInfo> info_;
};

/// Layouts of the modelled records, by role, as found in the file (R05, R06, R14, R56, R66,
/// R84, R90 of the audit). A role whose class the file does not hold stays absent.
struct LayoutSummary {
    RecordRef navMesh, face, edge;  ///< hkaiNavMesh, hkaiNavMesh::Face, hkaiNavMesh::Edge
    RecordRef vertex;  ///< element type of hkaiNavMesh.vertices (hkVector4)
    RecordRef graph, graph_node, graph_edge;  ///< hkaiDirectedGraphExplicitCost and its records
    RecordRef tree_node;  ///< element type of the tree's nodes (Aabb6BytesCodec)
    RecordRef user_edge_setup, obb;  ///< hkaiUserEdgeUtils::UserEdgeSetup and ::Obb
    RecordRef obb_transform;  ///< type of Obb.transform (hkTransform, format 0x1028)
    /// Where hkaiNavMesh's faces, edges and vertices records start in the tagfile read
    /// (absolute byte offsets; kNoOffset for an empty array): with the record sizes above, the
    /// byte of any element, for errors that name it (query::FromSoftView).
    std::uint64_t faces_at = kNoOffset, edges_at = kNoOffset, vertices_at = kNoOffset;
};

/// Everything navlab models in one navmesh tagfile.
struct NavTagfile {
    std::uint32_t sdk_version = 0;  ///< 20160200 (Sekiro) or 20180100 (Elden Ring)
    std::string sdk_string;  ///< SDKV as stored ("20180100"); read only, the writer uses sdk_version
    bool own_type_table = true;  ///< TAG0 holds a TYPE section (no compendium reference)
    std::vector<RootVariant> variants;  ///< in file order (the writer uses only their names)
    std::map<std::string, std::uint32_t> object_counts;  ///< pointer items per type name
    LayoutSummary layouts;  ///< read only: the writer emits the standard layouts
    /// Deviations the strict reader accepted but reported (non-zero padding, odd ordering...),
    /// in file order: absolute offset in the tagfile, field path, message.
    std::vector<Finding> warnings;

    NavMesh mesh;
    std::optional<DirectedGraph> graph;
    std::optional<QueryMediator> mediator;
    std::optional<std::vector<UserEdgeSetup>> user_edge_setups;
};

/// Whether the tagfile holds an hkaiNavMesh: a Havok tagfile of another kind (an animation, a
/// collision mesh) reads too, with an empty `mesh`, but is no navmesh (not an empty one).
inline bool holds_navmesh(const NavTagfile& t) { return t.object_counts.count("hkaiNavMesh") > 0; }

}  // namespace navlab::fromsoft
