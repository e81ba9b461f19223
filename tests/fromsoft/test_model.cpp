#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>

#include "formats/fromsoft/aabb_tree6.h"
#include "formats/fromsoft/cluster_graph.h"
#include "formats/fromsoft/half.h"
#include "formats/fromsoft/mesh_views.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "fromsoft/test_meshes.h"
#include "io/file.h"
#include "io/error.h"
#include "support/samples.h"
#include "support/sha256.h"

using namespace navlab;
using namespace navlab::fromsoft;

TEST(Half16, IsTheUpperHalfOfAFloat32) {
    EXPECT_EQ(float_to_half16(1.0f), 0x3F80u);
    EXPECT_EQ(float_to_half16(-2.0f), 0xC000u);
    EXPECT_EQ(half16_to_float(0x3F80), 1.0f);
    EXPECT_EQ(half16_to_float(0x4120), 10.0f);
    // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties go to the even mantissa (1.0).
    EXPECT_EQ(float_to_half16(1.00390625f), 0x3F80u);
    EXPECT_EQ(float_to_half16(std::nextafter(1.00390625f, 2.0f)), 0x3F81u);  // just above the tie rounds up
    EXPECT_EQ(float_to_half16_truncated(1.0078124f), 0x3F80u);
    EXPECT_EQ(float_to_half16(FLT_MAX), 0x7F80u);  // rounds to infinity
    EXPECT_TRUE(std::isnan(half16_to_float(float_to_half16(std::nanf("1")))));
    // Every half converts to a float and back unchanged.
    for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
        const float f = half16_to_float(static_cast<std::uint16_t>(h));
        if (!std::isnan(f)) {
            ASSERT_EQ(float_to_half16(f), h);
        }
    }
}

namespace {

AabbTreeNode6 node(std::uint8_t x, std::uint8_t y, std::uint8_t z, std::uint32_t data) {
    AabbTreeNode6 n;
    n.xyz = {x, y, z};
    n.hiData = static_cast<std::uint8_t>(data >> 16);
    n.loData = static_cast<std::uint16_t>(data & 0xFFFF);
    return n;
}

Aabb domain(float lo, float hi) {
    Aabb d;
    d.min = {lo, lo, lo, 0};
    d.max = {hi, hi, hi, 0};
    return d;
}

}  // namespace

TEST(AabbTree6, DecodesHandMadeTree) {
    // root(internal, first subtree 2 leaves) -> [n1(internal, 1) -> leaf 7, leaf 3], leaf 5
    const std::vector<AabbTreeNode6> nodes = {
        node(0x00, 0x00, 0x00, kTreeInternalBit | 2),
        node(0x0F, 0x00, 0x00, kTreeInternalBit | 1),  // x max shrinks by 225/226
        node(0x00, 0x10, 0x00, 7),                     // y min grows by 1/226 of the parent extent
        node(0x00, 0x00, 0x01, 3),
        node(0xF0, 0x00, 0x00, 5),
    };
    const DecodedAabbTree t = decode_aabb_tree6(nodes, domain(0, 226));
    ASSERT_TRUE(t.valid) << t.problem;
    EXPECT_EQ(t.internal_nodes, 2u);
    ASSERT_EQ(t.leaves.size(), 3u);
    EXPECT_EQ(t.leaves[0].node, 2u);
    EXPECT_EQ(t.leaves[0].face, 7u);
    EXPECT_EQ(t.leaves[1].face, 3u);
    EXPECT_EQ(t.leaves[2].node, 4u);
    EXPECT_EQ(t.leaves[2].face, 5u);
    EXPECT_DOUBLE_EQ(t.boxes[0].max[0], 226.0);
    EXPECT_DOUBLE_EQ(t.boxes[1].max[0], 1.0);  // 226 - 226·225/226
    EXPECT_DOUBLE_EQ(t.boxes[2].min[1], 1.0);  // 0 + 226·1/226
    EXPECT_DOUBLE_EQ(t.boxes[2].max[0], 1.0);  // inherits its parent's shrunk x
    EXPECT_DOUBLE_EQ(t.boxes[3].max[2], 225.0);
    EXPECT_DOUBLE_EQ(t.boxes[4].min[0], 225.0);  // the second child shrinks the root's box
}

