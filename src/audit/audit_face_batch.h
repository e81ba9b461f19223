// Many faces' floating-point figures at once: the Newell normal with its bound, R40's distance from
// the mean plane and R44's projected areas of the fan from the last corner are plain arithmetic,
// the same for every face of n corners, so they run two faces of the same n to a Lanes value, or
// four to a WideLanes value where the processor has AVX2. So do the filters of the exact signs the
// common face needs (a convex face that takes both fans: FaceFigures::Decided); a sign they leave
// open, and every face needing ear clipping, goes to the one-face path (analyse_face).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "audit/audit_face_geometry.h"

namespace navlab::audit {

/// What FaceTallies takes of the faces a FaceBatch decided (FaceFigures::Decided::both_fans),
/// summed by analyse over every batch since FaceBatch::start_tallies, lane by lane: four lanes,
/// of which the two-lane path fills the first two. Each lane met its faces grouped by ring
/// length, not in face order, so every figure here is one that does not depend on the order:
/// sums, and maxima kept with the face index (FaceTallies::add_decided folds the lanes).
struct DecidedTallies {
    static constexpr int kLanes = 4;
    /// FirstAndBest without an order: `first` is the value offered at the smallest face index,
    /// `best` the largest non-NaN value at the smallest face among equal ones (`==`, so -0 and
    /// +0 are equal and the smaller face's sign stays), which is what FirstAndBest keeps when the
    /// same faces are offered in face order. A face of +infinity: none (face indices as doubles,
    /// exact below 2^53).
    struct Maximum {
        double first[kLanes] = {};
        double first_face[kLanes] = {INFINITY, INFINITY, INFINITY, INFINITY};
        double best[kLanes] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
        double best_face[kLanes] = {INFINITY, INFINITY, INFINITY, INFINITY};
    };
    std::int64_t faces[kLanes] = {};
    std::int64_t not_convex_in_newell_plane[kLanes] = {};  ///< X08
    std::int64_t triangles[kLanes] = {};  ///< Σ (n − 2): R42's triangles and Σ (numEdges − 2) alike
    Maximum off_plane;           ///< R40's distance
    Maximum projected_relative;  ///< R44's (0 where |N| = 0, as check_triangulation leaves it)
    /// R45's two maxima offer only 0 (a fan's area difference, and 0 over the projected face area
    /// where that is > 0), so each is 0 at the smallest face that offered it: that face, or +infinity.
    double area_difference_face[kLanes] = {INFINITY, INFINITY, INFINITY, INFINITY};
    double area_difference_relative_face[kLanes] = {INFINITY, INFINITY, INFINITY, INFINITY};
};

/// DecidedTallies' lanes as lane values of W, kept in registers while analyse runs the groups of
/// one ring length (audit_face_batch.cpp).
template <class W>
struct LaneTallies;

/// Up to kMost faces of each ring length, gathered by add, computed together by analyse, read
/// back by figures.
/// Each figure comes from the same template as for one face (newell_sum, length_of,
/// farthest_from_mean_plane, projected_area, relative_difference) over the same operands in
/// the same order, so each lane holds the very bits of the one-face path, whether a lane
/// value holds two faces (SSE2) or four (AVX2).
class FaceBatch {
public:
    /// Faces of each ring length fill groups of four lanes, the last group of each length
    /// padded: with 64 a batch, an eighth of the four-lane groups' lanes on Sekiro `krak` were
    /// padding (its tagfiles average 185 faces).
    static constexpr int kMost = 256;
    /// The longest ring taken: 3 … 8 corners are 99.5 % of the game presets' faces.
    static constexpr int kMostCorners = 8;
    static_assert(kMostCorners <= FaceFigures::kMostTurns, "FaceFigures keeps a turn per corner");
    /// How many faces share a lane value: two (Lanes, SSE2) or four (WideLanes, functions
    /// compiled with target("avx2"), for processors that have it).
    enum class Width { two = 2, four = 4 };
    /// Four where the processor runs AVX2, else two.
    static Width widest();

