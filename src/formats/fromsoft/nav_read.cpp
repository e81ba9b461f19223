// read_nav_tagfile: the navmesh model from a tagfile's own type table, by member name.
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstring>
#include <list>
#include <map>
#include <span>
#include <type_traits>
#include <unordered_map>

#include "formats/fromsoft/half.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "havok/object.h"
#include "havok/tagfile.h"
#include "io/bulk_copy.h"
#include "io/error.h"
#include "io/free_arrays.h"

namespace navlab::fromsoft {
namespace {

/// What recycle_mesh_arrays and recycle_nav_tagfile gave this thread, taken by the next read:
/// storage only (emptied arrays; the variants' and counts' strings are assigned over).
struct SpareModel {
    RecordVector<Face> faces;
    RecordVector<Edge> edges;
    RecordVector<Vec4> vertices;
    RecordVector<std::int32_t> faceData, edgeData;
    // The rest of the model was made and freed per tagfile (≈ 17 allocations a Sekiro tagfile:
    // the graph's arrays, the variants' names past 15 characters, the counts' nodes).
    std::vector<Vec4> positions;
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges_of_graph;
    std::vector<std::uint32_t> nodeData, edgeData_of_graph;
    std::vector<AabbTreeNode6> tree_nodes;
    std::vector<UserEdgeSetup> setups;
    std::vector<RootVariant> variants;
    std::map<std::string, std::uint32_t> object_counts;
};

/// Moves `from`'s storage into `to`, emptied; `from` is left empty. A `from` without storage
/// (an unreadable tagfile's empty stand-in model) leaves `to` as it was.
template <class Vector>
void keep(Vector& to, Vector& from) {
    if (from.capacity() == 0) return;
    to = std::move(from);
    to.clear();
    from = {};
}

/// Fills `out` with n records copied from `bytes` (any alignment) without value-initialising
/// them first: zeroing the faces and edges before the copy overwrote them was most of the
/// model copy's own time (seventh session). The records go through a 1 KB buffer, each chunk
/// one memcpy in and one vector insert (a memmove) out. The buffer is bytes, not an array of
/// T: the records' default member initialisers made it a constructor loop per array (1.4 M
/// instructions on Sekiro). Inserting straight from aligned `bytes` instead (forty-second
/// session) lost GCC's memmove for the insert (the source might overlap the vector, and the
/// records are not trivial): edges were copied one by one, +10 M. Constructing each record
/// from a byte iterator (twenty-third session) built every 20-byte edge in a stack temporary
/// and copied it on, 12 instructions an edge; one memcpy of the whole array after a resize
/// paid a fill and glibc's `rep movsb`, slower here than that loop (thirty-fifth session).
template <class T>
void copy_records(const std::uint8_t* bytes, std::size_t n, std::vector<T>& out) {
    static_assert(std::is_trivially_copyable_v<T>);
    out.clear();
    out.reserve(n);
    constexpr std::size_t kChunk = 1024 / sizeof(T);
    alignas(T) unsigned char chunk[kChunk * sizeof(T)];
    const T* const records = reinterpret_cast<const T*>(chunk);
    for (std::size_t done = 0; done < n; done += kChunk) {
        const std::size_t k = std::min(kChunk, n - done);
        std::memcpy(chunk, bytes + done * sizeof(T), k * sizeof(T));
        out.insert(out.end(), records, records + k);
    }
}

/// The mesh's arrays (RecordVector): grown without constructing the records, then one bulk
/// copy (forty-third session: the two copies above, into the buffer and on into the vector,
/// were 11 M instructions on Sekiro).
template <class T>
void copy_records(const std::uint8_t* bytes, std::size_t n, RecordVector<T>& out) {
    static_assert(std::is_trivially_copyable_v<T>);
    out.clear();
    bulk_copy(append_uninitialized(out, n), bytes, n * sizeof(T));
}

/// memcpy(to, from, size) with the model's usual field widths copied inline (a memcpy call of
/// a size known only at run time was ≈ 30 instructions a field).
inline void copy_field(const std::uint8_t* from, std::uint8_t* to, std::size_t size) {
    switch (size) {
        case 1: *to = *from; break;
        case 2: std::memcpy(to, from, 2); break;
        case 4: std::memcpy(to, from, 4); break;
        case 8: std::memcpy(to, from, 8); break;
        case 16: std::memcpy(to, from, 16); break;
        default: std::memcpy(to, from, size);
    }
}

/// The 4-byte float at `from` as Value::as_float widens it to a double and the model narrows it
/// back (read_field): the same bits, except that a signalling NaN comes back quiet (the
/// widening sets the quiet bit and keeps the payload; the narrowing drops only the zero bits
/// the widening added). Done on the bits: compilers fold a float → double → float cast away.
inline void store_float_through_double(const std::uint8_t* from, std::uint8_t* to) {
    std::uint32_t bits;
    std::memcpy(&bits, from, 4);
    if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0) bits |= 0x00400000u;
    std::memcpy(to, &bits, 4);
}

/// The most root variants and object classes a thread keeps for its next read (real tagfiles
/// have 1–4 variants and ≈ 10 classes).
constexpr std::size_t kSpareEntries = 64;

SpareModel& spare_model() {
    thread_local SpareModel spare;
    return spare;
}

/// record_arrays_read_in_place's count.
thread_local std::uint64_t arrays_read_in_place = 0;

struct FieldMap;

/// How read_records may read a field in place: No (read_field), Copy (read_field's memcpy:
/// the member has the field's width and it is no float) or Float (as_float of a 4-byte
/// float member, narrowed to the model's float).
enum class InPlace : std::uint8_t { No, Copy, Float };

/// One in-place read of read_records: bytes [from, from + size) of an element to [to, …)
/// of its model record, as `how` says (read_field of `field` from `member` when No).
struct FieldCopy {
    InPlace how;
    std::uint32_t from, to, size;
    const havok::Member* member;
    const FieldMap* field;
};

/// The record layouts (RecordInfo) and member lookups of the type tables this thread read lately, by type:
/// tagfiles whose TYPE section is byte-identical share one table (read_tagfile's cache), and
/// building the full type names of every record's members once per tagfile was 4 % of the
/// Sekiro preset's audit (1,509 tagfiles of about 185 faces). Each entry keeps a copy of its
/// table, so a table that shares its records is the same table (as verify.cpp's layout
/// cache). Tables that read_tagfile does not keep (a TYPE section with a warning, or a table
/// made by hand) belong to one tagfile: they get no memo.
class RecordInfoCache {
public:
    /// A member, or a list of members, asked for by the model reader: the type and the name
    /// (a string literal of this file) or the list (kMeshMembers, kFaceFields, ...), known by
    /// its address.
    struct MemberKey {
        havok::TypeIndex type;
        const void* name;
        bool operator==(const MemberKey&) const = default;
    };
    struct MemberKeyHash {
        std::size_t operator()(const MemberKey& k) const noexcept {
            return std::hash<const void*>{}(k.name) ^ (std::size_t{k.type} * 0x9E3779B97F4A7C15u);
        }
    };
    /// find_member's answers for a list of one type's members, in the list's order.
    struct Plan {
        std::vector<const havok::Member*> members;
        /// Bit k: members[k]'s type is an hkArray (Type::is_hk_array), so that its as_array()
        /// needs only the item checks (Value::known_hk_array).
        std::uint32_t hk_arrays = 0;
        /// Bit k: members[k]'s type is an integer or bool, so that as_int() and as_uint() need
        /// only the bounds check (Value::known_int, known_uint).
        std::uint32_t integers = 0;
        /// Bit k: members[k]'s type is a string (Value::known_string) or a pointer
        /// (Value::known_target), so that only the item is checked.
        std::uint32_t strings = 0, pointers = 0;
        /// For a FieldMap list (read_records): 1 when the type's records have the model's
        /// layout (every member there), 0 when not, -1 not yet known.
        std::int8_t same_layout = -1;
        /// For a FieldMap list read member by member (read_records): its in-place reads
        /// (plan_copies) and whether the element is a record with every member inside it
        /// (then only the array's bounds decide whether the reads may be in place); made at the
        /// first such array.
        std::vector<FieldCopy> copies;
        bool members_fit = false;
    };
    /// What the reader asks of a type in every tagfile: a pointer item's or root variant's
    /// name and roles, a modelled record's layout.
    struct TypeFacts {
        bool known = false;
        std::uint8_t roles = 0;  ///< bit k: is_a(kRootClasses[k])
        std::string full_name;
        std::shared_ptr<const RecordInfo> record;  ///< the layout, shared with the models read (RecordRef)
        /// The type's plans, by member list (its address): one or two a type, so a scan
        /// (a hash lookup an object was ≈ 0.4 M instructions on Sekiro). A list, so that a
        /// plan stays where it is while the type's next plans are made (memo_plan's pointer).
        std::list<std::pair<const void*, Plan>> plans;
    };
    struct Entry {
        havok::TypeTable types;
        /// find_member's answers (nullptr when none) for the few members asked one by one.
        std::unordered_map<MemberKey, const havok::Member*, MemberKeyHash> members;
        /// By type index (0 … size()), with the type's plans: find_member's answers for a
        /// whole list of its members, in the list's order. Asked one by one (a hash lookup and
        /// a Value each) the reader's ≈ 45 lookups a tagfile were ≈ 7 M instructions on
        /// Sekiro; a plan is found once an object.
        std::vector<TypeFacts> facts;
    };
    /// The entry of `types` (a new one, replacing the oldest, when this thread has none), or
    /// nullptr for a table that read_tagfile does not keep.
    static Entry* of(const havok::TypeTable& types) {
        thread_local RecordInfoCache cache;
        for (Entry& e : cache.entries_)
            if (e.types.shares_records_with(types)) return &e;
        if (!havok::type_table_is_kept(types)) return nullptr;
        Entry& e = cache.entries_[cache.next_++ % cache.entries_.size()];
        e.types = types;
        e.members.clear();
        e.facts.assign(types.size() + 1, TypeFacts{});
        return &e;
    }

private:
    std::array<Entry, havok::kTypeTablesKept> entries_;
    std::size_t next_ = 0;
};

static_assert(std::endian::native == std::endian::little, "the model's records are copied as little-endian bytes");

using havok::ArrayView;
using havok::Kind;
using havok::ObjectView;
using havok::TypeIndex;
using havok::Value;

/// How one model field is filled from the file member of the same name.
enum class FieldKind { Raw, Int, Float, Half };

/// A model field: member name in the file, place and width in the model struct.
struct FieldMap {
    const char* name;
    std::size_t offset, size;
    FieldKind kind;
};

#define NAVLAB_FIELD(T, member, kind) FieldMap{#member, offsetof(T, member), sizeof(T::member), FieldKind::kind}

constexpr FieldMap kFaceFields[] = {
    NAVLAB_FIELD(Face, startEdgeIndex, Int), NAVLAB_FIELD(Face, startUserEdgeIndex, Int),
    NAVLAB_FIELD(Face, numEdges, Int),       NAVLAB_FIELD(Face, numUserEdges, Int),
    NAVLAB_FIELD(Face, clusterIndex, Int),   NAVLAB_FIELD(Face, padding, Int),
};
constexpr FieldMap kEdgeFields[] = {
    NAVLAB_FIELD(Edge, a, Int),     NAVLAB_FIELD(Edge, b, Int),           NAVLAB_FIELD(Edge, oppositeEdge, Int),
    NAVLAB_FIELD(Edge, oppositeFace, Int), NAVLAB_FIELD(Edge, flags, Int), NAVLAB_FIELD(Edge, paddingByte, Int),
    NAVLAB_FIELD(Edge, userEdgeCost, Half),
};
constexpr FieldMap kGraphNodeFields[] = {
    NAVLAB_FIELD(GraphNode, startEdgeIndex, Int),
    NAVLAB_FIELD(GraphNode, numEdges, Int),
};
constexpr FieldMap kGraphEdgeFields[] = {
    NAVLAB_FIELD(GraphEdge, cost, Half),
    NAVLAB_FIELD(GraphEdge, flags, Int),
    NAVLAB_FIELD(GraphEdge, target, Int),
};
constexpr FieldMap kTreeNodeFields[] = {
    NAVLAB_FIELD(AabbTreeNode6, xyz, Raw),
    NAVLAB_FIELD(AabbTreeNode6, hiData, Int),
    NAVLAB_FIELD(AabbTreeNode6, loData, Int),
};
constexpr FieldMap kSetupFields[] = {
    NAVLAB_FIELD(UserEdgeSetup, obbA, Raw),        NAVLAB_FIELD(UserEdgeSetup, obbB, Raw),
    NAVLAB_FIELD(UserEdgeSetup, userDataA, Int),   NAVLAB_FIELD(UserEdgeSetup, userDataB, Int),
    NAVLAB_FIELD(UserEdgeSetup, costAtoB, Float),  NAVLAB_FIELD(UserEdgeSetup, costBtoA, Float),
    NAVLAB_FIELD(UserEdgeSetup, worldUpA, Raw),    NAVLAB_FIELD(UserEdgeSetup, worldUpB, Raw),
    NAVLAB_FIELD(UserEdgeSetup, direction, Int),   NAVLAB_FIELD(UserEdgeSetup, space, Int),
    NAVLAB_FIELD(UserEdgeSetup, forceAlign, Int),
};

#undef NAVLAB_FIELD

// The members each object's reader takes, in the order it takes them (a plan: found once per
// type table), with their places in the list.
constexpr const char* kMeshMembers[] = {"faces", "edges", "vertices", "faceData", "edgeData", "faceDataStriding",
                                        "edgeDataStriding", "flags", "aabb", "erosionRadius", "userData",
                                        "streamingSets", "clearanceCacheSeedingDataSet"};
enum MeshMember : std::size_t {
    kFaces, kEdges, kVertices, kFaceData, kEdgeData, kFaceDataStriding, kEdgeDataStriding,
    kFlags, kAabb, kErosionRadius, kUserData, kMeshStreamingSets, kSeedingSet, kMeshMemberCount
};
static_assert(std::size(kMeshMembers) == kMeshMemberCount);
constexpr const char* kSeedingMembers[] = {"cacheDatas"};

constexpr const char* kGraphMembers[] = {"nodes", "edges", "positions", "nodeData", "edgeData",
                                         "nodeDataStriding", "edgeDataStriding", "streamingSets"};
enum GraphMember : std::size_t {
    kNodes, kGraphEdges, kPositions, kNodeData, kGraphEdgeData, kNodeDataStriding, kGraphEdgeDataStriding,
    kGraphStreamingSets, kGraphMemberCount
};
static_assert(std::size(kGraphMembers) == kGraphMemberCount);

constexpr const char* kRootMembers[] = {"namedVariants"};
constexpr const char* kVariantMembers[] = {"name", "className", "variant"};

/// The root variants' classes the model reads (a variant's type is_a one of them).
constexpr const char* kRootClasses[] = {"hkaiNavMesh", "hkaiDirectedGraphExplicitCost",
                                        "hkaiStaticTreeNavMeshQueryMediator", "hkaiUserEdgeSetupArray"};
enum RootClass : std::uint8_t { kMeshClass, kGraphClass, kMediatorClass, kSetupsClass };

/// A list's members of one type as found by find_member (nullptr where none), and which of
/// them are hkArrays, integers, strings and pointers (the Plan's bits).
template <std::size_t N>
struct MemberPlan {
    static_assert(N <= 32, "the kinds hold a bit per member");
    std::array<const havok::Member*, N> members;
    std::uint32_t hk_arrays = 0, integers = 0, strings = 0, pointers = 0;
};

/// An object whose members `names` were found once for its type table (ModelReader::plan):
/// field(k) is object.field(names[k]) — the same Value, or the same error when the type has no
/// such member — and find_field(k) object.find_field(names[k]), without a lookup by name.
template <std::size_t N>
class PlannedObject {
public:
    PlannedObject(const ObjectView& object, const char* const (&names)[N], const MemberPlan<N>& plan)
        : object_(object),
          names_(names),
          members_(plan.members),
          hk_arrays_(plan.hk_arrays),
          integers_(plan.integers),
          strings_(plan.strings),
          pointers_(plan.pointers) {}

