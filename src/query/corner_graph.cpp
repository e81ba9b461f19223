// `exact` mode on large meshes: A* over a visibility graph of the mesh's reflex corners.
//
// A Euclidean shortest path in a polygonal domain bends only at reflex corners of the
// boundary, and at each bend both of its segments are *tangent* to the boundary there (the
// blocked wedge lies on one side of each segment's line: otherwise the path could be shortened
// around the corner). So the shortest path is a shortest path in the graph whose nodes are
// the reflex corners and whose edges join two corners that see each other, tangent at both
// ends — plus the start and the goal joined to the corners they see (tangent at the corner)
// and to each other when they see each other.
//
// Visibility is computed over the mesh adjacency, never a 2-D map (multi-level geometry
// works): a sweep from a root expands the root's cone piece by piece, exactly as the interval
// search does without ever turning (same cone arithmetic, cone.h). A corner is a *fan*: the
// pieces around a vertex joined through edges at that vertex; two fans touching at one vertex
// (a pinch) are two nodes, since no path passes from one to the other there.
//
// Per query: one best-first loop over the cones of a sweep from the goal, the cones of a
// sweep from the start and the graph's nodes (see graph_path) gives the length and the corners
// the path turns at; each segment is then traced through the mesh (its portals) and the fan
// walked round each corner, which yields the corridor, the lifted points and the same result
// type as the interval search. If a trace fails or the lifted length differs from the graph's
// (never seen; a safety net against rounding), the interval search answers.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <tuple>

#include "query/cone.h"
#include "query/query_mesh.h"

namespace navlab::query {

namespace {

/// One cone of a visibility sweep: piece Q entered through its edge `edge` between `right`
/// and `left` (or all of Q when `full`: the root lies on Q's boundary).
struct SweepItem {
    std::uint32_t piece = 0;
    std::int32_t edge = -1;
    P2 right, left;
    bool full = false;
};

}  // namespace

struct NavMeshQuery::Impl::CornerGraph {
    std::vector<std::int32_t> node_of;        ///< per piece corner (piece_first index): node, or -1
    std::vector<std::uint32_t> node_vert;     ///< a vertex index of the node's position
    std::vector<P2> node_pos;                 ///< that position seen from above (read by the A*)
    std::vector<std::uint32_t> fan_first;     ///< nodes + 1: the fan's pieces in fan_piece
    std::vector<std::uint32_t> fan_piece;
    std::vector<std::array<P2, 2>> rays;      ///< the two boundary directions of the fan
    std::vector<std::uint8_t> walls;          ///< kTwoWalls: rays holds the fan's two walls; kNoWall:
                                              ///< the fan surrounds its vertex (never a turn)
    std::vector<std::uint32_t> edge_first;    ///< nodes + 1
    std::vector<std::uint32_t> edge_to;
    double build_seconds = 0;

