#include "havok/writer.h"

#include <algorithm>
#include <deque>
#include <string_view>
#include <fmt/format.h>
#include <map>
#include <unordered_map>

#include "havok/layout.h"
#include "havok/sections.h"
#include "havok/varint.h"

namespace navlab::havok {
namespace {

constexpr std::uint32_t kNone = 0xFFFFFFFFu;

/// One item of the output, in graph type indices until the type table is numbered.
struct OutItem {
    ItemKind kind = ItemKind::Null;
    TypeIndex type = 0;
    std::uint32_t offset = 0, count = 0;
};

/// A reference field met during a scan: where it is and what it declares.
struct Patch {
    TypeIndex field_type;
    std::uint32_t offset;
};

/// Lays out DATA and numbers items by the real writer's model (spec §5.6), recording the
/// first-touch order of types (THSH, §4.8) and the item types in DATA write order (§4.10 seeds).
class DataWriter {
public:
    DataWriter(const Graph& g, bool share) : g_(g), share_(share), layouts_(g.types), item_of_(g.nodes.size(), 0) {
        for (TypeIndex t = 1; t <= g.types.size() && !char_type_; ++t)
            if (g.types[t].resolved_size == 1 && g.types.full_name(t) == "char") char_type_ = t;
    }

    void run() {
        if (g_.root >= g_.nodes.size() || g_.nodes[g_.root].is_array) throw Error("writer: the root must be an object node");
        items_.push_back({});
        std::size_t estimate = 16;
        for (const Node& n : g_.nodes) estimate += n.bytes.size() + 16;
        for (const std::string& s : g_.strings) estimate += s.size() + 2;
        data.reserve(estimate);
        number_object(g_.root);
        while (!queue_.empty()) {
            const std::uint32_t p = queue_.front();
            queue_.pop_front();
            write_object(p);
        }
        align(16);
    }

    std::vector<std::uint8_t> data;
    std::vector<OutItem> items_;
    std::vector<Patch> patches;
    std::vector<TypeIndex> touched;      ///< first-touch order
    std::vector<TypeIndex> write_seeds;  ///< item types in DATA write order

private:
    struct Pending {
        std::uint32_t leaf_offset;  // inside the element: column order key
        std::uint32_t slot;         // DATA offset of the field
        std::uint32_t string;       // Graph::strings index
        TypeIndex field_type;
    };

    void touch(TypeIndex t) {
        if (touched_set_.size() <= t) touched_set_.resize(t + 1, false);
        if (!touched_set_[t]) touched_set_[t] = true, touched.push_back(t);
    }
    void align(std::uint32_t a) {
        if (a > 1 && data.size() % a) data.resize(data.size() + (a - data.size() % a), 0);
    }
    std::uint32_t new_item(ItemKind kind, TypeIndex type, std::uint32_t count) {
        items_.push_back({kind, type, 0, count});
        return static_cast<std::uint32_t>(items_.size() - 1);
    }
    std::uint32_t number_object(std::uint32_t node) {
        if (!item_of_[node]) {
            item_of_[node] = new_item(ItemKind::Pointer, g_.nodes[node].type, 1);
            queue_.push_back(node);
        }
        return item_of_[node];
    }
    std::uint32_t place(const Node& n, std::uint32_t alignment, std::uint32_t item) {
        align(alignment);
        const std::uint32_t at = static_cast<std::uint32_t>(data.size());
        const std::size_t expect = std::size_t{g_.types[n.type].resolved_size} * n.count;
        if (n.bytes.size() != expect)
            throw Error(fmt::format("writer: node of {} x {} holds {} bytes; expected {}", n.count,
                                    g_.types.full_name(n.type), n.bytes.size(), expect));
        data.insert(data.end(), n.bytes.begin(), n.bytes.end());
        items_[item].offset = at;
        write_seeds.push_back(n.type);
        touch(n.type);
        return at;
    }

    void write_object(std::uint32_t p) {
        const Node& n = g_.nodes[p];
        const std::uint32_t at = place(n, g_.types[n.type].resolved_alignment, item_of_[p]);
        std::vector<std::uint32_t> arrays;
        strings_.clear();
        shared_.clear();
        scan(n, at, arrays);
        for (std::uint32_t a : arrays) write_array(a);
        for (const auto& [item, s] : strings_) {
            align(2);
            items_[item].offset = static_cast<std::uint32_t>(data.size());
            data.insert(data.end(), g_.strings[s].begin(), g_.strings[s].end());
            data.push_back(0);
            write_seeds.push_back(items_[item].type);
            touch(items_[item].type);
        }
    }