TEST(AabbTree6, RootNibblesApplyToTheDomain) {
    const std::vector<AabbTreeNode6> nodes = {node(0x20, 0, 0, 0)};
    const DecodedAabbTree t = decode_aabb_tree6(nodes, domain(-113, 113));
    ASSERT_TRUE(t.valid);
    EXPECT_DOUBLE_EQ(t.boxes[0].min[0], -113.0 + 226.0 * 4 / 226);
}

// The two-lane shrink_box against the shrink rule written out lane by lane (tagfile spec:
// min + extent * hi^2 / 226, max - extent * lo^2 / 226), bit for bit: every nibble pair on
// every axis, over parents of ordinary, huge, tiny, inverted, zero-width, signed-zero,
// infinite and NaN extents.
TEST(AabbTree6, ShrinkBoxIsTheScalarRuleBitForBit) {
    auto bits = [](double v) {
        std::uint64_t b;
        std::memcpy(&b, &v, 8);
        return b;
    };
    const double ends[][2] = {{0, 226},         {-113.5, 87.25},  {-FLT_MAX, FLT_MAX}, {1e-300, 3e-300},
                              {5, -5},          {7, 7},           {-0.0, 0.0},         {0.0, -0.0},
                              {-INFINITY, 1.0}, {0.0, INFINITY}, {NAN, 1.0},          {3.0, 1e308}};
    std::size_t checked = 0;
    for (const auto& e : ends)
        for (unsigned hi = 0; hi < 16; ++hi)
            for (unsigned lo = 0; lo < 16; ++lo) {
                Box3 parent;
                // Each axis its own ends (rotated through the table), so lanes differ.
                for (int k = 0; k < 3; ++k) {
                    const auto& f = ends[(&e - ends + k) % std::size(ends)];
                    parent.min[k] = f[0], parent.max[k] = f[1];
                }
                const std::array<std::uint8_t, 3> xyz = {static_cast<std::uint8_t>(hi << 4 | lo),
                                                         static_cast<std::uint8_t>(lo << 4 | hi),
                                                         static_cast<std::uint8_t>(hi << 4 | (15 - lo))};
                const Box3 child = shrink_box(parent, xyz);
                for (int k = 0; k < 3; ++k) {
                    const double extent = parent.max[k] - parent.min[k];
                    const double squares[16] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225};
                    const double min = parent.min[k] + extent * squares[xyz[k] >> 4] / 226.0;
                    const double max = parent.max[k] - extent * squares[xyz[k] & 15] / 226.0;
                    ASSERT_EQ(bits(child.min[k]), bits(min)) << "axis " << k << ", nibbles " << hi << " " << lo;
                    ASSERT_EQ(bits(child.max[k]), bits(max)) << "axis " << k << ", nibbles " << hi << " " << lo;
                    ++checked;
                }
            }
    EXPECT_EQ(checked, std::size(ends) * 256 * 3);
}

TEST(AabbTree6, EmptyTreeIsValid) {
    const DecodedAabbTree t = decode_aabb_tree6({}, domain(-FLT_MAX, FLT_MAX));
    EXPECT_TRUE(t.valid);
    EXPECT_TRUE(t.leaves.empty());
}

TEST(AabbTree6, RejectsBadTrees) {
    auto problem = [](std::vector<AabbTreeNode6> nodes) {
        const DecodedAabbTree t = decode_aabb_tree6(nodes, domain(0, 1));
        EXPECT_FALSE(t.valid);
        return t.problem;
    };
    // Second child out of range.
    EXPECT_NE(problem({node(0, 0, 0, kTreeInternalBit | 5), node(0, 0, 0, 0), node(0, 0, 0, 1)}).find("out of range"),
              std::string::npos);
    // First subtree has 1 leaf but declares 2: ends before the second child.
    EXPECT_NE(problem({node(0, 0, 0, kTreeInternalBit | 2), node(0, 0, 0, 0), node(0, 0, 0, 1), node(0, 0, 0, 2),
                      node(0, 0, 0, 3)})
                  .find("first subtree"),
              std::string::npos);
    // Zero offset (would point at itself).
    EXPECT_NE(problem({node(0, 0, 0, kTreeInternalBit), node(0, 0, 0, 0)}).find("offset"), std::string::npos);
    // Nodes left over after the root's subtree.
    EXPECT_NE(problem({node(0, 0, 0, 0), node(0, 0, 0, 1)}).find("never reached"), std::string::npos);
    // A chain of internal nodes running off the end (deep, truncated).
    std::vector<AabbTreeNode6> chain(100000, node(0, 0, 0, kTreeInternalBit | 1));
    const DecodedAabbTree t = decode_aabb_tree6(chain, domain(0, 1));
    EXPECT_FALSE(t.valid);
}

