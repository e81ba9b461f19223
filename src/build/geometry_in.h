// Level geometry in: OBJ, glTF/GLB, PLY, FBX (everything Assimp reads) merged into one
// triangle soup in navlab's convention (y up, metres), strictly checked.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "build/triangle_soup.h"

namespace navlab::build {

/// How the files' coordinates become navlab's.
struct GeometryOptions {
    char up = 'y';     ///< the files' up axis: 'y' (as stored) or 'z' (x, y, z -> x, z, -y)
    float scale = 1;   ///< applied after the axis change (e.g. 0.01 for centimetres); > 0
    /// CPU seconds Assimp may take on one file before it is stopped (it runs in a child
    /// process); 0 = 30 s plus 5 s per MB of the file.
    std::uint64_t reader_cpu_seconds = 0;
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
/// coordinate, or a scene without triangles; `scale` must be positive and finite. Assimp reads
/// each file in a child process (io/isolated.h): its crash, its running past the CPU limit or
/// past 2 GiB plus 64 times the file's size of memory is an error naming the file.
LoadedGeometry load_geometry(const std::vector<std::filesystem::path>& files, const GeometryOptions& options);

}  // namespace navlab::build
