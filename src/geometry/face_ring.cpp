#include "geometry/face_ring.h"

#include <algorithm>
#include <cmath>

namespace navlab::geometry {

RingStatus read_face_ring(const fromsoft::NavMesh& mesh, std::size_t face, FaceRing& out) {
    out.vertices.clear();
    out.corners.clear();
    return out.status = append_face_ring(mesh, face, out.vertices, out.corners, out.break_at);
}

RingStatus append_face_ring(const fromsoft::NavMesh& mesh, std::size_t face, std::vector<std::int32_t>& vertices,
                            std::vector<Point>& corners, int& break_at) {
    break_at = -1;
    const fromsoft::Face& f = mesh.faces[face];
    std::int64_t start = f.startEdgeIndex, n = f.numEdges;
    if (n < 3 || start < 0 || start + n > static_cast<std::int64_t>(mesh.edges.size())) return RingStatus::RangeOutside;
    const std::size_t first = vertices.size();
    // At most one allocation per ring, not one per doubling, and geometric growth when the
    // caller appends ring after ring (reserving exactly would copy everything per ring).
    auto make_room = [n](auto& v) {
        const std::size_t need = v.size() + static_cast<std::size_t>(n);
        if (v.capacity() < need) v.reserve(std::max(need, 2 * v.capacity()));
    };
    make_room(vertices);
    make_room(corners);
    for (std::int64_t k = 0; k < n; ++k) {
        const fromsoft::Edge& e = mesh.edges[start + k];
        const fromsoft::Edge& next = mesh.edges[start + (k + 1 == n ? 0 : k + 1)];  // no division per edge
        if (e.b != next.a) {
            break_at = static_cast<int>(k);
            return RingStatus::Open;
        }
        vertices.push_back(e.a);
    }
    for (std::size_t k = first; k < vertices.size(); ++k) {
        const std::int32_t v = vertices[k];
        if (v < 0 || static_cast<std::size_t>(v) >= mesh.vertices.size()) return RingStatus::VertexOutOfRange;
        Point p = to_point(mesh.vertices[v]);
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return RingStatus::NotFinite;
        corners.push_back(p);
    }
    return RingStatus::Ok;
}

}  // namespace navlab::geometry
