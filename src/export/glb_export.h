// glTF 2.0 binary (GLB) export of a scene, written with tinygltf (Debian libtinygltf-dev).
//
// Per member one node (named like the member) with one mesh of up to three primitives:
//   TRIANGLES  navlab's triangulation; vertices are the face corners (not shared between faces,
//              so per-face values can ride on them): POSITION, _FACE (face index), _FACE_DATA and
//              _FACE_DATA_HI (low 24 and high 8 bits of the first faceData word), _CLUSTER (Sekiro
//              cluster, -1 none), _EDGE_FLAGS (flags of the edge leaving the corner). Custom
//              attributes are FLOAT scalars holding integers below 2^24 (docs/export.md says why).
//   LINES      user edges (FromSoftware, from owning face centre to opposite face centre), IGI
//              links, Far Cry 2 cross-sector links: POSITION, _EDGE (edge or link index), _FLAGS.
//   POINTS     IGI nodes: POSITION, _NODE_ID.
// asset.extras holds the source path, navlab's version and the input family; node extras the
// member's face count (and Far Cry 2 sector id). Units: metres, +y up (scene.h).
#pragma once

#include <cstdint>
#include <vector>

#include "export/scene.h"

namespace navlab::exporter {

/// The scene as GLB bytes. A scene with nothing to draw gives a valid GLB with no nodes.
std::vector<std::uint8_t> scene_to_glb(const Scene& scene);

}  // namespace navlab::exporter
