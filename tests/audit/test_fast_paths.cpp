// The audit's shortcuts against the plain ways they replace: a context and a mesh read that
// reuse the thread's storage from the tagfile before, an exception whose texts are made only
// while the examples have room, a value set that marks small values in bits, the edge pass's
// folded statements, X01's extremes of w taken from the vertex bounds and the merge of only
// the rules a tagfile ran.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <new>
#include <random>
#include <span>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/audit_context.h"
#include "audit/audit_edge_scan.h"
#include "audit/audit_face_fields.h"
#include "audit/audit_report.h"
#include "audit/audit_rules.h"
#include "audit/audit_supplementary.h"
#include "audit/ordered_merge.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "io/text.h"
#include "synthetic_navmesh.h"

using namespace navlab;
using namespace navlab::audit;
using navlab::test::SyntheticOptions;
using navlab::test::synthetic_tagfile;

namespace {

/// The JSON of one tagfile's audit, as the CLI would write it.
std::string report_of(const AuditTagfile& f) {
    std::vector<TagfileAudit> results{audit_tagfile(f, 3)};
    return audit_json(merge_audit(results, {f.entry}, 3)).dump();
}

/// Tagfiles of different sizes and kinds: grids of both games, one with unusual faces (a
/// reflex corner, a repeated corner, a bow tie), one with a tree cut short, one with a broken
/// ring, so every reused array meets a larger and a smaller predecessor.
std::vector<AuditTagfile> varied_tagfiles() {
    std::vector<AuditTagfile> out;
    SyntheticOptions big;
    big.width = 40, big.height = 25;
    out.push_back(synthetic_tagfile(big));
    SyntheticOptions sekiro;
    sekiro.sekiro = true, sekiro.width = 12;
    out.push_back(synthetic_tagfile(sekiro));
    AuditTagfile odd = synthetic_tagfile();
    auto& m = odd.model->mesh;
    m.vertices[m.edges[0].b].x += 0.9f;  // a corner pushed inward and out of its plane
    m.vertices[m.edges[5].a] = m.vertices[m.edges[5].b];  // a repeated corner
    out.push_back(odd);
    AuditTagfile cut = synthetic_tagfile(big);
    cut.model->mediator->nodes.resize(cut.model->mediator->nodes.size() / 3);
    out.push_back(cut);
    AuditTagfile broken = synthetic_tagfile();
    broken.model->mesh.edges[2].a = 1000000;  // a ring that leaves the vertices
    out.push_back(broken);
    SyntheticOptions empty;
    empty.width = 0, empty.user_edges = false;
    out.push_back(synthetic_tagfile(empty));
    return out;
}

}  // namespace

TEST(AuditFastPaths, ReusedStorageGivesTheFreshReport) {
    const std::vector<AuditTagfile> files = varied_tagfiles();
    // Each tagfile alone on a new thread: fresh thread-local storage.
    std::vector<std::string> fresh(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) std::thread([&] { fresh[i] = report_of(files[i]); }).join();
    // Then one after another on one thread, forwards, backwards and twice each, so every
    // tagfile's arrays were left by a larger, a smaller and an identical tagfile.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < files.size(); ++i) order.push_back(i), order.push_back(i);
    for (std::size_t i = files.size(); i-- > 0;) order.push_back(i);
    std::thread([&] {
        for (std::size_t i : order) EXPECT_EQ(report_of(files[i]), fresh[i]) << "tagfile " << i;
    }).join();
    // Two contexts alive at once on one thread: the second finds no spare storage.
    const TagfileContext a(files[0]);
    const TagfileContext b(files[1]);
    EXPECT_EQ(a.rings.size(), files[0].model->mesh.faces.size());
    EXPECT_EQ(b.rings.size(), files[1].model->mesh.faces.size());
    EXPECT_EQ(report_of(files[2]), fresh[2]);
}

// A dropped result's rule tallies go to the thread's next audit_tagfile, and the map nodes of
// its values (the rules' and the supplementary counters') to the thread's next new entries
// (~TagfileAudit): the next result must read as a fresh one whatever the dropped one held —
// exceptions, examples, values of every kind, rules a clean tagfile does not fail, an
// unreadable tagfile's three rules, a hand-made result's tallies that no audit fills.
TEST(AuditFastPaths, ReusedTalliesGiveTheFreshResult) {
    const std::vector<AuditTagfile> files = varied_tagfiles();
    AuditTagfile unreadable;
    unreadable.binder = "b.nvmhktbnd.dcx", unreadable.entry = "n.hkx", unreadable.entry_index = 0;
    unreadable.read_error = "offset 0x10: TAG0: truncated";
    const auto json_of = [](const TagfileAudit& r, const AuditTagfile& f) {
        return audit_json(merge_audit(std::span(&r, 1), {f.entry}, 3)).dump();
    };
    std::vector<std::string> fresh(files.size());
    for (std::size_t i = 0; i < files.size(); ++i)
        std::thread([&] { fresh[i] = json_of(audit_tagfile(files[i], 3), files[i]); }).join();
    std::thread([&] {
        // The failing tagfiles (unusual faces, a broken ring) then a clean grid, each result
        // dropped before the next audit; the next result takes the dropped one's array.
        for (std::size_t before : {2u, 4u, 0u}) {
            const void* dropped = nullptr;
            {
                const TagfileAudit spent = audit_tagfile(files[before], 50);
                std::size_t filled = 0;
                for (const RuleTally& t : spent.rules) filled += !t.examples.empty() + !t.values.empty();
                if (before != 0) {
                    EXPECT_GT(filled, 10u) << "tagfile " << before << " leaves examples and values";
                }
                dropped = spent.rules.data();
            }
            const TagfileAudit next = audit_tagfile(files[1], 3);
            EXPECT_EQ(next.rules.data(), dropped) << "the dropped tallies are reused";
            EXPECT_EQ(json_of(next, files[1]), fresh[1]) << "after tagfile " << before;
        }
        { const TagfileAudit spent = audit_tagfile(unreadable, 3); }
        EXPECT_EQ(json_of(audit_tagfile(files[0], 3), files[0]), fresh[0]) << "after an unreadable tagfile";
        {
            TagfileAudit made;  // every tally filled, none applicable
            made.rules.resize(all_rules().size());
            const Key left_over = Key::intern("left_over");
            for (RuleTally& t : made.rules) {
                t.by_game[1].checked = t.by_game[2].exceptions = t.by_game[0].skipped = 7;
                t.examples.emplace_back().message = "left over";
                t.values.count(left_over);
                t.values.maximum(left_over, 1, "here");
                t.values.minimum(left_over, 1, "here");
                t.values.insert(left_over, 1);
            }
            made.supplementary.resize(kSupplementaryIds.size());  // every counter filled, also X03's keys
            for (Values& v : made.supplementary) {
                v.count(Key::intern("hkaiNavMesh"), 99);
                v.count("w_equal_1");
                v.maximum("w_max", 1e9, "here");
                v.minimum("w_min", -1e9, "here");
                v.insert("flags", 12345);
            }
        }
        EXPECT_EQ(json_of(audit_tagfile(files[5], 3), files[5]), fresh[5]) << "after a hand-made result";
    }).join();
}

// The corners' boxes are read only against a tree (R72, X10), so a tagfile without a mediator
// gets none; one with a mediator gets a box per face, also when its context reuses the empty
// array of a tagfile without (the order of varied_tagfiles: an Elden Ring grid after Sekiro's).
TEST(AuditFastPaths, CornerBoxesOnlyBesideATree) {
    for (const AuditTagfile& f : varied_tagfiles()) {
        const TagfileContext ctx(f);
        const std::size_t faces = f.model->mesh.faces.size();
        EXPECT_EQ(ctx.corner_bounds.size(), f.model->mediator ? faces : 0) << f.entry;
    }
}

TEST(AuditFastPaths, ExceptionsBeyondTheExamplesAreCountedWithoutTheirTexts) {
    const AuditTagfile f = synthetic_tagfile();
    const TagfileContext ctx(f);
    for (std::size_t room : {0u, 1u, 3u, 10u}) {
        RuleTally lazy, eager;
        RuleCheck l(ctx, lazy, room), e(ctx, eager, room);
        int made = 0;
        for (int i = 0; i < 7; ++i) {
            const std::string text = "detail " + std::to_string(i);
            l.exception("edge", i, [&] { return ++made, text; });
            e.fail("edge", i, text);
            l.check(i % 2 == 0, "face", i, [&] { return ++made, text; });
            e.check(i % 2 == 0, "face", i, [&] { return text; });
        }
        const auto g = static_cast<std::size_t>(ctx.game);
        EXPECT_EQ(lazy.by_game[g].checked, eager.by_game[g].checked);
        EXPECT_EQ(lazy.by_game[g].exceptions, eager.by_game[g].exceptions);
        EXPECT_EQ(lazy.by_game[g].exceptions, 10);
        ASSERT_EQ(lazy.examples.size(), eager.examples.size());
        EXPECT_EQ(lazy.examples.size(), std::min<std::size_t>(room, 10));
        EXPECT_EQ(static_cast<std::size_t>(made), lazy.examples.size()) << "texts made only for kept examples";
        for (std::size_t k = 0; k < lazy.examples.size(); ++k) {
            EXPECT_EQ(lazy.examples[k].message, eager.examples[k].message);
            EXPECT_EQ(lazy.examples[k].element_kind, eager.examples[k].element_kind);
            EXPECT_EQ(lazy.examples[k].element, eager.examples[k].element);
        }
    }
}

TEST(AuditFastPaths, SetCursorKeepsWhatInsertingEveryValueKeeps) {
    std::mt19937_64 rng(7);
    for (int run = 0; run < 200; ++run) {
        Values cursor_values, plain;
        const Key k = Key::intern("k");
        {
            SetCursor cursor(cursor_values, k);
            const int n = static_cast<int>(rng() % 300);
            for (int i = 0; i < n; ++i) {
                // Bytes, the edges of the small range, and large values that collide in the memo.
                const std::uint64_t pick = rng() % 4;
                const std::uint64_t v = pick == 0   ? rng() % 256
                                        : pick == 1 ? 250 + rng() % 12
                                        : pick == 2 ? (rng() % 64) << 20
                                                    : rng();
                cursor.insert(v);
                plain.insert(k, v);
            }
        }
        EXPECT_EQ(cursor_values.named().sets, plain.named().sets) << "run " << run;
    }
    Values untouched;
    { SetCursor cursor(untouched, Key::intern("k")); }
    EXPECT_TRUE(untouched.empty()) << "no entry until a value is inserted";
}

// Values::clear keeps a dropped set's nodes for the thread's next values (Values::insert_value).
// Values inserted through Values::insert and SetCursor while the thread holds spare nodes (of
// other values, from results cleared before, fewer or more than kSpareNodes of them) must make
// the sets that plain std::set inserts make: repeated values, bytes and large values, several keys.
TEST(AuditFastPaths, SetsBuiltInSpareNodesHoldWhatPlainSetsHold) {
    using Sets = std::map<std::string, std::set<std::uint64_t>, std::less<>>;
    std::mt19937_64 rng(37);
    const char* keys[] = {"c", "flags", "a_key_longer_than_the_small_string_buffer"};
    for (int run = 0; run < 300; ++run) {
        Values values;
        Sets plain;
        {
            SetCursor cursor(values, Key::intern("c"));
            const int n = static_cast<int>(rng() % (run % 5 == 0 ? 1200 : 300));
            for (int i = 0; i < n; ++i) {
                const std::uint64_t v = rng() % 3 == 0 ? rng() % 40 : rng() % 2 ? rng() % 100000 : rng();
                const char* key = keys[rng() % 3];
                if (key == keys[0]) cursor.insert(v);
                else values.insert(Key::intern(key), v);
                plain[key].insert(v);
            }
        }
        ASSERT_EQ(values.named().sets, plain) << "run " << run;
        if (run % 4 != 3) values.clear();  // its nodes to the thread's spares for the next runs
    }
}

