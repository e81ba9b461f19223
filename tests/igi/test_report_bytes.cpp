// Guard: `navlab igi check` prints byte-identical text and JSON to what the code printed when
// this test was added (issue 11: the report model and printers were unified without changing a
// byte). The digests were computed by the code of that commit; a deliberate format change
// updates them in the same commit and says why. The command runs on relative paths so the
// output does not depend on the scratch folder.
#include <gtest/gtest.h>

#include "formats/igi/graph_io.h"
#include "igi/fixtures.h"
#include "io/file.h"
#include "support/samples.h"
#include "support/sha256.h"

using namespace navlab;
using namespace navlab::igi;
using namespace navlab::igi::test;

namespace {

/// SHA-256 of what `navlab igi check ARGS graph.dat` prints for `g`, with its exit status.
std::string check_digest(const Graph& g, const std::string& args, int expected_exit) {
    auto dir = navlab::test::scratch_dir("igi-report-bytes");
    write_file_atomic(dir / "graph.dat", write_graph(g));
    std::string out;
    EXPECT_EQ(navlab::test::run_command("cd '" + dir.string() + "' && " + navlab::test::navlab_binary() +
                                            " igi check " + args + " graph.dat",
                                        &out),
              expected_exit)
        << out;
    std::filesystem::remove_all(dir);
    return navlab::test::sha256_hex({reinterpret_cast<const std::uint8_t*>(out.data()), out.size()});
}

/// graph8 with three kinds of route problem: a missing next node, a wrong cost, a loop.
Graph broken_graph8() {
    Graph g = retail_graph8();
    g.routes[g.route_index(4, 1)].next = 42;
    g.routes[g.route_index(2, 3)].cost += 10.0f;
    g.routes[g.route_index(1, 2)].next = 3;
    g.routes[g.route_index(3, 2)].next = 1;
    return g;
}

}  // namespace

TEST(IgiReportBytes, CheckText) {
    EXPECT_EQ(check_digest(retail_graph8(), "", 0), "f0cd615cbf8b0df29b77b71b4ef2c08873c2a13dc6a218b5984c541d2c458db2");
    EXPECT_EQ(check_digest(positional_graph(), "", 0), "06f5ff7b26e70c87dba1abd7664ef0de9a4f70e33addcebfe373acd85180b848");
    EXPECT_EQ(check_digest(broken_graph8(), "", 1), "d207ff2669715dc6be2495ad80b2420635c80da36e1b4af89636a4b211beb40e");
    EXPECT_EQ(check_digest(broken_graph8(), "--examples 1", 1), "d0da942a9bf31276998a074571acaba4a051e64df871c831ab2defc16fc2d4a6");
}

TEST(IgiReportBytes, CheckJson) {
    EXPECT_EQ(check_digest(retail_graph8(), "--json", 0), "1dac82cfbff2092be89f0f0ce664b0833bc0b508ca7a9dade0b0b2ff4c72e633");
    EXPECT_EQ(check_digest(positional_graph(), "--json", 0), "7935ca7ba3c8006e712175e01f06649ca9b7242d2b07f35aa45ac895c6b76f05");
    EXPECT_EQ(check_digest(broken_graph8(), "--json", 1), "7e5eeff2c2182f2b517e23c691dc68b13c2e32bb7bcbff4dfc381d6c76b6e24d");
}
