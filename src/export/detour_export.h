// Detour export of a scene: a navmesh set file as RecastDemo saves it ("MSET"), which
// RecastDemo, Detour and the tools built on them load and query.
//
// File layout (little-endian, the structs RecastDemo's Sample_TileMesh writes):
//   NavMeshSetHeader { int32 magic 'MSET'; int32 version 1; int32 numTiles; dtNavMeshParams }
//   numTiles × { NavMeshTileHeader { dtTileRef tileRef; int32 dataSize }, dataSize bytes }
// where each tile's bytes come from dtCreateNavMeshData. navlab's faces are split into convex
// polygons of at most 6 corners (DT_VERTS_PER_POLYGON) by merging the triangles of navlab's
// triangulation inside each face, wound counter-clockwise seen from +y as Detour expects (faces
// stored clockwise are turned); polygons are linked where they share two corners (welded by
// quantised position: inside a tagfile, or across the whole Far Cry 2 world so sectors join)
// and, where no polygon shares a side, across the face's stored opposite.
// FromSoftware user edges become one-way off-mesh connections from the owning face's centre to
// the opposite face's centre. Members are packed into as few tiles as fit Detour's limits
// (65,534 vertices and 32,767 polygons per tile), all in grid cell (0, 0) on successive layers.
#pragma once

#include <cstdint>
#include <vector>

#include "export/scene.h"

namespace navlab::exporter {

/// Detour's ceiling on tiles seen by one query (dtNavMeshQuery::queryPolygons looks at 32 tiles
/// per grid cell); navlab refuses scenes that need more layers.
inline constexpr int kMaxDetourTiles = 32;

struct DetourSet {
    std::vector<std::uint8_t> bytes;  ///< the MSET file
    int tiles = 0;
    int polygons = 0;       ///< Detour polygons (≤ 6 corners) over all tiles
    int off_mesh = 0;       ///< off-mesh connections written
    float cell_size = 0;    ///< quantisation step in x and z (metres)
    float cell_height = 0;  ///< quantisation step in y (metres)
};

/// The scene as a Detour navmesh set. A scene without faces gives a set of 0 tiles.
/// Throws navlab::Error when Detour rejects the data or the scene needs more than
/// kMaxDetourTiles tiles (the message suggests --entry).
DetourSet scene_to_detour_set(const Scene& scene);

/// Detour's 16-bit cells span the scene's larger horizontal extent in this many steps: the
/// cell size is that extent divided by it (at least 1 mm).
inline constexpr float kDetourQuantumSteps = 60000.0f;

}  // namespace navlab::exporter
