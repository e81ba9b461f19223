// Strict readers of both variants. The named reader replays the engine's GraphOpen loop
// (spec §4.6): fields are values that update a pending node or link, and only the commit
// fields (nNodeCriteria, eLinkType) create one. Every record is kept in Graph::layout so a
// rewrite reproduces the file byte for byte.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "formats/igi/fields.h"
#include "formats/igi/graph_io.h"
#include "io/shared_bytes.h"

namespace navlab::igi {
namespace {

/// Smallest encodings, used to bound declared counts by the bytes that could hold them.
constexpr std::size_t kMinPositionalNode = 5 + 25 + 5 + 5 + 2 + 5 + 5;  // id pos γ r "" 0 0
constexpr std::size_t kPositionalLink = 15;
constexpr std::size_t kPositionalPair = 10;

/// Reads the N·N entries of a route table (the caller checked that they fit).
std::vector<RouteEntry> read_route_entries(ByteReader& r, std::int32_t n) {
    const std::size_t count = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    std::vector<RouteEntry> table(count);
    for (auto& entry : table) {
        entry.next = r.i32("route next node");
        entry.cost = r.f32("route cost");
    }
    return table;
}

/// Bytes of an N×N table (8·N²), saturated at the largest uint64 for absurd N.
std::uint64_t table_bytes(std::int32_t n) {
    const auto side = static_cast<std::uint64_t>(n);
    const std::uint64_t entries = side * side;  // < 2^62
    return entries > UINT64_MAX / 8 ? UINT64_MAX : 8 * entries;
}

/// 8·N² in decimal, exact even where table_bytes saturates.
std::string table_bytes_text(std::int32_t n) {
    unsigned __int128 v = static_cast<unsigned __int128>(8) * static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n);
    std::string text;
    do text.insert(text.begin(), static_cast<char>('0' + static_cast<int>(v % 10))); while ((v /= 10) != 0);
    return text;
}

class Ids {
public:
    /// @param max_nodes nMaxNodes; ids must be below min(N, 1000).
    void reset(std::int32_t max_nodes) {
        limit_ = std::min(max_nodes, kMaxNodeId);
        index_.assign(static_cast<std::size_t>(limit_), -1);
    }
    std::int32_t limit() const { return limit_; }
    bool in_range(std::int32_t id) const { return id >= 0 && id < limit_; }
    bool exists(std::int32_t id) const { return in_range(id) && index_[static_cast<std::size_t>(id)] >= 0; }
    void add(std::int32_t id, std::int32_t index) { index_[static_cast<std::size_t>(id)] = index; }

private:
    std::int32_t limit_ = 0;
    std::vector<std::int32_t> index_;
};

/// Fails unless `id` may be added as a new node (range, engine limit, uniqueness).
void check_new_node_id(const ByteReader& r, std::size_t at, std::int32_t id, std::int32_t max_nodes, const Ids& ids) {
    if (id < 0) r.fail_at(at, fmt::format("node id {} is negative", id));
    if (id >= kMaxNodeId) r.fail_at(at, fmt::format("node id {} is >= {} (the engine rejects the node)", id, kMaxNodeId));
    if (id >= max_nodes)
        r.fail_at(at, fmt::format("node id {} is >= nMaxNodes {} (the route table has no row for it)", id, max_nodes));
    if (ids.exists(id)) r.fail_at(at, fmt::format("duplicate node id {} (fatal in the engine)", id));
}

/// Fails unless both ends of a link exist; `at` are the offsets of the two id values.
void check_link_ends(const ByteReader& r, const Link& link, std::array<std::size_t, 2> at, const Ids& ids) {
    const std::int32_t ends[2] = {link.id1, link.id2};
    for (int k = 0; k < 2; ++k)
        if (!ids.exists(ends[k]))
            r.fail_at(at[k], fmt::format("link ({}, {}): node {} does not exist", link.id1, link.id2, ends[k]));
}

class NamedReader {
public:
    explicit NamedReader(Bytes data) : r_(data) {}

    Graph run() {
        r_.skip(4, "magic");
        g_.variant = Variant::Named;
        while (!r_.at_end()) read_record();
        if (node_.active) warn(node_.id_at, "nNodeID", "node never committed (no nNodeCriteria); the engine drops it");
        if (link_.active) warn(link_.id_at[0], "nLinkID1", "link never committed (no eLinkType); the engine drops it");
        if (g_.layout.empty()) r_.fail("the file ends after the magic: no nMaxNodes field");
        if (g_.routes.empty()) warn(r_.pos(), "RouteTable", "no RouteTable field (not an AIGraph file?)");
        return std::move(g_);
    }

private:
    struct PendingNode {
        bool active = false;
        Node node;
        std::size_t id_at = 0;
        std::array<std::optional<std::size_t>, 6> record;  // by role - NodeId
    };
    struct PendingLink {
        bool active = false;
        Link link;
        std::array<std::size_t, 2> id_at{};
        std::array<std::optional<std::size_t>, 3> record;  // by role - LinkId1
    };

