// Path queries on a navmesh (any NavView): nearest face, shortest paths (exact any-angle or
// Detour-style corridor), raycast along the surface, and reachability islands.
//
// A NavMeshQuery is built once from a view (O(faces) time and memory; it keeps its own compact
// copy of the polygons, split into convex pieces seen from above) and is then read-only: every
// query method is const and may be called from several threads at once (each thread uses its
// own scratch memory, kept thread_local).
//
// Units: metres, y up. "xz" means seen from above (y ignored). Paths are computed in xz over
// the mesh's adjacency (never on a global 2-D map, so bridges over roads work) and lifted back
// onto the faces for the 3-D length.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "query/nav_view.h"

namespace navlab::fromsoft {
struct QueryMediator;
}

namespace navlab::query {

class ClusterGuide;

/// Faces to avoid and costs to scale, by the face's filter bits (NavView::face_bits).
struct QueryFilter {
    std::uint32_t exclude_bits = 0;  ///< a face with any of these bits set is not walkable
    /// cost_multiplier[b] scales the length walked inside a face with bit b set (the largest
    /// multiplier of its set bits applies; 1 when none is set). Values must be >= 1 for the
    /// `exact` mode to stay exact (its heuristic assumes unit cost).
    std::vector<std::pair<int, double>> cost_multipliers;
    bool use_links = true;  ///< false: user edges are not traversable (--no-user-edges)
    /// `corridor` mode only (`exact` ignores it, so its answer never changes): search the
    /// cluster graph first and the faces only inside the clusters of that path and their
    /// neighbours; unguided again when that finds no path. Must be the guide of the mesh
    /// being queried (same faces); not owned. nullptr: unguided (--guide clusters sets it).
    const ClusterGuide* cluster_guide = nullptr;
};

enum class PathMode { Exact, Corridor };
enum class PathStatus { Found, NoPath, OffMesh };

/// The answer of nearest_face.
struct NearestResult {
    bool found = false;      ///< false when no face lies within the search box
    std::uint32_t face = 0;  ///< view face index
    Vec3 point;              ///< the closest point on that face
    double distance = 0;     ///< |point - query| (metres)
};

/// The answer of find_path.
struct PathResult {
    PathStatus status = PathStatus::NoPath;
    PathMode mode = PathMode::Exact;
    double length = 0;     ///< 3-D length of the lifted polyline (metres)
    double length_xz = 0;  ///< length seen from above (metres)
    double cost = 0;       ///< search cost (length_xz scaled by the filter, plus link costs)
    std::vector<Vec3> points;            ///< start, turning points and edge crossings, end
    std::vector<std::uint32_t> faces;    ///< view faces of the corridor, in order, no repeats in a row
    std::vector<std::uint32_t> links;    ///< ViewLink::edge of each user edge taken
    std::uint32_t start_face = 0, end_face = 0;
    double off_mesh_distance = 0;  ///< OffMesh: distance from the offending point to the mesh
};

/// The answer of raycast (Detour's dtNavMeshQuery::raycast semantics).
struct RaycastResult {
    bool hit = false;     ///< a wall stops the ray before the target
    double t = 1;         ///< hit fraction along from->to in xz (1 when not hit)
    Vec3 hit_point;       ///< from + t (to - from), lifted onto the last face
    std::uint32_t wall_face = 0;   ///< face owning the wall edge (when hit)
    std::uint32_t wall_edge = 0;   ///< NavView::edge_id of the wall edge (when hit)
    Vec3 normal;                   ///< unit xz normal of the wall, pointing back into the face
    std::vector<std::uint32_t> faces;  ///< faces crossed, from the start face on
    bool off_mesh = false;         ///< the start point is on no face
};

/// One island: a strongly connected set of faces (portals both ways as stored, links one way).
struct Island {
    std::vector<std::uint32_t> faces;  ///< ascending
    double area_xz = 0;                ///< sum of the faces' areas seen from above (m^2)
    Vec3 min, max;                     ///< bounding box of their corners
};

/// How `exact` mode searches (both give the same lengths; see docs/query.md).
enum class ExactSearch {
    Auto,         ///< the corner graph once built, else Intervals. Built (once) on a mesh of
                  ///< 4,096 convex pieces or more when the interval searches have taken about
                  ///< as long as the build should (0.5 ms per piece), or by corner_graph_stats()
    Intervals,    ///< Polyanya's interval search alone
    CornerGraph,  ///< A* over the visibility graph of reflex corners, re-traced by Intervals
};

/// The corner graph of `exact` mode: its size, its build and how queries used it.
struct CornerGraphStats {
    std::size_t nodes = 0;          ///< reflex corners (one per fan of faces at a vertex)
    std::size_t edges = 0;          ///< directed visibility edges kept (tangent at both ends)
    std::size_t bytes = 0;          ///< memory held by the graph
    double build_seconds = 0;       ///< wall time of the one-off build (one thread)
    std::uint64_t queries = 0;      ///< exact queries answered through the graph
    std::uint64_t fallbacks = 0;    ///< of those, answered by the full interval search instead
};

/// Default half extents of the nearest-face search box around a query point (metres).
inline constexpr Vec3 kDefaultExtents{1.0, 2.0, 1.0};

class NavMeshQuery {
public:
    /// Builds the query structures. The view is read during construction only.
    /// @param view     the mesh (validated by its constructor).
    /// @param mediator an Elden Ring hkaiStaticTreeNavMeshQueryMediator of the same mesh: its
    ///                 6-byte AABB tree is decoded (aabb_tree6.h) and used by nearest_face
    ///                 instead of a BVH. Ignored (BVH built) when its decode is invalid, its
    ///                 leaves are not one per face, or a leaf's box does not hold its face
    ///                 within fromsoft::kLeafBoxTolerance (R72).
    explicit NavMeshQuery(const NavView& view, const fromsoft::QueryMediator* mediator = nullptr);
    ~NavMeshQuery();
    NavMeshQuery(NavMeshQuery&&) noexcept;
    NavMeshQuery& operator=(NavMeshQuery&&) noexcept;

