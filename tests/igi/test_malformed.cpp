// Every malformed-input class gives a navlab::Error with the offset and a field path, and
// never a crash or an unbounded allocation (these tests also run under ASan + UBSan).
#include <gtest/gtest.h>

#include "formats/igi/graph_io.h"
#include "igi/fixtures.h"

using namespace navlab;
using namespace navlab::igi;
using namespace navlab::igi::test;

namespace {

/// Reads `bytes`, expects an Error at `offset` whose text contains `text`.
void expect_error(const std::vector<std::uint8_t>& bytes, std::uint64_t offset, const std::string& text) {
    try {
        read_graph(bytes);
        ADD_FAILURE() << "expected an error containing \"" << text << "\"";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), offset) << e.what();
        EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
        EXPECT_FALSE(e.field().empty()) << e.what();
    }
}

std::vector<std::uint8_t> patched(std::vector<std::uint8_t> bytes, std::size_t at, std::vector<std::uint8_t> with) {
    std::copy(with.begin(), with.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at));
    return bytes;
}

/// A positional file written by hand: header counts, then `body`.
std::vector<std::uint8_t> positional(std::int32_t nodes, std::int32_t max_nodes, std::int32_t links,
                                     const std::vector<std::uint8_t>& body = {}) {
    ByteWriter w;
    write_tagged_i32(w, nodes);
    write_tagged_i32(w, max_nodes);
    write_tagged_i32(w, links);
    w.bytes(Bytes(body));
    return std::move(w).finish();
}

/// One positional node record with empty lists.
std::vector<std::uint8_t> positional_node(std::int32_t id, std::int32_t count_a = 0) {
    ByteWriter w;
    write_tagged_i32(w, id);
    write_tagged_vec3(w, {});
    write_tagged_f32(w, 0);
    write_tagged_f32(w, 0.5f);
    write_tagged_i32(w, -1);
    write_tagged_string(w, "");
    write_tagged_i32(w, count_a);
    write_tagged_i32(w, 0);
    return std::move(w).finish();
}

}  // namespace

// Worked example offsets (spec §8): nMaxNodes record at 0x04 (value at 0x0B), RouteTable at
// 0x10, table at 0x1E, node 1 at 0x66, node 2 at 0xC0 (id value at 0xC7), link at 0x12B.

TEST(IgiMalformed, TruncationAtEveryByteOfANamedFile) {
    const auto full = worked_example_bytes();
    std::size_t valid_prefixes = 0;
    for (std::size_t cut = 0; cut < full.size(); ++cut) {
        const std::vector<std::uint8_t> prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
        try {
            // The stream runs to EOF, so a cut between two fields is a smaller valid graph.
            const Graph g = read_graph(prefix);
            EXPECT_EQ(write_graph(g), prefix) << "cut at " << cut;
            ++valid_prefixes;
        } catch (const Error& e) {
            EXPECT_NE(e.offset(), kNoOffset) << e.what();
            EXPECT_LE(e.offset(), cut) << e.what();
        }
    }
    EXPECT_EQ(valid_prefixes, 16u);  // after nMaxNodes, RouteTable and each of the 14 later fields
}

TEST(IgiMalformed, TruncationAtEveryByteOfAPositionalFile) {
    const auto full = write_graph(positional_graph());
    const std::size_t links_end = full.size() - 7 - 8 * 36;
    for (std::size_t cut = 0; cut < full.size(); ++cut) {
        const std::vector<std::uint8_t> prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
        try {
            // Two cuts are well-formed files: no table at all, and 8N² bytes read as a raw
            // table (the header-or-not ambiguity of spec §9 item 2).
            const Graph g = read_graph(prefix);
            EXPECT_TRUE(cut == links_end || cut == full.size() - 7) << "a positional file cut at " << cut << " was accepted";
            EXPECT_EQ(write_graph(g), prefix);
        } catch (const Error& e) {
            EXPECT_NE(e.offset(), kNoOffset) << e.what();
            EXPECT_LE(e.offset(), cut) << e.what();
        }
    }
}