TEST(AabbTree6, DecodingIntoReusedBuffersEqualsAFreshDecode) {
    // The audit decodes tree after tree into one DecodedAabbTree: whatever it held before (a
    // larger valid tree, a failed walk with its problem), the result must be the fresh one's,
    // unreached nodes' zero boxes included.
    const NavMesh big = fixture::grid_mesh(9, 7, nullptr, [](int i, int j) { return 0.37f * i - 0.11f * j * j; });
    const NavMesh small = fixture::grid_mesh(2, 3, nullptr, [](int i, int j) { return 0.5f * i + j; });
    const QueryMediator a = build_query_mediator(big), b = build_query_mediator(small);
    std::vector<AabbTreeNode6> truncated(a.nodes.begin(), a.nodes.begin() + a.nodes.size() / 2);
    std::vector<AabbTreeNode6> unreached = b.nodes;
    unreached.push_back(node(0x11, 0x22, 0x33, 4));
    const std::vector<std::pair<std::span<const AabbTreeNode6>, Aabb>> trees = {
        {a.nodes, a.domain}, {b.nodes, b.domain}, {truncated, a.domain}, {unreached, b.domain}, {{}, b.domain}, {a.nodes, a.domain}};
    auto same = [](const DecodedAabbTree& x, const DecodedAabbTree& y) {
        if (x.valid != y.valid || x.problem_node != y.problem_node || x.problem != y.problem ||
            x.internal_nodes != y.internal_nodes || x.boxes.size() != y.boxes.size() || x.leaves.size() != y.leaves.size())
            return false;
        for (std::size_t i = 0; i < x.boxes.size(); ++i)
            if (std::memcmp(&x.boxes[i], &y.boxes[i], sizeof(Box3)) != 0) return false;
        for (std::size_t i = 0; i < x.leaves.size(); ++i)
            if (x.leaves[i].node != y.leaves[i].node || x.leaves[i].face != y.leaves[i].face) return false;
        return true;
    };
    for (std::size_t first = 0; first < trees.size(); ++first) {
        DecodedAabbTree reused;
        for (std::size_t k = 0; k < trees.size(); ++k) {
            const auto& [nodes, dom] = trees[(first + k) % trees.size()];
            decode_aabb_tree6(nodes, dom, reused);
            EXPECT_TRUE(same(reused, decode_aabb_tree6(nodes, dom))) << "start " << first << ", tree " << k;
        }
    }
    DecodedAabbTree t;
    decode_aabb_tree6(truncated, a.domain, t);
    EXPECT_FALSE(t.valid);
    decode_aabb_tree6(unreached, b.domain, t);
    EXPECT_FALSE(t.valid);
    EXPECT_NE(t.problem.find("never reached"), std::string::npos);
}

namespace {

/// The page's rule, plainly: node i's box from its parent's, one axis and one side at a time
/// (shrink_min / shrink_max, not shrink_box's lanes), recursing over the pre-order. Fills
/// `boxes` for every node of a valid tree; returns the node after i's subtree.
std::size_t plain_boxes(std::span<const AabbTreeNode6> nodes, std::size_t i, const Box3& parent, std::vector<Box3>& boxes) {
    Box3& b = boxes.at(i);
    for (int k = 0; k < 3; ++k) {
        const double extent = parent.max[k] - parent.min[k];
        b.min[k] = fromsoft::detail::shrink_min(parent.min[k], extent, nodes[i].xyz[k] >> 4);
        b.max[k] = fromsoft::detail::shrink_max(parent.max[k], extent, nodes[i].xyz[k] & 15u);
    }
    if (!tree_node_is_internal(nodes[i])) return i + 1;
    const Box3 box = b;  // `boxes` does not move (sized up front), but the copy keeps that out of the question
    const std::size_t second = plain_boxes(nodes, i + 1, box, boxes);
    EXPECT_EQ(second, i + 2 * (tree_node_data(nodes[i]) & kTreePayloadMask));
    return plain_boxes(nodes, second, box, boxes);
}

}  // namespace