    Value field(std::size_t k) const {
        if (const havok::Member* m = members_[k]) return value(*m);
        return object_.field(names_[k]);
    }
    std::optional<Value> find_field(std::size_t k) const {
        if (const havok::Member* m = members_[k]) return value(*m);
        return std::nullopt;
    }
    /// v.as_array() of v = field(k) or *find_field(k): the same view, or the same error.
    ArrayView array(std::size_t k, const Value& v) const { return (hk_arrays_ >> k & 1) ? v.known_hk_array() : v.as_array(); }
    /// field(k).as_array().
    ArrayView array(std::size_t k) const { return array(k, field(k)); }
    /// field(k).as_int().
    std::int64_t as_int(std::size_t k) const {
        const Value v = field(k);
        return (integers_ >> k & 1) ? v.known_int() : v.as_int();
    }
    /// field(k).as_uint().
    std::uint64_t as_uint(std::size_t k) const {
        const Value v = field(k);
        return (integers_ >> k & 1) ? v.known_uint() : v.as_uint();
    }
    /// field(k).as_string().
    std::string_view as_string(std::size_t k) const {
        const Value v = field(k);
        return (strings_ >> k & 1) ? v.known_string() : v.as_string();
    }
    /// v.target() of v = field(k) or *find_field(k).
    std::optional<ObjectView> target(std::size_t k, const Value& v) const {
        return (pointers_ >> k & 1) ? v.known_target() : v.target();
    }
    /// field(k).target().
    std::optional<ObjectView> target(std::size_t k) const { return target(k, field(k)); }

private:
    Value value(const havok::Member& m) const { return Value(object_.file(), m.type, object_.offset() + m.offset); }

