// hkcdStaticAabbTree with 6-byte nodes (hkcdCompressedAabbCodecs::Aabb6BytesCodec), the query
// tree of Elden Ring navmeshes: decoding into boxes with full validation, and an encoder that
// builds a valid tree over a mesh's faces.
//
// The rule (page ../shared/seeds/000, tagfile spec §15, audit "Decoding D"): nodes are stored
// in pre-order; data = hiData << 16 | loData. Bit 23 set: internal node, first child the next
// node, second child 2 × (data & 0x7FFFFF) nodes on (data & 0x7FFFFF = leaves of the first
// subtree). Bit 23 clear: a leaf, data = face index. Each node's box is its parent's box
// shrunk per axis k, with e = parent extent, h = xyz[k] >> 4, l = xyz[k] & 15:
//   min = parent.min + e·h²/226,  max = parent.max − e·l²/226   (float64),
// and the root shrinks the xyz lanes of the tree's domain the same way.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/fromsoft/navmesh.h"

namespace navlab::fromsoft {

/// Bit 23 of a node's data: set on internal nodes.
inline constexpr std::uint32_t kTreeInternalBit = 0x800000u;
/// Mask of the 23 payload bits (face index of a leaf, first-subtree leaves of an internal node).
inline constexpr std::uint32_t kTreePayloadMask = 0x7FFFFFu;

/// An axis-aligned box in float64 (decoded tree boxes are computed in float64).
struct Box3 {
    std::array<double, 3> min{}, max{};
};

/// data = hiData << 16 | loData of a node.
constexpr std::uint32_t tree_node_data(const AabbTreeNode6& node) noexcept {
    return static_cast<std::uint32_t>(node.hiData) << 16 | node.loData;
}
constexpr bool tree_node_is_internal(const AabbTreeNode6& node) noexcept {
    return (tree_node_data(node) & kTreeInternalBit) != 0;
}

namespace detail {
/// nibble², exact in double: a load in place of a multiply and a conversion per lane.
inline constexpr double kNibbleSquares[16] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225};
// The two halves of the shrink rule. The encoder picks nibbles with these; shrink_box (what
// decode_aabb_tree6 computes, and what the encoder replays) takes the same operations lane by
// lane, so the boxes agree bit for bit (test AabbTree6.ShrinkBoxIsTheScalarRuleBitForBit).
inline double shrink_min(double parent_min, double extent, unsigned nibble) noexcept {
    return parent_min + extent * kNibbleSquares[nibble & 15u] / 226.0;
}
inline double shrink_max(double parent_max, double extent, unsigned nibble) noexcept {
    return parent_max - extent * kNibbleSquares[nibble & 15u] / 226.0;
}
}  // namespace detail

/// A child's box from its parent's box and the child's three nibble bytes: shrink_min and
/// shrink_max on each axis, two lanes at a time (GCC/Clang vector extension, SSE2 on x86-64).
/// Each lane takes the same IEEE operations as the scalar rule (a subtraction, a product, a
/// quotient, then an addition, or a subtraction written as the addition of the negated
/// quotient, which is exact), so the box is bit-identical, except which NaN comes out where
/// two NaNs meet (x86 keeps the first operand's, and the compiler may order the operands
/// either way, in the scalar rule too). The six divisions become three; they were most of the
/// time of decoding a tree (a few per cent of the audit's own work on Elden Ring meshes).
/// Inline: decode_aabb_tree6 calls it once per node (two per face).
/// @param parent the parent's decoded box (the domain's xyz for the root).
/// @param xyz    the child's axis bytes: high nibble shrinks min, low nibble shrinks max.
inline Box3 shrink_box(const Box3& parent, const std::array<std::uint8_t, 3>& xyz) noexcept {
    using Pair = double __attribute__((vector_size(16)));
    const double* sq = detail::kNibbleSquares;
    const Pair min_xy = {parent.min[0], parent.min[1]}, max_xy = {parent.max[0], parent.max[1]};
    const Pair ends_z = {parent.min[2], parent.max[2]};
    const Pair extent_xy = max_xy - min_xy;
    const double extent_z = parent.max[2] - parent.min[2];
    const Pair up_xy = extent_xy * Pair{sq[xyz[0] >> 4], sq[xyz[1] >> 4]} / 226.0;
    const Pair down_xy = extent_xy * Pair{sq[xyz[0] & 15u], sq[xyz[1] & 15u]} / 226.0;
    const Pair shift_z = Pair{extent_z, extent_z} * Pair{sq[xyz[2] >> 4], sq[xyz[2] & 15u]} / 226.0;
    const Pair child_min_xy = min_xy + up_xy, child_max_xy = max_xy - down_xy;
    const Pair child_z = ends_z + shift_z * Pair{1.0, -1.0};
    return Box3{{child_min_xy[0], child_min_xy[1], child_z[0]}, {child_max_xy[0], child_max_xy[1], child_z[1]}};
}

/// The xyz lanes of an hkAabb as a float64 box.
Box3 box_of(const Aabb& aabb) noexcept;

