// Synthetic Far Cry 2 navigation data built with navlab's own writer from the documented
// layout (no real sample is public): sectors whose 64 m cell is a grid of quads split into two
// triangles each, with same-sector links in edge order and cross-sector links as extra entries.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "formats/farcry2/level_file.h"
#include "formats/farcry2/sector_file.h"

namespace navlab::farcry2::fixture {

struct FixtureOptions {
    std::uint32_t version = kRetailVersion;
    std::uint32_t quads = 2;  ///< quads per cell side: 2 * quads^2 triangles per sector
    bool tail = true;         ///< append a made-up opaque tail (covers/quadtree stand-in)
};

/// Sectors for the block of rows x columns whose top-left cell is (row0, column0), stitched.
std::vector<SectorFile> make_sectors(std::uint32_t row0, std::uint32_t column0, std::uint32_t rows,
                                     std::uint32_t columns, const FixtureOptions& options = {});

/// Bytes of a sector built from scratch (the writer's "from scratch" warning is dropped).
std::vector<std::uint8_t> sector_bytes(const SectorFile& sector);

/// Writes a folder like a shipped one: `nv/sectors/nv.nvm` (header-only, 80 x 80) and each
/// sector as `nv/sectors/nv_<id>.nvm`, or `nv/nv<id>_<id>.nvm` for every odd-numbered one when
/// `mixed_naming`. Returns the folder.
std::filesystem::path write_world(const std::filesystem::path& dir, const std::vector<SectorFile>& sectors,
                                  bool mixed_naming = false);

/// The example of spec §5.7: sector 2576, one triangle, three empty links, no tail; 140 bytes.
SectorFile spec_example_sector();

}  // namespace navlab::farcry2::fixture