    void write_array(std::uint32_t a) {
        const Node& n = g_.nodes[a];
        const std::uint32_t at = place(n, std::max<std::uint32_t>(16, g_.types[n.type].resolved_alignment), item_of_[a]);
        std::vector<std::uint32_t> nested;
        scan(n, at, nested);
        for (std::uint32_t x : nested) write_array(x);
    }

    /// One block: the node's elements, reference fields in scan order; strings numbered at the end.
    void scan(const Node& n, std::uint32_t at, std::vector<std::uint32_t>& arrays) {
        const Layout& layout = layouts_.of(n.type);
        const std::uint32_t esize = g_.types[n.type].resolved_size;
        std::size_t used = 0;
        std::vector<Pending> pending;
        for (std::uint32_t e = 0; e < n.count && !layout.refs.empty(); ++e) {
            for (const RefLeaf& leaf : layout.refs) {
                const std::uint32_t local = e * esize + leaf.offset;
                auto it = n.refs.find(local);
                if (it == n.refs.end()) continue;
                ++used;
                const Ref& ref = it->second;
                const std::uint32_t slot = at + local;
                check_ref(leaf, ref);
                if (leaf.kind == Kind::Pointer) {
                    touch(leaf.field_type);
                    store(slot, number_object(ref.index), leaf.field_type);
                } else if (leaf.kind == Kind::Array) {
                    if (g_.nodes[ref.index].count == 0) continue;  // empty array: null, no item
                    if (item_of_[ref.index]) throw Error("writer: an array node is referenced twice");
                    item_of_[ref.index] = new_item(ItemKind::Array, g_.nodes[ref.index].type, g_.nodes[ref.index].count);
                    touch(leaf.field_type);
                    arrays.push_back(ref.index);
                    store(slot, item_of_[ref.index], leaf.field_type);
                } else {
                    pending.push_back({leaf.offset, slot, ref.index, leaf.field_type});
                }
            }
        }
        if (used != n.refs.size())
            throw Error(fmt::format("writer: a {} node has references at offsets that are not reference fields",
                                    g_.types.full_name(n.type)));
        // Strings member by member (column order), element order kept within one member.
        std::stable_sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) { return a.leaf_offset < b.leaf_offset; });
        for (const Pending& s : pending) {
            touch(s.field_type);
            const std::string& text = g_.strings[s.string];
            const TypeIndex type = string_type(s.string);
            std::uint32_t item = 0;
            if (share_) {
                auto it = shared_.find({type, text});
                if (it != shared_.end()) item = it->second;
            }
            if (!item) {
                item = new_item(ItemKind::Array, type, static_cast<std::uint32_t>(text.size() + 1));
                strings_.push_back({item, s.string});
                if (share_) shared_.emplace(std::pair{type, std::string_view(text)}, item);
            }
            store(s.slot, item, s.field_type);
        }
    }

    /// The element type of string s's item: the graph's own (a read file's), else char.
    TypeIndex string_type(std::uint32_t s) const {
        if (s < g_.string_types.size() && g_.string_types[s]) {
            const TypeIndex t = g_.string_types[s];
            if (!g_.types.valid(t) || g_.types[t].resolved_size != 1)
                throw Error(fmt::format("writer: string {} has element type {}, not a 1-byte type", s, t));
            return t;
        }
        if (!char_type_) throw Error("writer: the type set has no 1-byte type named char for string items");
        return char_type_;
    }

    void check_ref(const RefLeaf& leaf, const Ref& ref) const {
        const bool ok = (leaf.kind == Kind::Pointer && ref.kind == Ref::Kind::Pointer) ||
                        (leaf.kind == Kind::Array && ref.kind == Ref::Kind::Array) ||
                        (leaf.kind == Kind::String && ref.kind == Ref::Kind::String);
        if (!ok) throw Error(fmt::format("writer: reference kind does not match the {} field", g_.types.full_name(leaf.field_type)));
        const std::size_t limit = ref.kind == Ref::Kind::String ? g_.strings.size() : g_.nodes.size();
        if (ref.index >= limit) throw Error("writer: reference to a node or string that does not exist");
        if (ref.kind != Ref::Kind::String && g_.nodes[ref.index].is_array != (ref.kind == Ref::Kind::Array))
            throw Error(fmt::format("writer: {} field references a node of the wrong kind", g_.types.full_name(leaf.field_type)));
    }

