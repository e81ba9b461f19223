// One face's geometry as the audit's rules R38–R48 and X08 need it: winding, convexity,
// planarity, R41's fan, the page's triangulation in both variants and its checks.
#pragma once

#include <array>
#include <span>

#include "geometry/convexity.h"
#include "geometry/planarity.h"
#include "geometry/triangle_checks.h"
#include "geometry/triangulate.h"
#include "geometry/winding.h"

namespace navlab::audit {

// The rules are written in the geometry layer's vocabulary (rings, planes, triangulations).
using namespace navlab::geometry;

/// Geometry of one face whose ring is well formed.
struct FaceGeometry {
    Winding winding = Winding::CounterClockwise;
    bool zero_normal = false;
    bool collinear = false;      ///< computed for degenerate faces only
    Convexity convexity;
    bool convex_in_newell_plane = true;  ///< X08: no two corners turn opposite ways along N
    PlaneDistance off_plane;     ///< valid when !zero_normal
    int bad_fan = -1;            ///< R41: first bad fan triangle k, or −1
    /// Algorithm T's figures (R42–R47); the triangles themselves are not kept, so a face
    /// holds no allocation.
    int triangles = 0;
    int dropped = 0;
    int fallbacks = 0;
    bool no_ear = false;
    int corners_left = 0;
    Cut first_turned{-1, -1, -1};  ///< R43: the first triangle turned against the face
    TriangulationCheck check;
    int lost = 0;                ///< R48 lost triangles
    Cut first_lost{-1, -1, -1};
};

/// Triangulations reused from face to face by analyse_face_in_full: no allocation per face
/// once they have grown to the largest face.
struct FaceScratch {
    Triangulation newell, axis;
};

/// The box of a face's corners, per axis x, y, z (float32 values, so float is exact): R72 and
/// X10 compare it with the face's leaf box instead of walking the corners again.
/// Each bound is the first of equal values in corner order (std::min, std::max), taken in double
/// and narrowed once: read_faces' bounds_of, or FaceBatch for the faces it takes.
struct CornerBounds {
    float min[3], max[3];
};

/// A face's floating-point figures computed ahead, for many faces at once (FaceBatch in
/// audit_face_batch.h), with the same operations as a FacePlane and the rules' functions.
struct FaceFigures {
    FacePlane::ApproxNormal normal;  ///< N with its bound (FacePlane's newell_sum)
    double length = 0;               ///< |N|
    PlaneDistance off_plane;         ///< R40: max_distance_from_mean_plane
    /// R44: check_triangulation of the fan from the last corner (last_corner_fan_triangle),
    /// the Newell triangulation whenever analyse_face_at_once takes the face.
    TriangulationCheck fan_check;
    /// Each corner's turn along N (FacePlane::corner_turn) as the batch's filter decided it: the
    /// exact sign −1, 0 or +1, or FacePlane::kTurnOpen where the filter left it open (the first
    /// n entries; the others open). A face the batch did not decide asks for all of them again:
    /// FacePlane's constructor takes these.
    static constexpr int kMostTurns = 8;
    std::array<signed char, kMostTurns> turns;
    /// The one loop's outcome for a face of 3 … FaceBatch::kMostCorners corners whose exact
    /// signs the batch's filters all decided (FaceBatch::analyse_group): analyse_face_at_once
    /// would take OneLoop::BothFans with N_y = the normal's sign and these figures;
    /// analyse_face then fills the geometry alone (convexity_from_above for a reflex corner).
    struct Decided {
        bool both_fans = false;              ///< all of the above holds; otherwise not decided
        bool convex_in_newell_plane = true;  ///< X08
        int bad_fan = -1;                    ///< R41's first bad fan triangle, or −1
        bool reflex_from_above = false;      ///< R39: a corner turns against N_y seen from above
        /// bad_fan is first_bad_fan_triangle's answer (its orientations were decided up to it),
        /// whether both_fans holds or not.
        bool bad_fan_decided = false;
    } decided;
};

/// What analyse_face_at_once learned of a face before it gave the face up at the Newell fan
/// proof, so that analyse_face_in_full does not ask it again.
struct OneLoopSeen {
    bool newell_fan_refuted = false;  ///< takes_first_candidate_throughout along N is false
    /// turn_from_above at each corner (the face's first n entries), when newell_fan_refuted.
    std::array<signed char, FacePlane::kRememberedTurns> above;
};

/// A face's geometry: analyse_face_at_once, and analyse_face_in_full where it does not apply.
/// @param corners P_0 … P_{n−1}, n ≥ 3, finite float32 values (a ring read_face_ring accepted).
/// @param g       a default FaceGeometry, filled in place.
/// @param figures the face's FaceFigures when a batch computed them, else nullptr.
void analyse_face(std::span<const Point> corners, FaceScratch& scratch, FaceGeometry& g, const FaceFigures* figures = nullptr);

/// Every figure computed on its own, as the rules state them: the plane, the winding, the
/// turns from above and along N, the off-plane distance, R41's fan, Algorithm T in the Newell
/// plane and in the axis plane with their checks. The reference the one-loop path must equal.
/// @param plane the face (FacePlane of its corners); @param g a default FaceGeometry.
/// @param figures the face's FaceFigures when a batch computed them (R40's distance is then
///        taken from them, the same bits), else nullptr.
/// @param seen    what analyse_face_at_once found of the face when it gave it up, else nullptr.
void analyse_face_in_full(const FacePlane& plane, FaceScratch& scratch, FaceGeometry& g, const FaceFigures* figures = nullptr,
                          const OneLoopSeen* seen = nullptr);

/// R48's step of analyse_face_in_full: Algorithm T in the axis plane (into scratch.axis), and
/// the cuts it dropped that have area in 3-space counted as lost in `g`. `fan_refuted`: the
/// axis plane's fan proof is known false (triangulate_axis_plane's parameter); `axis`, when
/// given, is axis_plane_of(plane), already computed by the caller; `above`, when not empty, each
/// corner's turn_from_above (triangulate_axis_plane's parameter).
void clip_axis_plane(const FacePlane& plane, FaceScratch& scratch, FaceGeometry& g, bool fan_refuted = false,
                     const AxisPlane* axis = nullptr, std::span<const signed char> above = {});

/// Which way analyse_face_at_once took a face.
enum class OneLoop {
    NotTaken,          ///< `g` unchanged: analyse_face_in_full must run
    BothFans,          ///< both triangulations proven fans from the last corner
    AxisPlaneClipped,  ///< the Newell one proven a fan; the axis-plane one clipped in full
};

/// The common face in one loop over its corners, sharing each exact turn between the rules
/// that ask for it: a face of at most FacePlane::kRememberedTurns corners, not degenerate seen
/// from above, whose Newell triangulation is a proven fan from the last corner
/// (takes_first_candidate_throughout). The turns along N serve X08, R41's fan and the Newell
/// proof; the turns seen from above serve R39 and, when N's largest axis is y, the axis-plane
/// proof. When that second proof fails, only the axis-plane triangulation is clipped
/// (clip_axis_plane, with `scratch`). Returns NotTaken, leaving `g` unchanged, for any other
/// face; otherwise `g` then equals what analyse_face_in_full gives. `figures`, when not
/// nullptr, are the face's (see analyse_face) and stand for R40's and R44's arithmetic.
/// `seen`, when not nullptr, receives what the loop found of a face it gives up at the Newell
/// fan proof (for analyse_face_in_full); its newell_fan_refuted is set false otherwise.
OneLoop analyse_face_at_once(const FacePlane& plane, FaceScratch& scratch, FaceGeometry& g,
                             const FaceFigures* figures = nullptr, OneLoopSeen* seen = nullptr);

}  // namespace navlab::audit
