// Route-table verification finds every planted inconsistency; the rebuild is deterministic,
// passes the check and keeps valid stored choices.
#include <gtest/gtest.h>

#include <cmath>

#include "formats/igi/graph_io.h"
#include "formats/igi/routes.h"
#include "igi/fixtures.h"

using namespace navlab;
using namespace navlab::igi;
using namespace navlab::igi::test;

namespace {

constexpr double kStep = 4096.0;

/// N = 12: a 3×3 grid of nodes 1..9 (ids row by row, 1 m apart, so many equal-length
/// paths), plus nodes 10-11 linked to each other only. Slot 0 is unused.
Graph grid() {
    Graph g;
    g.max_nodes = 12;
    for (std::int32_t id = 1; id <= 9; ++id)
        g.nodes.push_back(make_node(id, {kStep * ((id - 1) % 3), kStep * ((id - 1) / 3), 0}));
    g.nodes.push_back(make_node(10, {0, 5 * kStep, 0}));
    g.nodes.push_back(make_node(11, {kStep, 5 * kStep, 0}));
    for (std::int32_t id = 1; id <= 9; ++id) {
        if (id % 3 != 0) g.links.push_back({id, id + 1, 1});
        if (id <= 6) g.links.push_back({id, id + 3, 1});
    }
    g.links.push_back({10, 11, 1});
    g.routes = rebuild_routes(g).table;
    return g;
}

RouteEntry& at(Graph& g, std::int32_t from, std::int32_t to) { return g.routes[g.route_index(from, to)]; }

const ProblemCount& problem(const RouteReport& r, RouteProblem p) { return r.problems[static_cast<std::size_t>(p)]; }

}  // namespace

TEST(IgiRoutes, RebuiltTablePassesTheCheck) {
    Graph g = grid();
    const RouteReport r = check_routes(g);
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.entries, 144u);
    EXPECT_EQ(r.reachable_pairs, 9u * 8u + 2u);
    EXPECT_EQ(r.routes_walked, r.reachable_pairs);
    EXPECT_LT(r.max_cost_difference, 1e-3);
    EXPECT_EQ(at(g, 1, 9).cost, static_cast<float>(4 * kStep));
    EXPECT_EQ(at(g, 10, 11).next, 11);
    EXPECT_EQ(at(g, 1, 10).next, -1);  // other component
    EXPECT_EQ(at(g, 0, 1).next, -1);   // unused slot
    EXPECT_EQ(at(g, 5, 5).next, -1);   // same node
}

TEST(IgiRoutes, TiesGoToTheLowerNextId) {
    Graph g = grid();
    EXPECT_EQ(at(g, 1, 9).next, 2);  // 2 and 4 are both on a shortest path
    EXPECT_EQ(at(g, 9, 1).next, 6);  // 6 and 8
    EXPECT_EQ(at(g, 5, 1).next, 2);  // 2 and 4
    // Same input, same table.
    const auto again = rebuild_routes(grid(), false).table;
    for (std::size_t i = 0; i < again.size(); ++i) EXPECT_EQ(again[i].next, g.routes[i].next);
}

TEST(IgiRoutes, FewerLinksWinOverEqualDistance) {
    // 1 -- 3 directly (length 2) and 1 -- 2 -- 3 (lengths 1 + 1, node 2 on the line).
    Graph g;
    g.max_nodes = 4;
    g.nodes = {make_node(1, {0, 0, 0}), make_node(2, {kStep, 0, 0}), make_node(3, {2 * kStep, 0, 0})};
    g.links = {{1, 2, 1}, {2, 3, 1}, {1, 3, 1}};
    g.routes = rebuild_routes(g).table;
    EXPECT_EQ(at(g, 1, 3).next, 3);
    EXPECT_TRUE(check_routes(g).ok());
}

