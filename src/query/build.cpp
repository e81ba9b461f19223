// Building the query form of a view: convex pieces, their adjacency, links, islands, trees.
#include <algorithm>
#include <limits>
#include <numeric>
#include <numbers>
#include <tuple>

#include "formats/fromsoft/aabb_tree6.h"
#include "geometry/convexity.h"
#include "geometry/face_plane.h"
#include "geometry/triangulate.h"
#include "query/query_mesh.h"

namespace navlab::query {
namespace {

/// A piece being built: ring positions of its face, counter-clockwise by cross2.
struct RawPiece {
    std::uint32_t face = 0;
    std::vector<int> ring;
};

double area2(const std::vector<Vec3>& pts) {
    double a = 0;
    for (std::size_t k = 0; k < pts.size(); ++k) a += cross2(xz(pts[k]), xz(pts[(k + 1) % pts.size()]));
    return a;
}

/// Convex seen from above: every turn has the sign of the area (straight corners allowed),
/// no two consecutive corners at the same xz, and non-zero area.
bool convex_xz(const std::vector<Vec3>& pts) {
    double a = area2(pts);
    if (a == 0) return false;
    std::size_t n = pts.size();
    for (std::size_t k = 0; k < n; ++k) {
        const Vec3 &p = pts[(k + n - 1) % n], &q = pts[k], &r = pts[(k + 1) % n];
        if (same_xz(p, q)) return false;
        double t = orient2(xz(p), xz(q), xz(r));
        if (t * a < 0) return false;
    }
    return true;
}

/// Ear clipping seen from above (the fallback for faces whose Newell-plane triangles fold in
/// xz): ears turned like the ring with no other corner inside; a fan when none is left
/// (degenerate rings), so the face stays connected.
std::vector<std::array<int, 3>> ear_clip_xz(const std::vector<Vec3>& pts) {
    std::vector<int> ring(pts.size());
    std::iota(ring.begin(), ring.end(), 0);
    double s = area2(pts) >= 0 ? 1 : -1;
    auto o = [&](int a, int b, int c) { return s * orient2(xz(pts[a]), xz(pts[b]), xz(pts[c])); };
    std::vector<std::array<int, 3>> out;
    while (ring.size() > 3) {
        std::size_t m = ring.size();
        std::size_t chosen = m;
        for (std::size_t j = 0; j < m && chosen == m; ++j) {
            int a = ring[(j + m - 1) % m], b = ring[j], c = ring[(j + 1) % m];
            if (o(a, b, c) <= 0) continue;
            bool empty = true;
            for (int r : ring)
                if (r != a && r != b && r != c && !same_xz(pts[r], pts[a]) && !same_xz(pts[r], pts[b]) &&
                    !same_xz(pts[r], pts[c]) && o(a, b, r) >= 0 && o(b, c, r) >= 0 && o(c, a, r) >= 0)
                    empty = false;
            if (empty) chosen = j;
        }
        if (chosen == m) break;
        out.push_back({ring[(chosen + m - 1) % m], ring[chosen], ring[(chosen + 1) % m]});
        ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(chosen));
    }
    for (std::size_t k = 1; k + 1 < ring.size(); ++k) out.push_back({ring[0], ring[k], ring[k + 1]});
    return out;
}

std::vector<RawPiece> split_face(const NavView& view, std::uint32_t f, const std::vector<Vec3>& pts) {
    int n = static_cast<int>(pts.size());
    std::vector<RawPiece> out;
    auto add = [&](std::vector<int> ring) {
        std::vector<Vec3> q;
        for (int i : ring) q.push_back(pts[i]);
        if (area2(q) < 0) {
            // Reversed but still starting at the face's first corner: heights come from the fan
            // of corner 0 (height_at), which then is the fan Detour and the face's own order use.
            std::reverse(ring.begin(), ring.end());
            std::rotate(ring.begin(), std::min_element(ring.begin(), ring.end()), ring.end());
        }
        out.push_back({f, std::move(ring)});
    };
    if (convex_xz(pts)) {
        std::vector<int> ring(n);
        std::iota(ring.begin(), ring.end(), 0);
        add(std::move(ring));
        return out;
    }
    std::vector<geometry::Point> corners;
    for (const Vec3& p : pts) corners.push_back({p.x, p.y, p.z});
    geometry::FacePlane plane(corners);
    geometry::Triangulation t = geometry::triangulate_newell(plane);
    // The Newell-plane triangles are the face's own; a face bent over a step can fold seen
    // from above, and a triangle turned against the face's winding would overlap its
    // neighbours in the xz search. Then the face is clipped in xz instead.
    const double face_area = area2(pts);
    bool folded = t.no_ear || t.triangles.empty() || face_area == 0;
    for (const geometry::Cut& c : t.triangles)
        folded = folded || orient2(xz(pts[c[0]]), xz(pts[c[1]]), xz(pts[c[2]])) * face_area <= 0;
    if (!folded) {
        for (const geometry::Cut& c : t.triangles) add({c[0], c[1], c[2]});
        return out;
    }
    for (const auto& tri : ear_clip_xz(pts)) add({tri[0], tri[1], tri[2]});
    return out;
}

/// Tarjan's strongly connected components, iterative. succ(v, push) lists v's successors.
template <class Succ>
IslandIndex strong_components(std::uint32_t n, Succ succ) {
    IslandIndex out;
    out.of_face.assign(n, std::numeric_limits<std::uint32_t>::max());
    std::vector<std::uint32_t> index(n, std::numeric_limits<std::uint32_t>::max()), low(n);
    std::vector<std::uint32_t> stack;
    std::vector<bool> on_stack(n);
    std::vector<std::vector<std::uint32_t>> adj(n);
    for (std::uint32_t v = 0; v < n; ++v) succ(v, adj[v]);
    struct Frame {
        std::uint32_t v;
        std::size_t next;
    };
    std::vector<Frame> calls;
    std::uint32_t counter = 0;
    std::vector<std::uint32_t> raw_of(n);
    std::uint32_t comps = 0;
    for (std::uint32_t root = 0; root < n; ++root) {
        if (index[root] != std::numeric_limits<std::uint32_t>::max()) continue;
        calls.push_back({root, 0});
        index[root] = low[root] = counter++;
        stack.push_back(root);
        on_stack[root] = true;
        while (!calls.empty()) {
            Frame& fr = calls.back();
            std::uint32_t v = fr.v;
            if (fr.next < adj[v].size()) {
                std::uint32_t w = adj[v][fr.next++];
                if (index[w] == std::numeric_limits<std::uint32_t>::max()) {
                    index[w] = low[w] = counter++;
                    stack.push_back(w);
                    on_stack[w] = true;
                    calls.push_back({w, 0});
                } else if (on_stack[w]) {
                    low[v] = std::min(low[v], index[w]);
                }
                continue;
            }
            if (low[v] == index[v]) {
                std::uint32_t w;
                do {
                    w = stack.back();
                    stack.pop_back();
                    on_stack[w] = false;
                    raw_of[w] = comps;
                } while (w != v);
                ++comps;
            }
            calls.pop_back();
            if (!calls.empty()) low[calls.back().v] = std::min(low[calls.back().v], low[v]);
        }
    }
    // Number islands by their smallest face so the order does not depend on the walk.
    std::vector<std::uint32_t> renumber(comps, std::numeric_limits<std::uint32_t>::max());
    for (std::uint32_t v = 0; v < n; ++v)
        if (renumber[raw_of[v]] == std::numeric_limits<std::uint32_t>::max()) renumber[raw_of[v]] = out.count++;
    for (std::uint32_t v = 0; v < n; ++v) out.of_face[v] = renumber[raw_of[v]];
    out.successors.resize(out.count);
    for (std::uint32_t v = 0; v < n; ++v)
        for (std::uint32_t w : adj[v])
            if (out.of_face[v] != out.of_face[w]) out.successors[out.of_face[v]].push_back(out.of_face[w]);
    for (auto& s : out.successors) {
        std::sort(s.begin(), s.end());
        s.erase(std::unique(s.begin(), s.end()), s.end());
    }
    return out;
}

Box box_of_points(const std::vector<Vec3>& verts, const std::uint32_t* first, const std::uint32_t* last) {
    Box b;
    b.min = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
    b.max = {-std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()};
    for (const std::uint32_t* i = first; i != last; ++i) {
        const Vec3& p = verts[*i];
        float c[3] = {static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z)};
        for (int a = 0; a < 3; ++a) {
            b.min[a] = std::min(b.min[a], std::nextafter(c[a], -std::numeric_limits<float>::max()));
            b.max[a] = std::max(b.max[a], std::nextafter(c[a], std::numeric_limits<float>::max()));
        }
    }
    return b;
}