TEST(AuditFastPaths, RecycledMeshArraysReadTheSameModel) {
    // Every tagfile read after another's arrays were recycled (larger, smaller, the same, none)
    // equals its read on a fresh thread.
    std::vector<std::vector<std::uint8_t>> bytes;
    for (const AuditTagfile& f : varied_tagfiles()) bytes.push_back(fromsoft::write_nav_tagfile(*f.model, true));
    std::vector<fromsoft::NavTagfile> fresh;
    for (const auto& b : bytes) std::thread([&] { fresh.push_back(fromsoft::read_nav_tagfile(b)); }).join();
    std::thread([&] {
        for (std::size_t round = 0; round < 2; ++round)
            for (std::size_t k = 0; k < bytes.size(); ++k) {
                const std::size_t i = round ? bytes.size() - 1 - k : k;
                fromsoft::NavTagfile model = fromsoft::read_nav_tagfile(bytes[i]);
                EXPECT_TRUE(fromsoft::same_model(model, fresh[i])) << "tagfile " << i;
                EXPECT_TRUE(model.mesh == fresh[i].mesh) << "tagfile " << i;
                if (k % 3 != 2) fromsoft::recycle_mesh_arrays(std::move(model.mesh));
                EXPECT_TRUE(model.mesh.faces.empty() || k % 3 == 2);
            }
        // An audit input recycles its model's arrays when it goes.
        {
            AuditTagfile f;
            f.model = fromsoft::read_nav_tagfile(bytes[0]);
        }
        EXPECT_TRUE(fromsoft::read_nav_tagfile(bytes[0]).mesh == fresh[0].mesh);
    }).join();
}

TEST(AuditFastPaths, R37NamesItsExamplesFromTheEdgePassAsTheWalkWould) {
    // R37 takes its first examples from the edge pass (EdgeScan::first_not_reversed) when they
    // are all the tagfile keeps, and walks the edges otherwise: both must give the walk's
    // counts and examples, for any number of exceptions around the eight the pass keeps.
    auto defs = all_rules();
    std::size_t r37 = 0;
    while (std::string(defs[r37].id) != "R37") ++r37;
    SyntheticOptions big;
    big.width = 30, big.height = 20;
    for (int broken : {0, 1, 3, 7, 8, 9, 40}) {
        AuditTagfile f = synthetic_tagfile(big);
        auto& edges = f.model->mesh.edges;
        const auto R = static_cast<std::int64_t>(4 * f.model->mesh.faces.size());
        // Break `broken` reverses, spread over the regular edges with an opposite: move a
        // shared corner to a copy of its vertex (opposites stay mutual, no longer reverses).
        std::vector<std::int64_t> expected;
        for (std::int64_t e = 0, seen = 0; e < R && static_cast<int>(expected.size()) < broken; ++e) {
            if (edges[e].oppositeEdge == fromsoft::kNoOpposite || seen++ % 5 != 0) continue;
            f.model->mesh.vertices.push_back(f.model->mesh.vertices[edges[e].a]);
            edges[e].a = static_cast<std::int32_t>(f.model->mesh.vertices.size() - 1);
            expected.push_back(e);
        }
        ASSERT_EQ(static_cast<int>(expected.size()), broken);
        // Each change also breaks the reverse of the edge before it in the ring (its b).
        std::set<std::int64_t> all;
        for (std::int64_t e = 0; e < R; ++e) {
            const auto o = edges[e].oppositeEdge;
            if (o < edges.size() && !(edges[o].a == edges[e].b && edges[o].b == edges[e].a)) all.insert(e);
        }
        const std::vector<std::int64_t> order(all.begin(), all.end());
        const RuleTally walked = audit_tagfile(f, 50).rules[r37];
        for (std::size_t room : {0u, 1u, 5u, 8u, 9u, 20u}) {
            const RuleTally t = audit_tagfile(f, room).rules[r37];
            for (std::size_t g = 0; g < 3; ++g) {
                EXPECT_EQ(t.by_game[g].checked, walked.by_game[g].checked);
                EXPECT_EQ(t.by_game[g].exceptions, walked.by_game[g].exceptions);
                EXPECT_EQ(t.by_game[g].skipped, walked.by_game[g].skipped);
            }
            ASSERT_EQ(t.examples.size(), std::min(room, order.size())) << broken << " broken, room " << room;
            for (std::size_t k = 0; k < t.examples.size(); ++k) {
                EXPECT_EQ(t.examples[k].element, order[k]);
                EXPECT_EQ(t.examples[k].message, walked.examples[k].message);
            }
        }
        std::int64_t exceptions = 0;
        for (const auto& g : walked.by_game) exceptions += g.exceptions;
        EXPECT_EQ(exceptions, static_cast<std::int64_t>(order.size()));
        EXPECT_EQ(broken == 0, order.empty());
    }
}

namespace {

/// EdgeScan as the rules state it: each statement checked on each edge it applies to, one
/// edge_check call at a time, in edge order (no folding, no masks).
EdgeScan scan_as_written(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner, std::int64_t R,
                         std::int64_t V) {
    using namespace edge_check;
    EdgeScan s;
    const std::int64_t E = static_cast<std::int64_t>(edges.size());
    for (std::int64_t e = 0; e < E; ++e) {
        const fromsoft::Edge& d = edges[e];
        const bool none = d.oppositeEdge == kNoOpposite, in = d.oppositeEdge < E;
        s.endpoints_are_vertices = s.endpoints_are_vertices && endpoints_are_vertices(d, V);
        s.opposites_in_range = s.opposites_in_range && opposite_in_range(d, E);
        s.opposite_faces_are_owners = s.opposite_faces_are_owners && opposite_face_is_owner(d, owner);
        s.padding_zero = s.padding_zero && padding_zero(d);
        s.cost_zero = s.cost_zero && cost_zero(d);
        s.all_owned_once = s.all_owned_once && owner[e] >= 0;
        if (e < R) {
            s.regular_flags = s.regular_flags && regular_flags(d);
            s.no_user_bits = s.no_user_bits && no_user_bits(d);
            if (in) {
                ++s.regular_opposites;
                if (!mutual(edges, e, d.oppositeEdge)) ++s.regular_not_mutual;
                if (reverse(edges, e, d.oppositeEdge)) ++s.regular_reversed;
                else if (s.first_not_reversed_count < EdgeScan::kFirstNotReversed)
                    s.first_not_reversed[s.first_not_reversed_count++] = static_cast<std::int32_t>(e);
                if (d.oppositeEdge >= R) ++s.opposite_is_user_edge;
                const std::int32_t o = owner[d.oppositeEdge];
                if (o >= 0 && o == owner[e]) ++s.opposite_in_same_face;
            } else if (!none) {
                ++s.regular_opposites_outside;
            }
        } else {
            if (in && !mutual(edges, e, d.oppositeEdge)) ++s.opposite_not_mutual;
            if (d.flags == 52 && !none) ++s.flags_52_with_opposite;
        }
    }
    return s;
}

/// The lane widths this processor runs: one always, eight with AVX2 (widest_edge_lanes).
std::vector<EdgeLanes> edge_lanes_here() {
    if (widest_edge_lanes() == EdgeLanes::one) return {EdgeLanes::one};
    return {EdgeLanes::one, EdgeLanes::eight};
}

/// scan_edges at each lane width, with and without the faces, against scan_as_written and
/// R63's pairs as its spec reads them (regular edges with an opposite edge, both owned once,
/// across two clusters, in edge order; none without the faces). Returns the pairs wanted.
std::int64_t expect_scan_as_written(std::span<const fromsoft::Edge> edges, std::span<const std::int32_t> owner, std::int64_t R,
                                    std::int64_t V, std::span<const fromsoft::Face> faces, const std::string& round) {
    const std::int64_t E = static_cast<std::int64_t>(edges.size());
    const EdgeScan slow = scan_as_written(edges, owner, R, V);
    std::int64_t pairs_total = 0;
    for (const EdgeLanes lanes : edge_lanes_here())
        for (const bool with_faces : {false, true}) {
            // The pairs' storage as a context hands it on: a buffer with an earlier tagfile's pairs.
            const std::vector<ClusterPair> earlier(1 + E % 5, ClusterPair{3, 4, 5});
            const EdgeScan fast = scan_edges(edges, owner, R, V, with_faces ? faces : std::span<const fromsoft::Face>{}, lanes, earlier);
            const std::string at = round + (with_faces ? " with faces" : "") + (lanes == EdgeLanes::eight ? ", eight lanes" : ", one lane");
            std::vector<std::array<std::int64_t, 3>> pairs_wanted, pairs_got;
            for (std::int64_t e = 0; with_faces && e < std::min<std::int64_t>(R, E); ++e) {
                const std::uint32_t o = edges[e].oppositeEdge;
                if (o == fromsoft::kNoOpposite || o >= static_cast<std::uint32_t>(E) || owner[e] < 0 || owner[o] < 0) continue;
                const int x = faces[owner[e]].clusterIndex, y = faces[owner[o]].clusterIndex;
                if (x != y) pairs_wanted.push_back({x, y, e});
            }
            for (const ClusterPair& p : fast.cluster_pairs) pairs_got.push_back({p.x, p.y, p.edge});
            EXPECT_EQ(pairs_got, pairs_wanted) << at;
            pairs_total += static_cast<std::int64_t>(pairs_wanted.size());
            EXPECT_EQ(fast.endpoints_are_vertices, slow.endpoints_are_vertices) << at;
            EXPECT_EQ(fast.opposites_in_range, slow.opposites_in_range) << at;
            EXPECT_EQ(fast.opposite_faces_are_owners, slow.opposite_faces_are_owners) << at;
            EXPECT_EQ(fast.regular_flags, slow.regular_flags) << at;
            EXPECT_EQ(fast.padding_zero, slow.padding_zero) << at;
            EXPECT_EQ(fast.cost_zero, slow.cost_zero) << at;
            EXPECT_EQ(fast.all_owned_once, slow.all_owned_once) << at;
            EXPECT_EQ(fast.no_user_bits, slow.no_user_bits) << at;
            EXPECT_EQ(fast.regular_opposites, slow.regular_opposites) << at;
            EXPECT_EQ(fast.regular_opposites_outside, slow.regular_opposites_outside) << at;
            EXPECT_EQ(fast.regular_not_mutual, slow.regular_not_mutual) << at;
            EXPECT_EQ(fast.regular_reversed, slow.regular_reversed) << at;
            EXPECT_EQ(fast.first_not_reversed_count, slow.first_not_reversed_count) << at;
            EXPECT_EQ(fast.first_not_reversed, slow.first_not_reversed) << at;
            EXPECT_EQ(fast.opposite_is_user_edge, slow.opposite_is_user_edge) << at;
            EXPECT_EQ(fast.opposite_in_same_face, slow.opposite_in_same_face) << at;
            EXPECT_EQ(fast.opposite_not_mutual, slow.opposite_not_mutual) << at;
            EXPECT_EQ(fast.flags_52_with_opposite, slow.flags_52_with_opposite) << at;
        }
    return pairs_total;
}

}  // namespace