TEST(IgiRoutes, ZeroLengthLinksDoNotLoop) {
    Graph g;
    g.max_nodes = 4;
    g.nodes = {make_node(1, {0, 0, 0}), make_node(2, {0, 0, 0}), make_node(3, {kStep, 0, 0})};
    g.links = {{1, 2, 1}, {2, 3, 1}};
    g.routes = rebuild_routes(g).table;
    EXPECT_TRUE(check_routes(g).ok());
    EXPECT_EQ(at(g, 1, 3).next, 2);
}

TEST(IgiRoutes, FindsAMissingTable) {
    Graph g = grid();
    g.routes.clear();
    const RouteReport r = check_routes(g);
    EXPECT_EQ(problem(r, RouteProblem::MissingTable).count, 1u);
    EXPECT_FALSE(r.ok());
}

TEST(IgiRoutes, FindsBadNextNodes) {
    Graph g = grid();
    at(g, 1, 9).next = 42;
    const RouteReport r = check_routes(g);
    EXPECT_EQ(problem(r, RouteProblem::BadNext).count, 1u);
    ASSERT_EQ(problem(r, RouteProblem::BadNext).examples.size(), 1u);
    EXPECT_EQ(problem(r, RouteProblem::BadNext).examples[0].from, 1);
    EXPECT_EQ(problem(r, RouteProblem::BadNext).examples[0].to, 9);
    EXPECT_EQ(r.problem_total(), 1u);
}

TEST(IgiRoutes, FindsStepsThatAreNotLinks) {
    Graph g = grid();
    at(g, 1, 9).next = 5;  // diagonal: no link
    const RouteReport r = check_routes(g);
    EXPECT_EQ(problem(r, RouteProblem::NotALink).count, 1u);
    EXPECT_NE(problem(r, RouteProblem::NotALink).examples[0].detail.find("1 -> 5"), std::string::npos);
}

TEST(IgiRoutes, FindsLoops) {
    Graph g = grid();
    at(g, 2, 9).next = 1;  // 1 -> 2 -> 1 -> ...
    const RouteReport r = check_routes(g);
    EXPECT_EQ(problem(r, RouteProblem::Loop).count, 2u);  // the walks from 1 and from 2
    EXPECT_FALSE(r.target_valid[9]);
    EXPECT_TRUE(r.target_valid[8]);
}

TEST(IgiRoutes, FindsMissingRoutesAndDeadEnds) {
    Graph g = grid();
    at(g, 2, 9) = {};  // 2 says "no route"; 1 walks into it
    const RouteReport r = check_routes(g);
    EXPECT_EQ(problem(r, RouteProblem::MissingRoute).count, 1u);
    EXPECT_EQ(problem(r, RouteProblem::DeadEnd).count, 1u);
    EXPECT_EQ(problem(r, RouteProblem::DeadEnd).examples[0].from, 1);
}

TEST(IgiRoutes, FindsCostMismatchesAndReportsTheLargest) {
    Graph g = grid();
    at(g, 1, 9).cost += 100;
    at(g, 3, 7).cost += 0.005f;  // within tolerance: not a problem, but measured
    const RouteReport r = check_routes(g);
    EXPECT_EQ(problem(r, RouteProblem::CostMismatch).count, 1u);
    EXPECT_EQ(r.max_difference_from, 1);
    EXPECT_EQ(r.max_difference_to, 9);
    EXPECT_NEAR(r.max_cost_difference, 100.0, 1e-3);
}

TEST(IgiRoutes, FindsPathsThatAreNotShortest) {
    Graph g = grid();
    // 1 -> 4 -> 5 -> 6 -> 3 instead of 1 -> 2 -> 3, with the cost of the detour stored.
    at(g, 1, 3) = {4, static_cast<float>(4 * kStep)};
    at(g, 4, 3) = {5, static_cast<float>(3 * kStep)};
    at(g, 5, 3) = {6, static_cast<float>(2 * kStep)};
    const RouteReport r = check_routes(g);
    EXPECT_EQ(problem(r, RouteProblem::NotShortest).count, 1u);  // from 1 (4 -> 3 is 3 m either way)
    EXPECT_EQ(problem(r, RouteProblem::NotShortest).examples[0].from, 1);
    EXPECT_EQ(problem(r, RouteProblem::CostMismatch).count, 0u);
}

