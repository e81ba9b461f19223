// Everything the rules share about one tagfile, computed once: the game, R (regular edges),
// edge owners, each face's ring and its geometry (winding, convexity, planarity, the page's
// triangulation and its checks).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/fromsoft/aabb_tree6.h"
#include "audit/audit.h"
#include "audit/audit_edge_scan.h"
#include "geometry/convexity.h"
#include "geometry/face_ring.h"
#include "geometry/planarity.h"
#include "geometry/triangle_checks.h"
#include "geometry/triangulate.h"
#include "geometry/winding.h"

namespace navlab::audit {

// The rules are written in the geometry layer's vocabulary (rings, planes, triangulations).
using namespace navlab::geometry;

inline constexpr std::int32_t kNoOwner = -1;
inline constexpr std::int32_t kManyOwners = -2;

/// Geometry of one face whose ring is well formed.
struct FaceGeometry {
    Winding winding = Winding::CounterClockwise;
    bool zero_normal = false;
    bool collinear = false;      ///< computed for degenerate faces only
    Convexity convexity;
    bool convex_in_newell_plane = true;  ///< X08: no two corners turn opposite ways along N
    PlaneDistance off_plane;     ///< valid when !zero_normal
    int bad_fan = -1;            ///< R41: first bad fan triangle k, or −1
    /// Algorithm T's figures (R42–R47); the triangles themselves are not kept, so a face
    /// holds no allocation.
    int triangles = 0;
    int dropped = 0;
    int fallbacks = 0;
    bool no_ear = false;
    int corners_left = 0;
    Cut first_turned{-1, -1, -1};  ///< R43: the first triangle turned against the face
    TriangulationCheck check;
    int lost = 0;                ///< R48 lost triangles
    Cut first_lost{-1, -1, -1};
};

/// The box of a face's corners, per axis x, y, z (float32 values, so float is exact): R72 and
/// X10 compare it with the face's leaf box instead of walking the corners again.
struct CornerBounds {
    float min[3], max[3];
};

/// The smallest and largest vertex coordinate per lane x, y, z, w (±infinity without vertices),
/// taken with std::min/std::max in vertex order.
struct VertexBounds {
    float min[4], max[4];
};

/// A face's ring as read_face_ring left it (partial for a broken ring), viewing the
/// context's flat ring storage.
struct RingView {
    RingStatus status = RingStatus::Ok;
    int break_at = -1;
    std::span<const std::int32_t> vertices;
    std::span<const Point> corners;
};

struct TagfileContext {
    const AuditTagfile& file;
    const fromsoft::NavTagfile& tagfile;
    const fromsoft::NavMesh& mesh;
    Game game;
    std::int64_t F = 0, E = 0, V = 0;
    std::int64_t R = 0;            ///< Σ numEdges (negative counts as 0)
    bool regular_tiled = false;    ///< R21 holds and R ≤ E
    std::vector<std::int32_t> owner;  ///< edge → owning face, kNoOwner or kManyOwners
    VertexBounds vertex_bounds;  ///< one pass over the vertices, for R50–R53 and X02
    EdgeScan edge_scan;  ///< the per-edge statements over all edges, in one pass after the owners
    std::vector<RingView> rings;  ///< per face, viewing ring_vertices / ring_corners
    std::vector<std::optional<FaceGeometry>> geometry;  ///< per face, when the ring is Ok
    std::vector<CornerBounds> corner_bounds;  ///< per face, valid when its geometry is present
    std::optional<fromsoft::DecodedAabbTree> tree;  ///< Decoding D of the mediator's tree, for meshes with faces

    /// Every face's ring vertices and corners, one after another: two allocations per
    /// tagfile instead of two per face.
    std::vector<std::int32_t> ring_vertices;
    std::vector<Point> ring_corners;

    /// @param file a readable tagfile (file.model present).
    explicit TagfileContext(const AuditTagfile& file);
    TagfileContext(const TagfileContext&) = delete;  // rings view the context's own storage
    TagfileContext& operator=(const TagfileContext&) = delete;

    /// One pass over the F faces: reads each ring into rings, ring_vertices and ring_corners
    /// and, when it is well formed, its geometry.
    void read_faces();
    /// "entry face 12" for Extreme::at.
    std::string where(const std::string& element, std::int64_t index) const;
    bool has_class(const std::string& cls) const;
};

/// Whether `cls` is among the tagfile's root-variant classes.
bool has_root_class(const fromsoft::NavTagfile& t, const std::string& cls);

}  // namespace navlab::audit
