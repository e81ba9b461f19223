#include "geometry/convexity.h"

#include <cmath>
#include <vector>

#include "geometry/orient2d.h"

namespace navlab::geometry {

int turn_sign(std::span<const Point> c, std::size_t k) {
    std::size_t n = c.size();
    const Point& prev = c[(k + n - 1) % n];
    const Point& here = c[k];
    const Point& next = c[(k + 1) % n];
    // uz·wx − ux·wz with u = here − prev, w = next − here: the turn in (z, x).
    return orient2d_sign(prev.z, prev.x, here.z, here.x, next.z, next.x);
}

Convexity convexity_from_above(std::span<const Point> c, int winding_y) {
    std::size_t n = c.size();
    int positive = 0, negative = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const int turn = turn_sign(c, k);
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