    void warn(std::size_t at, std::string field, std::string message) {
        g_.warnings.push_back(warning_at(r_.absolute(at), std::move(field), std::move(message)));
    }

    void read_record() {
        const std::size_t start = r_.pos();
        const std::size_t number = g_.layout.size();
        r_.set_context(fmt::format("field #{}", number));
        const std::uint8_t key_tag = r_.u8("field key tag");
        if (key_tag != kTagU32)
            r_.fail_at(start, fmt::format("field key tag is {}, expected 4 (a uint32 name hash)", key_tag));
        const std::uint32_t hash = r_.u32("field name hash");
        const FieldInfo* info = find_field(hash);
        const std::string name = info ? std::string(info->name) : unknown_name(hash);
        r_.set_context(fmt::format("field #{} {}", number, name));

        const std::size_t type_at = r_.pos();
        const std::uint8_t type = read_tagged_u8(r_, "declared type");
        if (type > kMaxTag) r_.fail_at(type_at, fmt::format("declared type {} is not a tag (0..10)", type));
        if (info && type != info->declared_type)
            r_.fail_at(type_at, fmt::format("declared type {} ({}) does not match the field's type {} ({})", type,
                                            tag_name(type), info->declared_type, tag_name(info->declared_type)));
        if (number == 0 && (!info || info->role != FieldRole::MaxNodes))
            r_.fail_at(start, "the first field must be nMaxNodes (the engine discards what comes before it)");
        if (number != 0 && info && info->role == FieldRole::MaxNodes)
            r_.fail_at(start, "second nMaxNodes field (the engine would discard the nodes and table read so far)");

        FieldRecord record{hash, type, FieldRole::Raw, 0, {}};
        const std::size_t value_at = r_.pos();
        if (!info) {
            if (type == kTagBlob) r_.fail_at(type_at, "unknown field with a blob value: its size is not in the stream");
            Bytes raw = read_tagged_raw(r_, "value");
            if (raw[0] != type)
                r_.fail_at(value_at, fmt::format("value tag {} does not match the declared type {}", raw[0], type));
            warn(start, name, "unknown field skipped (the engine skips it too)");
            record.raw.assign(raw.begin(), raw.end());
            g_.layout.push_back(std::move(record));
            return;
        }
        g_.layout.push_back(std::move(record));
        read_known(*info, start, value_at);
    }

    static std::string unknown_name(std::uint32_t hash) {
        std::string_view igi2 = igi2_field_name(hash);
        if (!igi2.empty()) return fmt::format("unknown field 0x{:08X} (IGI 2 {})", hash, igi2);
        return fmt::format("unknown field 0x{:08X}", hash);
    }

    /// Reads the value of a known field and applies it like the engine's handler.
    void read_known(const FieldInfo& info, std::size_t start, std::size_t value_at) {
        switch (info.role) {
            case FieldRole::MaxNodes: return read_max_nodes(value_at);
            case FieldRole::RouteTable: return read_route_table(start);
            case FieldRole::NodeId: return start_node(value_at);
            case FieldRole::LinkId1: return start_link(value_at);
            case FieldRole::LinkId2:
            case FieldRole::LinkType: return set_link_field(info, value_at);
            default: return set_node_field(info, value_at);
        }
    }

    void keep_raw(std::size_t value_at) {
        Bytes raw = r_.data().subspan(value_at, r_.pos() - value_at);
        g_.layout.back().raw.assign(raw.begin(), raw.end());
    }

    void bind(std::size_t record, FieldRole role, std::size_t index) {
        FieldRecord& f = g_.layout[record];
        f.role = role;
        f.index = static_cast<std::uint32_t>(index);
        f.raw.clear();
    }

    void read_max_nodes(std::size_t value_at) {
        const std::int32_t n = read_tagged_i32(r_, "value");
        if (n < 2) r_.fail_at(value_at, fmt::format("nMaxNodes is {}; it must be at least 2", n));
        g_.max_nodes = n;
        ids_.reset(n);
        bind(g_.layout.size() - 1, FieldRole::MaxNodes, 0);
    }

