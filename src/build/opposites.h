// Opposite edges of a navmesh's regular edges, as the page defines them: the edge of the face
// on the other side, found from the shared vertex pair, linked both ways.
#pragma once

#include "formats/fromsoft/navmesh.h"

namespace navlab::build {

/// Sets oppositeEdge/oppositeFace of every regular edge whose undirected vertex pair is used
/// by exactly two edges of two different faces (both ways); every other edge keeps NONE.
/// Deterministic. `mesh` holds faces and their regular edges (user edges are left alone).
void link_opposites(fromsoft::NavMesh& mesh);

}  // namespace navlab::build