TEST(AabbTree6, LeavesDecodeKeepsEachLeafsBoxAsThePlainRuleComputesIt) {
    // The audit keeps only the leaves' boxes (decode_aabb_tree6_leaves): each must be the box the
    // page's rule gives its node, bit for bit (R72's and X10's figures read them), and the
    // checks, problem and leaves those of decode_aabb_tree6, for valid and broken trees alike.
    std::vector<std::pair<std::vector<AabbTreeNode6>, Aabb>> trees;
    std::uint32_t seed = 12345;
    auto next = [&] { return seed = seed * 1103515245u + 12345u, seed >> 16; };
    for (auto [nx, nz] : {std::pair{1, 1}, {2, 3}, {9, 7}, {31, 17}}) {
        const NavMesh mesh = fixture::grid_mesh(nx, nz, nullptr, [](int i, int j) { return 0.37f * i - 0.11f * j * j; });
        const QueryMediator m = build_query_mediator(mesh);
        trees.push_back({m.nodes, m.domain});
        std::vector<AabbTreeNode6> shaken = m.nodes;  // the same shape, any nibbles
        for (auto& n : shaken)
            for (auto& b : n.xyz) b = static_cast<std::uint8_t>(next());
        trees.push_back({shaken, m.domain});
    }
    if (const auto path = test::sample_or_report("havok/er/n10_01_00_00_001700.hkx")) {
        const NavTagfile nav = read_nav_tagfile(read_file(*path));
        ASSERT_TRUE(nav.mediator);
        trees.push_back({nav.mediator->nodes, nav.mediator->domain});
    }
    const std::size_t valid_trees = trees.size();
    const auto& big = trees[6].first;  // 31 × 17's tree, broken in each way decode_aabb_tree6 reports
    trees.push_back({std::vector<AabbTreeNode6>(big.begin(), big.begin() + big.size() / 2), trees[6].second});
    trees.push_back({big, trees[6].second});
    trees.back().first.push_back(node(0x11, 0x22, 0x33, 4));
    trees.push_back({{node(0, 0, 0, kTreeInternalBit | 5), node(0, 0, 0, 0), node(0, 0, 0, 1)}, domain(0, 1)});
    trees.push_back({{node(0, 0, 0, kTreeInternalBit), node(0, 0, 0, 0)}, domain(0, 1)});
    trees.push_back({{node(0x12, 0, 0, kTreeInternalBit | 2), node(0, 0x34, 0, 0), node(0, 0, 0x56, 1), node(0, 0, 0, 2), node(0, 0, 0, 3)},
                     domain(-2, 5)});
    trees.push_back({{}, domain(0, 1)});

    DecodedTreeLeaves reused;  // decoded tree after tree, as the audit does
    for (std::size_t t = 0; t < trees.size(); ++t) {
        const auto& [nodes, dom] = trees[t];
        const DecodedAabbTree full = decode_aabb_tree6(nodes, dom);
        decode_aabb_tree6_leaves(nodes, dom, reused);
        ASSERT_EQ(reused.valid, t < valid_trees || nodes.empty()) << "tree " << t;
        EXPECT_EQ(full.valid, reused.valid) << "tree " << t;
        EXPECT_EQ(reused.problem, full.problem) << "tree " << t;
        EXPECT_EQ(reused.problem_node, full.problem_node) << "tree " << t;
        EXPECT_EQ(reused.internal_nodes, full.internal_nodes) << "tree " << t;
        ASSERT_EQ(reused.leaves.size(), full.leaves.size()) << "tree " << t;
        std::vector<Box3> plain(nodes.size());
        if (reused.valid && !nodes.empty()) {
            EXPECT_EQ(plain_boxes(nodes, 0, box_of(dom), plain), nodes.size());
        }
        for (std::size_t k = 0; k < reused.leaves.size(); ++k) {
            const BoxedLeaf& leaf = reused.leaves[k];
            EXPECT_EQ(leaf.node, full.leaves[k].node);
            EXPECT_EQ(leaf.face, full.leaves[k].face);
            ASSERT_LT(leaf.node, nodes.size());
            EXPECT_EQ(std::memcmp(&leaf.box, &full.boxes[leaf.node], sizeof(Box3)), 0) << "tree " << t << ", leaf " << k;
            if (reused.valid) {
                EXPECT_EQ(std::memcmp(&leaf.box, &plain[leaf.node], sizeof(Box3)), 0) << "tree " << t << ", leaf " << k;
            }
        }
    }
}

