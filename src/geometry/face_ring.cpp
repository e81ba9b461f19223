#include "geometry/face_ring.h"

#include <cmath>

namespace navlab::geometry {

RingStatus read_face_ring(const fromsoft::NavMesh& mesh, std::size_t face, FaceRing& out) {
    out.vertices.clear();
    out.corners.clear();
    return out.status = append_face_ring(mesh, face, out.vertices, out.corners, out.break_at);
}

RingWritten write_face_ring(const fromsoft::NavMesh& mesh, std::size_t face, std::int32_t* ring, Point* out) {
    RingWritten w;
    const std::int64_t n = static_cast<std::int64_t>(face_ring_room(mesh, face));
    if (n == 0) {
        w.status = RingStatus::RangeOutside;
        return w;
    }
    const fromsoft::Edge* edge = mesh.edges.data() + mesh.faces[face].startEdgeIndex;
    for (std::int64_t k = 0; k < n; ++k) {
        if (edge[k].b != edge[k + 1 == n ? 0 : k + 1].a) {  // no division per edge
            w.status = RingStatus::Open;
            w.vertices = w.break_at = static_cast<int>(k);  // the ring read before the break
            return w;
        }
        ring[k] = edge[k].a;
    }
    w.vertices = static_cast<int>(n);
    const std::size_t V = mesh.vertices.size();
    for (std::int64_t k = 0; k < n; ++k) {
        const std::int32_t v = ring[k];
        if (v < 0 || static_cast<std::size_t>(v) >= V) w.status = RingStatus::VertexOutOfRange;
        // One test for three: float32 values sum to a finite double, a NaN or infinity does not.
        else if (out[k] = to_point(mesh.vertices[v]); !std::isfinite(out[k].x + out[k].y + out[k].z))
            w.status = RingStatus::NotFinite;
        if (w.status != RingStatus::Ok) {
            w.corners = static_cast<int>(k);  // the good corners before it
            return w;
        }
    }
    w.corners = static_cast<int>(n);
    return w;
}

RingStatus append_face_ring(const fromsoft::NavMesh& mesh, std::size_t face, std::vector<std::int32_t>& vertices,
                            std::vector<Point>& corners, int& break_at) {
    const std::size_t room = face_ring_room(mesh, face), first = vertices.size(), first_corner = corners.size();
    vertices.resize(first + room);
    corners.resize(first_corner + room);
    const RingWritten w = write_face_ring(mesh, face, vertices.data() + first, corners.data() + first_corner);
    vertices.resize(first + static_cast<std::size_t>(w.vertices));
    corners.resize(first_corner + static_cast<std::size_t>(w.corners));
    break_at = w.break_at;
    return w.status;
}

}  // namespace navlab::geometry
