// The model of a Project IGI 1 navigation graph `graph<taskId>.dat` (spec igi-graph.md):
// nodes, undirected links, nMaxNodes and the N×N route table, plus what a byte-exact
// rewrite needs (the named variant's field order, unknown fields, blob header).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/igi/stream.h"

namespace navlab::igi {

/// The two on-disk forms: named fields after the magic CC DD EE FF, or positional records.
enum class Variant { Named, Positional };

/// Criteria flag bits, in the engine's registration order (NODECRITERIA_*, §4.6 item 7).
enum CriteriaFlag : std::uint32_t { kDoor = 1, kView = 2, kStair = 4 };

/// The engine rejects node ids at or above this value (§4.6 item 4).
inline constexpr std::int32_t kMaxNodeId = 1000;

/// One of the positional variant's counted int pairs (meaning unknown, kept verbatim).
struct IntPair {
    std::int32_t a = 0, b = 0;
    bool operator==(const IntPair&) const = default;
};

struct Node {
    std::int32_t id = 0;              ///< slot index, 0 <= id < min(nMaxNodes, 1000)
    Vec3 position;                    ///< graph-local world units; world = task position + this
    float gamma = 0;                  ///< vNodeGamma (probably a heading; 0 in retail files)
    float radius = 0;                 ///< vNodeRadius in metres (0.5 typical)
    std::optional<std::int32_t> material;  ///< game material id, -1 = none; absent if not stored
    std::string criteria;             ///< "", NODECRITERIA_DOOR, _VIEW or _STAIR (without the NUL)
    std::optional<float> extra;       ///< positional only: the optional float (S9 "f3")
    std::vector<IntPair> list_a;      ///< positional only: first counted int-pair list
    std::vector<IntPair> list_b;      ///< positional only: second counted int-pair list
};

/// An undirected link; the engine attaches it to both endpoints.
struct Link {
    std::int32_t id1 = 0, id2 = 0;
    std::int32_t type = 1;  ///< eLinkType; 1 in every retail link
};

/// Route-table entry: next node on the shortest path and the whole path's cost.
struct RouteEntry {
    std::int32_t next = -1;  ///< -1 = no route
    float cost = -1.0f;      ///< world units; -1.0 with next = -1
};

/// Which model value a named-variant field record carries.
enum class FieldRole : std::uint8_t {
    Raw,  ///< unknown or superseded field: written back from `raw`
    MaxNodes,
    RouteTable,
    NodeId,
    NodePosition,
    NodeGamma,
    NodeRadius,
    NodeMaterial,
    NodeCriteria,
    LinkId1,
    LinkId2,
    LinkType,
};

/// One named-variant field as it appeared in the file, so a rewrite keeps the order.
struct FieldRecord {
    std::uint32_t hash = 0;
    std::uint8_t declared_type = 0;
    FieldRole role = FieldRole::Raw;
    std::uint32_t index = 0;        ///< node or link index for node/link roles
    std::vector<std::uint8_t> raw;  ///< Raw role: the tagged value bytes as read
};

struct Graph {
    Variant variant = Variant::Named;
    std::int32_t max_nodes = 100;  ///< nMaxNodes N: slot count and route-table side
    std::vector<Node> nodes;       ///< in file order
    std::vector<Link> links;       ///< in file order
    /// N·N entries indexed from + to·N; empty when the file has no route table.
    std::vector<RouteEntry> routes;
    /// The 7 header bytes before the table as read; nullopt writes default_blob_header().
    std::optional<BlobHeader> blob_header;
    /// Positional only: whether the table carries the blob header (engine: yes; S9: no).
    bool route_header = true;
    /// Named only: the fields in file order. Empty = write the retail layout.
    std::vector<FieldRecord> layout;
    /// Filled by the reader: what the engine tolerates but a careful editor should know about
    /// (absolute offset, field path, message).
    std::vector<Finding> warnings;

    /// Index of entry (from, to) in `routes`.
    std::size_t route_index(std::int32_t from, std::int32_t to) const {
        return static_cast<std::size_t>(from) + static_cast<std::size_t>(to) * static_cast<std::size_t>(max_nodes);
    }
};

/// The flag word the engine derives from a criteria string: "" = 0, known names joined by
/// '|' are OR-ed. nullopt when a name is not one of the three NODECRITERIA_* symbols.
std::optional<std::uint32_t> criteria_flags(const std::string& criteria);

/// World position of a node: task position (the AIGraph task's "Graph position") + local.
Vec3 world_position(const Node& node, const Vec3& task_position);

/// Whether all three coordinates are finite (neither NaN nor infinite).
bool is_finite(const Vec3& v);

/// Euclidean distance between two positions (world units).
double distance(const Vec3& a, const Vec3& b);

/// The blob header navlab writes for new tables: 0A 08 05 + uint32 N² (tag 10, element
/// size 8, a tagged element count). The engine ignores all seven bytes; the retail values
/// are unknown (spec §9 item 1).
BlobHeader default_blob_header(std::int32_t max_nodes);

/// Size of the retail named layout: 30 + 8N² + Σ(89 + criteria length) + 36·links.
std::uint64_t retail_named_size(const Graph& graph);

/// A table of N·N "no route" entries {-1, -1.0}.
std::vector<RouteEntry> empty_route_table(std::int32_t max_nodes);

/// Checks what every writer relies on (N >= 2, ids in range and unique, links between
/// existing nodes, criteria short enough, table of N·N entries or none); throws Error.
void validate_graph(const Graph& graph);

}  // namespace navlab::igi
