// read_nav_tagfile: the navmesh model from a tagfile's own type table, by member name.
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <unordered_map>

#include "formats/fromsoft/half.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "havok/object.h"
#include "havok/tagfile.h"
#include "io/bulk_copy.h"
#include "io/error.h"

namespace navlab::fromsoft {
namespace {

/// The arrays recycle_mesh_arrays gave this thread, taken by the next read_mesh.
struct SpareMeshArrays {
    RecordVector<Face> faces;
    RecordVector<Edge> edges;
    RecordVector<Vec4> vertices;
    RecordVector<std::int32_t> faceData, edgeData;
};

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

SpareMeshArrays& spare_mesh_arrays() {
    thread_local SpareMeshArrays spare;
    return spare;
}

using ObjectCounts = decltype(NavTagfile::object_counts);

/// The model's small containers recycle_nav_tagfile gave this thread, and the root variants'
/// vector of its last read: the next read fills them instead of allocating. Building a name and
/// a map node per pointer item, three strings per root variant and the vectors, then freeing
/// them with the model, was ≈ 4,000 instructions a Sekiro tagfile (forty-fourth session).
struct SpareModel {
    ObjectCounts object_counts;  ///< recounted by the next read
    std::string key;  ///< a name looked up in object_counts (its capacity reused)
    std::vector<RootVariant> variants;  ///< their strings' capacity
    std::vector<havok::NamedVariant> named;  ///< havok::Tagfile::named_variants' answer
};

/// At most this many object count nodes and root variants are kept for the next read.
constexpr std::size_t kSpareModelEntries = 64;

SpareModel& spare_model() {
    thread_local SpareModel spare;
    return spare;
}

/// The record layouts (RecordInfo) and member lookups of the type tables this thread read lately, by type:
/// tagfiles whose TYPE section is byte-identical share one table (read_tagfile's cache), and
/// building the full type names of every record's members once per tagfile was 4 % of the
/// Sekiro preset's audit (1,509 tagfiles of about 185 faces). Each entry keeps a copy of its
/// table, so a table that shares its records is the same table (as verify.cpp's layout
/// cache). Tables that read_tagfile does not keep (a TYPE section with a warning, or a table
/// made by hand) belong to one tagfile: they get no memo.
class RecordInfoCache {
public:
    /// A member asked for by the model reader: the type and the name, a string literal of this
    /// file (kFaceFields, ...), known by its address.
    struct MemberKey {
        havok::TypeIndex type;
        const char* name;
        bool operator==(const MemberKey&) const = default;
    };
    struct MemberKeyHash {
        std::size_t operator()(const MemberKey& k) const noexcept {
            return std::hash<const void*>{}(k.name) ^ (std::size_t{k.type} * 0x9E3779B97F4A7C15u);
        }
    };
    struct Entry {
        havok::TypeTable types;
        std::unordered_map<havok::TypeIndex, RecordInfo> records;
        /// find_member's answers (nullptr when none): the reader asks about 45 of them a
        /// tagfile, each a scan of a type's members (≈ 95 instructions, 9 M on Sekiro).
        std::unordered_map<MemberKey, const havok::Member*, MemberKeyHash> members;
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
        e.records.clear();
        e.members.clear();
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
        nav.object_counts = std::move(spare.object_counts);
        count_objects(nav.object_counts, spare.key);