    void store(std::uint32_t slot, std::uint64_t item, TypeIndex field_type) {
        std::memcpy(data.data() + slot, &item, 8);
        patches.push_back({field_type, slot});
    }

    const Graph& g_;
    bool share_;
    Layouts layouts_;
    TypeIndex char_type_ = 0;
    std::vector<std::uint32_t> item_of_;  // node -> item (0 = none yet)
    std::deque<std::uint32_t> queue_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> strings_;  // (item, string) of the current pointer item
    std::map<std::pair<TypeIndex, std::string_view>, std::uint32_t> shared_;  // (char type, text) -> item
    std::vector<bool> touched_set_;
};

/// The edges of the type closure in the order of spec §4.10: parent, type parameters,
/// subtype, member types, interface types. The flag marks the subtype edge.
std::vector<std::pair<TypeIndex, bool>> edges(const TypeTable& types, TypeIndex t) {
    const Type& type = types[t];
    std::vector<std::pair<TypeIndex, bool>> out;
    if (type.parent) out.push_back({type.parent, false});
    for (const TemplateParam& p : type.params)
        if (p.is_type() && p.value) out.push_back({static_cast<TypeIndex>(p.value), false});
    if ((type.optionals & kOptSubtype) && type.subtype) out.push_back({type.subtype, true});
    for (const Member& m : type.members) out.push_back({m.type, false});
    for (const Interface& i : type.interfaces) out.push_back({i.type, false});
    return out;
}

/// Output type indices: FIFO closure from the seeds (§4.10). Returns graph index -> output index.
std::vector<TypeIndex> number_types(const TypeTable& types, const std::vector<TypeIndex>& seeds, std::vector<TypeIndex>& order) {
    std::vector<TypeIndex> index(types.size() + 1, 0);
    for (TypeIndex s : seeds) {
        if (index[s]) continue;
        order.push_back(s);
        index[s] = static_cast<TypeIndex>(order.size());
        std::deque<TypeIndex> queue{s};
        while (!queue.empty()) {
            const TypeIndex x = queue.front();
            queue.pop_front();
            for (auto [y, subtype] : edges(types, x)) {
                if (index[y]) continue;
                order.push_back(y);
                index[y] = static_cast<TypeIndex>(order.size());
                queue.push_back(y);
            }
        }
    }
    return index;
}

/// TBDY record order: the same closure generation by generation, subtype-reached types last in
/// their generation (§4.4).
std::vector<TypeIndex> body_order(const TypeTable& types, const std::vector<TypeIndex>& seeds) {
    std::vector<bool> seen(types.size() + 1, false);
    std::vector<TypeIndex> out;
    for (TypeIndex s : seeds) {
        if (seen[s]) continue;
        seen[s] = true;
        std::vector<TypeIndex> gen{s};
        while (!gen.empty()) {
            out.insert(out.end(), gen.begin(), gen.end());
            std::vector<TypeIndex> normal, late;
            for (TypeIndex x : gen)
                for (auto [y, subtype] : edges(types, x))
                    if (!seen[y]) seen[y] = true, (subtype ? late : normal).push_back(y);
            normal.insert(normal.end(), late.begin(), late.end());
            gen = std::move(normal);
        }
    }
    return out;
}

/// Index of s in a string table being built in first-appearance order. Keys view the names of
/// the type table being written, which outlives the table.
struct StringTable {
    std::vector<std::uint8_t> bytes;
    std::unordered_map<std::string_view, std::uint32_t> index;
    std::uint32_t add(std::string_view s) {
        auto [it, fresh] = index.emplace(s, static_cast<std::uint32_t>(index.size()));
        if (fresh) bytes.insert(bytes.end(), s.begin(), s.end()), bytes.push_back(0);
        return it->second;
    }
};

std::vector<std::uint8_t> u32_bytes(std::uint32_t v) {
    return {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v >> 16),
            static_cast<std::uint8_t>(v >> 24)};
}

}  // namespace

