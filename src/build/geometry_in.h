// Level geometry in: OBJ, glTF/GLB, PLY, FBX (everything Assimp reads) merged into one
// triangle soup in navlab's convention (y up, metres), strictly checked.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "build/triangle_soup.h"

namespace navlab::build {

/// How the files' coordinates become navlab's.
struct GeometryOptions {
    char up = 'y';     ///< the files' up axis: 'y' (as stored) or 'z' (x, y, z -> x, z, -y)
    float scale = 1;   ///< applied after the axis change (e.g. 0.01 for centimetres); > 0
};

/// What was loaded, for the report printed before the build.
struct LoadedGeometry {
    TriangleSoup soup;
    std::array<float, 3> min{}, max{};       ///< bounds of every vertex, after up/scale
    std::vector<int> triangles_per_file;       ///< in input order
};

/// Loads and merges `files` (node transforms applied, polygons triangulated, meshes of lines
/// or points refused). Throws navlab::Error naming the file and the element (mesh, face,
/// vertex) for a file Assimp cannot read, a face with fewer than 3 corners, a NaN or infinite
/// coordinate, or a scene without triangles; `scale` must be positive and finite.
LoadedGeometry load_geometry(const std::vector<std::filesystem::path>& files, const GeometryOptions& options);

}  // namespace navlab::build
