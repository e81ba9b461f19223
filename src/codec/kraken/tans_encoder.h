// tANS byte-array payloads (type 1, spec 2.4): Golomb-form weight table, the decoder's
// 4-lane table mirrored for encoding, five interleaved states run backwards.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace navlab::kraken::detail {

/// The type-1 payload (weight table + data streams) of `data` with byte counts `histogram`
/// (at least 2 symbols present, data.size() >= 32); nothing when the format's limits fail.
std::optional<std::vector<std::uint8_t>> tans_payload(std::span<const std::uint8_t> data,
                                                      const std::array<std::uint32_t, 256>& histogram);

/// Estimated payload bytes of tans_payload(): the coded bits at normalised weights plus a
/// table allowance; for deciding whether to write it.
std::size_t tans_estimate(std::size_t size, const std::array<std::uint32_t, 256>& histogram);

}  // namespace navlab::kraken::detail
