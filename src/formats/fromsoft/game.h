// The FromSoftware games navlab knows, and how a tagfile says which one it belongs to: its
// Havok SDK version (SDKV section; audit-rules.md A6). One enum for the audit, synth and tools.
#pragma once

#include <cstdint>
#include <string_view>

namespace navlab::fromsoft {

/// SDKV values of the two games.
inline constexpr std::uint32_t kSdkSekiro = 20160200;
inline constexpr std::uint32_t kSdkEldenRing = 20180100;

/// A game; Other for any SDK version neither game ships. The values index per-game arrays.
enum class Game { Sekiro, EldenRing, Other };

/// The game of an SDKV string ("20160200" -> Sekiro, "20180100" -> EldenRing, else Other).
constexpr Game game_of_sdk(std::string_view sdk) noexcept {
    if (sdk == "20160200") return Game::Sekiro;
    if (sdk == "20180100") return Game::EldenRing;
    return Game::Other;
}

/// The game of a numeric SDK version.
constexpr Game game_of_sdk(std::uint32_t sdk) noexcept {
    return sdk == kSdkSekiro ? Game::Sekiro : sdk == kSdkEldenRing ? Game::EldenRing : Game::Other;
}

}  // namespace navlab::fromsoft
