#include "export/igi_export.h"

#include <fmt/format.h>

#include <unordered_map>

#include "formats/igi/stream.h"

namespace navlab::igi {
namespace {

double link_length(const std::unordered_map<std::int32_t, const Node*>& by_id, const Link& link) {
    return distance(by_id.at(link.id1)->position, by_id.at(link.id2)->position);
}

std::unordered_map<std::int32_t, const Node*> nodes_by_id(const Graph& g) {
    std::unordered_map<std::int32_t, const Node*> by_id;
    for (const Node& node : g.nodes) by_id[node.id] = &node;
    return by_id;
}

nlohmann::json node_json(const Node& node) {
    nlohmann::json j = {{"id", node.id},
                        {"position", {node.position.x, node.position.y, node.position.z}},
                        {"gamma", node.gamma},
                        {"radius", node.radius},
                        {"material", node.material ? nlohmann::json(*node.material) : nlohmann::json()},
                        {"criteria", node.criteria}};
    const auto flags = criteria_flags(node.criteria);
    j["flags"] = flags ? nlohmann::json(*flags) : nlohmann::json();
    if (node.extra) j["extra"] = *node.extra;
    auto pairs = [](const std::vector<IntPair>& v) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& p : v) a.push_back({p.a, p.b});
        return a;
    };
    if (!node.list_a.empty() || !node.list_b.empty()) {
        j["list_a"] = pairs(node.list_a);
        j["list_b"] = pairs(node.list_b);
    }
    return j;
}

/// Escapes text for XML attribute and element content.
std::string xml_escape(std::string_view s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string node_ids(const Graph& g) {
    std::string ids;
    for (const Node& node : g.nodes) ids += fmt::format("{}{}", ids.empty() ? "" : " ", node.id);
    return ids;
}

}  // namespace

nlohmann::json graph_to_json(const Graph& g, bool with_routes) {
    const auto by_id = nodes_by_id(g);
    nlohmann::json j = {{"format", "igi-graph"},
                        {"variant", g.variant == Variant::Named ? "named" : "positional"},
                        {"max_nodes", g.max_nodes},
                        {"units", "graph-local world units, 4096 = 1 m; radius in metres"}};
    nlohmann::json nodes = nlohmann::json::array();
    for (const Node& node : g.nodes) nodes.push_back(node_json(node));
    j["nodes"] = std::move(nodes);
    nlohmann::json links = nlohmann::json::array();
    for (const auto& link : g.links)
        links.push_back({{"id1", link.id1}, {"id2", link.id2}, {"type", link.type}, {"length", link_length(by_id, link)}});
    j["links"] = std::move(links);
    j["route_table"] = !g.routes.empty();
    if (g.blob_header && (g.variant == Variant::Named || g.route_header)) {
        std::string header;
        for (auto b : *g.blob_header) header += fmt::format("{:02X}", b);
        j["blob_header"] = header;
    }
    if (with_routes && !g.routes.empty()) {
        nlohmann::json routes = nlohmann::json::array();
        for (std::int32_t to = 0; to < g.max_nodes; ++to)
            for (std::int32_t from = 0; from < g.max_nodes; ++from) {
                const auto& e = g.routes[g.route_index(from, to)];
                if (e.next != -1 || e.cost != -1.0f)
                    routes.push_back({{"from", from}, {"to", to}, {"next", e.next}, {"cost", e.cost}});
            }
        j["routes"] = std::move(routes);
    }
    nlohmann::json warnings = nlohmann::json::array();
    for (const auto& w : g.warnings)
        warnings.push_back({{"offset", w.offset}, {"field", w.field}, {"message", w.message}});
    j["warnings"] = std::move(warnings);
    return j;
}

std::string graph_to_graphml(const Graph& g) {
    const auto by_id = nodes_by_id(g);
    std::string out =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "  <key id=\"x\" for=\"node\" attr.name=\"x\" attr.type=\"double\"/>\n"
        "  <key id=\"y\" for=\"node\" attr.name=\"y\" attr.type=\"double\"/>\n"
        "  <key id=\"z\" for=\"node\" attr.name=\"z\" attr.type=\"double\"/>\n"
        "  <key id=\"gamma\" for=\"node\" attr.name=\"gamma\" attr.type=\"float\"/>\n"
        "  <key id=\"radius\" for=\"node\" attr.name=\"radius\" attr.type=\"float\"/>\n"
        "  <key id=\"material\" for=\"node\" attr.name=\"material\" attr.type=\"int\"/>\n"
        "  <key id=\"criteria\" for=\"node\" attr.name=\"criteria\" attr.type=\"string\"/>\n"
        "  <key id=\"flags\" for=\"node\" attr.name=\"flags\" attr.type=\"int\"/>\n"
        "  <key id=\"type\" for=\"edge\" attr.name=\"type\" attr.type=\"int\"/>\n"
        "  <key id=\"length\" for=\"edge\" attr.name=\"length\" attr.type=\"double\"/>\n";
    out += fmt::format("  <graph id=\"igi\" edgedefault=\"undirected\">\n");
    for (const Node& node : g.nodes) {
        out += fmt::format("    <node id=\"n{}\">", node.id);
        out += fmt::format("<data key=\"x\">{}</data><data key=\"y\">{}</data><data key=\"z\">{}</data>",
                           node.position.x, node.position.y, node.position.z);
        out += fmt::format("<data key=\"gamma\">{}</data><data key=\"radius\">{}</data>", node.gamma, node.radius);
        out += fmt::format("<data key=\"material\">{}</data>", node.material.value_or(-1));
        out += fmt::format("<data key=\"criteria\">{}</data>", xml_escape(node.criteria.c_str()));
        if (auto flags = criteria_flags(node.criteria)) out += fmt::format("<data key=\"flags\">{}</data>", *flags);
        out += "</node>\n";
    }
    for (std::size_t i = 0; i < g.links.size(); ++i) {
        const auto& link = g.links[i];
        out += fmt::format("    <edge id=\"e{}\" source=\"n{}\" target=\"n{}\"><data key=\"type\">{}</data>"
                           "<data key=\"length\">{}</data></edge>\n",
                           i, link.id1, link.id2, link.type, link_length(by_id, link));
    }
    out += "  </graph>\n</graphml>\n";
    return out;
}

std::string graph_to_obj(const Graph& g) {
    std::string out = fmt::format("# navlab export: IGI graph, {} nodes, {} links, graph-local units (4096 = 1 m)\n"
                                  "# vertex k is the k-th node in file order; ids: {}\n",
                                  g.nodes.size(), g.links.size(), node_ids(g));
    std::unordered_map<std::int32_t, std::size_t> vertex_of;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& node = g.nodes[i];
        out += fmt::format("v {} {} {}\n", node.position.x, node.position.y, node.position.z);
        vertex_of[node.id] = i + 1;
    }
    if (!g.nodes.empty()) out += "p";
    for (std::size_t i = 1; i <= g.nodes.size(); ++i) out += fmt::format(" {}", i);
    if (!g.nodes.empty()) out += "\n";
    for (const auto& link : g.links) out += fmt::format("l {} {}\n", vertex_of.at(link.id1), vertex_of.at(link.id2));
    return out;
}

}  // namespace navlab::igi
