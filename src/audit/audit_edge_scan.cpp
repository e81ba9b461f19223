#include "audit/audit_edge_scan.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <limits>

namespace navlab::audit {
namespace {

/// An edge's last four bytes as one word: flags | paddingByte << 8 | userEdgeCost << 16.
std::uint32_t tail_word(const fromsoft::Edge& d) {
    static_assert(offsetof(fromsoft::Edge, flags) == 16 && offsetof(fromsoft::Edge, paddingByte) == 17 &&
                  offsetof(fromsoft::Edge, userEdgeCost) == 18 && std::endian::native == std::endian::little);
    std::uint32_t w;
    std::memcpy(&w, reinterpret_cast<const unsigned char*>(&d) + offsetof(fromsoft::Edge, flags), 4);
    return w;
}

/// The figures of the regular edges that are not usual (see scan_edges), one edge at a time.
struct Unusual {
    bool owners = true;  ///< R29 passes on each of them
    /// Opposites beyond the edges (R28): never usual, so counted here and not per edge.
    std::int64_t outside = 0;
    std::int64_t not_mutual = 0, not_reversed = 0, to_user = 0, same_face = 0;
    std::array<std::int32_t, EdgeScan::kFirstNotReversed> first_not_reversed{};
    int first_not_reversed_count = 0;

    /// Regular edge e (below min(R, E)).
    [[gnu::noinline, gnu::cold]] void add(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner,
                                          std::int64_t e, std::int64_t R) {
        using namespace edge_check;
        const std::int64_t E = static_cast<std::int64_t>(edges.size());
        const fromsoft::Edge& d = edges[e];
        owners &= opposite_face_is_owner(d, owner);
        if (d.oppositeEdge >= E) {  // no opposite, or one beyond the edges
            outside += d.oppositeEdge != kNoOpposite;
            return;
        }
        const std::int64_t o = d.oppositeEdge;
        not_mutual += !mutual(edges, e, o);
        if (!reverse(edges, e, o)) {
            ++not_reversed;
            if (first_not_reversed_count < EdgeScan::kFirstNotReversed)
                first_not_reversed[first_not_reversed_count++] = static_cast<std::int32_t>(e);
        }
        to_user += o >= R;
        same_face += int{owner[o] >= 0} & int{owner[o] == owner[e]};  // both read, no branch
    }
};

/// The regular edges' figures (e < min(R, E)), in blocks of kBlock edges: first each edge's own
/// fields, the block's edges with an opposite edge listed without a branch (its index written
/// at the list's end, the end moved by whether it has one), then the listed edges' opposites.
/// On the games' meshes almost every regular edge is usual: its opposite face is its
/// opposite's owner and, when it has an opposite edge, that edge is its mutual reverse, a
/// regular edge, in another face. Such an edge only counts as an opposite; any other edge goes
/// to `unusual`, which counts what it has of each statement (a counter per statement and edge
/// was ≈ 60 instructions an edge, most of them in memory; thirty-third session). Whether an
/// edge has an opposite follows no pattern (68 % of Sekiro's edges have one): one loop that
/// read the opposite behind a branch on it mispredicted a third of the time, and one that read
/// edge 0 in its place waited on every opposite's loads (thirty-fifth session).
/// Without an opposite edge an edge is usual only with no opposite at all and oppositeFace
/// NONE (both all ones). Bitwise, so that the block loop keeps no branch on it.
inline bool unusual_without_opposite(const fromsoft::Edge& d, std::int64_t E) {
    return !(d.oppositeEdge < E) & ((d.oppositeEdge & d.oppositeFace) != fromsoft::kNoOpposite);
}

struct RegularEdges {
    /// Edges per block: the block's records (20 bytes each) are still in L1 when its listed
    /// edges are read again.
    static constexpr std::int64_t kBlock = 256;
    std::uint64_t largest_end = 0;  ///< as in scan_edges
    std::int32_t least_owner = std::numeric_limits<std::int32_t>::max();
    std::uint32_t tail = 0;  ///< OR of tail_word ^ 4
    std::int64_t opposites = 0;
    Unusual unusual;

