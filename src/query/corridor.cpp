// `corridor` mode: Detour-style A* over pieces (node positions = portal midpoints), string
// pulling through the portals (the simple stupid funnel), and the lifting shared with `exact`.
#include <algorithm>
#include <limits>
#include <queue>

#include "query/cluster_guide.h"
#include "query/query_mesh.h"

namespace navlab::query {
namespace {

/// Per-thread search memory, reused between queries (generation stamps instead of clearing).
struct Scratch {
    std::vector<std::uint32_t> stamp;
    std::vector<double> g, f;  ///< cost so far; the f of the newest queue entry
    std::vector<std::int32_t> parent;       ///< piece, or -1 at the start
    std::vector<std::int32_t> via;          ///< edge index in parent (>= 0) or -2 - link index
    std::vector<Vec3> pos;
    std::vector<bool> closed;
    std::uint32_t generation = 0;
    void prepare(std::size_t n) {
        if (stamp.size() != n) {
            stamp.assign(n, 0);
            g.resize(n), f.resize(n), parent.resize(n), via.resize(n), pos.resize(n), closed.resize(n);
            generation = 0;
        }
        if (++generation == 0) std::fill(stamp.begin(), stamp.end(), 0), generation = 1;
    }
    bool seen(std::size_t p) const { return stamp[p] == generation; }
};

thread_local Scratch t_scratch;

Vec3 mid(const Vec3& a, const Vec3& b) { return lerp(a, b, 0.5); }

}  // namespace

PathResult NavMeshQuery::Impl::corridor_path(std::uint32_t sp, const Vec3& s, std::uint32_t ep, const Vec3& e,
                                             const QueryFilter& f) const {
    // A guide of another mesh (other face count) is not used rather than read out of range.
    if (f.cluster_guide && f.cluster_guide->face_count() + 1 == face_first_piece.size()) {
        thread_local std::vector<std::uint8_t> allowed;
        if (f.cluster_guide->corridor(piece_face[sp], piece_face[ep], allowed)) {
            PathResult r = corridor_search(sp, s, ep, e, f, &allowed);
            if (r.status == PathStatus::Found) return r;
        }
    }
    return corridor_search(sp, s, ep, e, f, nullptr);
}

PathResult NavMeshQuery::Impl::corridor_search(std::uint32_t sp, const Vec3& s, std::uint32_t ep, const Vec3& e,
                                               const QueryFilter& f, const std::vector<std::uint8_t>* allowed) const {
    Scratch& sc = t_scratch;
    sc.prepare(pieces());
    using Entry = std::pair<double, std::uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
    constexpr double kHeuristicScale = 0.999;  // as Detour's H_SCALE
    auto touch = [&](std::uint32_t p) {
        if (!sc.seen(p)) {
            sc.stamp[p] = sc.generation;
            sc.g[p] = std::numeric_limits<double>::infinity();
            sc.closed[p] = false;
        }
    };
    touch(sp);
    sc.g[sp] = 0, sc.parent[sp] = -1, sc.via[sp] = -1, sc.pos[sp] = s;
    sc.f[sp] = sp == ep ? 0 : dist3(s, e) * kHeuristicScale;
    open.push({sc.f[sp], sp});
    bool found = false;
    // Reopening is bounded in practice; the cap makes it bounded on any input.
    std::size_t pops = 0;
    const std::size_t cap = 16 * (pieces() + links.size()) + 1024;
    while (!open.empty() && ++pops <= cap) {
        const double fv = open.top().first;
        const std::uint32_t p = open.top().second;  // not a structured binding: lambdas capture it
        open.pop();
        if (sc.closed[p] || fv != sc.f[p]) continue;  // stale entry
        sc.closed[p] = true;
        if (p == ep) {
            found = true;
            break;
        }
        double w = piece_weight(p, f);
        // As in Detour's findPath: a piece's position is fixed when it is first reached (the
        // midpoint of that portal, or the landing point of that link), the parent is never
        // expanded again from its child, and a closed piece reached more cheaply is opened
        // again (portal-midpoint costs do not make the heuristic consistent).
        auto relax = [&](std::uint32_t q, std::int32_t via, const Vec3& at, const PieceLink* link) {
            if (!link && static_cast<std::int32_t>(q) == sc.parent[p]) return;
            if (allowed && !(*allowed)[f.cluster_guide->cluster_of(piece_face[q])]) return;
            if (!sc.seen(q)) {
                touch(q);
                sc.pos[q] = at;
            }
            double wq = piece_weight(q, f);
            if (wq == 0) return;
            const Vec3& pos = sc.pos[q];
            double step = link ? dist3(sc.pos[p], link->start) * w + link->length : dist3(sc.pos[p], pos) * w;
            double g = sc.g[p] + step;
            if (q == ep) g += dist3(pos, e) * wq;  // Detour adds the end segment
            if (g >= sc.g[q]) return;
            sc.g[q] = g, sc.parent[q] = static_cast<std::int32_t>(p), sc.via[q] = via;
            sc.closed[q] = false;
            sc.f[q] = g + (q == ep ? 0 : dist3(pos, e) * kHeuristicScale);
            open.push({sc.f[q], q});
        };
        std::uint32_t n = corners(p);
        for (std::uint32_t k = 0; k < n; ++k) {
            std::int32_t q = piece_nbr[piece_first[p] + k];
            if (q < 0) continue;
            relax(static_cast<std::uint32_t>(q), static_cast<std::int32_t>(k), mid(corner(p, k), corner(p, (k + 1) % n)), nullptr);
        }
        if (f.use_links)
            for (std::uint32_t i = piece_link_first[p]; i < piece_link_first[p + 1]; ++i)
                relax(links[i].to_piece, -2 - static_cast<std::int32_t>(i), links[i].end, &links[i]);
    }
    if (!found) {
        PathResult r;
        r.status = PathStatus::NoPath;
        r.mode = PathMode::Corridor;
        return r;
    }
    std::vector<Step> steps;
    for (std::int32_t q = static_cast<std::int32_t>(ep); sc.parent[q] >= 0; q = sc.parent[q]) {
        Step st;
        st.from = static_cast<std::uint32_t>(sc.parent[q]);
        st.to = static_cast<std::uint32_t>(q);
        if (sc.via[q] >= 0) st.edge = sc.via[q];
        else st.link = -2 - sc.via[q];
        steps.push_back(st);
    }
    std::reverse(steps.begin(), steps.end());
    std::vector<std::vector<Vec3>> turns;
    Vec3 a = s;
    std::size_t first = 0;
    for (std::size_t i = 0; i <= steps.size(); ++i) {
        if (i == steps.size() || steps[i].link >= 0) {
            Vec3 b = i == steps.size() ? e : links[steps[i].link].start;
            turns.push_back(funnel(a, b, steps, first, i));
            if (i < steps.size()) a = links[steps[i].link].end, first = i + 1;
        }
    }
    return finish_path(PathMode::Corridor, sp, ep, steps, turns, sc.g[ep]);
}

std::vector<Vec3> NavMeshQuery::Impl::funnel(const Vec3& a, const Vec3& b, const std::vector<Step>& steps,
                                             std::size_t first, std::size_t last) const {
    // Portals as (left, right) seen walking through, then the end as a zero-width portal.
    std::vector<std::pair<Vec3, Vec3>> portals;
    portals.push_back({a, a});
    for (std::size_t i = first; i < last; ++i) {
        Vec3 r, l;
        portal(steps[i], r, l);
        portals.push_back({l, r});
    }
    portals.push_back({b, b});
    // triarea2 of the funnel papers is -orient2: positive when c is right of a -> b.
    auto tri = [](const Vec3& a, const Vec3& b, const Vec3& c) { return -orient2(xz(a), xz(b), xz(c)); };
    std::vector<Vec3> out{a};
    Vec3 apex = a, left = portals[0].first, right = portals[0].second;
    std::size_t apex_i = 0, left_i = 0, right_i = 0;
    for (std::size_t i = 1; i < portals.size(); ++i) {
        const Vec3 &pl = portals[i].first, &pr = portals[i].second;
        if (tri(apex, right, pr) <= 0) {
            if (same_xz(apex, right) || tri(apex, left, pr) > 0) {
                right = pr, right_i = i;
            } else {
                if (!same_xz(out.back(), left)) out.push_back(left);
                apex = left, apex_i = left_i;
                right = apex, right_i = apex_i;
                i = apex_i;
                continue;
            }
        }
        if (tri(apex, left, pl) >= 0) {
            if (same_xz(apex, left) || tri(apex, right, pl) < 0) {
                left = pl, left_i = i;
            } else {
                if (!same_xz(out.back(), right)) out.push_back(right);
                apex = right, apex_i = right_i;
                left = apex, left_i = apex_i;
                i = apex_i;
                continue;
            }
        }
    }
    if (!same_xz(out.back(), b) || out.size() == 1) out.push_back(b);
    else out.back() = b;
    return out;
}

PathResult NavMeshQuery::Impl::finish_path(PathMode mode, std::uint32_t sp, std::uint32_t ep, const std::vector<Step>& steps,
                                           const std::vector<std::vector<Vec3>>& turns, double cost) const {
    PathResult r;
    r.status = PathStatus::Found;
    r.mode = mode;
    r.cost = cost;
    r.start_face = piece_face[sp];
    r.end_face = piece_face[ep];
    auto add_face = [&](std::uint32_t p) {
        if (r.faces.empty() || r.faces.back() != piece_face[p]) r.faces.push_back(piece_face[p]);
    };
    auto add_point = [&](const Vec3& q) {
        if (r.points.empty() || !(r.points.back() == q)) r.points.push_back(q);
    };
    add_face(sp);
    std::size_t step = 0;
    for (std::size_t seg = 0; seg < turns.size(); ++seg) {
        const std::vector<Vec3>& t = turns[seg];
        // Lift: walk the portals of this segment in order, adding the crossing of each.
        std::size_t ti = 0;
        add_point(t[0]);
        for (; step < steps.size() && steps[step].link < 0; ++step) {
            Vec3 pr, pl;
            portal(steps[step], pr, pl);
            add_face(steps[step].from);
            add_face(steps[step].to);
            while (ti + 1 < t.size()) {
                const Vec3 &A = t[ti], &B = t[ti + 1];
                if (same_xz(A, pr) || same_xz(A, pl)) break;  // turning on this portal
                // B on the near side or on the portal's line: the crossing is at B or later.
                if (orient2(xz(pr), xz(pl), xz(B)) >= 0 && ti + 2 < t.size()) {
                    ++ti;
                    add_point(t[ti]);
                    continue;
                }
                P2 d = xz(B) - xz(A), e = xz(pl) - xz(pr);
                double den = cross2(e, d);
                double u = den != 0 ? cross2(xz(A) - xz(pr), d) / den : 0.5;
                add_point(lerp(pr, pl, std::clamp(u, 0.0, 1.0)));
                break;
            }
        }
        while (ti + 1 < t.size()) add_point(t[++ti]);
        if (step < steps.size()) {  // a link
            const PieceLink& l = links[steps[step].link];
            r.links.push_back(l.edge);
            add_face(steps[step].to);
            ++step;
        }
    }
    for (std::size_t k = 1; k < r.points.size(); ++k) {
        r.length += dist3(r.points[k - 1], r.points[k]);
        r.length_xz += dist_xz(r.points[k - 1], r.points[k]);
    }
    return r;
}

}  // namespace navlab::query
