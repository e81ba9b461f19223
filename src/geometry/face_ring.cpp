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
    // At most one allocation per ring, not one per doubling, and geometric growth when the
    // caller appends ring after ring (reserving exactly would copy everything per ring).
    auto make_room = [n](auto& v) {
        const std::size_t need = v.size() + static_cast<std::size_t>(n);
        if (v.capacity() < need) v.reserve(std::max(need, 2 * v.capacity()));
    };
    make_room(vertices);
    make_room(corners);
    // Written through pointers into the reserved room, then resized over what was written:
    // push_back's capacity test and end-pointer store per corner cost as much as the reading.
    const fromsoft::Edge* edge = mesh.edges.data() + start;
    const std::size_t first = vertices.size();
    vertices.resize(first + static_cast<std::size_t>(n));
    std::int32_t* ring = vertices.data() + first;
    for (std::int64_t k = 0; k < n; ++k) {
        if (edge[k].b != edge[k + 1 == n ? 0 : k + 1].a) {  // no division per edge
            vertices.resize(first + static_cast<std::size_t>(k));  // the ring read before the break
            break_at = static_cast<int>(k);
            return RingStatus::Open;
        }
        ring[k] = edge[k].a;
    }
    const std::size_t first_corner = corners.size();
    corners.resize(first_corner + static_cast<std::size_t>(n));
    Point* out = corners.data() + first_corner;
    const std::size_t V = mesh.vertices.size();
    for (std::int64_t k = 0; k < n; ++k) {
        const std::int32_t v = ring[k];
        RingStatus bad = RingStatus::Ok;
        if (v < 0 || static_cast<std::size_t>(v) >= V) bad = RingStatus::VertexOutOfRange;
        // One test for three: float32 values sum to a finite double, a NaN or infinity does not.
        else if (out[k] = to_point(mesh.vertices[v]); !std::isfinite(out[k].x + out[k].y + out[k].z))
            bad = RingStatus::NotFinite;
        if (bad != RingStatus::Ok) {
            corners.resize(first_corner + static_cast<std::size_t>(k));  // the good corners before it
            return bad;
        }
    }
    return RingStatus::Ok;
}

}  // namespace navlab::geometry
