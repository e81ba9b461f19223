#include "audit/audit_edge_scan.h"

#include <algorithm>

namespace navlab::audit {

EdgeScan scan_edges(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner, std::int64_t R,
                    std::int64_t V) {
    using namespace edge_check;
    EdgeScan s;
    const std::int64_t E = static_cast<std::int64_t>(edges.size());
    // Flags and counts in locals, combined without branches: the loop reads each edge once
    // and only its opposite (and that one's owner) besides. Edge 0 stands in for a missing
    // opposite, whose figures are then masked out.
    bool endpoints = true, in_range = true, owners = true, flags = true, padding = true, cost = true, owned = true,
         no_bits = true;
    std::int64_t opposites = 0, outside = 0, not_mutual = 0, reversed = 0;
    std::int64_t to_user = 0, same_face = 0, user_not_mutual = 0, flags_52 = 0;
    // The checks of every edge, regular or user.
    auto common = [&](const Edge& d, std::int64_t e) {
        endpoints &= endpoints_are_vertices(d, V);
        in_range &= opposite_in_range(d, E);
        owners &= opposite_face_is_owner(d, owner);
        padding &= padding_zero(d);
        cost &= cost_zero(d);
        owned &= owner[e] >= 0;
    };
    // Two loops, regular edges then user edges, instead of one that masks each figure with
    // "e < R": the scan is a pass over ~20-byte records and each mask cost as much as a check.
    const std::int64_t regular_end = std::min(R, E);
    for (std::int64_t e = 0; e < regular_end; ++e) {
        const Edge& d = edges[e];
        const bool none = d.oppositeEdge == kNoOpposite, in = d.oppositeEdge < E;
        const std::int64_t o = in ? d.oppositeEdge : 0;
        common(d, e);
        flags &= regular_flags(d);
        no_bits &= no_user_bits(d);
        opposites += in;
        outside += !none & !in;
        not_mutual += in & !mutual(edges, e, o);
        const bool is_reverse = reverse(edges, e, o);
        reversed += in & is_reverse;
        if (in & !is_reverse & (s.first_not_reversed_count < EdgeScan::kFirstNotReversed)) [[unlikely]]
            s.first_not_reversed[s.first_not_reversed_count++] = static_cast<std::int32_t>(e);
        to_user += in & (o >= R);
        const std::int32_t owner_o = owner[o];  // o is 0 when out of range: masked by `in`
        same_face += in & (owner_o >= 0) & (owner_o == owner[e]);
    }
    for (std::int64_t e = regular_end; e < E; ++e) {
        const Edge& d = edges[e];
        const bool none = d.oppositeEdge == kNoOpposite, in = d.oppositeEdge < E;
        common(d, e);
        user_not_mutual += in && !mutual(edges, e, d.oppositeEdge);
        flags_52 += (d.flags == 52) & !none;
    }
    s.endpoints_are_vertices = endpoints;
    s.opposites_in_range = in_range;
    s.opposite_faces_are_owners = owners;
    s.regular_flags = flags;
    s.padding_zero = padding;
    s.cost_zero = cost;
    s.all_owned_once = owned;
    s.no_user_bits = no_bits;
    s.regular_opposites = opposites;
    s.regular_opposites_outside = outside;
    s.regular_not_mutual = not_mutual;
    s.regular_reversed = reversed;
    s.opposite_is_user_edge = to_user;
    s.opposite_in_same_face = same_face;
    s.opposite_not_mutual = user_not_mutual;
    s.flags_52_with_opposite = flags_52;
    return s;
}

}  // namespace navlab::audit
