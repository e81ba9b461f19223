// Which game an install belongs to, and what follows from it: the archive stems in its
// `Game/` folder, the BHD5 file-header layout and the path-hash width (spec bhd5.md §0).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace navlab::archive {

/// Sekiro uses the Dark Souls 3 BHD5 layout and 32-bit ×37 path hashes; Elden Ring its own
/// layout and 64-bit ×133 hashes.
enum class Game { Sekiro, EldenRing };

/// "sekiro" or "eldenring" (the --game spelling and the keys sub-folder).
std::string_view game_name(Game game);
/// Parses "sekiro" or "eldenring" (also "er", "elden-ring", case-insensitive); throws
/// navlab::Error otherwise.
Game parse_game(std::string_view name);

/// The archive stems of a game relative to `Game/`, in the game's own order:
/// Sekiro Data1..Data5; Elden Ring Data0..Data3, DLC, sd/sd, sd/sd_dlc02.
std::span<const std::string_view> archive_stems(Game game);

/// Size in bytes of one BHD5 file header (0x28 in both layouts).
inline constexpr std::size_t kFileHeaderSize = 0x28;

}  // namespace navlab::archive