TEST(IgiRoutes, FindsEntriesThatShouldBeTheSentinel) {
    Graph g = grid();
    at(g, 0, 1) = {3, 1.0f};    // unused slot
    at(g, 1, 10) = {2, 5.0f};   // unreachable pair
    at(g, 5, 5) = {-1, 0.0f};   // same node, wrong cost
    const RouteReport r = check_routes(g);
    const ProblemCount& p = problem(r, RouteProblem::NotSentinel);
    EXPECT_EQ(p.count, 3u);
    ASSERT_EQ(p.examples.size(), 3u);
    EXPECT_NE(p.examples[0].detail.find("unused slot"), std::string::npos);
    EXPECT_EQ(r.problem_total(), 3u);
}

TEST(IgiRoutes, ExamplesAreLimited) {
    Graph g = grid();
    for (std::int32_t from = 0; from < 12; ++from) at(g, from, 0) = {1, 1.0f};
    const RouteReport r = check_routes(g, 2);
    EXPECT_EQ(problem(r, RouteProblem::NotSentinel).count, 12u);
    EXPECT_EQ(problem(r, RouteProblem::NotSentinel).examples.size(), 2u);
}

TEST(IgiRoutes, RebuildKeepsValidColumnsAndFixesBrokenOnes) {
    Graph g = grid();
    // A different but valid tie choice: 1 -> 4 -> 7 -> 8 -> 9 is also 4 m.
    at(g, 1, 9) = {4, static_cast<float>(4 * kStep)};
    at(g, 4, 9) = {7, static_cast<float>(3 * kStep)};
    ASSERT_TRUE(check_routes(g).ok());
    at(g, 2, 3).next = 9;  // break column 3
    const RouteRebuild kept = rebuild_routes(g);
    EXPECT_EQ(kept.kept_targets, 11u);
    EXPECT_EQ(kept.rebuilt_targets, 1u);
    EXPECT_EQ(kept.table[g.route_index(1, 9)].next, 4);  // stored choice kept
    EXPECT_EQ(kept.table[g.route_index(2, 3)].next, 3);
    Graph fixed = g;
    fixed.routes = kept.table;
    EXPECT_TRUE(check_routes(fixed).ok());
    const RouteRebuild all = rebuild_routes(g, false);
    EXPECT_EQ(all.kept_targets, 0u);
    EXPECT_EQ(all.table[g.route_index(1, 9)].next, 2);
}

TEST(IgiRoutes, MovedNodesInvalidateTheirColumns) {
    Graph g = grid();
    g.nodes[4].position.z = 3 * kStep;  // node 5 lifted: every cost through it changes
    EXPECT_FALSE(check_routes(g).ok());
    g.routes = rebuild_routes(g).table;
    EXPECT_TRUE(check_routes(g).ok());
    EXPECT_TRUE(check_routes(read_graph(write_graph(g))).ok());
}

TEST(IgiRoutes, CostTolerance) {
    EXPECT_TRUE(costs_match(4096.0f, 4096.0));
    EXPECT_TRUE(costs_match(1e6 + 5, 1e6));
    EXPECT_FALSE(costs_match(1e6 + 20, 1e6));
    EXPECT_FALSE(costs_match(0.5, 0.0));
}

TEST(IgiRoutes, NonFinitePositionsAndCostsTooLargeForFloat) {
    Graph g = grid();
    g.nodes[0].position.x = std::nan("");  // node 1: its links have no usable length
    g.routes = rebuild_routes(g).table;
    EXPECT_TRUE(check_routes(g).ok());
    EXPECT_EQ(at(g, 2, 1).next, -1);
    EXPECT_FALSE(read_graph(write_graph(g)).warnings.empty());
    g = grid();
    g.nodes[0].position.x = 1e100;  // a cost no float32 holds (found by the fuzzer)
    EXPECT_THROW(rebuild_routes(g), Error);
}
