// Writers of both variants. A named graph read from a file is written back in its own field
// order (Graph::layout), re-encoding bound values from the model and copying raw records,
// so an unchanged graph comes back byte for byte; new graphs get the retail layout.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "formats/igi/fields.h"
#include "formats/igi/graph_io.h"

namespace navlab::igi {
namespace {

void write_route_table(ByteWriter& w, const Graph& g, bool with_header) {
    if (with_header) {
        const BlobHeader header = g.blob_header.value_or(default_blob_header(g.max_nodes));
        w.bytes(Bytes(header.data(), header.size()));
    }
    for (const RouteEntry& e : g.routes) {
        w.i32(e.next);
        w.f32(e.cost);
    }
}

/// Writes the tagged value that `role` takes from the model (node/link `index`).
void write_value(ByteWriter& w, const Graph& g, FieldRole role, std::size_t index) {
    switch (role) {
        case FieldRole::MaxNodes: return write_tagged_i32(w, g.max_nodes);
        case FieldRole::RouteTable: return write_route_table(w, g, true);
        case FieldRole::NodeId: return write_tagged_i32(w, g.nodes[index].id);
        case FieldRole::NodePosition: return write_tagged_vec3(w, g.nodes[index].position);
        case FieldRole::NodeGamma: return write_tagged_f32(w, g.nodes[index].gamma);
        case FieldRole::NodeRadius: return write_tagged_f32(w, g.nodes[index].radius);
        case FieldRole::NodeMaterial: return write_tagged_i32(w, g.nodes[index].material.value_or(-1));
        case FieldRole::NodeCriteria: return write_tagged_string(w, g.nodes[index].criteria);
        case FieldRole::LinkId1: return write_tagged_i32(w, g.links[index].id1);
        case FieldRole::LinkId2: return write_tagged_i32(w, g.links[index].id2);
        case FieldRole::LinkType: return write_tagged_i32(w, g.links[index].type);
        case FieldRole::Raw: break;
    }
    throw std::logic_error("write_value: raw records carry their own bytes");
}

void write_field(ByteWriter& w, const Graph& g, FieldRole role, std::size_t index = 0) {
    const FieldInfo& f = field_for(role);
    write_field_key(w, f.hash, f.declared_type);
    write_value(w, g, role, index);
}

std::vector<std::uint8_t> write_retail(const Graph& g) {
    ByteWriter w;
    w.u32(kNamedMagic);
    write_field(w, g, FieldRole::MaxNodes);
    if (!g.routes.empty()) write_field(w, g, FieldRole::RouteTable);
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        for (FieldRole role : {FieldRole::NodeId, FieldRole::NodePosition, FieldRole::NodeGamma, FieldRole::NodeRadius,
                               FieldRole::NodeMaterial, FieldRole::NodeCriteria})
            write_field(w, g, role, i);
    for (std::size_t i = 0; i < g.links.size(); ++i)
        for (FieldRole role : {FieldRole::LinkId1, FieldRole::LinkId2, FieldRole::LinkType}) write_field(w, g, role, i);
    return std::move(w).finish();
}

/// Fails unless every node and link is carried by the layout exactly once (its start and
/// commit fields), so writing it cannot drop or duplicate anything.
void check_layout(const Graph& g) {
    std::vector<int> node_starts(g.nodes.size()), node_commits(g.nodes.size());
    std::vector<int> link_starts(g.links.size()), link_commits(g.links.size());
    int max_nodes = 0;
    for (const FieldRecord& f : g.layout) {
        const bool node_field = f.role >= FieldRole::NodeId && f.role <= FieldRole::NodeCriteria;
        const bool link_field = f.role >= FieldRole::LinkId1 && f.role <= FieldRole::LinkType;
        if ((node_field && f.index >= g.nodes.size()) || (link_field && f.index >= g.links.size()))
            throw Error("the field layout refers to a node or link that no longer exists; write with the retail layout");
        switch (f.role) {
            case FieldRole::MaxNodes: ++max_nodes; break;
            case FieldRole::NodeId: ++node_starts[f.index]; break;
            case FieldRole::NodeCriteria: ++node_commits[f.index]; break;
            case FieldRole::LinkId1: ++link_starts[f.index]; break;
            case FieldRole::LinkType: ++link_commits[f.index]; break;
            default: break;
        }
    }
    auto once = [](const std::vector<int>& v) { return std::all_of(v.begin(), v.end(), [](int c) { return c == 1; }); };
    if (max_nodes != 1 || !once(node_starts) || !once(node_commits) || !once(link_starts) || !once(link_commits))
        throw Error("the field layout does not match the graph's nodes and links; write with the retail layout");
}

std::vector<std::uint8_t> write_source(const Graph& g) {
    check_layout(g);
    const bool layout_has_table = std::any_of(g.layout.begin(), g.layout.end(),
                                              [](const FieldRecord& f) { return f.role == FieldRole::RouteTable; });
    ByteWriter w;
    w.u32(kNamedMagic);
    for (const FieldRecord& f : g.layout) {
        if (f.role == FieldRole::RouteTable && g.routes.empty()) continue;  // table removed
        write_field_key(w, f.hash, f.declared_type);
        if (f.role == FieldRole::Raw) w.bytes(Bytes(f.raw.data(), f.raw.size()));
        else write_value(w, g, f.role, f.index);
        // A table added to a file that had none goes where retail files keep it.
        if (f.role == FieldRole::MaxNodes && !layout_has_table && !g.routes.empty())
            write_field(w, g, FieldRole::RouteTable);
    }
    return std::move(w).finish();
}

void write_pairs(ByteWriter& w, const std::vector<IntPair>& pairs) {
    write_tagged_i32(w, static_cast<std::int32_t>(pairs.size()));
    for (const IntPair& p : pairs) {
        write_tagged_i32(w, p.a);
        write_tagged_i32(w, p.b);
    }
}

std::vector<std::uint8_t> write_positional(const Graph& g) {
    ByteWriter w;
    write_tagged_i32(w, static_cast<std::int32_t>(g.nodes.size()));
    write_tagged_i32(w, g.max_nodes);
    write_tagged_i32(w, static_cast<std::int32_t>(g.links.size()));
    for (const Node& node : g.nodes) {
        write_tagged_i32(w, node.id);
        write_tagged_vec3(w, node.position);
        write_tagged_f32(w, node.gamma);
        write_tagged_f32(w, node.radius);
        if (node.extra) write_tagged_f32(w, *node.extra);
        if (node.material) write_tagged_i32(w, *node.material);
        write_tagged_string(w, node.criteria);
        write_pairs(w, node.list_a);
        write_pairs(w, node.list_b);
    }
    for (const Link& link : g.links) {
        write_tagged_i32(w, link.id1);
        write_tagged_i32(w, link.id2);
        write_tagged_i32(w, link.type);
    }
    if (!g.routes.empty()) write_route_table(w, g, g.route_header);
    return std::move(w).finish();
}

}  // namespace

std::vector<std::uint8_t> write_graph(const Graph& graph, Layout layout) {
    validate_graph(graph);
    if (graph.variant == Variant::Positional) return write_positional(graph);
    if (layout == Layout::Retail || graph.layout.empty()) return write_retail(graph);
    return write_source(graph);
}

}  // namespace navlab::igi
