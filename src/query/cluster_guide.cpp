#include "query/cluster_guide.h"

#include <cmath>
#include <functional>
#include <limits>
#include <queue>

#include "formats/fromsoft/half.h"
#include "formats/fromsoft/navmesh.h"
#include "query/query_mesh.h"

namespace navlab::query {

std::optional<ClusterGuide> ClusterGuide::from_mesh(const fromsoft::NavMesh& mesh, const fromsoft::DirectedGraph& graph) {
    const std::size_t n = graph.nodes.size();
    if (graph.positions.size() != n) return std::nullopt;
    ClusterGuide g;
    g.face_cluster_.reserve(mesh.faces.size());
    for (const auto& face : mesh.faces) {
        if (face.clusterIndex < 0 || static_cast<std::size_t>(face.clusterIndex) >= n) return std::nullopt;
        g.face_cluster_.push_back(static_cast<std::uint32_t>(face.clusterIndex));
    }
    g.first_.assign(n + 1, 0);
    g.rfirst_.assign(n + 1, 0);
    for (std::size_t c = 0; c < n; ++c) {
        const auto& node = graph.nodes[c];
        g.position_.push_back({graph.positions[c].x, graph.positions[c].y, graph.positions[c].z});
        if (node.startEdgeIndex < 0 || node.numEdges < 0 ||
            static_cast<std::size_t>(node.startEdgeIndex) + static_cast<std::size_t>(node.numEdges) > graph.edges.size())
            return std::nullopt;
        for (std::int32_t i = 0; i < node.numEdges; ++i) {
            const auto& e = graph.edges[static_cast<std::size_t>(node.startEdgeIndex + i)];
            const double cost = fromsoft::half16_to_float(e.cost);
            if (e.target >= n || !(cost >= 0) || !std::isfinite(cost)) return std::nullopt;
            g.target_.push_back(e.target);
            g.cost_.push_back(cost);
            ++g.rfirst_[e.target + 1];
        }
        g.first_[c + 1] = static_cast<std::uint32_t>(g.target_.size());
    }
    for (std::size_t c = 0; c < n; ++c) g.rfirst_[c + 1] += g.rfirst_[c];
    g.rsource_.resize(g.target_.size());
    std::vector<std::uint32_t> fill(g.rfirst_.begin(), g.rfirst_.end() - 1);
    for (std::uint32_t c = 0; c < n; ++c)
        for (std::uint32_t i = g.first_[c]; i < g.first_[c + 1]; ++i) g.rsource_[fill[g.target_[i]]++] = c;
    return g;
}

bool ClusterGuide::corridor(std::uint32_t from_face, std::uint32_t to_face, std::vector<std::uint8_t>& allowed) const {
    const std::uint32_t s = face_cluster_[from_face], t = face_cluster_[to_face];
    const std::size_t n = position_.size();
    std::vector<double> g(n, std::numeric_limits<double>::infinity());
    std::vector<std::int64_t> parent(n, -1);
    using Entry = std::pair<double, std::uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
    g[s] = 0;
    open.push({dist3(position_[s], position_[t]), s});
    bool found = false;
    while (!open.empty()) {
        auto [fv, c] = open.top();
        open.pop();
        if (fv > g[c] + dist3(position_[c], position_[t])) continue;  // stale
        if (c == t) {
            found = true;
            break;
        }
        for (std::uint32_t i = first_[c]; i < first_[c + 1]; ++i) {
            const std::uint32_t d = target_[i];
            const double gd = g[c] + cost_[i];
            if (gd >= g[d]) continue;
            g[d] = gd, parent[d] = c;
            open.push({gd + dist3(position_[d], position_[t]), d});
        }
    }
    if (!found) return false;
    allowed.assign(n, 0);
    for (std::int64_t c = t; c >= 0; c = parent[static_cast<std::size_t>(c)]) {
        allowed[static_cast<std::size_t>(c)] = 1;
        for (std::uint32_t i = first_[c]; i < first_[c + 1]; ++i) allowed[target_[i]] = 1;
        for (std::uint32_t i = rfirst_[c]; i < rfirst_[c + 1]; ++i) allowed[rsource_[i]] = 1;
    }
    return true;
}

}  // namespace navlab::query