// scan_edges folds the statements on every edge into a few accumulators (largest endpoint,
// smallest owner, OR of the flag/padding/cost words) and reads opposites in a pass of their
// own: on random edges, most of them broken in some field, every figure must be the one the
// statements give edge by edge, with and without the faces whose cluster pairs it collects
// for R63 (those against R63's plain walk over the edges).
TEST(AuditFastPaths, EdgeScanEqualsEveryStatementEdgeByEdge) {
    std::mt19937 rng(25);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    constexpr int kRounds = 4000;
    std::array<int, 8> failing{};  // rounds in which each all-edge statement fails
    std::int64_t pairs_total = 0;
    for (int round = 0; round < kRounds; ++round) {
        // Every 40th round has hundreds of edges: scan_edges works in groups of eight and
        // blocks of 256. Every 7th has V near 2^31, endpoints near the largest int32 and
        // negative ones (the eight-lane maximum is unsigned, then widened).
        const int E = round % 40 == 0 ? 200 + pick(1000) : pick(40), F = 1 + pick(10);
        const bool wide = round % 7 == 3;
        const std::int64_t V = wide ? std::int64_t{std::numeric_limits<std::int32_t>::max()} + pick(3) : pick(30);
        auto endpoint = [&](bool bad) -> std::int32_t {
            if (wide)  // the largest int32 is no vertex when V is 2^31 − 1
                return bad ? (pick(2) ? std::numeric_limits<std::int32_t>::min() + pick(3) : -1 - pick(3))
                           : std::numeric_limits<std::int32_t>::max() - pick(2);
            return bad ? static_cast<std::int32_t>(pick(2) ? -1 - pick(3) : V + pick(3)) : (V > 0 ? pick(static_cast<int>(V)) : 0);
        };
        const std::int64_t R = pick(E + 6);  // may exceed E (a broken mesh)
        // Mostly well-formed fields, each broken now and then; rounds whose odds are 0 keep a
        // statement true throughout.
        const int odds = round % 5 == 0 ? 0 : 1 + pick(6);
        auto sometimes = [&] { return odds != 0 && pick(odds * 4) == 0; };
        std::vector<fromsoft::Edge> edges(static_cast<std::size_t>(E));
        std::vector<std::int32_t> owner(static_cast<std::size_t>(E));
        for (int e = 0; e < E; ++e) {
            fromsoft::Edge& d = edges[e];
            d.a = endpoint(sometimes());
            d.b = endpoint(sometimes());
            d.oppositeEdge = pick(3) == 0 ? fromsoft::kNoOpposite
                                          : static_cast<std::uint32_t>(sometimes() ? (pick(4) == 0 ? 0x80000000u + pick(3) : E + pick(5))
                                                                     : (E > 0 ? pick(E) : 0));
            d.oppositeFace = pick(3) == 0 ? fromsoft::kNoOpposite : static_cast<std::uint32_t>(pick(F + 1));
            d.flags = static_cast<std::uint8_t>(sometimes() ? (pick(2) ? 0x10 | pick(256) : pick(256)) : (e < R ? 4 : (pick(2) ? 20 : 52)));
            d.paddingByte = static_cast<std::uint8_t>(sometimes() ? 1 + pick(255) : 0);
            d.userEdgeCost = static_cast<std::uint16_t>(sometimes() ? 1 + pick(65535) : 0);
            owner[e] = sometimes() ? (pick(2) ? kNoOwner : kManyOwners) : pick(F);
        }
        // Opposites that are the edge's reverse and mutual, or point back into their own face.
        for (int e = 0; e + 1 < E; e += 2)
            if (pick(2) == 0) {
                edges[e].oppositeEdge = static_cast<std::uint32_t>(e + 1), edges[e + 1].oppositeEdge = static_cast<std::uint32_t>(e);
                edges[e + 1].a = edges[e].b, edges[e + 1].b = edges[e].a;
                if (pick(4) == 0) owner[e + 1] = owner[e];
            }
        // oppositeFace mostly as R29 wants it: NONE without an opposite, else the opposite's owner.
        for (fromsoft::Edge& d : edges) {
            if (sometimes()) continue;
            if (d.oppositeEdge == fromsoft::kNoOpposite) d.oppositeFace = fromsoft::kNoOpposite;
            else if (d.oppositeEdge < static_cast<std::uint32_t>(E) && owner[d.oppositeEdge] >= 0)
                d.oppositeFace = static_cast<std::uint32_t>(owner[d.oppositeEdge]);
        }
        // Clusters from a few values, so that faces share them (pairs within one cluster are
        // not R63's) and some are no node index (R63 sorts those apart, but the scan keeps them).
        std::vector<fromsoft::Face> faces(static_cast<std::size_t>(F));
        for (fromsoft::Face& f : faces) f.clusterIndex = static_cast<std::int16_t>(pick(4) == 0 ? -1 - pick(3) : pick(3));
        const EdgeScan slow = scan_as_written(edges, owner, R, V);
        pairs_total += expect_scan_as_written(edges, owner, R, V, faces, "round " + std::to_string(round));
        if (::testing::Test::HasFailure()) break;
        const bool holds[8] = {slow.endpoints_are_vertices, slow.opposites_in_range, slow.opposite_faces_are_owners,
                               slow.regular_flags, slow.padding_zero, slow.cost_zero, slow.all_owned_once, slow.no_user_bits};
        for (int k = 0; k < 8; ++k) failing[k] += !holds[k];
    }
    EXPECT_GT(pairs_total, kRounds);  // the rounds have pairs to find
    for (int k = 0; k < 8; ++k) {  // each statement fails in many rounds and holds in many others
        EXPECT_GT(failing[k], kRounds / 10) << "statement " << k;
        EXPECT_LT(failing[k], kRounds * 9 / 10) << "statement " << k;
    }
}

// The games' meshes: faces of 3–8 edges in order, almost every regular edge usual (no opposite
// at all, or its mutual reverse in another face, whose owner is its oppositeFace), clusters in
// runs of faces, user edges after the regular ones. The eight-lane scan decides whole groups of
// usual edges at once; a few damaged fields (an opposite negative as int32, past the edges or
// any edge at all, an owner missing or shared, a negative endpoint, a wrong oppositeFace, a
// user edge's flags, a negative cluster, R off the regular count) must give the statements'
// figures and R63's pairs edge by edge, at group and block borders alike.
TEST(AuditFastPaths, EdgeScanOfMeshLikeEdgesEqualsEveryStatement) {
    std::mt19937 rng(39);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    constexpr int kRounds = 800;
    std::int64_t pairs_total = 0;
    for (int round = 0; round < kRounds; ++round) {
        const int F = 1 + pick(round % 8 == 0 ? 500 : 40), V = 3 + pick(100), per_cluster = 1 + pick(6);
        std::vector<fromsoft::Face> faces(static_cast<std::size_t>(F));
        std::vector<fromsoft::Edge> edges;
        std::vector<std::int32_t> owner;
        for (int f = 0; f < F; ++f) {
            faces[f].startEdgeIndex = static_cast<std::int32_t>(edges.size());
            faces[f].numEdges = static_cast<std::int16_t>(3 + pick(6));
            faces[f].clusterIndex = static_cast<std::int16_t>(f / per_cluster);
            for (int k = 0; k < faces[f].numEdges; ++k) {
                fromsoft::Edge d;  // flags 4, no opposite, NONE for the face
                d.a = pick(V), d.b = pick(V);
                edges.push_back(d), owner.push_back(f);
            }
        }
        const int regular = static_cast<int>(edges.size());
        for (int u = pick(3) == 0 ? 1 + pick(12) : 0; u > 0; --u) {
            fromsoft::Edge d;
            d.a = pick(V), d.b = pick(V), d.flags = static_cast<std::uint8_t>(pick(2) ? 20 : 52);
            if (pick(2)) d.oppositeEdge = static_cast<std::uint32_t>(pick(regular)), d.oppositeFace = static_cast<std::uint32_t>(owner[d.oppositeEdge]);
            edges.push_back(d), owner.push_back(pick(F));
        }
        const int E = static_cast<int>(edges.size());
        // About 70 % of the regular edges paired across faces, as mutual reverses.
        std::vector<int> order(static_cast<std::size_t>(regular));
        for (int e = 0; e < regular; ++e) order[e] = e;
        std::shuffle(order.begin(), order.end(), rng);
        for (int k = 0; k + 1 < regular; k += 2) {
            const int e = order[k], o = order[k + 1];
            if (owner[e] == owner[o] || pick(10) < 2) continue;
            edges[e].oppositeEdge = static_cast<std::uint32_t>(o), edges[o].oppositeEdge = static_cast<std::uint32_t>(e);
            edges[o].a = edges[e].b, edges[o].b = edges[e].a;
            edges[e].oppositeFace = static_cast<std::uint32_t>(owner[o]), edges[o].oppositeFace = static_cast<std::uint32_t>(owner[e]);
        }
        for (int k = round % 3 == 0 ? 0 : 1 + pick(5); k > 0; --k) {
            const int e = pick(E);
            fromsoft::Edge& d = edges[e];
            switch (pick(10)) {
                case 0: d.oppositeEdge = 0x80000000u + static_cast<std::uint32_t>(pick(3)); break;
                case 1: d.oppositeEdge = static_cast<std::uint32_t>(E + pick(3)); break;
                case 2: d.oppositeEdge = static_cast<std::uint32_t>(pick(E)); break;  // not mutual, maybe its own face or a user edge
                case 3: owner[e] = pick(2) ? kNoOwner : kManyOwners; break;
                case 4: (pick(2) ? d.a : d.b) = -1 - pick(3); break;
                case 5: d.oppositeFace = pick(2) ? fromsoft::kNoOpposite : static_cast<std::uint32_t>(pick(F)); break;
                case 6: d.oppositeEdge = fromsoft::kNoOpposite; break;  // its oppositeFace left
                case 7: d.flags = static_cast<std::uint8_t>(pick(2) ? 20 : 52); break;
                case 8: faces[pick(F)].clusterIndex = static_cast<std::int16_t>(-1 - pick(2)); break;
                default: std::swap(d.a, d.b); break;  // not its opposite's reverse
            }
        }
        const std::int64_t R = pick(6) == 0 ? std::max(0, regular - 3 + pick(7)) : regular;
        pairs_total += expect_scan_as_written(edges, owner, R, V, faces, "mesh round " + std::to_string(round));
        if (::testing::Test::HasFailure()) break;
    }
    EXPECT_GT(pairs_total, 20 * kRounds);  // the rounds have pairs to find
}

/// `values` copied to the end of readable pages followed by an inaccessible page: a read past
/// the last value faults. ASan does not check a gather's loads; this does.
template <class T>
class BeforeGuardPage {
public:
    explicit BeforeGuardPage(std::span<const T> values) : size_(values.size()) {
        const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), bytes = values.size_bytes();
        const std::size_t readable = std::max<std::size_t>(page, (bytes + page - 1) / page * page);
        mapped_ = readable + page;
        void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        base_ = static_cast<std::uint8_t*>(p);
        if (mprotect(base_ + readable, page, PROT_NONE) != 0) throw std::bad_alloc();
        data_ = reinterpret_cast<T*>(base_ + readable - bytes);
        std::memcpy(static_cast<void*>(data_), values.data(), bytes);
    }
    ~BeforeGuardPage() { munmap(base_, mapped_); }
    BeforeGuardPage(const BeforeGuardPage&) = delete;
    BeforeGuardPage& operator=(const BeforeGuardPage&) = delete;
    std::span<const T> span() const { return {data_, size_}; }

private:
    std::uint8_t* base_ = nullptr;
    std::size_t mapped_ = 0, size_ = 0;
    T* data_ = nullptr;
};

// The edge scan reads no byte past the edges, the owners or the faces, whatever the opposites
// say: each array ends where an inaccessible page begins, and the opposites point just past
// the edges (E, E + 1, E + 7), far past them, at negative indices as int32, or nowhere. The
// eight-lane loop's owner gather and the opposites' record loads are masked by "has an
// opposite edge"; an unmasked one faults here (ASan would not see it). The figures are
// compared with the per-edge reference too.
TEST(AuditFastPaths, EdgeScanReadsNothingPastItsArrays) {
    std::mt19937 rng(3939);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    for (int round = 0; round < 600; ++round) {
        const int E = 8 + pick(120), F = 1 + pick(E / 3 + 1), V = 3 + pick(50);
        std::vector<fromsoft::Edge> edges(static_cast<std::size_t>(E));
        std::vector<std::int32_t> owner(static_cast<std::size_t>(E));
        std::vector<fromsoft::Face> faces(static_cast<std::size_t>(F));
        for (int f = 0; f < F; ++f) faces[f].clusterIndex = static_cast<std::int16_t>(pick(4));
        for (int e = 0; e < E; ++e) {
            fromsoft::Edge& d = edges[e];
            d.a = pick(V), d.b = pick(V);
            owner[e] = pick(8) == 0 ? (pick(2) ? kNoOwner : kManyOwners) : pick(F);
            const std::uint32_t past[] = {static_cast<std::uint32_t>(E), static_cast<std::uint32_t>(E + 1),
                                          static_cast<std::uint32_t>(E + 7), static_cast<std::uint32_t>(E + 100000),
                                          0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, fromsoft::kNoOpposite};
            d.oppositeEdge = pick(2) ? static_cast<std::uint32_t>(pick(E)) : past[pick(8)];
            d.oppositeFace = pick(2) ? static_cast<std::uint32_t>(pick(F)) : fromsoft::kNoOpposite;
        }
        const BeforeGuardPage<fromsoft::Edge> guarded_edges{std::span<const fromsoft::Edge>(edges)};
        const BeforeGuardPage<std::int32_t> guarded_owner{std::span<const std::int32_t>(owner)};
        const BeforeGuardPage<fromsoft::Face> guarded_faces{std::span<const fromsoft::Face>(faces)};
        const std::int64_t R = pick(4) == 0 ? pick(E + 1) : E;
        expect_scan_as_written(guarded_edges.span(), guarded_owner.span(), R, V, guarded_faces.span(),
                               "guarded round " + std::to_string(round));
        if (::testing::Test::HasFailure()) break;
    }
}