    void read_route_table(std::size_t start) {
        if (!g_.routes.empty()) r_.fail_at(start, "second RouteTable field");
        if (node_.active || !g_.nodes.empty() || !g_.links.empty() || link_.active)
            r_.fail_at(start, "RouteTable after node or link fields (it must follow nMaxNodes)");
        Bytes header = r_.bytes(kBlobHeaderSize, "blob header");
        BlobHeader h;
        std::memcpy(h.data(), header.data(), h.size());
        g_.blob_header = h;
        const std::size_t table_at = r_.pos();
        const std::uint64_t need = table_bytes(g_.max_nodes);
        if (r_.remaining() < need)
            r_.fail_at(table_at, fmt::format("route table of {}×{} entries needs {} bytes but only {} remain "
                                             "(the table is the wrong size for nMaxNodes)",
                                             g_.max_nodes, g_.max_nodes, table_bytes_text(g_.max_nodes), r_.remaining()));
        g_.routes = read_route_entries(r_, g_.max_nodes);
        if (!r_.at_end() && r_.data()[r_.pos()] != kTagU32)
            r_.fail_at(r_.pos(), fmt::format("no field starts after the {}-byte route table{}: the table is the "
                                             "wrong size for nMaxNodes {}",
                                             need, where_nodes_start(table_at), g_.max_nodes));
        bind(g_.layout.size() - 1, FieldRole::RouteTable, 0);
    }

    /// " (the first nNodeID field is at 0x..., so the table holds N bytes)" or "".
    std::string where_nodes_start(std::size_t table_at) const {
        static constexpr std::uint8_t key[] = {kTagU32, 0xCE, 0x35, 0x07, 0x00, kTagU8, kTagI32, kTagI32};
        Bytes rest = r_.data().subspan(table_at);
        auto it = std::search(rest.begin(), rest.end(), std::begin(key), std::end(key));
        if (it == rest.end()) return {};
        const auto held = static_cast<std::size_t>(it - rest.begin());
        return fmt::format(" (the first nNodeID field is at {}, so the table holds {} bytes)",
                           hex(r_.absolute(table_at + held)), held);
    }

    void start_node(std::size_t value_at) {
        const std::size_t start_record = g_.layout.size() - 1;
        if (!g_.links.empty() || link_.active)
            r_.fail_at(value_at, "node field after the links (links must follow every node)");
        if (node_.active) warn(node_.id_at, "nNodeID", "node never committed (no nNodeCriteria); the engine drops it");
        node_ = PendingNode{};
        node_.active = true;
        node_.node.id = read_tagged_i32(r_, "value");
        node_.id_at = value_at;
        node_.record[0] = start_record;
        keep_raw(value_at);
        r_.set_context(fmt::format("field #{} nNodeID {}", start_record, node_.node.id));
    }

    void set_node_field(const FieldInfo& info, std::size_t value_at) {
        if (!node_.active)
            r_.fail_at(value_at, fmt::format("{} outside a node: no nNodeID since the last committed node", info.name));
        Node& node = node_.node;
        r_.set_context(fmt::format("field #{} {} of node {}", g_.layout.size() - 1, info.name, node.id));
        switch (info.role) {
            case FieldRole::NodePosition: node.position = read_tagged_vec3(r_, "value"); break;
            case FieldRole::NodeGamma: node.gamma = read_tagged_f32(r_, "value"); break;
            case FieldRole::NodeRadius: node.radius = read_tagged_f32(r_, "value"); break;
            case FieldRole::NodeMaterial: node.material = read_tagged_i32(r_, "value"); break;
            default: node.criteria = read_tagged_string(r_, "value"); break;
        }
        keep_raw(value_at);
        auto& slot = node_.record[static_cast<std::size_t>(info.role) - static_cast<std::size_t>(FieldRole::NodeId)];
        if (slot) warn(value_at, std::string(info.name), "field repeated inside one node; the later value wins");
        slot = g_.layout.size() - 1;
        if (info.role == FieldRole::NodeCriteria) commit_node(value_at);
    }