Box merge(const Box& a, const Box& b) {
    Box r;
    for (int k = 0; k < 3; ++k) {
        r.min[k] = std::min(a.min[k], b.min[k]);
        r.max[k] = std::max(a.max[k], b.max[k]);
    }
    return r;
}

/// A median-split BVH over the pieces' boxes, flattened in pre-order.
FlatTree build_bvh(const std::vector<Box>& boxes) {
    FlatTree t;
    if (boxes.empty()) return t;
    std::vector<std::uint32_t> items(boxes.size());
    std::iota(items.begin(), items.end(), 0u);
    t.nodes.reserve(2 * boxes.size());
    // Recursive by an explicit stack; skip indices are patched when a subtree is complete.
    auto build = [&](auto&& self, std::uint32_t b, std::uint32_t e) -> void {
        std::uint32_t me = static_cast<std::uint32_t>(t.nodes.size());
        t.nodes.push_back({});
        Box box = boxes[items[b]];
        for (std::uint32_t i = b + 1; i < e; ++i) box = merge(box, boxes[items[i]]);
        t.nodes[me].box = box;
        if (e - b == 1) {
            t.nodes[me].item = static_cast<std::int32_t>(items[b]);
        } else {
            int axis = 0;
            float best = -1;
            for (int k = 0; k < 3; ++k)
                if (box.max[k] - box.min[k] > best) best = box.max[k] - box.min[k], axis = k;
            std::uint32_t m = b + (e - b) / 2;
            std::nth_element(items.begin() + b, items.begin() + m, items.begin() + e, [&](std::uint32_t x, std::uint32_t y) {
                return boxes[x].min[axis] + boxes[x].max[axis] < boxes[y].min[axis] + boxes[y].max[axis];
            });
            self(self, b, m);
            self(self, m, e);
        }
        t.nodes[me].skip = static_cast<std::uint32_t>(t.nodes.size());
    };
    build(build, 0, static_cast<std::uint32_t>(items.size()));
    return t;
}