// The constructor marks the regular edges of faces that tile the edges eight entries a face
// (own_tiled_edges). Its owners, R and regular_tiled against a count of the ranges holding each
// edge, on faces that tile the edges or nearly: counts from −2 to 12 (beyond eight, zero,
// negative), a face shifted now and then (a gap or an overlap), the last faces near, at or past
// the end of the edges, and user edges inside and outside the regular ones (or none at all:
// the constructor then skips their pass). Each context takes the last one's owner storage
// unfilled, so an entry that neither own_tiled_edges nor the fill of the fallback writes shows
// an earlier round's owner.
TEST(AuditFastPaths, OwnersEqualTheRangesCountedByHand) {
    std::mt19937 rng(35);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    constexpr int kRounds = 3000;
    int tiled_rounds = 0, no_user_rounds = 0;
    for (int round = 0; round < kRounds; ++round) {
        AuditTagfile f = synthetic_tagfile();
        f.model->mediator.reset();
        fromsoft::NavMesh& m = f.model->mesh;
        const int F = 1 + pick(24), shifts = pick(3) == 0 ? 1 + pick(60) : 0;
        m.faces.assign(static_cast<std::size_t>(F), fromsoft::Face{});
        std::int64_t r = 0;
        for (fromsoft::Face& face : m.faces) {
            face.numEdges = static_cast<std::int16_t>(pick(8) == 0 ? pick(15) - 2 : 3 + pick(6));
            face.startEdgeIndex = static_cast<std::int32_t>(r + (shifts != 0 && pick(shifts) == 0 ? pick(5) - 2 : 0));
            r += std::max<std::int64_t>(0, face.numEdges);
        }
        const int E = std::max(0, static_cast<int>(r) + pick(14) - 4);
        m.edges.resize(static_cast<std::size_t>(E));
        for (fromsoft::Face& face : m.faces)
            if (pick(4) == 0) face.numUserEdges = static_cast<std::int16_t>(1 + pick(3)), face.startUserEdgeIndex = pick(E + 4) - 2;
        std::vector<int> count(static_cast<std::size_t>(E)), who(static_cast<std::size_t>(E), -1);
        auto mark = [&](std::int64_t start, std::int64_t n, int face) {
            for (std::int64_t e = start; e < start + n; ++e)
                if (e >= 0 && e < E) ++count[e], who[e] = face;
        };
        std::int64_t R = 0;
        bool tiled = true;
        for (int i = 0; i < F; ++i) {
            const fromsoft::Face& face = m.faces[i];
            tiled &= face.startEdgeIndex == R;
            R += std::max<std::int64_t>(0, face.numEdges);
            mark(face.startEdgeIndex, face.numEdges, i);
            if (face.numUserEdges > 0) mark(face.startUserEdgeIndex, face.numUserEdges, i);
        }
        tiled &= R <= E;
        std::vector<std::int32_t> expected(static_cast<std::size_t>(E));
        for (int e = 0; e < E; ++e) expected[e] = count[e] == 0 ? kNoOwner : count[e] == 1 ? who[e] : kManyOwners;
        const TagfileContext ctx(f);
        const std::string at = "round " + std::to_string(round);
        EXPECT_EQ(ctx.R, R) << at;
        EXPECT_EQ(ctx.regular_tiled, tiled) << at;
        EXPECT_EQ(std::vector<std::int32_t>(ctx.owner.begin(), ctx.owner.end()), expected) << at;
        if (::testing::Test::HasFailure()) break;
        tiled_rounds += tiled;
        no_user_rounds += std::none_of(m.faces.begin(), m.faces.end(), [](const fromsoft::Face& face) { return face.numUserEdges > 0; });
    }
    EXPECT_GT(no_user_rounds, kRounds / 20);  // the pass over user edges skipped too
    EXPECT_GT(tiled_rounds, kRounds / 4);  // both ways taken often
    EXPECT_LT(tiled_rounds, kRounds * 3 / 4);
}

// bound_vertices runs over the two halves of the vertices side by side and joins them, the
// first half winning ties (or, with AVX2, over four quarters, two to a vector, the vertices
// past the fourth quarter joining it; both ways are checked): on every count of vertices up to 33 with a NaN, an infinity of
// either sign or -0 placed at every position of every lane among ordinary values, ±0 and ties
// (and on random mixes), its bounds are bit for bit those of std::min and std::max in vertex
// order, its answer is whether every x, y and z is finite, and its count of w equal to 1 (X01's)
// is the plain loop's.
TEST(AuditFastPaths, VertexBoundsEqualThePlainLoopBitForBit) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const float pool[] = {1, 1, 0.5f, -2, 0.0f, -0.0f, 2478.771f, -0.0f, 0.0f, 3};
    const float specials[] = {nan, -nan, inf, -inf, -0.0f, 0.0f};
    std::mt19937 rng(39);
    auto bits = [](float f) { return std::bit_cast<std::uint32_t>(f); };
    int checked = 0, not_finite = 0;
    auto check = [&](const std::vector<fromsoft::Vec4>& vertices, const std::string& at) {
        float lo[4] = {inf, inf, inf, inf}, hi[4] = {-inf, -inf, -inf, -inf};
        bool finite = true;
        std::int64_t w_ones = 0;
        for (const fromsoft::Vec4& p : vertices) {
            const float lanes[4] = {p.x, p.y, p.z, p.w};
            for (int k = 0; k < 4; ++k) lo[k] = std::min(lo[k], lanes[k]), hi[k] = std::max(hi[k], lanes[k]);
            finite = finite && std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
            w_ones += p.w == 1.0f;
        }
        for (auto bound : {bound_vertices, bound_vertices_without_avx2}) {
            VertexBounds bounds;
            EXPECT_EQ(bound(vertices, bounds), finite) << at;
            EXPECT_EQ(bounds.w_equal_1, w_ones) << at;
            for (int k = 0; k < 4; ++k) {
                EXPECT_EQ(bits(bounds.min[k]), bits(lo[k])) << at << " min lane " << k;
                EXPECT_EQ(bits(bounds.max[k]), bits(hi[k])) << at << " max lane " << k;
            }
        }
        ++checked, not_finite += !finite;
    };
    auto ordinary = [&](std::size_t n) {
        std::vector<fromsoft::Vec4> v(n);
        for (fromsoft::Vec4& p : v) p = {pool[rng() % 10], pool[rng() % 10], pool[rng() % 10], pool[rng() % 10]};
        return v;
    };
    for (std::size_t n = 0; n <= 33; ++n)
        for (std::size_t at = 0; at < n; ++at)
            for (int lane = 0; lane < 4; ++lane)
                for (float special : specials) {
                    std::vector<fromsoft::Vec4> v = ordinary(n);
                    (&v[at].x)[lane] = special;
                    check(v, fmt::format("n {} vertex {} lane {} value {}", n, at, lane, special));
                    if (::testing::Test::HasFailure()) return;
                }
    for (int round = 0; round < 3000; ++round) {  // mixes: several specials, all-equal lanes
        std::vector<fromsoft::Vec4> v = ordinary(rng() % 80);
        for (fromsoft::Vec4& p : v)
            for (int lane = 0; lane < 4; ++lane)
                if (rng() % 6 == 0) (&p.x)[lane] = specials[rng() % std::size(specials)];
        check(v, fmt::format("round {}", round));
        if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(not_finite, checked / 4);  // both answers met often
    EXPECT_LT(not_finite, checked * 3 / 4);
}

// X01 takes its extremes of w from the context's vertex bounds and looks up only where they
// first occur: on w lanes with NaNs (first and later), ±0, infinities and ties, its counts,
// values (bit for bit) and locations must be those of the plain walk, which offers every w in
// vertex order to Values::maximum and Values::minimum.
TEST(AuditFastPaths, X01ExtremesOfWEqualThePlainWalk) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const std::vector<std::vector<float>> lanes = {
        {1, 1, 1},         {nan, 3, -2},       {2, nan, 5, 5, -1}, {-0.0f, 0.0f, -0.0f}, {0.0f, -0.0f},
        {1, -inf, inf, 1}, {-inf, -inf},       {nan, nan},         {7},                  {3, 1, 3, 0.5f, 1, 0.5f},
    };
    std::mt19937 rng(31);
    std::vector<std::vector<float>> all = lanes;
    for (int k = 0; k < 200; ++k) {  // random lanes from a small pool, so ties and NaNs recur
        const float pool[] = {1, 1, 0.5f, 2, -0.0f, 0.0f, nan, 2478.771f, -inf};
        std::vector<float> w(1 + rng() % 12);
        for (float& x : w) x = pool[rng() % std::size(pool)];
        all.push_back(w);
    }
    for (const std::vector<float>& w : all) {
        AuditTagfile f = synthetic_tagfile();
        auto& vertices = f.model->mesh.vertices;
        ASSERT_GE(vertices.size(), w.size());
        for (std::size_t i = 0; i < vertices.size(); ++i) vertices[i].w = w[i % w.size()];
        const TagfileContext ctx(f);
        std::vector<Values> counters;
        supplementary_counters(ctx, counters);
        const NamedValues x01 = counters[0].named();
        Values walk;
        std::int64_t ones = 0;
        for (std::size_t i = 0; i < vertices.size(); ++i) {
            ones += vertices[i].w == 1.0f;
            walk.maximum("w_max", vertices[i].w, ctx.where("vertex", static_cast<std::int64_t>(i)));
            walk.minimum("w_min", vertices[i].w, ctx.where("vertex", static_cast<std::int64_t>(i)));
        }
        const std::string lane = ::testing::PrintToString(w);
        EXPECT_EQ(x01.counts.count("w_equal_1") ? x01.counts.at("w_equal_1") : 0, ones) << lane;
        for (const char* key : {"w_max", "w_min"}) {
            const Extreme& got = std::string(key) == "w_max" ? x01.maxima.at(key) : x01.minima.at(key);
            const NamedValues walked = walk.named();
            const Extreme& want = std::string(key) == "w_max" ? walked.maxima.at(key) : walked.minima.at(key);
            EXPECT_EQ(std::bit_cast<std::uint64_t>(got.value), std::bit_cast<std::uint64_t>(want.value)) << key << " " << lane;
            EXPECT_EQ(got.at.str(), want.at.str()) << key << " " << lane;
        }
        if (::testing::Test::HasFailure()) break;
    }
}

// Extremes keep their place as pieces (Location) and reports format it: the printed place
// against one formatted at once, for loose and binder tagfiles, names with bytes that are not
// UTF-8, empty names, indices at the ends of their range and below zero, with and without a
// suffix; also after the tagfile's context is gone (the pieces share its name) and through a
// merge, and empty() against the printed text.
TEST(AuditFastPaths, PlacesKeptAsPiecesPrintAsFormattedAtOnce) {
    const std::pair<std::string, std::string> names[] = {
        {"", "n1_00_00_00.hkx"}, {"map/m10.nvmhktbnd.dcx", "m10_01.hkx"}, {"", ""}, {"b\xff\xfe", "e\x80 x"}, {"bin", ""}};
    const std::int64_t indices[] = {0, 7, 1234567, -1, std::numeric_limits<std::int64_t>::max(),
                                    std::numeric_limits<std::int64_t>::min()};
    const std::string_view suffixes[] = {"", "A", "B"};
    for (const auto& [binder, entry] : names) {
        AuditTagfile f = synthetic_tagfile();
        f.binder = binder, f.entry = entry;
        const std::string name = escape_non_utf8(binder.empty() ? entry : binder + " | " + entry);
        Values kept;
        std::vector<std::pair<std::string, std::string>> want;  // key, place
        {
            const TagfileContext ctx(f);
            for (const char* element : {"face", "vertex", "setup"})
                for (const std::int64_t index : indices)
                    for (const std::string_view suffix : suffixes) {
                        const std::string text = index < 0 ? name + std::string(suffix)
                                                           : fmt::format("{} {} {}{}", name, element, index, suffix);
                        const Location at = ctx.where(element, index, suffix);
                        EXPECT_EQ(at.str(), text);
                        EXPECT_EQ(at.empty(), text.empty()) << text;
                        const std::string key = fmt::format("k{}", want.size());
                        kept.maximum(Key::intern(key), 1, at);
                        want.emplace_back(key, text);
                    }
        }
        Values merged;
        merged.maximum(Key::intern("k0"), 2, std::string("earlier"));  // k0's place stays the earlier text
        merged.merge(kept);
        const NamedValues kept_named = kept.named(), merged_named = merged.named();
        for (const auto& [key, text] : want) {
            EXPECT_EQ(kept_named.maxima.at(key).at.str(), text) << key;
            EXPECT_EQ(merged_named.maxima.at(key).at.str(), key == "k0" ? "earlier" : text) << key;
        }
    }
    EXPECT_TRUE(Location().empty());
    EXPECT_EQ(Location("x").str(), "x");
}