TEST(AabbTree6, EncodeDecodeRoundTripContainsEveryCorner) {
    const NavMesh mesh = fixture::grid_mesh(9, 7, nullptr, [](int i, int j) { return 0.37f * i - 0.11f * j * j; });
    const QueryMediator med = build_query_mediator(mesh);
    ASSERT_EQ(med.nodes.size(), 2 * mesh.faces.size() - 1);
    const DecodedAabbTree t = decode_aabb_tree6(med.nodes, med.domain);
    ASSERT_TRUE(t.valid) << t.problem;
    ASSERT_EQ(t.leaves.size(), mesh.faces.size());
    std::vector<int> seen(mesh.faces.size(), 0);
    for (const TreeLeaf& leaf : t.leaves) {
        ASSERT_LT(leaf.face, mesh.faces.size());
        ++seen[leaf.face];
        const Box3& box = t.boxes[leaf.node];
        for (std::int32_t v : face_vertex_ring(mesh, leaf.face)) {
            const Vec4& p = mesh.vertices[v];
            const double c[3] = {p.x, p.y, p.z};
            for (int k = 0; k < 3; ++k) {
                EXPECT_LE(box.min[k], c[k]);
                EXPECT_GE(box.max[k], c[k]);
            }
        }
    }
    for (int s : seen) EXPECT_EQ(s, 1);
    // The tree is tight enough to be useful: each leaf box is far smaller than the domain.
    const Box3& leafBox = t.boxes[t.leaves[0].node];
    EXPECT_LT(leafBox.max[0] - leafBox.min[0], 3.0);
    // Domain: the vertex bounds in all four lanes.
    EXPECT_EQ(med.domain.min.x, 0.0f);
    EXPECT_EQ(med.domain.max.z, 7.0f);
    EXPECT_EQ(med.domain.max.w, 1.0f);
}

TEST(AabbTree6, EmptyMeshHasNoNodeAndFltMaxDomain) {
    const QueryMediator med = build_query_mediator(NavMesh{});
    EXPECT_TRUE(med.nodes.empty());
    EXPECT_EQ(med.domain.min.x, -FLT_MAX);
    EXPECT_EQ(med.domain.max.y, FLT_MAX);
}

TEST(AabbTree6, EncoderIsDeterministicAndRejectsBadDomain) {
    const NavMesh mesh = fixture::grid_mesh(5, 5);
    // A fixed digest of the 49 nodes (6 bytes each) for the 5 x 5 grid: the encoder's output
    // may only change on purpose (and then R5x checks and this value move together).
    const auto grid_nodes = build_query_mediator(mesh).nodes;
    ASSERT_EQ(grid_nodes.size(), 49u);
    EXPECT_EQ(test::sha256_hex({reinterpret_cast<const std::uint8_t*>(grid_nodes.data()), 6 * grid_nodes.size()}),
              "4f54e837b646d455bae318fdaca23a21fd47370897255c9c3f92b8a6ea4b5b0e");
    const std::vector<Box3> boxes = face_corner_boxes(mesh);
    EXPECT_THROW(encode_aabb_tree6(boxes, domain(1, 2)), Error);
    const std::vector<Box3> one = {Box3{{0, 0, 0}, {1, 1, 1}}};
    const auto nodes = encode_aabb_tree6(one, domain(0, 1));
    ASSERT_EQ(nodes.size(), 1u);
    EXPECT_EQ(tree_node_data(nodes[0]), 0u);
}

