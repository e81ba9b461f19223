// Helpers shared by the reliability tests: crafted hostile inputs made with navlab's own
// writers and the spec's byte layouts (never game files), and running the command.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace navlab::test {

/// A DCX_KRAK file whose stream is `blocks` Kraken memset blocks (spec kraken.md §1.3:
/// block header 0C 06, quantum header 07 FF FF, the value byte), each 256 KiB of `value`:
/// 6 stream bytes per 256 KiB, the densest valid Kraken data (43,690:1).
/// @param declared the DCX uncompressed size; 0 means blocks × 256 KiB.
std::vector<std::uint8_t> memset_krak_dcx(std::size_t blocks, std::uint8_t value, std::uint64_t declared = 0);

/// Writes `bytes` to `path` (plain write: test setup).
void put_file(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes);

/// True when this build runs under AddressSanitizer (its shadow memory cannot live under
/// `ulimit -v`, so memory-limit tests skip there).
bool under_address_sanitizer();

/// Shell-quotes a path for run_command.
std::string quoted(const std::filesystem::path& p);

}  // namespace navlab::test
