// The cluster graph of a navmesh, as the page ../shared/seeds/000 defines Sekiro's
// hkaiDirectedGraphExplicitCost: one node per clusterIndex of the faces (numbered from 0),
// an edge x -> y exactly when an edge of a face of cluster x has its opposite in a face of
// cluster y (x != y), once and in both directions.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/fromsoft/navmesh.h"

namespace navlab::fromsoft {

/// Adjacency in compressed rows: node x's targets are targets[offsets[x] .. offsets[x+1]),
/// ascending. Nodes are 0 .. node_count-1 with node_count = largest clusterIndex + 1.
struct ClusterGraph {
    std::uint32_t node_count = 0;
    std::vector<std::uint32_t> offsets;  ///< node_count + 1 entries (a single 0 when empty)
    std::vector<std::uint32_t> targets;
    std::vector<std::uint32_t> face_counts;  ///< faces per cluster (0 = a number never used)
};

/// Builds the cluster graph of `mesh` from its faces' clusterIndex and the oppositeFace of
/// every edge a face owns (regular and user edges). Deterministic: nodes in index order, each
/// node's targets ascending, no self-loops, no duplicates.
/// Throws navlab::Error (field "face N") when a clusterIndex is negative, an edge range lies
/// outside the edges, or an oppositeFace other than 0xFFFFFFFF is not a face.
/// @param mesh the navmesh (a mesh without faces gives the empty graph).
ClusterGraph build_cluster_graph(const NavMesh& mesh);

/// The corner centroid of face `face` (mean of the xyz of its regular edges' `a` vertices).
/// Throws navlab::Error when the face's ring is out of range.
Vec4 face_centre(const NavMesh& mesh, std::size_t face);

/// hkaiDirectedGraphExplicitCost of a cluster graph: position of a node = mean of its faces'
/// centres (w = 0; the origin for an unused cluster number), edges in node order with the
/// hkHalf16 cost = distance between the two positions (metres), flags 0, no node/edge data
/// (strides 0), no streaming sets.
/// @param mesh  the navmesh the graph was built from.
/// @param graph build_cluster_graph(mesh).
DirectedGraph make_directed_graph(const NavMesh& mesh, const ClusterGraph& graph);

}  // namespace navlab::fromsoft
