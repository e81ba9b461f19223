// Many faces' floating-point figures at once: the Newell normal with its bound, R40's distance
// from the mean plane and R44's projected areas of the fan from the last corner are plain
// arithmetic, the same for every face of n corners, so they run two faces of the same n to a
// Lanes value. So do the filters of the exact signs the common face needs (a convex face that
// takes both fans: FaceFigures::Decided); a sign they leave open, and every face needing ear
// clipping, goes to the one-face path (analyse_face).
#pragma once

#include <cstddef>

#include "audit/audit_face_geometry.h"

namespace navlab::audit {

/// Up to kMost faces, gathered by add, computed together by analyse, read back by figures.
/// Each figure comes from the same template as for one face (newell_sum, length_of,
/// farthest_from_mean_plane, projected_area, relative_difference) over the same operands in
/// the same order, so each lane holds the very bits of the one-face path.
class FaceBatch {
public:
    static constexpr int kMost = 64;
    /// The longest ring taken: 3 … 8 corners are 99.5 % of the game presets' faces.
    static constexpr int kMostCorners = 8;

    void clear() { count_ = 0; }
    /// Adds the ring of `n` corners at `at` in the corner array analyse will be given (finite
    /// float32 values, a ring read_face_ring accepted); returns its index, or −1 (the face
    /// then takes the one-face path) unless 3 ≤ n ≤ kMostCorners and fewer than kMost faces
    /// were added. The array may still grow until analyse.
    int add(std::size_t at, int n);
    /// Computes every added face's FaceFigures from `corners`.
    void analyse(const Point* corners);
    /// After analyse: the figures of face `i` (an index add returned).
    const FaceFigures& figures(int i) const { return figures_[i]; }

private:
    int count_ = 0;
    int size_[kMost];
    std::size_t at_[kMost];
    FaceFigures figures_[kMost];
    /// analyse for faces a and b, both of N corners (a == b for a face without a partner);
    /// N is a constant so that every loop over the corners unrolls.
    template <int N>
    void analyse_pair(const Point* corners, int a, int b);
    /// analyse for the faces of N corners, in pairs, then for N + 1 … kMostCorners.
    template <int N>
    void analyse_from(const Point* corners, const int* faces, const int* count);
};

}  // namespace navlab::audit