    explicit FaceBatch(Width width = widest()) : width_(width) {}
    void clear() {
        for (int& c : of_length_count_) c = 0;
    }
    /// Adds the ring of `n` corners at `at` in the corner array analyse will be given (finite
    /// float32 values, a ring read_face_ring accepted), face `face` of its mesh (for the
    /// tallies' maxima: a face added twice since start_tallies counts twice); returns its index,
    /// or −1 (the face then takes the one-face path) unless 3 ≤ n ≤ kMostCorners and fewer than
    /// kMost faces of n corners were added. The array may still grow until analyse.
    /// Inline: read_faces calls it once per face; it files the face under its ring length at
    /// once (analyse's groups), not in a second pass.
    int add(std::size_t at, int n, std::int32_t face) {
        if (n < 3 || n > kMostCorners || of_length_count_[n] == kMost) return -1;
        return file(at, n, face);
    }
    /// add for a ring known to have N corners, 3 ≤ N ≤ kMostCorners, with fewer than kMost faces
    /// of N corners added (read_faces' chunks hold at most kMost faces): the same filing without
    /// add's tests.
    template <int N>
    int add_of(std::size_t at, std::int32_t face) {
        static_assert(3 <= N && N <= kMostCorners);
        return file(at, N, face);
    }
    /// Computes every added face's FaceFigures from `corners`, adds the decided ones to
    /// decided_tallies() and marks which of those are common(); with `corner_boxes`, each face's
    /// corner_box() too. `corners` has one more Point past the last face's corners (its slack:
    /// read as 32 bytes, each corner takes the next Point's x along, unused).
    void analyse(const Point* corners, bool corner_boxes);
    /// After analyse: the figures of face `i` (an index add returned), written only when the face
    /// is not common(): a common face's are all in decided_tallies(), and nothing reads them.
    const FaceFigures& figures(int i) const { return figures_[i]; }
    /// After analyse: whether face `i` was decided and FaceTallies::add would not keep it among
    /// the unusual faces (counter-clockwise, convex seen from above, R41's fan good, within R40's
    /// `off_plane_limit` and R44's and R45's tolerances): its tallies are all in decided_tallies().
    bool common(int i) const { return common_[i]; }
    /// After analyse: face `i`'s corner mean (R64's face centre), geometry::centroid_of's bits,
    /// common or not.
    Point centroid(int i) const { return {centre_x_[i], centre_y_[i], centre_z_[i]}; }
    /// After analyse with `corner_boxes`: face `i`'s corner box, common or not.
    const CornerBounds& corner_box(int i) const { return box_[i]; }
    /// Empties decided_tallies() (a new tagfile); `off_plane_limit` is R40's for common().
    void start_tallies(double off_plane_limit) {
        tallies_ = {};
        off_plane_limit_ = off_plane_limit;
    }
    /// The decided faces of every analyse since start_tallies, summed.
    const DecidedTallies& decided_tallies() const { return tallies_; }

private:
    /// Each ring length's faces have a row of places: a face's index is its place (kRow − 4 of
    /// them, then room to pad the last group of four lanes), so the faces that share a group are
    /// adjacent and each of their figures is read or written as one lane value.
    static constexpr int kRow = kMost + 4;
    static constexpr int kPlaces = (kMostCorners - 2) * kRow;  ///< rows of 3 … kMostCorners corners
    Width width_;
    /// The faces added of each ring length n (at places (n − 3) · kRow …), in the order added;
    /// which faces share a lane value does not matter, as every lane's operations are its own
    /// face's.
    int of_length_count_[kMostCorners + 1] = {};
    std::size_t at_[kPlaces];
    double face_[kPlaces];  ///< add's `face`, as the tallies compare it
    FaceFigures figures_[kPlaces];  ///< of the faces not common_
    bool common_[kPlaces];
    double centre_x_[kPlaces], centre_y_[kPlaces], centre_z_[kPlaces];  ///< centroid() by coordinate
    CornerBounds box_[kPlaces];
    DecidedTallies tallies_;
    double off_plane_limit_ = 0;
    /// Files a face of n corners (3 … kMostCorners) at its length's next place, which it returns.
    int file(std::size_t at, int n, std::int32_t face) {
        const int i = (n - 3) * kRow + of_length_count_[n]++;
        at_[i] = at;
        face_[i] = face;
        return i;
    }
    /// analyse for the faces at places p … p + L − 1, all of N corners, L the lanes of W (after
    /// the first `used`, places padded with the last face again); N is a constant so that every
    /// loop over the corners unrolls. Boxes: analyse's `corner_boxes` (a constant, so that the
    /// tagfiles without a tree pay no test for it). `t`: the tallies so far.
    template <int N, class W, bool Boxes>
    void analyse_group(const Point* corners, int p, int used, LaneTallies<W>& t);
    /// analyse_group for the `count` faces of N corners (row at `row`), L at a time, with the
    /// tallies in locals.
    template <int N, class W, bool Boxes>
    void analyse_length(const Point* corners, int row, int count);
    /// corner_box() of the faces at places p …, whose N corners are `p`.
    template <int N, class W>
    void store_corner_boxes(const Vec3<W>* corner, int p);
    /// analyse_length with four lanes, compiled for AVX2 with every call inlined (flatten), so
    /// no helper runs as SSE2 code on split halves.
    template <int N, bool Boxes>
    void analyse_length_avx2(const Point* corners, int row, int count);
    /// analyse for the faces of N corners, then for N + 1 … kMostCorners.
    template <int N, class W, bool Boxes>
    void analyse_from(const Point* corners);
};

}  // namespace navlab::audit