    ObjectView object_;
    const char* const* names_;
    std::array<const havok::Member*, N> members_;
    std::uint32_t hk_arrays_, integers_, strings_, pointers_;
};

/// The name of a member list's entry.
constexpr const char* name_of(const char* name) { return name; }
constexpr const char* name_of(const FieldMap& field) { return field.name; }

class ModelReader {
public:
    explicit ModelReader(const havok::Tagfile& file)
        : file_(file), types_(file.types), memo_(RecordInfoCache::of(file.types)) {}

    NavTagfile read() {
        NavTagfile nav;
        nav.sdk_string = file_.sdk_version;
        std::uint32_t sdk = 0;
        const char* end = nav.sdk_string.data() + nav.sdk_string.size();
        if (std::from_chars(nav.sdk_string.data(), end, sdk).ptr == end) nav.sdk_version = sdk;
        for (const Finding& w : file_.warnings) nav.warnings.push_back(warning_at(w.offset, "tagfile", w.message));
        SpareModel& spare = spare_model();
        count_objects(nav.object_counts, std::move(spare.object_counts));

        std::optional<ObjectView> mesh, graph, mediator, setups;
        nav.variants = std::move(spare.variants);
        read_variants(nav.variants, [&](const ObjectView& object) {
            const std::uint8_t is = roles(object);
            pick(mesh, object, is, kMeshClass);
            pick(graph, object, is, kGraphClass);
            pick(mediator, object, is, kMediatorClass);
            pick(setups, object, is, kSetupsClass);
        });
        if (mesh) nav.mesh = read_mesh(*mesh, nav.layouts);
        if (graph) nav.graph = read_graph(*graph, nav.layouts);
        if (mediator) nav.mediator = read_mediator(*mediator, mesh ? item_of(*mesh) : 0, nav.layouts);
        if (setups) nav.user_edge_setups = read_setups(*setups, nav.layouts);
        return nav;
    }

private:
    /// Sets `counts` to the number of pointer items of each type, by full name, reusing the
    /// nodes of `spare` (an earlier tagfile's counts, most of them of the same types).
    void count_objects(std::map<std::string, std::uint32_t>& counts, std::map<std::string, std::uint32_t>&& spare) const {
        counts = std::move(spare);
        for (auto& entry : counts) entry.second = 0;
        for (const havok::Item& item : file_.items)
            if (item.kind == havok::ItemKind::Pointer) ++counts[full_name(item.type)];
        std::erase_if(counts, [](const auto& entry) { return entry.second == 0; });
    }

