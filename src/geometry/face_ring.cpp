#include "geometry/face_ring.h"

#include <cmath>

namespace navlab::geometry {

RingStatus read_face_ring(const fromsoft::NavMesh& mesh, std::size_t face, FaceRing& out) {
    out.vertices.clear();
    out.corners.clear();
    out.break_at = -1;
    const fromsoft::Face& f = mesh.faces[face];
    std::int64_t start = f.startEdgeIndex, n = f.numEdges;
    if (n < 3 || start < 0 || start + n > static_cast<std::int64_t>(mesh.edges.size()))
        return out.status = RingStatus::RangeOutside;
    out.vertices.reserve(static_cast<std::size_t>(n));  // one allocation per ring, not one per doubling
    out.corners.reserve(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k) {
        const fromsoft::Edge& e = mesh.edges[start + k];
        const fromsoft::Edge& next = mesh.edges[start + (k + 1 == n ? 0 : k + 1)];  // no division per edge
        if (e.b != next.a) {
            out.break_at = static_cast<int>(k);
            return out.status = RingStatus::Open;
        }
        out.vertices.push_back(e.a);
    }
    for (std::int32_t v : out.vertices) {
        if (v < 0 || static_cast<std::size_t>(v) >= mesh.vertices.size()) return out.status = RingStatus::VertexOutOfRange;
        Point p = to_point(mesh.vertices[v]);
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return out.status = RingStatus::NotFinite;
        out.corners.push_back(p);
    }
    return out.status = RingStatus::Ok;
}

}  // namespace navlab::geometry
