#include "audit/audit_edge_scan.h"
#include "io/cpu_features.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <limits>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

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
    /// add for edges first + i, each bit i of `lanes` in turn (edge order).
    [[gnu::noinline, gnu::cold]] void add_lanes(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner,
                                                std::int64_t first, unsigned lanes, std::int64_t R) {
        for (; lanes != 0; lanes &= lanes - 1) add(edges, owner, first + std::countr_zero(lanes), R);
    }
};

#if defined(__x86_64__) && defined(__GNUC__)
// Eight edge records (160 bytes) as five AVX2 loads of eight 32-bit words: word 5i + k is field
// k of record i (0 a, 1 b, 2 oppositeEdge, 3 oppositeFace, 4 tail_word), in load (5i + k) / 8,
// lane (5i + k) mod 8. As 5 and 8 have no common factor, a field's eight words sit in eight
// different lanes, one in each load: four blends gather a field, one permute puts it in
// record order (no gather instruction for the group's own records).

/// The lanes of load r that hold field k: bit j where (8r + j) mod 5 == k.
constexpr int lanes_of_field(int k, int r) {
    int lanes = 0;
    for (int j = 0; j < 8; ++j) lanes |= ((8 * r + j) % 5 == k) << j;
    return lanes;
}

/// Field k of the group's eight records, record i in lane (5i + k) mod 8.
template <int k>
[[gnu::target("avx2"), gnu::always_inline]] inline __m256i field_lanes(const __m256i (&load)[5]) {
    constexpr int from1 = lanes_of_field(k, 1), from2 = lanes_of_field(k, 2), from3 = lanes_of_field(k, 3),
                  from4 = lanes_of_field(k, 4);
    const __m256i t = _mm256_blend_epi32(_mm256_blend_epi32(load[0], load[1], from1), load[2], from2);
    return _mm256_blend_epi32(_mm256_blend_epi32(t, load[3], from3), load[4], from4);
}

/// Field k of the group's eight records, record i in lane i.
template <int k>
[[gnu::target("avx2"), gnu::always_inline]] inline __m256i field_in_order(const __m256i (&load)[5]) {
    const __m256i lane_of_record = _mm256_setr_epi32(k % 8, (5 + k) % 8, (10 + k) % 8, (15 + k) % 8, (20 + k) % 8,
                                                     (25 + k) % 8, (30 + k) % 8, (35 + k) % 8);
    return _mm256_permutevar8x32_epi32(field_lanes<k>(load), lane_of_record);
}

/// The first four words (a, b, oppositeEdge, oppositeFace) of record `low` in the low half, of
/// `high` in the high half.
[[gnu::target("avx2"), gnu::always_inline]] inline __m256i first_words(const fromsoft::Edge* low, const fromsoft::Edge* high) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(low))),
                                   _mm_loadu_si128(reinterpret_cast<const __m128i*>(high)), 1);
}

/// The clusterIndex of face max(owner, 0) in each lane (face 0 stands in for a missing owner,
/// as in the one-edge loop). `faces` holds every owner's face; owner × 4 is below 2^31.
[[gnu::target("avx2"), gnu::always_inline]] inline __m256i cluster_of(const fromsoft::Face* faces, __m256i owner) {
    static_assert(sizeof(fromsoft::Face) == 16 && offsetof(fromsoft::Face, clusterIndex) == 12);
    // The face's fourth word: clusterIndex in its low half (little-endian), padding above.
    const __m256i word = _mm256_i32gather_epi32(reinterpret_cast<const int*>(faces) + 3,
                                                _mm256_slli_epi32(_mm256_max_epi32(owner, _mm256_setzero_si256()), 2), 4);
    return _mm256_srai_epi32(_mm256_slli_epi32(word, 16), 16);
}
#endif

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

    /// kPairs: also R63's cluster pairs into `pairs`, from the faces' clusterIndex (F faces).
    template <bool kPairs>
    void scan(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner, std::int64_t R,
              std::span<const fromsoft::Face> faces, std::vector<ClusterPair>& pairs, EdgeLanes lanes) {
        std::int64_t from = 0;
#if defined(__x86_64__) && defined(__GNUC__)
        // The gathers' 32-bit signed indices must hold an opposite edge (below E) and an
        // owner's word in the faces (owner × 4, owner below F); the bound leaves room for both.
        constexpr auto kMostForEight = static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max() / 5);
        if (lanes == EdgeLanes::eight && edges.size() <= kMostForEight && faces.size() <= kMostForEight)
            from = scan_eight<kPairs>(edges, owner, R, faces.data(), pairs);