    std::size_t nodes() const { return node_vert.size(); }
    std::size_t bytes() const {
        return node_of.capacity() * 4 + node_vert.capacity() * 4 + node_pos.capacity() * sizeof(P2) + fan_first.capacity() * 4 + fan_piece.capacity() * 4 +
               rays.capacity() * sizeof(rays[0]) + walls.capacity() + edge_first.capacity() * 4 + edge_to.capacity() * 4;
    }
    /// Whether the line through node u in direction d leaves u's blocked wedge on one side
    /// (collinear counts as tangent; a fan without exactly two walls is never filtered).
    static constexpr std::uint8_t kOtherWalls = 0, kTwoWalls = 1, kNoWall = 2;
    bool tangent(std::uint32_t u, P2 d) const {
        if (walls[u] != kTwoWalls) return true;
        double a = tangent_side(d, rays[u][0]), b = tangent_side(d, rays[u][1]);
        return !(a > 0 && b < 0) && !(a < 0 && b > 0);
    }
    /// The side of the line through u along d (arriving) where u's blocked wedge lies: +1
    /// left, -1 right, 0 unknown or on the line. A shortest path turns towards it at u (never
    /// away: that turn could be cut short), which prunes half of u's edges per expansion.
    int wedge_side(std::uint32_t u, P2 d) const {
        if (walls[u] != kTwoWalls) return 0;
        double a = tangent_side(d, rays[u][0]);
        if (a == 0) a = tangent_side(d, rays[u][1]);
        return a > 0 ? 1 : a < 0 ? -1 : 0;
    }
    /// Whether leaving along `out` after arriving along `in` turns towards side `wedge`.
    static bool turns_towards(int wedge, P2 in, P2 out) {
        double t = tangent_side(in, out);
        return wedge == 0 || t == 0 || (t > 0) == (wedge > 0);
    }
    /// Passes on the parts of cone c (from u's position r) whose directions can be tangent at
    /// u: the directions between the two walls' extensions beyond u (the wedge opposite the
    /// blocked one) are not — a line that way has a wall on each side. Up to two parts.
    template <class Push>
    void clip_to_tangent(std::uint32_t u, P2 r, const SweepItem& c, Push&& push) const {
        if (walls[u] != kTwoWalls) return push(c);
        P2 a1{-rays[u][0].x, -rays[u][0].z}, a2{-rays[u][1].x, -rays[u][1].z};
        const double turn = cross2(a1, a2);
        if (turn == 0) return push(c);
        const double sg = turn > 0 ? 1 : -1;
        // Each side turned 1e-9 rad into the wedge: directions within that of a wall's line
        // stay in the parts kept (tangent() counts them as on the line, 1e-12 relative).
        constexpr double kIn = 1e-9;
        a1 = {a1.x - sg * kIn * a1.z, a1.z + sg * kIn * a1.x};
        a2 = {a2.x + sg * kIn * a2.z, a2.z - sg * kIn * a2.x};
        // Along right -> left: inside the opposite wedge where sg*cross(a1, x) >= 0 and
        // sg*cross(x, a2) >= 0.
        const P2 x0 = c.right - r, x1 = c.left - r;
        auto [lo1, hi1] = cone::range_where(sg * cross2(a1, x0), sg * cross2(a1, x1), +1);
        auto [lo2, hi2] = cone::range_where(sg * cross2(x0, a2), sg * cross2(x1, a2), +1);
        const double lo = std::max(lo1, lo2), hi = std::min(hi1, hi2);
        if (lo > hi) return push(c);
        if (lo > 1e-12) push(SweepItem{c.piece, c.edge, c.right, cone::at(c.right, c.left, lo), false});
        if (hi < 1 - 1e-12) push(SweepItem{c.piece, c.edge, cone::at(c.right, c.left, hi), c.left, false});
    }
    static double tangent_side(P2 d, P2 r) {
        double c = cross2(d, r);
        return std::fabs(c) <= 1e-12 * std::sqrt((d.x * d.x + d.z * d.z) * (r.x * r.x + r.z * r.z)) ? 0 : c;
    }
};

NavMeshQuery::Impl::Impl() = default;
NavMeshQuery::Impl::~Impl() = default;

namespace {

/// A cone of trace_segment, with the cone it came from.
struct TraceItem {
    std::uint32_t piece;
    std::int32_t edge, parent;
    std::int32_t parent_edge;  ///< the edge of the parent's piece crossed into this one (-1 at the start)
    P2 right, left;
    bool full;
};

struct SweepScratch {
    std::vector<TraceItem> trace_items;
    std::vector<std::int32_t> trace_todo;
    std::vector<SweepItem> stack, cones_s, cones_g;
    std::vector<std::tuple<double, std::uint8_t, std::uint32_t>> open;  ///< a binary heap (graph_path)
    std::vector<std::uint32_t> full_stamp, full_stamp_goal, node_stamp, goal_node_stamp, piece_stamp, start_piece_stamp;
    std::vector<double> goal_dist, dist;
    std::vector<double> side_r, side_l;  ///< per corner of the piece being swept
    std::vector<std::int32_t> parent;
    std::vector<std::uint32_t> start_pieces, goal_pieces;
    std::uint32_t generation = 0;
    void prepare(std::size_t pieces, std::size_t nodes) {
        if (full_stamp.size() != pieces || node_stamp.size() != nodes) {
            full_stamp.assign(pieces, 0), full_stamp_goal.assign(pieces, 0);
            piece_stamp.assign(pieces, 0), start_piece_stamp.assign(pieces, 0);
            node_stamp.assign(nodes, 0), goal_node_stamp.assign(nodes, 0);
            goal_dist.assign(nodes, 0), dist.assign(nodes, 0), parent.assign(nodes, -1);
            generation = 0;
        }
        if (generation > 0xfff00000u) {  // a query takes a few generations: never wrap mid-query
            for (auto* v : {&full_stamp, &full_stamp_goal, &piece_stamp, &start_piece_stamp, &node_stamp, &goal_node_stamp})
                std::fill(v->begin(), v->end(), 0);
            generation = 0;
        }
        ++generation;
    }
};

thread_local SweepScratch t_sweep;

}  // namespace

/// Expands one cone of a visibility sweep from r: visit(Q, cone) for its piece (cone =
/// nullptr when all of Q is visible, else sc.side_r/side_l hold each corner's side of the
/// cone's rays, as cone::side), then child(item) for each cone beyond Q. `full_stamp` marks
/// the pieces already taken whole (the root on their boundary).
template <class Visit, class Child>
static void expand_cone(const NavMeshQuery::Impl& m, P2 r, const SweepItem& it, SweepScratch& sc,
                        std::vector<std::uint32_t>& full_stamp, std::uint32_t gen, Visit&& visit, Child&& child) {
    using cone::range_where;
    using cone::side;
    auto enter = [&](std::uint32_t p, std::uint32_t j, P2 right, P2 left) {
        std::int32_t q = m.piece_nbr[m.piece_first[p] + j], e = m.piece_nbr_edge[m.piece_first[p] + j];
        if (q >= 0 && e >= 0) child(SweepItem{static_cast<std::uint32_t>(q), e, right, left, false});
    };
    const std::uint32_t Q = it.piece, n = m.corners(Q);
    if (it.full) {
        visit(Q, static_cast<const SweepItem*>(nullptr));
        for (std::uint32_t j = 0; j < n; ++j) {
            if (static_cast<std::int32_t>(j) == it.edge) continue;
            P2 a = xz(m.corner(Q, j)), b = xz(m.corner(Q, (j + 1) % n));
            double o = orient2(a, b, r);
            if (o > 0) {
                enter(Q, j, a, b);
            } else if (o == 0 && std::min(a.x, b.x) <= r.x && r.x <= std::max(a.x, b.x) && std::min(a.z, b.z) <= r.z &&
                       r.z <= std::max(a.z, b.z)) {
                // The root lies on this edge too: the piece beyond sees it on its boundary.
                std::int32_t q = m.piece_nbr[m.piece_first[Q] + j], e = m.piece_nbr_edge[m.piece_first[Q] + j];
                if (q >= 0 && e >= 0 && full_stamp[q] != gen) {
                    full_stamp[q] = gen;
                    child(SweepItem{static_cast<std::uint32_t>(q), e, {}, {}, true});
                }
            }
        }
        return;
    }
    // Each corner's side of the cone's two rays, once per piece.
    const P2 R = it.right, L = it.left;
    sc.side_r.resize(n), sc.side_l.resize(n);
    for (std::uint32_t j = 0; j < n; ++j) {
        P2 a = xz(m.corner(Q, j));
        sc.side_r[j] = side(r, R, a), sc.side_l[j] = side(r, L, a);
    }
    visit(Q, &it);
    const auto k = static_cast<std::uint32_t>(it.edge);
    for (std::uint32_t j = (k + 1) % n; j != k; j = (j + 1) % n) {
        const std::uint32_t j1 = (j + 1) % n;
        P2 a = xz(m.corner(Q, j)), b = xz(m.corner(Q, j1));
        auto [rlo, rhi] = range_where(sc.side_r[j], sc.side_r[j1], +1);
        auto [llo, lhi] = range_where(sc.side_l[j], sc.side_l[j1], -1);
        double lo = std::max(rlo, llo), hi = std::min(rhi, lhi);
        // A single point leads nowhere new: the vertex there is seen from this piece.
        if (hi - lo > 1e-12 && orient2(a, b, r) > 0) enter(Q, j, cone::at(a, b, lo), cone::at(a, b, hi));
    }
}

/// Calls on_node(node) for each corner node of piece Q inside cone c (all when c is null: see
/// expand_cone), except those at the welded position skip_canon and fans around their vertex.
template <class OnNode>
static void seen_nodes(const NavMeshQuery::Impl& m, const NavMeshQuery::Impl::CornerGraph& g, std::uint32_t Q,
                       const SweepItem* c, const SweepScratch& sc, std::int64_t skip_canon, OnNode&& on_node) {
    const std::uint32_t first = m.piece_first[Q], n = m.corners(Q);
    for (std::uint32_t k = 0; k < n; ++k) {
        std::int32_t w = g.node_of[first + k];
        if (w < 0 || g.walls[w] == g.kNoWall) continue;
        if (c && !(sc.side_r[k] >= 0 && sc.side_l[k] <= 0)) continue;  // outside the cone
        if (static_cast<std::int64_t>(m.canon[m.piece_vert[first + k]]) == skip_canon) continue;
        on_node(static_cast<std::uint32_t>(w));
    }
}

/// Everything visible (seen from above, through the mesh's adjacency) from `root`, which lies
/// in every piece of `start`: on_node(node) once for each corner node seen (nodes at the
/// welded position skip_canon ignored). No turning, so the cones never overlap and no piece
/// cone is repeated; bounded anyway by 64 × pieces cones. `first_cones(cone, push)` passes on
/// (or narrows, or drops) each cone leaving the start pieces.
template <class OnNode, class FirstCones>
static void visible_nodes(const NavMeshQuery::Impl& m, const NavMeshQuery::Impl::CornerGraph& g, P2 r,
                          const std::vector<std::uint32_t>& start, SweepScratch& sc, std::uint32_t gen,
                          std::int64_t skip_canon, OnNode&& on_node, FirstCones&& first_cones) {
    auto& stack = sc.stack;
    stack.clear();
    for (std::uint32_t p : start) sc.full_stamp[p] = gen;
    for (std::uint32_t p : start) stack.push_back({p, -1, {}, {}, true});
    std::size_t budget = 64 * m.pieces() + 1024;
    while (!stack.empty() && budget-- > 0) {
        const SweepItem it = stack.back();
        stack.pop_back();
        expand_cone(
            m, r, it, sc, sc.full_stamp, gen,
            [&](std::uint32_t Q, const SweepItem* c) {
                seen_nodes(m, g, Q, c, sc, skip_canon, [&](std::uint32_t w) {
                    if (sc.node_stamp[w] != gen) sc.node_stamp[w] = gen, on_node(w);
                });
            },
            [&](const SweepItem& child) {
                if (it.full && !child.full) first_cones(child, [&](const SweepItem& c) { stack.push_back(c); });
                else stack.push_back(child);
            });
    }
}

/// The pieces crossed by the segment from -> to (seen from above, through the adjacency):
/// the visibility sweep from `from`, following only the cones that hold `to`, until a piece
/// `accept` takes. Appends the steps (portals) in order; `leave` is the start piece the
/// segment leaves from, `arrive` the accepted piece. False when no cone reaches `to`.
template <class Accept>
static bool trace_segment(const NavMeshQuery::Impl& m, P2 from, const std::vector<std::uint32_t>& start, P2 to,
                          SweepScratch& sc, std::uint32_t gen, Accept&& accept, std::vector<NavMeshQuery::Impl::Step>& steps,
                          std::uint32_t& leave, std::uint32_t& arrive) {
    using Item = TraceItem;
    auto& items = sc.trace_items;
    auto& todo = sc.trace_todo;
    items.clear(), todo.clear();
    for (std::uint32_t p : start) {
        sc.full_stamp[p] = gen;
        items.push_back({p, -1, -1, -1, {}, {}, true});
        todo.push_back(static_cast<std::int32_t>(items.size() - 1));
    }
    std::size_t budget = 64 * m.pieces() + 1024;
    auto enter = [&](std::int32_t parent, std::uint32_t p, std::uint32_t j, P2 right, P2 left, bool full) {
        std::int32_t q = m.piece_nbr[m.piece_first[p] + j], e = m.piece_nbr_edge[m.piece_first[p] + j];
        if (q < 0 || e < 0) return;
        items.push_back({static_cast<std::uint32_t>(q), e, parent, static_cast<std::int32_t>(j), right, left, full});
        todo.push_back(static_cast<std::int32_t>(items.size() - 1));
    };
    std::int32_t found = -1;
    while (!todo.empty() && budget-- > 0) {
        const std::int32_t id = todo.back();
        todo.pop_back();
        const Item it = items[id];
        const std::uint32_t Q = it.piece, n = m.corners(Q);
        if (accept(Q)) {
            found = id;
            break;
        }
        for (std::uint32_t j = 0; j < n; ++j) {
            if (static_cast<std::int32_t>(j) == it.edge) continue;
            P2 a = xz(m.corner(Q, j)), b = xz(m.corner(Q, (j + 1) % n));
            if (it.full) {
                double o = orient2(a, b, from);
                if (o > 0) {
                    if (cone::in_cone(from, a, b, to)) enter(id, Q, j, a, b, false);
                } else if (o == 0 && std::min(a.x, b.x) <= from.x && from.x <= std::max(a.x, b.x) &&
                           std::min(a.z, b.z) <= from.z && from.z <= std::max(a.z, b.z)) {
                    std::int32_t q = m.piece_nbr[m.piece_first[Q] + j];
                    if (q >= 0 && sc.full_stamp[q] != gen) sc.full_stamp[q] = gen, enter(id, Q, j, {}, {}, true);
                }
                continue;
            }
            auto [rlo, rhi] = cone::range_where(cone::side(from, it.right, a), cone::side(from, it.right, b), +1);
            auto [llo, lhi] = cone::range_where(cone::side(from, it.left, a), cone::side(from, it.left, b), -1);
            double lo = std::max(rlo, llo), hi = std::min(rhi, lhi);
            if (hi - lo <= 1e-12 || orient2(a, b, from) <= 0) continue;
            P2 r = cone::at(a, b, lo), l = cone::at(a, b, hi);
            if (cone::in_cone(from, r, l, to)) enter(id, Q, j, r, l, false);
        }
    }
    if (found < 0) return false;
    arrive = items[found].piece;
    const std::size_t first = steps.size();
    std::int32_t id = found;
    for (; items[id].parent >= 0; id = items[id].parent) {
        // The step the sweep took (parent's piece, through its edge): on a non-manifold mesh
        // the entered piece's own neighbour across that edge may be another piece, or none.
        const Item& it = items[id];
        steps.push_back({items[it.parent].piece, it.piece, it.parent_edge, -1});
    }
    leave = items[id].piece;
    std::reverse(steps.begin() + static_cast<std::ptrdiff_t>(first), steps.end());
    return true;
}

/// Inserts at steps[at] the walk around node u's vertex from piece `from` to piece `to`
/// through the fan's edges at the vertex (one way round or the other: the fan is an arc).
static bool walk_fan(const NavMeshQuery::Impl& m, const NavMeshQuery::Impl::CornerGraph& g, std::uint32_t u,
                     std::uint32_t from, std::uint32_t to, std::vector<NavMeshQuery::Impl::Step>& steps, std::size_t at) {
    const std::uint32_t fan_size = g.fan_first[u + 1] - g.fan_first[u];
    auto slot = [&](std::uint32_t p) -> std::int64_t {
        for (std::uint32_t k = 0; k < m.corners(p); ++k)
            if (g.node_of[m.piece_first[p] + k] == static_cast<std::int32_t>(u)) return k;
        return -1;
    };
    for (int dir : {+1, -1}) {
        std::vector<NavMeshQuery::Impl::Step> walk;
        std::uint32_t p = from;
        for (std::uint32_t guard = 0; p != to && guard <= fan_size; ++guard) {
            std::int64_t k = slot(p);
            if (k < 0) break;
            std::uint32_t n = m.corners(p);
            // +1: the edge leaving the vertex (k -> k+1); -1: the edge arriving at it.
            auto j = static_cast<std::uint32_t>(dir > 0 ? k : (k + n - 1) % n);
            std::int32_t q = m.piece_nbr[m.piece_first[p] + j];
            if (q < 0 || m.piece_nbr_edge[m.piece_first[p] + j] < 0) break;
            walk.push_back({p, static_cast<std::uint32_t>(q), static_cast<std::int32_t>(j), -1});
            p = static_cast<std::uint32_t>(q);
        }
        if (p == to) {
            steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(at), walk.begin(), walk.end());
            return true;
        }
    }
    return false;
}

