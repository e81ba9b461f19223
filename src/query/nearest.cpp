// Point-on-piece geometry and the nearest-face search over the box tree.
#include <algorithm>
#include <limits>

#include "query/query_mesh.h"

namespace navlab::query {
namespace {

Vec3 closest_on_segment(const Vec3& a, const Vec3& b, const Vec3& q) {
    Vec3 d{b.x - a.x, b.y - a.y, b.z - a.z};
    double dd = d.x * d.x + d.y * d.y + d.z * d.z;
    double t = dd > 0 ? ((q.x - a.x) * d.x + (q.y - a.y) * d.y + (q.z - a.z) * d.z) / dd : 0;
    return lerp(a, b, std::clamp(t, 0.0, 1.0));
}

/// Height bonus of a face straight below or above the query point (Detour: walkableClimb).
constexpr double kNearestClimb = 0.5;

bool overlaps(const Box& b, const Vec3& q, const Vec3& e) {
    return q.x - e.x <= b.max[0] && q.x + e.x >= b.min[0] && q.y - e.y <= b.max[1] && q.y + e.y >= b.min[1] &&
           q.z - e.z <= b.max[2] && q.z + e.z >= b.min[2];
}

}  // namespace

bool NavMeshQuery::Impl::inside_xz(std::size_t p, P2 q, double eps) const {
    std::uint32_t n = corners(p);
    for (std::uint32_t k = 0; k < n; ++k) {
        P2 a = xz(corner(p, k)), b = xz(corner(p, (k + 1) % n));
        double len = std::hypot(b.x - a.x, b.z - a.z);
        if (orient2(a, b, q) < -eps * std::max(1.0, len)) return false;
    }
    return true;
}

double NavMeshQuery::Impl::height_at(std::size_t p, P2 q) const {
    std::uint32_t n = corners(p);
    const Vec3& a = corner(p, 0);
    double best_y = a.y, best_out = std::numeric_limits<double>::max();
    for (std::uint32_t k = 1; k + 1 < n; ++k) {
        const Vec3 &b = corner(p, k), &c = corner(p, k + 1);
        double d = orient2(xz(a), xz(b), xz(c));
        if (d == 0) continue;
        double u = orient2(q, xz(b), xz(c)) / d, v = orient2(xz(a), q, xz(c)) / d, w = 1 - u - v;
        double out = std::max({-u, -v, -w, 0.0});
        if (out < best_out) best_out = out, best_y = u * a.y + v * b.y + w * c.y;
        if (out == 0) break;
    }
    if (best_out == std::numeric_limits<double>::max()) {
        // No triangle with area seen from above: the mean height.
        double s = 0;
        for (std::uint32_t k = 0; k < n; ++k) s += corner(p, k).y;
        return s / n;
    }
    return best_y;
}

Vec3 NavMeshQuery::Impl::closest_on_piece(std::size_t p, const Vec3& q) const {
    if (inside_xz(p, xz(q), 0)) {
        double area = 0;
        for (std::uint32_t k = 0; k < corners(p); ++k) area += cross2(xz(corner(p, k)), xz(corner(p, (k + 1) % corners(p))));
        if (area > 0) return {q.x, height_at(p, xz(q)), q.z};
    }
    Vec3 best = corner(p, 0);
    double bd = std::numeric_limits<double>::max();
    for (std::uint32_t k = 0; k < corners(p); ++k) {
        Vec3 c = closest_on_segment(corner(p, k), corner(p, (k + 1) % corners(p)), q);
        double d = dist3(c, q);
        if (d < bd) bd = d, best = c;
    }
    return best;
}

std::int64_t NavMeshQuery::Impl::nearest_piece(const Vec3& q, const Vec3& ext, Vec3& point, bool linear) const {
    std::int64_t best = -1;
    double bd = std::numeric_limits<double>::max(), btrue = bd;
    auto consider = [&](std::uint32_t p) {
        Vec3 c = closest_on_piece(p, q);
        double true_d = dist3(c, q), d = true_d;
        // Detour's rule: a face the point is over counts its vertical distance less the climb.
        if (c.x == q.x && c.z == q.z) d = std::max(0.0, d - kNearestClimb);
        // Ties (layers within the climb) go to the truly closer face, then the lower piece,
        // so answers do not depend on the tree.
        if (d < bd || (d == bd && (true_d < btrue || (true_d == btrue && static_cast<std::int64_t>(p) < best))))
            bd = d, btrue = true_d, best = p, point = c;
    };
    if (linear) {
        for (std::uint32_t p = 0; p < pieces(); ++p) {
            Box b;
            b.min = b.max = {static_cast<float>(corner(p, 0).x), static_cast<float>(corner(p, 0).y), static_cast<float>(corner(p, 0).z)};
            for (std::uint32_t k = 1; k < corners(p); ++k) {
                float c[3] = {static_cast<float>(corner(p, k).x), static_cast<float>(corner(p, k).y), static_cast<float>(corner(p, k).z)};
                for (int a = 0; a < 3; ++a) b.min[a] = std::min(b.min[a], c[a]), b.max[a] = std::max(b.max[a], c[a]);
            }
            if (overlaps(b, q, ext)) consider(p);
        }
        return best;
    }
    const auto& nodes = tree.nodes;
    std::uint32_t i = 0;
    while (i < nodes.size()) {
        const FlatTree::Node& n = nodes[i];
        if (!overlaps(n.box, q, ext)) {
            i = n.skip;
            continue;
        }
        if (n.item >= 0) {
            if (stored_tree) {
                for (std::uint32_t p = face_first_piece[n.item]; p < face_first_piece[n.item + 1]; ++p) consider(p);
            } else {
                consider(static_cast<std::uint32_t>(n.item));
            }
        }
        ++i;
    }
    return best;
}

double NavMeshQuery::Impl::piece_weight(std::size_t p, const QueryFilter& f) const {
    std::uint32_t bits = face_bits[piece_face[p]];
    if (bits & f.exclude_bits) return 0;
    double w = 1;
    for (const auto& [bit, m] : f.cost_multipliers)
        if (bit >= 0 && bit < 32 && (bits >> bit & 1u)) w = std::max(w, m);
    return w;
}

}  // namespace navlab::query
