// navlab igi build: GRAPH.json -> graph<id>.dat whose route table igi's own check accepts.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "build/igi_graph_in.h"
#include "formats/igi/graph_io.h"
#include "formats/igi/routes.h"
#include "io/error.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;

namespace {
// A square 0-1-2-3 with a diagonal 0-2 and an isolated node 7 (4096 units = 1 m).
const char* kGraph = R"({"nodes": [
  {"id": 0, "position": [0, 0, 0]}, {"id": 1, "position": [40960, 0, 0], "criteria": "NODECRITERIA_DOOR"},
  {"id": 2, "position": [40960, 40960, 0], "radius": 1.5, "material": 3}, {"id": 3, "position": [0, 40960, 0]},
  {"id": 7, "position": [5, 5, 5]}],
 "links": [{"from": 0, "to": 1}, {"from": 1, "to": 2}, {"from": 2, "to": 3}, {"from": 3, "to": 0}, {"from": 0, "to": 2}]})";
}  // namespace

TEST(IgiBuild, RouteTableChecksAndFileReadsBack) {
    const igi::Graph g = build::graph_from_json(kGraph, "graph.json");
    EXPECT_EQ(g.max_nodes, 8);
    const auto bytes = igi::write_graph(g, igi::Layout::Retail);
    EXPECT_EQ(bytes.size(), igi::retail_named_size(g));
    const igi::Graph back = igi::read_graph(bytes);
    const auto report = igi::check_routes(back);
    EXPECT_TRUE(report.ok());
    EXPECT_EQ(report.reachable_pairs, 12u);  // 4 connected nodes, ordered pairs
    // Independent values: 0 -> 2 goes straight along the diagonal, 1 -> 3 over two sides.
    EXPECT_EQ(back.routes[back.route_index(0, 2)].next, 2);
    EXPECT_NEAR(back.routes[back.route_index(0, 2)].cost, 40960 * std::sqrt(2.0), 0.1);
    EXPECT_NEAR(back.routes[back.route_index(1, 3)].cost, 2 * 40960, 0.1);
    EXPECT_EQ(back.routes[back.route_index(7, 0)].next, -1);
    EXPECT_EQ(back.nodes[1].criteria, "NODECRITERIA_DOOR");
    EXPECT_EQ(igi::write_graph(back), bytes) << "byte-exact rewrite";
}

TEST(IgiBuild, BadInputNamesTheElement) {
    auto message = [](const std::string& text) {
        try {
            build::graph_from_json(text, "g.json");
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(message(R"({"nodes": [{"id": 0, "position": [0,0,0]}], "links": [{"from": 0, "to": 5}]})").find("g.json"),
              std::string::npos);
    EXPECT_NE(message(R"({"nodes": [{"id": 0, "position": [0,0,0], "colour": 1}]})").find("nodes[0]"), std::string::npos);
    EXPECT_NE(message(R"({"nodes": [{"id": 0, "position": [0,0,0], "criteria": "NODECRITERIA_FLY"}]})").find("criteria"),
              std::string::npos);
    EXPECT_NE(message(R"({"nodes": [{"id": 0, "position": [0,0,0]}, {"id": 0, "position": [1,0,0]}]})").find("g.json"),
              std::string::npos);
}

TEST(IgiBuild, CommandOutputPassesIgiCheck) {
    const auto dir = navlab::test::scratch_dir("igi_build");
    std::ofstream(dir / "graph.json") << kGraph;
    std::string log;
    ASSERT_EQ(navlab::test::run_command(navlab::test::navlab_binary() + " igi build " + (dir / "graph.json").string() +
                                            " -o " + (dir / "graph8.dat").string(), &log), 0) << log;
    EXPECT_EQ(navlab::test::run_command(navlab::test::navlab_binary() + " igi check " + (dir / "graph8.dat").string(), &log), 0)
        << log;
}

TEST(IgiBuild, NumbersTheFieldCannotHoldAreRefused) {
    auto message = [](const char* text) {
        try {
            build::graph_from_json(text, "g.json");
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(message(R"({"nodes": [{"id": 1e20, "position": [0,0,0]}]})"),
              "g.json: nodes[0].id: 1e+20 is not an integer in -2147483648 .. 2147483647");
    EXPECT_EQ(message(R"({"nodes": [{"id": 0, "position": [0,0,0], "radius": 1e39}]})"),
              "g.json: nodes[0].radius: 1e+39 is outside the range of a 4-byte float");
    EXPECT_EQ(message(R"({"nodes": [{"id": 0, "position": [0,0,0]}], "links": {"from": 0}})"),
              "g.json: links: must be an array");
    // A top-level field is named after the file as nested ones are ("g.json.max_nodes" before);
    // a route table too large to build names the file too (it named only nMaxNodes).
    EXPECT_EQ(message(R"({"max_nodes": "x", "nodes": [{"id": 0, "position": [0,0,0]}]})"),
              "g.json: max_nodes: \"x\" is not an integer in -2147483648 .. 2147483647");
    EXPECT_EQ(message(R"({"max_nodes": 100000, "nodes": [{"id": 0, "position": [0,0,0]}]})").rfind("g.json: nMaxNodes: a "
                                                                                                  "100000×100000 route table",
                                                                                                  0),
              0u)
        << message(R"({"max_nodes": 100000, "nodes": [{"id": 0, "position": [0,0,0]}]})");
    // The default max_nodes (highest id + 1) is counted without overflow; the id is refused.
    EXPECT_NE(message(R"({"nodes": [{"id": 2147483647, "position": [0,0,0]}]})").find("node id 2147483647 is outside"),
              std::string::npos)
        << message(R"({"nodes": [{"id": 2147483647, "position": [0,0,0]}]})");
}
