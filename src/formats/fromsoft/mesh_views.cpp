#include "formats/fromsoft/mesh_views.h"

#include <string>

#include "io/error.h"

namespace navlab::fromsoft {
namespace {

const Face& face_at(const NavMesh& mesh, std::size_t face) {
    if (face >= mesh.faces.size())
        throw Error("face index " + std::to_string(face) + " past the " + std::to_string(mesh.faces.size()) + " faces");
    return mesh.faces[face];
}

std::span<const Edge> edge_range(const NavMesh& mesh, std::size_t face, std::int64_t start, std::int64_t count,
                                 const char* what) {
    if (count == 0) return {};
    if (count < 0 || start < 0 || start + count > static_cast<std::int64_t>(mesh.edges.size()))
        throw Error(std::string(what) + " range [" + std::to_string(start) + ", +" + std::to_string(count) +
                        ") outside the " + std::to_string(mesh.edges.size()) + " edges",
                    kNoOffset, "face " + std::to_string(face));
    return std::span<const Edge>(mesh.edges).subspan(static_cast<std::size_t>(start), static_cast<std::size_t>(count));
}

}  // namespace

std::span<const Edge> face_edges(const NavMesh& mesh, std::size_t face) {
    const Face& f = face_at(mesh, face);
    return edge_range(mesh, face, f.startEdgeIndex, f.numEdges, "edge");
}

std::span<const Edge> face_user_edges(const NavMesh& mesh, std::size_t face) {
    const Face& f = face_at(mesh, face);
    return edge_range(mesh, face, f.startUserEdgeIndex, f.numUserEdges, "user edge");
}

std::vector<std::int32_t> face_vertex_ring(const NavMesh& mesh, std::size_t face) {
    std::vector<std::int32_t> ring;
    for (const Edge& e : face_edges(mesh, face)) {
        if (e.a < 0 || static_cast<std::size_t>(e.a) >= mesh.vertices.size())
            throw Error("corner vertex " + std::to_string(e.a) + " past the " + std::to_string(mesh.vertices.size()) +
                            " vertices",
                        kNoOffset, "face " + std::to_string(face));
        ring.push_back(e.a);
    }
    return ring;
}

std::vector<std::uint32_t> face_neighbours(const NavMesh& mesh, std::size_t face) {
    std::vector<std::uint32_t> out;
    for (const Edge& e : face_edges(mesh, face)) out.push_back(e.oppositeFace);
    return out;
}

std::size_t regular_edge_count(const NavMesh& mesh) noexcept {
    std::size_t n = 0;
    for (const Face& f : mesh.faces) n += f.numEdges > 0 ? static_cast<std::size_t>(f.numEdges) : 0;
    return n;
}

}  // namespace navlab::fromsoft
