// Procedural scenes for Recast: rolling terrain with buildings, stairs, bridges and rocks, as
// one triangle soup (y up, metres). The scene is what Recast voxelises; nothing here is a
// navmesh yet.
#pragma once

#include <cstdint>
#include <vector>

#include "build/triangle_soup.h"

namespace navlab::synth {

using build::TriangleSoup;

/// What goes into one scene. Sizes in metres.
struct SceneParams {
    float size = 96;             ///< the scene covers [0, size] on x and z
    float terrain_step = 2;       ///< terrain grid spacing
    float hill_height = 6;        ///< amplitude of the terrain's rolling hills
    int buildings = 8;           ///< boxes with walkable roofs, each with a staircase
    int bridges = 2;             ///< raised decks on pillars, with ramps at both ends
    int rocks = 20;              ///< small unwalkable blocks that punch holes in the mesh
};

/// Builds the scene for `seed`; the same seed and params give the same soup.
TriangleSoup make_scene(const SceneParams& params, std::uint64_t seed);

}  // namespace navlab::synth
