// Rules R56–R73: the Sekiro cluster graph and the Elden Ring AABB tree.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <set>
#include <span>
#include <tuple>

#include "audit/audit_rules.h"

namespace navlab::audit {
namespace {

constexpr const char* kGraph = "hkaiDirectedGraphExplicitCost";

const fromsoft::DirectedGraph* graph_of(RuleCheck& c) {
    const auto& g = c.ctx().tagfile.graph;
    if (!g) c.skip();
    return g ? &*g : nullptr;
}

void r56(RuleCheck& c) {
    const auto* g = graph_of(c);
    if (!g) return;
    // Folded here, then offered once: two map searches an edge were most of this rule. The
    // first strictly larger (smaller) value is kept, as Values::maximum (minimum) keeps it.
    std::int64_t non_finite = 0;
    bool any = false;
    float lo = 0, hi = 0;
    for (const auto& e : g->edges) {
        std::uint32_t bits = std::uint32_t(e.cost) << 16;
        float cost;
        std::memcpy(&cost, &bits, 4);
        if (!std::isfinite(cost)) ++non_finite;
        else if (!any) lo = hi = cost, any = true;
        else lo = cost < lo ? cost : lo, hi = cost > hi ? cost : hi;
    }
    if (non_finite > 0) c.values().count("non_finite_costs", non_finite);
    if (any) {
        c.values().maximum("cost_max", hi, "");
        c.values().minimum("cost_min", lo, "");
    }
    const auto& l = c.ctx().tagfile.layouts;
    // The page names the graph's members but not their offsets: only presence is compared.
    static constexpr ExpectedMember node[] = {{"startEdgeIndex", 0, 4}, {"numEdges", 4, 4}};
    static constexpr ExpectedMember edge[] = {{"cost", 0, 2}, {"flags", 2, 2}, {"target", 4, 4}};
    thread_local LayoutVerdicts graph_verdicts, node_verdicts, edge_verdicts;
    const std::string bad = graph_verdicts.of(l.graph, [](const fromsoft::RecordInfo& graph) {
        if (!graph.present()) return fmt::format("no type {}; ", kGraph);
        std::string out;
        for (const std::string_view m : std::initializer_list<std::string_view>{
                 "positions", "nodes", "edges", "nodeData", "edgeData", "nodeDataStriding", "edgeDataStriding",
                 "streamingSets"})
            if (!graph.find(m)) out += fmt::format("{} has no member {}; ", kGraph, m);
        return out;
    }) + node_verdicts.of(l.graph_node, [&](const fromsoft::RecordInfo& t) {
        return layout_mismatch(t, "graph Node", 8, node);
    }) + edge_verdicts.of(l.graph_edge, [&](const fromsoft::RecordInfo& t) {
        return layout_mismatch(t, "graph Edge", 8, edge);
    });
    c.check(bad.empty(), "tagfile", -1, [&] { return bad; });
}

void r57(RuleCheck& c) {
    const auto* g = graph_of(c);
    if (!g) return;
    c.check(g->positions.size() == g->nodes.size(), "tagfile", -1,
            [&] { return fmt::format("{} positions, {} nodes", g->positions.size(), g->nodes.size()); });
}

void r58(RuleCheck& c) {
    const auto* g = graph_of(c);
    if (!g) return;
    bool ok = g->nodeData.empty() && g->edgeData.empty() && g->nodeDataStriding == 0 && g->edgeDataStriding == 0 &&
              g->streaming_set_count == 0;
    c.check(ok, "tagfile", -1, [&] {
        return fmt::format("nodeData {}, edgeData {}, strides {}/{}, streamingSets {}", g->nodeData.size(),
                           g->edgeData.size(), g->nodeDataStriding, g->edgeDataStriding, g->streaming_set_count);
    });
}

/// Whether the node ranges tile the edges (R59 holds).
bool graph_ranges_ok(const fromsoft::DirectedGraph& g) {
    std::int64_t expected = 0;
    for (const auto& n : g.nodes) {
        if (n.startEdgeIndex != expected || n.numEdges < 0) return false;
        expected += n.numEdges;
    }
    return expected == static_cast<std::int64_t>(g.edges.size());
}

void r59(RuleCheck& c) {
    const auto* g = graph_of(c);
    if (!g) return;
    std::int64_t expected = 0, K = static_cast<std::int64_t>(g->nodes.size());
    for (std::int64_t i = 0; i < K; ++i) {
        const auto& n = g->nodes[i];
        bool last_bad = i + 1 == K && expected + std::max(0, n.numEdges) != static_cast<std::int64_t>(g->edges.size());
        c.check(n.startEdgeIndex == expected && n.numEdges >= 0 && !last_bad, "node", i, [&] {
            return fmt::format("startEdgeIndex {} (expected {}), numEdges {}, {} edges", n.startEdgeIndex, expected,
                               n.numEdges, g->edges.size());
        });
        expected += std::max(0, n.numEdges);
    }
}

void r60(RuleCheck& c) {
    const auto* g = graph_of(c);
    if (!g) return;
    for (std::size_t e = 0; e < g->edges.size(); ++e)
        c.check(g->edges[e].target < g->nodes.size(), "graph edge", e,
                [&] { return fmt::format("target {}, {} nodes", g->edges[e].target, g->nodes.size()); });
}

void r61(RuleCheck& c) {
    const auto* g = graph_of(c);
    if (!g) return;
    for (std::size_t e = 0; e < g->edges.size(); ++e)
        c.check(g->edges[e].flags == 0, "graph edge", e, [&] { return fmt::format("flags {}", g->edges[e].flags); });
}

void r62(RuleCheck& c) {
    const auto* g = graph_of(c);
    if (!g) return;
    // Only indices of nodes matter: a flag per node (a std::set node per face was most of
    // this rule's time).
    const std::size_t K = g->nodes.size();
    std::vector<char> used(K, 0);
    for (const auto& f : c.ctx().mesh.faces)
        if (f.clusterIndex >= 0 && static_cast<std::size_t>(f.clusterIndex) < K) used[f.clusterIndex] = 1;
    for (std::size_t i = 0; i < K; ++i)
        c.check(used[i] != 0, "node", i, [] { return std::string("no face has this clusterIndex"); });
}

/// R63's expected pairs (x, y) from the mesh, each with the first mesh edge that creates it,
/// grouped by x with a counting sort (an O(E log E) sort of the pairs was half of this rule on
/// Sekiro). The edge pass collected them in mesh-edge order (EdgeScan::cluster_pairs), and a
/// node's group keeps that order, so a pair's first entry names its first edge. Pairs whose x
/// is no node index (a damaged clusterIndex) are `strays`, sorted.
struct ExpectedPairs {
    using Pair = ClusterPair;
    std::vector<std::uint32_t> start;  ///< node i's pairs: by_node[start[i], start[i + 1])
    std::vector<Pair> by_node, strays;

