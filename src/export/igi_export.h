// Exports of an IGI graph: JSON (also `navlab igi dump --json`), GraphML and OBJ. Positions
// are graph-local world units (4096 = 1 m); add the AIGraph task position for world space.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "formats/igi/graph.h"

namespace navlab::igi {

/// The graph as JSON: variant, nMaxNodes, nodes (id, position, gamma, radius, material,
/// criteria, flags, positional extras), links (ids, type, Euclidean length), warnings.
/// @param with_routes also list every route-table entry that is not {-1, -1.0}.
nlohmann::json graph_to_json(const Graph& graph, bool with_routes);

/// GraphML: one <node> per graph node (id "n<id>", x/y/z/radius/material/criteria/flags
/// data keys) and one undirected <edge> per link (type and length).
std::string graph_to_graphml(const Graph& graph);

/// Wavefront OBJ: one vertex per node (file order) and one `l` line per link.
std::string graph_to_obj(const Graph& graph);

}  // namespace navlab::igi
