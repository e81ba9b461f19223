#include "geometry/convexity.h"

#include <cmath>
#include <vector>

namespace navlab::geometry {

namespace {

/// The result once the turns are counted: each reflex corner's sine, for the strongest.
/// `turn(k)` is corner k's turn from above.
template <class Turn>
Convexity classify(std::span<const Point> c, int positive, int negative, int winding_y, Turn turn) {
    const std::size_t n = c.size();
    Convexity result;
    result.convex = positive == 0 || negative == 0;
    if (result.convex) return result;
    const int reflex = winding_y != 0 ? -winding_y : (positive < negative ? 1 : -1);
    for (std::size_t k = 0, prev = n - 1; k < n; prev = k++) {
        if (turn(k, prev) != reflex) continue;
        const Point &before = c[prev], &here = c[k], &after = c[k + 1 == n ? 0 : k + 1];
        double ux = here.x - before.x, uz = here.z - before.z, wx = after.x - here.x, wz = after.z - here.z;
        double sine = std::fabs(uz * wx - ux * wz) / (std::hypot(ux, uz) * std::hypot(wx, wz));
        if (result.reflex_corner < 0 || sine > result.reflex_sine) {
            result.reflex_corner = static_cast<int>(k);
            result.reflex_sine = sine;
        }
    }
    return result;
}

}  // namespace

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
    return classify(c, positive, negative, winding_y, [&](std::size_t k, std::size_t prev) {
        return k < kKept ? turns[k] : turn_from_above(c[prev], c[k], c[k + 1 == n ? 0 : k + 1]);
    });
}

Convexity convexity_from_turns(std::span<const Point> c, std::span<const signed char> turns, int winding_y) {
    if (turns.size() != c.size()) return convexity_from_above(c, winding_y);  // not one turn a corner: take them anew
    int positive = 0, negative = 0;
    for (const signed char t : turns) {
        positive += t > 0;
        negative += t < 0;
    }
    return classify(c, positive, negative, winding_y, [&](std::size_t k, std::size_t) { return turns[k]; });
}

}  // namespace navlab::geometry