    /// The pairs of `across` among K nodes, in place of those held.
    void fill(std::span<const Pair> across, std::size_t K) {
        auto is_node = [K](const Pair& p) { return p.x >= 0 && static_cast<std::size_t>(p.x) < K; };
        start.assign(K + 2, 0);
        strays.clear();
        for (const Pair& p : across) {
            if (is_node(p)) ++start[p.x + 2];
            else strays.push_back(p);
        }
        for (std::size_t i = 2; i < start.size(); ++i) start[i] += start[i - 1];
        by_node.resize(across.size() - strays.size());
        for (const Pair& p : across)
            if (is_node(p)) by_node[start[p.x + 1]++] = p;  // start[i + 1] is now node i's start
        start.pop_back();
        std::stable_sort(strays.begin(), strays.end(),
                         [](const Pair& a, const Pair& b) { return std::tie(a.x, a.y) < std::tie(b.x, b.y); });
    }
    std::span<const Pair> of_node(std::size_t i) const {
        return std::span<const Pair>(by_node).subspan(start[i], start[i + 1] - start[i]);
    }
};

/// An expected pair of R63 whose y is no node index (damage).
struct OtherPair {
    int y;
    std::uint32_t edge;
    bool seen;
};

/// R63's working arrays, kept by each thread from tagfile to tagfile: made for each tagfile,
/// they were ≈ 5 allocations a tagfile on Sekiro (forty-third session). Each use refills them.
struct R63Arrays {
    ExpectedPairs expected;
    std::vector<std::uint32_t> expected_by, listed_by;
    std::vector<char> seen;
    std::vector<OtherPair> other_expected;
    std::set<int> other_targets;
    std::vector<ClusterPair> missing;
};

void r63(RuleCheck& c) {
    const auto* g = graph_of(c);
    if (!g) return;
    if (!graph_ranges_ok(*g)) return c.skip(static_cast<std::int64_t>(g->edges.size()));
    const std::size_t K = g->nodes.size();
    thread_local R63Arrays arrays;
    ExpectedPairs& expected = arrays.expected;
    expected.fill(c.ctx().edge_scan.cluster_pairs, K);
    using Pair = ExpectedPairs::Pair;
    using Other = OtherPair;
    // Per target y that is a node index, stamped with the node being read: whether (node, y)
    // is expected, whether the graph listed it, and whether it was listed before. Targets and
    // expected y that are no node index (damage) go to small lists of the current node.
    constexpr std::uint32_t kNone = UINT32_MAX;
    std::vector<std::uint32_t>& expected_by = arrays.expected_by;
    std::vector<std::uint32_t>& listed_by = arrays.listed_by;
    std::vector<char>& seen = arrays.seen;
    expected_by.assign(K, kNone), listed_by.assign(K, kNone), seen.assign(K, 0);
    std::vector<Other>& other_expected = arrays.other_expected;
    std::set<int>& other_targets = arrays.other_targets;
    std::vector<Pair>& missing = arrays.missing;  // after every graph edge, in pair order
    missing.clear();
    auto in_range = [&](int y) { return y >= 0 && static_cast<std::size_t>(y) < K; };
    auto missing_strays = [&](bool below) {
        for (std::size_t k = 0; k < expected.strays.size(); ++k) {
            const Pair& p = expected.strays[k];
            if ((p.x < 0) == below && (k == 0 || p.x != expected.strays[k - 1].x || p.y != expected.strays[k - 1].y))
                missing.push_back(p);
        }
    };
    missing_strays(true);
    for (std::size_t i = 0; i < K; ++i) {
        const auto node = static_cast<std::uint32_t>(i);
        const std::span<const Pair> pairs = expected.of_node(i);
        other_expected.clear();
        for (const Pair& p : pairs) {
            if (!in_range(p.y)) other_expected.push_back({p.y, p.edge, false});
            else if (expected_by[p.y] != node) expected_by[p.y] = node, seen[p.y] = 0;
        }
        // Sorted by y, each y once with its first mesh edge (a clusterIndex is 16 bits, so
        // there may be thousands: no linear search).
        std::stable_sort(other_expected.begin(), other_expected.end(), [](const Other& a, const Other& b) { return a.y < b.y; });
        other_expected.erase(std::unique(other_expected.begin(), other_expected.end(),
                                         [](const Other& a, const Other& b) { return a.y == b.y; }),
                             other_expected.end());
        other_targets.clear();
        for (int k = 0; k < g->nodes[i].numEdges; ++k) {
            const std::int64_t e = g->nodes[i].startEdgeIndex + k;
            const int target = static_cast<int>(g->edges[e].target);
            const char* problem = "";
            if (target == static_cast<int>(i)) {
                problem = "self-loop";
            } else if (in_range(target)) {
                const bool again = listed_by[target] == node;
                listed_by[target] = node;
                if (again) problem = "duplicate";
                else if (expected_by[target] == node) seen[target] = 1;
                else problem = "not adjacent in the mesh";
            } else if (!other_targets.insert(target).second) {
                problem = "duplicate";
            } else {
                auto o = std::lower_bound(other_expected.begin(), other_expected.end(), target,
                                          [](const Other& x, int y) { return x.y < y; });
                if (o != other_expected.end() && o->y == target) o->seen = true;
                else problem = "not adjacent in the mesh";
            }
            c.check(*problem == 0, "graph edge", e,
                    [&] { return fmt::format("{} -> {}: {}", i, target, problem); });
        }
        // The pairs the graph left out, each once with its first mesh edge, in y order.
        const std::size_t first_missing = missing.size();
        for (const Pair& p : pairs)
            if (in_range(p.y) && !seen[p.y]) missing.push_back(p), seen[p.y] = 1;
        for (const Other& o : other_expected)
            if (!o.seen) missing.push_back({static_cast<int>(i), o.y, o.edge});
        std::sort(missing.begin() + static_cast<std::ptrdiff_t>(first_missing), missing.end(),
                  [](const Pair& a, const Pair& b) { return a.y < b.y; });
    }
    missing_strays(false);
    for (const Pair& p : missing)
        c.fail("graph edge", -1, fmt::format("{} -> {}: missing (mesh edge {})", p.x, p.y, p.edge), {}, kGraph);
}

void r64(RuleCheck& c) {
    const auto* g = graph_of(c);
    if (!g) return;
    const auto& ctx = c.ctx();
    const std::int64_t K = static_cast<std::int64_t>(g->nodes.size());
    // Per node, its faces' centroids summed in face order (read_faces, while the corners were at hand).
    const std::vector<Point>& sum = ctx.cluster_centres.centroid_sum;
    const std::vector<std::int64_t>& count = ctx.cluster_centres.faces;
    // The largest distance offered once per tagfile (first and best), not per node: a map
    // search per node and a location for each new largest one.
    FirstAndBest largest;
    for (std::int64_t k = 0; k < K; ++k) {
        if (count[k] == 0 || k >= static_cast<std::int64_t>(g->positions.size())) {
            c.skip();
            continue;
        }
        double n = static_cast<double>(count[k]);
        Point mean{sum[k].x / n, sum[k].y / n, sum[k].z / n};
        Point d = to_point(g->positions[k]) - mean;
        double dist = std::sqrt(dot(d, d));
        largest.offer(dist, static_cast<std::int32_t>(k));
        c.check(dist <= 10, "node", k, [&] { return fmt::format("{:.2f} m from the mean centre of its {} faces", dist, count[k]); });
    }
    MaximumCursor cursor(c.values(), "max_distance_m");
    largest.offer_to(cursor, [&](std::int32_t k) { return ctx.where("node", k); });
}

void r65(RuleCheck& c) {
    const auto* g = graph_of(c);
    if (!g) return;
    const auto& box = c.ctx().mesh.aabb;
    for (std::size_t i = 0; i < g->positions.size(); ++i) {
        const auto& p = g->positions[i];
        bool ok = box.min.x <= p.x && p.x <= box.max.x && box.min.y <= p.y && p.y <= box.max.y && box.min.z <= p.z &&
                  p.z <= box.max.z;
        c.check(ok, "node", i, [&] { return fmt::format("position ({}, {}, {}) outside the aabb", p.x, p.y, p.z); });
    }
}

// ---- Elden Ring tree ----

const fromsoft::QueryMediator* mediator_of(RuleCheck& c) {
    const auto& m = c.ctx().tagfile.mediator;
    return m ? &*m : nullptr;
}

void r66(RuleCheck& c) {
    if (!mediator_of(c)) return;
    static constexpr ExpectedMember node[] = {{"xyz", 0, 3}, {"hiData", 3, 1}, {"loData", 4, 2}};
    thread_local LayoutVerdicts verdicts;
    const std::string& bad = verdicts.of(c.ctx().tagfile.layouts.tree_node, [&](const fromsoft::RecordInfo& t) {
        return layout_mismatch(t, "tree node", 6, node);
    });
    c.check(bad.empty(), "tagfile", -1, [&] { return bad; });
}

void r67(RuleCheck& c) {
    const auto* m = mediator_of(c);
    if (!m) return;
    c.check(m->nav_mesh_is_file_mesh, "mediator", -1, [] { return std::string("navMesh is not the tagfile's mesh"); });
}

void r68(RuleCheck& c) {
    const auto* m = mediator_of(c);
    if (!m) return;
    c.check(m->tree_class == "hkcdStaticAabbTree" && m->has_tree_impl, "mediator", -1, [&] {
        return fmt::format("tree {}, treePtr {}", m->tree_class.empty() ? "null" : m->tree_class, m->has_tree_impl ? "set" : "null");
    });
}

/// Runs fn(walk) for trees of meshes with faces.
template <class Fn>
void for_tree(RuleCheck& c, Fn&& fn) {
    if (!mediator_of(c) || c.ctx().F == 0 || !c.ctx().tree) return;
    fn(*c.ctx().tree);
}

void r69(RuleCheck& c) {
    for_tree(c, [&](const fromsoft::DecodedTreeLeaves& w) {
        c.values().count("internal_nodes", w.internal_nodes);
        c.values().count("leaves", static_cast<std::int64_t>(w.leaves.size()));
        const auto& nodes = mediator_of(c)->nodes;
        if (!nodes.empty() && (nodes[0].xyz[0] || nodes[0].xyz[1] || nodes[0].xyz[2])) c.values().count("root_xyz_not_zero");
        c.check(w.valid, "tree node", w.problem_node, [&] { return w.problem; });
    });
}

void r70(RuleCheck& c) {
    for_tree(c, [&](const fromsoft::DecodedTreeLeaves&) {
        std::int64_t n = static_cast<std::int64_t>(mediator_of(c)->nodes.size()), F = c.ctx().F;
        c.values().count("tree_nodes", n);
        c.values().count("faces", F);
        c.check(n == 2 * F - 1, "tagfile", -1, [&] { return fmt::format("{} nodes for {} faces", n, F); });
    });
}

void r71(RuleCheck& c) {
    for_tree(c, [&](const fromsoft::DecodedTreeLeaves& w) {
        if (!w.valid) return c.skip();
        std::int64_t F = c.ctx().F;
        std::vector<int> leaves(F, 0);
        std::string bad;
        for (const auto& l : w.leaves) {
            if (l.face >= F) bad += fmt::format("leaf node {} holds face {} (of {}); ", l.node, l.face, F);
            else ++leaves[l.face];
        }
        for (std::int64_t f = 0; f < F && bad.size() < 200; ++f)
            if (leaves[f] != 1) bad += fmt::format("face {} has {} leaves; ", f, leaves[f]);
        c.check(bad.empty(), "tagfile", -1, [&] { return bad; });
    });
}

void r72(RuleCheck& c) {
    for_tree(c, [&](const fromsoft::DecodedTreeLeaves& w) {
        const auto& ctx = c.ctx();
        if (!w.valid) return;
        std::vector<const fromsoft::Box3*> leaf_of(ctx.F, nullptr);
        for (const auto& l : w.leaves)
            if (l.face < ctx.F && !leaf_of[l.face]) leaf_of[l.face] = &l.box;
        std::vector<Point> scratch;
        // The passes and skips are summed here and recorded once, and the largest distance
        // gathered as offering each face's would leave the values (FirstAndBest): a count and
        // a cursor in memory a face were 0.7 M of the rule's 8.9 M on eldenring m31.
        std::int64_t passed = 0, skipped = 0;
        FirstAndBest max_outside;
        for (std::int64_t f = 0; f < ctx.F; ++f) {
            if (!leaf_of[f] || ctx.rings[f].status != RingStatus::Ok) {
                skipped += std::max<std::int64_t>(0, ctx.mesh.faces[f].numEdges);
                continue;
            }
            const fromsoft::Box3& b = *leaf_of[f];
            // The largest distance of a corner outside the box, from the box of the corners
            // (subtraction rounds monotonically, so this is the largest of the corners' own
            // distances), offered once per face: every corner's location is the face.
            const CornerBounds& cb = ctx.corner_bounds[f];
            double face_max = 0;
            for (int a = 0; a < 3; ++a) face_max = std::max({face_max, b.min[a] - cb.min[a], cb.max[a] - b.max[a]});
            if (face_max <= fromsoft::kLeafBoxTolerance) {
                passed += static_cast<std::int64_t>(ctx.rings[f].vertices.size());
            } else {  // some corner is outside: name each one
                const std::span<const Point> corners = ctx.corners_of(f, scratch);
                for (std::size_t k = 0; k < corners.size(); ++k) {
                    const Point& p = corners[k];
                    double P[3] = {p.x, p.y, p.z}, out = -INFINITY;
                    for (int a = 0; a < 3; ++a) out = std::max({out, b.min[a] - P[a], P[a] - b.max[a]});
                    if (out <= fromsoft::kLeafBoxTolerance) c.pass();
                    else c.fail("corner", f, fmt::format("corner {} is {:.4f} m outside its leaf box", k, out), std::to_string(k));
                }
            }
            max_outside.offer(face_max, static_cast<std::int32_t>(f));  // F < 2^31 (a tagfile's size)
        }
        c.pass(passed), c.skip(skipped);
        MaximumCursor cursor(c.values(), "max_distance_outside_m");
        max_outside.offer_to(cursor, [&](std::int32_t face) { return ctx.where("face", face); });
    });
}

void r73(RuleCheck& c) {
    const auto* m = mediator_of(c);
    if (!m || c.ctx().F > 0) return;
    auto bits = [](float f) { std::uint32_t b; std::memcpy(&b, &f, 4); return b; };
    const auto& d = m->domain;
    bool ok = m->nodes.empty() && bits(d.min.x) == 0xFF7FFFFF && bits(d.min.y) == 0xFF7FFFFF &&
              bits(d.min.z) == 0xFF7FFFFF && bits(d.max.x) == 0x7F7FFFFF && bits(d.max.y) == 0x7F7FFFFF &&
              bits(d.max.z) == 0x7F7FFFFF;
    c.values().insert("domain_w_bits", (std::uint64_t(bits(d.min.w)) << 32) | bits(d.max.w));
    c.check(ok, "tagfile", -1, [&] {
        return fmt::format("{} nodes, domain min 0x{:08X} 0x{:08X} 0x{:08X} max 0x{:08X} 0x{:08X} 0x{:08X}", m->nodes.size(),
                           bits(d.min.x), bits(d.min.y), bits(d.min.z), bits(d.max.x), bits(d.max.y), bits(d.max.z));
    });
}

}  // namespace

void add_graph_tree_rules(std::vector<RuleDef>& out) {
    const Scope S = Scope::Sekiro, ER = Scope::EldenRing;
    const Kind I = Kind::Invariant, ST = Kind::Statistic;
    out.insert(out.end(), {
        {"R56", "cluster graph", S, I, "Proven · Sekiro", "tagfile", "Graph class and Node/Edge records as in the page's tables", false, page(1509), kNoPage, "all 1,509", r56},
        {"R57", "cluster graph", S, I, "Proven · Sekiro", "graph", "One position per node", false, page(1509), kNoPage, "all 1,509", r57},
        {"R58", "cluster graph", S, I, "Proven · Sekiro", "graph", "No node or edge data (strides 0), no streaming sets", false, page(1509), kNoPage, "all 1,509", r58},
        {"R59", "cluster graph", S, I, "Proven · Sekiro", "node", "Node edge ranges tile the edges in node order", false, page(20803), kNoPage, "all 20,803 nodes", r59},
        {"R60", "cluster graph", S, I, "Proven · Sekiro", "graph edge", "Every edge target is a node", false, page(52200), kNoPage, "all 52,200 edges", r60},
        {"R61", "cluster graph", S, I, "Proven · Sekiro", "graph edge", "Every edge's flags is 0", false, page(52200), kNoPage, "all 52,200 edges", r61},
        {"R62", "cluster graph", S, I, "Proven · Sekiro", "node", "One node per cluster, every cluster number used", false, page(20803), kNoPage, "all 1,509 tagfiles, 20,803 nodes", r62},
        {"R63", "cluster graph", S, I, "Proven · Sekiro", "graph edge", "Graph edges are the cluster adjacency, once, both directions", false, page(52200), kNoPage, "all 1,509 tagfiles, 52,200 edges", r63},
        {"R64", "cluster graph", S, ST, "Proven · Sekiro", "node", "Node position within 10 m of its faces' mean centre", false, page(20803, 3), kNoPage, "3 of 20,803", r64},
        {"R65", "cluster graph", S, I, "Proven · Sekiro", "node", "Node position inside the mesh's aabb", false, page(20803), kNoPage, "all 20,803 nodes", r65},
        {"R66", "aabb tree", ER, I, "Proven · Elden Ring", "tagfile with a mediator", "Tree node record: 6 bytes, xyz / hiData / loData", false, kNoPage, page(6021), "all 6,021 mediators", r66},
        {"R67", "aabb tree", ER, I, "Proven · Elden Ring", "mediator", "The mediator's navMesh is the tagfile's mesh", false, kNoPage, page(6021), "all 6,021", r67},
        {"R68", "aabb tree", ER, I, "Proven · Elden Ring", "mediator", "The mediator names an hkcdStaticAabbTree", false, kNoPage, page(6021), "all 6,021", r68},
        {"R69", "aabb tree", ER, I, "Proven · Elden Ring", "tree of a mesh with faces", "Tree is valid under the page's decoding rule", false, kNoPage, page(3411), "all 3,411", r69},
        {"R70", "aabb tree", ER, I, "Proven · Elden Ring", "tree of a mesh with faces", "Tree has 2 x faces - 1 nodes", false, kNoPage, page(3411), "all 3,411 (12,630,777 nodes)", r70},
        {"R71", "aabb tree", ER, I, "Proven · Elden Ring", "tree of a mesh with faces", "One leaf for each face", false, kNoPage, page(3411), "all 3,411", r71},
        {"R72", "aabb tree", ER, I, "Proven · Elden Ring", "corner", "Face corners inside their leaf's box within 0.5 mm", false, kNoPage, kNoPage, "every corner of the 6,317,094 faces", r72},
        {"R73", "aabb tree", ER, I, "Proven · Elden Ring", "tree of an empty mesh", "Trees of empty meshes: no node, domain ±FLT_MAX", false, kNoPage, page(2610), "2,610", r73},
    });
}

}  // namespace navlab::audit
