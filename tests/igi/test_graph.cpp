// Reading and writing both variants: retail sizes and bytes, the spec's worked example,
// byte-exact round trips, engine commit semantics.
#include <gtest/gtest.h>

#include "formats/igi/fields.h"
#include "formats/igi/graph_io.h"
#include "formats/igi/routes.h"
#include "igi/fixtures.h"

using namespace navlab;
using namespace navlab::igi;
using namespace navlab::igi::test;

namespace {

void append_field(std::vector<std::uint8_t>& out, const char* name, std::vector<std::uint8_t> value) {
    ByteWriter w;
    const std::uint32_t hash = field_hash(name);
    write_field_key(w, hash, value[0]);
    w.bytes(Bytes(value));
    out.insert(out.end(), w.data().begin(), w.data().end());
}

std::vector<std::uint8_t> i32_value(std::int32_t v) {
    ByteWriter w;
    write_tagged_i32(w, v);
    return std::move(w).finish();
}

}  // namespace

TEST(IgiRetail, Graph1HasTheRetailSize) {
    const Graph g = retail_graph1();
    const auto bytes = write_graph(g);
    EXPECT_EQ(bytes.size(), 80120u);
    EXPECT_EQ(retail_named_size(g), 80120u);
    const std::vector<std::uint8_t> head = from_hex("CC DD EE FF 04 E6 3A 0D 00 00 05 05 64 00 00 00 04 0D DE 0F 00 00 0A");
    EXPECT_TRUE(std::equal(head.begin(), head.end(), bytes.begin()));
}

TEST(IgiRetail, Graph8HasTheRetailSizeAndTail) {
    const Graph g = retail_graph8();
    const auto bytes = write_graph(g);
    ASSERT_EQ(bytes.size(), 81106u);
    ASSERT_EQ(bytes.size(), 0x13CD2u);
    const std::vector<std::uint8_t> tail = from_hex(R"(
13BD0: 00 00 3F 04 29 B6 1B 00 00 05 05 FF FF FF FF 04
13BE0: E5 D3 1B 00 00 09 09 12 4E 4F 44 45 43 52 49 54
13BF0: 45 52 49 41 5F 56 49 45 57 00 04 4A 10 09 00 00
13C00: 05 05 02 00 00 00 04 F6 18 09 00 00 05 05 01 00
13C10: 00 00 04 23 A9 0D 00 00 05 05 01 00 00 00 04 4A
13C20: 10 09 00 00 05 05 03 00 00 00 04 F6 18 09 00 00
13C30: 05 05 01 00 00 00 04 23 A9 0D 00 00 05 05 01 00
13C40: 00 00 04 4A 10 09 00 00 05 05 03 00 00 00 04 F6
)");
    ASSERT_EQ(tail.size(), 128u);
    EXPECT_TRUE(std::equal(tail.begin(), tail.end(), bytes.begin() + 0x13BD0));
    // The rest: links (3,2,1) (4,3,1) (4,1,1) (4,2,1) run to the last byte at 0x13CD1.
    EXPECT_EQ(bytes[0x13CD1 - 3], 0x01);
    EXPECT_EQ(bytes[0x13CD1 - 4], 0x05);
    const Graph back = read_graph(bytes);
    ASSERT_EQ(back.links.size(), 6u);
    EXPECT_EQ(back.links[5].id1, 4);
    EXPECT_EQ(back.links[5].id2, 2);
    EXPECT_TRUE(back.warnings.empty());
    EXPECT_TRUE(check_routes(back).ok());
}

TEST(IgiRetail, SizeFormulaCountsCriteriaLengths) {
    Graph g = retail_graph8();
    g.nodes[0].criteria = "NODECRITERIA_DOOR";  // 18 instead of 19
    EXPECT_EQ(write_graph(g).size(), 81105u);
    EXPECT_EQ(retail_named_size(g), 81105u);
}

TEST(IgiWorkedExample, WriterProducesTheSpecBytes) {
    const auto bytes = write_graph(worked_example());
    const auto expect = worked_example_bytes();
    ASSERT_EQ(expect.size(), 335u);
    EXPECT_EQ(bytes, expect);
    EXPECT_EQ(rebuild_routes(worked_example(), false).table.size(), 9u);
    const auto rebuilt = rebuild_routes(worked_example(), false).table;
    for (std::size_t i = 0; i < rebuilt.size(); ++i) {
        EXPECT_EQ(rebuilt[i].next, worked_example().routes[i].next) << i;
        EXPECT_EQ(rebuilt[i].cost, worked_example().routes[i].cost) << i;
    }
}

