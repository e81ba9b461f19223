#include "formats/farcry2/packing.h"

#include <cmath>

namespace navlab::farcry2 {
namespace {

bool to_int16(double v, std::int16_t& out) {
    const double r = std::nearbyint(v);
    if (!(r >= -32768.0 && r <= 32767.0)) return false;  // also rejects NaN
    out = static_cast<std::int16_t>(r);
    return true;
}

}  // namespace

bool Packing::encode(const Vec3& p, Packed3& out) const {
    Packed3 q;
    if (!to_int16((p.x - centre_x) * scale, q[0]) || !to_int16((p.y - centre_y) * scale, q[1]) ||
        !to_int16(p.z * kZQuantaPerMetre, q[2]))
        return false;
    out = q;
    return true;
}

std::optional<Packing> packing_for(const Box2& box) {
    const double w = double(box.max_x) - box.min_x, h = double(box.max_y) - box.min_y;
    if (!std::isfinite(w) || !std::isfinite(h) || w < 0 || h < 0) return std::nullopt;
    const double span = 2.0 * std::round(std::max(w, h));
    if (!(span >= 1.0 && span <= 65536.0)) return std::nullopt;
    int exponent = 0;
    if (std::frexp(span, &exponent) != 0.5) return std::nullopt;  // not a power of two
    const int log2_span = exponent - 1;
    return Packing{(double(box.min_x) + box.max_x) / 2, (double(box.min_y) + box.max_y) / 2,
                   std::ldexp(1.0, 15 - log2_span)};
}

}  // namespace navlab::farcry2
