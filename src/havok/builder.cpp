#include <cstring>
#include <fmt/format.h>

#include "havok/layout.h"
#include "havok/writer.h"

namespace navlab::havok {

Builder::Builder(TypeTable types, std::string sdk_version) {
    graph_.types = std::move(types);
    graph_.sdk_version = std::move(sdk_version);
    type_named("hkRootLevelContainer");
}

TypeIndex Builder::type_named(std::string_view name) const {
    const TypeIndex t = graph_.types.find(name);
    if (!t) throw Error(fmt::format("builder: the type set has no type {}", name));
    return t;
}

Node& Builder::node(std::uint32_t index) {
    if (index >= graph_.nodes.size()) throw Error(fmt::format("builder: node {} does not exist", index));
    return graph_.nodes[index];
}

NodeId Builder::object(std::string_view type_name) {
    Node n;
    n.type = type_named(type_name);
    if (graph_.types[n.type].kind() != Kind::Record) throw Error(fmt::format("builder: {} is not a record type", type_name));
    n.bytes.assign(graph_.types[n.type].resolved_size, 0);
    graph_.nodes.push_back(std::move(n));
    return {static_cast<std::uint32_t>(graph_.nodes.size() - 1)};
}

// The mirror of the reader's check (verify.cpp): a gap or a non-serialized member of the type
// set holds 0 in a file, so raw records with other bytes there would write a file that no strict
// reader (navlab's included) accepts; refuse them here, naming the element and the byte.
void Builder::check_gaps_zero(TypeIndex type, std::uint32_t count, Bytes records, std::string_view type_name) const {
    Layouts layouts(graph_.types);
    const Layout& layout = layouts.of(type);
    const std::size_t size = graph_.types[type].resolved_size;
    if (gap_bytes_all_zero(layout, records.data(), static_cast<std::uint32_t>(size), count)) return;
    for (std::uint32_t e = 0; e < count; ++e)
        if (const std::int64_t k = first_nonzero_gap_byte(layout, records.data() + e * size); k >= 0)
            throw Error(fmt::format("writer: element {}: byte {} is a gap or non-serialized member of the "
                                    "type set and must be 0, not 0x{:02X}", e, k, records[e * size + k]),
                        kNoOffset, std::string(type_name));
}

NodeId Builder::array(std::string_view element_type, std::uint32_t count, Bytes raw) {
    Node n;
    n.type = type_named(element_type);
    n.count = count;
    n.is_array = true;
    const std::size_t size = std::size_t{graph_.types[n.type].resolved_size} * count;
    if (!raw.empty() && raw.size() != size)
        throw Error(fmt::format("builder: {} elements of {} need {} bytes, got {}", count, element_type, size, raw.size()));
    if (raw.empty()) n.bytes.assign(size, 0);
    else n.bytes.assign(raw.begin(), raw.end());
    if (!allow_gap_bytes_) check_gaps_zero(n.type, count, n.bytes, element_type);
    graph_.nodes.push_back(std::move(n));
    return {static_cast<std::uint32_t>(graph_.nodes.size() - 1)};
}

Slot Builder::at(NodeId id, std::string_view path, std::uint32_t element) const {
    if (id.index >= graph_.nodes.size()) throw Error(fmt::format("builder: node {} does not exist", id.index));
    const Node& n = graph_.nodes[id.index];
    if (element >= n.count) throw Error(fmt::format("builder: element {} of a {}-element node", element, n.count));
    Slot slot{id.index, element * graph_.types[n.type].resolved_size, n.type};
    // Walk the dotted path through inline records.
    while (!path.empty()) {
        const std::size_t dot = path.find('.');
        const std::string_view name = path.substr(0, dot);
        const Member* m = graph_.types.find_member(slot.type, name);
        if (!m) throw Error(fmt::format("builder: {} has no field {}", graph_.types.full_name(slot.type), name));
        slot.offset += m->offset;
        slot.type = m->type;
        path = dot == std::string_view::npos ? std::string_view{} : path.substr(dot + 1);
    }
    return slot;
}

void Builder::check_slot(const Slot& slot, bool reference) const {
    if (slot.node >= graph_.nodes.size()) throw Error("builder: slot of a node that does not exist");
    if (graph_.types[slot.type].is_reference() != reference)
        throw Error(fmt::format("builder: field of type {} {} a reference", graph_.types.full_name(slot.type),
                                reference ? "is not" : "is"));
}

void Builder::set_bytes(Slot slot, Bytes bytes) {
    if (slot.node >= graph_.nodes.size()) throw Error("builder: slot of a node that does not exist");
    Node& n = node(slot.node);
    if (bytes.size() > graph_.types[slot.type].resolved_size || slot.offset + bytes.size() > n.bytes.size())
        throw Error(fmt::format("builder: {} bytes do not fit a {} field", bytes.size(), graph_.types.full_name(slot.type)));
    std::memcpy(n.bytes.data() + slot.offset, bytes.data(), bytes.size());
}

void Builder::set_int(Slot slot, std::int64_t value) {
    check_slot(slot, false);
    const Type& t = graph_.types[slot.type];
    if (t.kind() != Kind::Int && t.kind() != Kind::Bool)
        throw Error(fmt::format("builder: {} is not an integer", graph_.types.full_name(slot.type)));
    std::uint8_t b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i));
    set_bytes(slot, Bytes(b, t.resolved_size));
}

