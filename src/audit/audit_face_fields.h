// The face records' fields bounded in one pass: the per-face rules that compare a face's own
// fields with constants (R22, R24, R25, R26, R34's ranges, R35, R74) read their answer for
// every face from these bounds when it is the common one (forty-seventh session).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "formats/fromsoft/navmesh.h"

namespace navlab::audit {

/// The smallest and largest value of each 16-bit piece of the face records (fromsoft::Face,
/// 16 bytes, little-endian), compared as signed numbers: a field's pieces all equal one value
/// on every face exactly when that piece's bounds both equal it. Each of those rules walked
/// the faces on its own to learn that every face holds (≈ 12.6 M instructions on the Sekiro
/// preset); the bounds are one pass of two vector compares a face.
struct FaceFieldBounds {
    /// The pieces of a Face, in memory order.
    enum Lane : std::size_t {
        kStartEdgeLow, kStartEdgeHigh, kStartUserEdgeLow, kStartUserEdgeHigh,
        kNumEdges, kNumUserEdges, kClusterIndex, kPadding, kLanes
    };
    bool any = false;  ///< some face: min and max are set
    std::array<std::int16_t, kLanes> min{}, max{};

    /// Whether piece `lane` is `v` on every face (true without faces).
    bool all(Lane lane, std::int16_t v) const { return !any || (min[lane] == v && max[lane] == v); }
    /// No face has user edges: every numUserEdges is 0 and every startUserEdgeIndex is -1.
    bool no_user_edges() const {
        return all(kNumUserEdges, 0) && all(kStartUserEdgeLow, -1) && all(kStartUserEdgeHigh, -1);
    }
    /// Every numUserEdges is 0 or less.
    bool no_positive_user_counts() const { return !any || max[kNumUserEdges] <= 0; }
    /// Every padding is 0xCDCD.
    bool padding_cdcd() const { return all(kPadding, static_cast<std::int16_t>(0xCDCD)); }
    /// Every clusterIndex is in [0, nodes).
    bool clusters_below(std::int64_t nodes) const {
        return !any || (min[kClusterIndex] >= 0 && max[kClusterIndex] < nodes);
    }
};

/// The bounds of `faces`' pieces (SSE2 vector compares, which every x86-64 processor has).
FaceFieldBounds bound_face_fields(std::span<const fromsoft::Face> faces);

}  // namespace navlab::audit