TEST(IgiMalformed, NotAGraph) {
    expect_error({0x01, 0x02, 0x03, 0x04}, 0, "not an IGI graph");
    expect_error({0xCC, 0xDD}, 2, "ends inside the 4-byte magic");
    expect_error({}, 0, "ends inside the 4-byte magic");
}

TEST(IgiMalformed, BadTags) {
    const auto good = worked_example_bytes();
    expect_error(patched(good, 0x04, {0x05}), 0x04, "field key tag is 5");
    expect_error(patched(good, 0x09, {0x01}), 0x09, "declared type: tag 1");
    expect_error(patched(good, 0x0B, {0x04}), 0x0B, "tag 4 (uint32) where tag 5 (int32) was expected");
    expect_error(patched(good, 0xC6, {0x0B}), 0xC5, "declared type 11 is not a tag");
    // Position value with a float tag although the field declares a vec3.
    expect_error(patched(good, 0xD3, {0x06}), 0xD3, "tag 6 (float) where tag 8 (vec3) was expected");
}

TEST(IgiMalformed, DeclaredTypeThatDoesNotMatchTheField) {
    const auto good = worked_example_bytes();
    // nMaxNodes declared as a byte: the engine would copy 1 byte of the int.
    expect_error(patched(good, 0x0A, {0x00, 0x00}), 0x09, "declared type 0 (uint8) does not match the field's type 5");
    expect_error(patched(good, 0xD2, {0x06}), 0xD1, "declared type 6 (float) does not match the field's type 8");
}

TEST(IgiMalformed, UnknownFields) {
    std::vector<std::uint8_t> bytes = worked_example_bytes();
    ByteWriter w;
    write_field_key(w, 0x12345678, kTagBlob);
    w.bytes(Bytes(std::vector<std::uint8_t>{0x0A, 0, 0, 0, 0}));
    bytes.insert(bytes.end(), w.data().begin(), w.data().end());
    expect_error(bytes, 335 + 5, "unknown field with a blob value");
    bytes.resize(335);
    ByteWriter v;
    write_field_key(v, 0x12345678, kTagI32);
    write_tagged_f32(v, 1);
    bytes.insert(bytes.end(), v.data().begin(), v.data().end());
    expect_error(bytes, 335 + 7, "value tag 6 does not match the declared type 5");
}

TEST(IgiMalformed, MaxNodesRules) {
    const auto good = worked_example_bytes();
    expect_error(patched(good, 0x0C, {0x01}), 0x0B, "nMaxNodes is 1");
    expect_error(patched(good, 0x0C, {0x00, 0x00, 0x00, 0x80}), 0x0B, "nMaxNodes is -2147483648");
    // A huge N is bounded by the bytes that could hold its table: no allocation happens.
    expect_error(patched(good, 0x0C, {0xFF, 0xFF, 0xFF, 0x7F}), 0x1E, "needs 36893488113059364872 bytes");
    // The first field must be nMaxNodes.
    std::vector<std::uint8_t> no_n(good.begin(), good.begin() + 4);
    no_n.insert(no_n.end(), good.begin() + 0x66, good.end());
    expect_error(no_n, 4, "the first field must be nMaxNodes");
    std::vector<std::uint8_t> twice(good.begin(), good.begin() + 0x10);
    twice.insert(twice.end(), good.begin() + 4, good.end());
    expect_error(twice, 0x10, "second nMaxNodes field");  // found by the fuzzer
}

TEST(IgiMalformed, RouteTableOfTheWrongSize) {
    const auto good = worked_example_bytes();
    std::vector<std::uint8_t> shorter = good;
    shorter.erase(shorter.begin() + 0x1E, shorter.begin() + 0x1E + 8);
    expect_error(shorter, 0x1E + 72, "(the first nNodeID field is at 0x5E, so the table holds 64 bytes): the table is the wrong size");
    std::vector<std::uint8_t> longer = good;
    longer.insert(longer.begin() + 0x1E, 8, 0xFF);
    expect_error(longer, 0x1E + 72, "the table is the wrong size");
    // Positional: bytes after the links must be 8N² or 8N² + 7.
    auto pos = write_graph(positional_graph());
    pos.push_back(0);
    expect_error(pos, pos.size() - 1 - 7 - 8 * 36, "the table is the wrong size");
}

