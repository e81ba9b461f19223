// hkHalf16: Havok's 16-bit float is the upper half of an IEEE-754 float32 (1 sign bit,
// 8 exponent bits, 7 mantissa bits), not IEEE binary16 (tagfile spec §5.4). Its range is
// float32's; its precision is 8 significant bits (relative step 2^-7).
#pragma once

#include <bit>
#include <cstdint>

namespace navlab::fromsoft {

/// The float a stored hkHalf16 stands for (exact: the low 16 bits become zero).
/// @param half the raw 16 bits as stored in the file.
constexpr float half16_to_float(std::uint16_t half) noexcept {
    return std::bit_cast<float>(static_cast<std::uint32_t>(half) << 16);
}

/// The hkHalf16 nearest to `value` (round to nearest, ties to even; a value past the largest
/// finite half becomes infinity as in IEEE rounding). NaN stays a (quiet) NaN of the same sign.
/// @param value any float.
constexpr std::uint16_t float_to_half16(float value) noexcept {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0)
        return static_cast<std::uint16_t>((bits >> 16) | 0x0040u);  // NaN: keep it a NaN
    const std::uint32_t rounded = bits + 0x7FFFu + ((bits >> 16) & 1u);
    return static_cast<std::uint16_t>(rounded >> 16);
}

/// The hkHalf16 made by dropping the low 16 bits of `value` (rounds toward zero).
/// @param value any float.
constexpr std::uint16_t float_to_half16_truncated(float value) noexcept {
    return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(value) >> 16);
}

}  // namespace navlab::fromsoft
