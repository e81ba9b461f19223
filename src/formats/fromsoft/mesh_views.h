// Convenience views of one face of an hkaiNavMesh: its edges, vertex ring, neighbours and user
// edges. Each checks the face's ranges and throws navlab::Error (field "face N") when they
// point outside the mesh, so callers can use the results without further checks.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "formats/fromsoft/navmesh.h"

namespace navlab::fromsoft {

/// The face's regular edges (numEdges from startEdgeIndex), in ring order.
/// @param mesh the navmesh; @param face a face index.
std::span<const Edge> face_edges(const NavMesh& mesh, std::size_t face);

/// The face's user edges (numUserEdges from startUserEdgeIndex); empty when it has none.
/// @param mesh the navmesh; @param face a face index.
std::span<const Edge> face_user_edges(const NavMesh& mesh, std::size_t face);

/// The face's corners: the start vertex `a` of each regular edge, in ring order; every index
/// is checked against the vertices.
/// @param mesh the navmesh; @param face a face index.
std::vector<std::int32_t> face_vertex_ring(const NavMesh& mesh, std::size_t face);

/// The face across each regular edge (its oppositeFace; kNoOpposite on the boundary), in
/// ring order.
/// @param mesh the navmesh; @param face a face index.
std::vector<std::uint32_t> face_neighbours(const NavMesh& mesh, std::size_t face);

/// Number of regular edges: the sum of numEdges over the faces (edges at and after it are
/// user edges when the mesh is well formed).
std::size_t regular_edge_count(const NavMesh& mesh) noexcept;

}  // namespace navlab::fromsoft
