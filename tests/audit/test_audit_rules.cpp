// Each rule of the audit broken once on a synthetic navmesh: the audit must name exactly the
// rules listed (one, or the few that the same change necessarily breaks).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <functional>
#include <limits>
#include <map>
#include <random>
#include <regex>
#include <set>

#include "audit/audit.h"
#include "audit/audit_rules.h"
#include "io/text.h"
#include "synthetic_navmesh.h"

using namespace navlab;
using namespace navlab::audit;
using navlab::test::SyntheticOptions;
using navlab::test::synthetic_tagfile;

namespace {

AuditReport audit_one(const AuditTagfile& f) {
    std::vector<TagfileAudit> results{audit_tagfile(f, 5)};
    return merge_audit(results, {f.entry}, 5);
}

/// IDs of the rules with at least one exception.
std::set<std::string> rules_with_exceptions(const AuditReport& r) {
    std::set<std::string> out;
    auto defs = all_rules();
    for (std::size_t i = 0; i < defs.size(); ++i) {
        std::int64_t n = 0;
        for (const auto& g : r.rules[i].by_game) n += g.exceptions;
        if (n > 0) out.insert(defs[i].id);
    }
    return out;
}

std::string joined(const std::set<std::string>& s) {
    std::string out;
    for (const auto& x : s) out += x + " ";
    return out;
}

/// Recomputes the aabb (keeping its margin) and the query tree after changing the geometry.
void refit(AuditTagfile& f) {
    auto& m = f.model->mesh;
    test::fit_aabb(m, m.aabb.max.w);
    if (f.model->mediator) *f.model->mediator = fromsoft::build_query_mediator(m);
}

/// An Elden Ring tagfile of one face with the given corners (boundary edges only).
AuditTagfile single_face(const std::vector<fromsoft::Vec4>& corners) {
    SyntheticOptions o;
    o.width = o.height = 1;
    o.user_edges = false;
    AuditTagfile f = synthetic_tagfile(o);
    auto& m = f.model->mesh;
    m.vertices.assign(corners.begin(), corners.end());
    m.edges.clear();
    int n = static_cast<int>(corners.size());
    for (int k = 0; k < n; ++k) m.edges.push_back({k, (k + 1) % n, fromsoft::kNoOpposite, fromsoft::kNoOpposite, 4, 0, 0});
    m.faces[0].numEdges = static_cast<std::int16_t>(n);
    m.edgeData.assign(n, 0);
    refit(f);
    return f;
}

struct Case {
    const char* name;
    SyntheticOptions options;
    std::function<void(AuditTagfile&)> mutate;
    std::set<std::string> expected;
};

SyntheticOptions er() { return {}; }
SyntheticOptions sekiro() {
    SyntheticOptions o;
    o.sekiro = true;
    return o;
}
SyntheticOptions one_face() {
    SyntheticOptions o;
    o.width = o.height = 1;
    o.user_edges = false;
    return o;
}
SyntheticOptions wide_sekiro() {
    SyntheticOptions o = sekiro();
    o.width = 30;
    return o;
}

fromsoft::NavMesh& mesh(AuditTagfile& f) { return f.model->mesh; }
std::uint32_t R_of(AuditTagfile& f) { return static_cast<std::uint32_t>(4 * mesh(f).faces.size()); }

const std::string kGoodMember = "N:\\FDP\\data\\Model\\map\\m10_00_00_00\\navimesh\\bind6\\n10_00_00_00_000700.hkx";

std::vector<Case> cases() {
    using fromsoft::kNoOpposite;
    return {
        {"R02", er(), [](auto& f) { f.model.reset(); f.read_error = "TAG0: truncated"; }, {"R02"}},
        {"R03", er(), [](auto& f) { f.model->own_type_table = false; }, {"R03"}},
        {"R04", er(), [](auto& f) { f.sdk = "20150100"; }, {"R04"}},
        {"R05", er(), [](auto& f) { f.model->layouts.navMesh.edit().size = 200; }, {"R05"}},
        {"R06", er(), [](auto& f) { f.model->layouts.face.edit().mutable_members()[5].offset = 15; }, {"R06"}},
        {"R07", er(), [](auto& f) { f.model->variants[1].name = "mediator"; }, {"R07"}},
        {"R08", er(), [](auto& f) { f.model->variants.push_back({"hkaiNavMesh", "hkaiNavMesh", "hkaiNavMesh", 0}); }, {"R08"}},
        {"R09", er(), [](auto& f) { f.model->variants.push_back(f.model->variants[1]); }, {"R09"}},
        {"R10", sekiro(), [](auto& f) { f.model->variants.erase(f.model->variants.begin() + 1); }, {"R10"}},
        {"R12", er(), [](auto& f) { f.model->variants.erase(f.model->variants.begin() + 1); }, {"R12"}},
        {"R14", er(), [](auto& f) { f.model->layouts.vertex.edit().size = 12; }, {"R14"}},
        {"R15", er(), [](auto& f) { mesh(f).faceData.push_back(0); }, {"R15"}},
        {"R16", er(), [](auto& f) { mesh(f).erosionRadius = 0.5f; }, {"R16"}},
        {"R17", sekiro(), [](auto& f) { mesh(f).userData = 1; }, {"R17"}},
        {"R18", er(), [](auto& f) { mesh(f).userData = 1; }, {"R18"}},
        {"R19", er(), [](auto& f) { mesh(f).streaming_set_count = 1; }, {"R19"}},
        {"R20", er(), [](auto& f) { mesh(f).has_clearance_cache_seeding = false; }, {"R20"}},
        {"R21", er(),
         [](auto& f) {  // swap the edge blocks of faces 0 and 1, remapping opposites
             auto& m = mesh(f);
             auto remap = [](std::uint32_t e) { return e == kNoOpposite ? e : (e < 4 ? e + 4 : (e < 8 ? e - 4 : e)); };
             std::swap_ranges(m.edges.begin(), m.edges.begin() + 4, m.edges.begin() + 4);
             for (auto& e : m.edges) e.oppositeEdge = remap(e.oppositeEdge);
             m.faces[0].startEdgeIndex = 4;
             m.faces[1].startEdgeIndex = 0;
         },
         {"R21"}},
        {"R22", er(), [](auto& f) { mesh(f).faces[1].startUserEdgeIndex = 5; }, {"R22"}},
        {"R23", sekiro(),
         [](auto& f) {  // an extra face of two edges after the others
             auto& m = mesh(f);
             fromsoft::Face face;
             face.startEdgeIndex = static_cast<std::int32_t>(m.edges.size());
             face.numEdges = 2;
             face.clusterIndex = 0;
             m.faces.push_back(face);
             m.edges.push_back({0, 1, kNoOpposite, kNoOpposite, 4, 0, 0});
             m.edges.push_back({1, 0, kNoOpposite, kNoOpposite, 4, 0, 0});
             m.faceData.push_back(0);
             m.edgeData.resize(m.edges.size());
         },
         {"R23"}},
        {"R24", sekiro(), [](auto& f) { mesh(f).faces[0].clusterIndex = 99; }, {"R24", "R63"}},
        {"R25", er(), [](auto& f) { mesh(f).faces[0].clusterIndex = 0; }, {"R25"}},
        {"R26", er(), [](auto& f) { mesh(f).faces[3].padding = 0; }, {"R26"}},
        {"R27", er(), [](auto& f) { mesh(f).edges[R_of(f)].a = 9999; }, {"R27", "R75"}},
        {"R28", er(), [](auto& f) { mesh(f).edges[0].oppositeEdge = 999999; mesh(f).edges[0].oppositeFace = 0; }, {"R28"}},
        {"R29", er(), [](auto& f) { mesh(f).edges[2].oppositeFace = 7; }, {"R29"}},
        {"R30", er(), [](auto& f) { mesh(f).edges[5].flags = 5; }, {"R30"}},
        {"R31", er(), [](auto& f) { mesh(f).edges[5].paddingByte = 1; }, {"R31"}},
        {"R32", er(), [](auto& f) { mesh(f).edges[5].userEdgeCost = 0x8000; }, {"R32"}},
        {"R33", er(), [](auto& f) { mesh(f).edges[0].b = 7; }, {"R33"}},
        {"R34", er(), [](auto& f) { mesh(f).faces.back().startUserEdgeIndex = static_cast<std::int32_t>(R_of(f)); }, {"R34", "R83"}},
        {"R35", er(),
         [](auto& f) {  // a user range that starts inside the regular edges
             mesh(f).faces[0].startUserEdgeIndex = 3;
         },
         {"R34", "R35", "R83"}},
        {"R36", er(), [](auto& f) { mesh(f).edges[2].oppositeEdge = 5; }, {"R36", "R37"}},
        {"R38", one_face(),
         [](auto& f) {  // face 0 of a 1 × 1 mesh turned clockwise
             auto& m = mesh(f);
             std::reverse(m.edges.begin(), m.edges.begin() + 4);
             for (int k = 0; k < 4; ++k) std::swap(m.edges[k].a, m.edges[k].b);
         },
         {"R38"}},
        {"R39", er(), [](auto& f) {}, {"R39"}},  // replaced below by a single face
        {"R40", er(), [](auto& f) {}, {"R40"}},
        {"R41", er(), [](auto& f) {}, {"R39", "R41"}},
        {"R43", er(), [](auto& f) {}, {"R39", "R41", "R43", "R44"}},
        {"R46", er(), [](auto& f) {}, {"R39", "R41", "R46", "R47"}},
        {"R47", er(), [](auto& f) {}, {"R38", "R39", "R47", "R48"}},
        {"R48", er(), [](auto& f) {}, {"R48"}},
        {"R49", er(), [](auto& f) { mesh(f).aabb.max.x = 2.5f; }, {"R49", "R52", "R53"}},
        {"R50", er(),
         [](auto& f) {
             test::fit_aabb(mesh(f), 0.0f);
             mesh(f).aabb.min.w = -2.4f;
             mesh(f).aabb.max.w = 2.4f;
         },
         {"R50", "R52", "R53"}},
        {"R51", er(), [](auto& f) { mesh(f).aabb.min.w = -2.0f; }, {"R51"}},
        {"R52", er(), [](auto& f) { mesh(f).aabb.min.x += 1.0f; }, {"R52", "R53"}},
        {"R53", er(), [](auto& f) { mesh(f).aabb.min.x -= 5.0f; }, {"R53"}},
        {"R54", er(), [](auto& f) { mesh(f).faceData[2] = 2; }, {"R54"}},
        {"R55", er(), [](auto& f) { mesh(f).edgeData[2] = 1; }, {"R55"}},
        {"R56", sekiro(), [](auto& f) { f.model->layouts.graph_node.edit().size = 12; }, {"R56"}},
        {"R57", sekiro(), [](auto& f) { f.model->graph->positions.pop_back(); }, {"R57"}},
        {"R58", sekiro(), [](auto& f) { f.model->graph->nodeDataStriding = 1; }, {"R58"}},
        {"R59", sekiro(), [](auto& f) { f.model->graph->nodes[1].startEdgeIndex += 1; }, {"R59"}},
        {"R60", sekiro(), [](auto& f) { f.model->graph->edges[0].target = 99; }, {"R60", "R63"}},
        {"R61", sekiro(), [](auto& f) { f.model->graph->edges[0].flags = 1; }, {"R61"}},
        {"R62", sekiro(),
         [](auto& f) {
             auto& g = *f.model->graph;
             g.nodes.push_back({static_cast<std::int32_t>(g.edges.size()), 0});
             g.positions.push_back(g.positions.back());
         },
         {"R62"}},
        {"R63", sekiro(),
         [](auto& f) {
             auto& g = *f.model->graph;
             g.edges.push_back(g.edges.back());
             g.nodes.back().numEdges += 1;
         },
         {"R63"}},
        {"R64", wide_sekiro(), [](auto& f) { f.model->graph->positions[0].x = 0; }, {"R64"}},
        {"R65", sekiro(), [](auto& f) { f.model->graph->positions[0].x = mesh(f).aabb.max.x + 0.5f; }, {"R65"}},
        {"R66", er(), [](auto& f) { f.model->layouts.tree_node.edit().size = 5; }, {"R66"}},
        {"R67", er(), [](auto& f) { f.model->mediator->nav_mesh_is_file_mesh = false; }, {"R67"}},
        {"R68", er(), [](auto& f) { f.model->mediator->has_tree_impl = false; }, {"R68"}},
        {"R69", er(), [](auto& f) { f.model->mediator->nodes[0].loData = 5; }, {"R69"}},
        {"R70", er(), [](auto& f) { f.model->mediator->nodes.push_back({}); }, {"R69", "R70"}},
        {"R71", er(), [](auto& f) { auto& n = f.model->mediator->nodes.back(); n.loData = static_cast<std::uint16_t>((n.loData + 1) % 12); }, {"R71"}},
        {"R72", er(), [](auto& f) { f.model->mediator->nodes.back().xyz[0] = 0xF0; }, {"R72"}},
        {"R74", sekiro(),
         [](auto& f) {
             mesh(f).faces[0].numUserEdges = 1;
             mesh(f).faces[0].startUserEdgeIndex = static_cast<std::int32_t>(R_of(f));
         },
         {"R34", "R35", "R74"}},
        {"R75", er(), [](auto& f) { mesh(f).edges[R_of(f)].a = 0; }, {"R75"}},
        {"R76", er(), [](auto& f) { mesh(f).edges[R_of(f)].flags = 36; }, {"R76"}},
        {"R77", er(), [](auto& f) { mesh(f).edges[5].flags = 20; }, {"R30", "R77"}},
        {"R78", er(), [](auto& f) { mesh(f).edgeData[R_of(f)] = 0x10102; }, {"R78"}},
        {"R80", er(), [](auto& f) { mesh(f).edges[R_of(f)].oppositeEdge = 0; mesh(f).edges[R_of(f)].oppositeFace = 0; }, {"R80"}},
        {"R81", er(),
         [](auto& f) {
             mesh(f).edges[R_of(f) + 1].oppositeEdge = kNoOpposite;
             mesh(f).edges[R_of(f) + 1].oppositeFace = kNoOpposite;
         },
         {"R81"}},
        {"R83", er(),
         [](auto& f) {
             auto& m = mesh(f);
             std::uint32_t R = R_of(f);
             std::swap(m.edges[R], m.edges[R + 1]);
             m.edges[R].oppositeEdge = R + 1;
             m.edges[R + 1].oppositeEdge = R;
             m.faces[0].startUserEdgeIndex = static_cast<std::int32_t>(R + 1);
             m.faces.back().startUserEdgeIndex = static_cast<std::int32_t>(R);
         },
         {"R83"}},
        {"R84", er(), [](auto& f) { f.model->layouts.user_edge_setup.edit().mutable_members().pop_back(); }, {"R84"}},
        {"R85", er(), [](auto& f) { (*f.model->user_edge_setups)[0].worldUpA = {0, 0, 1, 0}; }, {"R85"}},
        {"R86", er(), [](auto& f) { (*f.model->user_edge_setups)[0].forceAlign = 0; }, {"R86"}},
        {"R87", er(), [](auto& f) { (*f.model->user_edge_setups)[0].direction = 2; }, {"R87"}},
        {"R88", er(), [](auto& f) { (*f.model->user_edge_setups)[0].space = 2; }, {"R88"}},
        {"R89", sekiro(),
         [](auto& f) {  // a Sekiro mesh with an extra edge after the regular ones
             mesh(f).edges.push_back(mesh(f).edges[0]);
             mesh(f).edgeData.push_back(0);
         },
         {"R34", "R35", "R74", "R89"}},
        {"R90", er(), [](auto& f) { f.model->layouts.obb.edit().size = 96; }, {"R90"}},
        {"R91", er(), [](auto& f) { (*f.model->user_edge_setups)[0].obbB.transform[0] = 2; }, {"R91"}},
        {"R92", er(), [](auto& f) { (*f.model->user_edge_setups)[0].obbA.transform[7] = 1; }, {"R92"}},
        {"R93", sekiro(), [](auto& f) { (*f.model->user_edge_setups)[0].obbA.transform[3] = 0; }, {"R93"}},
        {"R94", er(), [](auto& f) { (*f.model->user_edge_setups)[0].obbA.transform[15] = 0; }, {"R94"}},
        {"R95", er(), [](auto& f) { (*f.model->user_edge_setups)[0].obbA.halfExtents.y = 0; }, {"R95"}},
        {"R96", er(),
         [](auto& f) {
             f.binder = "m10_00_00_00.nvmhktbnd.dcx";
             f.entry = kGoodMember;
             f.entry_index = 0;
             f.starts_with_tag0 = false;
         },
         {"R96"}},
        {"R97", er(),
         [](auto& f) {
             f.binder = "m10_00_00_00.nvmhktbnd.dcx";
             f.entry = "navimesh\\n10_00_00_00_000700.hkx";
             f.entry_index = 0;
         },
         {"R97"}},
    };
}

/// Single-face models for the geometry rules.
AuditTagfile geometry_case(const std::string& id) {
    auto v = [](float x, float y, float z) { return fromsoft::Vec4{x, y, z, 1}; };
    if (id == "R39")  // reflex corner opposite ring position 0: the fan stays right
        return single_face({v(0, 0, 0), v(0, 0, 1), v(0.3f, 0, 0.3f), v(1, 0, 0)});
    if (id == "R40")  // a 20 m square with one corner 8 m up: corners 1.92 m off the mean plane
        return single_face({v(0, 0, 0), v(0, 0, 20), v(20, 8, 20), v(20, 0, 0)});
    if (id == "R41")  // reflex corner next to ring position 0: the fan is wrong
        return single_face({v(0, 0, 0), v(0.4f, 0, 0.3f), v(1, 0, 1), v(1, 0, 0)});
    if (id == "R43")  // a repeated corner: the page's ear clipping ends with a turned triangle
        return single_face({v(0, 0, 0), v(0, 0, 2), v(1, 0, 2), v(1, 0, 1), v(3, 0, 1), v(1, 0, 1), v(1, 0, 0)});
    if (id == "R46")  // self-crossing 7-gon, N != 0, every convex corner's cut holds another corner
        return single_face({v(2, 0, 3), v(2, 0, 0), v(1, 0, 2), v(0, 0, 0), v(0, 0, 2), v(4, 0, 2), v(3, 0, 3)});
    if (id == "R47")  // a bow tie of zero vector area
        return single_face({v(0, 0, 0), v(0, 0, 1), v(1, 0, 0), v(1, 0, 1)});
    if (id == "R48")  // straight seen from above, stepping off the plane
        return single_face({v(0, 0.5f, 1), v(0, 0, 2), v(1, 0, 2), v(1, 0, 0), v(0, 0, 0)});
    return {};
}

}  // namespace

