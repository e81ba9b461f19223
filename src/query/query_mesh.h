// The internal form NavMeshQuery runs on: the view's faces split into pieces that are convex
// seen from above (a convex face is one piece; any other face is split by the Newell-plane ear
// clipping of geometry/triangulate.h), all turned counter-clockwise in (x, z) by cross2, with
// their neighbours across every edge, the links, the islands and a box tree for nearest-face
// searches. Not part of the public API.
#pragma once

#include <array>
#include <cmath>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "query/navmesh_query.h"

namespace navlab::query {

/// A point seen from above.
struct P2 {
    double x = 0, z = 0;
};
inline P2 xz(const Vec3& p) { return {p.x, p.z}; }
inline P2 operator-(P2 a, P2 b) { return {a.x - b.x, a.z - b.z}; }
/// The z component of a × b with (x, z) taken as a plane's (x, y): positive when b turns
/// counter-clockwise from a in that plane. Every orientation here uses it.
inline double cross2(P2 a, P2 b) { return a.x * b.z - a.z * b.x; }
inline double orient2(P2 a, P2 b, P2 c) { return cross2(b - a, c - a); }
inline double dist_xz(const Vec3& a, const Vec3& b) { return std::hypot(a.x - b.x, a.z - b.z); }
inline double dist3(const Vec3& a, const Vec3& b) { return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z)); }
inline Vec3 lerp(const Vec3& a, const Vec3& b, double t) { return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t}; }
inline bool same_xz(const Vec3& a, const Vec3& b) { return a.x == b.x && a.z == b.z; }

/// Sentinel of piece_nbr / piece_edge.
inline constexpr std::int32_t kNone = -1;

/// An axis-aligned box in float.
struct Box {
    std::array<float, 3> min{}, max{};
};

/// A traversable user edge between pieces.
struct PieceLink {
    std::uint32_t from_piece = 0, to_piece = 0;
    Vec3 start, end;       ///< snapped onto the pieces
    double length = 0;     ///< |end - start| (3-D): the link's cost
    std::uint32_t edge = 0;
};

/// Directed reachability: strongly connected islands and the DAG between them.
struct IslandIndex {
    std::vector<std::uint32_t> of_face;
    std::vector<std::vector<std::uint32_t>> successors;  ///< per island, ascending, no self
    std::uint32_t count = 0;
};

/// A flat box tree (pre-order): node i's subtree ends at `skip`; a leaf holds one item.
struct FlatTree {
    struct Node {
        Box box;
        std::uint32_t skip = 0;   ///< index after this node's subtree
        std::int32_t item = -1;   ///< leaf: piece (BVH) or face (stored tree); -1 internal
    };
    std::vector<Node> nodes;
};

struct NavMeshQuery::Impl {
    std::vector<Vec3> verts;
    std::vector<std::uint32_t> piece_first;  ///< pieces + 1
    std::vector<std::uint32_t> piece_vert;   ///< corners, counter-clockwise by cross2
    std::vector<std::int32_t> piece_nbr;     ///< neighbour piece across corner k -> k+1, or kNone
    std::vector<std::int32_t> piece_edge;    ///< view edge_id of that edge, or kNone on a cut
    std::vector<std::int32_t> piece_nbr_edge;  ///< index of the same edge in the neighbour, or kNone
    std::vector<std::uint32_t> canon;          ///< per vertex: id of its exact position (welded)
    std::vector<std::uint8_t> canon_corner;    ///< per welded position: 1 reflex boundary vertex, 2 end of an unmatched portal (a path may turn there)
    std::vector<std::uint32_t> canon_piece_first, canon_piece;  ///< welded position -> pieces
    std::vector<std::uint32_t> piece_face;
    std::vector<std::uint32_t> face_first_piece;  ///< faces + 1
    std::vector<std::uint32_t> face_bits;
    std::vector<PieceLink> links;
    std::vector<std::uint32_t> piece_link_first;  ///< pieces + 1
    IslandIndex islands_links, islands_plain;
    FlatTree tree;
    bool stored_tree = false;

    /// Whether a path may turn at welded position c under filter f: a reflex vertex of the
    /// boundary, the end of an unmatched portal, or a vertex of an excluded piece (turning
    /// anywhere else is never shortest).
    bool is_corner(std::uint32_t c, const QueryFilter& f) const;

    std::size_t pieces() const { return piece_face.size(); }
    std::uint32_t corners(std::size_t p) const { return piece_first[p + 1] - piece_first[p]; }
    const Vec3& corner(std::size_t p, std::uint32_t k) const { return verts[piece_vert[piece_first[p] + k]]; }