/// The file's own 6-byte tree as a FlatTree of faces; empty when it does not decode to one
/// leaf per face.
FlatTree decode_stored_tree(const fromsoft::QueryMediator& m, std::size_t faces) {
    FlatTree t;
    fromsoft::DecodedAabbTree d = fromsoft::decode_aabb_tree6(m.nodes, m.domain);
    if (!d.valid || d.leaves.size() != faces || m.nodes.empty()) return t;
    t.nodes.resize(m.nodes.size());
    // Pre-order: subtree sizes follow from the payloads (first subtree has p leaves = 2p-1 nodes).
    std::vector<std::uint32_t> stack;
    for (std::size_t i = m.nodes.size(); i-- > 0;) {
        FlatTree::Node& n = t.nodes[i];
        for (int k = 0; k < 3; ++k) {
            n.box.min[k] = std::nextafter(static_cast<float>(d.boxes[i].min[k]), -std::numeric_limits<float>::max());
            n.box.max[k] = std::nextafter(static_cast<float>(d.boxes[i].max[k]), std::numeric_limits<float>::max());
        }
        std::uint32_t data = fromsoft::tree_node_data(m.nodes[i]);
        if (fromsoft::tree_node_is_internal(m.nodes[i])) {
            std::uint32_t second = static_cast<std::uint32_t>(i) + 2 * (data & fromsoft::kTreePayloadMask);
            n.skip = t.nodes[second].skip;
        } else {
            if ((data & fromsoft::kTreePayloadMask) >= faces) return {};
            n.item = static_cast<std::int32_t>(data & fromsoft::kTreePayloadMask);
            n.skip = static_cast<std::uint32_t>(i) + 1;
        }
    }
    return t;
}

/// Whether every leaf box of a stored tree holds the corners of its face (each piece's
/// vertices) within R72's kLeafBoxTolerance. The boxes are used as the file has them, as the
/// game does (a face is a candidate where its leaf box meets the search box): a tree within
/// the tolerance answers as it did before the check existed.
bool leaves_hold_their_faces(const FlatTree& t, const NavMeshQuery::Impl& m) {
    constexpr double tol = fromsoft::kLeafBoxTolerance;
    for (const FlatTree::Node& n : t.nodes) {
        if (n.item < 0) continue;
        const auto f = static_cast<std::uint32_t>(n.item);
        for (std::uint32_t p = m.face_first_piece[f]; p < m.face_first_piece[f + 1]; ++p)
            for (std::uint32_t i = m.piece_first[p]; i < m.piece_first[p + 1]; ++i) {
                const Vec3& v = m.verts[m.piece_vert[i]];
                const double c[3] = {v.x, v.y, v.z};
                for (int a = 0; a < 3; ++a)
                    if (!(c[a] >= n.box.min[a] - tol && c[a] <= n.box.max[a] + tol)) return false;
            }
    }
    return true;
}

}  // namespace