TEST(AuditRules, SyntheticModelsPassEveryRule) {
    for (SyntheticOptions o : {er(), sekiro(), wide_sekiro()}) {
        AuditReport r = audit_one(synthetic_tagfile(o));
        EXPECT_EQ(rules_with_exceptions(r), std::set<std::string>{}) << (o.sekiro ? "Sekiro" : "Elden Ring");
        EXPECT_FALSE(audit_failed(r));
    }
}

TEST(AuditRules, EmptyEldenRingMeshWithEmptyTreePasses) {
    SyntheticOptions o;
    o.width = 0;
    o.user_edges = false;
    AuditTagfile f = synthetic_tagfile(o);
    auto& d = f.model->mediator->domain;
    d.min = {-3.40282347e38f, -3.40282347e38f, -3.40282347e38f, 0};
    d.max = {3.40282347e38f, 3.40282347e38f, 3.40282347e38f, 0};
    EXPECT_EQ(rules_with_exceptions(audit_one(f)), std::set<std::string>{});
    f.model->mediator->nodes.push_back({});
    EXPECT_EQ(rules_with_exceptions(audit_one(f)), std::set<std::string>{"R73"});
}

TEST(AuditRules, EachRuleBrokenOnceIsNamed) {
    for (const Case& c : cases()) {
        AuditTagfile f = geometry_case(c.name);
        if (!f.model) {
            f = synthetic_tagfile(c.options);
            c.mutate(f);
        } else {
            ASSERT_EQ(rules_with_exceptions(audit_one(synthetic_tagfile())), std::set<std::string>{});
        }
        AuditReport r = audit_one(f);
        EXPECT_EQ(rules_with_exceptions(r), c.expected)
            << c.name << ": got " << joined(rules_with_exceptions(r)) << ", expected " << joined(c.expected);
    }
}