    /// Sets `variants` to the root's variants (file_.named_variants() through plans: the root's
    /// member and the variant type's three), assigned over its elements (their strings' storage
    /// is reused), and calls `found` with each variant's object. The same variants, or the same
    /// error at the same point (a missing member fails at the first element, after the members
    /// before it were read). Straight into the model: a list of views first, then the model's
    /// strings assigned even when equal, were ≈ 300 instructions a Sekiro variant.
    template <class Found>
    void read_variants(std::vector<RootVariant>& variants, Found&& found) {
        const ArrayView array = planned(file_.root(), kRootMembers).array(0);
        std::size_t n = 0;
        if (!array.empty()) {
            const TypeIndex type = array.element_type();
            const MemberPlan<3> members = plan(type, kVariantMembers, memo_plan(type, kVariantMembers));
            for (std::uint32_t i = 0; i < array.size(); ++i) {
                const PlannedObject v(array.object(i), kVariantMembers, members);
                const std::string_view name = v.as_string(0), class_name = v.as_string(1);
                const std::optional<ObjectView> object = v.target(2);
                if (n == variants.size()) variants.emplace_back();
                RootVariant& rv = variants[n++];
                assign(rv.name, name);
                assign(rv.className, class_name);
                if (object) {
                    assign(rv.type_name, full_name(object->type_index()));
                    rv.item = item_of(*object);
                    found(*object);
                } else {
                    rv.type_name.clear();
                    rv.item = 0;
                }
            }
        }
        variants.resize(n);
    }

    /// to = from, without the copy when they are equal already (a recycled variant's strings
    /// usually are).
    static void assign(std::string& to, std::string_view from) {
        if (to != from) to.assign(from);
    }

    /// Fills `slot` with the first variant object whose type is_a kRootClasses[c] (`is`: roles()).
    static void pick(std::optional<ObjectView>& slot, const ObjectView& object, std::uint8_t is, RootClass c) {
        if (!slot && (is >> c & 1)) slot = object;
    }

    /// The facts of type t kept in the table's memo, nullptr when there is none or t is out of it.
    RecordInfoCache::TypeFacts* facts_of(TypeIndex t) const {
        return memo_ && t < memo_->facts.size() ? &memo_->facts[t] : nullptr;
    }

    /// types_.full_name(t), made once per table and type (a pointer item's or variant's type is
    /// named in every tagfile). The reference is valid until the next call.
    const std::string& full_name(TypeIndex t) const {
        RecordInfoCache::TypeFacts* f = facts_of(t);
        if (!f) return scratch_name_ = types_.full_name(t);
        if (f->full_name.empty()) f->full_name = types_.full_name(t);
        return f->full_name;
    }

    /// Bit c set when `object` is_a kRootClasses[c]; once per table and type (is_a walks the
    /// type's parents comparing names: ≈ 120 instructions, four a variant).
    std::uint8_t roles(const ObjectView& object) const {
        RecordInfoCache::TypeFacts* f = facts_of(object.type_index());
        if (f && f->known) return f->roles;
        std::uint8_t is = 0;
        for (std::uint8_t c = 0; c < std::size(kRootClasses); ++c) is |= static_cast<std::uint8_t>(object.is_a(kRootClasses[c]) << c);
        if (f) f->known = true, f->roles = is;
        return is;
    }

