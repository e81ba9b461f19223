// PLY export of a scene: binary little-endian, the polygons as stored (not triangulated).
//
//   element vertex N: float x, y, z (metres, +y up: scene.h); int member
//   element face F:   list uchar int vertex_indices; int member; int face (index in its
//                     member); int face_data (first faceData word as stored); short cluster
//                     (Sekiro, -1 none); uchar corners
// Members' vertices follow one another in member order; comments carry navlab's version, the
// source and the member names. Faces whose ring does not read (scene.h gives them no corner)
// are left out, so F can be below the scene's face count; lines are not written.
#pragma once

#include <cstdint>
#include <vector>

#include "export/scene.h"

namespace navlab::exporter {

/// The scene as PLY bytes. Throws navlab::Error for a face of more than 255 corners.
std::vector<std::uint8_t> scene_to_ply(const Scene& scene);

}  // namespace navlab::exporter
