// A face's corner ring read from the mesh, with the prerequisites every geometric rule needs
// (audit-rules.md §1 "Prerequisites"): the face's edge range inside the edges, the ring
// closed, every corner a vertex with finite coordinates.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/fromsoft/navmesh.h"
#include "geometry/exact.h"

namespace navlab::geometry {

enum class RingStatus {
    Ok,
    RangeOutside,     ///< [startEdgeIndex, +numEdges) leaves the edges, or numEdges < 3
    Open,             ///< some edge's b is not the next edge's a
    VertexOutOfRange, ///< a corner index is not a vertex
    NotFinite,        ///< a corner coordinate is NaN or infinite
};

struct FaceRing {
    RingStatus status = RingStatus::Ok;
    int break_at = -1;                   ///< ring position of the first break (Open)
    std::vector<std::int32_t> vertices;  ///< v_k = edges[start + k].a
    std::vector<Point> corners;          ///< P_k (x, y, z of the vertex)
};

/// Reads face `face`'s ring. Fills `out` (reusing its storage) and returns its status.
RingStatus read_face_ring(const fromsoft::NavMesh& mesh, std::size_t face, FaceRing& out);

/// The same, appending the ring's vertices and corners to `vertices` and `corners` (what
/// read_face_ring would leave in a FaceRing, also for a broken ring) and setting `break_at`:
/// the audit keeps every ring in two flat arrays, without a copy through a FaceRing.
RingStatus append_face_ring(const fromsoft::NavMesh& mesh, std::size_t face, std::vector<std::int32_t>& vertices,
                            std::vector<Point>& corners, int& break_at);

/// A vertex's x, y, z as exact doubles.
inline Point to_point(const fromsoft::Vec4& v) { return {v.x, v.y, v.z}; }

}  // namespace navlab::geometry