    /// kPairs: also R63's cluster pairs into `pairs`, from the faces' clusterIndex.
    template <bool kPairs>
    void scan(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner, std::int64_t R,
              const fromsoft::Face* faces, std::vector<ClusterPair>& pairs) {
        using fromsoft::kNoOpposite;
        const std::int64_t E = static_cast<std::int64_t>(edges.size()), end = std::min(R, E);
        // Raw, in locals: the span's members were reloaded per edge, and the figures in locals
        // stay in registers (the members are written once, at the end).
        const fromsoft::Edge* const all = edges.data();
        const std::int32_t* const owners_of = owner.data();
        std::uint64_t largest = largest_end;
        std::int32_t least = least_owner;
        std::uint32_t ored = tail;
        std::int64_t counted = opposites;
        std::uint32_t listed[kBlock];       // the block's edges with an opposite edge, in edge order
        ClusterPair block_pairs[kBlock];    // the block's R63 pairs, appended to `pairs` after it
        for (std::int64_t first = 0; first < end; first += kBlock) {
            const std::int64_t last = std::min(end, first + kBlock);
            std::int64_t n = 0;
            bool odd = false;  // the block has an edge without an opposite edge that is not usual
            for (std::int64_t e = first; e < last; ++e) {
                const fromsoft::Edge& d = all[e];
                ored |= tail_word(d) ^ 4;  // zero: flags 4, paddingByte 0, userEdgeCost 0
                largest = std::max({largest, static_cast<std::uint64_t>(std::int64_t{d.a}),
                                    static_cast<std::uint64_t>(std::int64_t{d.b})});
                least = std::min(least, owners_of[e]);
                const bool in = d.oppositeEdge < E;
                listed[n] = static_cast<std::uint32_t>(e);
                n += in;
                // Only noted here: GCC made a branch of the test, on whether the edge has an
                // opposite.
                odd |= unusual_without_opposite(d, E);
            }
            // What `unusual` adds for such an edge does not depend on the order.
            if (odd) [[unlikely]]
                for (std::int64_t e = first; e < last; ++e) {
                    const fromsoft::Edge& d = all[e];
                    if (unusual_without_opposite(d, E)) unusual.add(edges, owner, e, R);
                }
            counted += n;
            std::int64_t found = 0;
            for (std::int64_t k = 0; k < n; ++k) {
                const std::int64_t e = listed[k];
                const fromsoft::Edge& d = all[e];
                const std::int64_t o = d.oppositeEdge;
                const fromsoft::Edge& back = all[o];
                const std::int32_t owner_e = owners_of[e], owner_o = owners_of[o];
                // What opposite_face_is_owner, mutual and reverse say, and the X04 counts, on
                // the values loaded.
                const bool usual = (owner_o >= 0) & (d.oppositeFace == static_cast<std::uint32_t>(owner_o)) &
                                   (owner_o != owner_e) & (o < R) & (back.oppositeEdge == static_cast<std::uint32_t>(e)) &
                                   (back.a == d.b) & (back.b == d.a);
                if (!usual) [[unlikely]]
                    unusual.add(edges, owner, e, R);
                if constexpr (kPairs) {
                    // Face 0 stands in for a missing owner; most edges join two faces of one
                    // cluster. Written at the list's end whether or not it is a pair.
                    const int x = faces[std::max(owner_e, 0)].clusterIndex, y = faces[std::max(owner_o, 0)].clusterIndex;
                    block_pairs[found] = {x, y, static_cast<std::uint32_t>(e)};
                    found += (owner_e >= 0) & (owner_o >= 0) & (x != y);
                }
            }
            if constexpr (kPairs) pairs.insert(pairs.end(), block_pairs, block_pairs + found);
        }
        largest_end = largest, least_owner = least, tail = ored, opposites = counted;
    }
};

}  // namespace

EdgeScan scan_edges(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner, std::int64_t R,
                    std::int64_t V, std::span<const fromsoft::Face> faces) {
    using namespace edge_check;
    EdgeScan s;
    const std::int64_t E = static_cast<std::int64_t>(edges.size());
    // The statements that must hold on every edge are folded into a few accumulators instead
    // of a flag each: the largest endpoint as unsigned (a negative one widens past any V), the
    // smallest owner, and the OR of each edge's last four bytes, zero in the fields a
    // statement wants zero. Each is exactly "every edge satisfies it".
    // Regular edges and user edges have loops of their own instead of masking each figure with
    // "e < R": each mask cost as much as a check. A user edge's own fields and what reads its
    // opposite (and that one's owner) are two passes: in one loop the compiler kept most of the
    // figures on the stack. A regular edge's are one pass (RegularEdges).
    RegularEdges regular;
    if (faces.empty()) regular.scan<false>(edges, owner, R, nullptr, s.cluster_pairs);
    else regular.scan<true>(edges, owner, R, faces.data(), s.cluster_pairs);
    std::uint64_t largest_end = regular.largest_end;
    std::int32_t least_owner = regular.least_owner;
    std::uint32_t user_tail = 0;  // OR of tail_word
    std::int64_t user_outside = 0;
    const std::int64_t regular_end = std::min(R, E);
    for (std::int64_t e = regular_end; e < E; ++e) {
        const Edge& d = edges[e];
        user_tail |= tail_word(d);
        largest_end = std::max({largest_end, static_cast<std::uint64_t>(std::int64_t{d.a}),
                                static_cast<std::uint64_t>(std::int64_t{d.b})});
        least_owner = std::min(least_owner, owner[e]);
        user_outside += (d.oppositeEdge != kNoOpposite) & (d.oppositeEdge >= E);
    }
    const Unusual& unusual = regular.unusual;
    const std::uint32_t regular_tail = regular.tail;
    const std::int64_t opposites = regular.opposites;
    bool owners = unusual.owners;
    std::int64_t user_not_mutual = 0, flags_52 = 0;
    for (std::int64_t e = regular_end; e < E; ++e) {
        const Edge& d = edges[e];
        const bool none = d.oppositeEdge == kNoOpposite, in = d.oppositeEdge < E;
        owners &= opposite_face_is_owner(d, owner);
        user_not_mutual += in && !mutual(edges, e, d.oppositeEdge);
        flags_52 += (d.flags == 52) & !none;
    }
    s.endpoints_are_vertices = E == 0 || largest_end < static_cast<std::uint64_t>(V);
    s.opposites_in_range = unusual.outside == 0 && user_outside == 0;
    s.opposite_faces_are_owners = owners;
    // Bits 0-7 of a tail word are flags, 8-15 paddingByte, 16-31 userEdgeCost.
    s.regular_flags = (regular_tail & 0xFF) == 0;
    s.padding_zero = ((regular_tail | user_tail) & 0xFF00) == 0;
    s.cost_zero = ((regular_tail | user_tail) >> 16) == 0;
    s.all_owned_once = least_owner >= 0;
    s.no_user_bits = (regular_tail & 0x30) == 0;  // the flags' bits 0x30, which ^ 4 leaves
    s.regular_opposites = opposites;
    s.regular_opposites_outside = unusual.outside;
    s.regular_not_mutual = unusual.not_mutual;
    s.regular_reversed = opposites - unusual.not_reversed;
    s.first_not_reversed = unusual.first_not_reversed;
    s.first_not_reversed_count = unusual.first_not_reversed_count;
    s.opposite_is_user_edge = unusual.to_user;
    s.opposite_in_same_face = unusual.same_face;
    s.opposite_not_mutual = user_not_mutual;
    s.flags_52_with_opposite = flags_52;
    return s;
}

}  // namespace navlab::audit
