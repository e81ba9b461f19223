// `navlab build --game farcry2`: the scene's tiles (64 m, the sector cells) as Far Cry 2
// sector files `nv_<id>.nvm` (one node per triangle, three links each: same-sector neighbours
// and, across tile seams, the neighbouring sector's triangle) plus the level file `nv.nvm`.
//
// Far Cry 2 is z up (x east, y north): a scene point (x, y, z) goes to (x − min_x, z − min_z, y),
// so the grid's first cell is sector 0. That mirror turns navlab's counter-clockwise rings
// clockwise, so corners are reversed: triangles are counter-clockwise seen from +z (the spec
// does not state the retail winding).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "build/pipeline.h"

namespace navlab::build {

struct Fc2File {
    std::string name;                 ///< nv.nvm or nv_<id>.nvm
    std::vector<std::uint8_t> bytes;
};

struct Fc2Result {
    std::vector<Fc2File> files;       ///< level file first, then sectors by id
    std::int64_t triangles = 0, cross_sector_links = 0, same_sector_links = 0;
    std::vector<std::string> warnings;  ///< the sector writer's (no covers / quadtree tail)
    SeamReport seams;
    std::vector<StageTime> stages;
};

/// Builds the sector files and the level file. The tile size is forced to 64 m (the sector
/// cell); area volumes and links are refused (Far Cry 2 nodes carry neither). Throws
/// navlab::Error when the grid passes 80 columns (sector id = row · 80 + column) or a sector
/// passes the 16-bit node index.
Fc2Result build_farcry2(const TriangleSoup& scene, BuildSpec spec, unsigned threads,
                        const TileProgress& progress = {});

}  // namespace navlab::build
