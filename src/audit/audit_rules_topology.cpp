// Rules R21–R37: faces, edges and topology.
#include <fmt/format.h>

#include <array>
#include <map>
#include <span>

#include "audit/audit_rules.h"

namespace navlab::audit {
namespace {

using fromsoft::kNoOpposite;

std::string hex32(std::uint32_t v) { return fmt::format("0x{:08X}", v); }

void r21(RuleCheck& c) {
    const auto& ctx = c.ctx();
    c.values().count("regular_edges", ctx.R);
    // regular_tiled is this rule's statement for every face (each start is the running sum,
    // and R ≤ E for the last one).
    if (ctx.regular_tiled) return c.pass(ctx.F);
    std::int64_t expected = 0;
    for (std::int64_t i = 0; i < ctx.F; ++i) {
        const auto& f = ctx.mesh.faces[i];
        bool last_overflows = i + 1 == ctx.F && ctx.R > ctx.E;
        c.check(f.startEdgeIndex == expected && !last_overflows, "face", i, [&] {
            return f.startEdgeIndex != expected ? fmt::format("startEdgeIndex {}, expected {}", f.startEdgeIndex, expected)
                                                : fmt::format("regular edges {} exceed the {} edges", ctx.R, ctx.E);
        });
        expected += std::max<std::int64_t>(0, f.numEdges);
    }
}

void r22(RuleCheck& c) {
    const auto& ctx = c.ctx();
    const std::span faces(ctx.mesh.faces);
    auto ok = [&](std::int64_t i) {
        const auto& f = faces[i];
        return (f.numUserEdges >= 0) & ((f.numUserEdges == 0) == (f.startUserEdgeIndex == -1));  // no jump
    };
    // Without user edges every face holds (numUserEdges 0, startUserEdgeIndex -1).
    if (ctx.face_fields.no_user_edges() || all_hold(0, ctx.F, ok)) return c.pass(ctx.F);
    for (std::int64_t i = 0; i < ctx.F; ++i) {
        const auto& f = faces[i];
        c.check(ok(i), "face", i, [&] {
            return fmt::format("startUserEdgeIndex {}, numUserEdges {}", f.startUserEdgeIndex, f.numUserEdges);
        });
    }
}

/// "numEdges_007": R23's histogram key, as fmt's "numEdges_{:03}" writes it (by hand for
/// 0 … 999, where formatting was most of the rule's time on small tagfiles).
std::string edge_count_name(int n) {
    if (n < 0 || n > 999) return fmt::format("numEdges_{:03}", n);
    std::string key = "numEdges_000";
    key[9] = static_cast<char>('0' + n / 100), key[10] = static_cast<char>('0' + n / 10 % 10), key[11] = static_cast<char>('0' + n % 10);
    return key;
}

/// The key of edge_count_name(n), interned once per process for the usual sizes 0 … 63.
Key edge_count_key(int n) {
    static const std::vector<Key> common = [] {
        std::vector<Key> keys;
        for (int k = 0; k < 64; ++k) keys.push_back(Key::intern(edge_count_name(k)));
        return keys;
    }();
    return n >= 0 && n < static_cast<int>(common.size()) ? common[n] : Key::intern(edge_count_name(n));
}

void r23(RuleCheck& c) {
    const auto& ctx = c.ctx();
    const std::span faces(ctx.mesh.faces);
    // Counted here (an array for the usual sizes, a map for the others), named once per
    // tagfile: a map entry per face was the rule's main cost. The usual sizes go to the values
    // straight from the array: the values' map orders its keys itself.
    std::array<std::int64_t, 64> common{};
    std::map<int, std::int64_t> histogram;  // the other sizes
    bool all_ok = true;
    const FaceFieldBounds& b = ctx.face_fields;
    if (b.any && b.min[FaceFieldBounds::kNumEdges] >= 3 && b.max[FaceFieldBounds::kNumEdges] < static_cast<int>(common.size())) {
        // Every size is a usual one and 3 or more (the fields' bounds): no test a face.
        for (const auto& f : faces) ++common[static_cast<std::size_t>(f.numEdges)];
    } else {
        for (const auto& f : faces) {
            const int n = f.numEdges;
            if (n >= 0 && n < static_cast<int>(common.size())) ++common[n];
            else ++histogram[n];
            all_ok &= n >= 3;
        }
    }
    if (all_ok) c.pass(ctx.F);
    for (std::int64_t i = 0; !all_ok && i < ctx.F; ++i) {
        int n = faces[i].numEdges;
        c.check(n >= 3, "face", i, [&] { return fmt::format("numEdges {}", n); });
    }
    for (int n = 0; n < static_cast<int>(common.size()); ++n)
        if (common[n]) c.values().count(edge_count_key(n), common[n]);
    for (const auto& [n, count] : histogram) c.values().count(edge_count_key(n), count);
}

void r24(RuleCheck& c) {
    const auto& ctx = c.ctx();
    if (!ctx.tagfile.graph) return c.skip(ctx.F);
    std::int64_t K = static_cast<std::int64_t>(ctx.tagfile.graph->nodes.size());
    if (ctx.face_fields.clusters_below(K)) return c.pass(ctx.F);
    for (std::int64_t i = 0; i < ctx.F; ++i) {
        int k = ctx.mesh.faces[i].clusterIndex;
        c.check(k >= 0 && k < K, "face", i, [&] { return fmt::format("clusterIndex {}, {} nodes", k, K); });
    }
}

void r25(RuleCheck& c) {
    const auto& ctx = c.ctx();
    if (ctx.face_fields.all(FaceFieldBounds::kClusterIndex, -1)) return c.pass(ctx.F);
    for (std::int64_t i = 0; i < ctx.F; ++i) {
        int k = ctx.mesh.faces[i].clusterIndex;
        c.check(k == -1, "face", i, [&] { return fmt::format("clusterIndex {}", k); });
    }
}

void r26(RuleCheck& c) {
    const auto& ctx = c.ctx();
    if (ctx.face_fields.padding_cdcd()) return c.pass(ctx.F);
    for (std::int64_t i = 0; i < ctx.F; ++i) {
        unsigned p = ctx.mesh.faces[i].padding;
        c.check(p == 0xCDCD, "face", i, [&] { return fmt::format("padding 0x{:04X}", p); });
    }
}

// R27–R32, R34, R36, R37: the context's one pass over the edges (ctx.edge_scan) decides
// whether every edge holds; only a tagfile with an exception walks its edges here, with the
// same per-edge functions (audit_edge_scan.h), to name each exception in edge order.

void r27(RuleCheck& c) {
    const auto& ctx = c.ctx();
    if (ctx.edge_scan.endpoints_are_vertices) return c.pass(ctx.E);
    for (std::int64_t e = 0; e < ctx.E; ++e) {
        const auto& d = ctx.mesh.edges[e];
        c.check(edge_check::endpoints_are_vertices(d, ctx.V), "edge", e,
                [&] { return fmt::format("a {}, b {}, {} vertices", d.a, d.b, ctx.V); });
    }
}

void r28(RuleCheck& c) {
    const auto& ctx = c.ctx();
    if (ctx.edge_scan.opposites_in_range) return c.pass(ctx.E);
    for (std::int64_t e = 0; e < ctx.E; ++e) {
        std::uint32_t o = ctx.mesh.edges[e].oppositeEdge;
        c.check(edge_check::opposite_in_range(ctx.mesh.edges[e], ctx.E), "edge", e,
                [&] { return fmt::format("oppositeEdge {}, {} edges", hex32(o), ctx.E); });
    }
}

void r29(RuleCheck& c) {
    const auto& ctx = c.ctx();
    if (ctx.edge_scan.opposite_faces_are_owners) return c.pass(ctx.E);
    for (std::int64_t e = 0; e < ctx.E; ++e) {
        const auto& d = ctx.mesh.edges[e];
        if ((d.oppositeEdge == kNoOpposite) != (d.oppositeFace == kNoOpposite)) {
            c.exception("edge", e, [&] {
                return fmt::format("oppositeEdge {} but oppositeFace {}", hex32(d.oppositeEdge), hex32(d.oppositeFace));
            });
            continue;
        }
        if (d.oppositeEdge == kNoOpposite) {
            c.pass();
            continue;
        }
        if (d.oppositeEdge >= ctx.E || ctx.owner[d.oppositeEdge] < 0) {
            c.skip();
            continue;
        }
        std::int32_t owner = ctx.owner[d.oppositeEdge];
        c.check(edge_check::opposite_face_is_owner(d, ctx.owner), "edge", e, [&] {
            return fmt::format("oppositeEdge {}, oppositeFace {}, owner of that edge {}", d.oppositeEdge, d.oppositeFace, owner);
        });
    }
}

void r30(RuleCheck& c) {
    const auto& ctx = c.ctx();
    const std::int64_t regular = std::min(ctx.R, ctx.E);
    if (ctx.edge_scan.regular_flags) return c.pass(regular);
    for (std::int64_t e = 0; e < regular; ++e) {
        unsigned f = ctx.mesh.edges[e].flags;
        c.check(edge_check::regular_flags(ctx.mesh.edges[e]), "edge", e, [&] { return fmt::format("flags {}", f); });
    }
}

void r31(RuleCheck& c) {
    const auto& ctx = c.ctx();
    if (ctx.edge_scan.padding_zero) return c.pass(ctx.E);
    for (std::int64_t e = 0; e < ctx.E; ++e) {
        unsigned p = ctx.mesh.edges[e].paddingByte;
        c.check(edge_check::padding_zero(ctx.mesh.edges[e]), "edge", e, [&] { return fmt::format("paddingByte {}", p); });
    }
}

void r32(RuleCheck& c) {
    const auto& ctx = c.ctx();
    if (ctx.edge_scan.cost_zero) return c.pass(ctx.E);
    for (std::int64_t e = 0; e < ctx.E; ++e) {
        unsigned h = ctx.mesh.edges[e].userEdgeCost;
        c.check(edge_check::cost_zero(ctx.mesh.edges[e]), "edge", e, [&] { return fmt::format("userEdgeCost bits 0x{:04X}", h); });
    }
}

void r33(RuleCheck& c) {
    const auto& ctx = c.ctx();
    const std::span rings(ctx.rings);
    auto closed = [&](std::int64_t i) { return rings[i].status != RingStatus::RangeOutside && rings[i].status != RingStatus::Open; };
    if (all_hold(0, ctx.F, closed)) return c.pass(ctx.F);
    for (std::int64_t i = 0; i < ctx.F; ++i) {
        const RingView& ring = ctx.rings[i];
        if (ring.status == RingStatus::RangeOutside) {
            c.skip();
            continue;
        }
        c.check(ring.status != RingStatus::Open, "face", i, [&] {
            const auto& f = ctx.mesh.faces[i];
            int k = ring.break_at, n = f.numEdges;
            const auto& e = ctx.mesh.edges[f.startEdgeIndex + k];
            const auto& next = ctx.mesh.edges[f.startEdgeIndex + (k + 1) % n];
            return fmt::format("break at k = {}: b {} then a {}", k, e.b, next.a);
        });
    }
}

void r34(RuleCheck& c) {
    const auto& ctx = c.ctx();
    auto outside = [&](std::int64_t start, std::int64_t n) { return n > 0 && (start < 0 || start + n > ctx.E); };
    const std::span faces(ctx.mesh.faces);
    auto face_inside = [&](std::int64_t i) {
        return !outside(faces[i].startEdgeIndex, faces[i].numEdges) && !outside(faces[i].startUserEdgeIndex, faces[i].numUserEdges);
    };
    // Faces that tile the regular edges (R <= E) have their ranges inside, and without user
    // edges there is no other range.
    const bool inside = (ctx.regular_tiled && ctx.face_fields.no_user_edges()) || all_hold(0, ctx.F, face_inside);
    if (ctx.edge_scan.all_owned_once && inside) return c.pass(ctx.E);
    for (std::int64_t i = 0; i < ctx.F; ++i) {
        const auto& f = ctx.mesh.faces[i];
        if (outside(f.startEdgeIndex, f.numEdges) || outside(f.startUserEdgeIndex, f.numUserEdges))
            c.fail("face", i, fmt::format("edge range leaves the {} edges", ctx.E));
    }
    for (std::int64_t e = 0; e < ctx.E; ++e) {
        std::int32_t o = ctx.owner[e];
        c.check(o >= 0, "edge", e, [&] {
            if (o == kNoOwner) return std::string("owned by no face");
            std::string faces;
            for (std::int64_t i = 0; i < ctx.F; ++i) {
                const auto& f = ctx.mesh.faces[i];
                // 64-bit sums: a hostile start near 2^31 plus a count overflows int.
                bool in = (e >= f.startEdgeIndex && e < std::int64_t{f.startEdgeIndex} + f.numEdges) ||
                          (f.numUserEdges > 0 && e >= f.startUserEdgeIndex &&
                           e < std::int64_t{f.startUserEdgeIndex} + f.numUserEdges);
                if (in) faces += (faces.empty() ? "" : ", ") + std::to_string(i);
            }
            return "owned by several faces: " + faces;
        });
    }
}

void r35(RuleCheck& c) {
    const auto& ctx = c.ctx();
    if (!ctx.regular_tiled) return c.skip();
    std::int64_t users = 0;
    // Only faces with user edges are read: with none the walk finds nothing.
    const std::int64_t walked = ctx.face_fields.no_positive_user_counts() ? 0 : ctx.F;
    for (std::int64_t i = 0; i < walked; ++i) {
        const auto& f = ctx.mesh.faces[i];
        if (f.numUserEdges <= 0) continue;
        users += f.numUserEdges;
        if (f.startUserEdgeIndex < ctx.R || std::int64_t{f.startUserEdgeIndex} + f.numUserEdges > ctx.E)
            return c.fail("face", i, fmt::format("user edges {}+{} outside [R = {}, E = {})", f.startUserEdgeIndex,
                                                 f.numUserEdges, ctx.R, ctx.E));
    }
    c.check(users == ctx.E - ctx.R, "tagfile", -1,
            [&] { return fmt::format("R {}, E {}, sum of numUserEdges {}", ctx.R, ctx.E, users); });
}

/// Calls fn(e, o) for each regular edge e whose opposite o is an edge index; skips those whose
/// opposite is beyond the edges.
template <class Fn>
void for_regular_opposites(RuleCheck& c, Fn&& fn) {
    const auto& ctx = c.ctx();
    for (std::int64_t e = 0; e < std::min(ctx.R, ctx.E); ++e) {
        std::uint32_t o = ctx.mesh.edges[e].oppositeEdge;
        if (o == kNoOpposite) continue;
        if (o >= ctx.E) {
            c.skip();
            continue;
        }
        fn(e, static_cast<std::int64_t>(o));
    }
}

void r36(RuleCheck& c) {
    const EdgeScan& s = c.ctx().edge_scan;
    if (s.regular_not_mutual == 0) {
        c.pass(s.regular_opposites);
        return c.skip(s.regular_opposites_outside);
    }
    const std::span edges(c.ctx().mesh.edges);
    for_regular_opposites(c, [&](std::int64_t e, std::int64_t o) {
        c.check(edge_check::mutual(edges, e, o), "edge", e,
                [&] { return fmt::format("opposite {} has opposite {}", o, hex32(edges[o].oppositeEdge)); });
    });
}

void r37(RuleCheck& c) {
    const auto& ctx = c.ctx();
    const EdgeScan& s = ctx.edge_scan;
    c.pass(s.regular_reversed);
    c.skip(s.regular_opposites_outside);
    const std::int64_t exceptions = s.regular_opposites - s.regular_reversed;
    if (exceptions == 0) return;
    const std::span edges(ctx.mesh.edges);
    auto name = [&](std::int64_t e) {
        const std::uint32_t o = edges[e].oppositeEdge;
        c.exception("edge", e, [&] {
            return fmt::format("{} ({}->{}), opposite {} ({}->{})", e, edges[e].a, edges[e].b, o, edges[o].a, edges[o].b);
        });
    };
    // A statistic with exceptions in most Elden Ring tagfiles: the pass over the edges kept
    // the first ones, which name every example the tagfile keeps unless it wants more.
    const int first = s.first_not_reversed_count;
    if (c.example_room() <= static_cast<std::size_t>(first) || exceptions == first) {
        for (int k = 0; k < first; ++k) name(s.first_not_reversed[k]);
        return c.count_exceptions(exceptions - first);
    }
    // More examples wanted than were kept: the walk, which branches on nothing else (see
    // audit_edge_scan.h); edge 0 stands in for a missing opposite.
    const std::int64_t E = ctx.E;
    for (std::int64_t e = 0; e < std::min(ctx.R, E); ++e) {
        const std::uint32_t o = edges[e].oppositeEdge;
        const bool in = o < E;
        if (in & !edge_check::reverse(edges, e, in ? o : 0)) [[unlikely]]
            name(e);
    }
}

}  // namespace

void add_topology_rules(std::vector<RuleDef>& out) {
    const Scope B = Scope::Both, S = Scope::Sekiro, ER = Scope::EldenRing;
    const Kind I = Kind::Invariant, ST = Kind::Statistic;
    out.insert(out.end(), {
        {"R21", "faces", B, I, "Proven", "face", "Face ranges tile the regular edges from 0", false, page(279053), page(6317094), "all 6,596,147 faces", r21},
        {"R22", "faces", B, I, "Proven", "face", "startUserEdgeIndex is -1 exactly when the face has no user edges", false, page(279053), page(6317094), "all 6,596,147 faces", r22},
        {"R23", "faces", B, I, "Proven", "face", "numEdges is 3 or more", false, page(279053), page(6317094), "all 6,596,147 faces", r23},
        {"R24", "faces", S, I, "Proven", "face", "clusterIndex from 0 to below the graph's node count", false, page(279053), kNoPage, "all 279,053 faces", r24},
        {"R25", "faces", ER, I, "Proven", "face", "clusterIndex is -1", false, kNoPage, page(6317094), "all 6,317,094 faces", r25},
        {"R26", "faces", B, I, "Proven", "face", "Face padding is 0xCDCD", false, page(279053), page(6317094), "all 6,596,147 faces", r26},
        {"R27", "edges", B, I, "Proven", "edge", "Edge endpoints a, b are vertices", false, page(1160836), page(26313941), "all 27,474,777 edges", r27},
        {"R28", "edges", B, I, "Proven", "edge", "oppositeEdge is NONE or an edge index", false, page(1160836), page(26313941), "all 27,474,777 edges", r28},
        {"R29", "edges", B, I, "Proven", "edge", "oppositeFace is NONE with oppositeEdge, else the owner of that edge", false, page(1160836), page(26313941), "all 27,474,777 edges", r29},
        {"R30", "edges", B, I, "Unknown (values stated)", "regular edge", "Regular edge flags are 4", false, page(1160836), page(23716604), "all regular edges (1,160,836 / 23,716,604)", r30},
        {"R31", "edges", B, I, "Proven", "edge", "paddingByte is 0", false, page(1160836), page(26313941), "all 27,474,777 edges", r31},
        {"R32", "edges", B, I, "Proven", "edge", "userEdgeCost is 0", false, page(1160836), page(26313941), "all 27,474,777 edges", r32},
        {"R33", "topology", B, I, "Proven", "face", "Every face is a closed ring", false, page(279053), page(6317094), "all 6,596,147 faces", r33},
        {"R34", "topology", B, I, "Proven", "edge", "Every edge belongs to exactly one face", false, page(1160836), page(26313941), "all 27,474,777 edges", r34},
        {"R35", "topology", B, I, "Proven", "tagfile", "Edges are the regular edges in face order, then the user edges", false, page(1509), page(7438), "all 1,509 / 7,438", r35},
        {"R36", "topology", B, I, "Proven", "regular edge with an opposite", "Regular opposites are mutual", false, page(842440), page(18446796), "all 842,440 / 18,446,796", r36},
        {"R37", "topology", B, ST, "Proven", "regular edge with an opposite", "Opposites that are not each other's reverse", false, page(842440, 266), page(18446796, 274614), "Sekiro 266 of 842,440 / Elden Ring 274,614 of 18,446,796", r37},
    });
}

}  // namespace navlab::audit