std::vector<std::uint8_t> write_graph(const Graph& g, const WriteOptions& options) {
    if (g.sdk_version.size() != 8) throw Error("writer: the SDK version must be 8 digits, e.g. 20180100");
    const bool share = options.sharing == WriteOptions::Sharing::PerPointerItem ||
                       (options.sharing == WriteOptions::Sharing::Auto && g.sdk_version >= "20180100");
    const bool tna1 = options.tags == WriteOptions::Tags::Tna1 ||
                      (options.tags == WriteOptions::Tags::Auto && g.sdk_version >= "20160200");
    DataWriter dw(g, share);
    dw.run();

    const TypeTable& types = g.types;
    std::vector<TypeIndex> order;  // output index - 1 -> graph index
    const std::vector<TypeIndex> out_index = number_types(types, dw.write_seeds, order);
    const std::vector<TypeIndex> records = body_order(types, dw.write_seeds);
    auto map = [&](TypeIndex t) -> std::uint64_t { return t ? out_index.at(t) : 0; };

    // Strings in TBDY record order (§4.2).
    StringTable tstr, fstr;
    for (TypeIndex t : records) {
        tstr.add(types[t].name);
        for (const TemplateParam& p : types[t].params) tstr.add(p.name);
        for (const Member& m : types[t].members) fstr.add(m.name);
    }
    ByteWriter names(Endian::Big);
    write_varint(names, order.size() + 1);
    for (TypeIndex t : order) {
        write_varint(names, tstr.index.at(types[t].name));
        write_varint(names, types[t].params.size());
        for (const TemplateParam& p : types[t].params) {
            write_varint(names, tstr.index.at(p.name));
            write_varint(names, p.is_type() ? map(static_cast<TypeIndex>(p.value)) : p.value);
        }
    }
    ByteWriter bodies(Endian::Big);
    for (TypeIndex t : records) {
        const Type& type = types[t];
        write_varint(bodies, map(t));
        write_varint(bodies, map(type.parent));
        write_varint(bodies, type.optionals);
        if (type.optionals & kOptFormat) write_varint(bodies, type.format);
        if (type.optionals & kOptSubtype) write_varint(bodies, map(type.subtype));
        if (type.optionals & kOptVersion) write_varint(bodies, type.version);
        if (type.optionals & kOptSizeAlign) write_varint(bodies, type.size), write_varint(bodies, type.alignment);
        if (type.optionals & kOptFlags) write_varint(bodies, type.flags);
        if (type.optionals & kOptMembers) {
            write_varint(bodies, type.members.size() | std::uint64_t{type.property_count} << 16);
            for (const Member& m : type.members) {
                write_varint(bodies, fstr.index.at(m.name));
                write_varint(bodies, m.flags);
                write_varint(bodies, m.offset);
                write_varint(bodies, map(m.type));
            }
        }
        if (type.optionals & kOptInterfaces) {
            write_varint(bodies, type.interfaces.size());
            for (const Interface& i : type.interfaces) write_varint(bodies, map(i.type)), write_varint(bodies, i.offset);
        }
    }
    ByteWriter hashes(Endian::Big);
    write_varint(hashes, dw.touched.size());
    for (TypeIndex t : dw.touched) {
        if (!types[t].hash) throw Error(fmt::format("writer: no hash for {}, an item or patch type", types.full_name(t)));
        write_varint(hashes, map(t));
        for (std::uint8_t b : u32_bytes(*types[t].hash)) hashes.u8(b);
    }

    std::vector<std::uint8_t> item_bytes(12, 0);
    for (std::size_t i = 1; i < dw.items_.size(); ++i) {
        const OutItem& it = dw.items_[i];
        for (std::uint32_t v : {static_cast<std::uint32_t>(map(it.type)) | static_cast<std::uint32_t>(it.kind) << 24, it.offset, it.count})
            for (std::uint8_t b : u32_bytes(v)) item_bytes.push_back(b);
    }
    std::vector<Patch> patches = dw.patches;
    for (Patch& p : patches) p.field_type = static_cast<TypeIndex>(map(p.field_type));
    std::sort(patches.begin(), patches.end(),
              [](const Patch& a, const Patch& b) { return a.field_type != b.field_type ? a.field_type < b.field_type : a.offset < b.offset; });
    std::vector<std::uint8_t> patch_bytes;
    for (std::size_t i = 0; i < patches.size();) {
        std::size_t j = i;
        while (j < patches.size() && patches[j].field_type == patches[i].field_type) ++j;
        for (std::uint32_t v : {patches[i].field_type, static_cast<std::uint32_t>(j - i)})
            for (std::uint8_t b : u32_bytes(v)) patch_bytes.push_back(b);
        for (; i < j; ++i)
            for (std::uint8_t b : u32_bytes(patches[i].offset)) patch_bytes.push_back(b);
    }
    // One output buffer, sized up front: page faults are the cost of big files.
    std::vector<std::uint8_t> out;
    out.reserve(64 + dw.data.size() + tstr.bytes.size() + fstr.bytes.size() + names.size() + bodies.size() +
                hashes.size() + 8 * (order.size() + 1) + item_bytes.size() + patch_bytes.size() + 16 * 12);
    const std::size_t tag0 = begin_section(out, "TAG0");
    append_leaf(out, "SDKV", Bytes(reinterpret_cast<const std::uint8_t*>(g.sdk_version.data()), 8));
    append_leaf(out, "DATA", dw.data);
    const std::size_t type = begin_section(out, "TYPE");
    append_leaf(out, "TPTR", std::vector<std::uint8_t>(8 * (order.size() + 1), 0));
    append_leaf(out, "TSTR", tstr.bytes);
    append_leaf(out, tna1 ? "TNA1" : "TNAM", names.data());
    append_leaf(out, "FSTR", fstr.bytes);
    append_leaf(out, tna1 ? "TBDY" : "TBOD", bodies.data());
    if (options.thsh) append_leaf(out, "THSH", hashes.data());
    if (options.tpad) append_leaf(out, "TPAD", {});
    end_section(out, type, false);
    const std::size_t index = begin_section(out, "INDX");
    append_leaf(out, "ITEM", item_bytes);
    append_leaf(out, "PTCH", patch_bytes);
    end_section(out, index, false);
    end_section(out, tag0, false);
    return out;
}

