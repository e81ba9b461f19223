#include "formats/fromsoft/cluster_graph.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "formats/fromsoft/half.h"
#include "formats/fromsoft/mesh_views.h"
#include "io/error.h"

namespace navlab::fromsoft {
ClusterGraph build_cluster_graph(const NavMesh& mesh) {
    ClusterGraph g;
    const std::size_t face_count = mesh.faces.size();
    for (std::size_t f = 0; f < face_count; ++f) {
        const std::int16_t c = mesh.faces[f].clusterIndex;
        if (c < 0)
            throw Error("clusterIndex " + std::to_string(c) + " is negative", kNoOffset, "face " + std::to_string(f));
        g.node_count = std::max<std::uint32_t>(g.node_count, static_cast<std::uint32_t>(c) + 1);
    }
    g.face_counts.assign(g.node_count, 0);
    std::vector<std::uint64_t> pairs;  // (x << 32 | y), both directions
    auto add_edges = [&](std::size_t f, std::span<const Edge> edges) {
        const std::uint32_t x = static_cast<std::uint32_t>(mesh.faces[f].clusterIndex);
        for (const Edge& e : edges) {
            if (e.oppositeFace == kNoOpposite) continue;
            if (e.oppositeFace >= face_count)
                throw Error("an edge has oppositeFace " + std::to_string(e.oppositeFace) + " of " +
                                std::to_string(face_count) + " faces",
                            kNoOffset, "face " + std::to_string(f));
            const std::uint32_t y = static_cast<std::uint32_t>(mesh.faces[e.oppositeFace].clusterIndex);
            if (x == y) continue;
            pairs.push_back(std::uint64_t{x} << 32 | y);
            pairs.push_back(std::uint64_t{y} << 32 | x);
        }
    };
    for (std::size_t f = 0; f < face_count; ++f) {
        ++g.face_counts[mesh.faces[f].clusterIndex];
        add_edges(f, face_edges(mesh, f));
        add_edges(f, face_user_edges(mesh, f));
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    g.offsets.assign(g.node_count + 1, 0);
    g.targets.reserve(pairs.size());
    for (std::uint64_t p : pairs) {
        ++g.offsets[(p >> 32) + 1];
        g.targets.push_back(static_cast<std::uint32_t>(p));
    }
    for (std::uint32_t x = 0; x < g.node_count; ++x) g.offsets[x + 1] += g.offsets[x];
    return g;
}

Vec4 face_centre(const NavMesh& mesh, std::size_t face) {
    const std::vector<std::int32_t> ring = face_vertex_ring(mesh, face);
    if (ring.empty()) throw Error("face has no edge", kNoOffset, "face " + std::to_string(face));
    double sum[3] = {0, 0, 0};
    for (std::int32_t v : ring) sum[0] += mesh.vertices[v].x, sum[1] += mesh.vertices[v].y, sum[2] += mesh.vertices[v].z;
    const double n = static_cast<double>(ring.size());
    return Vec4{static_cast<float>(sum[0] / n), static_cast<float>(sum[1] / n), static_cast<float>(sum[2] / n), 0};
}

DirectedGraph make_directed_graph(const NavMesh& mesh, const ClusterGraph& graph) {
    DirectedGraph d;
    d.nodeDataStriding = d.edgeDataStriding = 0;
    std::vector<double> sum(3 * std::size_t{graph.node_count}, 0.0);
    for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
        const std::uint32_t c = static_cast<std::uint32_t>(mesh.faces[f].clusterIndex);
        if (c >= graph.node_count) throw Error("cluster graph does not match the mesh", kNoOffset, "face " + std::to_string(f));
        const Vec4 centre = face_centre(mesh, f);
        sum[3 * c] += centre.x, sum[3 * c + 1] += centre.y, sum[3 * c + 2] += centre.z;
    }
    d.positions.resize(graph.node_count);
    for (std::uint32_t c = 0; c < graph.node_count; ++c) {
        const double n = graph.face_counts[c] ? graph.face_counts[c] : 1;
        d.positions[c] = Vec4{static_cast<float>(sum[3 * c] / n), static_cast<float>(sum[3 * c + 1] / n),
                              static_cast<float>(sum[3 * c + 2] / n), 0};
    }
    d.nodes.resize(graph.node_count);
    d.edges.reserve(graph.targets.size());
    for (std::uint32_t x = 0; x < graph.node_count; ++x) {
        d.nodes[x] = {static_cast<std::int32_t>(graph.offsets[x]),
                      static_cast<std::int32_t>(graph.offsets[x + 1] - graph.offsets[x])};
        for (std::uint32_t i = graph.offsets[x]; i < graph.offsets[x + 1]; ++i) {
            const Vec4& p = d.positions[x];
            const Vec4& q = d.positions[graph.targets[i]];
            const double dist = std::sqrt((double(p.x) - q.x) * (double(p.x) - q.x) + (double(p.y) - q.y) * (double(p.y) - q.y) +
                                          (double(p.z) - q.z) * (double(p.z) - q.z));
            d.edges.push_back({float_to_half16(static_cast<float>(dist)), 0, graph.targets[i]});
        }
    }
    return d;
}

}  // namespace navlab::fromsoft