TEST(AuditRules, OneBrokenElementKeepsTheRulesPopulation) {
    // The per-element rules decide a tagfile where every element holds in one step (a pass
    // over the edges, or a test of the whole array) and walk the elements only when one fails.
    // Both ways must count the same cases: breaking one element turns a pass into an
    // exception, so checked + skipped stays what the intact model gives. (R23's case adds a
    // face, so it is left out.)
    const std::set<std::string> walked{"R21", "R22", "R25", "R26", "R27", "R28", "R29", "R30", "R31",
                                       "R32", "R33", "R36", "R49", "R55", "R72", "R77"};
    auto defs = all_rules();
    auto index_of = [&](const std::string& id) {
        for (std::size_t i = 0; i < defs.size(); ++i)
            if (id == defs[i].id) return i;
        return defs.size();
    };
    std::size_t compared = 0;
    for (const Case& c : cases()) {
        if (!walked.count(c.name)) continue;
        const std::size_t i = index_of(c.name);
        ASSERT_LT(i, defs.size());
        AuditTagfile f = synthetic_tagfile(c.options);
        const RuleResult intact = audit_one(f).rules[i];
        c.mutate(f);
        const RuleResult broken = audit_one(f).rules[i];
        std::int64_t before = 0, after = 0, exceptions = 0;
        for (std::size_t g = 0; g < 3; ++g) {
            before += intact.by_game[g].checked + intact.by_game[g].skipped;
            after += broken.by_game[g].checked + broken.by_game[g].skipped;
            exceptions += broken.by_game[g].exceptions;
        }
        EXPECT_GT(before, 0) << c.name;
        EXPECT_EQ(after, before) << c.name;
        EXPECT_GE(exceptions, 1) << c.name;
        ++compared;
    }
    EXPECT_EQ(compared, walked.size());
}