    /// The first pointer item at the object's DATA offset (0 when none). The root's few
    /// variants are found by a scan (a map of the items by offset cost five allocations a
    /// tagfile); past kScansBeforeMap lookups the map is built once, so that a hostile root of
    /// many variants stays linear in its items instead of variants × items.
    havok::ItemIndex item_of(const ObjectView& object) {
        if (++lookups_ <= kScansBeforeMap) {
            for (havok::ItemIndex i = 1; i < file_.items.size(); ++i)
                if (file_.items[i].kind == havok::ItemKind::Pointer && file_.items[i].offset == object.offset()) return i;
            return 0;
        }
        if (!mapped_) {
            for (havok::ItemIndex i = 1; i < file_.items.size(); ++i)
                if (file_.items[i].kind == havok::ItemKind::Pointer) itemAt_.emplace(file_.items[i].offset, i);
            mapped_ = true;
        }
        const auto it = itemAt_.find(object.offset());
        return it == itemAt_.end() ? 0 : it->second;
    }

    [[noreturn]] void fail(const Value& at, const std::string& message) const {
        throw Error(message, file_.data_offset + at.offset(), types_.full_name(at.type_index()));
    }

    /// Sets `out` to the layout of type t (absent for an invalid t): a share of the table's
    /// memo's, built at its first tagfile, or one of its own for a table without a memo.
    void set_record(RecordRef& out, TypeIndex t) const {
        if (!types_.valid(t)) {
            out = RecordRef();
        } else if (RecordInfoCache::TypeFacts* f = facts_of(t)) {
            if (!f->record) f->record = std::make_shared<const RecordInfo>(build_record_info(t));
            out = RecordRef(f->record);
        } else {
            out = RecordRef(build_record_info(t));
        }
    }

    /// types_.find_member(t, name), from the table's memo when it has one. `name` must be a
    /// string literal (the memo knows it by its address).
    const havok::Member* member(TypeIndex t, const char* name) const {
        if (!memo_) return types_.find_member(t, name);
        const auto [it, added] = memo_->members.try_emplace({t, name}, nullptr);
        if (added) it->second = types_.find_member(t, name);
        return it->second;
    }

    /// The table's plan of `names` for type t, made at the first object of t; nullptr when
    /// the table has no memo. `names` must be a list of this file (known by its address). The
    /// pointer is valid for this reader's life (the thread's memo replaces a table's entry only
    /// when a later reader is made).
    template <class Name, std::size_t N>
    RecordInfoCache::Plan* memo_plan(TypeIndex t, const Name (&names)[N]) const {
        RecordInfoCache::TypeFacts* const f = facts_of(t);
        if (!f) return nullptr;  // no memo, or t is no type of the table (then plan() asks find_member)
        for (auto& [list, plan] : f->plans)
            if (list == names) return &plan;
        // Made whole before it is memoised: a throw (bad_alloc) part-way leaves no short plan
        // for plan() to copy from.
        RecordInfoCache::Plan made;
        made.members.reserve(N);
        for (const Name& n : names) {
            const havok::Member* m = types_.find_member(t, name_of(n));
            const std::uint32_t bit = std::uint32_t{1} << made.members.size();
            const Kind kind = m ? types_[m->type].kind() : Kind::Void;
            if (m && types_[m->type].is_hk_array()) made.hk_arrays |= bit;
            if (kind == Kind::Int || kind == Kind::Bool) made.integers |= bit;
            if (kind == Kind::String) made.strings |= bit;
            if (kind == Kind::Pointer) made.pointers |= bit;
            made.members.push_back(m);
        }
        return &f->plans.emplace_back(names, std::move(made)).second;
    }

    /// The members `names` of type t (nullptr where t has none), in the list's order: from
    /// `memo`, the table's plan (memo_plan), or looked up now when it has none (then no member
    /// is known to be of a kind: each accessor checks its type).
    template <class Name, std::size_t N>
    MemberPlan<N> plan(TypeIndex t, const Name (&names)[N], const RecordInfoCache::Plan* memo) const {
        MemberPlan<N> out{};
        if (memo) {
            std::copy(memo->members.begin(), memo->members.end(), out.members.begin());
            out.hk_arrays = memo->hk_arrays;
            out.integers = memo->integers;
            out.strings = memo->strings;
            out.pointers = memo->pointers;
        } else {
            for (std::size_t k = 0; k < N; ++k) out.members[k] = types_.find_member(t, name_of(names[k]));
        }
        return out;
    }

    /// `o` with the members `names` of its type planned.
    template <std::size_t N>
    PlannedObject<N> planned(const ObjectView& o, const char* const (&names)[N]) const {
        return PlannedObject<N>(o, names, plan(o.type_index(), names, memo_plan(o.type_index(), names)));
    }

    /// o.field(name) through member(): the same value, or ObjectView::field's error.
    Value field(const ObjectView& o, const char* name) const {
        if (std::optional<Value> v = find_field(o, name)) return *v;
        return o.field(name);
    }

    /// o.find_field(name) through member().
    std::optional<Value> find_field(const ObjectView& o, const char* name) const {
        if (const havok::Member* m = member(o.type_index(), name)) return Value(file_, m->type, o.offset() + m->offset);
        return std::nullopt;
    }

    RecordInfo build_record_info(TypeIndex t) const {
        RecordInfo r;
        const havok::Type& type = types_[t];
        r.name = types_.full_name(t);
        r.size = type.resolved_size;
        r.alignment = type.resolved_alignment;
        r.version = type.version;
        r.format = type.resolved_format;
        std::vector<MemberInfo> members;
        for (const havok::Member& m : types_.all_members(t)) {
            const havok::Type& mt = types_[m.type];
            members.push_back({std::string(m.name), m.offset, mt.resolved_size, types_.full_name(m.type), mt.resolved_format, m.flags});
        }
        r.set_members(std::move(members));
        return r;
    }

    /// The element type declared by an hkArray field (known even when the array is empty).
    TypeIndex element_type(const Value& array) const { return types_[array.type_index()].resolved_subtype; }