// Values::merge adds `from`'s entries key by key, trying the entry after the last one it used
// before a search (KeyedEntries::merge). The merged values of random sequences against sums,
// unions and first strictly larger (smaller) values counted by hand: keys drawn from a pool in
// which some are prefixes of others (one the name of a literal key), each result holding a
// random subset in a random order (so the merged values have keys the next result lacks, the
// reverse, and keys in another order), extremes that tie.
TEST(AuditFastPaths, MergedValuesEqualTheirCountsByHand) {
    std::vector<std::string> pool = {"", "a", "ab", "abc", "b", "ba", "numEdges_003", "numEdges_010", "z", "faces",
                                     "with_sine_tolerance_1e-5_and_more_than_the_small_buffer"};
    std::mt19937 rng(13);
    for (int round = 0; round < 300; ++round) {
        Values merged;
        std::map<std::string, std::int64_t> sums;
        std::map<std::string, std::pair<double, std::string>> largest, smallest;
        std::map<std::string, std::set<std::uint64_t>> unions;
        const int results = 1 + static_cast<int>(rng() % 6);
        for (int r = 0; r < results; ++r) {
            Values v;
            std::shuffle(pool.begin(), pool.end(), rng);
            for (const std::string& name : pool) {
                const Key key = Key::intern(name);
                const unsigned pick = rng() % 8;
                const std::string at = std::to_string(r) + name;
                const double x = static_cast<double>(rng() % 5);
                if (pick == 1) {
                    const auto n = static_cast<std::int64_t>(rng() % 4);
                    v.count(key, n), sums[name] += n;
                }
                if (pick == 2) {
                    v.maximum(key, x, at);
                    if (!largest.count(name) || x > largest[name].first) largest[name] = {x, at};
                }
                if (pick == 3) {
                    v.minimum(key, x, at);
                    if (!smallest.count(name) || x < smallest[name].first) smallest[name] = {x, at};
                }
                if (pick == 4) {
                    const std::uint64_t u = rng() % 6;
                    v.insert(key, u), unions[name].insert(u);
                }
            }
            merged.merge(v);
        }
        const NamedValues named = merged.named();
        EXPECT_EQ((std::map<std::string, std::int64_t>(named.counts.begin(), named.counts.end())), sums);
        auto extremes = [](const std::map<std::string, Extreme, std::less<>>& m) {
            std::map<std::string, std::pair<double, std::string>> out;
            for (const auto& [k, e] : m) out[k] = {e.value, e.at.str()};
            return out;
        };
        EXPECT_EQ(extremes(named.maxima), largest);
        EXPECT_EQ(extremes(named.minima), smallest);
        using Sets = std::map<std::string, std::set<std::uint64_t>>;
        EXPECT_EQ(Sets(named.sets.begin(), named.sets.end()), unions);
    }
}

TEST(AuditFastPaths, InternedKeysAreTheLiteralKeys) {
    EXPECT_EQ(Key::intern("faces"), Key("faces"));
    EXPECT_EQ(Key("zero_area").name(), "zero_area");
    EXPECT_EQ(Key::intern(std::string(kLiteralKeys[0])).id(), 0u);
    const Key made = Key::intern("a name no rule uses");
    EXPECT_GE(made.id(), std::size(kLiteralKeys));
    EXPECT_EQ(made.name(), "a name no rule uses");
    EXPECT_EQ(Key::intern(std::string("a name no rule uses")), made);
}

// X03's class names are not interned (ClassCounts): tagfiles with new random class names leave
// the process-wide key table as it was, and X03's merged counts equal a plain map's sums. Lists
// repeat (the thread's list shared, the merger's places of a list kept), five lists alternate
// (more than the merger keeps places of), counts of 0 are kept as keys, and half the results go
// through a second merger merged into the first.
TEST(AuditFastPaths, ClassNamesAreNotKeysAndX03EqualsAPlainSum) {
    AuditTagfile file = synthetic_tagfile(SyntheticOptions{});
    { const TagfileAudit first = audit_tagfile(file, 3); }  // R23's usual keys interned
    const std::size_t interned = Key::interned_names();
    std::mt19937 rng(45);
    const std::array<std::string, 5> pool = {"hkaiNavMesh", "hkaiDirectedGraphExplicitCost",
                                             "hkaiStaticTreeNavMeshQueryMediator", "a", "hkaiNavMeshClearanceCache"};
    auto random_list = [&] {
        std::map<std::string, std::uint32_t> objects;
        const int n = static_cast<int>(rng() % 9);  // 0 … 8 classes
        for (int k = 0; k < n; ++k) {
            std::string name;
            if (rng() % 3 == 0) name = pool[rng() % pool.size()];
            else
                for (std::size_t c = 1 + rng() % 40; c > 0; --c) name += static_cast<char>('!' + rng() % 90);
            objects[name] = static_cast<std::uint32_t>(rng() % 4);  // some 0
        }
        return objects;
    };
    std::array<std::map<std::string, std::uint32_t>, 5> alternating;
    for (auto& list : alternating) list = random_list();
    std::map<std::string, std::int64_t, std::less<>> expected;
    AuditMerger all(3), first(3), second(3);
    constexpr int kTagfiles = 400;
    for (int t = 0; t < kTagfiles; ++t) {
        const unsigned pick = rng() % 4;
        if (pick == 0) file.model->object_counts = random_list();
        else if (pick == 1) file.model->object_counts = alternating[rng() % alternating.size()];
        // else: the list before, its counts changed
        for (auto& [name, n] : file.model->object_counts) n = static_cast<std::uint32_t>(rng() % 4);
        for (const auto& [name, n] : file.model->object_counts) expected[name] += n;
        const TagfileAudit result = audit_tagfile(file, 3);
        all.add(result);
        (t < kTagfiles / 2 ? first : second).add(result);
    }
    first.add(second);
    for (AuditMerger* merger : {&all, &first}) {
        const AuditReport report = merger->finish({});
        ASSERT_TRUE(report.supplementary.count("X03"));
        EXPECT_EQ(report.supplementary.at("X03").counts, expected) << (merger == &all ? "one merger" : "two merged");
    }
    EXPECT_EQ(Key::interned_names(), interned) << "class names were interned";
}

// A thread shares a tagfile's class list with its next tagfiles of the same classes, but not a
// hostile file's long list (kKeptClassNames): that one is made per tagfile and not kept.
TEST(AuditFastPaths, LongClassListsAreNotKeptWithTheThread) {
    AuditTagfile file = synthetic_tagfile(SyntheticOptions{});
    auto names_of_two_audits = [&] {
        const TagfileAudit a = audit_tagfile(file, 3), b = audit_tagfile(file, 3);
        EXPECT_TRUE(a.classes.names && b.classes.names);
        EXPECT_EQ(a.classes.counts.size(), file.model->object_counts.size());
        return std::pair{a.classes.names, b.classes.names};
    };
    const auto [short_a, short_b] = names_of_two_audits();
    EXPECT_EQ(short_a.get(), short_b.get()) << "a short list is shared with the thread's next tagfile";

    for (std::size_t k = 0; k <= kKeptClassNames; ++k) file.model->object_counts[fmt::format("class{:03}", k)] = 1;
    ASSERT_GT(file.model->object_counts.size(), kKeptClassNames);
    const auto [long_a, long_b] = names_of_two_audits();
    EXPECT_NE(long_a.get(), long_b.get()) << "a list of more than kKeptClassNames classes was kept";
    EXPECT_EQ(long_a.use_count(), 1) << "only this test holds the long list";
    EXPECT_EQ(*long_a, *long_b);
}

namespace {

/// Values as plain maps: each tagfile's extremes fold its values in order (the first, then each
/// strictly better one, so a first NaN stays), and a merge folds the tagfiles' extremes so.
struct PlainValues {
    using Extremes = std::map<std::string, std::pair<double, std::string>>;
    std::map<std::string, std::int64_t> counts;
    Extremes maxima, minima;
    std::map<std::string, std::set<std::uint64_t>> sets;

    static void fold(Extremes& m, const std::string& key, double v, const std::string& at, bool larger) {
        auto [it, made] = m.try_emplace(key, v, at);
        if (!made && (larger ? v > it->second.first : v < it->second.first)) it->second = {v, at};
    }
    void merge(const PlainValues& o) {
        for (const auto& [k, n] : o.counts) counts[k] += n;
        for (const auto& [k, e] : o.maxima) fold(maxima, k, e.first, e.second, true);
        for (const auto& [k, e] : o.minima) fold(minima, k, e.first, e.second, false);
        for (const auto& [k, s] : o.sets) sets[k].insert(s.begin(), s.end());
    }
    bool empty() const { return counts.empty() && maxima.empty() && minima.empty() && sets.empty(); }
};

/// `v` named, as plain maps (extremes by their value and place).
PlainValues plain_of(const Values& v) {
    const NamedValues named = v.named();
    PlainValues out;
    out.counts.insert(named.counts.begin(), named.counts.end());
    for (const auto& [k, e] : named.maxima) out.maxima[k] = {e.value, e.at.str()};
    for (const auto& [k, e] : named.minima) out.minima[k] = {e.value, e.at.str()};
    out.sets.insert(named.sets.begin(), named.sets.end());
    return out;
}

/// Equal with extremes compared bit for bit (NaN, −0).
bool same(const PlainValues& a, const PlainValues& b) {
    const auto bits = [](const PlainValues::Extremes& m) {
        std::map<std::string, std::pair<std::uint64_t, std::string>> out;
        for (const auto& [k, e] : m) out[k] = {std::bit_cast<std::uint64_t>(e.first), e.second};
        return out;
    };
    return a.counts == b.counts && bits(a.maxima) == bits(b.maxima) && bits(a.minima) == bits(b.minima) &&
           a.sets == b.sets;
}

}  // namespace

