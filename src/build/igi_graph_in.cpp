#include "build/igi_graph_in.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>

#include "formats/igi/routes.h"
#include "io/error.h"
#include "io/json_as.h"

namespace navlab::build {
namespace {

using nlohmann::json;

void only(const json& j, const std::set<std::string>& keys, const std::string& where) {
    if (!j.is_object()) throw Error("must be a JSON object", kNoOffset, where);
    for (const auto& [k, v] : j.items())
        if (!keys.count(k)) throw Error("unknown field '" + k + "'", kNoOffset, where);
}

/// j[key] as T, or `fallback` when absent. `where` names j ("g.json: nodes[3]"); the file's own
/// top-level fields join it with ": " ("g.json: max_nodes"), nested ones with ".".
template <class T>
T get(const json& j, const char* key, const std::string& where, T fallback, const char* join = ".") {
    if (!j.contains(key)) return fallback;
    try {
        return json_as<T>(j.at(key));
    } catch (const Error& e) {
        throw Error(e.message(), kNoOffset, where + join + key);
    }
}

}  // namespace

igi::Graph graph_from_json(const std::string& text, const std::string& source) {
    json j;
    try {
        j = json_parse<json>(text);
    } catch (Error& e) {
        throw e.set_file(source);
    }
    only(j, {"max_nodes", "nodes", "links"}, source);
    if (!j.contains("nodes") || !j["nodes"].is_array()) throw Error("needs a nodes array", kNoOffset, source);
    igi::Graph g;
    g.variant = igi::Variant::Named;
    std::int32_t highest = -1;
    for (std::size_t i = 0; i < j["nodes"].size(); ++i) {
        const json& n = j["nodes"][i];
        const std::string where = fmt::format("{}: nodes[{}]", source, i);
        only(n, {"id", "position", "radius", "material", "criteria", "gamma"}, where);
        if (!n.contains("id") || !n.contains("position")) throw Error("needs id and position", kNoOffset, where);
        igi::Node node;
        node.id = get<std::int32_t>(n, "id", where, 0);
        const auto p = get<std::array<double, 3>>(n, "position", where, {});
        node.position = {p[0], p[1], p[2]};
        if (!igi::is_finite(node.position)) throw Error("position is not finite", kNoOffset, where);
        node.radius = get<float>(n, "radius", where, 0.5f);
        node.gamma = get<float>(n, "gamma", where, 0.0f);
        node.material = get<std::int32_t>(n, "material", where, -1);
        node.criteria = get<std::string>(n, "criteria", where, "");
        if (!igi::criteria_flags(node.criteria))
            throw Error("criteria '" + node.criteria + "' (NODECRITERIA_DOOR, _VIEW, _STAIR joined by '|')", kNoOffset, where);
        highest = std::max(highest, node.id);
        g.nodes.push_back(std::move(node));
    }
    if (j.contains("links")) {
        if (!j["links"].is_array()) throw Error("must be an array", kNoOffset, source + ": links");
        for (std::size_t i = 0; i < j["links"].size(); ++i) {
            const json& l = j["links"][i];
            const std::string where = fmt::format("{}: links[{}]", source, i);
            only(l, {"from", "to", "type"}, where);
            if (!l.contains("from") || !l.contains("to")) throw Error("needs from and to", kNoOffset, where);
            g.links.push_back({get<std::int32_t>(l, "from", where, 0), get<std::int32_t>(l, "to", where, 0),
                               get<std::int32_t>(l, "type", where, 1)});
        }
    }
    // Default: one past the highest id, counted in 64 bits (an id of INT32_MAX is refused by
    // the validation below, not overflowed here).
    const auto one_past = static_cast<std::int32_t>(std::min<std::int64_t>(INT32_MAX, std::int64_t{highest} + 1));
    g.max_nodes = get<std::int32_t>(j, "max_nodes", source, std::max(2, one_past), ": ");
    try {
        igi::validate_graph(g);
        g.routes = igi::rebuild_routes(g, false).table;  // refuses a route table too large to build
    } catch (Error& e) {
        throw e.in(source);
    }
    return g;
}

}  // namespace navlab::build
