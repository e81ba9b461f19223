// A triangle soup: the level geometry Recast voxelises (y up, metres). Synth's procedural
// scenes and the geometry `navlab build` loads through Assimp are both held this way.
#pragma once

#include <vector>

namespace navlab::build {

/// Triangles over a shared vertex array: verts = x,y,z per vertex; tris = 3 indices each.
struct TriangleSoup {
    std::vector<float> verts;
    std::vector<int> tris;

    int vertex_count() const { return static_cast<int>(verts.size() / 3); }
    int triangle_count() const { return static_cast<int>(tris.size() / 3); }
};

}  // namespace navlab::build
