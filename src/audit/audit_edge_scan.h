// One pass over a tagfile's edges for every per-edge statement (R27–R32, R34, R36, R37, R77)
// and the X04–X06 counters, instead of one pass per rule (issue 13: the audit as one
// streaming pass). Each statement is one small function below, used by its rule's own walk;
// a rule walks its edges one check() at a time only when the scan found an exception there, to
// name it in element order. The scan folds those that must hold on every edge (R27, R28,
// R30–R32, R34, R77) into a few accumulators, decides at once that a regular edge satisfies
// the ones that read its opposite (R29, R36, R37) as almost all do, and calls them for the
// other edges: test AuditFastPaths.EdgeScanEqualsEveryStatementEdgeByEdge keeps the two forms
// in step. On a tagfile with a cluster graph it also collects R63's pairs of clusters across
// the regular edges, from the opposites and owners it loads anyway (R63's own walk over the
// edges was mostly mispredicted branches on whether an edge has an opposite).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "formats/fromsoft/navmesh.h"

namespace navlab::audit {

/// The per-edge statements. Written with `&` and `|` instead of `&&` and `||`: whether an edge
/// has an opposite follows no pattern, and a branch on it is mispredicted often.
namespace edge_check {

using fromsoft::Edge;
using fromsoft::kNoOpposite;

/// R27: both endpoints are vertex indices (0 … V−1).
inline bool endpoints_are_vertices(const Edge& d, std::int64_t V) {
    // One unsigned compare per end for 0 <= x < V (V >= 0): a negative x widens to a value
    // past any V.
    const std::uint64_t a = static_cast<std::uint64_t>(std::int64_t{d.a}), b = static_cast<std::uint64_t>(std::int64_t{d.b});
    return (a < static_cast<std::uint64_t>(V)) & (b < static_cast<std::uint64_t>(V));
}
/// R28: oppositeEdge is NONE or an edge index.
inline bool opposite_in_range(const Edge& d, std::int64_t E) { return (d.oppositeEdge == kNoOpposite) | (d.oppositeEdge < E); }
/// R30: a regular edge's flags are 4.
inline bool regular_flags(const Edge& d) { return d.flags == 4; }
/// R31.
inline bool padding_zero(const Edge& d) { return d.paddingByte == 0; }
/// R32.
inline bool cost_zero(const Edge& d) { return d.userEdgeCost == 0; }
/// R77: a regular edge has neither user-edge flag bit (0x10, 0x20).
inline bool no_user_bits(const Edge& d) { return (d.flags & 0x30) == 0; }
/// R36 for edge e and its opposite o (an edge index): o's opposite is e.
inline bool mutual(std::span<const Edge> edges, std::int64_t e, std::int64_t o) {
    return edges[o].oppositeEdge == static_cast<std::uint32_t>(e);
}
/// R37 for edge e and its opposite o: o runs from e's end to e's start.
inline bool reverse(std::span<const Edge> edges, std::int64_t e, std::int64_t o) {
    const Edge &back = edges[o], &edge = edges[e];  // no calls beside `&` (clang's -Wbitwise-instead-of-logical)
    return (back.a == edge.b) & (back.b == edge.a);
}
/// R29's passing case: no opposite on both sides, or an opposite edge with an owner that is
/// the oppositeFace. `owner` has the tagfile's E entries (kNoOwner/kManyOwners are negative).
inline bool opposite_face_is_owner(const Edge& d, std::span<const std::int32_t> owner) {
    const std::int64_t E = static_cast<std::int64_t>(owner.size());
    const bool none = d.oppositeEdge == kNoOpposite, in = d.oppositeEdge < E;
    const std::int32_t o = owner[in ? d.oppositeEdge : 0];  // index 0 stands in; its value is then unused
    return (none & (d.oppositeFace == kNoOpposite)) | (!none & in & (o >= 0) & (d.oppositeFace == static_cast<std::uint32_t>(o)));
}

}  // namespace edge_check

/// Two clusters (graph nodes) across regular edge `edge`: x is the clusterIndex of the edge's
/// owner, y that of its opposite's. 12 bytes: a Havok array holds fewer than 2^32 edges.
struct ClusterPair {
    int x, y;
    std::uint32_t edge;
};

/// What one pass over the edges found: for each statement, whether every edge it applies to
/// satisfies it, and the counts the rules and counters report.
struct EdgeScan {
    bool endpoints_are_vertices = true;  ///< R27 on every edge
    bool opposites_in_range = true;      ///< R28
    bool opposite_faces_are_owners = true;  ///< R29 passes on every edge
    bool regular_flags = true;           ///< R30 on every regular edge
    bool padding_zero = true;            ///< R31
    bool cost_zero = true;               ///< R32
    bool all_owned_once = true;          ///< R34's per-edge half: every owner ≥ 0
    bool no_user_bits = true;            ///< R77 on every regular edge
    /// Regular edges (e < min(R, E)) with an opposite: an edge index (checked by R36, R37) or
    /// beyond the edges (skipped by them).
    std::int64_t regular_opposites = 0, regular_opposites_outside = 0;
    std::int64_t regular_not_mutual = 0;  ///< R36 exceptions
    std::int64_t regular_reversed = 0;    ///< R37 passes
    /// The first kFirstNotReversed regular edges (in edge order) whose opposite is an edge but
    /// not their reverse: R37's exceptions, so it names its first examples without a second
    /// walk over the edges (a statistic with exceptions in most Elden Ring tagfiles).
    static constexpr int kFirstNotReversed = 8;
    std::array<std::int32_t, kFirstNotReversed> first_not_reversed{};
    int first_not_reversed_count = 0;
    /// X04–X06.
    std::int64_t opposite_is_user_edge = 0, opposite_in_same_face = 0, opposite_not_mutual = 0, flags_52_with_opposite = 0;
    /// R63's expected pairs, in edge order, when the scan was given the faces: one per regular
    /// edge e with an opposite edge o, each of e and o owned by one face, whose clusterIndex
    /// values x (e's face) and y (o's face) differ.
    std::vector<ClusterPair> cluster_pairs;
};

/// How many regular edges the pass takes at a time: one, or eight to an AVX2 register
/// (functions compiled with target("avx2"), for processors that have it). Both give the same
/// EdgeScan, pairs and Unusual order included.
enum class EdgeLanes { one = 1, eight = 8 };
/// Eight where the processor runs AVX2, else one.
EdgeLanes widest_edge_lanes();

/// The pass. @param edges the E edges; @param owner their owning faces (E entries: indices
/// of `faces` or negative); @param R regular edges (Σ numEdges, may exceed E on a broken
/// mesh); @param V vertices; @param faces the faces whose clusters make cluster_pairs, empty to
/// collect none (a tagfile without a graph); @param lanes one or eight (tests ask for each);
/// @param pair_storage a buffer for cluster_pairs to take, emptied (the thread's last tagfile's:
/// the pairs' array grew from nothing in each tagfile, ≈ 6 allocations a tagfile on Sekiro).
EdgeScan scan_edges(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner, std::int64_t R,
                    std::int64_t V, std::span<const fromsoft::Face> faces = {}, EdgeLanes lanes = widest_edge_lanes(),
                    std::vector<ClusterPair> pair_storage = {});

}  // namespace navlab::audit
