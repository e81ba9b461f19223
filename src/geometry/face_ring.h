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
/// many rings in two flat arrays, without a copy through a FaceRing (write_face_ring below
/// is the same without the vectors, for storage sized in advance).
RingStatus append_face_ring(const fromsoft::NavMesh& mesh, std::size_t face, std::vector<std::int32_t>& vertices,
                            std::vector<Point>& corners, int& break_at);

/// What write_face_ring wrote: the status, and how many vertices and corners are valid.
struct RingWritten {
    RingStatus status = RingStatus::Ok;
    /// Entries of `vertices` written: n = numEdges when the ring is closed (Ok, VertexOutOfRange,
    /// NotFinite), the break_at vertices before the break (Open), 0 (RangeOutside).
    int vertices = 0;
    /// Entries of `corners` written: n (Ok), the good corners before the first bad one
    /// (VertexOutOfRange, NotFinite), 0 (Open, RangeOutside).
    int corners = 0;
    int break_at = -1;  ///< as FaceRing::break_at
};

/// Room write_face_ring needs in each of its arrays: numEdges when it is at least 3 and the
/// face's edge range lies inside the `edges` edges, else 0 (the ring is then RangeOutside and
/// nothing is written).
inline std::size_t face_ring_room(const fromsoft::Face& f, std::size_t edges) {
    const std::int64_t start = f.startEdgeIndex, n = f.numEdges;
    if (n < 3 || start < 0 || start + n > static_cast<std::int64_t>(edges)) return 0;
    return static_cast<std::size_t>(n);
}

/// The same for face `face` of `mesh`.
inline std::size_t face_ring_room(const fromsoft::NavMesh& mesh, std::size_t face) {
    return face_ring_room(mesh.faces[face], mesh.edges.size());
}

/// The same ring written through pointers, each with room for face_ring_room() entries: the
/// audit reads every face into storage it sized once (append_face_ring's resizes per face were
/// 40 % of its own cost). What it leaves is what append_face_ring appends.
RingWritten write_face_ring(const fromsoft::NavMesh& mesh, std::size_t face, std::int32_t* vertices, Point* corners);

/// A vertex's x, y, z as exact doubles.
inline Point to_point(const fromsoft::Vec4& v) { return {v.x, v.y, v.z}; }

/// write_sound_ring's way of writing a corner: the vertex's x, y, z widened to doubles at
/// `corner`. A faster way (audit_context.cpp's, with AVX) may store 32 bytes at once, so w lands
/// on the next Point's x: the next corner's store overwrites it, and after a ring's last corner
/// it lands in the slack of one Point the corner storage keeps past the ring.
struct WidenVertex {
    static void widen(const fromsoft::Vec4& v, Point* corner) { *corner = to_point(v); }
};

/// write_sound_ring (below) for a ring of exactly N corners, unrolled: every corner written,
/// the closure of each edge to the next folded into one test at the end.
template <int N, class Widen>
bool write_sound_ring_of(const fromsoft::Edge* edge, const fromsoft::Vec4* vertex, std::int32_t* vertices, Point* corners) {
    std::int32_t open = 0;  // some edge's b is not the next edge's a where this is not 0
#pragma GCC unroll 8
    for (int k = 0; k < N; ++k) {
        const std::int32_t a = edge[k].a;
        vertices[k] = a;
        Widen::widen(vertex[a], corners + k);
        open |= edge[k].b ^ edge[k + 1 == N ? 0 : k + 1].a;
    }
    return open == 0;
}

/// write_face_ring's ring of a face with room n ≥ 3 (face_ring_room) in a mesh known sound once
/// for all its faces: every edge's ends are vertices and every vertex's x, y, z finite. The ring
/// is then Open or Ok, so only its closure is tested: without the range and finiteness tests
/// per corner the audit reads its rings in half the instructions. Every corner is written
/// before the closure is known (each edge's a is a vertex whether the ring closes or not).
/// @param edge     the face's n edges (mesh.edges from its startEdgeIndex)
/// @param vertex   the mesh's vertices
/// @param vertices room for n entries
/// @param corners  room for n + 1 entries: Widen may store 8 bytes into the one past the ring,
///                 whose value is then undefined
/// @return true when the ring closes at every corner, with the n vertices and corners written
///         as write_face_ring writes them (status Ok); false for an Open ring, with the entries
///         written, which the caller reads again with write_face_ring (rare: a broken mesh).
/// Pointers, not the mesh: read_faces calls it once per face after stores the compiler cannot
/// tell from the mesh's own, and reloaded the mesh's arrays for each call.
template <class Widen = WidenVertex>
inline bool write_sound_ring(const fromsoft::Edge* edge, std::int64_t n, const fromsoft::Vec4* vertex, std::int32_t* vertices,
                             Point* corners) {
    switch (n) {  // 3 … 8 corners: 99.5 % of the game presets' faces, each length unrolled
        case 3: return write_sound_ring_of<3, Widen>(edge, vertex, vertices, corners);
        case 4: return write_sound_ring_of<4, Widen>(edge, vertex, vertices, corners);
        case 5: return write_sound_ring_of<5, Widen>(edge, vertex, vertices, corners);
        case 6: return write_sound_ring_of<6, Widen>(edge, vertex, vertices, corners);
        case 7: return write_sound_ring_of<7, Widen>(edge, vertex, vertices, corners);
        case 8: return write_sound_ring_of<8, Widen>(edge, vertex, vertices, corners);
        default: break;
    }
    std::int32_t open = edge[n - 1].b ^ edge[0].a;
    for (std::int64_t k = 0; k < n; ++k) {
        const std::int32_t a = edge[k].a;
        vertices[k] = a;
        Widen::widen(vertex[a], corners + k);
        if (k + 1 < n) open |= edge[k].b ^ edge[k + 1].a;
    }
    return open == 0;
}

}  // namespace navlab::geometry