TEST(IgiMalformed, NodeIds) {
    const auto good = worked_example_bytes();
    expect_error(patched(good, 0xC8, {0x01}), 0xC7, "duplicate node id 1 (fatal in the engine)");
    expect_error(patched(good, 0xC8, {0x03}), 0xC7, "node id 3 is >= nMaxNodes 3");
    expect_error(patched(good, 0xC8, {0xFF, 0xFF, 0xFF, 0xFF}), 0xC7, "node id -1 is negative");
    // Id 1000 with N = 2000: the engine rejects ids >= 1000.
    expect_error(positional(1, 2000, 0, positional_node(1000)), 15, "node id 1000 is >= 1000");
    expect_error(positional(2, 10, 0, [] {
                     auto a = positional_node(4), b = positional_node(4);
                     a.insert(a.end(), b.begin(), b.end());
                     return a;
                 }()),
                 15 + positional_node(4).size(), "duplicate node id 4");
}

TEST(IgiMalformed, LinksToMissingNodes) {
    const auto good = worked_example_bytes();
    expect_error(patched(good, 0x13F, {0x05}), 0x13E, "link (1, 5): node 5 does not exist");
    ByteWriter links;
    for (std::int32_t v : {1, 7, 1}) write_tagged_i32(links, v);
    auto body = positional_node(1);
    body.insert(body.end(), links.data().begin(), links.data().end());
    expect_error(positional(1, 10, 1, body), 15 + positional_node(1).size() + 5, "node 7 does not exist");
}

TEST(IgiMalformed, FieldOrderTheEngineWouldMisload) {
    const auto good = worked_example_bytes();
    // Node 2's position after node 1 committed and before nNodeID 2: folded into a stale node.
    std::vector<std::uint8_t> stray(good.begin(), good.begin() + 0xC0);
    stray.insert(stray.end(), good.begin() + 0xCC, good.end());
    expect_error(stray, 0xC7, "tNodePosition outside a node");
    // eLinkType without nLinkID1.
    std::vector<std::uint8_t> no_start(good.begin(), good.begin() + 0x12B);
    no_start.insert(no_start.end(), good.begin() + 0x143, good.end());
    expect_error(no_start, 0x132, "eLinkType outside a link");
    // A node after the links.
    std::vector<std::uint8_t> late = good;
    late.insert(late.end(), good.begin() + 0x66, good.begin() + 0x72);
    expect_error(late, good.size() + 7, "node field after the links");
    // RouteTable after a node.
    std::vector<std::uint8_t> moved(good.begin(), good.begin() + 0x10);
    moved.insert(moved.end(), good.begin() + 0x66, good.begin() + 0xC0);
    moved.insert(moved.end(), good.begin() + 0x10, good.begin() + 0x66);
    expect_error(moved, 0x10 + 0x5A, "RouteTable after node or link fields");
}

TEST(IgiMalformed, HugeCounts) {
    expect_error(positional(0x7FFFFFFF, 100, 0), 0, "node count 2147483647 needs at least");
    expect_error(positional(-1, 100, 0), 0, "node count is negative");
    expect_error(positional(0, 100, 0x7FFFFFFF), 10, "link count 2147483647 needs at least");
    auto node = positional_node(1, 0x7FFFFFFF);
    expect_error(positional(1, 100, 0, node), 15 + node.size() - 10, "first pair list count 2147483647");
    // A string whose length runs past the end.
    auto bytes = worked_example_bytes();
    bytes.resize(0x11A);
    expect_error(bytes, 0x119, "needs 18 bytes but only 1 remain");
    // nMaxNodes huge in a positional file: the table size check fails without allocating.
    expect_error(positional(0, 0x7FFFFFFF, 0, {1, 2, 3}), 15, "the table is the wrong size");
}
