#include "audit/audit_triangle_batch.h"

#include <cstring>

namespace navlab::audit {
namespace {

Lanes load(const double* from) {
    Lanes v;
    std::memcpy(&v, from, sizeof v);
    return v;
}

void store(double* to, Lanes v) { std::memcpy(to, &v, sizeof v); }

}  // namespace

int TriangleBatch::add(std::span<const Point> corners) {
    const int i = count_++;
    for (int j = 0; j < 3; ++j) {
        corners_[j][0][i] = corners[j].x;
        corners_[j][1][i] = corners[j].y;
        corners_[j][2][i] = corners[j].z;
    }
    return i;
}

void TriangleBatch::analyse() {
    static_assert(kMost % kLanes == 0);
    if (count_ % kLanes != 0)  // the last pair's second lane: a zero triangle, never read back
        for (auto& corner : corners_)
            for (auto& axis : corner) axis[count_] = 0;
    const double scale = newell_error_scale(3);
    for (int i = 0; i < count_; i += kLanes) {
        Vec3<Lanes> p[3];
        for (int j = 0; j < 3; ++j) p[j] = {load(&corners_[j][0][i]), load(&corners_[j][1][i]), load(&corners_[j][2][i])};
        // FacePlane: N from its one term, and whether the filter decides N_y's sign.
        Vec3<Lanes> normal{}, magnitude{};
        add_newell_term(p[1] - p[0], p[2] - p[0], normal, magnitude);
        const auto decided = filter_decides(normal.y, scale * magnitude.y);
        const Lanes length = length_of(normal);
        // R40: max_distance_from_mean_plane.
        const FarthestCorner<Lanes> far = farthest_from_mean_plane(p, 3, normal, length);
        // R44: check_triangulation of the triangle itself, the one cut (0, 1, 2), in a lane
        // read back (N_y ≠ 0: |N| ≥ |N_y| > 0, whose square does not underflow for float32
        // corners) with |N| > 0.
        const Lanes face = length / 2.0;
        const Lanes sum = splat<Lanes>(0) + projected_area(p[0] - p[0], p[1] - p[0], p[2] - p[0], normal, length);
        store(&distance_[i], far.distance);
        store(&corner_[i], far.corner);
        store(&face_[i], face);
        store(&sum_[i], sum);
        store(&relative_[i], relative_difference(sum, face));
        for (int lane = 0; lane < kLanes; ++lane)
            winding_[i + lane] = static_cast<std::int8_t>(decided[lane] ? (normal.y[lane] > 0) - (normal.y[lane] < 0) : 0);
    }
}

bool TriangleBatch::geometry(int i, FaceGeometry& g) const {
    if (winding_[i] == 0) return false;
    TriangulationCheck check;
    check.projected_face = face_[i];
    check.projected_sum = sum_[i];
    check.projected_relative = relative_[i];
    set_triangle_geometry(winding_[i], {distance_[i], static_cast<int>(corner_[i])}, check, g);
    return true;
}

}  // namespace navlab::audit
