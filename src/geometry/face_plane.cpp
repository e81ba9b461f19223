#include "geometry/face_plane.h"

#include <cmath>

#include "geometry/orient2d.h"

namespace navlab::geometry {
namespace {

template <class T>
T component(const Vec3<T>& v, int axis) {
    return axis == 0 ? v.x : (axis == 1 ? v.y : v.z);
}

}  // namespace

/// N with its error bound from one pass (newell_sum): Approx carried its bound through every
/// operation of every corner (2 % of the audit).
FacePlane::FacePlane(std::span<const Point> corners)
    : corners_(corners), normal_(approx_normal(newell_sum(corners.data(), corners.size()))) {
    take_decided_signs();
}

FacePlane::FacePlane(std::span<const Point> corners, const ApproxNormal& normal, double length)
    : corners_(corners), normal_(normal), length_(length) {
    take_decided_signs();
}

FacePlane::FacePlane(std::span<const Point> corners, const ApproxNormal& normal, double length, std::span<const signed char> turns)
    : FacePlane(corners, normal, length) {
    if (turns.size() != corners.size() || turns.size() > kRememberedTurns) return;
    bool all = true;
    for (std::size_t k = 0; k < turns.size(); ++k) {
        turns_[k] = turns[k];
        all &= turns[k] != kUnknownTurn;
    }
    all_turns_known_ = all;
}

void FacePlane::take_decided_signs() {
    turns_.fill(kUnknownTurn);
    // The signs the filter decides, at once: winding, convexity and the axis plane ask for
    // all three on most faces, and a call per sign cost more than the test.
    const Approx* bound[3] = {&normal_.bound.x, &normal_.bound.y, &normal_.bound.z};
    for (int axis = 0; axis < 3; ++axis)
        if (bound[axis]->sign_known()) signs_[axis] = static_cast<signed char>(bound[axis]->sign());
}

int FacePlane::compute_corner_turn(int k) const {
    const int n = static_cast<int>(corners_.size());
    const int turn = orient(corners_[k == 0 ? n - 1 : k - 1], corners_[k], corners_[k + 1 == n ? 0 : k + 1]);
    if (static_cast<std::size_t>(n) <= kRememberedTurns) turns_[k] = static_cast<signed char>(turn);
    return turn;
}

inline TurnFilter<double> FacePlane::filter_terms(const Vec3<double>& u, const Vec3<double>& w) const {
    const Vec3<Approx>& n = normal_.bound;
    return turn_filter_terms(u, w, normal_.value, {n.x.error, n.y.error, n.z.error});
}

inline int FacePlane::turn_filter(const Vec3<double>& u, const Vec3<double>& w) const {
    const TurnFilter<double> t = filter_terms(u, w);
    return filtered_sign(t.value, t.bound);
}

inline int FacePlane::filtered_sign(double value, double bound) {
    if (value > bound) return 1;
    if (-value > bound) return -1;
    // A zero bound is an exact zero: every term m_i |N_i| and m_i e_i is 0, and for each
    // component either m_i = 0 (both products 0, hence both exactly 0: differences of float32
    // values are 0 only when equal and their products do not underflow, so c_i = 0 exactly)
    // or N_i's value and error are both 0 (N_i = 0 exactly). So c · N = 0 exactly.
    if (bound == 0) return 0;
    return kUnknownTurn;
}

int FacePlane::orient_filtered(const Point& p, const Point& q, const Point& r) const {
    return turn_filter(q - p, r - q);
}

void FacePlane::remember_corner_turns() const {
    const std::size_t n = corners_.size();
    if (all_turns_known_ || n > kRememberedTurns || n == 0) return;
    // filter_terms for every corner in one loop of plain arithmetic over separate arrays, which
    // GCC at -O3 runs two corners at a time (the same operations in the same order per
    // corner, so the same values); the decisions after, in a second loop. Side j is
    // P_j − P_{j−1} (P_{−1} = P_{n−1}, side n = side 0): corner k's u and w are sides k and
    // k + 1, each subtracted once.
    constexpr std::size_t kMost = kRememberedTurns;
    double sx[kMost + 1], sy[kMost + 1], sz[kMost + 1];
    for (std::size_t j = 0; j < n; ++j) {
        const Point &p = corners_[j == 0 ? n - 1 : j - 1], &q = corners_[j];
        sx[j] = q.x - p.x, sy[j] = q.y - p.y, sz[j] = q.z - p.z;
    }
    sx[n] = sx[0], sy[n] = sy[0], sz[n] = sz[0];
    double value[kMost], bound[kMost];
    for (std::size_t k = 0; k < n; ++k) {
        const TurnFilter<double> t = filter_terms({sx[k], sy[k], sz[k]}, {sx[k + 1], sy[k + 1], sz[k + 1]});
        value[k] = t.value, bound[k] = t.bound;
    }
    for (std::size_t k = 0; k < n; ++k) {
        if (turns_[k] != kUnknownTurn) continue;
        const int s = filtered_sign(value[k], bound[k]);
        turns_[k] = static_cast<signed char>(
            s != kUnknownTurn ? s : orient(corners_[k == 0 ? n - 1 : k - 1], corners_[k], corners_[k + 1 == n ? 0 : k + 1]));
    }
    all_turns_known_ = true;
}

int FacePlane::orient_at(int a, int b, int d) const {
    // (q − p) × (r − q) = p × q + q × r + r × p is the same for every rotation of (p, q, r).
    const int n = static_cast<int>(corners_.size());
    auto next = [&](int i) { return i + 1 == n ? 0 : i + 1; };
    if (next(a) == b && next(b) == d) return corner_turn(b);
    if (next(b) == d && next(d) == a) return corner_turn(d);
    if (next(d) == a && next(a) == b) return corner_turn(a);
    return orient(corners_[a], corners_[b], corners_[d]);
}

const Vec3<Expansion>& FacePlane::exact_normal() const {
    if (!exact_) exact_ = newell_normal<Expansion>(corners_);
    return *exact_;
}


int FacePlane::compute_normal_sign(int axis) const {
    signed char& s = signs_[axis];
    const Approx a = component(normal_.bound, axis);
    s = static_cast<signed char>(a.sign_known() ? a.sign() : component(exact_normal(), axis).sign());
    return s;
}

bool FacePlane::normal_is_zero() const {
    return normal_sign(0) == 0 && normal_sign(1) == 0 && normal_sign(2) == 0;
}

int FacePlane::orient(const Point& p, const Point& q, const Point& r) const {
    if (const int s = orient_filtered(p, q, r); s != kUnknownTurn) return s;
    Vec3<Expansion> ep = lift<Expansion>(p), eq = lift<Expansion>(q), er = lift<Expansion>(r);
    return dot(cross(eq - ep, er - eq), exact_normal()).sign();
}

bool FacePlane::same_projected(const Point& p, const Point& q) const {
    if (same_point(p, q)) return true;
    Vec3<Approx> d = lift<Approx>(p) - lift<Approx>(q);
    Vec3<Approx> c = cross(d, normal_.bound);
    // Any component whose sign is known non-zero settles it; otherwise compute exactly.
    if ((c.x.sign_known() && c.x.sign() != 0) || (c.y.sign_known() && c.y.sign() != 0) ||
        (c.z.sign_known() && c.z.sign() != 0))
        return false;
    Vec3<Expansion> e = cross(lift<Expansion>(p) - lift<Expansion>(q), exact_normal());
    return e.x.sign() == 0 && e.y.sign() == 0 && e.z.sign() == 0;
}

bool zero_area_3d(const Point& p, const Point& q, const Point& r) {
    // Each component of (q − p) × (r − q) is the turn p → q → r in the plane of the other two
    // axes: x in (y, z), y in (z, x), z in (x, y). orient2d_sign's static filter settles a
    // non-zero one at once, and an exact zero along an axis without expansions (Approx's
    // bound, carried through the cross product, could do neither).
    return orient2d_sign(p.y, p.z, q.y, q.z, r.y, r.z) == 0 && orient2d_sign(p.z, p.x, q.z, q.x, r.z, r.x) == 0 &&
           orient2d_sign(p.x, p.y, q.x, q.y, r.x, r.y) == 0;
}

}  // namespace navlab::geometry