Graph graph_from_tagfile(const Tagfile& f) {
    Graph g;
    g.sdk_version = f.sdk_version;
    g.types = f.types;
    Layouts layouts(f.types);
    std::vector<std::uint32_t> node_of(f.items.size(), kNone);
    std::deque<ItemIndex> work;
    auto node_for = [&](ItemIndex item) {
        if (node_of[item] == kNone) {
            const Item& it = f.items[item];
            Node n;
            n.type = it.type;
            n.count = it.count;
            n.is_array = it.kind == ItemKind::Array;
            const Bytes b = f.data.subspan(it.offset, std::size_t{f.types[it.type].resolved_size} * it.count);
            n.bytes.assign(b.begin(), b.end());
            node_of[item] = static_cast<std::uint32_t>(g.nodes.size());
            g.nodes.push_back(std::move(n));
            work.push_back(item);
        }
        return node_of[item];
    };
    g.root = node_for(1);
    while (!work.empty()) {
        const ItemIndex item = work.front();
        work.pop_front();
        const Item& it = f.items[item];
        const Layout& layout = layouts.of(it.type);
        const std::uint32_t esize = f.types[it.type].resolved_size;
        for (std::uint32_t e = 0; e < it.count && !layout.refs.empty(); ++e) {
            for (const RefLeaf& leaf : layout.refs) {
                const std::uint32_t local = e * esize + leaf.offset;
                std::uint64_t target;
                std::memcpy(&target, f.data.data() + it.offset + local, 8);
                if (target == 0) continue;
                if (target >= f.items.size()) throw Error(fmt::format("reference to item {} that does not exist", target));
                Ref ref;
                if (leaf.kind == Kind::String) {
                    ref = {Ref::Kind::String, static_cast<std::uint32_t>(g.strings.size())};
                    g.strings.emplace_back(f.string(static_cast<ItemIndex>(target)));
                    g.string_types.push_back(f.items[target].type);
                } else {
                    ref = {leaf.kind == Kind::Pointer ? Ref::Kind::Pointer : Ref::Kind::Array,
                           node_for(static_cast<ItemIndex>(target))};
                }
                Node& n = g.nodes[node_of[item]];
                std::memset(n.bytes.data() + local, 0, 8);
                n.refs[local] = ref;
            }
        }
    }
    return g;
}

std::vector<std::uint8_t> write_tagfile(const Tagfile& file) {
    WriteOptions options;
    options.tags = file.style.tna1 ? WriteOptions::Tags::Tna1 : WriteOptions::Tags::Tnam;
    options.thsh = file.style.thsh;
    options.tpad = file.style.tpad;
    return write_graph(graph_from_tagfile(file), options);
}

}  // namespace navlab::havok