    /// Copies a value's bytes into `out` when it has exactly `size` bytes.
    void raw_into(const Value& v, void* out, std::size_t size, const char* what) const {
        const Bytes b = v.bytes();
        if (b.size() != size)
            fail(v, std::string(what) + " is " + std::to_string(b.size()) + " bytes, the model needs " + std::to_string(size));
        std::memcpy(out, b.data(), size);
    }

    /// Fills one model field from a file member, converting width where the file differs.
    void read_field(const Value& v, std::uint8_t* out, const FieldMap& f) const {
        const Bytes b = v.bytes();
        if (b.size() == f.size && f.kind != FieldKind::Float) {
            std::memcpy(out, b.data(), f.size);
            return;
        }
        const Kind kind = v.kind();
        if (f.kind == FieldKind::Int && (kind == Kind::Int || kind == Kind::Bool)) {
            const std::uint64_t x = static_cast<std::uint64_t>(v.as_int());
            std::memcpy(out, &x, f.size);  // little-endian truncation
        } else if (f.kind == FieldKind::Float && kind == Kind::Float) {
            const float x = static_cast<float>(v.as_float());
            std::memcpy(out, &x, sizeof x);
        } else if (f.kind == FieldKind::Half && kind == Kind::Float) {
            const std::uint16_t x = float_to_half16(static_cast<float>(v.as_float()));
            std::memcpy(out, &x, sizeof x);
        } else {
            fail(v, std::string("member ") + f.name + " (" + std::to_string(b.size()) +
                        " bytes) cannot be read into the model's " + std::to_string(f.size) + "-byte field");
        }
    }

    /// Reads an array of records: copied as bytes when the element type has the model's size and
    /// every model field at the model's offset and width, else member by member.
    /// @param field the hkArray member (errors name it); `array` its as_array().
    /// @param out storage to fill (its capacity is reused; recycle_mesh_arrays).
    template <class T, std::size_t N, class Vector = std::vector<T>>
    Vector read_records(const Value& field, const ArrayView& array, const FieldMap (&fields)[N], Vector out = {}) const {
        const TypeIndex elem = array.element_type();
        RecordInfoCache::Plan* const memo = memo_plan(elem, fields);
        bool same_layout = memo && memo->same_layout == 1;
        std::array<const havok::Member*, N> members{};
        if (!same_layout) {
            // Each field's member, found once for the table (the element type's plan): asking
            // every element for its fields by name was ≈ 200 instructions a field
            // (UserEdgeSetup, whose layout differs from the model's, is read member by member).
            same_layout = types_[elem].resolved_size == sizeof(T);
            members = plan(elem, fields, memo).members;
            for (std::size_t k = 0; k < N; ++k) {
                const havok::Member* m = members[k];
                if (!m) fail(field, types_.full_name(elem) + " has no member " + fields[k].name);
                same_layout = same_layout && m->offset == fields[k].offset && types_[m->type].resolved_size == fields[k].size;
            }
            if (memo) memo->same_layout = same_layout;
        }
        if (same_layout) {
            copy_records(array.bytes().data(), array.size(), out);
            return out;
        }
        out.assign(array.size(), T{});
        // In place (no Value, no bounds check a member) when no member can reach past DATA: a
        // field of the model's width is read_field's memcpy (neighbours in both the file and the
        // model one memcpy), a 4-byte float its conversion (≈ 1,000 instructions a Sekiro
        // UserEdgeSetup by a memcpy call a field and Values, ≈ 1,400 by Values alone); the
        // reads are planned once per table and type.
        std::array<FieldCopy, N> made;
        std::span<const FieldCopy> copies;
        bool fit;
        if (memo && !memo->copies.empty()) {
            copies = memo->copies;
            fit = memo->members_fit;
        } else {
            copies = std::span<const FieldCopy>(made.data(), plan_copies(members, fields, made));
            fit = members_fit(elem, members);
            if (memo) {
                memo->copies.assign(copies.begin(), copies.end());
                memo->members_fit = fit;
            }
        }
        if (fit && inside_data(array)) {
            read_in_place(array, copies, out);
            ++arrays_read_in_place;
            return out;
        }
        for (std::uint32_t i = 0; i < array.size(); ++i) {
            const std::uint32_t at = array.object(i).offset();
            std::uint8_t* const record = reinterpret_cast<std::uint8_t*>(&out[i]);
            for (std::size_t k = 0; k < N; ++k)
                read_field(Value(file_, members[k]->type, at + members[k]->offset), record + fields[k].offset, fields[k]);
        }
        return out;
    }

    /// read_records' reads `copies` from each element of `array` (inside DATA, every member
    /// inside its element: no bounds check a member) into the records of `out` (as many).
    template <class Vector>
    void read_in_place(const ArrayView& array, std::span<const FieldCopy> copies, Vector& out) const {
        const std::uint8_t* element = file_.data.data() + array.offset();
        for (std::uint32_t i = 0; i < array.size(); ++i, element += array.element_size()) {
            std::uint8_t* const record = reinterpret_cast<std::uint8_t*>(&out[i]);
            for (const FieldCopy& f : copies) {
                if (f.how == InPlace::Copy)
                    copy_field(element + f.from, record + f.to, f.size);
                else if (f.how == InPlace::Float)
                    store_float_through_double(element + f.from, record + f.to);
                else
                    read_field(Value(file_, f.member->type, static_cast<std::uint32_t>(element + f.from - file_.data.data())),
                               record + f.to, *f.field);
            }
        }
    }

    InPlace in_place_read(const havok::Member& m, const FieldMap& f) const {
        const havok::Type& type = types_[m.type];
        if (f.kind != FieldKind::Float) return type.resolved_size == f.size ? InPlace::Copy : InPlace::No;
        return type.kind() == Kind::Float && type.resolved_size == 4 && f.size == 4 ? InPlace::Float : InPlace::No;
    }

