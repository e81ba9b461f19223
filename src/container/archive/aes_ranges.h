// The AES layer of a .bdt file (spec bhd5.md §4): the ranges of an AES record are stored
// encrypted with AES-128 in ECB mode (no IV, no padding) under the record's key; bytes
// outside them are in clear.
#pragma once

#include <cstdint>
#include <span>

#include "container/archive/bhd5.h"

namespace navlab::archive {

/// Decrypts (or, for the test writer, encrypts) every non-empty range of `aes` in place.
/// The ranges must have passed check_aes_ranges against data.size(); throws navlab::Error
/// when a range does not fit `data` or OpenSSL fails.
void apply_aes_ranges(std::span<std::uint8_t> data, const AesRecord& aes, bool encrypt);

}  // namespace navlab::archive
