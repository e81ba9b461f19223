// Sekiro's cluster graph (hkaiDirectedGraphExplicitCost) as a hierarchical guide for the
// `corridor` mode: A* over the clusters first, then the face A* only inside the clusters of
// that cluster path and their graph neighbours (docs/query.md, "Cluster guide").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "query/nav_view.h"

namespace navlab::fromsoft {
struct NavMesh;
struct DirectedGraph;
}  // namespace navlab::fromsoft

namespace navlab::query {

/// The cluster graph of one hkaiNavMesh, read once (O(faces + graph edges) memory) and then
/// read-only: corridor() may be called from several threads at once.
class ClusterGuide {
public:
    /// Reads the graph as stored: node positions (Vec4 xyz), edge costs (hkHalf16) and
    /// targets; faces map to nodes by their stored clusterIndex. Face indices are the mesh's
    /// (= FromSoftView's). Returns nullopt (no guide: searches run unguided) when the graph
    /// does not fit the mesh: a face's clusterIndex negative or >= the node count, an edge
    /// range outside the edges, an edge target out of range, or a cost that is negative or
    /// not finite.
    static std::optional<ClusterGuide> from_mesh(const fromsoft::NavMesh& mesh, const fromsoft::DirectedGraph& graph);

    std::size_t cluster_count() const noexcept { return position_.size(); }
    std::size_t face_count() const noexcept { return face_cluster_.size(); }
    std::uint32_t cluster_of(std::uint32_t face) const { return face_cluster_[face]; }

    /// A* over the cluster graph from the cluster of `from_face` to that of `to_face`
    /// (costs as stored; heuristic = straight distance between the stored node positions,
    /// which the costs of the seed page's graph never undercut). On success `allowed` gets
    /// one byte per cluster: 1 for the clusters on the path and their graph neighbours
    /// (successors and predecessors), 0 elsewhere. Returns false when the graph has no path.
    bool corridor(std::uint32_t from_face, std::uint32_t to_face, std::vector<std::uint8_t>& allowed) const;

private:
    std::vector<std::uint32_t> face_cluster_;
    std::vector<Vec3> position_;
    std::vector<std::uint32_t> first_;        ///< clusters + 1: CSR offsets of successors
    std::vector<std::uint32_t> target_;
    std::vector<double> cost_;
    std::vector<std::uint32_t> rfirst_, rsource_;  ///< predecessors (CSR)
};

}  // namespace navlab::query
