// The BHD5 path hash (spec bhd5.md §3): a path is normalised (alias prefix dropped, '\' to
// '/', ASCII lower case, one leading '/') and folded as h = h * P + c with wrap-around:
// Sekiro 32-bit, P = 37; Elden Ring 64-bit, P = 133.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "container/archive/game.h"

namespace navlab::archive {

/// The hashed form of `path`: "data2:/map/X" -> "/map/x", "MAP\\A" -> "/map/a".
std::string normalize_archive_path(std::string_view path);

/// Sekiro hash (32-bit, ×37) of the normalised path.
std::uint32_t path_hash32(std::string_view path);
/// Elden Ring hash (64-bit, ×133) of the normalised path.
std::uint64_t path_hash64(std::string_view path);
/// The hash `game` uses, widened to 64 bits (Sekiro hashes have zero high bits).
std::uint64_t path_hash(Game game, std::string_view path);

/// Folds already-normalised characters onto h: the step shared by path_hash and the
/// candidate search, which hashes a fixed prefix once.
template <class UInt, UInt Prime>
constexpr UInt fold_path_hash(UInt h, std::string_view normalized) {
    for (char c : normalized) h = static_cast<UInt>(h * Prime + static_cast<unsigned char>(c));
    return h;
}

/// Formats a hash as the spec writes it: 0x + 8 (Sekiro) or 16 (Elden Ring) hex digits.
std::string format_hash(Game game, std::uint64_t hash);

}  // namespace navlab::archive
