#include "build/clusters.h"

#include <algorithm>
#include <vector>

#include "io/error.h"

namespace navlab::build {

int grow_clusters(fromsoft::NavMesh& mesh, const std::function<int()>& next_size) {
    using fromsoft::kNoOpposite;
    const int n = static_cast<int>(mesh.faces.size());
    for (auto& f : mesh.faces) f.clusterIndex = -1;
    int clusters = 0;
    std::vector<int> queue;
    for (int seed = 0; seed < n; ++seed) {
        if (mesh.faces[seed].clusterIndex >= 0) continue;
        if (clusters > 0x7FFF)
            throw Error("more than 32,767 clusters: clusterIndex is int16 (use a smaller tile size)", kNoOffset,
                        "face " + std::to_string(seed));
        const int size = std::max(1, next_size());
        queue.assign(1, seed);
        mesh.faces[seed].clusterIndex = static_cast<std::int16_t>(clusters);
        for (std::size_t q = 0, taken = 1; q < queue.size() && static_cast<int>(taken) < size; ++q) {
            const auto& f = mesh.faces[queue[q]];
            for (int k = 0; k < f.numEdges && static_cast<int>(taken) < size; ++k) {
                const std::uint32_t g = mesh.edges[f.startEdgeIndex + k].oppositeFace;
                if (g == kNoOpposite || mesh.faces[g].clusterIndex >= 0) continue;
                mesh.faces[g].clusterIndex = static_cast<std::int16_t>(clusters);
                queue.push_back(static_cast<int>(g));
                ++taken;
            }
        }
        ++clusters;
    }
    return clusters;
}

}  // namespace navlab::build