TEST(AuditRules, TableHasEveryRuleOnceInOrder) {
    auto defs = all_rules();
    ASSERT_EQ(defs.size(), 97u);
    int invariants = 0, statistics = 0, observed = 0;
    for (std::size_t i = 0; i < defs.size(); ++i) {
        char id[24];  // "R" and any size_t: no truncation warning
        std::snprintf(id, sizeof id, "R%02zu", i + 1);
        EXPECT_STREQ(defs[i].id, id);
        invariants += defs[i].kind == Kind::Invariant;
        statistics += defs[i].kind == Kind::Statistic;
        observed += defs[i].kind == Kind::Observed;
    }
    // audit-rules.md §10.
    EXPECT_EQ(invariants, 67);
    EXPECT_EQ(statistics, 21);
    EXPECT_EQ(observed, 9);
}

// Rules that had no mutation of their own (issue 13). R45 has none by construction: for a
// complete triangulation the area vectors add up exactly (tests/geometry
// CompleteTriangulationsTileTheVectorAreaExactly), and faces without one are skipped.

TEST(AuditRules, R37OppositesThatAreNotReversesAlone) {
    // Face 1's corner shared with face 0 becomes a copy of that vertex at the same place: the
    // shared edges stay mutual opposites (R36) and every ring stays closed, but face 0's edge
    // 2 and face 1's edge 4 are no longer each other's reverse.
    AuditTagfile f = synthetic_tagfile(er());
    auto& m = mesh(f);
    const auto shared = m.edges[4].a;  // face 1's west edge starts at the corner it shares with face 0
    ASSERT_EQ(m.edges[2].b, shared);
    const auto copy = static_cast<std::int32_t>(m.vertices.size());
    m.vertices.push_back(m.vertices[shared]);
    m.edges[4].a = copy;
    m.edges[7].b = copy;  // face 1's south edge closes the ring at the copy (no neighbour there)
    ASSERT_EQ(m.edges[7].oppositeEdge, fromsoft::kNoOpposite);
    AuditReport r = audit_one(f);
    EXPECT_EQ(rules_with_exceptions(r), std::set<std::string>{"R37"}) << joined(rules_with_exceptions(r));
    EXPECT_EQ(r.rules[36].by_game[1].exceptions, 2);  // edge 2 and edge 4
}

