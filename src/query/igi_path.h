// Paths on a Project IGI graph: the route the file's own table gives (next-node walk) beside
// the shortest route over the graph's links (Dijkstra, via igi::rebuild_routes), so a stale
// table shows as a mismatch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/igi/graph.h"

namespace navlab::query {

/// One walked route.
struct IgiRoute {
    bool reached = false;             ///< the walk arrived at the target
    std::vector<std::int32_t> nodes;  ///< node ids from the start, as walked
    double length = 0;                ///< sum of 3-D link lengths walked (world units)
    std::string problem;              ///< why the walk stopped early ("" when reached)
    bool no_route = false;            ///< stopped at the start itself: no route from there to the target
};

struct IgiPathReport {
    IgiRoute table;       ///< by the file's route table
    IgiRoute shortest;    ///< by Dijkstra over the links
    double stored_cost = -1;  ///< the table's cost for (from, to); -1 when absent
    /// Both reached and the lengths agree (igi::costs_match), or both say the target cannot be
    /// reached from the start (the table at its first step, Dijkstra over the whole graph).
    bool match = false;
};

/// Walks from node `from` to node `to`. Throws navlab::Error when either id is not a node.
/// The table walk stops at a bad next id, a step that is not a link, a revisited node or a
/// "no route" entry; at most N steps.
IgiPathReport igi_path(const igi::Graph& graph, std::int32_t from, std::int32_t to);

}  // namespace navlab::query
