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

}  // namespace

EdgeScan scan_edges(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner, std::int64_t R,
                    std::int64_t V) {
    using namespace edge_check;
    EdgeScan s;
    const std::int64_t E = static_cast<std::int64_t>(edges.size());
    // The statements that must hold on every edge are folded into a few accumulators instead
    // of a flag each: the largest endpoint as unsigned (a negative one widens past any V), the
    // smallest owner, and the OR of each edge's last four bytes, zero in the fields a
    // statement wants zero. Each is exactly "every edge satisfies it".
    std::uint64_t largest_end = 0;
    std::int32_t least_owner = std::numeric_limits<std::int32_t>::max();
    std::uint32_t regular_tail = 0, user_tail = 0;  // OR of tail_word ^ 4 (regular), of tail_word (user)
    std::int64_t outside = 0, user_outside = 0;
    const std::int64_t regular_end = std::min(R, E);
    // First the statements on each edge's own fields, then those that read its opposite (and
    // that one's owner) in a second pass per kind: with both in one loop the compiler kept
    // most of the figures on the stack. Regular edges and user edges have loops of their own
    // instead of masking each figure with "e < R": each mask cost as much as a check.
    auto own_fields = [&](const Edge& d, std::int64_t e) {
        largest_end = std::max({largest_end, static_cast<std::uint64_t>(std::int64_t{d.a}),
                                static_cast<std::uint64_t>(std::int64_t{d.b})});
        least_owner = std::min(least_owner, owner[e]);
        return (d.oppositeEdge != kNoOpposite) & (d.oppositeEdge >= E);
    };
    for (std::int64_t e = 0; e < regular_end; ++e) {
        regular_tail |= tail_word(edges[e]) ^ 4;  // zero: flags 4, paddingByte 0, userEdgeCost 0
        outside += own_fields(edges[e], e);
    }
    for (std::int64_t e = regular_end; e < E; ++e) {
        user_tail |= tail_word(edges[e]);
        user_outside += own_fields(edges[e], e);
    }
    // Edge 0 stands in for a missing opposite, whose figures are then masked out.
    bool owners = true;
    std::int64_t opposites = 0, not_mutual = 0, reversed = 0, to_user = 0, same_face = 0;
    std::array<std::int32_t, EdgeScan::kFirstNotReversed> first_not_reversed{};
    int first_not_reversed_count = 0;
    for (std::int64_t e = 0; e < regular_end; ++e) {
        const Edge& d = edges[e];
        const bool in = d.oppositeEdge < E;
        const std::int64_t o = in ? d.oppositeEdge : 0;
        owners &= opposite_face_is_owner(d, owner);
        opposites += in;
        not_mutual += in & !mutual(edges, e, o);
        const bool is_reverse = reverse(edges, e, o);
        reversed += in & is_reverse;
        if (in & !is_reverse & (first_not_reversed_count < EdgeScan::kFirstNotReversed)) [[unlikely]]
            first_not_reversed[first_not_reversed_count++] = static_cast<std::int32_t>(e);
        to_user += in & (o >= R);
        const std::int32_t owner_o = owner[o];  // o is 0 when out of range: masked by `in`
        same_face += in & (owner_o >= 0) & (owner_o == owner[e]);
    }
    std::int64_t user_not_mutual = 0, flags_52 = 0;
    for (std::int64_t e = regular_end; e < E; ++e) {
        const Edge& d = edges[e];
        const bool none = d.oppositeEdge == kNoOpposite, in = d.oppositeEdge < E;
        owners &= opposite_face_is_owner(d, owner);
        user_not_mutual += in && !mutual(edges, e, d.oppositeEdge);
        flags_52 += (d.flags == 52) & !none;
    }
    s.endpoints_are_vertices = E == 0 || largest_end < static_cast<std::uint64_t>(V);
    s.opposites_in_range = outside == 0 && user_outside == 0;
    s.opposite_faces_are_owners = owners;
    // Bits 0-7 of a tail word are flags, 8-15 paddingByte, 16-31 userEdgeCost.
    s.regular_flags = (regular_tail & 0xFF) == 0;
    s.padding_zero = ((regular_tail | user_tail) & 0xFF00) == 0;
    s.cost_zero = ((regular_tail | user_tail) >> 16) == 0;
    s.all_owned_once = least_owner >= 0;
    s.no_user_bits = (regular_tail & 0x30) == 0;  // the flags' bits 0x30, which ^ 4 leaves
    s.regular_opposites = opposites;
    s.regular_opposites_outside = outside;
    s.regular_not_mutual = not_mutual;
    s.regular_reversed = reversed;
    s.first_not_reversed = first_not_reversed;
    s.first_not_reversed_count = first_not_reversed_count;
    s.opposite_is_user_edge = to_user;
    s.opposite_in_same_face = same_face;
    s.opposite_not_mutual = user_not_mutual;
    s.flags_52_with_opposite = flags_52;
    return s;
}

}  // namespace navlab::audit
