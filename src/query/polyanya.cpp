// `exact` mode: the true Euclidean shortest path seen from above, by Polyanya's interval
// search (Cui, Harabor, Grastien, "Compromise-free Pathfinding on a Navigation Mesh", IJCAI
// 2017) over the convex pieces, extended with one-way links.
//
// A search node is an interval [right, left] of a portal of piece Q (the piece it enters) and
// a root r from which every point of the interval is visible; g is the length to r. Expanding
// it projects the cone r -> interval through Q: edges inside the cone become observable
// successors (same root); the parts outside are reached by turning at an interval endpoint
// that is a corner vertex (non-observable successors, new root). When r lies on the entering
// edge itself (r is a vertex of Q, or the start on Q's boundary) all of Q is visible from r.
//
// Orientation: pieces are counter-clockwise by cross2. Entering Q through its edge m
// (Q[m] -> Q[m+1]), Q[m] is on the left and Q[m+1] on the right seen from the root.
#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "query/cone.h"
#include "query/query_mesh.h"

namespace navlab::query {
namespace {

enum class Kind : std::uint8_t { Start, Link, Interval, Final };

struct Node {
    Kind kind = Kind::Interval;
    bool full = false;           ///< the root lies on the entering edge: all of Q is visible
    std::int64_t root_key = -1;  ///< welded vertex id (>= 0), -1 start, -2 - link for link roots
    Vec3 root;
    P2 left, right;              ///< interval (Interval kind)
    std::uint32_t piece = 0;     ///< Q: the piece entered (Start/Link: the piece of the root)
    std::int32_t edge = -1;      ///< entering edge of Q (Interval kind)
    std::int32_t link = -1;      ///< Link kind: the link taken
    std::int64_t pre_key = -1;   ///< Link kind: root it was reached from (a turn when it differs)
    Vec3 pre_root;
    double g = 0, f = 0;
    std::int32_t parent = -1;
};

/// An interval node's identity: its root, the piece and edge it enters and its ends. Two
/// nodes with the same identity have the same successors, so only the cheaper one is useful.
struct IntervalKey {
    std::int64_t root_key;
    double root_x, root_z, left_x, left_z, right_x, right_z;
    std::uint32_t piece;
    std::int32_t edge;
    bool operator==(const IntervalKey&) const = default;
};

struct IntervalKeyHash {
    std::size_t operator()(const IntervalKey& k) const {
        std::size_t h = (k.piece * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint32_t>(k.edge)) + static_cast<std::size_t>(k.root_key);
        for (double v : {k.root_x, k.root_z, k.left_x, k.left_z, k.right_x, k.right_z})
            h = (h ^ std::hash<double>{}(v)) * 0x100000001B3ull;
        return h;
    }
};

struct Scratch {
    std::vector<Node> nodes;
    std::unordered_map<IntervalKey, double, IntervalKeyHash> interval_g;  ///< best g per interval identity
    std::vector<double> root_g;  ///< best g per welded vertex as a root
    std::vector<std::uint32_t> root_stamp, goal_stamp, start_stamp;
    std::vector<double> link_g;
    std::vector<std::uint32_t> link_stamp;
    std::unordered_set<std::uint64_t> full_done;
    std::uint32_t generation = 0;
    void prepare(std::size_t canon, std::size_t pieces, std::size_t links) {
        if (root_stamp.size() != canon || goal_stamp.size() != pieces || link_stamp.size() != links) {
            root_g.assign(canon, 0), root_stamp.assign(canon, 0);
            goal_stamp.assign(pieces, 0), start_stamp.assign(pieces, 0);
            link_g.assign(links, 0), link_stamp.assign(links, 0);
            generation = 0;
        }
        if (++generation == 0) {
            std::fill(root_stamp.begin(), root_stamp.end(), 0), std::fill(goal_stamp.begin(), goal_stamp.end(), 0);
            std::fill(start_stamp.begin(), start_stamp.end(), 0), std::fill(link_stamp.begin(), link_stamp.end(), 0);
            generation = 1;
        }
        nodes.clear();
        full_done.clear();
        interval_g.clear();
    }
};

thread_local Scratch t_scratch;

using cone::at;
using cone::dist2;
using cone::range_where;
using cone::side;

double heuristic(P2 r, P2 left, P2 right, P2 t) { return cone::through_interval(r, left, right, t); }

}  // namespace

PathResult NavMeshQuery::Impl::polyanya_path(std::uint32_t sp, const Vec3& s, std::uint32_t ep, const Vec3& e,
                                             const QueryFilter& f) const {
    Scratch& sc = t_scratch;
    sc.prepare(canon_corner.size(), pieces(), links.size());
    const P2 goal = xz(e);
    const std::uint32_t gen = sc.generation;

    // The pieces that contain a point (closed, seen from above) connected to its own piece.
    auto mark_set = [&](std::uint32_t p0, const Vec3& q, std::vector<std::uint32_t>& stamp) {
        std::vector<std::uint32_t> out;
        pieces_containing(p0, xz(q), f, stamp, gen, out);
        return out;
    };
    mark_set(ep, e, sc.goal_stamp);
    auto walkable = [&](std::int32_t q) { return q >= 0 && piece_weight(static_cast<std::uint32_t>(q), f) > 0; };

    using Entry = std::pair<double, std::int32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
    auto push = [&](Node n) {
        if (n.kind == Kind::Final) n.f = n.g;
        else if (n.kind == Kind::Interval && !n.full) n.f = n.g + heuristic(xz(n.root), n.left, n.right, goal);
        else n.f = n.g + dist2(xz(n.root), goal);
        sc.nodes.push_back(n);
        open.push({n.f, static_cast<std::int32_t>(sc.nodes.size() - 1)});
    };
    // Root-level pruning: a vertex keeps only its best g as a root.
    auto root_ok = [&](std::int64_t key, double g) {
        if (key < 0) return true;
        auto c = static_cast<std::size_t>(key);
        if (sc.root_stamp[c] == gen && g > sc.root_g[c] * (1 + 1e-12) + 1e-12) return false;
        if (sc.root_stamp[c] != gen || g < sc.root_g[c]) sc.root_stamp[c] = gen, sc.root_g[c] = g;
        return true;
    };
    // Successor interval on edge j of piece p, parameter range [lo, hi] (towards p[j+1]).
    auto push_interval = [&](std::int32_t parent, std::uint32_t p, std::uint32_t j, double lo, double hi, const Node& base) {
        std::int32_t q = piece_nbr[piece_first[p] + j];
        std::int32_t m = piece_nbr_edge[piece_first[p] + j];
        if (!walkable(q) || m < 0 || hi < lo) return;
        // A single point is kept only when it is a corner the path may turn at: a cone whose
        // side runs exactly through a vertex (common on Recast's grid) reaches it nowhere else.
        if (hi - lo <= 1e-12) {
            std::uint32_t at_v = lo >= 1 - 1e-12 ? (j + 1) % corners(p) : hi <= 1e-12 ? j : corners(p);
            if (at_v == corners(p) || !is_corner(canon[piece_vert[piece_first[p] + at_v]], f)) return;
            lo = hi = at_v == j ? 0 : 1;
        }
        P2 a = xz(corner(p, j)), b = xz(corner(p, (j + 1) % corners(p)));
        Node n = base;
        n.kind = Kind::Interval;
        n.full = false;
        n.right = at(a, b, lo);
        n.left = at(a, b, hi);
        n.piece = static_cast<std::uint32_t>(q);
        n.edge = m;
        n.parent = parent;
        // The same interval from the same root again, no cheaper: nothing new beyond it. On
        // meshes whose pieces overlap seen from above, intervals from a root that root-level
        // pruning does not cover (the start, a link's landing) came round in cycles until the
        // search guard stopped them, then answered NoPath.
        const IntervalKey key{n.root_key, n.root.x, n.root.z, n.left.x, n.left.z, n.right.x, n.right.z, n.piece, n.edge};
        const auto [seen, first] = sc.interval_g.try_emplace(key, n.g);
        if (!first) {
            if (n.g >= seen->second) return;
            seen->second = n.g;
        }
        push(n);
    };
    // The piece across edge j of p, all of it visible from base's root (on that edge).
    auto push_full = [&](std::int32_t parent, std::uint32_t p, std::uint32_t j, const Node& base) {
        std::int32_t q = piece_nbr[piece_first[p] + j];
        std::int32_t m = piece_nbr_edge[piece_first[p] + j];
        if (!walkable(q) || m < 0) return;
        Node c = base;
        c.kind = Kind::Interval;
        c.full = true;
        c.right = xz(corner(p, j)), c.left = xz(corner(p, (j + 1) % corners(p)));
        c.piece = static_cast<std::uint32_t>(q);
        c.edge = m;
        c.parent = parent;
        push(c);
    };
    // The goal reached from base's root with length g.
    auto push_final = [&](std::int32_t parent, std::uint32_t p, const Node& base, double g) {
        Node fin = base;
        fin.kind = Kind::Final;
        fin.parent = parent;
        fin.piece = p;
        fin.g = g;
        push(fin);
    };
    // Link i taken from base's root with length g on landing (kept when the best so far).
    auto push_link = [&](std::int32_t parent, std::uint32_t i, const Node& base, double g) {
        if (!walkable(static_cast<std::int32_t>(links[i].to_piece))) return;
        if (sc.link_stamp[i] == gen && g >= sc.link_g[i]) return;
        sc.link_stamp[i] = gen, sc.link_g[i] = g;
        Node l = base;
        l.kind = Kind::Link;
        l.link = static_cast<std::int32_t>(i);
        l.pre_key = base.root_key, l.pre_root = base.root;
        l.root_key = -2 - static_cast<std::int64_t>(i);
        l.root = links[i].end;
        l.piece = links[i].to_piece;
        l.parent = parent;
        l.g = g;
        push(l);
    };
    // Everything reachable in piece p from a root that sees all of p (on its boundary):
    // every edge not through the root, a collinear node for edges through it, the goal, links.
    auto expand_full = [&](std::int32_t self, const Node& base, std::uint32_t p, std::int32_t skip_edge) {
        std::uint64_t key = static_cast<std::uint64_t>(base.root_key + 2 + static_cast<std::int64_t>(links.size())) << 32 | p;
        if (!sc.full_done.insert(key).second) return;
        P2 r = xz(base.root);
        std::uint32_t n = corners(p);
        for (std::uint32_t j = 0; j < n; ++j) {
            if (static_cast<std::int32_t>(j) == skip_edge) continue;
            P2 a = xz(corner(p, j)), b = xz(corner(p, (j + 1) % n));
            double o = orient2(a, b, r);
            if (o > 0) {
                push_interval(self, p, j, 0, 1, base);
            } else if (o == 0 && std::min(a.x, b.x) <= r.x && r.x <= std::max(a.x, b.x) && std::min(a.z, b.z) <= r.z &&
                       r.z <= std::max(a.z, b.z)) {
                push_full(self, p, j, base);
            }
        }
        if (sc.goal_stamp[p] == gen) push_final(self, p, base, base.g + dist2(r, goal));
        if (f.use_links)
            for (std::uint32_t i = piece_link_first[p]; i < piece_link_first[p + 1]; ++i)
                push_link(self, i, base, base.g + dist2(r, xz(links[i].start)) + links[i].length);
    };
    // Start (or a link's landing point): every piece around the point, fully visible.
    auto expand_point = [&](std::int32_t self, const Node& base) {
        std::vector<std::uint32_t> around = mark_set(base.piece, base.root, sc.start_stamp);
        for (std::uint32_t p : around) expand_full(self, base, p, -1);
        // The next point's set reuses the stamps: clear them.
        for (std::uint32_t p : around) sc.start_stamp[p] = 0;
    };

    Node start;
    start.kind = Kind::Start;
    start.root = s;
    start.piece = sp;
    push(start);
    std::int32_t final_node = -1;
    std::size_t guard = 0, limit = 64 * (pieces() + links.size()) + 1024;
    while (!open.empty() && ++guard < limit * 16) {
        const std::int32_t id = open.top().second;  // not a structured binding: lambdas capture it
        open.pop();
        const Node cur = sc.nodes[id];
        // Root-level pruning again when popped: the root may have been reached more cheaply
        // since this node was pushed (a final node's g is not its root's).
        if (cur.kind != Kind::Final && cur.root_key >= 0 && sc.root_stamp[cur.root_key] == gen &&
            cur.g > sc.root_g[cur.root_key] * (1 + 1e-12) + 1e-12)
            continue;
        if (cur.kind == Kind::Final) {
            final_node = id;
            break;
        }
        if (cur.kind == Kind::Start || cur.kind == Kind::Link) {
            expand_point(id, cur);
            continue;
        }
        const std::uint32_t Q = cur.piece;
        const std::uint32_t n = corners(Q);
        if (cur.full) {
            expand_full(id, cur, Q, cur.edge);
            continue;
        }
        const P2 r = xz(cur.root), L = cur.left, R = cur.right;
        const std::uint32_t k = static_cast<std::uint32_t>(cur.edge);
        const P2 qk = xz(corner(Q, k)), qk1 = xz(corner(Q, (k + 1) % n));
        // Observable successors and the two non-observable sides.
        const std::uint32_t right_v = piece_vert[piece_first[Q] + (k + 1) % n], left_v = piece_vert[piece_first[Q] + k];
        const bool right_turn = R.x == qk1.x && R.z == qk1.z && is_corner(canon[right_v], f);
        const bool left_turn = L.x == qk.x && L.z == qk.z && is_corner(canon[left_v], f);
        Node from_right = cur, from_left = cur;
        from_right.root = verts[right_v], from_right.root_key = canon[right_v], from_right.g = cur.g + dist2(r, R);
        from_left.root = verts[left_v], from_left.root_key = canon[left_v], from_left.g = cur.g + dist2(r, L);
        const bool right_ok = right_turn && root_ok(from_right.root_key, from_right.g);
        const bool left_ok = left_turn && root_ok(from_left.root_key, from_left.g);
        for (std::uint32_t j = (k + 1) % n; j != k; j = (j + 1) % n) {
            P2 a = xz(corner(Q, j)), b = xz(corner(Q, (j + 1) % n));
            double cr0 = side(r, R, a), cr1 = side(r, R, b);
            double cl0 = side(r, L, a), cl1 = side(r, L, b);
            auto [rlo, rhi] = range_where(cr0, cr1, +1);
            auto [llo, lhi] = range_where(cl0, cl1, -1);
            double lo = std::max(rlo, llo), hi = std::min(rhi, lhi);
            if (lo <= hi && orient2(a, b, r) > 0) push_interval(id, Q, j, lo, hi, cur);
            if (right_ok && orient2(a, b, R) > 0) {
                auto [nlo, nhi] = range_where(cr0, cr1, -1);
                if (nlo <= nhi) push_interval(id, Q, j, nlo, nhi, from_right);
            }
            if (left_ok && orient2(a, b, L) > 0) {
                auto [nlo, nhi] = range_where(cl0, cl1, +1);
                if (nlo <= nhi) push_interval(id, Q, j, nlo, nhi, from_left);
            }
        }
        // Around a turning vertex: the edge of Q through it leads to the pieces beyond.
        if (right_ok) push_full(id, Q, (k + 1) % n, from_right);
        if (left_ok) push_full(id, Q, (k + n - 1) % n, from_left);
        // The goal and link starts in Q: seen through the interval, or around a corner.
        auto reach_point = [&](P2 t, double extra, auto&& make) {
            if (side(r, R, t) >= 0 && side(r, L, t) <= 0) make(cur, cur.g + dist2(r, t) + extra);
            else if (right_ok && side(r, R, t) < 0) make(from_right, from_right.g + dist2(R, t) + extra);
            else if (left_ok && side(r, L, t) > 0) make(from_left, from_left.g + dist2(L, t) + extra);
        };
        if (sc.goal_stamp[Q] == gen) reach_point(goal, 0, [&](const Node& base, double g) { push_final(id, Q, base, g); });
        if (f.use_links)
            for (std::uint32_t i = piece_link_first[Q]; i < piece_link_first[Q + 1]; ++i)
                reach_point(xz(links[i].start), links[i].length, [&](const Node& base, double g) { push_link(id, i, base, g); });
    }
    if (final_node < 0) {
        PathResult r;
        r.status = PathStatus::NoPath;
        r.mode = PathMode::Exact;
        return r;
    }

    // Back to the start: the steps (portals and links) and the turning points per segment.
    std::vector<std::int32_t> chain;
    for (std::int32_t i = final_node; i >= 0; i = sc.nodes[i].parent) chain.push_back(i);
    std::reverse(chain.begin(), chain.end());
    std::vector<Step> steps;
    std::vector<std::vector<Vec3>> turns(1, std::vector<Vec3>{s});
    for (std::size_t c = 1; c < chain.size(); ++c) {
        const Node& n = sc.nodes[chain[c]];
        const Node& prev = sc.nodes[chain[c - 1]];
        if (n.kind == Kind::Link) {
            const PieceLink& l = links[n.link];
            if (n.pre_key != prev.root_key) turns.back().push_back(n.pre_root);
            turns.back().push_back(l.start);
            steps.push_back({l.from_piece, l.to_piece, -1, n.link});
            turns.push_back({l.end});
            continue;
        }
        if (n.root_key != prev.root_key && n.kind != Kind::Final) turns.back().push_back(n.root);
        if (n.kind == Kind::Final) {
            if (n.root_key != prev.root_key && prev.kind == Kind::Interval) turns.back().push_back(n.root);
            turns.back().push_back(e);
            break;
        }
        // Entering n.piece through its edge n.edge: the step from the piece on the other side.
        std::uint32_t q = n.piece;
        std::int32_t other = piece_nbr[piece_first[q] + n.edge];
        std::int32_t back = piece_nbr_edge[piece_first[q] + n.edge];
        if (other >= 0 && back >= 0) steps.push_back({static_cast<std::uint32_t>(other), q, back, -1});
    }
    for (auto& t : turns) {
        // Remove repeats (a root equal to the previous point).
        std::vector<Vec3> clean;
        for (const Vec3& p : t)
            if (clean.empty() || !same_xz(clean.back(), p)) clean.push_back(p);
        if (clean.size() == 1) clean.push_back(clean.back());
        t = std::move(clean);
    }
    return finish_path(PathMode::Exact, sp, ep, steps, turns, sc.nodes[final_node].g);
}

}  // namespace navlab::query

namespace navlab::query {

void NavMeshQuery::Impl::pieces_containing(std::uint32_t p0, P2 q, const QueryFilter& f, std::vector<std::uint32_t>& stamp,
                                           std::uint32_t gen, std::vector<std::uint32_t>& out) const {
    std::size_t first = out.size();
    stamp[p0] = gen;
    out.push_back(p0);
    for (std::size_t i = first; i < out.size(); ++i) {
        std::uint32_t p = out[i];
        for (std::uint32_t k = 0; k < corners(p); ++k) {
            std::int32_t n = piece_nbr[piece_first[p] + k];
            if (n < 0 || stamp[n] == gen || piece_weight(n, f) == 0 || !inside_xz(n, q, 0)) continue;
            stamp[n] = gen;
            out.push_back(n);
        }
    }
}

}  // namespace navlab::query