// Values keep a tagfile's figures in flat arrays under interned keys, cleared for the thread's
// next tagfile (the tallies ~TagfileAudit keeps) and merged key by key. One Values cleared
// between random tagfiles of count (0 and negative too), maximum, minimum (NaN, ±0, ±inf, ties;
// with places made at once, lazily and through a cursor), insert (directly and through a
// cursor) and a merge of a fresh Values into the emptied one, against plain std::maps: each
// tagfile's values, and the merge of the tagfiles one by one and in runs merged first
// (Extreme::after_nan). Keys in random order: a literal, names interned (one of them a
// literal's name) and, in some rounds, many keys (past KeyedEntries::kScanned: the index by id).
TEST(AuditFastPaths, FlatValuesEqualPlainMaps) {
    const std::string pool[] = {"", "a", "ab", "abc", "b", "numEdges_003", "faces", "z",
                                "with_sine_tolerance_1e-5_and_more_than_the_small_buffer"};
    const double numbers[] = {0.0, -0.0, 1.0, 2.0, -3.5, std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    std::mt19937 rng(39);
    std::size_t indexed = 0;
    for (int round = 0; round < 400; ++round) {
        Values reused, merged, run;
        std::vector<Values> runs;
        PlainValues plain_merged;
        const bool many = round % 4 == 0;
        const int tagfiles = 1 + static_cast<int>(rng() % 8);
        for (int t = 0; t < tagfiles; ++t) {
            PlainValues plain;
            const auto name = [&] {
                return rng() % (many ? 2 : 10) == 0 ? "many_" + std::to_string(rng() % 120) : pool[rng() % std::size(pool)];
            };
            if (rng() % 4 == 0) {  // a fresh Values merged into the emptied one
                Values fresh;
                PlainValues plain_fresh;
                for (int i = static_cast<int>(rng() % 6); i-- > 0;) {
                    const std::string k = name(), at = "fresh " + k;
                    const Key key = Key::intern(k);
                    const double x = numbers[rng() % std::size(numbers)];
                    const auto n = static_cast<std::int64_t>(rng() % 5) - 1;
                    const std::uint64_t u = rng() % 5;
                    switch (rng() % 4) {
                        case 0: fresh.count(key, n), plain_fresh.counts[k] += n; break;
                        case 1: fresh.maximum(key, x, at), PlainValues::fold(plain_fresh.maxima, k, x, at, true); break;
                        case 2: fresh.minimum(key, x, at), PlainValues::fold(plain_fresh.minima, k, x, at, false); break;
                        default: fresh.insert(key, u), plain_fresh.sets[k].insert(u);
                    }
                }
                reused.merge(fresh);
                plain.merge(plain_fresh);
            }
            for (int i = static_cast<int>(rng() % (many ? 80 : 30)); i-- > 0;) {
                const std::string k = name(), at = fmt::format("t{} {}", t, i);
                const Key key = Key::intern(k);
                const double x = numbers[rng() % std::size(numbers)];
                switch (rng() % 9) {
                    case 0: {
                        const auto n = static_cast<std::int64_t>(rng() % 5) - 1;
                        reused.count(key, n), plain.counts[k] += n;
                        break;
                    }
                    case 1: reused.maximum(key, x, at), PlainValues::fold(plain.maxima, k, x, at, true); break;
                    case 2: reused.minimum(key, x, at), PlainValues::fold(plain.minima, k, x, at, false); break;
                    case 3:
                        reused.maximum_at(key, x, [&] { return Location(at); });
                        PlainValues::fold(plain.maxima, k, x, at, true);
                        break;
                    case 4:
                        reused.minimum_at(key, x, [&] { return Location(at); });
                        PlainValues::fold(plain.minima, k, x, at, false);
                        break;
                    case 5: {
                        MaximumCursor cursor(reused, key);
                        for (int j = static_cast<int>(rng() % 4); j-- > 0;) {
                            const double y = numbers[rng() % std::size(numbers)];
                            const std::string where = at + " c" + std::to_string(j);
                            cursor.offer(y, [&] { return Location(where); });
                            PlainValues::fold(plain.maxima, k, y, where, true);
                            const std::string other = name();  // an entry added under the cursor
                            reused.maximum(Key::intern(other), 0, "added");
                            PlainValues::fold(plain.maxima, other, 0, "added", true);
                        }
                        break;
                    }
                    case 6: {
                        SetCursor cursor(reused, "values");  // a literal key
                        for (int j = static_cast<int>(rng() % 5); j-- > 0;) {
                            const std::uint64_t u = rng() % 3 ? rng() % 300 : rng();
                            cursor.insert(u), plain.sets["values"].insert(u);
                        }
                        break;
                    }
                    case 7: reused.count("faces", 2), plain.counts["faces"] += 2; break;  // a literal key
                    default: {
                        const std::uint64_t u = rng() % 7;
                        reused.insert(key, u), plain.sets[k].insert(u);
                    }
                }
            }
            ASSERT_TRUE(same(plain_of(reused), plain)) << "round " << round << " tagfile " << t;
            ASSERT_EQ(reused.empty(), plain.empty()) << "round " << round << " tagfile " << t;
            indexed += reused.counts.size() > KeyedEntries<int>::kScanned || reused.maxima.size() > KeyedEntries<int>::kScanned;
            merged.merge(reused);
            run.merge(reused);
            if (rng() % 3 == 0) runs.push_back(std::move(run)), run = Values();
            plain_merged.merge(plain);
            reused.clear();  // as ~TagfileAudit does
            ASSERT_TRUE(reused.empty());
        }
        runs.push_back(std::move(run));
        Values in_runs;
        for (const Values& r : runs) in_runs.merge(r);
        for (const Values* m : {&merged, &in_runs}) EXPECT_TRUE(same(plain_of(*m), plain_merged)) << "round " << round;
    }
    EXPECT_GT(indexed, 50u) << "tagfiles with more keys than a scan looks at";
}

// audit_tagfile lists the rules it ran and which of them hold examples or values
// (TagfileAudit::ran), and the merge then adds only those parts (AuditMerger::add_ran). Its
// results, merged one by one and through OrderedMerge's runs (results ahead of the merge point
// wait merged), against the same results with `ran` emptied, which merge every part of every
// tally: tagfiles of both games, of another SDK, unreadable, clean and failing (rules with and
// without examples, values and exceptions), with no, one and several examples kept. The list
// itself is checked against the tallies.
TEST(AuditFastPaths, MergingTheRulesRunEqualsMergingEveryTally) {
    std::vector<AuditTagfile> files = varied_tagfiles();
    AuditTagfile other = synthetic_tagfile();
    other.sdk = "20990101";  // another SDK: the "both"-scope rules alone
    files.push_back(other);
    AuditTagfile unreadable;
    unreadable.binder = "b.nvmhktbnd.dcx", unreadable.entry = "n.hkx", unreadable.entry_index = 0;
    unreadable.read_error = "offset 0x10: TAG0: truncated";
    files.push_back(unreadable);
    for (std::size_t max_examples : {0u, 1u, 3u}) {
        std::vector<TagfileAudit> listed, plain;
        std::size_t with_extras = 0, without = 0;
        for (std::size_t round = 0; round < 2; ++round)
            for (const AuditTagfile& f : files) {
                listed.push_back(audit_tagfile(f, max_examples));
                const TagfileAudit& r = listed.back();
                ASSERT_FALSE(r.ran.empty());
                std::vector<bool> ran(r.rules.size());
                for (const RanRule x : r.ran) {
                    ran[x.rule] = true;
                    const RuleTally& t = r.rules[x.rule];
                    EXPECT_TRUE(t.applicable);
                    EXPECT_EQ(x.extras, !t.examples.empty() || !t.values.empty()) << all_rules()[x.rule].id;
                    for (std::size_t g = 0; g < 3; ++g) {
                        if (g != static_cast<std::size_t>(r.game)) {
                            EXPECT_EQ(t.by_game[g].checked + t.by_game[g].exceptions + t.by_game[g].skipped, 0);
                        }
                    }
                    (x.extras ? with_extras : without) += 1;
                }
                for (std::size_t i = 0; i < r.rules.size(); ++i) {
                    const RuleTally& t = r.rules[i];
                    if (!ran[i]) {
                        EXPECT_FALSE(t.applicable || !t.examples.empty() || !t.values.empty()) << i;
                        for (const Tally& g : t.by_game) EXPECT_EQ(g.checked + g.exceptions + g.skipped, 0) << i;
                    }
                }
                plain.push_back(r);
                plain.back().ran.clear();
            }
        EXPECT_GT(with_extras, 20u);
        EXPECT_GT(without, 20u);
        const auto texts = [](const AuditReport& report) {
            return audit_json(report).dump() + format_audit_text(report, TextDetail::All);
        };
        const std::string expected = texts(merge_audit(plain, {"in"}, max_examples));
        EXPECT_EQ(texts(merge_audit(listed, {"in"}, max_examples)), expected) << max_examples << " examples";
        // Last to first: every result but the first waits in a run, runs absorb runs.
        OrderedMerge ordered(1, max_examples);
        ordered.set_count(0, listed.size());
        for (std::size_t k = listed.size(); k-- > 0;) ordered.add(0, k, listed[k]);
        EXPECT_EQ(texts(ordered.report({"in"})), expected) << max_examples << " examples, out of order";
    }
}

namespace {

/// A page's member (name, offset, byte size; size 0 = not compared), for the plain verdicts.
struct PageMember {
    std::string name;
    std::uint32_t offset, size;
};

/// The member of `t` called `name` by a walk of its list, or nullptr.
const fromsoft::MemberInfo* member_named(const fromsoft::RecordInfo& t, const std::string& name) {
    for (const fromsoft::MemberInfo& m : t.members())
        if (m.name == name) return &m;
    return nullptr;
}

/// What the page's tables (audit-rules.md R05, R06, R56, R66, R90) make of layout `t`, walked
/// plainly every time: "" when it matches.
std::string plain_mismatch(const fromsoft::RecordInfo& t, const std::string& role, std::uint32_t size,
                           const std::vector<PageMember>& members) {
    if (t.name.empty()) return "no type " + role + "; ";
    std::string out;
    if (size != 0 && t.size != size)
        out += t.name + " is " + std::to_string(t.size) + " bytes, expected " + std::to_string(size) + "; ";
    for (const PageMember& m : members) {
        const fromsoft::MemberInfo* found = member_named(t, m.name);
        if (!found) out += "member " + m.name + " missing; ";
        else if (found->offset != m.offset || (m.size != 0 && found->size != m.size))
            out += m.name + " at " + std::to_string(found->offset) + " (" + std::to_string(found->size) +
                   " bytes), expected " + std::to_string(m.offset) + " (" + std::to_string(m.size) + " bytes); ";
    }
    return out;
}

/// The first example's message of each layout rule (R05, R06, R56, R66, R84, R90), as the
/// page's tables give it for `l`: "" when the rule passes.
std::map<std::string, std::string> plain_layout_verdicts(const fromsoft::LayoutSummary& l) {
    std::map<std::string, std::string> out;
    const fromsoft::RecordInfo& mesh = *l.navMesh;
    out["R05"] = plain_mismatch(mesh, "hkaiNavMesh", 208,
                                {{"faces", 24, 0}, {"edges", 40, 0}, {"vertices", 56, 0}, {"streamingSets", 72, 0},
                                 {"faceData", 88, 0}, {"edgeData", 104, 0}, {"faceDataStriding", 120, 0},
                                 {"edgeDataStriding", 124, 0}, {"aabb", 144, 0}, {"erosionRadius", 176, 0},
                                 {"userData", 184, 0}, {"clearanceCacheSeedingDataSet", 192, 0}});
    if (!mesh.name.empty() && mesh.version != 16) out["R05"] += "version " + std::to_string(mesh.version) + ", expected 16";
    out["R06"] = plain_mismatch(*l.face, "hkaiNavMesh::Face", 16,
                                {{"startEdgeIndex", 0, 4}, {"startUserEdgeIndex", 4, 4}, {"numEdges", 8, 2},
                                 {"numUserEdges", 10, 2}, {"clusterIndex", 12, 2}, {"padding", 14, 2}}) +
                 plain_mismatch(*l.edge, "hkaiNavMesh::Edge", 20,
                                {{"a", 0, 4}, {"b", 4, 4}, {"oppositeEdge", 8, 4}, {"oppositeFace", 12, 4},
                                 {"flags", 16, 1}, {"paddingByte", 17, 1}, {"userEdgeCost", 18, 2}});
    const std::string graph = "hkaiDirectedGraphExplicitCost";
    std::string r56;
    if (l.graph->name.empty()) r56 = "no type " + graph + "; ";
    else
        for (const char* m : {"positions", "nodes", "edges", "nodeData", "edgeData", "nodeDataStriding",
                              "edgeDataStriding", "streamingSets"})
            if (!member_named(*l.graph, m)) r56 += graph + " has no member " + m + "; ";
    out["R56"] = r56 + plain_mismatch(*l.graph_node, "graph Node", 8, {{"startEdgeIndex", 0, 4}, {"numEdges", 4, 4}}) +
                 plain_mismatch(*l.graph_edge, "graph Edge", 8, {{"cost", 0, 2}, {"flags", 2, 2}, {"target", 4, 4}});
    out["R66"] = plain_mismatch(*l.tree_node, "tree node", 6, {{"xyz", 0, 3}, {"hiData", 3, 1}, {"loData", 4, 2}});
    std::string missing;
    for (const char* m : {"obbA", "obbB", "userDataA", "userDataB", "costAtoB", "costBtoA", "worldUpA", "worldUpB",
                          "direction", "space", "forceAlign"})
        if (!member_named(*l.user_edge_setup, m)) missing += (missing.empty() ? "" : ", ") + std::string(m);
    out["R84"] = missing.empty() ? "" : "missing " + missing;
    out["R90"] = plain_mismatch(*l.obb, "hkaiUserEdgeUtils::Obb", 80, {{"transform", 0, 64}, {"halfExtents", 64, 16}});
    return out;
}

/// `base` changed in one random way a type table could differ: its size, version or name, a
/// member dropped, renamed, moved or resized, the list reversed, or no type at all.
fromsoft::RecordRef changed_layout(const fromsoft::RecordInfo& base, std::mt19937& rng) {
    fromsoft::RecordInfo t = base;
    auto& members = t.mutable_members();
    const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    switch (rng() % 9) {
        case 0: t.size += 1 + static_cast<std::uint32_t>(rng() % 8); break;
        case 1: t.version ^= 1 + static_cast<std::uint32_t>(rng() % 4); break;
        case 2: if (!members.empty()) members.erase(members.begin() + static_cast<std::ptrdiff_t>(pick(members.size()))); break;
        case 3: if (!members.empty()) members[pick(members.size())].name += "x"; break;
        case 4: if (!members.empty()) members[pick(members.size())].offset += 2; break;
        case 5: if (!members.empty()) members[pick(members.size())].size += 1; break;
        case 6: std::reverse(members.begin(), members.end()); break;  // the same verdict, found elsewhere
        case 7: return fromsoft::RecordRef();
        default: t.name += "2"; break;  // a verdict that names the type
    }
    return fromsoft::RecordRef(std::move(t));
}

}  // namespace

// The layout rules remember their verdict per shared layout (LayoutVerdicts): tagfiles that
// share a layout, tagfiles with one of their own made and dropped after each other (a freed
// layout's address is taken by the next one unless the memo holds it), more layouts than the
// memo keeps, and each verdict as a plain walk of the page's tables gives it.
TEST(AuditFastPaths, LayoutVerdictsFollowEachTagfilesLayouts) {
    std::mt19937 rng(46);
    const AuditTagfile er = synthetic_tagfile();
    SyntheticOptions sekiro_options;
    sekiro_options.sekiro = true;
    const AuditTagfile sekiro = synthetic_tagfile(sekiro_options);
    using Role = fromsoft::RecordRef fromsoft::LayoutSummary::*;
    const Role roles[] = {&fromsoft::LayoutSummary::navMesh,   &fromsoft::LayoutSummary::face,
                          &fromsoft::LayoutSummary::edge,      &fromsoft::LayoutSummary::graph,
                          &fromsoft::LayoutSummary::graph_node, &fromsoft::LayoutSummary::graph_edge,
                          &fromsoft::LayoutSummary::tree_node, &fromsoft::LayoutSummary::user_edge_setup,
                          &fromsoft::LayoutSummary::obb};
    // Per role, layouts shared by many tagfiles (as a type table's): the page's and changed ones,
    // more than a memo keeps.
    std::vector<std::vector<fromsoft::RecordRef>> shared(std::size(roles));
    for (std::size_t k = 0; k < std::size(roles); ++k) {
        shared[k].push_back(er.model->layouts.*roles[k]);
        for (int i = 0; i < 11; ++i) shared[k].push_back(changed_layout(*(er.model->layouts.*roles[k]), rng));
    }
    const auto rules = all_rules();
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < rules.size(); ++i) index[rules[i].id] = i;
    std::map<std::string, int> failed, passed;
    for (int round = 0; round < 1500; ++round) {
        AuditTagfile f = round % 3 == 0 ? sekiro : er;
        const int mode = static_cast<int>(rng() % 4);  // 0: the page's; 1: shared; 2: own; 3: mixed
        for (std::size_t k = 0; k < std::size(roles); ++k) {
            const int m = mode == 3 ? static_cast<int>(rng() % 3) : mode;
            const std::size_t few = round % 100 < 50 ? 3 : shared[k].size();  // phases of few and many
            if (m == 1) f.model->layouts.*roles[k] = shared[k][rng() % few];
            if (m == 2) f.model->layouts.*roles[k] = changed_layout(*(f.model->layouts.*roles[k]), rng);
        }
        const TagfileAudit r = audit_tagfile(f, 5);
        for (const auto& [id, expected] : plain_layout_verdicts(f.model->layouts)) {
            const RuleTally& t = r.rules[index.at(id)];
            const Tally& g = t.by_game[static_cast<std::size_t>(r.game)];
            if (g.checked == 0) continue;  // not run on this tagfile (R56 on Elden Ring, R66 on Sekiro)
            ASSERT_EQ(g.exceptions, expected.empty() ? 0 : 1) << id << " round " << round << ": " << expected;
            if (!expected.empty()) {
                ASSERT_EQ(t.examples.size(), 1u) << id;
                EXPECT_EQ(t.examples[0].message, expected) << id << " round " << round;
            }
            ++(expected.empty() ? passed : failed)[id];
        }
    }
    for (const char* id : {"R05", "R06", "R56", "R66", "R84", "R90"}) {
        EXPECT_GT(failed[id], 100) << id;
        EXPECT_GT(passed[id], 100) << id;
    }
}

