// Many faces' floating-point figures at once: the Newell normal with its bound, R40's distance from
// the mean plane and R44's projected areas of the fan from the last corner are plain arithmetic,
// the same for every face of n corners, so they run two faces of the same n to a Lanes value, or
// four to a WideLanes value where the processor has AVX2. So do the filters of the exact signs the
// common face needs (a convex face that takes both fans: FaceFigures::Decided); a sign they leave
// open, and every face needing ear clipping, goes to the one-face path (analyse_face).
#pragma once

#include <cstddef>

#include "audit/audit_face_geometry.h"

namespace navlab::audit {

/// Up to kMost faces, gathered by add, computed together by analyse, read back by figures.
/// Each figure comes from the same template as for one face (newell_sum, length_of,
/// farthest_from_mean_plane, projected_area, relative_difference) over the same operands in
/// the same order, so each lane holds the very bits of the one-face path, whether a lane
/// value holds two faces (SSE2) or four (AVX2).
class FaceBatch {
public:
    static constexpr int kMost = 64;
    /// The longest ring taken: 3 … 8 corners are 99.5 % of the game presets' faces.
    static constexpr int kMostCorners = 8;
    /// How many faces share a lane value: two (Lanes, SSE2) or four (WideLanes, functions
    /// compiled with target("avx2"), for processors that have it).
    enum class Width { two = 2, four = 4 };
    /// Four where the processor runs AVX2, else two.
    static Width widest();

    explicit FaceBatch(Width width = widest()) : width_(width) {}
    void clear() { count_ = 0; }
    /// Adds the ring of `n` corners at `at` in the corner array analyse will be given (finite
    /// float32 values, a ring read_face_ring accepted); returns its index, or −1 (the face
    /// then takes the one-face path) unless 3 ≤ n ≤ kMostCorners and fewer than kMost faces
    /// were added. The array may still grow until analyse.
    /// Inline: read_faces calls it once per face.
    int add(std::size_t at, int n) {
        if (n < 3 || n > kMostCorners || count_ == kMost) return -1;
        const int i = count_++;
        size_[i] = n;
        at_[i] = at;
        return i;
    }
    /// Computes every added face's FaceFigures from `corners`.
    void analyse(const Point* corners);
    /// After analyse: the figures of face `i` (an index add returned).
    const FaceFigures& figures(int i) const { return figures_[i]; }

private:
    Width width_;
    int count_ = 0;
    int size_[kMost];
    std::size_t at_[kMost];
    FaceFigures figures_[kMost];
    /// analyse for the faces `faces[0 … L − 1]`, all of N corners, L the lanes of W (a face may
    /// repeat to fill the lanes); N is a constant so that every loop over the corners unrolls.
    template <int N, class W>
    void analyse_group(const Point* corners, const int* faces);
    /// analyse_group with four lanes, compiled for AVX2 with every call inlined (flatten), so
    /// no helper runs as SSE2 code on split halves.
    template <int N>
    void analyse_group_avx2(const Point* corners, const int* faces);
    /// analyse for the faces of N corners, L at a time, then for N + 1 … kMostCorners.
    template <int N, class W>
    void analyse_from(const Point* corners, const int* faces, const int* count);
};

}  // namespace navlab::audit