/// One leaf of a decoded tree.
struct TreeLeaf {
    std::uint32_t node = 0;  ///< node index (pre-order)
    std::uint32_t face = 0;  ///< the leaf's data: a face index (not range-checked here)
};

/// The result of decoding a tree. When `valid` is false, `problem_node` and `problem` say
/// where and why the walk stopped; boxes and leaves hold what was decoded up to there.
struct DecodedAabbTree {
    bool valid = false;
    std::uint32_t problem_node = 0;  ///< node index where the walk failed
    std::string problem;  ///< e.g. "second child 250 out of range (119 nodes)"
    std::vector<Box3> boxes;  ///< per node (pre-order); nodes not reached keep a zero box
    std::vector<TreeLeaf> leaves;  ///< in pre-order
    std::uint32_t internal_nodes = 0;
};

/// Decodes a 6-byte pre-order tree into one box per node and the list of leaves, checking
/// that every child index is in range, that each first subtree ends exactly where the second
/// child starts and that the root's subtree covers every node exactly once. Iterative (explicit
/// stack): safe on degenerate, deep or hostile trees; O(nodes) time and memory. Never throws
/// for bad tree data. An empty tree is valid (no boxes, no leaves).
/// @param nodes  the tree's nodes in file order.
/// @param domain the tree's domain (its xyz lanes are the root's parent box).
DecodedAabbTree decode_aabb_tree6(std::span<const AabbTreeNode6> nodes, const Aabb& domain);

/// How far (metres) a face corner may lie outside its leaf's decoded box in a valid tree: the
/// page's proven bound (audit rule R72, 0.5 mm). The audit checks it; the queries use a stored
/// tree only while it holds.
inline constexpr double kLeafBoxTolerance = 0.0005;

/// The same decoding into `out`, whose vectors keep their capacity: a caller decoding tree
/// after tree reuses one set of buffers instead of mapping fresh pages per tree.
/// Every field of `out` is overwritten; the result equals decode_aabb_tree6(nodes, domain).
void decode_aabb_tree6(std::span<const AabbTreeNode6> nodes, const Aabb& domain, DecodedAabbTree& out);

/// A leaf of a decoded tree with its box.
struct BoxedLeaf {
    std::uint32_t node = 0;  ///< node index (pre-order)
    std::uint32_t face = 0;  ///< the leaf's data: a face index (not range-checked here)
    Box3 box;                ///< the leaf's decoded box, bit for bit as DecodedAabbTree::boxes[node]
};

/// A decoded tree that keeps only its leaves' boxes: what the audit's rules read (R69–R72,
/// X10). 56 bytes a leaf instead of 48 bytes a node plus 8 a leaf (≈ 104 bytes a face): the
/// tree was the largest array a worker keeps between Elden Ring tagfiles (≈ 0.64 MB).
struct DecodedTreeLeaves {
    bool valid = false;
    std::uint32_t problem_node = 0;  ///< as DecodedAabbTree's
    std::string problem;             ///< as DecodedAabbTree's
    std::vector<BoxedLeaf> leaves;   ///< in pre-order: DecodedAabbTree's leaves, each with its box
    std::uint32_t internal_nodes = 0;
};

/// decode_aabb_tree6 keeping only the leaves' boxes: the same checks, problem and leaves (the
/// same walk), into `out`, whose vectors keep their capacity.
void decode_aabb_tree6_leaves(std::span<const AabbTreeNode6> nodes, const Aabb& domain, DecodedTreeLeaves& out);

/// Bounds of each face's corners (the `a` vertex of each of its regular edges), in float64.
/// Throws navlab::Error (field "face N") when a face's edge range or a vertex index is out of
/// range or a face has no edge.
/// @param mesh the navmesh.
std::vector<Box3> face_corner_boxes(const NavMesh& mesh);

/// Builds a tree over boxes: 2 × boxes − 1 nodes in pre-order, one leaf per box (leaf data =
/// the box's index), split at the median of the box centres along the widest axis
/// (deterministic). Nibbles are chosen so every decoded box contains its boxes exactly (the
/// decode of shrink_box is replayed, so containment holds in float64 without tolerance).
/// @param boxes  one box per face; at most 2^23 boxes.
/// @param domain the tree's domain; its xyz lanes must contain every box.
/// @return the nodes; empty when boxes is empty. Throws navlab::Error on too many boxes or a
///         domain that does not contain them.
std::vector<AabbTreeNode6> encode_aabb_tree6(std::span<const Box3> boxes, const Aabb& domain);

/// The domain real Elden Ring files use: the bounds of all the mesh's vertices in all four
/// lanes, w included (tagfile spec §15); ±FLT_MAX in every lane when the mesh has no face.
/// @param mesh the navmesh.
Aabb tree_domain_of(const NavMesh& mesh);

/// A query mediator for `mesh`: the tree over its faces' corner boxes with the domain of
/// tree_domain_of (no node and a ±FLT_MAX domain for a mesh without faces).
/// @param mesh the navmesh. Throws navlab::Error as face_corner_boxes does.
QueryMediator build_query_mediator(const NavMesh& mesh);

}  // namespace navlab::fromsoft