// all_hold asks a block of elements at a time: the same answer as a walk that stops at the
// first failure, for ranges that start and end anywhere around the blocks, and never an
// element outside the range.
TEST(AuditFastPaths, AllHoldEqualsAWalkToTheFirstFailure) {
    std::mt19937 rng(4601);
    for (int round = 0; round < 4000; ++round) {
        const std::int64_t begin = static_cast<std::int64_t>(rng() % 5);
        const std::int64_t end = begin + static_cast<std::int64_t>(rng() % (3 * kAllHoldBlock + 3));
        std::vector<char> holds(static_cast<std::size_t>(end) + 1, 1);
        const int failures = round % 3 == 0 ? 0 : 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < failures; ++k) holds[rng() % holds.size()] = 0;  // some past the end
        bool plain = true;
        for (std::int64_t i = begin; i < end && plain; ++i) plain = holds[static_cast<std::size_t>(i)] != 0;
        std::int64_t lowest = end, highest = begin - 1;
        const bool fast = all_hold(begin, end, [&](std::int64_t i) {
            lowest = std::min(lowest, i), highest = std::max(highest, i);
            return holds.at(static_cast<std::size_t>(i)) != 0;
        });
        ASSERT_EQ(fast, plain) << begin << " … " << end << " round " << round;
        EXPECT_GE(lowest, begin);
        EXPECT_LT(highest, end);
    }
}

/// Lane k of v (x, y, z, w).
float& lane_of(fromsoft::Vec4& v, int k) { return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w; }

// R24's and R49's passes in one step (all_hold, all_inside) against a plain count of the
// faces whose clusterIndex is no node and of the vertices outside the aabb in x, y or z (a NaN
// is outside; w is not compared), with the failing elements anywhere among many.
TEST(AuditFastPaths, R24AndR49CountWhatAPlainWalkCounts) {
    std::mt19937 rng(4602);
    SyntheticOptions o;
    o.sekiro = true, o.width = 9, o.height = 7;  // 63 faces, 80 vertices
    const AuditTagfile base = synthetic_tagfile(o);
    const auto rules = all_rules();
    std::size_t r24 = 0, r49 = 0;
    for (std::size_t i = 0; i < rules.size(); ++i) {
        if (std::string(rules[i].id) == "R24") r24 = i;
        if (std::string(rules[i].id) == "R49") r49 = i;
    }
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    int rounds_with_exceptions[2] = {0, 0};
    for (int round = 0; round < 600; ++round) {
        AuditTagfile f = base;
        fromsoft::NavMesh& m = f.model->mesh;
        const int K = static_cast<int>(f.model->graph->nodes.size());
        const int changes = round % 4 == 0 ? 0 : 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < changes; ++k) {
            const int values[] = {-2, -1, 0, K - 1, K, K + 1, 30000};
            m.faces[rng() % m.faces.size()].clusterIndex = static_cast<std::int16_t>(values[rng() % std::size(values)]);
            fromsoft::Vec4& v = m.vertices[rng() % m.vertices.size()];
            const int axis = static_cast<int>(rng() % 4);
            const float lo = lane_of(m.aabb.min, axis), hi = lane_of(m.aabb.max, axis);
            const float picks[] = {lo, hi, std::nextafter(lo, -inf), std::nextafter(hi, inf), nan, -inf, inf, 0.5f * (lo + hi)};
            lane_of(v, axis) = picks[rng() % std::size(picks)];
        }
        std::int64_t bad_faces = 0, bad_vertices = 0;
        for (const fromsoft::Face& face : m.faces) bad_faces += !(face.clusterIndex >= 0 && face.clusterIndex < K);
        for (fromsoft::Vec4 v : m.vertices) {
            bool in = true;
            for (int k = 0; k < 3; ++k) in = in && lane_of(m.aabb.min, k) <= lane_of(v, k) && lane_of(v, k) <= lane_of(m.aabb.max, k);
            bad_vertices += !in;
        }
        const TagfileAudit r = audit_tagfile(f, 5);
        const Tally& t24 = r.rules[r24].by_game[static_cast<std::size_t>(r.game)];
        const Tally& t49 = r.rules[r49].by_game[static_cast<std::size_t>(r.game)];
        ASSERT_EQ(t24.checked, static_cast<std::int64_t>(m.faces.size())) << round;
        ASSERT_EQ(t24.exceptions, bad_faces) << round;
        ASSERT_EQ(t49.checked, static_cast<std::int64_t>(m.vertices.size())) << round;
        ASSERT_EQ(t49.exceptions, bad_vertices) << round;
        rounds_with_exceptions[0] += bad_faces > 0, rounds_with_exceptions[1] += bad_vertices > 0;
    }
    EXPECT_GT(rounds_with_exceptions[0], 150);
    EXPECT_GT(rounds_with_exceptions[1], 150);
}

namespace {

/// A face's eight 16-bit pieces, as FaceFieldBounds numbers them.
std::array<std::int16_t, 8> pieces_of(const fromsoft::Face& f) {
    std::array<std::int16_t, 8> p;
    std::memcpy(p.data(), &f, sizeof f);
    return p;
}

/// A face field value from a few that sit on each bound FaceFieldBounds is asked about (a
/// startUserEdgeIndex whose low or high half alone is 0xFFFF among them), or a regular range
/// moved or resized (the faces then no longer tile the edges).
void scramble_face(fromsoft::Face& f, std::mt19937& rng, std::int64_t E, std::int64_t K) {
    switch (rng() % 5) {
        case 4: {
            const int pick = static_cast<int>(rng() % 6);
            if (pick == 0) f.numEdges = static_cast<std::int16_t>(f.numEdges + 1);
            if (pick == 1) f.numEdges = 3;
            if (pick == 2) f.startEdgeIndex += 4;
            if (pick == 3) f.startEdgeIndex = -4;
            if (pick == 4) f.numEdges = static_cast<std::int16_t>(rng() % 2 == 0 ? 2 : -1);  // too few (R23)
            if (pick == 5) f.numEdges = static_cast<std::int16_t>(rng() % 2 == 0 ? 63 : 64);  // the usual sizes' end
            break;
        }
        case 0: {
            const std::int32_t picks[] = {-1, 0, 5, -2, static_cast<std::int32_t>(E) - 1, static_cast<std::int32_t>(E),
                                          0xFFFF, static_cast<std::int32_t>(0xFFFF0000u)};
            f.startUserEdgeIndex = picks[rng() % std::size(picks)];
            break;
        }
        case 1: {
            const std::int16_t picks[] = {0, 1, -1, 2, -32768};
            f.numUserEdges = picks[rng() % std::size(picks)];
            break;
        }
        case 2: {
            const std::int64_t picks[] = {-2, -1, 0, K - 1, K, K + 1, 32767};
            f.clusterIndex = static_cast<std::int16_t>(picks[rng() % std::size(picks)]);
            break;
        }
        default: {
            const std::uint16_t picks[] = {0xCDCD, 0, 0xCDCC, 0x4DCD, 0xCDCE};
            f.padding = picks[rng() % std::size(picks)];
        }
    }
}

/// Index of rule `id` in all_rules().
std::size_t rule_index(std::string_view id) {
    const auto rules = all_rules();
    for (std::size_t i = 0; i < rules.size(); ++i)
        if (rules[i].id == id) return i;
    ADD_FAILURE() << id;
    return 0;
}

}  // namespace

