#include "geometry/convexity.h"

#include <cmath>
#include <vector>

namespace navlab::geometry {

Convexity convexity_from_above(std::span<const Point> c, int winding_y) {
    const std::size_t n = c.size();
    int positive = 0, negative = 0;
    // Each turn once, with the neighbours carried along the ring (no integer division per
    // corner), kept for the reflex corners' pass on rings up to kKept corners: the audit asks
    // this of every face the one loop does not take, a third of them not convex.
    constexpr std::size_t kKept = 32;
    signed char turns[kKept];
    for (std::size_t k = 0, prev = n - 1; k < n; prev = k++) {
        const int turn = turn_from_above(c[prev], c[k], c[k + 1 == n ? 0 : k + 1]);
        positive += turn > 0;
        negative += turn < 0;
        if (k < kKept) turns[k] = static_cast<signed char>(turn);
    }
    Convexity result;
    result.convex = positive == 0 || negative == 0;
    if (result.convex) return result;
    const int reflex = winding_y != 0 ? -winding_y : (positive < negative ? 1 : -1);
    for (std::size_t k = 0, prev = n - 1; k < n; prev = k++) {
        const std::size_t next = k + 1 == n ? 0 : k + 1;
        if ((k < kKept ? turns[k] : turn_from_above(c[prev], c[k], c[next])) != reflex) continue;
        const Point &before = c[prev], &here = c[k], &after = c[next];
        double ux = here.x - before.x, uz = here.z - before.z, wx = after.x - here.x, wz = after.z - here.z;
        double sine = std::fabs(uz * wx - ux * wz) / (std::hypot(ux, uz) * std::hypot(wx, wz));
        if (result.reflex_corner < 0 || sine > result.reflex_sine) {
            result.reflex_corner = static_cast<int>(k);
            result.reflex_sine = sine;
        }
    }
    return result;
}

}  // namespace navlab::geometry