    std::size_t face_count() const noexcept;
    /// True when nearest_face uses the file's stored tree (else its own BVH).
    bool uses_stored_tree() const noexcept;
    /// Bytes held by the query structures (pieces, adjacency, links, islands, trees); the
    /// corner graph, once built, is counted apart (corner_graph_stats().bytes).
    std::size_t memory_bytes() const noexcept;

    /// The face closest to `point` among those whose bounds overlap point ± extents.
    NearestResult nearest_face(const Vec3& point, const Vec3& extents = kDefaultExtents) const;
    /// nearest_face with unbounded extents (by a linear scan only when the tree is missing).
    NearestResult nearest_face_anywhere(const Vec3& point) const;
    /// nearest_face by a scan of every face (the benchmarks' baseline).
    NearestResult nearest_face_linear(const Vec3& point, const Vec3& extents = kDefaultExtents) const;

    /// Shortest path from `from` to `to`. Each endpoint snaps to its nearest face within
    /// `extents`; when there is none the status is OffMesh with the distance of that point to
    /// the mesh. NoPath when the islands say the target cannot be reached (answered without a
    /// search) or the filter blocks every way. Never throws for valid points; non-finite
    /// points are OffMesh.
    PathResult find_path(const Vec3& from, const Vec3& to, PathMode mode, const QueryFilter& filter = {},
                         const Vec3& extents = kDefaultExtents) const;

    /// Chooses how `exact` mode searches (default Auto). Not thread-safe: call before queries.
    void set_exact_search(ExactSearch search) noexcept;
    /// Builds the corner graph now (else the first exact query that uses it builds it, once,
    /// thread-safely) and returns its figures. Build cost: one visibility sweep per reflex
    /// corner over the faces it sees; memory: 4 bytes per edge plus ~60 bytes per corner.
    CornerGraphStats corner_graph_stats() const;

    /// Walks from `from` (snapped to its face) towards `to` in xz across portals until a wall
    /// (boundary edge or excluded face) or the target. Links are not followed.
    RaycastResult raycast(const Vec3& from, const Vec3& to, const QueryFilter& filter = {},
                          const Vec3& extents = kDefaultExtents) const;

    /// Islands with links (use_links) or without; sorted by their smallest face.
    std::vector<Island> islands(bool use_links = true) const;
    /// Island index of a face (in islands(use_links) order).
    std::uint32_t island_of(std::uint32_t face, bool use_links = true) const;
    /// Whether face `to` can be reached from face `from` (islands and their one-way links).
    bool reachable(std::uint32_t from, std::uint32_t to, bool use_links = true) const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

std::string_view mode_name(PathMode mode);
std::string_view status_name(PathStatus status);

}  // namespace navlab::query