#endif
        scan_one<kPairs>(edges, owner, R, faces.data(), pairs, from);
    }

#if defined(__x86_64__) && defined(__GNUC__)
    /// The regular edges eight at a time, while eight are left; returns how many it took. What
    /// scan_one computes per edge, on the group's eight records at once: its own fields into
    /// lane accumulators; its opposite's record and owner by masked gathers (lanes without an
    /// opposite edge load nothing); the usual test as a lane mask, unusual lanes handed to
    /// `unusual` in edge order; R63's pairs from two gathers of clusterIndex, written in edge
    /// order (most groups have none). Needs E and F at most kMostForEight.
    template <bool kPairs>
    [[gnu::target("avx2")]] std::int64_t scan_eight(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner,
                                                    std::int64_t R, const fromsoft::Face* faces, std::vector<ClusterPair>& pairs) {
        const std::int64_t E = static_cast<std::int64_t>(edges.size()), end = std::min(R, E);
        if (end < 8) return 0;
        const fromsoft::Edge* const all = edges.data();
        const std::int32_t* const owners_of = owner.data();
        const __m256i zero = _mm256_setzero_si256(), none = _mm256_set1_epi32(-1);
        const __m256i last_edge = _mm256_set1_epi32(static_cast<int>(E - 1)), regular_end = _mm256_set1_epi32(static_cast<int>(end));
        const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        __m256i largest = zero, ored = zero, counted = zero, least = _mm256_set1_epi32(std::numeric_limits<std::int32_t>::max());
        std::int64_t first = 0;
        for (; first + 8 <= end; first += 8) {
            const auto* group = reinterpret_cast<const __m256i*>(all + first);
            const __m256i load[5] = {_mm256_loadu_si256(group), _mm256_loadu_si256(group + 1), _mm256_loadu_si256(group + 2),
                                     _mm256_loadu_si256(group + 3), _mm256_loadu_si256(group + 4)};
            const __m256i a = field_in_order<0>(load), b = field_in_order<1>(load), opposite = field_in_order<2>(load),
                          opposite_face = field_in_order<3>(load);
            // Unsigned: a negative end is past any positive one, as when widened (scan_one).
            largest = _mm256_max_epu32(largest, _mm256_max_epu32(a, b));
            ored = _mm256_or_si256(ored, _mm256_xor_si256(field_lanes<4>(load), _mm256_set1_epi32(4)));
            const __m256i owner_e = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(owners_of + first));
            least = _mm256_min_epi32(least, owner_e);
            // An opposite edge: oppositeEdge ≤ E − 1, unsigned.
            const __m256i in = _mm256_cmpeq_epi32(_mm256_min_epu32(opposite, last_edge), opposite);
            counted = _mm256_sub_epi32(counted, in);
            const __m256i owner_o = _mm256_mask_i32gather_epi32(none, owners_of, opposite, in, 4);  // −1 without one
            const __m256i index = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(first)), iota);
            alignas(32) std::uint32_t back_at[8];
            _mm256_store_si256(reinterpret_cast<__m256i*>(back_at), _mm256_blendv_epi8(index, opposite, in));
            const __m256i r04 = first_words(all + back_at[0], all + back_at[4]), r15 = first_words(all + back_at[1], all + back_at[5]),
                          r26 = first_words(all + back_at[2], all + back_at[6]), r37 = first_words(all + back_at[3], all + back_at[7]);
            const __m256i ab01 = _mm256_unpacklo_epi32(r04, r15), ab23 = _mm256_unpacklo_epi32(r26, r37);
            const __m256i back_a = _mm256_unpacklo_epi64(ab01, ab23), back_b = _mm256_unpackhi_epi64(ab01, ab23);
            const __m256i back_opposite = _mm256_unpacklo_epi64(_mm256_unpackhi_epi32(r04, r15), _mm256_unpackhi_epi32(r26, r37));
            // scan_one's usual test, lane by lane.
            __m256i usual = _mm256_and_si256(_mm256_cmpgt_epi32(owner_o, none), _mm256_cmpeq_epi32(opposite_face, owner_o));
            usual = _mm256_andnot_si256(_mm256_cmpeq_epi32(owner_o, owner_e), usual);
            usual = _mm256_and_si256(usual, _mm256_cmpgt_epi32(regular_end, opposite));
            usual = _mm256_and_si256(usual, _mm256_cmpeq_epi32(back_opposite, index));
            usual = _mm256_and_si256(usual, _mm256_and_si256(_mm256_cmpeq_epi32(back_a, b), _mm256_cmpeq_epi32(back_b, a)));
            // Without an opposite edge: usual with no opposite at all and NONE for the face.
            const __m256i no_opposite = _mm256_cmpeq_epi32(_mm256_and_si256(opposite, opposite_face), none);
            usual = _mm256_blendv_epi8(no_opposite, usual, in);
            const unsigned unusual_lanes = ~static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(usual))) & 0xFF;
            if (unusual_lanes != 0) [[unlikely]]
                unusual.add_lanes(edges, owner, first, unusual_lanes, R);
            if constexpr (kPairs) {
                const __m256i x = cluster_of(faces, owner_e), y = cluster_of(faces, owner_o);
                const __m256i pair = _mm256_andnot_si256(_mm256_cmpeq_epi32(x, y), _mm256_and_si256(_mm256_cmpgt_epi32(owner_e, none),
                                                                                                    _mm256_cmpgt_epi32(owner_o, none)));
                if (const unsigned pair_lanes = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(pair))); pair_lanes != 0) {
                    alignas(32) int xs[8], ys[8];
                    _mm256_store_si256(reinterpret_cast<__m256i*>(xs), x);
                    _mm256_store_si256(reinterpret_cast<__m256i*>(ys), y);
                    for (unsigned m = pair_lanes; m != 0; m &= m - 1) {
                        const int i = std::countr_zero(m);
                        pairs.push_back({xs[i], ys[i], static_cast<std::uint32_t>(first + i)});
                    }
                }
            }
        }
        alignas(32) std::uint32_t lane[4][8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(lane[0]), largest);
        _mm256_store_si256(reinterpret_cast<__m256i*>(lane[1]), ored);
        _mm256_store_si256(reinterpret_cast<__m256i*>(lane[2]), least);
        _mm256_store_si256(reinterpret_cast<__m256i*>(lane[3]), counted);
        for (int i = 0; i < 8; ++i) {
            // Widened as scan_one widens each end: the unsigned order of the words is kept.
            largest_end = std::max(largest_end, static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(lane[0][i])}));
            tail |= lane[1][i];
            least_owner = std::min(least_owner, static_cast<std::int32_t>(lane[2][i]));
            opposites += lane[3][i];
        }
        return first;
    }
#endif

    /// The regular edges from `from` (a multiple of 8 or 0) on, one at a time.
    template <bool kPairs>
    void scan_one(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner, std::int64_t R,
                  const fromsoft::Face* faces, std::vector<ClusterPair>& pairs, std::int64_t from) {
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
        for (std::int64_t first = from; first < end; first += kBlock) {
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

EdgeLanes widest_edge_lanes() { return cpu_has_avx2() ? EdgeLanes::eight : EdgeLanes::one; }

EdgeScan scan_edges(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner, std::int64_t R,
                    std::int64_t V, std::span<const fromsoft::Face> faces, EdgeLanes lanes,
                    std::vector<ClusterPair> pair_storage) {
    using namespace edge_check;
    EdgeScan s;
    s.cluster_pairs = std::move(pair_storage);
    s.cluster_pairs.clear();
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
    if (faces.empty()) regular.scan<false>(edges, owner, R, faces, s.cluster_pairs, lanes);
    else regular.scan<true>(edges, owner, R, faces, s.cluster_pairs, lanes);
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
