// Many triangles' geometry at once: half the faces of a navmesh are triangles, and all that
// varies between them is floating-point arithmetic (the Newell normal, R40's distance, R44's
// projected area; set_triangle_geometry says why), which runs two triangles to a Lanes value.
#pragma once

#include <cstdint>
#include <span>

#include "audit/audit_face_geometry.h"

namespace navlab::audit {

/// Up to kMost triangles, gathered by add, analysed together by analyse, read back by
/// geometry. Each figure is computed by the same template as for one face (add_newell_term,
/// filter_decides, length_of, farthest_from_mean_plane, projected_area, relative_difference),
/// so a triangle's geometry is the very bits analyse_face gives it.
class TriangleBatch {
public:
    static constexpr int kMost = 64;

    void clear() { count_ = 0; }
    int size() const { return count_; }
    bool full() const { return count_ == kMost; }
    /// Adds a triangle (P_0, P_1, P_2: finite float32 values, a ring read_face_ring accepted)
    /// while !full(); returns its index in the batch.
    int add(std::span<const Point> corners);
    /// Computes every added triangle's figures, two at a time.
    void analyse();
    /// After analyse: analyse_face's geometry of triangle `i`, written into `g` (a default
    /// FaceGeometry), and true; or false, with `g` untouched, when N_y is 0 or its filter
    /// cannot tell its sign: analyse_face must then take the face.
    bool geometry(int i, FaceGeometry& g) const;

private:
    int count_ = 0;
    /// corners_[j][axis][i]: corner j's x, y or z of triangle i (one more for an odd count).
    alignas(16) double corners_[3][3][kMost];
    std::int8_t winding_[kMost];  ///< N_y's sign, 0 when not decided here
    double distance_[kMost], corner_[kMost];  ///< R40 (FarthestCorner)
    double face_[kMost], sum_[kMost], relative_[kMost];  ///< R44 (TriangulationCheck)
};

}  // namespace navlab::audit
