#include "geometry/convexity.h"

#include <cmath>
#include <vector>

namespace navlab::geometry {

int turn_sign(std::span<const Point> c, std::size_t k) {
    std::size_t n = c.size();
    const Point& prev = c[(k + n - 1) % n];
    const Point& here = c[k];
    const Point& next = c[(k + 1) % n];
    return turn_from_above(prev, here, next);
}

Convexity convexity_from_above(std::span<const Point> c, int winding_y) {
    std::size_t n = c.size();
    int positive = 0, negative = 0;
    // turn_sign's turns with the neighbours carried along the ring, without its two integer
    // divisions (the modulo) per corner: the audit asks this of every face.
    for (std::size_t k = 0, prev = n - 1; k < n; prev = k++) {
        const int turn = turn_from_above(c[prev], c[k], c[k + 1 == n ? 0 : k + 1]);
        positive += turn > 0;
        negative += turn < 0;
    }
    Convexity result;
    result.convex = positive == 0 || negative == 0;
    if (result.convex) return result;
    int reflex = winding_y != 0 ? -winding_y : (positive < negative ? 1 : -1);
    for (std::size_t k = 0; k < n; ++k) {
        if (turn_sign(c, k) != reflex) continue;  // recomputed: non-convex faces are rare, allocations are not
        const Point& prev = c[(k + n - 1) % n];
        const Point& here = c[k];
        const Point& next = c[(k + 1) % n];
        double ux = here.x - prev.x, uz = here.z - prev.z, wx = next.x - here.x, wz = next.z - here.z;
        double sine = std::fabs(uz * wx - ux * wz) / (std::hypot(ux, uz) * std::hypot(wx, wz));
        if (result.reflex_corner < 0 || sine > result.reflex_sine) {
            result.reflex_corner = static_cast<int>(k);
            result.reflex_sine = sine;
        }
    }
    return result;
}

}  // namespace navlab::geometry