TEST(ClusterGraph, TwoByThreeClusters) {
    // 4 × 3 quads; cluster = column pair (0..1) + 2 × row band (0 for j = 0, 1 for j >= 1).
    const NavMesh mesh = fixture::grid_mesh(4, 3, [](int i, int j) { return std::int16_t(i / 2 + 2 * (j >= 1)); });
    const ClusterGraph g = build_cluster_graph(mesh);
    ASSERT_EQ(g.node_count, 4u);
    EXPECT_EQ(g.face_counts, (std::vector<std::uint32_t>{2, 2, 4, 4}));
    // 0-1, 0-2, 1-3, 2-3 in both directions, targets ascending.
    EXPECT_EQ(g.offsets, (std::vector<std::uint32_t>{0, 2, 4, 6, 8}));
    EXPECT_EQ(g.targets, (std::vector<std::uint32_t>{1, 2, 0, 3, 0, 3, 1, 2}));

    const DirectedGraph d = make_directed_graph(mesh, g);
    ASSERT_EQ(d.nodes.size(), 4u);
    ASSERT_EQ(d.edges.size(), 8u);
    EXPECT_EQ(d.nodes[1].startEdgeIndex, 2);
    EXPECT_EQ(d.nodes[1].numEdges, 2);
    EXPECT_FLOAT_EQ(d.positions[0].x, 1.0f);  // face centres 0.5 and 1.5
    EXPECT_FLOAT_EQ(d.positions[0].z, 0.5f);
    EXPECT_FLOAT_EQ(d.positions[3].x, 3.0f);
    EXPECT_FLOAT_EQ(d.positions[3].z, 2.0f);
    EXPECT_EQ(d.edges[0].target, 1u);
    EXPECT_EQ(d.edges[0].flags, 0u);
    EXPECT_EQ(half16_to_float(d.edges[0].cost), 2.0f);  // (1, .5) to (3, .5)
    EXPECT_EQ(d.nodeDataStriding, 0);
}

TEST(ClusterGraph, RejectsNegativeClusterAndBadOpposite) {
    NavMesh mesh = fixture::grid_mesh(2, 1, [](int, int) { return std::int16_t(0); });
    EXPECT_EQ(build_cluster_graph(mesh).targets.size(), 0u);  // one cluster: no self-loop
    mesh.edges[0].oppositeFace = 9;
    EXPECT_THROW(build_cluster_graph(mesh), Error);
    mesh = fixture::grid_mesh(2, 1);
    EXPECT_THROW(build_cluster_graph(mesh), Error);
    EXPECT_EQ(build_cluster_graph(NavMesh{}).node_count, 0u);
}

TEST(MeshViews, RingNeighboursAndUserEdges) {
    NavMesh mesh = fixture::grid_mesh(2, 1);
    EXPECT_EQ(face_vertex_ring(mesh, 0), (std::vector<std::int32_t>{0, 3, 4, 1}));
    const auto n = face_neighbours(mesh, 0);
    EXPECT_EQ(n, (std::vector<std::uint32_t>{kNoOpposite, kNoOpposite, 1, kNoOpposite}));
    EXPECT_TRUE(face_user_edges(mesh, 0).empty());
    Edge user;
    user.flags = 20;
    mesh.edges.push_back(user);
    mesh.faces[1].startUserEdgeIndex = 8;
    mesh.faces[1].numUserEdges = 1;
    ASSERT_EQ(face_user_edges(mesh, 1).size(), 1u);
    EXPECT_EQ(face_user_edges(mesh, 1)[0].flags, 20);
    EXPECT_EQ(regular_edge_count(mesh), 8u);
    mesh.faces[1].numUserEdges = 2;
    EXPECT_THROW(face_user_edges(mesh, 1), Error);
    EXPECT_THROW(face_edges(mesh, 2), Error);
    mesh.edges[0].a = 99;
    EXPECT_THROW(face_vertex_ring(mesh, 0), Error);
}
