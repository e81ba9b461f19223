#include "audit/audit_edge_scan.h"

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
    for (std::int64_t e = 0; e < E; ++e) {
        const Edge& d = edges[e];
        const bool regular = e < R, none = d.oppositeEdge == kNoOpposite, in = d.oppositeEdge < E;
        const std::int64_t o = in ? d.oppositeEdge : 0;
        endpoints &= endpoints_are_vertices(d, V);
        in_range &= opposite_in_range(d, E);
        owners &= opposite_face_is_owner(d, owner);
        padding &= padding_zero(d);
        cost &= cost_zero(d);
        owned &= owner[e] >= 0;
        flags &= !regular | regular_flags(d);
        no_bits &= !regular | no_user_bits(d);
        const bool regular_in = regular & in;
        opposites += regular_in;
        outside += regular & !none & !in;
        not_mutual += regular_in & !mutual(edges, e, o);
        const bool is_reverse = reverse(edges, e, o);
        reversed += regular_in & is_reverse;
        if (regular_in & !is_reverse & (s.first_not_reversed_count < EdgeScan::kFirstNotReversed)) [[unlikely]]
            s.first_not_reversed[s.first_not_reversed_count++] = static_cast<std::int32_t>(e);
        to_user += regular_in & (o >= R);
        const std::int32_t owner_o = owner[o];  // o is 0 when out of range: masked by regular_in
        same_face += regular_in & (owner_o >= 0) & (owner_o == owner[e]);
        user_not_mutual += !regular & in & !mutual(edges, e, o);
        flags_52 += !regular & (d.flags == 52) & !none;
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
