#include "build/opposites.h"

#include <array>
#include <unordered_map>

namespace navlab::build {

void link_opposites(fromsoft::NavMesh& mesh) {
    auto key = [](std::int32_t a, std::int32_t b) {
        if (a > b) std::swap(a, b);
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
    };
    std::size_t regular = 0;
    for (const auto& f : mesh.faces) regular += static_cast<std::size_t>(f.numEdges);
    std::unordered_map<std::uint64_t, std::array<std::uint32_t, 3>> pairs;  // edge, edge, count
    pairs.reserve(regular);
    for (std::uint32_t e = 0; e < regular; ++e) {
        auto& p = pairs[key(mesh.edges[e].a, mesh.edges[e].b)];
        if (p[2] < 2) p[p[2]] = e;
        ++p[2];
    }
    std::vector<std::uint32_t> owner(regular);
    for (std::uint32_t f = 0; f < mesh.faces.size(); ++f)
        for (int k = 0; k < mesh.faces[f].numEdges; ++k) owner[mesh.faces[f].startEdgeIndex + k] = f;
    for (const auto& [k, p] : pairs) {
        if (p[2] != 2 || owner[p[0]] == owner[p[1]]) continue;
        mesh.edges[p[0]].oppositeEdge = p[1];
        mesh.edges[p[0]].oppositeFace = owner[p[1]];
        mesh.edges[p[1]].oppositeEdge = p[0];
        mesh.edges[p[1]].oppositeFace = owner[p[0]];
    }
}

}  // namespace navlab::build
