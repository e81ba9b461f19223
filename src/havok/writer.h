// Writing tagfiles. One writer serves both modes:
//  * round trip: write_tagfile(read_tagfile(x)) == x byte for byte — the file is turned into an
//    object graph that keeps no offsets, item numbers or type order, and everything is derived
//    again by the real writer's rules (spec §4.4, §4.8, §4.10, §5.5, §5.6);
//  * from scratch: a Builder fills the same graph by type and field names against a type set
//    (e.g. navmesh_types_2018() from type_sets.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "havok/tagfile.h"
#include "havok/types.h"

namespace navlab::havok {

/// A reference stored in a node's bytes. Pointer → another object node, Array → an array node,
/// String → an entry of Graph::strings.
struct Ref {
    enum class Kind : std::uint8_t { Pointer, Array, String };
    Kind kind = Kind::Pointer;
    std::uint32_t index = 0;  ///< node index (Pointer, Array) or string index (String)
};

/// One object (a future pointer item) or one run of array elements (a future array item).
struct Node {
    TypeIndex type = 0;     ///< object: dynamic type; array: element type
    std::uint32_t count = 1;  ///< number of elements (objects: 1)
    bool is_array = false;
    std::vector<std::uint8_t> bytes;  ///< count × type size; reference slots are overwritten
    std::map<std::uint32_t, Ref> refs;  ///< byte offset inside `bytes` → referenced thing
};

/// Everything a tagfile is written from.
struct Graph {
    std::string sdk_version = "20180100";
    TypeTable types;  ///< type records with hashes; indices are this table's own
    std::vector<Node> nodes;
    std::vector<std::string> strings;  ///< string contents (raw bytes, no NUL)
    /// The element type of each string's item, parallel to `strings` (missing or 0: the
    /// table's first 1-byte type named char). A read file keeps its own: a table may hold
    /// several types named char (spec §4.3: never deduplicate by name), and the first by name
    /// in the written file's order need not be the one its strings used.
    std::vector<TypeIndex> string_types;
    std::uint32_t root = 0;            ///< node index of the hkRootLevelContainer object
};

/// Writer choices that the SDK version normally decides.
struct WriteOptions {
    enum class Tags { Auto, Tna1, Tnam };
    Tags tags = Tags::Auto;  ///< Auto: TNA1/TBDY for SDK >= 20160200, else TNAM/TBOD
    enum class Sharing { Auto, Never, PerPointerItem };
    /// Equal strings share one item: Auto = per pointer item for SDK >= 20180100, never below
    /// (spec §5.2; 2016.x is unknown).
    Sharing sharing = Sharing::Auto;
    bool thsh = true;  ///< emit THSH
    bool tpad = true;  ///< emit TPAD
};

/// Writes a graph as a tagfile. Throws navlab::Error when the graph is inconsistent (a
/// reference slot that is not a reference field of the type, a missing hash, ...).
std::vector<std::uint8_t> write_graph(const Graph& graph, const WriteOptions& options = {});

/// Turns a read tagfile into a graph (no offsets, numbers or orders kept).
Graph graph_from_tagfile(const Tagfile& file);

/// Round trip: rewrites a read tagfile with the section style it had. For the samples the
/// output equals the input byte for byte.
std::vector<std::uint8_t> write_tagfile(const Tagfile& file);

/// Handle of a builder node.
struct NodeId {
    std::uint32_t index = 0;
};

/// A place to store a value: a field (dotted path through inline records, e.g. "aabb.min")
/// of one element of a node.
struct Slot {
    std::uint32_t node = 0;
    std::uint32_t offset = 0;  ///< byte offset inside the node's bytes
    TypeIndex type = 0;        ///< declared type of the field
};

/// Builds a tagfile from scratch against a type set. Objects and arrays start zero-filled;
/// fields are set by name. Example:
///   Builder b(navmesh_types_2018());
///   NodeId mesh = b.object("hkaiNavMesh");
///   b.set_array(b.at(mesh, "faces"), b.array("hkaiNavMesh::Face", n, face_bytes));
///   b.add_variant(mesh);
///   auto bytes = b.finish();
class Builder {
public:
    /// @param types       the type set (records and hashes); must contain hkRootLevelContainer.
    /// @param sdk_version SDKV string, e.g. "20180100".
    explicit Builder(TypeTable types, std::string sdk_version = "20180100");

    /// A new zero-filled object of the type named type_name (full name, e.g. "hkaiNavMesh").
    NodeId object(std::string_view type_name);
    /// A new array of count elements of element_type; raw = count × size bytes, or empty for zeros.
    /// @throws navlab::Error when raw has a non-zero byte in a gap or non-serialized member of
    ///         element_type (the file would fail every strict reader), unless allow_gap_bytes.
    NodeId array(std::string_view element_type, std::uint32_t count, Bytes raw = {});
    /// Lets array() keep non-zero gap bytes: only for files broken on purpose (synth's
    /// injected audit defects, e.g. R31's paddingByte), which strict readers then refuse.
    void allow_gap_bytes(bool allow) { allow_gap_bytes_ = allow; }

    /// The field `path` of element `element` of node (element 0 for objects).
    Slot at(NodeId node, std::string_view path, std::uint32_t element = 0) const;
    /// Int/Bool/enum field (any width; the value is truncated to the field's size).
    void set_int(Slot slot, std::int64_t value);
    /// Float field (float, double, or hkHalf16 as the upper half of a float32).
    void set_float(Slot slot, double value);
    /// Raw bytes at the slot (at most the field's size; e.g. a whole hkVector4 or hkAabb).
    void set_bytes(Slot slot, Bytes bytes);
    /// Pointer field → object (or 0-index NodeId with null=true to clear).
    void set_pointer(Slot slot, NodeId object);
    /// hkArray field → array node.
    void set_array(Slot slot, NodeId array);
    /// String field → a new string.
    void set_string(Slot slot, std::string_view text);

    /// Adds a root variant (hkRootLevelContainer::NamedVariant) pointing at object; name and
    /// class name default to the object's type name.
    void add_variant(NodeId object, std::string name = {}, std::string class_name = {});

    /// Builds the root container and writes the tagfile.
    std::vector<std::uint8_t> finish(const WriteOptions& options = {});

    const Graph& graph() const noexcept { return graph_; }
    const TypeTable& types() const noexcept { return graph_.types; }

private:
    TypeIndex type_named(std::string_view name) const;
    Node& node(std::uint32_t index);
    void check_slot(const Slot& slot, bool reference) const;
    void check_gaps_zero(TypeIndex type, std::uint32_t count, Bytes records, std::string_view type_name) const;

    Graph graph_;
    bool allow_gap_bytes_ = false;
    struct Variant {
        std::uint32_t node;
        std::string name, class_name;
    };
    std::vector<Variant> variants_;
};

}  // namespace navlab::havok