TEST(IgiWorkedExample, ReaderBuildsTheModel) {
    const Graph g = read_graph(worked_example_bytes());
    EXPECT_EQ(g.variant, Variant::Named);
    EXPECT_EQ(g.max_nodes, 3);
    ASSERT_EQ(g.nodes.size(), 2u);
    EXPECT_EQ(g.nodes[1].id, 2);
    EXPECT_EQ(g.nodes[1].position, (Vec3{4096, 0, 0}));
    EXPECT_EQ(g.nodes[1].radius, 0.5f);
    EXPECT_EQ(g.nodes[1].material, -1);
    EXPECT_EQ(g.nodes[1].criteria, "NODECRITERIA_DOOR");
    EXPECT_EQ(criteria_flags(g.nodes[1].criteria), kDoor);
    ASSERT_EQ(g.links.size(), 1u);
    EXPECT_EQ(g.routes[g.route_index(1, 2)].next, 2);
    EXPECT_EQ(g.routes[g.route_index(2, 1)].cost, 4096.0f);
    EXPECT_EQ((*g.blob_header)[1], 0xEE);
    EXPECT_TRUE(g.warnings.empty());
    EXPECT_EQ(world_position(g.nodes[1], {10, 20, 30}), (Vec3{4106, 20, 30}));
}

TEST(IgiRoundTrip, NamedFilesComeBackByteForByte) {
    for (const Graph& g : {retail_graph1(), retail_graph8(), worked_example()}) {
        const auto bytes = write_graph(g);
        EXPECT_EQ(write_graph(read_graph(bytes)), bytes);
        EXPECT_EQ(write_graph(read_graph(bytes), Layout::Retail), bytes);
    }
}

TEST(IgiRoundTrip, NonRetailOrderUnknownFieldsAndRepeatsAreKept) {
    std::vector<std::uint8_t> file = {0xCC, 0xDD, 0xEE, 0xFF};
    append_field(file, "nMaxNodes", i32_value(4));
    auto table = worked_example_bytes();  // reuse its header: 0A EE 05 ...
    {
        ByteWriter w;
        write_field_key(w, field_hash("RouteTable"), kTagBlob);
        w.bytes(Bytes(table.data() + 23, 7));
        for (int i = 0; i < 16; ++i) w.i32(-1), w.f32(-1.0f);
        file.insert(file.end(), w.data().begin(), w.data().end());
    }
    append_field(file, "vNodeLightValue", {0x06, 0, 0, 0x80, 0x3F});  // IGI 2 extra: skipped
    append_field(file, "nNodeID", i32_value(1));
    append_field(file, "vNodeRadius", {0x06, 0, 0, 0, 0x3F});
    append_field(file, "vNodeRadius", {0x06, 0, 0, 0x80, 0x3F});  // the later value wins
    append_field(file, "nNodeCriteria", {0x09, 0x01, 0x00});       // no position/gamma/material
    append_field(file, "nNodeID", i32_value(3));
    append_field(file, "tNodePosition", {0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xB0, 0x40,
                                         0, 0, 0, 0, 0, 0, 0, 0});
    append_field(file, "nNodeCriteria", {0x09, 0x13, 'N', 'O', 'D', 'E', 'C', 'R', 'I', 'T', 'E', 'R', 'I', 'A', '_',
                                         'S', 'T', 'A', 'I', 'R', 0});
    append_field(file, "nNodeID", i32_value(2));  // never committed: dropped like the engine
    append_field(file, "nLinkID1", i32_value(3));
    append_field(file, "nLinkID2", i32_value(1));
    append_field(file, "eLinkType", i32_value(1));
    const Graph g = read_graph(file);
    ASSERT_EQ(g.nodes.size(), 2u);
    EXPECT_EQ(g.nodes[0].radius, 1.0f);
    EXPECT_FALSE(g.nodes[0].material.has_value());
    EXPECT_EQ(g.nodes[1].position.y, 4096.0);
    ASSERT_EQ(g.links.size(), 1u);
    EXPECT_GE(g.warnings.size(), 4u);  // unknown field, repeat, missing fields, uncommitted node
    EXPECT_EQ(write_graph(g), file);
    // The stored table says "no route" for the linked pair: check finds it, routes fixes it
    // and the rewrite keeps every other byte in its place.
    const RouteReport report = check_routes(g);
    EXPECT_EQ(report.problems[static_cast<std::size_t>(RouteProblem::MissingRoute)].count, 2u);
    Graph fixed = g;
    fixed.routes = rebuild_routes(g).table;
    const auto fixed_bytes = write_graph(fixed);
    EXPECT_EQ(fixed_bytes.size(), file.size());
    EXPECT_TRUE(check_routes(read_graph(fixed_bytes)).ok());
}

