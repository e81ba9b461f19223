// Recast, used for real: a scene's triangle soup is voxelised, filtered, eroded, split into
// regions, traced into contours and turned into a polygon mesh (at most 6 corners a
// polygon); the detail mesh then gives the heights, and its triangles (corners, edge samples
// and interior samples) are the base the Havok faces are merged from. Havok meshes keep
// interior vertices, Recast polygons do not, so the triangles are the closer start.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "synth/scene.h"

namespace navlab::synth {

/// Recast build settings (Recast's own units: cells for the voxel grid, metres elsewhere).
struct RecastParams {
    float cellSize = 0.4f;         ///< voxel size on x and z
    float cellHeight = 0.2f;       ///< voxel size on y
    float agentHeight = 2.0f;
    float agentRadius = 0.4f;
    float agentClimb = 0.45f;
    float maxSlopeDegrees = 45;
    float maxEdgeLength = 8;       ///< longest contour edge, metres
    float maxSimplificationError = 1.1f;
    int minRegionCells = 16;       ///< smaller islands are dropped
    int mergeRegionCells = 200;
    float detailSampleDistance = 2.5f;
    float detailMaxError = 0.2f;
};

/// A mesh in world coordinates: polygons (here the welded detail triangles) are rings of
/// vertex indices, wound counter-clockwise seen from +y (as Havok wants), each tagged with
/// the Recast region of the polygon it came from.
struct PolyMesh {
    std::vector<std::array<float, 3>> verts;
    std::vector<std::vector<int>> polys;
    std::vector<std::uint16_t> regions;
};

/// Runs the whole Recast pipeline on `scene`. Throws navlab::Error when a Recast step fails.
PolyMesh build_recast_mesh(const TriangleSoup& scene, const RecastParams& params);

}  // namespace navlab::synth