void NavMeshQuery::Impl::build(const NavView& view, const fromsoft::QueryMediator* mediator) {
    const std::size_t F = view.face_count(), V = view.vertex_count();
    verts.resize(V);
    for (std::size_t v = 0; v < V; ++v) verts[v] = view.vertex(v);

    // Pieces, with their ring positions kept to map edges back to the face's edges.
    std::vector<RawPiece> raw;
    face_first_piece.assign(1, 0);
    face_bits.resize(F);
    std::vector<Vec3> pts;
    std::vector<std::uint32_t> face_corner_first(1, 0), face_corner;
    for (std::uint32_t f = 0; f < F; ++f) {
        std::size_t n = view.corner_count(f);
        pts.clear();
        for (std::size_t k = 0; k < n; ++k) {
            face_corner.push_back(view.corner(f, k));
            pts.push_back(verts[face_corner.back()]);
        }
        face_corner_first.push_back(static_cast<std::uint32_t>(face_corner.size()));
        for (RawPiece& r : split_face(view, f, pts)) raw.push_back(std::move(r));
        face_first_piece.push_back(static_cast<std::uint32_t>(raw.size()));
        face_bits[f] = view.face_bits(f);
    }
    const std::size_t P = raw.size();
    piece_first.assign(1, 0);
    piece_face.resize(P);
    for (std::size_t p = 0; p < P; ++p) {
        const RawPiece& r = raw[p];
        std::uint32_t n = face_corner_first[r.face + 1] - face_corner_first[r.face];
        for (std::size_t k = 0; k < r.ring.size(); ++k) {
            int a = r.ring[k], b = r.ring[(k + 1) % r.ring.size()];
            piece_vert.push_back(face_corner[face_corner_first[r.face] + a]);
            // An edge of the face (consecutive ring positions) or a cut between pieces.
            bool forward = static_cast<std::uint32_t>(b) == (a + 1) % n;
            bool backward = static_cast<std::uint32_t>(a) == (b + 1) % n;
            int k_face = forward ? a : (backward ? b : -1);
            piece_edge.push_back(k_face < 0 ? kNone : static_cast<std::int32_t>(view.edge_id(r.face, k_face)));
            std::int64_t g = k_face < 0 ? kNoFace : view.neighbour(r.face, k_face);
            // Temporarily: neighbour face (or -2 - own face for a cut), resolved below.
            piece_nbr.push_back(k_face < 0 ? -2 - static_cast<std::int32_t>(r.face) : static_cast<std::int32_t>(g));
        }
        piece_first.push_back(static_cast<std::uint32_t>(piece_vert.size()));
        piece_face[p] = r.face;
    }

    // Resolve neighbours: the piece of the target face holding the reversed edge (by vertex
    // index, then by position), else the target face's piece edge closest to this edge.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> by_key;  // (a << 32 | b) -> piece
    for (std::uint32_t p = 0; p < P; ++p)
        for (std::uint32_t k = 0; k < corners(p); ++k)
            by_key.push_back({static_cast<std::uint64_t>(piece_vert[piece_first[p] + k]) << 32 |
                                  piece_vert[piece_first[p] + (k + 1) % corners(p)],
                              p});
    std::sort(by_key.begin(), by_key.end());
    for (std::uint32_t p = 0; p < P; ++p) {
        for (std::uint32_t k = 0; k < corners(p); ++k) {
            std::int32_t& slot = piece_nbr[piece_first[p] + k];
            if (slot == kNone) continue;
            std::uint32_t target = slot >= 0 ? static_cast<std::uint32_t>(slot) : static_cast<std::uint32_t>(-2 - slot);
            std::uint32_t a = piece_vert[piece_first[p] + k], b = piece_vert[piece_first[p] + (k + 1) % corners(p)];
            std::uint64_t key = static_cast<std::uint64_t>(b) << 32 | a;
            std::int32_t found = kNone;
            for (auto it = std::lower_bound(by_key.begin(), by_key.end(), std::make_pair(key, 0u));
                 it != by_key.end() && it->first == key; ++it)
                if (piece_face[it->second] == target && it->second != p) found = static_cast<std::int32_t>(it->second);
            if (found == kNone) {
                double best = std::numeric_limits<double>::max();
                const Vec3 &pa = verts[a], &pb = verts[b];
                for (std::uint32_t q = face_first_piece[target]; q < face_first_piece[target + 1]; ++q) {
                    if (q == p) continue;
                    for (std::uint32_t j = 0; j < corners(q); ++j) {
                        double d = dist3(corner(q, j), pb) + dist3(corner(q, (j + 1) % corners(q)), pa);
                        if (d < best) best = d, found = static_cast<std::int32_t>(q);
                    }
                }
            }
            slot = found;
        }
    }

    // Welded positions, the edge index on the other side of each portal, corners.
    {
        std::vector<std::uint32_t> order(V);
        std::iota(order.begin(), order.end(), 0u);
        auto key = [&](std::uint32_t v) { return std::tuple(verts[v].x, verts[v].y, verts[v].z); };
        std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
        canon.assign(V, 0);
        std::uint32_t next = 0;
        for (std::size_t i = 0; i < V; ++i) {
            if (i > 0 && key(order[i]) != key(order[i - 1])) ++next;
            canon[order[i]] = next;
        }
        std::uint32_t C = V ? next + 1 : 0;
        canon_corner.assign(C, 0);
        std::vector<std::uint32_t> count(C + 1, 0);
        piece_nbr_edge.assign(piece_nbr.size(), kNone);
        for (std::uint32_t p = 0; p < P; ++p) {
            std::uint32_t n = corners(p);
            for (std::uint32_t k = 0; k < n; ++k) {
                std::uint32_t a = canon[piece_vert[piece_first[p] + k]], b = canon[piece_vert[piece_first[p] + (k + 1) % n]];
                ++count[a + 1];
                std::int32_t q = piece_nbr[piece_first[p] + k];
                if (q < 0) {
                    canon_corner[a] = canon_corner[b] = 1;
                    continue;
                }
                for (std::uint32_t j = 0; j < corners(q); ++j)
                    if (canon[piece_vert[piece_first[q] + j]] == b && canon[piece_vert[piece_first[q] + (j + 1) % corners(q)]] == a)
                        piece_nbr_edge[piece_first[p] + k] = static_cast<std::int32_t>(j);
                // A portal whose two sides do not match exactly is a wall for the exact search.
                if (piece_nbr_edge[piece_first[p] + k] == kNone) canon_corner[a] = canon_corner[b] = 1;
            }
        }
        // A shortest path bends only where the walkable region is reflex (more than a half
        // turn around the vertex, seen from above): a boundary vertex whose pieces' angles sum
        // to less than that (a convex corner, the apex of a wedge) is never a turning point.
        // Ends of unmatched portals (slits) stay corners whatever their angle.
        std::vector<double> angle(C, 0.0);
        for (std::uint32_t p = 0; p < P; ++p) {
            std::uint32_t n = corners(p);
            for (std::uint32_t k = 0; k < n; ++k) {
                P2 v = xz(corner(p, k)), a = xz(corner(p, (k + 1) % n)) - v, b = xz(corner(p, (k + n - 1) % n)) - v;
                angle[canon[piece_vert[piece_first[p] + k]]] += std::atan2(cross2(a, b), a.x * b.x + a.z * b.z);
            }
        }
        for (std::uint32_t p = 0; p < P; ++p) {
            std::uint32_t n = corners(p);
            for (std::uint32_t k = 0; k < n; ++k) {
                if (piece_nbr[piece_first[p] + k] < 0 || piece_nbr_edge[piece_first[p] + k] != kNone) continue;
                canon_corner[canon[piece_vert[piece_first[p] + k]]] = 2;
                canon_corner[canon[piece_vert[piece_first[p] + (k + 1) % n]]] = 2;
            }
        }
        for (std::uint32_t c = 0; c < C; ++c)
            if (canon_corner[c] == 1 && angle[c] < std::numbers::pi - 1e-6) canon_corner[c] = 0;
        for (std::uint32_t c = 0; c < C; ++c) count[c + 1] += count[c];
        canon_piece_first = count;
        canon_piece.assign(count[C], 0);
        for (std::uint32_t p = 0; p < P; ++p)
            for (std::uint32_t k = 0; k < corners(p); ++k) canon_piece[count[canon[piece_vert[piece_first[p] + k]]]++] = p;
    }

    // Links, snapped onto their pieces.
    piece_link_first.assign(1, 0);
    std::vector<std::vector<PieceLink>> per_piece(P);
    for (std::uint32_t f = 0; f < F; ++f) {
        for (const ViewLink& l : view.links(f)) {
            PieceLink pl;
            pl.edge = l.edge;
            auto snap = [&](std::uint32_t face, const Vec3& q, std::uint32_t& piece, Vec3& at) {
                double best = std::numeric_limits<double>::max();
                for (std::uint32_t p = face_first_piece[face]; p < face_first_piece[face + 1]; ++p) {
                    Vec3 c = closest_on_piece(p, q);
                    double d = dist3(c, q);
                    if (d < best) best = d, piece = p, at = c;
                }
            };
            snap(f, l.start, pl.from_piece, pl.start);
            snap(l.to_face, l.end, pl.to_piece, pl.end);
            pl.length = dist3(pl.start, pl.end);
            per_piece[pl.from_piece].push_back(pl);
        }
    }
    for (std::uint32_t p = 0; p < P; ++p) {
        for (const PieceLink& l : per_piece[p]) links.push_back(l);
        piece_link_first.push_back(static_cast<std::uint32_t>(links.size()));
    }

    // Islands over faces: portals as stored, links one way.
    auto successors = [&](bool with_links) {
        return [this, with_links](std::uint32_t f, std::vector<std::uint32_t>& out) {
            for (std::uint32_t p = face_first_piece[f]; p < face_first_piece[f + 1]; ++p) {
                for (std::uint32_t k = 0; k < corners(p); ++k) {
                    std::int32_t q = piece_nbr[piece_first[p] + k];
                    if (q >= 0 && piece_face[q] != f) out.push_back(piece_face[q]);
                }
                if (with_links)
                    for (std::uint32_t i = piece_link_first[p]; i < piece_link_first[p + 1]; ++i)
                        if (piece_face[links[i].to_piece] != f) out.push_back(piece_face[links[i].to_piece]);
            }
        };
    };
    islands_links = strong_components(static_cast<std::uint32_t>(F), successors(true));
    islands_plain = strong_components(static_cast<std::uint32_t>(F), successors(false));

    if (mediator) tree = decode_stored_tree(*mediator, F);
    // A tree whose leaves do not hold their faces within R72's 0.5 mm (the vertices moved after
    // it was built, or it is damaged) would make nearest_face miss a face or report one far
    // away: the BVH over the faces as they are answers instead.
    if (!tree.nodes.empty() && !leaves_hold_their_faces(tree, *this)) tree = {};
    stored_tree = !tree.nodes.empty();
    if (!stored_tree) {
        std::vector<Box> boxes(P);
        for (std::uint32_t p = 0; p < P; ++p)
            boxes[p] = box_of_points(verts, &piece_vert[piece_first[p]], &piece_vert[0] + piece_first[p + 1]);
        tree = build_bvh(boxes);
    }
}

bool NavMeshQuery::Impl::is_corner(std::uint32_t c, const QueryFilter& f) const {
    if (canon_corner[c]) return true;
    if (f.exclude_bits == 0) return false;
    for (std::uint32_t i = canon_piece_first[c]; i < canon_piece_first[c + 1]; ++i)
        if (face_bits[piece_face[canon_piece[i]]] & f.exclude_bits) return true;
    return false;
}

bool NavMeshQuery::Impl::reach(std::uint32_t from_face, std::uint32_t to_face, bool use_links) const {
    const IslandIndex& ix = islands_for(use_links);
    std::uint32_t a = ix.of_face[from_face], b = ix.of_face[to_face];
    if (a == b) return true;
    std::vector<bool> seen(ix.count);
    std::vector<std::uint32_t> todo{a};
    seen[a] = true;
    while (!todo.empty()) {
        std::uint32_t i = todo.back();
        todo.pop_back();
        for (std::uint32_t j : ix.successors[i]) {
            if (j == b) return true;
            if (!seen[j]) seen[j] = true, todo.push_back(j);
        }
    }
    return false;
}

}  // namespace navlab::query