TEST(IgiRoundTrip, AddsATableWhereRetailKeepsIt) {
    Graph g = retail_graph8();
    g.routes.clear();
    const Graph no_table = read_graph(write_graph(g));
    EXPECT_TRUE(no_table.routes.empty());
    EXPECT_FALSE(check_routes(no_table).ok());
    Graph with = no_table;
    with.routes = rebuild_routes(no_table).table;
    EXPECT_EQ(write_graph(with), write_graph(retail_graph8()));
}

TEST(IgiRoundTrip, PositionalFilesComeBackByteForByte) {
    const Graph g = positional_graph();
    const auto bytes = write_graph(g);
    EXPECT_EQ(bytes[0], 0x05);
    const Graph back = read_graph(bytes);
    EXPECT_EQ(back.variant, Variant::Positional);
    ASSERT_EQ(back.nodes.size(), 4u);
    EXPECT_EQ(back.nodes[1].extra, 0.5f);
    EXPECT_FALSE(back.nodes[0].extra.has_value());
    EXPECT_FALSE(back.nodes[3].material.has_value());
    EXPECT_EQ(back.nodes[1].list_a, (std::vector<IntPair>{{3, 1}, {1, 1}}));
    EXPECT_EQ(back.nodes[2].list_b, (std::vector<IntPair>{{2, 7}}));
    EXPECT_TRUE(back.route_header);
    EXPECT_EQ(back.warnings.size(), 1u);  // node 4 has no material
    EXPECT_EQ(write_graph(back), bytes);
    EXPECT_TRUE(check_routes(back).ok());
}

TEST(IgiRoundTrip, PositionalRawTableAndNoTable) {
    Graph g = positional_graph();
    g.route_header = false;  // S9's legacy writer: the table without the 7-byte header
    const auto raw = write_graph(g);
    EXPECT_EQ(raw.size(), write_graph(positional_graph()).size() - 7);
    const Graph back = read_graph(raw);
    EXPECT_FALSE(back.route_header);
    EXPECT_EQ(write_graph(back), raw);
    g.routes.clear();
    const auto none = write_graph(g);
    EXPECT_EQ(write_graph(read_graph(none)), none);
}

TEST(IgiRoundTrip, PositionalSizeFormula) {
    // 15 + Σ(40 + [5] + [5] + 2+L + 5+10·countA + 5+10·countB) + 15·links + 7 + 8N².
    const Graph g = positional_graph();
    std::size_t size = 15 + 15 * g.links.size() + 7 + 8 * 36;
    for (const Node& n : g.nodes)
        size += 40 + (n.extra ? 5 : 0) + (n.material ? 5 : 0) + 2 + n.criteria.size() + 1 + 10 + 10 * n.list_a.size() +
                10 * n.list_b.size();
    EXPECT_EQ(write_graph(g).size(), size);
}

TEST(IgiModel, CriteriaFlags) {
    EXPECT_EQ(criteria_flags(""), 0u);
    EXPECT_EQ(criteria_flags("NODECRITERIA_STAIR"), kStair);
    EXPECT_EQ(criteria_flags("NODECRITERIA_DOOR|NODECRITERIA_VIEW"), kDoor | kView);
    EXPECT_EQ(criteria_flags("NODECRITERIA_VEHICLE"), std::nullopt);
}

TEST(IgiModel, WriterRefusesInvalidGraphs) {
    Graph g = retail_graph8();
    g.nodes[1].id = 1;
    EXPECT_THROW(write_graph(g), Error);
    g = retail_graph8();
    g.links.push_back({1, 42, 1});
    EXPECT_THROW(write_graph(g), Error);
    g = retail_graph8();
    g.max_nodes = 1;
    EXPECT_THROW(write_graph(g), Error);
    g = retail_graph8();
    g.routes.pop_back();
    EXPECT_THROW(write_graph(g), Error);
    // A layout that no longer matches the nodes is refused rather than silently dropped.
    Graph read = read_graph(write_graph(retail_graph8()));
    read.nodes.pop_back();
    EXPECT_THROW(write_graph(read), Error);
    EXPECT_NO_THROW(write_graph(read, Layout::Retail));
}
