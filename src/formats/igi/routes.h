// Route-table verification and recomputation (spec §5). Entry (from, to) at from + to·N
// holds the next node on a shortest path and the whole path's cost; costs are sums of 3-D
// Euclidean link lengths between node positions (world units); {-1, -1.0} means no route.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/igi/graph.h"

namespace navlab::igi {

/// Classes of route-table problems that `igi check` reports.
enum class RouteProblem : std::uint8_t {
    MissingTable,  ///< the file has no RouteTable
    BadNext,       ///< a next-node id that is not a node of the graph
    NotALink,      ///< a step between two nodes that share no link
    Loop,          ///< following next nodes revisits a node before the target
    DeadEnd,       ///< following next nodes reaches a {-1} entry before the target
    MissingRoute,  ///< the target is reachable but the entry says "no route"
    CostMismatch,  ///< stored cost differs from the length of the path walked
    NotShortest,   ///< the path walked is longer than the shortest path
    NotSentinel,   ///< same node, unreachable pair or unused slot is not exactly {-1, -1.0}
};
inline constexpr std::size_t kRouteProblemCount = 9;

/// Short stable name of a problem class ("not_a_link"), used in text and JSON reports.
std::string_view problem_name(RouteProblem problem);

/// One offending entry.
struct RouteExample {
    std::int32_t from = 0, to = 0;
    std::string detail;
};

/// How many entries have one class of problem, and the first few of them (index order).
struct ProblemCount {
    RouteProblem problem;
    std::size_t count = 0;
    std::vector<RouteExample> examples;
};

struct RouteReport {
    std::size_t entries = 0;          ///< N·N
    std::size_t reachable_pairs = 0;  ///< ordered pairs of distinct, connected nodes
    std::size_t routes_walked = 0;    ///< reachable pairs whose walk reached the target
    double max_cost_difference = 0;   ///< largest |stored cost - walked length| (world units)
    std::int32_t max_difference_from = -1, max_difference_to = -1;
    std::vector<ProblemCount> problems;     ///< one per class, in enum order
    std::vector<bool> target_valid;         ///< per target slot: its whole column is correct

    std::size_t problem_total() const;
    bool ok() const { return problem_total() == 0; }
};

/// Tolerance for comparing costs: |a - b| <= 0.01 + 1e-5·|b| (world units; float32 costs).
bool costs_match(double stored, double expected);

/// Verifies the stored table against the links and positions.
/// @param graph        the graph; its table may be absent (MissingTable).
/// @param max_examples how many examples to keep per problem class.
RouteReport check_routes(const Graph& graph, std::size_t max_examples = 5);

/// A recomputed table and how much of the stored one it kept.
struct RouteRebuild {
    std::vector<RouteEntry> table;  ///< N·N entries
    std::size_t kept_targets = 0;   ///< columns (targets) copied from the stored table
    std::size_t rebuilt_targets = 0;
};

/// Computes the route table. Per target, the stored column is kept when it is fully valid
/// (check_routes) and `keep_valid` is set; otherwise the column is rebuilt from a Dijkstra
/// tree grown from the target over Euclidean link lengths. Ties are broken
/// deterministically: smaller distance, then fewer links, then the lower node id as the
/// next node. Links of non-finite length are never used. Throws Error when N·N entries
/// would exceed 64 MiB or a path is longer than a float32 cost can hold.
RouteRebuild rebuild_routes(const Graph& graph, bool keep_valid = true);

}  // namespace navlab::igi