TEST(AuditRules, R46FaceWithAreaAndNoEar) {
    // A self-overlapping ring with N != 0 (found by search over small lattices): every
    // candidate ear holds another corner. R47 counts every face without an ear, so it is
    // necessarily named too.
    auto v = [](float x, float z) { return fromsoft::Vec4{x, 0, z, 1}; };
    AuditTagfile f = single_face({v(2, 4), v(0, 2), v(1, 5), v(5, 2), v(0, 5), v(5, 4), v(3, 1), v(0, 5)});
    AuditReport r = audit_one(f);
    EXPECT_EQ(rules_with_exceptions(r), (std::set<std::string>{"R46", "R47"})) << joined(rules_with_exceptions(r));
}

TEST(AuditRules, R82FaceWithMoreThan56UserEdges) {
    // Face 0 owns 57 user edges: its paired one plus 56 without an opposite (flags 52, R81),
    // all between its own two user-edge vertices (R75) and before the last face's (R83).
    AuditTagfile f = synthetic_tagfile(er());
    auto& m = mesh(f);
    const std::uint32_t R = R_of(f);
    const fromsoft::Edge lone{m.edges[R].a, m.edges[R].b, fromsoft::kNoOpposite, fromsoft::kNoOpposite, 52, 0, 0};
    m.edges.insert(m.edges.begin() + R + 1, 56, lone);
    m.edgeData.insert(m.edgeData.begin() + R + 1, 56, m.edgeData[R]);
    m.faces[0].numUserEdges = 57;
    m.faces.back().startUserEdgeIndex = static_cast<std::int32_t>(R + 57);
    m.edges[R].oppositeEdge = R + 57;
    m.edges[R + 57].oppositeEdge = R;
    AuditReport r = audit_one(f);
    EXPECT_EQ(rules_with_exceptions(r), std::set<std::string>{"R82"}) << joined(rules_with_exceptions(r));
}

TEST(AuditRules, R97MemberNamesAgreeWithTheRegularExpression) {
    // The rule matches the member's file name by hand; std::regex, which the rule used to run,
    // is the independent check here. A good name with each position deleted, and replaced by
    // or preceded by each of 13 characters (digits, letters of both cases, separators, a
    // non-ASCII byte).
    const std::regex shape(R"(^[no]\d{2}_\d{2}_\d{2}_\d{2}_\d{6}\.hkx$)", std::regex::icase);
    const std::string good = "n10_00_00_00_000700.hkx";
    std::vector<std::string> names = {good, "o10_00_00_00_000700.hkx", "N10_00_00_00_000700.HKX", "", "n", ".hkx"};
    for (std::size_t i = 0; i < good.size(); ++i) {
        for (char ch : std::string("09aAnNoO_.x\xB2 ")) {
            names.push_back(good.substr(0, i) + ch + good.substr(i + 1));
            names.push_back(good.substr(0, i) + ch + good.substr(i));
        }
        names.push_back(good.substr(0, i) + good.substr(i + 1));
    }
    int accepted = 0;
    for (const std::string& name : names) {
        AuditTagfile f = synthetic_tagfile(one_face());
        f.binder = "m10_00_00_00.nvmhktbnd.dcx";
        f.entry = "N:\\FDP\\data\\Model\\map\\m10_00_00_00\\navimesh\\bind6\\" + name;
        f.entry_index = 0;
        const bool expected = std::regex_match(name, shape);
        accepted += expected;
        EXPECT_EQ(rules_with_exceptions(audit_one(f)).count("R97"), expected ? 0u : 1u) << "member name \"" << name << '"';
    }
    EXPECT_GE(accepted, 40);  // the digits' changes to 0 and 9 keep the shape
    // The two folders before the name, split at a backslash or a slash, in any case.
    const std::pair<std::string, bool> paths[] = {
        {"navimesh\\bind6\\" + good, true},         {"NaviMesh/BIND6/" + good, true},
        {"a\\b\\navimesh\\bind6\\" + good, true}, {"bind6\\" + good, false},
        {good, false},                              {"navimesh\\bind7\\" + good, false},
        {"navimesh\\bind6\\\\" + good, false},      {"xnavimesh\\bind6\\" + good, false},
        {"navimesh\\bind6\\" + good + "\\", false}};
    for (const auto& [entry, ok] : paths) {
        AuditTagfile f = synthetic_tagfile(one_face());
        f.binder = "m10_00_00_00.nvmhktbnd.dcx";
        f.entry = entry;
        f.entry_index = 0;
        EXPECT_EQ(rules_with_exceptions(audit_one(f)).count("R97"), ok ? 0u : 1u) << "member \"" << entry << '"';
    }
}