const NavMeshQuery::Impl::CornerGraph& NavMeshQuery::Impl::graph() const {
    std::call_once(corner_graph_once, [this] {
        auto t0 = std::chrono::steady_clock::now();
        auto g = std::make_unique<CornerGraph>();
        g->node_of.assign(piece_vert.size(), -1);
        // Fans: the corners of the pieces at a corner position, joined through the edges at it.
        std::vector<std::uint32_t> items, uf;
        auto find = [&](std::uint32_t i) {
            while (uf[i] != i) i = uf[i] = uf[uf[i]];
            return i;
        };
        for (std::uint32_t c = 0; c < canon_corner.size(); ++c) {
            if (!canon_corner[c]) continue;
            items.clear();
            for (std::uint32_t i = canon_piece_first[c]; i < canon_piece_first[c + 1]; ++i) {
                std::uint32_t p = canon_piece[i];
                for (std::uint32_t k = 0; k < corners(p); ++k)
                    if (canon[piece_vert[piece_first[p] + k]] == c) items.push_back(piece_first[p] + k);
            }
            std::sort(items.begin(), items.end());
            items.erase(std::unique(items.begin(), items.end()), items.end());
            uf.resize(items.size());
            for (std::uint32_t i = 0; i < items.size(); ++i) uf[i] = i;
            auto item_of = [&](std::uint32_t slot) -> std::int64_t {
                auto it = std::lower_bound(items.begin(), items.end(), slot);
                return it != items.end() && *it == slot ? it - items.begin() : -1;
            };
            // Piece of a slot: piece_first is ascending.
            auto piece_of = [&](std::uint32_t slot) {
                return static_cast<std::uint32_t>(std::upper_bound(piece_first.begin(), piece_first.end(), slot) - piece_first.begin() - 1);
            };
            for (std::uint32_t i = 0; i < items.size(); ++i) {
                std::uint32_t p = piece_of(items[i]), k = items[i] - piece_first[p], n = corners(p);
                for (std::uint32_t j : {k, (k + n - 1) % n}) {  // the two edges at the corner
                    std::int32_t q = piece_nbr[piece_first[p] + j], e = piece_nbr_edge[piece_first[p] + j];
                    if (q < 0 || e < 0) continue;
                    // Edge j of p is edge e of q reversed: the corner is q[e + 1] or q[e].
                    std::uint32_t nq = corners(static_cast<std::uint32_t>(q));
                    std::uint32_t kq = j == k ? (static_cast<std::uint32_t>(e) + 1) % nq : static_cast<std::uint32_t>(e);
                    std::int64_t o = item_of(piece_first[q] + kq);
                    if (o >= 0) uf[find(i)] = find(static_cast<std::uint32_t>(o));
                }
            }
            for (std::uint32_t i = 0; i < items.size(); ++i) {
                std::uint32_t root = find(i);
                if (g->node_of[items[root]] < 0) {
                    g->node_of[items[root]] = static_cast<std::int32_t>(g->node_vert.size());
                    g->node_vert.push_back(piece_vert[items[root]]);
                }
                g->node_of[items[i]] = g->node_of[items[root]];
            }
        }
        // Fan pieces and walls per node.
        const std::size_t N = g->nodes();
        std::vector<std::vector<std::uint32_t>> fan(N);
        std::vector<std::vector<P2>> walls(N);
        for (std::uint32_t p = 0; p < pieces(); ++p)
            for (std::uint32_t k = 0, n = corners(p); k < n; ++k) {
                std::int32_t u = g->node_of[piece_first[p] + k];
                if (u < 0) continue;
                fan[u].push_back(p);
                P2 at = xz(corner(p, k));
                if (piece_nbr[piece_first[p] + k] < 0 || piece_nbr_edge[piece_first[p] + k] < 0)
                    walls[u].push_back(xz(corner(p, (k + 1) % n)) - at);
                std::uint32_t j = (k + n - 1) % n;
                if (piece_nbr[piece_first[p] + j] < 0 || piece_nbr_edge[piece_first[p] + j] < 0)
                    walls[u].push_back(xz(corner(p, j)) - at);
            }
        for (std::uint32_t v : g->node_vert) g->node_pos.push_back(xz(verts[v]));
        g->fan_first.push_back(0);
        g->rays.resize(N), g->walls.assign(N, CornerGraph::kOtherWalls);
        for (std::size_t u = 0; u < N; ++u) {
            g->fan_piece.insert(g->fan_piece.end(), fan[u].begin(), fan[u].end());
            g->fan_first.push_back(static_cast<std::uint32_t>(g->fan_piece.size()));
            if (walls[u].size() == 2) g->rays[u] = {walls[u][0], walls[u][1]}, g->walls[u] = CornerGraph::kTwoWalls;
            if (walls[u].empty()) g->walls[u] = CornerGraph::kNoWall;
        }
        // Edges: one sweep per node.
        SweepScratch sc;
        sc.prepare(pieces(), N);
        std::vector<std::uint32_t> start;
        g->edge_first.push_back(0);
        for (std::uint32_t u = 0; u < N; ++u) {
            const std::uint32_t gen = ++sc.generation;
            if (g->walls[u] == CornerGraph::kNoWall) {
                g->edge_first.push_back(static_cast<std::uint32_t>(g->edge_to.size()));
                continue;
            }
            start.assign(g->fan_piece.begin() + g->fan_first[u], g->fan_piece.begin() + g->fan_first[u + 1]);
            const P2 r = xz(verts[g->node_vert[u]]);
            visible_nodes(*this, *g, r, start, sc, gen, canon[g->node_vert[u]],
                          [&](std::uint32_t w) {
                              P2 d = xz(verts[g->node_vert[w]]) - r;
                              if (g->tangent(u, d) && g->tangent(w, d)) g->edge_to.push_back(w);
                          },
                          [&](const SweepItem& c, auto&& push) { g->clip_to_tangent(u, r, c, push); });
            g->edge_first.push_back(static_cast<std::uint32_t>(g->edge_to.size()));
        }
        g->edge_to.shrink_to_fit();
        g->build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        corner_graph = std::move(g);
        graph_ready.store(true, std::memory_order_release);
    });
    return *corner_graph;
}