// The faces' bounds piece by piece, and each question the rules ask of them, against plain
// walks over the faces: arrays of 0 … 40 faces (odd and even, for the two pairs of bounds and
// the last face alone) whose fields take values on and beside each bound, anywhere.
TEST(AuditFastPaths, FaceFieldBoundsEqualAPlainWalk) {
    std::mt19937 rng(4701);
    for (int round = 0; round < 6000; ++round) {
        std::vector<fromsoft::Face> faces(static_cast<std::size_t>(round % 41));
        const std::int64_t E = 4 * static_cast<std::int64_t>(faces.size()), K = 1 + round % 7;
        for (std::size_t i = 0; i < faces.size(); ++i) faces[i].startEdgeIndex = static_cast<std::int32_t>(4 * i), faces[i].numEdges = 4;
        const int changes = round % 4 == 0 ? 0 : 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < changes && !faces.empty(); ++k) {
            const std::size_t at[] = {0, faces.size() - 1, faces.size() / 2, rng() % faces.size()};
            scramble_face(faces[at[rng() % std::size(at)]], rng, E, K);
        }
        const FaceFieldBounds b = bound_face_fields(faces);
        ASSERT_EQ(b.any, !faces.empty()) << round;
        if (!faces.empty()) {
            std::array<std::int16_t, 8> lo = pieces_of(faces[0]), hi = lo;
            for (const fromsoft::Face& f : faces) {
                const auto p = pieces_of(f);
                for (std::size_t k = 0; k < 8; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
            }
            ASSERT_EQ(b.min, lo) << round;
            ASSERT_EQ(b.max, hi) << round;
        }
        bool no_users = true, no_positive = true, no_counts = true, padding = true, below = true, none = true;
        for (const fromsoft::Face& f : faces) {
            no_users = no_users && f.numUserEdges == 0 && f.startUserEdgeIndex == -1;
            no_positive = no_positive && f.numUserEdges <= 0;
            no_counts = no_counts && f.numUserEdges == 0;
            padding = padding && f.padding == 0xCDCD;
            below = below && f.clusterIndex >= 0 && f.clusterIndex < K;
            none = none && f.clusterIndex == -1;
        }
        ASSERT_EQ(b.no_user_edges(), no_users) << round;
        ASSERT_EQ(b.no_positive_user_counts(), no_positive) << round;
        ASSERT_EQ(b.all(FaceFieldBounds::kNumUserEdges, 0), no_counts) << round;
        ASSERT_EQ(b.padding_cdcd(), padding) << round;
        ASSERT_EQ(b.clusters_below(K), below) << round;
        ASSERT_EQ(b.all(FaceFieldBounds::kClusterIndex, -1), none) << round;
    }
}

// R22, R23, R24, R25, R26, R34, R35 and R74, which take a tagfile where every face holds from
// the faces' bounds, against plain walks written here: grids of both games (Elden Ring with and
// without user edges) with fields changed at the first, the middle, the last or any face, one
// or several rules failing at once, and tagfiles where all hold in between (a rule's counts
// must not carry over to the next tagfile).
TEST(AuditFastPaths, PerFaceRulesCountWhatAPlainWalkCounts) {
    std::mt19937 rng(4702);
    const std::size_t r22 = rule_index("R22"), r23 = rule_index("R23"), r24 = rule_index("R24"), r25 = rule_index("R25"),
                      r26 = rule_index("R26"), r34 = rule_index("R34"), r35 = rule_index("R35"), r74 = rule_index("R74");
    int failing[9] = {};
    for (int round = 0; round < 1500; ++round) {
        SyntheticOptions o;
        o.sekiro = round % 3 == 0;
        o.user_edges = round % 3 == 1;
        o.width = 3 + round % 5, o.height = 2 + round % 3;
        AuditTagfile f = synthetic_tagfile(o);
        fromsoft::NavMesh& m = f.model->mesh;
        const std::int64_t F = static_cast<std::int64_t>(m.faces.size()), E = static_cast<std::int64_t>(m.edges.size());
        const std::int64_t K = f.model->graph ? static_cast<std::int64_t>(f.model->graph->nodes.size()) : 0;
        const int changes = round % 4 == 0 ? 0 : 1 + static_cast<int>(rng() % 4);
        for (int k = 0; k < changes; ++k) {
            const std::size_t at[] = {0, m.faces.size() - 1, m.faces.size() / 2, rng() % m.faces.size()};
            scramble_face(m.faces[at[rng() % std::size(at)]], rng, E, K);
        }
        // The plain walks.
        std::int64_t R = 0;
        bool tiled = true;
        for (const fromsoft::Face& face : m.faces) tiled = tiled && face.startEdgeIndex == R, R += std::max<std::int64_t>(0, face.numEdges);
        tiled = tiled && R <= E;
        std::int64_t bad22 = 0, bad23 = 0, bad24 = 0, bad25 = 0, bad26 = 0, bad74 = 0, outside = 0;
        std::map<std::string, std::int64_t, std::less<>> sizes;  // R23's histogram
        for (const fromsoft::Face& face : m.faces) ++sizes[fmt::format("numEdges_{:03}", face.numEdges)], bad23 += face.numEdges < 3;
        std::vector<int> owners(static_cast<std::size_t>(E), 0);
        auto own = [&](std::int64_t start, std::int64_t n) {
            for (std::int64_t e = std::max<std::int64_t>(0, start); e < start + n && e < E; ++e) ++owners[static_cast<std::size_t>(e)];
        };
        for (std::int64_t i = 0; i < F; ++i) {
            const fromsoft::Face& face = m.faces[static_cast<std::size_t>(i)];
            bad22 += !(face.numUserEdges >= 0 && (face.numUserEdges == 0) == (face.startUserEdgeIndex == -1));
            bad24 += !(face.clusterIndex >= 0 && face.clusterIndex < K);
            bad25 += face.clusterIndex != -1;
            bad26 += face.padding != 0xCDCD;
            bad74 += face.numUserEdges != 0 || (i + 1 == F && E > R);
            auto out = [&](std::int64_t start, std::int64_t n) { return n > 0 && (start < 0 || start + n > E); };
            outside += out(face.startEdgeIndex, face.numEdges) || out(face.startUserEdgeIndex, face.numUserEdges);
            own(face.startEdgeIndex, face.numEdges);
            if (face.numUserEdges > 0) own(face.startUserEdgeIndex, face.numUserEdges);
        }
        const std::int64_t not_once = std::count_if(owners.begin(), owners.end(), [](int n) { return n != 1; });
        failing[7] += !tiled && outside > 0 && not_once == 0;  // R34's faces alone fail it
        Tally t35;  // one case a tagfile: skipped unless tiled, else the first bad user range or the sum
        if (!tiled) {
            t35.skipped = 1;
        } else {
            std::int64_t users = 0;
            bool bad = false;
            for (const fromsoft::Face& face : m.faces) {
                if (face.numUserEdges <= 0) continue;
                users += face.numUserEdges;
                if (face.startUserEdgeIndex < R || std::int64_t{face.startUserEdgeIndex} + face.numUserEdges > E) {
                    bad = true;
                    break;
                }
            }
            t35.checked = 1, t35.exceptions = bad || users != E - R;
        }
        const TagfileAudit r = audit_tagfile(f, 3);
        auto tally = [&](std::size_t rule) { return r.rules[rule].by_game[static_cast<std::size_t>(r.game)]; };
        auto expect = [&](std::size_t rule, std::int64_t checked, std::int64_t exceptions, int slot) {
            const Tally t = tally(rule);
            EXPECT_EQ(t.checked, checked) << all_rules()[rule].id << " round " << round;
            EXPECT_EQ(t.exceptions, exceptions) << all_rules()[rule].id << " round " << round;
            failing[slot] += exceptions > 0;
        };
        expect(r22, F, bad22, 0);
        expect(r23, F, bad23, 8);
        EXPECT_EQ(r.rules[r23].values.named().counts, sizes) << round;
        expect(r26, F, bad26, 1);
        expect(r34, outside + E, outside + not_once, 2);
        EXPECT_EQ(tally(r35).checked, t35.checked) << round;
        EXPECT_EQ(tally(r35).exceptions, t35.exceptions) << round;
        EXPECT_EQ(tally(r35).skipped, t35.skipped) << round;
        failing[3] += t35.exceptions > 0;
        if (o.sekiro) {
            expect(r24, F, bad24, 4);
            expect(r74, F, bad74, 5);
        } else {
            expect(r25, F, bad25, 6);
        }
        if (HasFailure()) return;
    }
    for (int k = 0; k < 9; ++k) EXPECT_GT(failing[k], k == 7 ? 5 : 20) << k;
}

// R72 sums its passes and skips and gathers its largest distance outside a leaf box before
// recording them once: against a plain walk over every corner of every face (each corner's own
// distance, not the corners' box), on Elden Ring grids whose vertices are pushed outside their
// leaf boxes by less and more than the tolerance, at the first, the middle, the last or any face.
TEST(AuditFastPaths, R72CountsAndLargestDistanceEqualAPlainWalk) {
    std::mt19937 rng(4703);
    const std::size_t r72 = rule_index("R72");
    int rounds_with_exceptions = 0, rounds_with_distance = 0;
    for (int round = 0; round < 300; ++round) {
        SyntheticOptions o;
        o.width = 2 + round % 6, o.height = 1 + round % 4, o.user_edges = round % 2 == 0;
        AuditTagfile f = synthetic_tagfile(o);
        fromsoft::NavMesh& m = f.model->mesh;
        // Moved after the tree was built, so their faces' leaf boxes no longer hold them.
        const int changes = round % 5 == 0 ? 0 : 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < changes; ++k) {
            const std::size_t faces[] = {0, m.faces.size() - 1, m.faces.size() / 2, rng() % m.faces.size()};
            const fromsoft::Face& face = m.faces[faces[rng() % std::size(faces)]];
            fromsoft::Vec4& v = m.vertices[static_cast<std::size_t>(m.edges[static_cast<std::size_t>(face.startEdgeIndex)].a)];
            const float pushes[] = {0.0001f, -0.0003f, 0.002f, -0.04f, 0.75f};
            lane_of(v, static_cast<int>(rng() % 3)) += pushes[rng() % std::size(pushes)];
        }
        const fromsoft::DecodedAabbTree tree = fromsoft::decode_aabb_tree6(f.model->mediator->nodes, f.model->mediator->domain);
        ASSERT_TRUE(tree.valid) << round;
        std::vector<const fromsoft::Box3*> box_of(m.faces.size(), nullptr);
        for (const fromsoft::TreeLeaf& l : tree.leaves)
            if (l.face < m.faces.size() && !box_of[l.face]) box_of[l.face] = &tree.boxes[l.node];
        Tally plain;
        bool any = false;
        double largest = 0;
        std::size_t largest_at = 0;
        for (std::size_t i = 0; i < m.faces.size(); ++i) {
            const fromsoft::Face& face = m.faces[i];
            ASSERT_TRUE(box_of[i]) << round;
            double face_largest = 0;  // a corner inside its box offers 0
            for (int k = 0; k < face.numEdges; ++k) {
                const fromsoft::Vec4& v = m.vertices[static_cast<std::size_t>(m.edges[static_cast<std::size_t>(face.startEdgeIndex + k)].a)];
                const double p[3] = {v.x, v.y, v.z};
                double out = -INFINITY;
                for (int a = 0; a < 3; ++a) out = std::max({out, box_of[i]->min[a] - p[a], p[a] - box_of[i]->max[a]});
                ++plain.checked;
                plain.exceptions += out > fromsoft::kLeafBoxTolerance;
                face_largest = std::max(face_largest, out);
            }
            if (!any || face_largest > largest) largest = face_largest, largest_at = i, any = true;
        }
        const TagfileAudit r = audit_tagfile(f, 3);
        const Tally& t = r.rules[r72].by_game[static_cast<std::size_t>(r.game)];
        ASSERT_EQ(t.checked, plain.checked) << round;
        ASSERT_EQ(t.exceptions, plain.exceptions) << round;
        ASSERT_EQ(t.skipped, 0) << round;
        const NamedValues values = r.rules[r72].values.named();
        ASSERT_EQ(values.maxima.count("max_distance_outside_m"), 1u) << round;
        const Extreme& e = values.maxima.at("max_distance_outside_m");
        ASSERT_EQ(e.value, largest) << round;
        ASSERT_EQ(e.at.str(), f.entry + " face " + std::to_string(largest_at)) << round;
        rounds_with_exceptions += plain.exceptions > 0, rounds_with_distance += largest > 0;
    }
    EXPECT_GT(rounds_with_exceptions, 60);
    EXPECT_GT(rounds_with_distance, 100);
}
