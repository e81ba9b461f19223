// `navlab igi build`: a Project IGI 1 graph from GRAPH.json (nodes and links), with a fresh
// route table, in the retail named layout.
#pragma once

#include <string>

#include "formats/igi/graph.h"

namespace navlab::build {

/// Parses GRAPH.json:
///   {"max_nodes": 100,                      // optional: default highest id + 1 (at least 2)
///    "nodes": [{"id": 0, "position": [x, y, z], "radius": 0.5, "material": -1,
///               "criteria": "NODECRITERIA_DOOR", "gamma": 0}, ...],
///    "links": [{"from": 0, "to": 1, "type": 1}, ...]}
/// and returns the named-variant graph with the route table computed (igi::rebuild_routes,
/// every column rebuilt). Throws navlab::Error naming `source` and the element for unknown
/// fields, wrong types, non-finite positions, duplicate or out-of-range ids, links to missing
/// nodes, unknown criteria, or anything igi::validate_graph refuses.
igi::Graph graph_from_json(const std::string& text, const std::string& source);

}  // namespace navlab::build