    void commit_node(std::size_t value_at) {
        const Node& node = node_.node;
        const std::string context = r_.context();
        r_.set_context(fmt::format("field #{} nNodeID {} (committed by nNodeCriteria)", *node_.record[0], node.id));
        check_new_node_id(r_, node_.id_at, node.id, g_.max_nodes, ids_);
        r_.set_context(context);
        const std::size_t index = g_.nodes.size();
        ids_.add(node.id, static_cast<std::int32_t>(index));
        std::string missing;
        for (std::size_t k = 0; k < node_.record.size(); ++k) {
            const auto role = static_cast<FieldRole>(static_cast<std::size_t>(FieldRole::NodeId) + k);
            if (node_.record[k]) bind(*node_.record[k], role, index);
            else missing += fmt::format(" {}", field_for(role).name);
        }
        if (!missing.empty())
            warn(node_.id_at, "nNodeID", fmt::format("node {} has no{}; the engine uses 0 (no material)", node.id, missing));
        if (!is_finite(node.position))
            warn(node_.id_at, "nNodeID", fmt::format("node {} has a non-finite position; routes cannot reach it", node.id));
        if (!criteria_flags(node.criteria))
            warn(value_at, "nNodeCriteria",
                 fmt::format("criteria \"{}\" is not a NODECRITERIA_* name", node.criteria.c_str()));
        g_.nodes.push_back(node);
        node_.active = false;
    }

    void start_link(std::size_t value_at) {
        if (node_.active) {
            warn(node_.id_at, "nNodeID", "node never committed (no nNodeCriteria); the engine drops it");
            node_.active = false;
        }
        if (link_.active) warn(link_.id_at[0], "nLinkID1", "link never committed (no eLinkType); the engine drops it");
        link_ = PendingLink{};
        link_.active = true;
        link_.link = {read_tagged_i32(r_, "value"), -1, 0};
        link_.id_at = {value_at, value_at};
        link_.record[0] = g_.layout.size() - 1;
        keep_raw(value_at);
    }

    void set_link_field(const FieldInfo& info, std::size_t value_at) {
        if (!link_.active)
            r_.fail_at(value_at, fmt::format("{} outside a link: no nLinkID1 since the last committed link", info.name));
        const std::int32_t value = read_tagged_i32(r_, "value");
        keep_raw(value_at);
        const std::size_t k = static_cast<std::size_t>(info.role) - static_cast<std::size_t>(FieldRole::LinkId1);
        if (link_.record[k]) warn(value_at, std::string(info.name), "field repeated inside one link; the later value wins");
        link_.record[k] = g_.layout.size() - 1;
        if (info.role == FieldRole::LinkId2) {
            link_.link.id2 = value;
            link_.id_at[1] = value_at;
            return;
        }
        link_.link.type = value;
        commit_link();
    }

    void commit_link() {
        const Link& link = link_.link;
        r_.set_context(fmt::format("link #{} (committed by field #{} eLinkType)", g_.links.size(), g_.layout.size() - 1));
        check_link_ends(r_, link, link_.id_at, ids_);
        if (link.id1 == link.id2) warn(link_.id_at[0], "nLinkID1", fmt::format("link from node {} to itself", link.id1));
        const std::size_t index = g_.links.size();
        for (std::size_t k = 0; k < link_.record.size(); ++k)
            if (link_.record[k])
                bind(*link_.record[k], static_cast<FieldRole>(static_cast<std::size_t>(FieldRole::LinkId1) + k), index);
        g_.links.push_back(link);
        link_.active = false;
    }