    // build.cpp
    void build(const NavView& view, const fromsoft::QueryMediator* mediator);
    // geometry helpers (nearest.cpp)
    bool inside_xz(std::size_t p, P2 q, double eps = 1e-9) const;
    /// Height of the piece's surface at q (fan triangles from corner 0; nearest fan triangle's
    /// plane when q is outside).
    double height_at(std::size_t p, P2 q) const;
    /// Closest point of piece p to q in 3-D (Detour's closestPointOnPoly): inside in xz -> the
    /// surface point above/below, else the closest point of its boundary.
    Vec3 closest_on_piece(std::size_t p, const Vec3& q) const;
    /// The closest piece among those overlapping q ± ext (through the tree, or by a scan of
    /// every piece when `linear`); -1 when none. A piece q is over (in xz) ranks by its
    /// vertical distance less 0.5 m, as Detour's findNearestPoly ranks by walkableClimb.
    std::int64_t nearest_piece(const Vec3& q, const Vec3& ext, Vec3& point, bool linear = false) const;
    /// Cost multiplier of a piece under a filter; 0 when the piece is excluded.
    double piece_weight(std::size_t p, const QueryFilter& f) const;
    const IslandIndex& islands_for(bool use_links) const { return use_links ? islands_links : islands_plain; }
    bool reach(std::uint32_t from_face, std::uint32_t to_face, bool use_links) const;

    // corridor.cpp
    PathResult corridor_path(std::uint32_t sp, const Vec3& s, std::uint32_t ep, const Vec3& e, const QueryFilter& f) const;
    /// The face A* of corridor_path; when `allowed` is given (one byte per cluster of
    /// f.cluster_guide), only pieces of faces in allowed clusters are entered.
    PathResult corridor_search(std::uint32_t sp, const Vec3& s, std::uint32_t ep, const Vec3& e, const QueryFilter& f,
                               const std::vector<std::uint8_t>* allowed) const;
    /// The pieces containing q (closed, seen from above) connected to p0 through walkable
    /// pieces that contain it too, p0 first, appended to `out`; each is marked stamp[p] = gen.
    void pieces_containing(std::uint32_t p0, P2 q, const QueryFilter& f, std::vector<std::uint32_t>& stamp,
                           std::uint32_t gen, std::vector<std::uint32_t>& out) const;

    // polyanya.cpp
    /// The interval search (Polyanya).
    PathResult polyanya_path(std::uint32_t sp, const Vec3& s, std::uint32_t ep, const Vec3& e, const QueryFilter& f) const;

    // corner_graph.cpp
    /// `exact` mode: the corner graph when it applies (ExactSearch, filter, links), else the
    /// interval search; cost multipliers > 1 go to the corridor search.
    PathResult exact_path(std::uint32_t sp, const Vec3& s, std::uint32_t ep, const Vec3& e, const QueryFilter& f) const;
    struct CornerGraph;
    ExactSearch exact_search = ExactSearch::Auto;
    mutable std::unique_ptr<CornerGraph> corner_graph;  ///< built once, on first use (corner_graph_once)
    mutable std::once_flag corner_graph_once;
    mutable std::atomic<std::uint64_t> graph_queries{0}, graph_fallbacks{0};
    mutable std::atomic<std::uint64_t> interval_ns{0};  ///< Auto: time spent in interval searches so far
    mutable std::atomic<bool> graph_ready{false};
    static constexpr std::size_t kAutoPieces = 4096;  ///< ExactSearch::Auto: smaller meshes keep Intervals
    /// Expected build time of the graph per piece (measured: 0.3-0.6 ms on 3.7k-150k pieces).
    static constexpr std::uint64_t kBuildNsPerPiece = 500'000;
    const CornerGraph& graph() const;
    /// The corner graph's answer in `out`; false when it cannot answer (no path in the graph,
    /// a failed trace, a lifted length off the graph's): the caller runs the interval search.
    bool graph_path(std::uint32_t sp, const Vec3& s, std::uint32_t ep, const Vec3& e, const QueryFilter& f,
                    PathResult& out) const;
    Impl();
    ~Impl();

    /// One step of a corridor: entering piece `to` through edge k of piece `from`, or by link.
    struct Step {
        std::uint32_t from = 0, to = 0;
        std::int32_t edge = -1;  ///< edge index in `from`, or -1 for a link
        std::int32_t link = -1;  ///< index into links for a link step
    };
    /// Builds the PathResult (points lifted, lengths, faces, links) of a corridor whose
    /// turning points are known: `turns` are the 3-D turning points of each link-free segment
    /// (start, ..., end of the segment), one list per segment, segments separated by links.
    PathResult finish_path(PathMode mode, std::uint32_t sp, std::uint32_t ep, const std::vector<Step>& steps,
                           const std::vector<std::vector<Vec3>>& turns, double cost) const;
    /// String pulling (simple stupid funnel) through the portals of steps[first, last), from
    /// a to b; returns the turning points including a and b.
    std::vector<Vec3> funnel(const Vec3& a, const Vec3& b, const std::vector<Step>& steps, std::size_t first,
                             std::size_t last) const;
    /// Portal of a step: right and left endpoints as seen when walking through it.
    void portal(const Step& st, Vec3& right, Vec3& left) const {
        std::uint32_t n = corners(st.from);
        right = corner(st.from, static_cast<std::uint32_t>(st.edge));
        left = corner(st.from, (static_cast<std::uint32_t>(st.edge) + 1) % n);
    }
};

}  // namespace navlab::query