// R97 splits the entry and compares its parts in place (no lower-case copies, no
// find_last_of): random entries of good and near parts, in both games, against the rule's
// earlier form written out here (find_last_of, to_lower copies, std::regex on the name): the
// exception and the o/n member counts.
TEST(AuditRules, R97SplitsAndComparesAsLowerCaseCopiesDo) {
    const std::regex shape(R"(^[no]\d{2}_\d{2}_\d{2}_\d{2}_\d{6}\.hkx$)");
    auto reference = [&](std::string_view entry, bool is_sekiro) -> std::string {
        std::string_view part[3];
        std::size_t parts = 0;
        for (std::string_view rest = entry; parts < 3; ++parts) {
            const std::size_t cut = rest.find_last_of("\\/");
            part[parts] = cut == std::string_view::npos ? rest : rest.substr(cut + 1);
            if (cut == std::string_view::npos) {
                ++parts;
                break;
            }
            rest = rest.substr(0, cut);
        }
        const std::string last = to_lower(part[0]);
        bool ok = std::regex_match(last, shape) && parts == 3 && to_lower(part[1]) == "bind6" &&
                  to_lower(part[2]) == "navimesh";
        if (ok && last[0] == 'o' && is_sekiro) ok = false;
        return !ok ? "exception" : last[0] == 'o' ? "o_members" : "n_members";
    };
    const std::vector<std::vector<std::string>> places = {
        {"N:", "m10_00", "", "navimesh", "bind6"},  // folders before
        {"navimesh", "NaviMesh", "navimesH", "NAVIMESH", "navimes", "xnavimesh", ""},
        {"bind6", "BIND6", "Bind6", "bind7", "bind66", "bind", ""},
        {"n10_00_00_00_000700.hkx", "O10_00_00_00_000700.HKX", "o10_00_00_00_000700.hkX", "N10_00_00_00_000700.hkx",
         "n10_00_00_00_00070.hkx", "p10_00_00_00_000700.hkx", "n10_00_00_00_000700.hkxx", ""}};
    std::mt19937 rng(97);
    int accepted = 0;
    for (int round = 0; round < 600; ++round) {
        std::string entry;
        for (std::size_t k = rng() % 3; k < places.size(); ++k) {  // sometimes without the first folders
            const int repeat = k == 0 ? static_cast<int>(rng() % 3) : 1;
            for (int j = 0; j < repeat; ++j) {
                if (!entry.empty() || rng() % 4 == 0) entry += rng() % 2 ? '\\' : '/';
                entry += places[k][rng() % places[k].size()];
            }
        }
        const bool is_sekiro = rng() % 2;
        AuditTagfile f = synthetic_tagfile(is_sekiro ? sekiro() : one_face());
        f.binder = "m10_00_00_00.nvmhktbnd.dcx";
        f.entry = entry;
        f.entry_index = 0;
        const AuditReport r = audit_one(f);
        std::size_t i = 0;
        while (std::string_view(all_rules()[i].id) != "R97") ++i;
        const auto& counts = r.rules[i].values.counts;
        const std::string got = rules_with_exceptions(r).count("R97") ? "exception"
                                : counts.count("o_members")             ? "o_members"
                                : counts.count("n_members")             ? "n_members"
                                                                        : "nothing";
        const std::string expected = reference(entry, is_sekiro);
        accepted += expected != "exception";
        EXPECT_EQ(got, expected) << "entry \"" << entry << "\", sekiro " << is_sekiro;
    }
    EXPECT_GE(accepted, 40);
}

TEST(AuditRules, R63NamesSelfLoopsDuplicatesAndMissingPairs) {
    // Node 0's first edge turned into a self-loop (so its pair goes missing) and the last
    // node's last edge listed twice: three exceptions, in graph order then the missing pair.
    AuditTagfile f = synthetic_tagfile(sekiro());
    auto& g = *f.model->graph;
    ASSERT_GT(g.nodes[0].numEdges, 0);
    const auto lost = g.edges[g.nodes[0].startEdgeIndex].target;
    g.edges[g.nodes[0].startEdgeIndex].target = 0;
    g.edges.push_back(g.edges.back());
    g.nodes.back().numEdges += 1;
    AuditReport r = audit_one(f);
    const RuleResult& t = r.rules[62];
    ASSERT_STREQ(all_rules()[62].id, "R63");
    EXPECT_EQ(t.by_game[0].exceptions, 3);
    ASSERT_EQ(t.examples.size(), 3u);
    EXPECT_EQ(t.examples[0].message, "0 -> 0: self-loop");
    EXPECT_NE(t.examples[1].message.find(": duplicate"), std::string::npos) << t.examples[1].message;
    EXPECT_EQ(t.examples[2].message.rfind(fmt::format("0 -> {}: missing (mesh edge ", lost), 0), 0u) << t.examples[2].message;
}

