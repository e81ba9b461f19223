// Far Cry 2 world meshes as OBJ or JSON, triangles in world metres (x east, y north, z up; no
// axis swap, so OBJ viewers that assume y-up show the map lying on its side).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "formats/farcry2/world.h"

namespace navlab::farcry2 {

/// Wavefront OBJ text: every vertex, then one group `sector_<id>` of faces per sector.
std::string to_obj(const WorldMesh& mesh);

/// JSON: per sector its id, grid row/column, vertices ([x, y, z] world metres), and triangles
/// with sector-local corner indices and their resolved neighbours (global triangle index,
/// null for an empty entry, "broken" for a target outside the export).
nlohmann::json to_json(const WorldMesh& mesh);

}  // namespace navlab::farcry2