        std::optional<ObjectView> mesh, graph, mediator, setups;
        std::string scratch;
        file_.named_variants(spare.named);
        nav.variants = std::move(spare.variants);
        nav.variants.resize(spare.named.size());
        for (std::size_t i = 0; i < spare.named.size(); ++i) {
            const havok::NamedVariant& v = spare.named[i];
            RootVariant& rv = nav.variants[i];
            rv.name.assign(v.name);
            rv.className.assign(v.class_name);
            rv.type_name.clear();
            rv.item = 0;
            if (v.object) {
                rv.type_name.assign(type_name(v.object->type_index(), scratch));
                rv.item = item_of(*v.object);
                pick(mesh, *v.object, "hkaiNavMesh");
                pick(graph, *v.object, "hkaiDirectedGraphExplicitCost");
                pick(mediator, *v.object, "hkaiStaticTreeNavMeshQueryMediator");
                pick(setups, *v.object, "hkaiUserEdgeSetupArray");
            }
        }
        if (mesh) nav.mesh = read_mesh(*mesh, nav.layouts);
        if (graph) nav.graph = read_graph(*graph, nav.layouts);
        if (mediator) nav.mediator = read_mediator(*mediator, mesh ? item_of(*mesh) : 0, nav.layouts);
        if (setups) nav.user_edge_setups = read_setups(*setups, nav.layouts);
        return nav;
    }

private:
    /// types_.full_name(t): a valid type without template parameters is its base name, viewed
    /// in place; any other is built into `scratch`, which the answer then views.
    std::string_view type_name(TypeIndex t, std::string& scratch) const {
        if (types_.valid(t) && types_[t].params.empty()) return types_[t].name;
        return scratch = types_.full_name(t);
    }

    /// `counts` recounted: the pointer items per type name. It comes from the thread's last
    /// model (recycle_nav_tagfile), and most tagfiles hold the classes the one before held, so
    /// each name is found in place (`key`: its text, reused) and nodes are added or removed only
    /// for classes that come or go (a name and a node built per item, freed with the model,
    /// were ≈ 2,000 instructions a Sekiro tagfile).
    void count_objects(ObjectCounts& counts, std::string& key) const {
        for (auto& entry : counts) entry.second = 0;
        std::string scratch;
        for (const havok::Item& item : file_.items) {
            if (item.kind != havok::ItemKind::Pointer) continue;
            key.assign(type_name(item.type, scratch));
            ++counts[key];
        }
        std::erase_if(counts, [](const auto& entry) { return entry.second == 0; });
    }

