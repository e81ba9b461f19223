// Checks of a triangulation against its face (R43–R45): no triangle turned against the face,
// projected areas equal within a relative 1e-9, area vectors summing to the face's within
// 2e-11 m² per component.
#pragma once

#include <span>

#include "geometry/triangulate.h"

namespace navlab::geometry {

struct TriangulationCheck {
    int turned = 0;             ///< triangles with orient < 0 (R43)
    int first_turned = -1;      ///< index into triangles of the first one
    double projected_face = 0;  ///< P_f = |N|/2 (m²)
    double projected_sum = 0;   ///< P_t = Σ |A·N|/|N| (m²)
    double projected_relative = 0;  ///< |P_t − P_f| / P_f (0 when P_f = 0)
    Vec3<double> area_difference;   ///< Σ A − N/2 (m²): exactly 0 for a complete triangulation
    double area_difference_max = 0;  ///< largest |component| of area_difference
};

/// R44's projected area of one triangle, |((b − a) × (d − b)) · N| / |N| / 2, its corners
/// a, b, d taken relative to the face's P_0 (to keep them small), over double or Lanes.
template <class T>
T projected_area(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& d, const Vec3<T>& normal, T length) {
    return abs_of(dot(cross(b - a, d - b), normal)) / length / 2.0;
}

/// R44's |P_t − P_f| / P_f, over double or Lanes.
template <class T>
T relative_difference(T projected_sum, T projected_face) {
    return abs_of(projected_sum - projected_face) / projected_face;
}

/// @param plane the face; @param t its triangulation as triangulate_newell or
///        triangulate_axis_plane wrote it (a clipping along N has only its last triangle to
///        check, Triangulation's flag says so; the axis-plane variant's are checked in full).
TriangulationCheck check_triangulation(const FacePlane& plane, const Triangulation& t);
/// The same for a complete triangulation given by its triangles alone.
/// @param last_corner_fan the triangles are the proven fan from the last corner
///        (Triangulation::last_corner_fan): turned with the face, no orientation needed.
TriangulationCheck check_triangulation(const FacePlane& plane, std::span<const Cut> triangles, bool last_corner_fan);

}  // namespace navlab::geometry
