#include "audit/audit_face_geometry.h"

#include <algorithm>
#include <array>

#include "geometry/fan.h"
#include "io/promise.h"

namespace navlab::audit {

namespace {

/// OneLoop::BothFans's geometry for a face of n corners not degenerate from above (N_y's sign
/// `winding`) and with no reflex corner seen from above (convexity stays default): both
/// triangulations the fan from the last corner (n − 2 triangles, nothing dropped or lost),
/// R40's distance, R44's check of that fan, X08 and R41's first bad fan triangle.
OneLoop both_fans(int n, int winding, const FaceFigures& figures, bool convex_in_newell_plane, int bad_fan, FaceGeometry& g) {
    g.winding = winding > 0 ? Winding::CounterClockwise : Winding::Clockwise;
    g.zero_normal = false;
    g.convex_in_newell_plane = convex_in_newell_plane;
    g.off_plane = figures.off_plane;
    g.bad_fan = bad_fan;
    g.check = figures.fan_check;
    g.triangles = n - 2;
    return OneLoop::BothFans;
}

/// analyse_face_at_once for a triangle (half the faces of a navmesh), without one turn or
/// orientation. For three corners (q − p) × (r − q) is N itself, exactly, in every rotation:
/// each turn along N is sign(N · N) = +1 (convex along N; R41's one fan triangle is right),
/// the turns seen from above all have N_y's sign (no reflex corner, nothing for
/// convexity_from_above), and each fan or ear test of either variant is that one positive
/// turn: along N, and in the axis plane of N's largest component, which is not 0 when N_y is
/// not. So both triangulations are the face itself. Only the figures computed in floating
/// point remain: R40's distance and R44's check.
OneLoop analyse_triangle(int winding, const FaceFigures& figures, FaceGeometry& g) { return both_fans(3, winding, figures, true, -1, g); }

/// R41's first bad fan triangle: the batch's answer where its filters decided it.
int known_bad_fan(const FacePlane& plane, const FaceFigures* figures) {
    return figures && figures->decided.bad_fan_decided ? figures->decided.bad_fan : first_bad_fan_triangle(plane);
}

}  // namespace

void analyse_face(std::span<const Point> corners, FaceScratch& scratch, FaceGeometry& g, const FaceFigures* figures) {
    if (figures && figures->decided.both_fans) {
        // The batch decided every sign the one loop asks for (FaceFigures::Decided; for a
        // triangle N_y's alone, see analyse_triangle): its outcome, without a plane.
        const FaceFigures::Decided& d = figures->decided;
        const int winding = figures->normal.bound.y.sign();
        both_fans(static_cast<int>(corners.size()), winding, *figures, d.convex_in_newell_plane, d.bad_fan, g);
        // The one loop's convexity: a reflex corner means turns both ways from above, as the
        // fan's ends turn with N_y.
        if (d.reflex_from_above) g.convexity = convexity_from_above(corners, winding);
        return;
    }
    // One plane for both paths: the full one reuses the normal and the turns already taken,
    // and what the one loop saw of a face it gave up (OneLoopSeen). The batch's decided corner
    // turns spare the plane their arithmetic (it takes only faces of kMostTurns corners or fewer).
    NAVLAB_PROMISE(!figures || corners.size() <= FaceFigures::kMostTurns);
    const FacePlane plane = figures ? FacePlane(corners, figures->normal, figures->length, std::span(figures->turns.data(), corners.size()))
                                    : FacePlane(corners);
    OneLoopSeen seen;
    if (analyse_face_at_once(plane, scratch, g, figures, &seen) == OneLoop::NotTaken) analyse_face_in_full(plane, scratch, g, figures, &seen);
}

void analyse_face_in_full(const FacePlane& plane, FaceScratch& scratch, FaceGeometry& g, const FaceFigures* figures,
                          const OneLoopSeen* seen) {
    const std::span<const Point> corners = plane.corners();
    const bool refuted = seen && seen->newell_fan_refuted && corners.size() <= seen->above.size();
    g.winding = winding_from_above(plane);
    g.zero_normal = plane.normal_is_zero();
    if (g.winding == Winding::Degenerate) g.collinear = corners_collinear(corners);
    g.convexity = refuted ? convexity_from_turns(corners, std::span(seen->above.data(), corners.size()), plane.normal_sign(1))
                          : convexity_from_above(corners, plane.normal_sign(1));
    bool pos = false, neg = false;
    for (std::size_t k = 0, n = corners.size(); k < n; ++k) {
        int s = plane.corner_turn(static_cast<int>(k));
        pos |= s > 0;
        neg |= s < 0;
    }
    g.convex_in_newell_plane = !(pos && neg);
    if (!g.zero_normal) {
        g.off_plane = figures ? figures->off_plane : max_distance_from_mean_plane(plane);
        g.bad_fan = known_bad_fan(plane, figures);
    }
    const Triangulation& t = scratch.newell;
    triangulate_newell(plane, scratch.newell, refuted);
    g.check = check_triangulation(plane, t);
    g.triangles = static_cast<int>(t.triangles.size());
    g.dropped = static_cast<int>(t.dropped.size());
    g.fallbacks = t.fallbacks;
    g.no_ear = t.no_ear;
    g.corners_left = t.corners_left;
    if (g.check.first_turned >= 0) g.first_turned = t.triangles[g.check.first_turned];
    clip_axis_plane(plane, scratch, g, false, nullptr, refuted ? std::span(seen->above.data(), corners.size()) : std::span<const signed char>());
}

void clip_axis_plane(const FacePlane& plane, FaceScratch& scratch, FaceGeometry& g, bool fan_refuted, const AxisPlane* axis,
                     std::span<const signed char> above) {
    const std::span<const Point> corners = plane.corners();
    triangulate_axis_plane(plane, scratch.axis, fan_refuted, axis, above);
    for (const Cut& cut : scratch.axis.dropped)
        if (!zero_area_3d(corners[cut[0]], corners[cut[1]], corners[cut[2]]) && g.lost++ == 0) g.first_lost = cut;
}

OneLoop analyse_face_at_once(const FacePlane& plane, FaceScratch& scratch, FaceGeometry& g, const FaceFigures* figures,
                             OneLoopSeen* seen) {
    constexpr int kMost = static_cast<int>(FacePlane::kRememberedTurns);
    const std::span<const Point> c = plane.corners();
    const int n = static_cast<int>(c.size());
    if (seen) seen->newell_fan_refuted = false;  // a reused `seen` must not carry another face's turns
    if (n < 3 || n > kMost) return OneLoop::NotTaken;
    const int winding = plane.normal_sign(1);
    if (winding == 0) return OneLoop::NotTaken;  // degenerate from above: collinear test, maybe N = 0
    if (n == 3) {
        if (figures) return analyse_triangle(winding, *figures, g);
        const Cut face = last_corner_fan_triangle(3, 0);
        FaceFigures own;
        own.off_plane = max_distance_from_mean_plane(plane);
        own.fan_check = check_triangulation(plane, std::span<const Cut>(&face, 1), true);
        return analyse_triangle(winding, own, g);
    }
    // The one loop: each corner's turn seen from above (R39) and along N (remembered by the
    // plane for X08, R41's fan and the Newell proof).
    std::array<signed char, kMost> above;
    int above_pos = 0, above_neg = 0;
    bool pos = false, neg = false;
    plane.remember_corner_turns();
    for (int k = 0, prev = n - 1; k < n; prev = k++) {
        const int t = turn_from_above(c[prev], c[k], c[k + 1 == n ? 0 : k + 1]);
        above[k] = static_cast<signed char>(t);
        above_pos += t > 0;
        above_neg += t < 0;
        const int s = plane.corner_turn(k);
        pos |= s > 0;
        neg |= s < 0;
    }
    if (!newell_takes_first_candidate_throughout(plane)) {
        if (seen) {
            seen->newell_fan_refuted = true;
            std::copy_n(above.begin(), n, seen->above.begin());
        }
        return OneLoop::NotTaken;
    }
    // A turn at one corner, in any rotation, seen in the axis plane: for axis y it is the turn
    // from above times N_y's sign (the same orient2d_sign call, exact, rotation-invariant).
    const AxisPlane axis = axis_plane_of(plane);
    auto axis_orient = [&](int a, int b, int d) {
        if (axis.axis == 1) {
            auto next = [&](int i) { return i + 1 == n ? 0 : i + 1; };
            if (next(a) == b && next(b) == d) return axis.sign * above[b];
            if (next(b) == d && next(d) == a) return axis.sign * above[d];
            if (next(d) == a && next(a) == b) return axis.sign * above[a];
        }
        return axis.orient(c[a], c[b], c[d]);
    };
    const bool axis_fan = takes_first_candidate_throughout(n, axis_orient);

    // The Newell variant is the fan from the last corner: nothing dropped, no fallback, no
    // turned triangle (see FaceGeometry's defaults). So is the axis variant, with nothing
    // lost, when its proof held too; otherwise only it is clipped (a warped or steep face
    // whose projection along N's largest axis differs from the one along N: 2 % of the
    // eldenring preset's faces, 2.5 % of Sekiro's).
    g.winding = winding > 0 ? Winding::CounterClockwise : Winding::Clockwise;
    g.zero_normal = false;  // N_y ≠ 0
    if (above_pos != 0 && above_neg != 0) g.convexity = convexity_from_turns(c, std::span(above.data(), c.size()), winding);
    g.convex_in_newell_plane = !(pos && neg);
    g.off_plane = figures ? figures->off_plane : max_distance_from_mean_plane(plane);
    g.bad_fan = known_bad_fan(plane, figures);
    if (figures) {
        g.check = figures->fan_check;
    } else {
        std::array<Cut, kMost - 2> fan;
        for (int k = 0; k < n - 2; ++k) fan[k] = last_corner_fan_triangle(n, k);
        g.check = check_triangulation(plane, std::span<const Cut>(fan.data(), n - 2), true);
    }
    g.triangles = n - 2;
    if (axis_fan) return OneLoop::BothFans;
    clip_axis_plane(plane, scratch, g, true, &axis, std::span(above.data(), c.size()));
    return OneLoop::AxisPlaneClipped;
}

}  // namespace navlab::audit