    static void pick(std::optional<ObjectView>& slot, const ObjectView& object, const char* type) {
        if (!slot && object.is_a(type)) slot = object;
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

    RecordInfo record_info(TypeIndex t) const {
        if (!types_.valid(t)) return {};
        if (!memo_) return build_record_info(t);
        const auto known = memo_->records.find(t);
        if (known != memo_->records.end()) return known->second;
        return memo_->records.emplace(t, build_record_info(t)).first->second;
    }

    /// types_.find_member(t, name), from the table's memo when it has one. `name` must be a
    /// string literal (the memo knows it by its address).
    const havok::Member* member(TypeIndex t, const char* name) const {
        if (!memo_) return types_.find_member(t, name);
        const auto [it, added] = memo_->members.try_emplace({t, name}, nullptr);
        if (added) it->second = types_.find_member(t, name);
        return it->second;
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

    /// The absolute file offset of an hkArray field's first record (kNoOffset when empty).
    std::uint64_t place_of(const Value& array) const {
        const ArrayView a = array.as_array();
        return a.size() == 0 ? kNoOffset : file_.data_offset + a.offset();
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
    /// @param out storage to fill (its capacity is reused; recycle_mesh_arrays).
    template <class T, std::size_t N, class Vector = std::vector<T>>
    Vector read_records(const Value& field, const FieldMap (&fields)[N], Vector out = {}) const {
        const ArrayView array = field.as_array();
        const TypeIndex elem = array.element_type();
        bool same_layout = types_[elem].resolved_size == sizeof(T);
        // Each field's member, found once for the whole array: asking every element for its
        // fields by name was ≈ 200 instructions a field (UserEdgeSetup, whose layout differs
        // from the model's, is read member by member).
        std::array<const havok::Member*, N> members;
        for (std::size_t k = 0; k < N; ++k) {
            const FieldMap& f = fields[k];
            const havok::Member* m = member(elem, f.name);
            if (!m) fail(field, types_.full_name(elem) + " has no member " + f.name);
            same_layout = same_layout && m->offset == f.offset && types_[m->type].resolved_size == f.size;
            members[k] = m;
        }
        if (same_layout) {
            copy_records(array.bytes().data(), array.size(), out);
            return out;
        }
        out.assign(array.size(), T{});
        for (std::uint32_t i = 0; i < array.size(); ++i) {
            const ObjectView element = array.object(i);
            for (std::size_t k = 0; k < N; ++k) {
                const Value member(file_, members[k]->type, element.offset() + members[k]->offset);
                read_field(member, reinterpret_cast<std::uint8_t*>(&out[i]) + fields[k].offset, fields[k]);
            }
        }
        return out;
    }

    /// An hkArray of hkVector4 (16-byte elements).
    template <class Vector = std::vector<Vec4>>
    Vector read_vectors(const Value& field, Vector out = {}) const {
        const ArrayView array = field.as_array();
        out.clear();
        if (array.size() == 0) return out;
        if (array.element_size() != sizeof(Vec4))
            fail(field, "vector elements are " + std::to_string(array.element_size()) + " bytes, not 16");
        copy_records(array.bytes().data(), array.size(), out);
        return out;
    }

    /// An hkArray of 32-bit integers.
    template <class T, class Vector = std::vector<T>>
    Vector read_words(const Value& field, Vector out = {}) const {
        const ArrayView array = field.as_array();
        if (array.element_size() == sizeof(T)) {
            copy_records(array.bytes().data(), array.size(), out);
        } else {
            out.assign(array.size(), T{});
            for (std::uint32_t i = 0; i < array.size(); ++i) out[i] = static_cast<T>(array[i].as_int());
        }
        return out;
    }

    NavMesh read_mesh(const ObjectView& o, LayoutSummary& layouts) const {
        NavMesh m;
        layouts.navMesh = record_info(o.type_index());
        const Value faces = field(o, "faces"), edges = field(o, "edges"), vertices = field(o, "vertices");
        layouts.face = record_info(element_type(faces));
        layouts.edge = record_info(element_type(edges));
        layouts.vertex = record_info(element_type(vertices));
        layouts.faces_at = place_of(faces);
        layouts.edges_at = place_of(edges);
        layouts.vertices_at = place_of(vertices);
        SpareMeshArrays& spare = spare_mesh_arrays();
        m.faces = read_records<Face>(faces, kFaceFields, std::move(spare.faces));
        m.edges = read_records<Edge>(edges, kEdgeFields, std::move(spare.edges));
        m.vertices = read_vectors(vertices, std::move(spare.vertices));
        m.faceData = read_words<std::int32_t>(field(o, "faceData"), std::move(spare.faceData));
        m.edgeData = read_words<std::int32_t>(field(o, "edgeData"), std::move(spare.edgeData));
        m.faceDataStriding = static_cast<std::int32_t>(field(o, "faceDataStriding").as_int());
        m.edgeDataStriding = static_cast<std::int32_t>(field(o, "edgeDataStriding").as_int());
        m.flags = static_cast<std::uint8_t>(field(o, "flags").as_uint());
        raw_into(field(o, "aabb"), &m.aabb, sizeof m.aabb, "aabb");
        m.erosionRadius = static_cast<float>(field(o, "erosionRadius").as_float());
        m.userData = field(o, "userData").as_uint();
        m.streaming_set_count = field(o, "streamingSets").as_array().size();
        if (auto seeding = find_field(o, "clearanceCacheSeedingDataSet")) {
            if (auto set = seeding->target()) {
                m.has_clearance_cache_seeding = true;
                if (auto datas = find_field(*set, "cacheDatas")) m.clearance_cache_data_count = datas->as_array().size();
            }
        }
        return m;
    }

    DirectedGraph read_graph(const ObjectView& o, LayoutSummary& layouts) const {
        DirectedGraph g;
        layouts.graph = record_info(o.type_index());
        const Value nodes = field(o, "nodes"), edges = field(o, "edges");
        layouts.graph_node = record_info(element_type(nodes));
        layouts.graph_edge = record_info(element_type(edges));
        g.positions = read_vectors(field(o, "positions"));
        g.nodes = read_records<GraphNode>(nodes, kGraphNodeFields);
        g.edges = read_records<GraphEdge>(edges, kGraphEdgeFields);
        g.nodeData = read_words<std::uint32_t>(field(o, "nodeData"));
        g.edgeData = read_words<std::uint32_t>(field(o, "edgeData"));
        g.nodeDataStriding = static_cast<std::int32_t>(field(o, "nodeDataStriding").as_int());
        g.edgeDataStriding = static_cast<std::int32_t>(field(o, "edgeDataStriding").as_int());
        if (auto sets = find_field(o, "streamingSets")) g.streaming_set_count = sets->as_array().size();
        return g;
    }

    QueryMediator read_mediator(const ObjectView& o, havok::ItemIndex mesh_item, LayoutSummary& layouts) const {
        QueryMediator m;
        m.nav_mesh_item = field(o, "navMesh").item();
        m.nav_mesh_is_file_mesh = m.nav_mesh_item != 0 && m.nav_mesh_item == mesh_item;
        const std::optional<ObjectView> tree = field(o, "tree").target();
        m.tree_class = tree ? tree->type_name() : std::string();
        m.has_tree_impl = false;
        if (!tree) return m;
        const std::optional<Value> impl_ref = find_field(*tree, "treePtr");
        const std::optional<ObjectView> impl = impl_ref ? impl_ref->target() : std::nullopt;
        if (!impl) return m;
        m.has_tree_impl = true;
        const ObjectView storage = field(*impl, "tree").as_object();
        const Value nodes = field(storage, "nodes");
        layouts.tree_node = record_info(element_type(nodes));
        m.nodes = read_records<AabbTreeNode6>(nodes, kTreeNodeFields);
        raw_into(field(storage, "domain"), &m.domain, sizeof m.domain, "domain");
        return m;
    }

    std::vector<UserEdgeSetup> read_setups(const ObjectView& o, LayoutSummary& layouts) const {
        const Value setups = field(o, "edgeSetups");
        const TypeIndex elem = element_type(setups);
        layouts.user_edge_setup = record_info(elem);
        if (const havok::Member* obb = member(elem, "obbA")) {
            layouts.obb = record_info(obb->type);
            if (const havok::Member* transform = member(obb->type, "transform"))
                layouts.obb_transform = record_info(transform->type);
        }
        return read_records<UserEdgeSetup>(setups, kSetupFields);
    }

    /// Game files hold about four root variants and one mediator lookup.
    static constexpr std::size_t kScansBeforeMap = 16;

    const havok::Tagfile& file_;
    const havok::TypeTable& types_;
    RecordInfoCache::Entry* memo_;  ///< this table's memo on this thread; nullptr when not kept
    std::size_t lookups_ = 0;  ///< item_of calls so far
    bool mapped_ = false;      ///< itemAt_ is built
    std::unordered_map<std::uint32_t, havok::ItemIndex> itemAt_;  ///< DATA offset -> first pointer item
};

}  // namespace

NavTagfile nav_from_tagfile(const havok::Tagfile& file) { return ModelReader(file).read(); }

void recycle_nav_tagfile(NavTagfile&& nav) {
    recycle_mesh_arrays(std::move(nav.mesh));
    // What a model of many objects or variants (a hostile file) had is not kept.
    SpareModel& spare = spare_model();
    if (nav.object_counts.size() <= kSpareModelEntries) spare.object_counts = std::move(nav.object_counts);
    nav.object_counts.clear();
    if (nav.variants.size() <= kSpareModelEntries && nav.variants.capacity() > spare.variants.capacity())
        spare.variants = std::move(nav.variants);
    nav.variants.clear();
}

void recycle_mesh_arrays(NavMesh&& mesh) {
    SpareMeshArrays& spare = spare_mesh_arrays();
    auto keep = [](auto& to, auto& from) {
        to = std::move(from);
        to.clear();
        from = {};
    };
    keep(spare.faces, mesh.faces);
    keep(spare.edges, mesh.edges);
    keep(spare.vertices, mesh.vertices);
    keep(spare.faceData, mesh.faceData);
    keep(spare.edgeData, mesh.edgeData);
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