    /// Fills `out` with the reads of `fields` from `members`, in the list's order, a Copy that
    /// continues the one before it in both the element and the model merged into it; returns
    /// how many.
    template <std::size_t N>
    std::size_t plan_copies(const std::array<const havok::Member*, N>& members, const FieldMap (&fields)[N],
                            std::array<FieldCopy, N>& out) const {
        std::size_t n = 0;
        for (std::size_t k = 0; k < N; ++k) {
            const FieldCopy c{in_place_read(*members[k], fields[k]), members[k]->offset,
                              static_cast<std::uint32_t>(fields[k].offset), static_cast<std::uint32_t>(fields[k].size),
                              members[k], &fields[k]};
            FieldCopy* const last = n ? &out[n - 1] : nullptr;
            if (last && c.how == InPlace::Copy && last->how == InPlace::Copy && last->from + last->size == c.from &&
                last->to + last->size == c.to)
                last->size += c.size;
            else
                out[n++] = c;
        }
        return n;
    }

    /// Whether type t is a record (as_object of its elements does not fail) with each of
    /// `members` inside it: then no member's bytes() can fail in an element inside DATA.
    template <std::size_t N>
    bool members_fit(TypeIndex t, const std::array<const havok::Member*, N>& members) const {
        const havok::Type& element = types_[t];
        if (element.kind() != Kind::Record) return false;
        for (const havok::Member* m : members)
            if (m->offset + std::uint64_t{types_[m->type].resolved_size} > element.resolved_size) return false;
        return true;
    }

    /// Whether all of `array`'s elements lie inside DATA.
    bool inside_data(const ArrayView& array) const {
        return array.offset() <= file_.data.size() &&
               std::uint64_t{array.element_size()} * array.size() <= file_.data.size() - array.offset();
    }

    template <class T, std::size_t N, class Vector = std::vector<T>>
    Vector read_records(const Value& field, const FieldMap (&fields)[N], Vector out = {}) const {
        return read_records<T>(field, field.as_array(), fields, std::move(out));
    }

    /// An hkArray of hkVector4 (16-byte elements): `field` and its as_array().
    template <class Vector>
    Vector read_vectors(const Value& field, const ArrayView& array, Vector out) const {
        out.clear();
        if (array.size() == 0) return out;
        if (array.element_size() != sizeof(Vec4))
            fail(field, "vector elements are " + std::to_string(array.element_size()) + " bytes, not 16");
        copy_records(array.bytes().data(), array.size(), out);
        return out;
    }

    /// An hkArray of 32-bit integers (an hkArray field's as_array()).
    template <class T, class Vector>
    Vector read_words(const ArrayView& array, Vector out) const {
        if (array.element_size() == sizeof(T)) {
            copy_records(array.bytes().data(), array.size(), out);
        } else {
            out.assign(array.size(), T{});
            for (std::uint32_t i = 0; i < array.size(); ++i) out[i] = static_cast<T>(array[i].as_int());
        }
        return out;
    }

    /// The absolute file offset of an array's first record (kNoOffset when empty).
    std::uint64_t place_of(const ArrayView& a) const { return a.size() == 0 ? kNoOffset : file_.data_offset + a.offset(); }

    NavMesh read_mesh(const ObjectView& object, LayoutSummary& layouts) const {
        NavMesh m;
        set_record(layouts.navMesh, object.type_index());
        const PlannedObject o = planned(object, kMeshMembers);
        const Value faces = o.field(kFaces), edges = o.field(kEdges), vertices = o.field(kVertices);
        set_record(layouts.face, element_type(faces));
        set_record(layouts.edge, element_type(edges));
        set_record(layouts.vertex, element_type(vertices));
        const ArrayView face_array = o.array(kFaces, faces);
        layouts.faces_at = place_of(face_array);
        const ArrayView edge_array = o.array(kEdges, edges);
        layouts.edges_at = place_of(edge_array);
        const ArrayView vertex_array = o.array(kVertices, vertices);
        layouts.vertices_at = place_of(vertex_array);
        SpareModel& spare = spare_model();
        m.faces = read_records<Face>(faces, face_array, kFaceFields, std::move(spare.faces));
        m.edges = read_records<Edge>(edges, edge_array, kEdgeFields, std::move(spare.edges));
        m.vertices = read_vectors(vertices, vertex_array, std::move(spare.vertices));
        m.faceData = read_words<std::int32_t>(o.array(kFaceData), std::move(spare.faceData));
        m.edgeData = read_words<std::int32_t>(o.array(kEdgeData), std::move(spare.edgeData));
        m.faceDataStriding = static_cast<std::int32_t>(o.as_int(kFaceDataStriding));
        m.edgeDataStriding = static_cast<std::int32_t>(o.as_int(kEdgeDataStriding));
        m.flags = static_cast<std::uint8_t>(o.as_uint(kFlags));
        raw_into(o.field(kAabb), &m.aabb, sizeof m.aabb, "aabb");
        m.erosionRadius = static_cast<float>(o.field(kErosionRadius).as_float());
        m.userData = o.as_uint(kUserData);
        m.streaming_set_count = o.array(kMeshStreamingSets).size();
        if (auto seeding = o.find_field(kSeedingSet)) {
            if (auto set = o.target(kSeedingSet, *seeding)) {
                m.has_clearance_cache_seeding = true;
                const PlannedObject seeding_set = planned(*set, kSeedingMembers);
                if (auto datas = seeding_set.find_field(0)) m.clearance_cache_data_count = seeding_set.array(0, *datas).size();
            }
        }
        return m;
    }

