// CNavArchive packed vectors (spec §3.6): after a sector's scalar header every vec3 is three
// int16s. X/Y are relative to the centre of the sector's 2-D box with scale 2^(15 - log2(span)),
// span = 2 * round(max(width, height)); Z never uses the box and is absolute in 1/32 m.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "formats/farcry2/grid.h"

namespace navlab::farcry2 {

/// A position in world metres (x east, y north, z up).
struct Vec3 {
    double x = 0, y = 0, z = 0;
    bool operator==(const Vec3&) const = default;
};

/// One packed vec3 as stored: three int16 quanta.
using Packed3 = std::array<std::int16_t, 3>;

/// Z quanta per metre; Z ignores the box.
inline constexpr double kZQuantaPerMetre = 32.0;

/// The dequantisation basis of one sector.
struct Packing {
    double centre_x = 0, centre_y = 0;
    double scale = 1;  ///< X/Y quanta per metre (256 for a 64 m sector)

    /// World position of a packed triple.
    Vec3 decode(const Packed3& q) const {
        return {centre_x + q[0] / scale, centre_y + q[1] / scale, q[2] / kZQuantaPerMetre};
    }
    /// Packs a world position, rounding to the nearest quantum (the engine's rounding is
    /// unknown; re-packing decoded values is exact either way). Returns false, leaving `out`
    /// untouched, when a coordinate does not fit an int16.
    bool encode(const Vec3& p, Packed3& out) const;
};

/// The packing basis of a sector box, or nullopt when the box is not finite, is inverted (max <
/// min), or its span is not a power of two of at least 1 m (the reader reports such a sector as malformed).
std::optional<Packing> packing_for(const Box2& box);

}  // namespace navlab::farcry2