    ByteReader r_;
    Graph g_;
    Ids ids_;
    PendingNode node_;
    PendingLink link_;
};

/// Reads a declared count and fails unless `count` items of at least `item_size` bytes fit.
std::int32_t read_count(ByteReader& r, std::string_view field, std::size_t item_size) {
    const std::size_t at = r.pos();
    const std::int32_t count = read_tagged_i32(r, field);
    if (count < 0) r.fail_at(at, fmt::format("{} is negative ({})", field, count));
    if (static_cast<std::uint64_t>(count) * item_size > r.remaining())
        r.fail_at(at, fmt::format("{} {} needs at least {} bytes but only {} remain", field, count,
                                  static_cast<std::uint64_t>(count) * item_size, r.remaining()));
    return count;
}

std::vector<IntPair> read_pairs(ByteReader& r, std::string_view field) {
    const std::int32_t count = read_count(r, field, kPositionalPair);
    std::vector<IntPair> pairs(static_cast<std::size_t>(count));
    for (auto& p : pairs) {
        p.a = read_tagged_i32(r, field);
        p.b = read_tagged_i32(r, field);
    }
    return pairs;
}

Node read_positional_node(ByteReader& r, Graph& g, const Ids& ids) {
    Node node;
    const std::size_t id_at = r.pos();
    node.id = read_tagged_i32(r, "id");
    check_new_node_id(r, id_at, node.id, g.max_nodes, ids);
    r.set_context(fmt::format("{} (id {})", r.context(), node.id));
    node.position = read_tagged_vec3(r, "position");
    node.gamma = read_tagged_f32(r, "gamma");
    node.radius = read_tagged_f32(r, "radius");
    // The engine peeks the next tag to decide whether the optional values are present.
    if (peek_tag(r, "optional float or criteria") == kTagF32) node.extra = read_tagged_f32(r, "optional float");
    if (peek_tag(r, "material or criteria") == kTagI32) node.material = read_tagged_i32(r, "material");
    else
        g.warnings.push_back(warning_at(r.absolute(r.pos()), r.context(),
                                        "no material: the engine reuses the previous node's material (or garbage)"));
    node.criteria = read_tagged_string(r, "criteria");
    if (!is_finite(node.position))
        g.warnings.push_back(warning_at(r.absolute(id_at), r.context(), "non-finite position; routes cannot reach the node"));
    node.list_a = read_pairs(r, "first pair list count");
    node.list_b = read_pairs(r, "second pair list count");
    return node;
}

Graph read_positional(Bytes data) {
    ByteReader r(data);
    r.set_context("positional header");
    Graph g;
    g.variant = Variant::Positional;
    const std::int32_t node_count = read_count(r, "node count", kMinPositionalNode);
    const std::size_t n_at = r.pos();
    g.max_nodes = read_tagged_i32(r, "nMaxNodes");
    if (g.max_nodes < 2) r.fail_at(n_at, fmt::format("nMaxNodes is {}; it must be at least 2", g.max_nodes));
    const std::int32_t link_count = read_count(r, "link count", kPositionalLink);
    Ids ids;
    ids.reset(g.max_nodes);
    g.nodes.reserve(static_cast<std::size_t>(node_count));
    for (std::int32_t i = 0; i < node_count; ++i) {
        r.set_context(fmt::format("node #{}", i));
        g.nodes.push_back(read_positional_node(r, g, ids));
        ids.add(g.nodes.back().id, i);
    }
    g.links.reserve(static_cast<std::size_t>(link_count));
    for (std::int32_t i = 0; i < link_count; ++i) {
        r.set_context(fmt::format("link #{}", i));
        const std::array<std::size_t, 2> at = {r.pos(), r.pos() + 5};
        Link link;
        link.id1 = read_tagged_i32(r, "id1");
        link.id2 = read_tagged_i32(r, "id2");
        link.type = read_tagged_i32(r, "type");
        check_link_ends(r, link, at, ids);
        g.links.push_back(link);
    }
    r.set_context("RouteTable");
    const std::uint64_t need = table_bytes(g.max_nodes);
    const std::size_t left = r.remaining();
    if (left == 0) {
        g.warnings.push_back(warning_at(r.absolute(r.pos()), "RouteTable", "no route table after the links"));
        return g;
    }
    const bool raw = left == need;
    const bool with_header = left >= kBlobHeaderSize && left - kBlobHeaderSize == need;
    if (!raw && !with_header)
        r.fail(fmt::format("{} bytes follow the links; a {}×{} route table takes {} bytes (raw) or {} (with the "
                           "7-byte blob header): the table is the wrong size",
                           left, g.max_nodes, g.max_nodes, table_bytes_text(g.max_nodes),
                           table_bytes_text(g.max_nodes) + " + 7"));
    g.route_header = with_header;
    if (g.route_header) {
        BlobHeader h;
        std::memcpy(h.data(), r.bytes(kBlobHeaderSize, "blob header").data(), h.size());
        g.blob_header = h;
    }
    g.routes = read_route_entries(r, g.max_nodes);
    return g;
}

}  // namespace

Graph read_graph(Bytes data) {
    if (data.size() >= 4 && ByteReader(data).u32("magic") == kNamedMagic) return NamedReader(data).run();
    if (!data.empty() && data[0] == kTagI32) return read_positional(data);
    static constexpr std::uint8_t magic[] = {0xCC, 0xDD, 0xEE, 0xFF};
    if (data.size() < 4 && std::equal(data.begin(), data.end(), magic))
        throw Error(fmt::format("file of {} bytes ends inside the 4-byte magic", data.size()), data.size(), "magic");
    throw Error("not an IGI graph: neither the magic CC DD EE FF nor a positional header (first byte 05)", 0, "magic");
}

Graph read_graph_file(const std::filesystem::path& path) {
    try {
        return read_graph(SharedBytes::map_file(path));
    } catch (Error& e) {
        throw e.set_file(path.string());
    }
}

}  // namespace navlab::igi