    DirectedGraph read_graph(const ObjectView& object, LayoutSummary& layouts) const {
        DirectedGraph g;
        set_record(layouts.graph, object.type_index());
        const PlannedObject o = planned(object, kGraphMembers);
        const Value nodes = o.field(kNodes), edges = o.field(kGraphEdges);
        set_record(layouts.graph_node, element_type(nodes));
        set_record(layouts.graph_edge, element_type(edges));
        SpareModel& spare = spare_model();
        const Value positions = o.field(kPositions);
        g.positions = read_vectors(positions, o.array(kPositions, positions), std::move(spare.positions));
        g.nodes = read_records<GraphNode>(nodes, o.array(kNodes, nodes), kGraphNodeFields, std::move(spare.nodes));
        g.edges = read_records<GraphEdge>(edges, o.array(kGraphEdges, edges), kGraphEdgeFields, std::move(spare.edges_of_graph));
        g.nodeData = read_words<std::uint32_t>(o.array(kNodeData), std::move(spare.nodeData));
        g.edgeData = read_words<std::uint32_t>(o.array(kGraphEdgeData), std::move(spare.edgeData_of_graph));
        g.nodeDataStriding = static_cast<std::int32_t>(o.as_int(kNodeDataStriding));
        g.edgeDataStriding = static_cast<std::int32_t>(o.as_int(kGraphEdgeDataStriding));
        if (auto sets = o.find_field(kGraphStreamingSets)) g.streaming_set_count = o.array(kGraphStreamingSets, *sets).size();
        return g;
    }

    QueryMediator read_mediator(const ObjectView& o, havok::ItemIndex mesh_item, LayoutSummary& layouts) const {
        QueryMediator m;
        m.nav_mesh_item = field(o, "navMesh").item();
        m.nav_mesh_is_file_mesh = m.nav_mesh_item != 0 && m.nav_mesh_item == mesh_item;
        const std::optional<ObjectView> tree = field(o, "tree").target();
        m.tree_class = tree ? full_name(tree->type_index()) : std::string();
        m.has_tree_impl = false;
        if (!tree) return m;
        const std::optional<Value> impl_ref = find_field(*tree, "treePtr");
        const std::optional<ObjectView> impl = impl_ref ? impl_ref->target() : std::nullopt;
        if (!impl) return m;
        m.has_tree_impl = true;
        const ObjectView storage = field(*impl, "tree").as_object();
        const Value nodes = field(storage, "nodes");
        set_record(layouts.tree_node, element_type(nodes));
        m.nodes = read_records<AabbTreeNode6>(nodes, kTreeNodeFields, std::move(spare_model().tree_nodes));
        raw_into(field(storage, "domain"), &m.domain, sizeof m.domain, "domain");
        return m;
    }

    std::vector<UserEdgeSetup> read_setups(const ObjectView& o, LayoutSummary& layouts) const {
        const Value setups = field(o, "edgeSetups");
        const TypeIndex elem = element_type(setups);
        set_record(layouts.user_edge_setup, elem);
        if (const havok::Member* obb = member(elem, "obbA")) {
            set_record(layouts.obb, obb->type);
            if (const havok::Member* transform = member(obb->type, "transform")) set_record(layouts.obb_transform, transform->type);
        }
        return read_records<UserEdgeSetup>(setups, kSetupFields, std::move(spare_model().setups));
    }

    /// Game files hold about four root variants and one mediator lookup.
    static constexpr std::size_t kScansBeforeMap = 16;

    const havok::Tagfile& file_;
    const havok::TypeTable& types_;
    RecordInfoCache::Entry* memo_;  ///< this table's memo on this thread; nullptr when not kept
    mutable std::string scratch_name_;  ///< full_name's answer for a table without a memo
    std::size_t lookups_ = 0;  ///< item_of calls so far
    bool mapped_ = false;      ///< itemAt_ is built
    std::unordered_map<std::uint32_t, havok::ItemIndex> itemAt_;  ///< DATA offset -> first pointer item
};

}  // namespace

NavTagfile nav_from_tagfile(const havok::Tagfile& file) { return ModelReader(file).read(); }

void recycle_mesh_arrays(NavMesh&& mesh) {
    SpareModel& spare = spare_model();
    keep(spare.faces, mesh.faces);
    keep(spare.edges, mesh.edges);
    keep(spare.vertices, mesh.vertices);
    keep(spare.faceData, mesh.faceData);
    keep(spare.edgeData, mesh.edgeData);
}

void recycle_nav_tagfile(NavTagfile&& nav) {
    recycle_mesh_arrays(std::move(nav.mesh));
    SpareModel& spare = spare_model();
    if (nav.graph) {
        keep(spare.positions, nav.graph->positions);
        keep(spare.nodes, nav.graph->nodes);
        keep(spare.edges_of_graph, nav.graph->edges);
        keep(spare.nodeData, nav.graph->nodeData);
        keep(spare.edgeData_of_graph, nav.graph->edgeData);
    }
    if (nav.mediator) keep(spare.tree_nodes, nav.mediator->nodes);
    if (nav.user_edge_setups) keep(spare.setups, *nav.user_edge_setups);
    // Not emptied: the next read assigns over their strings (and count nodes) where it can.
    // A model of many variants or classes (a hostile file's) is not kept for the thread's life.
    if (!nav.variants.empty() && nav.variants.size() <= kSpareEntries) spare.variants = std::move(nav.variants);
    if (!nav.object_counts.empty() && nav.object_counts.size() <= kSpareEntries) spare.object_counts = std::move(nav.object_counts);
}

void release_recycled_storage() { spare_model() = SpareModel{}; }

std::uint64_t record_arrays_read_in_place() { return arrays_read_in_place; }

void release_large_recycled_storage(std::size_t min_bytes) {
    SpareModel& s = spare_model();
    free_arrays_of_at_least(min_bytes, s.faces, s.edges, s.vertices, s.faceData, s.edgeData, s.positions, s.nodes,
                            s.edges_of_graph, s.nodeData, s.edgeData_of_graph, s.tree_nodes, s.setups);
}

NavTagfile read_nav_tagfile(std::span<const std::uint8_t> tagfile) {
    // The vectors of this thread's last tagfile, filled again (an audit reads thousands).
    thread_local havok::TagfileStorage storage;
    havok::Tagfile file = havok::read_tagfile(tagfile, {}, storage);
    NavTagfile nav = nav_from_tagfile(file);
    storage.keep(std::move(file));
    return nav;
}

}  // namespace navlab::fromsoft
