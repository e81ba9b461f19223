#include "query/igi_path.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "formats/igi/routes.h"
#include "io/error.h"

namespace navlab::query {
namespace {

const igi::Node* node_of(const igi::Graph& g, std::int32_t id) {
    for (const igi::Node& n : g.nodes)
        if (n.id == id) return &n;
    return nullptr;
}

bool linked(const igi::Graph& g, std::int32_t a, std::int32_t b) {
    return std::any_of(g.links.begin(), g.links.end(),
                       [&](const igi::Link& l) { return (l.id1 == a && l.id2 == b) || (l.id1 == b && l.id2 == a); });
}

IgiRoute walk(const igi::Graph& g, const std::vector<igi::RouteEntry>& table, std::int32_t from, std::int32_t to) {
    IgiRoute r;
    r.nodes.push_back(from);
    if (table.empty()) {
        r.problem = "no route table";
        return r;
    }
    std::set<std::int32_t> seen{from};
    for (std::int32_t cur = from; cur != to;) {
        const igi::RouteEntry& e = table[g.route_index(cur, to)];
        const igi::Node* a = node_of(g, cur);
        const igi::Node* b = e.next >= 0 && e.next < g.max_nodes ? node_of(g, e.next) : nullptr;
        if (e.next < 0) r.problem = fmt::format("no route from node {}", cur);
        else if (!b) r.problem = fmt::format("node {}: next {} is not a node", cur, e.next);
        else if (!linked(g, cur, e.next)) r.problem = fmt::format("node {}: next {} is not linked to it", cur, e.next);
        else if (!seen.insert(e.next).second) r.problem = fmt::format("node {}: next {} loops back", cur, e.next);
        if (!r.problem.empty()) {
            r.no_route = e.next < 0 && cur == from;
            return r;
        }
        r.length += igi::distance(a->position, b->position);
        r.nodes.push_back(e.next);
        cur = e.next;
    }
    r.reached = true;
    return r;
}

}  // namespace

IgiPathReport igi_path(const igi::Graph& graph, std::int32_t from, std::int32_t to) {
    for (std::int32_t id : {from, to})
        if (!node_of(graph, id) || id >= graph.max_nodes) throw Error(fmt::format("{} is not a node of the graph", id), kNoOffset, "node");
    IgiPathReport out;
    out.table = walk(graph, graph.routes, from, to);
    if (!graph.routes.empty()) out.stored_cost = graph.routes[graph.route_index(from, to)].cost;
    out.shortest = walk(graph, igi::rebuild_routes(graph, false).table, from, to);
    if (from != to && !out.shortest.reached && out.shortest.problem.find("no route") != std::string::npos)
        out.shortest.problem = "not connected";
    // Dijkstra's table has "no route" at the start exactly when the target is not connected.
    out.match = (out.table.reached && out.shortest.reached && igi::costs_match(out.table.length, out.shortest.length)) ||
                (out.table.no_route && out.shortest.no_route);
    return out;
}

}  // namespace navlab::query