void Builder::set_float(Slot slot, double value) {
    check_slot(slot, false);
    const Type& t = graph_.types[slot.type];
    if (t.kind() != Kind::Float) throw Error(fmt::format("builder: {} is not a float", graph_.types.full_name(slot.type)));
    std::uint8_t b[8];
    if (t.resolved_size == 8) {
        std::memcpy(b, &value, 8);
    } else {
        const float f = static_cast<float>(value);
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        if (t.resolved_size == 2) bits >>= 16;  // hkHalf16: upper half of a float32
        std::memcpy(b, &bits, 4);
    }
    set_bytes(slot, Bytes(b, t.resolved_size));
}

void Builder::set_pointer(Slot slot, NodeId object) {
    check_slot(slot, true);
    if (graph_.types[slot.type].kind() != Kind::Pointer || node(object.index).is_array)
        throw Error(fmt::format("builder: {} field needs an object node", graph_.types.full_name(slot.type)));
    const TypeIndex want = graph_.types[slot.type].resolved_subtype;
    const TypeIndex got = node(object.index).type;
    if (want && graph_.types[want].kind() != Kind::Void && !graph_.types.derives_from(got, want))
        throw Error(fmt::format("builder: {} field cannot point at a {}", graph_.types.full_name(slot.type),
                                graph_.types.full_name(got)));
    node(slot.node).refs[slot.offset] = {Ref::Kind::Pointer, object.index};
}

void Builder::set_array(Slot slot, NodeId array) {
    check_slot(slot, true);
    if (!graph_.types[slot.type].is_hk_array() || !node(array.index).is_array)
        throw Error(fmt::format("builder: {} field needs an array node", graph_.types.full_name(slot.type)));
    const TypeIndex want = graph_.types[slot.type].resolved_subtype;
    if (node(array.index).type != want)
        throw Error(fmt::format("builder: {} field needs elements of {}, not {}", graph_.types.full_name(slot.type),
                                graph_.types.full_name(want), graph_.types.full_name(node(array.index).type)));
    node(slot.node).refs[slot.offset] = {Ref::Kind::Array, array.index};
}

void Builder::set_string(Slot slot, std::string_view text) {
    check_slot(slot, true);
    if (graph_.types[slot.type].kind() != Kind::String)
        throw Error(fmt::format("builder: {} is not a string field", graph_.types.full_name(slot.type)));
    graph_.strings.emplace_back(text);
    node(slot.node).refs[slot.offset] = {Ref::Kind::String, static_cast<std::uint32_t>(graph_.strings.size() - 1)};
}

void Builder::add_variant(NodeId object, std::string name, std::string class_name) {
    const std::string type = graph_.types.full_name(node(object.index).type);
    variants_.push_back({object.index, name.empty() ? type : std::move(name), class_name.empty() ? type : std::move(class_name)});
}

std::vector<std::uint8_t> Builder::finish(const WriteOptions& options) {
    if (variants_.empty()) throw Error("builder: no root variant was added");
    const NodeId root = object("hkRootLevelContainer");
    const NodeId list = array("hkRootLevelContainer::NamedVariant", static_cast<std::uint32_t>(variants_.size()));
    for (std::uint32_t i = 0; i < variants_.size(); ++i) {
        set_string(at(list, "name", i), variants_[i].name);
        set_string(at(list, "className", i), variants_[i].class_name);
        set_pointer(at(list, "variant", i), {variants_[i].node});
    }
    set_array(at(root, "namedVariants"), list);
    graph_.root = root.index;
    auto bytes = write_graph(graph_, options);
    // The graph stays reusable: drop the root objects again.
    graph_.nodes.resize(graph_.nodes.size() - 2);
    graph_.strings.resize(graph_.strings.size() - 2 * variants_.size());
    return bytes;
}

}  // namespace navlab::havok
