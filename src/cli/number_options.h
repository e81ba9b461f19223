// Checks of number options as the command line is read: CLI11 reads "-1" into an unsigned
// option as 2^64 - 1, and "99999999999999999999" as the largest value, without a word.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>

namespace navlab::cli {

/// A CLI11 transform (`->transform(whole_number(N))`: a `->check` may not change the text)
/// that the option's text is a whole number from 0 to `most` (decimal digits
/// only; 0x... for masks when `hex` is true), so that a negative or too large value is a
/// usage error (exit 2) naming the option, not a wrapped or saturated number. An accepted value
/// is handed on as plain decimal (CLI11 would read "010" as octal 8).
CLI::Validator whole_number(std::uint64_t most, bool hex = false);

/// A CLI11 check that the option's text is a finite number above 0 (a scale), so that 0, a
/// negative value or "inf" is a usage error; `example` is shown in the message ("0.01 for
/// centimetres").
CLI::Validator positive_number(const std::string& example);

}  // namespace navlab::cli
