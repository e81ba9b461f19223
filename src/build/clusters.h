// Sekiro's face clusters: contiguous patches of faces grown across opposite edges, numbered
// from 0 in face order with every number used (the graph's nodes, cluster_graph.h).
#pragma once

#include <functional>

#include "formats/fromsoft/navmesh.h"

namespace navlab::build {

/// Assigns every face a clusterIndex by breadth-first growth from the lowest unassigned face
/// across opposites, each patch stopping at `next_size()` faces (called once per patch, so a
/// caller can vary the sizes). Returns the cluster count. Throws navlab::Error when the count
/// passes the int16 clusterIndex.
int grow_clusters(fromsoft::NavMesh& mesh, const std::function<int()>& next_size);

}  // namespace navlab::build
