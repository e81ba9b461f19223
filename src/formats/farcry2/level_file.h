// Far Cry 2 level file `nv.nvm` (CNavMeshLevel::SerializeData, spec §4). Shipped files are a
// header, a zero descriptor table and 24 unknown trailing bytes; the sector meshes live in
// satellite files. Only the tag, world extent, grid, mode flag, count and table were measured;
// the rest of the first 0x40 bytes is laid out by analogy with sector files (spec §4.3) and kept
// as read.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/farcry2/grid.h"
#include "formats/farcry2/versions.h"
#include "io/byte_reader.h"

namespace navlab::farcry2 {

/// Values of the level file's mode flag.
enum LevelMode : std::uint32_t {
    kModeSingleFileOld = 0,  ///< single file (also the implicit value below 0x10000)
    kModeSingleFile = 2,     ///< single file; every shipped level file
    kModeSatellites = 3,     ///< one satellite file per non-zero descriptor
};

struct LevelFile {
    std::uint32_t word_00 = 0;              ///< 0x00: unknown (0 by analogy with sector files)
    std::uint32_t version = kRetailVersion; ///< 0x08: format version [inference: same slot as sectors]
    std::uint32_t word_0c = 0;              ///< 0x0C: unknown (a size by analogy)
    Box2 box;                               ///< 0x10: max x / max y (0x18 / 0x1C) = world extent (measured)
    std::array<std::uint32_t, 2> words_20{};     ///< 0x20, 0x24: unknown
    std::array<std::uint32_t, 6> header_words{}; ///< 0x28..0x3F: fields +0x54..+0x68, meaning unknown
    std::uint32_t grid_x = 0;  ///< 0x40: field +0x6C, grid dimension; present from 0x10000
    std::uint32_t grid_y = 0;  ///< 0x44: field +0x70, grid dimension; present from 0xFFFF
    std::uint32_t mode = kModeSingleFile;  ///< 0x48: present from 0x10000, else implicitly 0
    std::vector<std::uint32_t> descriptors;  ///< one per sector; non-zero = "sector has data"
    std::vector<std::uint8_t> tail;          ///< bytes after the table (24 unknown bytes when shipped)

    bool has_grid_x() const { return version >= kLevelModeVersion; }
    bool has_grid_y() const { return version >= kLevelGridYVersion; }
    bool has_mode() const { return version >= kLevelModeVersion; }
};

/// Absolute offset of the descriptor table (0x50 from version 0x10000, earlier below it).
inline std::size_t descriptor_table_offset(const LevelFile& level) {
    return 0x44 + 4 * (std::size_t{level.has_grid_x()} + level.has_grid_y() + level.has_mode());
}

/// Parses a level file. Throws navlab::Error (offset + field) on a bad tag, a version newer than
/// kNewestVersion, or a sector count whose table does not fit the file. Trailing bytes are kept.
LevelFile read_level(Bytes bytes);

/// Serialises a level file; fields absent at its version are not written.
/// Throws navlab::Error when the version is newer than the reader knows.
std::vector<std::uint8_t> write_level(const LevelFile& level);

/// A level file shaped like the shipped ones (spec §4 "writer advice"): retail version, mode 2,
/// box (0, 0)-(extent), a zero table of grid_x * grid_y entries and 24 zero trailing bytes
/// (the real 24 bytes are unknown; copy them from a retail file of the same kind when shipping).
/// @param grid_x, grid_y sector grid dimensions; extent = 64 m per sector.
LevelFile header_only_level(std::uint32_t grid_x, std::uint32_t grid_y);

}  // namespace navlab::farcry2