// R63 against a set-based reading of the spec, by brute force, on grids whose clusters and
// graph edges are drawn at random (some clusterIndex values and targets outside the nodes, some
// opposites gone): the same exceptions, the same messages, in the same order.
TEST(AuditRules, R63MatchesASetBasedReadingOfTheSpec) {
    std::mt19937 rng(63);
    auto draw = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    for (int round = 0; round < 300; ++round) {
        SyntheticOptions o = sekiro();
        o.width = 2 + draw(5);
        o.height = 2 + draw(5);
        AuditTagfile f = synthetic_tagfile(o);
        auto& m = mesh(f);
        auto& g = *f.model->graph;
        const int nodes = static_cast<int>(g.nodes.size());
        const int strays[] = {-1, -7, nodes, nodes + 3, -32768, 32767};
        for (auto& face : m.faces)
            face.clusterIndex = static_cast<std::int16_t>(draw(10) == 0 ? strays[draw(6)] : draw(nodes));
        for (auto& e : m.edges)
            if (draw(20) == 0) e.oppositeEdge = draw(2) ? fromsoft::kNoOpposite : static_cast<std::uint32_t>(m.edges.size());
        if (draw(4) == 0)  // ranges moved or resized: edges owned twice or by no face, R != 4F
            for (int k = 0; k < 2; ++k) {
                auto& face = m.faces[draw(static_cast<int>(m.faces.size()))];
                if (draw(2)) face.numEdges = static_cast<std::int16_t>(draw(7));
                else face.startEdgeIndex += static_cast<std::int32_t>(draw(7)) - 3;
            }
        if (draw(20) == 0) g.nodes.clear(), g.positions.clear();  // K = 0: every pair a stray
        const int K = static_cast<int>(g.nodes.size());
        g.edges.clear();
        for (int i = 0; i < K; ++i) {
            g.nodes[i] = {static_cast<std::int32_t>(g.edges.size()), draw(6)};
            for (int k = 0; k < g.nodes[i].numEdges; ++k) {
                const int r = draw(10);
                const int target = r == 0 ? i : r == 1 ? strays[draw(6)] : draw(K);
                g.edges.push_back({0x3F80, 0, static_cast<std::uint32_t>(target)});
            }
        }
        // Each edge's one owning face (-1: none or several), then the spec's S: ordered pairs
        // of clusters across each regular edge (e < min(R, E)) whose edge and opposite have one
        // owner each, with the first edge that makes each; then the graph's pairs in order.
        const std::int64_t E = static_cast<std::int64_t>(m.edges.size());
        std::vector<int> owner(m.edges.size(), -1), owners(m.edges.size(), 0);
        std::int64_t R = 0;
        for (std::size_t f = 0; f < m.faces.size(); ++f) {
            R += std::max<std::int64_t>(0, m.faces[f].numEdges);
            for (std::int64_t e = m.faces[f].startEdgeIndex; e < m.faces[f].startEdgeIndex + m.faces[f].numEdges; ++e)
                if (e >= 0 && e < E) owner[e] = static_cast<int>(f), ++owners[e];
        }
        for (std::size_t e = 0; e < owner.size(); ++e)
            if (owners[e] != 1) owner[e] = -1;
        std::map<std::pair<int, int>, std::int64_t> S;
        for (std::int64_t e = 0; e < std::min(R, E); ++e) {
            const std::uint32_t op = m.edges[e].oppositeEdge;
            if (op == fromsoft::kNoOpposite || op >= m.edges.size() || owner[e] < 0 || owner[op] < 0) continue;
            const int x = m.faces[owner[e]].clusterIndex, y = m.faces[owner[op]].clusterIndex;
            if (x != y) S.emplace(std::pair{x, y}, e);
        }
        std::vector<std::string> want;
        std::set<std::pair<int, int>> listed;
        for (int i = 0; i < K; ++i)
            for (int k = 0; k < g.nodes[i].numEdges; ++k) {
                const int t = static_cast<int>(g.edges[g.nodes[i].startEdgeIndex + k].target);
                const char* problem = t == i                       ? "self-loop"
                                      : !listed.insert({i, t}).second ? "duplicate"
                                      : !S.count({i, t})             ? "not adjacent in the mesh"
                                                                     : nullptr;
                if (problem) want.push_back(fmt::format("{} -> {}: {}", i, t, problem));
            }
        for (const auto& [pair, e] : S)
            if (!listed.count(pair)) want.push_back(fmt::format("{} -> {}: missing (mesh edge {})", pair.first, pair.second, e));

        std::vector<TagfileAudit> results{audit_tagfile(f, 100000)};
        const AuditReport r = merge_audit(results, {f.entry}, 100000);
        const RuleResult& t = r.rules[62];
        ASSERT_STREQ(all_rules()[62].id, "R63");
        std::vector<std::string> got;
        for (const auto& x : t.examples) got.push_back(x.message);
        ASSERT_EQ(got, want) << "round " << round;
        EXPECT_EQ(t.by_game[0].exceptions, static_cast<std::int64_t>(want.size()));
    }
}

// R56's cost figures, folded per graph rather than offered edge by edge: costs are hkHalf16,
// the high half of a float32 (0x3F80 = 1, 0x4120 = 10, 0xBF80 = -1, 0x7F80 = +inf, 0x7FC0 =
// NaN, 0x8000 = -0): the largest and smallest finite costs and the count of the others.
TEST(AuditRules, R56CostExtremesAndNonFiniteCount) {
    AuditTagfile f = synthetic_tagfile(sekiro());
    auto& edges = f.model->graph->edges;
    ASSERT_FALSE(edges.empty());
    edges.resize(12, edges[0]);  // R56 reads every edge; what other rules make of the copies is not asked
    const std::uint16_t pattern[] = {0x3F80, 0x7F80, 0x4120, 0x8000, 0xBF80, 0x7FC0};
    std::int64_t not_finite = 0;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        edges[i].cost = pattern[i % 6];
        not_finite += i % 6 == 1 || i % 6 == 5;
    }
    const AuditReport r = audit_one(f);
    const NamedValues& v = r.rules[55].values;
    ASSERT_STREQ(all_rules()[55].id, "R56");
    EXPECT_EQ(v.maxima.at("cost_max").value, 10.0);
    EXPECT_EQ(v.minima.at("cost_min").value, -1.0);
    EXPECT_EQ(v.counts.at("non_finite_costs"), not_finite);
    // Every cost finite: no count at all.
    for (auto& e : edges) e.cost = 0x3F80;
    const AuditReport all_finite = audit_one(f);
    const NamedValues& w = all_finite.rules[55].values;
    EXPECT_EQ(w.counts.count("non_finite_costs"), 0u);
    EXPECT_EQ(w.maxima.at("cost_max").value, 1.0);
}