bool NavMeshQuery::Impl::graph_path(std::uint32_t sp, const Vec3& s, std::uint32_t ep, const Vec3& e, const QueryFilter& f,
                                    PathResult& out) const {
    const CornerGraph& g = graph();
    SweepScratch& sc = t_sweep;
    sc.prepare(pieces(), g.nodes());
    const P2 s2 = xz(s), e2 = xz(e);
    auto pos = [&](std::uint32_t u) { return g.node_pos[u]; };
    const double inf = std::numeric_limits<double>::infinity();

    // One best-first loop over three kinds of entries: cones of the sweep from the goal (they
    // tell which corners see the goal), cones of the sweep from the start (corners the start
    // sees), and graph nodes. Keys: a node's f = g + straight distance to the goal; a cone's
    // key bounds |start, u| + |u, goal| for every corner u in it (Polyanya's h through the
    // cone's interval), so when a node is popped every cone that could connect it is done, and
    // the sweeps stop at the ellipse f <= C* instead of covering all that s and g see.
    const std::uint32_t sgen = sc.generation, ggen = ++sc.generation;
    sc.goal_pieces.clear(), sc.start_pieces.clear();
    pieces_containing(ep, e2, f, sc.piece_stamp, ggen, sc.goal_pieces);
    pieces_containing(sp, s2, f, sc.start_piece_stamp, sgen, sc.start_pieces);
    enum Kind : std::uint8_t { GoalCone = 0, StartCone = 1, GraphNode = 2 };
    auto& open = sc.open;
    open.clear();
    auto push = [&](double key, std::uint8_t kind, std::uint32_t i) {
        open.push_back({key, kind, i});
        std::push_heap(open.begin(), open.end(), std::greater<>());
    };
    auto& cones_g = sc.cones_g;
    auto& cones_s = sc.cones_s;
    cones_g.clear(), cones_s.clear();
    const double straight = cone::dist2(s2, e2);
    for (std::uint32_t p : sc.goal_pieces) {
        sc.full_stamp_goal[p] = ggen;
        cones_g.push_back({p, -1, {}, {}, true});
        push(straight, GoalCone, static_cast<std::uint32_t>(cones_g.size() - 1));
    }
    for (std::uint32_t p : sc.start_pieces) {
        sc.full_stamp[p] = sgen;
        cones_s.push_back({p, -1, {}, {}, true});
        push(straight, StartCone, static_cast<std::uint32_t>(cones_s.size() - 1));
    }
    auto cone_key = [&](P2 root, const SweepItem& c, P2 target) {
        return c.full ? cone::dist2(root, target) : cone::through_interval(root, c.left, c.right, target);
    };
    double best = inf;
    std::int32_t best_from = -1;  // -1: straight from the start
    auto relax = [&](std::uint32_t w, double dw, std::int32_t from) {
        if (sc.node_stamp[w] == sgen && dw >= sc.dist[w]) return;
        double fw = dw + cone::dist2(pos(w), e2);
        if (fw >= best) return;
        sc.node_stamp[w] = sgen, sc.dist[w] = dw, sc.parent[w] = from;
        push(fw, GraphNode, w);
    };
    std::size_t budget = 64 * (pieces() + g.nodes()) + 1024;
    while (!open.empty() && budget-- > 0) {
        std::pop_heap(open.begin(), open.end(), std::greater<>());
        const auto [key, kind, i] = open.back();
        open.pop_back();
        if (key >= best) break;
        if (kind == GoalCone) {
            const SweepItem c = cones_g[i];
            expand_cone(
                *this, e2, c, sc, sc.full_stamp_goal, ggen,
                [&](std::uint32_t Q, const SweepItem* cc) {
                    seen_nodes(*this, g, Q, cc, sc, -1, [&](std::uint32_t w) {
                        if (sc.goal_node_stamp[w] == ggen) return;
                        sc.goal_node_stamp[w] = ggen;
                        sc.goal_dist[w] = g.tangent(w, pos(w) - e2) ? cone::dist2(pos(w), e2) : inf;
                    });
                },
                [&](const SweepItem& child) {
                    cones_g.push_back(child);
                    push(cone_key(e2, child, s2), GoalCone, static_cast<std::uint32_t>(cones_g.size() - 1));
                });
        } else if (kind == StartCone) {
            const SweepItem c = cones_s[i];
            expand_cone(
                *this, s2, c, sc, sc.full_stamp, sgen,
                [&](std::uint32_t Q, const SweepItem* cc) {
                    if (sc.piece_stamp[Q] == ggen && (!cc || cone::in_cone(s2, cc->right, cc->left, e2)))
                        best = std::min(best, straight), best_from = -1;
                    seen_nodes(*this, g, Q, cc, sc, -1, [&](std::uint32_t w) {
                        if (g.tangent(w, pos(w) - s2)) relax(w, cone::dist2(s2, pos(w)), -1);
                    });
                },
                [&](const SweepItem& child) {
                    cones_s.push_back(child);
                    push(cone_key(s2, child, e2), StartCone, static_cast<std::uint32_t>(cones_s.size() - 1));
                });
        } else {
            const std::uint32_t u = i;
            const double du = sc.dist[u];
            const P2 pu = pos(u);
            if (key > du + cone::dist2(pu, e2)) continue;  // stale: reached more cheaply since
            const P2 in = pu - (sc.parent[u] >= 0 ? pos(static_cast<std::uint32_t>(sc.parent[u])) : s2);
            const int wedge = g.wedge_side(u, in);
            if (sc.goal_node_stamp[u] == ggen && du + sc.goal_dist[u] < best && CornerGraph::turns_towards(wedge, in, e2 - pu))
                best = du + sc.goal_dist[u], best_from = static_cast<std::int32_t>(u);
            for (std::uint32_t k = g.edge_first[u]; k < g.edge_first[u + 1]; ++k) {
                std::uint32_t w = g.edge_to[k];
                const P2 pw = pos(w);
                if (CornerGraph::turns_towards(wedge, in, pw - pu)) relax(w, du + cone::dist2(pu, pw), static_cast<std::int32_t>(u));
            }
        }
    }
    if (best == inf) return false;

    // The corridor: each segment traced through the cones that hold its far end, and the fan
    // walked around each corner from the piece a segment arrives in to the one the next leaves.
    std::vector<std::uint32_t> chain;  // nodes, start side first
    for (std::int32_t u = best_from; u >= 0; u = sc.parent[u]) chain.push_back(static_cast<std::uint32_t>(u));
    std::reverse(chain.begin(), chain.end());
    std::vector<Vec3> turns{s};
    std::vector<Step> steps;
    std::vector<std::uint32_t> from_pieces = sc.start_pieces;
    P2 from = s2;
    std::int64_t at_node = -1;
    std::uint32_t turn_piece = 0;  // the piece the path arrived in at at_node
    for (std::size_t i = 0; i <= chain.size(); ++i) {
        const bool last = i == chain.size();
        const P2 to = last ? e2 : pos(chain[i]);
        const std::uint32_t gen = ++sc.generation;
        std::uint32_t arrive = 0, leave = 0;
        auto accept = [&](std::uint32_t Q) {
            if (last) return sc.piece_stamp[Q] == ggen;
            for (std::uint32_t k = 0, n = corners(Q); k < n; ++k)
                if (g.node_of[piece_first[Q] + k] == static_cast<std::int32_t>(chain[i])) return true;
            return false;
        };
        const std::size_t before = steps.size();
        if (!trace_segment(*this, from, from_pieces, to, sc, gen, accept, steps, leave, arrive)) return false;
        if (at_node >= 0 && !walk_fan(*this, g, static_cast<std::uint32_t>(at_node), turn_piece, leave, steps, before)) return false;
        if (last) break;
        turns.push_back(verts[g.node_vert[chain[i]]]);
        at_node = chain[i];
        turn_piece = arrive;
        from = to;
        from_pieces.assign(g.fan_piece.begin() + g.fan_first[chain[i]], g.fan_piece.begin() + g.fan_first[chain[i] + 1]);
    }
    turns.push_back(e);
    out = finish_path(PathMode::Exact, sp, ep, steps, {turns}, best);
    return std::fabs(out.length_xz - best) <= 1e-9 * best + 1e-9;
}

