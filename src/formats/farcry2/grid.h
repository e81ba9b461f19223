// Far Cry 2 world grid: global sector ids, the cell each covers, and the two sector file
// namings the engine's CNavMeshLevel::MakeSectorFileName builds (spec §2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace navlab::farcry2 {

/// Campaign worlds are 80 x 80 sectors; sector id = row * 80 + column.
inline constexpr std::uint32_t kGridColumns = 80;
/// Edge length of one sector cell in metres.
inline constexpr float kSectorMetres = 64.0f;
/// File name of the level file (shipped in `nv\sectors\nv.nvm`).
inline constexpr std::string_view kLevelFileName = "nv.nvm";

/// An axis-aligned 2-D box in world metres (x east, y north); sector files store no Z extent.
struct Box2 {
    float min_x = 0, min_y = 0, max_x = 0, max_y = 0;
    bool operator==(const Box2&) const = default;
};

/// Global sector id of the cell at (row, column) of the 80-column world grid.
constexpr std::uint32_t sector_id(std::uint32_t row, std::uint32_t column) { return row * kGridColumns + column; }
constexpr std::uint32_t sector_row(std::uint32_t id) { return id / kGridColumns; }
constexpr std::uint32_t sector_column(std::uint32_t id) { return id % kGridColumns; }

/// The 64 m cell of a sector id: min = (column * 64, row * 64). Spec §2 infers this from the
/// measured box of sector 2576; the checker reports sectors whose box differs.
Box2 sector_cell(std::uint32_t id);

/// The two path forms of MakeSectorFileName(name, index, doubled).
enum class SectorNaming {
    Satellite,  ///< `nv\sectors\nv_<index>.nvm` — the form shipped satellites use
    Doubled,    ///< `nv\nv<index>_<index>.nvm` — the same index twice; no known use
};

/// Engine-style relative path (backslashes) of a sector file, e.g. `nv\sectors\nv_2576.nvm`.
std::string sector_path(std::uint32_t index, SectorNaming naming);
/// File name alone: `nv_2576.nvm` or `nv2576_2576.nvm`.
std::string sector_file_name(std::uint32_t index, SectorNaming naming);

/// Sector index named by a file name in either form (case-insensitive, decimal, no sign),
/// or nullopt when the name is neither form, the two indices of the doubled form differ,
/// or the index does not fit the 16-bit sector id.
std::optional<std::uint32_t> parse_sector_file_name(std::string_view file_name);

/// Whether a file name is the level file's (`nv.nvm`, case-insensitive).
bool is_level_file_name(std::string_view file_name);

}  // namespace navlab::farcry2