TEST(AuditRules, R34NamesSharedEdgesBesideAFaceWithAHostileRange) {
    // fuzz_audit's finding: a face starting at INT32_MIN + 64 with -26048 edges made R34's
    // "owned by several faces" search overflow int (start + count); it must just not list it.
    AuditTagfile f = synthetic_tagfile(sekiro());
    auto& faces = mesh(f).faces;
    ASSERT_GE(faces.size(), 3u);
    faces[1].startEdgeIndex = faces[0].startEdgeIndex;  // face 0's edges owned twice
    faces[1].numEdges = faces[0].numEdges;
    faces.back().startEdgeIndex = std::numeric_limits<std::int32_t>::min() + 64;
    faces.back().numEdges = -26048;
    AuditReport r = audit_one(f);
    const RuleResult& t = r.rules[33];
    ASSERT_STREQ(all_rules()[33].id, "R34");
    ASSERT_FALSE(t.examples.empty());
    EXPECT_EQ(t.examples[0].message, "owned by several faces: 0, 1");
}

TEST(AuditRules, NotFiniteCornersAreNeverAnalysed) {
    // The face geometry's filters and exact arithmetic take finite float32 values only
    // (analyse_face); a NaN or infinite corner stops the ring first (R-rules then skip it).
    const float bad[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                         -std::numeric_limits<float>::infinity()};
    for (const float value : bad) {
        auto v = [](float x, float z) { return fromsoft::Vec4{x, 0, z, 1}; };
        AuditTagfile f = single_face({v(0, 0), v(0, 1), v(1, 1), v(1, 0)});
        f.model->mesh.vertices[2].y = value;
        const TagfileContext ctx(f);
        EXPECT_EQ(ctx.rings[0].status, RingStatus::NotFinite) << value;
        EXPECT_EQ(ctx.face_tallies.faces, 0) << value;
        EXPECT_TRUE(ctx.face_tallies.unusual.empty()) << value;
    }
}

// R10–R13 compare the root classes with lists of names without building sets: on variant
// lists drawn from the four classes and another, with repeats, missing ones and any order,
// their exceptions and counts must be those of comparing std::sets. R09 counts repeats
// without a map: its exception must name the class a map of counts names first.
TEST(AuditRules, RootClassRulesMatchASetBasedReading) {
    const std::string mesh = "hkaiNavMesh", graph = "hkaiDirectedGraphExplicitCost",
                      mediator = "hkaiStaticTreeNavMeshQueryMediator", setups = "hkaiUserEdgeSetupArray";
    const std::string pool[] = {mesh, graph, mediator, setups, "hkRootLevelContainer"};
    using S = std::set<std::string>;
    const auto index_of = [](const char* id) {
        const auto defs = all_rules();
        for (std::size_t i = 0; i < defs.size(); ++i)
            if (std::string(defs[i].id) == id) return i;
        ADD_FAILURE() << id;
        return std::size_t{0};
    };
    const std::size_t r09 = index_of("R09"), r10 = index_of("R10"), r11 = index_of("R11"), r12 = index_of("R12"),
                      r13 = index_of("R13");
    std::mt19937 rng(13);
    for (int round = 0; round < 400; ++round) {
        const bool is_sekiro = round % 2 == 1;
        SyntheticOptions o = is_sekiro ? sekiro() : er();
        if (round % 4 == 2) o.width = 0, o.user_edges = false;  // Elden Ring without faces
        AuditTagfile f = synthetic_tagfile(o);
        S classes;
        if (round >= 8) {  // the first rounds keep the synthetic model's own classes
            f.model->variants.clear();
            for (int k = static_cast<int>(rng() % 8); k-- > 0;) {
                const std::string& cls = pool[rng() % std::size(pool)];
                f.model->variants.push_back({cls, cls, "", 0});
            }
        }
        for (const auto& v : f.model->variants) classes.insert(v.className);
        const bool faces = !f.model->mesh.faces.empty();
        const AuditReport r = audit_one(f);
        const auto exceptions = [&](std::size_t i) {
            std::int64_t n = 0;
            for (const Tally& g : r.rules[i].by_game) n += g.exceptions;
            return n;
        };
        const auto counted = [&](std::size_t i, const char* key) { return r.rules[i].values.counts.count(key) == 1; };
        const std::string seen = joined(classes);
        std::map<std::string, int> repeats;
        for (const auto& v : f.model->variants) ++repeats[v.className];
        std::string repeated;
        for (const auto& [cls, n] : repeats)
            if (cls != mesh && n > 1) {
                repeated = fmt::format("{} root variants of {}", n, cls);
                break;
            }
        const auto& r09_examples = r.rules[r09].examples;
        EXPECT_EQ(r09_examples.empty() ? "" : r09_examples[0].message, repeated) << seen;
        if (is_sekiro) {
            const bool mg = classes == S{mesh, graph}, mgs = classes == S{mesh, graph, setups};
            EXPECT_EQ(exceptions(r10), mg || mgs ? 0 : 1) << seen;
            EXPECT_EQ(counted(r11, "mesh_graph"), mg) << seen;
            EXPECT_EQ(counted(r11, "mesh_graph_setups"), mgs) << seen;
        } else {
            const bool mm = classes == S{mesh, mediator}, mms = classes == S{mesh, mediator, setups},
                       m = classes == S{mesh};
            EXPECT_EQ(exceptions(r12), (faces ? mm || mms : m || mm) ? 0 : 1) << seen;
            EXPECT_EQ(counted(r13, "faces_mediator"), faces && mm) << seen;
            EXPECT_EQ(counted(r13, "faces_mediator_setups"), faces && mms) << seen;
            EXPECT_EQ(counted(r13, "empty_mesh_alone"), !faces && m) << seen;
            EXPECT_EQ(counted(r13, "empty_mesh_empty_tree"), !faces && mm) << seen;
        }
    }
}