PathResult NavMeshQuery::Impl::exact_path(std::uint32_t sp, const Vec3& s, std::uint32_t ep, const Vec3& e,
                                          const QueryFilter& f) const {
    for (const auto& [bit, m] : f.cost_multipliers)
        if (m > 1) {
            // Weighted regions have no interval search: the corridor answers (and says so),
            // unguided: `exact` ignores the cluster guide.
            return corridor_search(sp, s, ep, e, f, nullptr);
        }
    // The graph holds the corners of the unfiltered mesh without links.
    if (f.exclude_bits != 0 || (f.use_links && !links.empty())) return polyanya_path(sp, s, ep, e, f);
    // Auto: the graph once built. On a large mesh it is built (once) when the interval
    // searches have taken as long as the build is expected to (ski rental: never more than
    // twice the better choice's time), so a few queries never pay for it.
    bool use_graph = exact_search == ExactSearch::CornerGraph;
    const bool renting = exact_search == ExactSearch::Auto && pieces() >= kAutoPieces;
    if (exact_search == ExactSearch::Auto)
        use_graph = graph_ready.load(std::memory_order_acquire) ||
                    (renting && interval_ns.load(std::memory_order_relaxed) >= pieces() * kBuildNsPerPiece);
    if (!use_graph) {
        auto t0 = std::chrono::steady_clock::now();
        PathResult r = polyanya_path(sp, s, ep, e, f);
        if (renting)
            interval_ns += static_cast<std::uint64_t>(
                std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
        return r;
    }
    ++graph_queries;
    PathResult r;
    if (graph_path(sp, s, ep, e, f, r)) return r;
    ++graph_fallbacks;
    return polyanya_path(sp, s, ep, e, f);
}

}  // namespace navlab::query

namespace navlab::query {

void NavMeshQuery::set_exact_search(ExactSearch search) noexcept { impl_->exact_search = search; }

CornerGraphStats NavMeshQuery::corner_graph_stats() const {
    const Impl::CornerGraph& g = impl_->graph();
    CornerGraphStats st;
    st.nodes = g.nodes();
    st.edges = g.edge_to.size();
    st.bytes = g.bytes();
    st.build_seconds = g.build_seconds;
    st.queries = impl_->graph_queries.load(std::memory_order_relaxed);
    st.fallbacks = impl_->graph_fallbacks.load(std::memory_order_relaxed);
    return st;
}

}  // namespace navlab::query
