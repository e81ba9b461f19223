// The navlab igi commands and `navlab export` on graphs written by our own writer.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "formats/igi/graph_io.h"
#include "formats/igi/routes.h"
#include "igi/fixtures.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;
using namespace navlab::igi;
using namespace navlab::igi::test;
using navlab::test::navlab_binary;
using navlab::test::run_command;

namespace {

class IgiCli : public ::testing::Test {
protected:
    void SetUp() override { dir_ = navlab::test::scratch_dir("igi-cli"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::string file(const std::string& name, const Graph& g) {
        const auto path = (dir_ / name).string();
        write_file_atomic(path, write_graph(g));
        return path;
    }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    int run(const std::string& args, std::string* out) { return run_command(navlab_binary() + " " + args, out); }

    /// graph8 with the route from node 4 towards node 1 naming node 42, which does not exist.
    Graph broken_graph8() {
        Graph g = retail_graph8();
        g.routes[g.route_index(4, 1)].next = 42;
        return g;
    }

    std::filesystem::path dir_;
};

/// The JSON document that starts at the first '{' of `out` (stderr may precede it).
nlohmann::json json_of(const std::string& out) { return nlohmann::json::parse(out.substr(out.find('{'))); }

}  // namespace

TEST_F(IgiCli, CheckPassesAValidGraph) {
    std::string out;
    EXPECT_EQ(run("igi check " + file("g8.dat", retail_graph8()), &out), 0) << out;
    EXPECT_NE(out.find("OK: the route table matches the links"), std::string::npos) << out;
}

TEST_F(IgiCli, CheckReportsProblemsAndFails) {
    std::string out;
    const std::string bad = file("bad.dat", broken_graph8());
    EXPECT_EQ(run("igi check " + bad, &out), 1) << out;
    EXPECT_NE(out.find("bad_next: 1"), std::string::npos) << out;
    EXPECT_EQ(run("igi check --json " + bad, &out), 1) << out;
    const auto j = json_of(out);
    EXPECT_FALSE(j["ok"].get<bool>());
    EXPECT_EQ(j["route_table"]["problems"]["bad_next"]["count"], 1);
    EXPECT_EQ(j["route_table"]["problems"]["bad_next"]["examples"][0]["from"], 4);
    EXPECT_EQ(j["nodes"], 8);
}

TEST_F(IgiCli, RoutesRepairsAndKeepsValidFilesUnchanged) {
    std::string out;
    const std::string fixed = path("fixed.dat");
    EXPECT_EQ(run("igi routes " + file("bad.dat", broken_graph8()) + " -o " + fixed, &out), 0) << out;
    EXPECT_NE(out.find("rebuilt 1"), std::string::npos) << out;
    EXPECT_EQ(run("igi check " + fixed, &out), 0) << out;
    EXPECT_EQ(read_file(fixed), write_graph(retail_graph8()));

    const std::string good = file("good.dat", retail_graph8()), same = path("same.dat");
    EXPECT_EQ(run("igi routes " + good + " -o " + same, &out), 0) << out;
    EXPECT_EQ(read_file(same), read_file(good));
}

// A graph whose routes are longer than a float32 cost holds: `igi routes` refuses it naming
// the file (the error named only "RouteTable").
TEST_F(IgiCli, RoutesTooLongForTheirCostNameTheFile) {
    Graph g = retail_graph8();
    for (auto& n : g.nodes)
        n.position = {n.position.x * 1e36, n.position.y * 1e36, n.position.z * 1e36};
    const std::string far = file("far.dat", g);
    std::string out;
    EXPECT_EQ(run("igi routes " + far + " -o " + path("far2.dat"), &out), 1) << out;
    EXPECT_NE(out.find(far + ": "), std::string::npos) << out;
    EXPECT_NE(out.find("more than a float32 cost holds"), std::string::npos) << out;
}

TEST_F(IgiCli, RewriteIsByteIdentical) {
    std::string out;
    for (const Graph& g : {retail_graph8(), positional_graph(), worked_example()}) {
        const std::string in = file("in.dat", g), copy = path("copy.dat");
        EXPECT_EQ(run("igi rewrite " + in + " " + copy, &out), 0) << out;
        EXPECT_NE(out.find("identical to the input"), std::string::npos) << out;
        EXPECT_EQ(read_file(copy), read_file(in));
    }
}

// A criteria string with a byte that is not UTF-8 is printed escaped, up to its first NUL as
// the engine reads it (the dump printed the raw byte).
TEST_F(IgiCli, DumpEscapesACriteriaByteThatIsNotUtf8) {
    Graph g = retail_graph8();
    g.nodes[2].criteria = "NODE\xC3RITERIA_DOOR";
    std::string out;
    EXPECT_EQ(run("igi dump " + file("g8.dat", g), &out), 0) << out;
    EXPECT_NE(out.find("NODE\\xC3RITERIA_DOOR"), std::string::npos) << out;
    EXPECT_EQ(out.find('\xC3'), std::string::npos);
}

TEST_F(IgiCli, DumpPrintsTheModel) {
    std::string out;
    const std::string g8 = file("g8.dat", retail_graph8());
    EXPECT_EQ(run("igi dump " + g8, &out), 0) << out;
    EXPECT_NE(out.find("NODECRITERIA_STAIR"), std::string::npos) << out;
    EXPECT_EQ(run("igi dump --json --routes " + g8, &out), 0) << out;
    const auto j = json_of(out);
    EXPECT_EQ(j["nodes"].size(), 8u);
    EXPECT_EQ(j["links"].size(), 6u);
    EXPECT_EQ(j["routes"].size(), 12u);  // 4 linked nodes: 4·3 ordered pairs
    EXPECT_EQ(j["nodes"][7]["flags"], 2);
}

TEST_F(IgiCli, ExportsJsonGraphmlAndObj) {
    std::string out;
    const std::string g8 = file("g8.dat", retail_graph8());
    EXPECT_EQ(run("export " + g8 + " --format json -o " + path("g.json"), &out), 0) << out;
    EXPECT_EQ(nlohmann::json::parse(read_file(path("g.json")))["links"].size(), 6u);
    EXPECT_EQ(run("export " + g8 + " --format graphml -o " + path("g.graphml"), &out), 0) << out;
    const auto graphml = read_file(path("g.graphml"));
    const std::string text(graphml.begin(), graphml.end());
    EXPECT_NE(text.find("<edge id=\"e5\" source=\"n4\" target=\"n2\">"), std::string::npos) << text;
    EXPECT_EQ(run("export " + g8 + " -o " + path("g.obj"), &out), 0) << out;
    const auto obj = read_file(path("g.obj"));
    const std::string o(obj.begin(), obj.end());
    EXPECT_NE(o.find("\nl 4 2\n"), std::string::npos) << o;
    EXPECT_NE(o.find("\nv 4096 2048 512\n"), std::string::npos) << o;
    EXPECT_EQ(run("export " + g8 + " --format stl -o " + path("g.stl"), &out), 1) << out;
    EXPECT_NE(out.find("IGI graphs export as json, graphml, obj, glb, ply or detour, not stl"), std::string::npos) << out;
    // The extension in any case names the format; none at all is an error, not OBJ unasked.
    EXPECT_EQ(run("export " + g8 + " -o " + path("G.OBJ"), &out), 0) << out;
    EXPECT_EQ(read_file(path("G.OBJ")), obj);
    EXPECT_EQ(run("export " + g8 + " --format GraphML -o " + path("g.xml"), &out), 0) << out;
    EXPECT_EQ(run("export " + g8 + " -o " + path("g"), &out), 2) << out;  // a command-line mistake
    EXPECT_NE(out.find("--format: " + path("g") + " has no extension to take the format from"), std::string::npos) << out;
    EXPECT_FALSE(std::filesystem::exists(path("g")));
}

TEST_F(IgiCli, MalformedInputFailsWithOffsetAndField) {
    std::string out;
    auto bytes = worked_example_bytes();
    bytes[0xC8] = 1;  // node 2 gets id 1
    const std::string bad = path("dup.dat");
    write_file_atomic(bad, bytes);
    EXPECT_EQ(run("igi check " + bad, &out), 1) << out;
    EXPECT_NE(out.find("dup.dat: offset 0xC7: field #8 nNodeID 1"), std::string::npos) << out;
    EXPECT_NE(out.find("duplicate node id 1"), std::string::npos) << out;
}
