#include "container/archive/game.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "io/error.h"

namespace navlab::archive {

std::string_view game_name(Game game) { return game == Game::Sekiro ? "sekiro" : "eldenring"; }

Game parse_game(std::string_view name) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "sekiro") return Game::Sekiro;
    if (lower == "eldenring" || lower == "er" || lower == "elden-ring" || lower == "elden_ring") return Game::EldenRing;
    throw Error("unknown game '" + std::string(name) + "' (sekiro or eldenring)");
}

std::span<const std::string_view> archive_stems(Game game) {
    static constexpr std::array<std::string_view, 5> sekiro = {"Data1", "Data2", "Data3", "Data4", "Data5"};
    static constexpr std::array<std::string_view, 7> elden_ring = {"Data0", "Data1", "Data2",      "Data3",
                                                                   "DLC",   "sd/sd", "sd/sd_dlc02"};
    if (game == Game::Sekiro) return sekiro;
    return elden_ring;
}

}  // namespace navlab::archive
