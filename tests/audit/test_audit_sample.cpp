// The audit on the real Elden Ring sample: the counts of issue 5 and every "Sample" value of
// audit-rules.md (computed there with exact arithmetic by an independent reader).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "io/file.h"
#include "io/shared_bytes.h"
#include "audit/audit.h"
#include "audit/audit_load.h"
#include "audit/audit_rules.h"
#include "support/samples.h"

using namespace navlab;
using namespace navlab::audit;

namespace {

constexpr const char* kSample = "havok/er/n10_01_00_00_001700.hkx";

struct Audited {
    AuditTagfile file;
    AuditReport report;
};

Audited audit_sample(const std::filesystem::path& path) {
    const SharedBytes in = SharedBytes::map_file(path);
    Audited a;
    a.file = load_audit_tagfile(in.span(), "", path.filename().string(), std::nullopt);
    std::vector<TagfileAudit> results{audit_tagfile(a.file, 10)};
    a.report = merge_audit(results, {path.filename().string()}, 10);
    return a;
}

std::size_t rule_index(const char* id) {
    auto defs = all_rules();
    for (std::size_t i = 0; i < defs.size(); ++i)
        if (std::string(defs[i].id) == id) return i;
    ADD_FAILURE() << "no rule " << id;
    return 0;
}

Tally tally(const AuditReport& r, const char* id) {
    return r.rules[rule_index(id)].by_game[static_cast<std::size_t>(Game::EldenRing)];
}
const NamedValues& values(const AuditReport& r, const char* id) { return r.rules[rule_index(id)].values; }

void expect(const AuditReport& r, const char* id, std::int64_t checked, std::int64_t exceptions) {
    Tally t = tally(r, id);
    EXPECT_EQ(t.checked, checked) << id;
    EXPECT_EQ(t.exceptions, exceptions) << id;
}

}  // namespace

TEST(AuditSample, CountsAndSummary) {
    NAVLAB_REQUIRE_SAMPLE(path, kSample);
    Audited a = audit_sample(path);
    ASSERT_TRUE(a.file.model) << a.file.read_error;
    const GameSummary& er = a.report.summary.elden_ring;
    EXPECT_EQ(er.binders, 0);
    EXPECT_EQ(er.tagfiles, 1);
    EXPECT_EQ(er.sdk, std::set<std::string>{"20180100"});
    EXPECT_EQ(er.faces, 60);
    EXPECT_EQ(er.edges, 261);
    EXPECT_EQ(er.user_edges, 0);
    EXPECT_EQ(er.vertices, 141);
    EXPECT_EQ(er.empty_meshes, 0);
    EXPECT_EQ(er.cost_graphs, 0);
    EXPECT_EQ(er.mediators, 1);
    EXPECT_EQ(er.tree_nodes, 119);
    EXPECT_EQ(er.setup_arrays, 0);
    EXPECT_EQ(a.report.summary.sekiro.tagfiles, 0);
    EXPECT_EQ(a.report.summary.unreadable, 0);
    EXPECT_FALSE(audit_failed(a.report));
}

TEST(AuditSample, EveryEldenRingRuleHolds) {
    NAVLAB_REQUIRE_SAMPLE(path, kSample);
    Audited a = audit_sample(path);
    ASSERT_TRUE(a.file.model) << a.file.read_error;
    auto defs = all_rules();
    for (std::size_t i = 0; i < defs.size(); ++i) {
        std::string status = rule_status(a.report, i);
        if (defs[i].kind == Kind::Invariant) {
            EXPECT_NE(status, "fail") << defs[i].id;
        }
        if (defs[i].scope == Scope::Sekiro) {
            EXPECT_EQ(status, "not_applicable") << defs[i].id;
        }
    }
    // Structure (R02–R20).
    for (const char* id : {"R02", "R03", "R04", "R05", "R06", "R07", "R08", "R09", "R12", "R14", "R15", "R16", "R18", "R19", "R20"})
        expect(a.report, id, 1, 0);
    EXPECT_EQ(values(a.report, "R13").counts.at("faces_mediator"), 1);
    EXPECT_EQ(values(a.report, "R06").sets.at("face_version"), std::set<std::uint64_t>{6});
    EXPECT_EQ(values(a.report, "R06").sets.at("edge_version"), std::set<std::uint64_t>{8});
    EXPECT_EQ(values(a.report, "R20").counts.at("cache_datas"), 2);
    // Faces and edges.
    for (const char* id : {"R21", "R22", "R23", "R25", "R26", "R33"}) expect(a.report, id, 60, 0);
    for (const char* id : {"R27", "R28", "R29", "R30", "R31", "R32", "R34", "R55", "R77"}) expect(a.report, id, 261, 0);
    EXPECT_EQ(values(a.report, "R21").counts.at("regular_edges"), 261);
    const auto& hist = values(a.report, "R23").counts;
    EXPECT_EQ(hist.at("numEdges_003"), 26);
    EXPECT_EQ(hist.at("numEdges_004"), 17);
    EXPECT_EQ(hist.at("numEdges_005"), 7);
    EXPECT_EQ(hist.at("numEdges_006"), 2);
    EXPECT_EQ(hist.at("numEdges_007"), 4);
    EXPECT_EQ(hist.at("numEdges_008"), 2);
    EXPECT_EQ(hist.at("numEdges_010"), 1);
    EXPECT_EQ(hist.at("numEdges_014"), 1);
    expect(a.report, "R35", 1, 0);
    expect(a.report, "R36", 122, 0);
    expect(a.report, "R37", 122, 0);
}

TEST(AuditSample, GeometryAndTriangulation) {
    NAVLAB_REQUIRE_SAMPLE(path, kSample);
    Audited a = audit_sample(path);
    ASSERT_TRUE(a.file.model) << a.file.read_error;
    expect(a.report, "R38", 60, 0);
    EXPECT_EQ(values(a.report, "R38").counts.at("counter_clockwise"), 60);
    // R39: faces 44, 51, 54, 57 (sines 9.8e-4, 1.9e-4, 9.7e-6, 2.0e-3).
    expect(a.report, "R39", 60, 4);
    const auto& r39 = a.report.rules[rule_index("R39")];
    ASSERT_EQ(r39.examples.size(), 4u);
    std::int64_t faces[] = {44, 51, 54, 57};
    for (int k = 0; k < 4; ++k) EXPECT_EQ(r39.examples[k].element, faces[k]);
    EXPECT_NE(r39.examples[0].message.find("sin 9.8e-4"), std::string::npos) << r39.examples[0].message;
    EXPECT_EQ(values(a.report, "R39").counts.at("with_sine_tolerance_1e-5"), 3);
    EXPECT_EQ(values(a.report, "R39").counts.at("with_sine_tolerance_1e-3"), 1);
    // R40: 0.0688 m at face 57.
    expect(a.report, "R40", 60, 0);
    const Extreme& d = values(a.report, "R40").maxima.at("max_distance_m");
    EXPECT_NEAR(d.value, 0.0688, 0.00005);
    EXPECT_NE(d.at.str().find("face 57"), std::string::npos);
    // R41: face 57.
    expect(a.report, "R41", 60, 1);
    EXPECT_EQ(a.report.rules[rule_index("R41")].examples.at(0).element, 57);
    // R42–R48.
    const auto& r42 = values(a.report, "R42").counts;
    EXPECT_EQ(r42.at("triangles"), 141);
    EXPECT_EQ(r42.at("sum_numEdges_minus_2"), 141);
    EXPECT_EQ(r42.at("dropped_cuts"), 0);
    EXPECT_EQ(r42.at("straight_corner_fallbacks"), 0);
    expect(a.report, "R43", 141, 0);
    expect(a.report, "R44", 60, 0);
    EXPECT_LT(values(a.report, "R44").maxima.at("max_relative_difference").value, 1e-14);
    expect(a.report, "R45", 60, 0);
    EXPECT_EQ(values(a.report, "R45").maxima.at("max_difference_m2").value, 0.0);
    expect(a.report, "R46", 60, 0);
    expect(a.report, "R47", 60, 0);
    expect(a.report, "R48", 60, 0);
    EXPECT_EQ(values(a.report, "R48").counts.at("lost_triangles"), 0);
    // Newell-plane convexity differs: 5 faces (X08).
    EXPECT_EQ(a.report.supplementary.at("X08").counts.at("not_convex_in_newell_plane"), 5);
}

TEST(AuditSample, AabbDataTreeAndSupplementary) {
    NAVLAB_REQUIRE_SAMPLE(path, kSample);
    Audited a = audit_sample(path);
    ASSERT_TRUE(a.file.model) << a.file.read_error;
    expect(a.report, "R49", 141, 0);
    for (const char* id : {"R50", "R51", "R52"}) expect(a.report, id, 1, 0);
    EXPECT_EQ(values(a.report, "R51").sets.at("margin_bits"), std::set<std::uint64_t>{0x40199999});
    expect(a.report, "R53", 1, 1);  // larger than the grown bounds
    expect(a.report, "R54", 60, 0);
    EXPECT_EQ(values(a.report, "R54").sets.at("values"), std::set<std::uint64_t>{0});
    for (const char* id : {"R66", "R67", "R68", "R69", "R70", "R71"}) expect(a.report, id, 1, 0);
    EXPECT_EQ(values(a.report, "R69").counts.at("internal_nodes"), 59);
    EXPECT_EQ(values(a.report, "R69").counts.at("leaves"), 60);
    EXPECT_EQ(values(a.report, "R70").counts.at("tree_nodes"), 119);
    expect(a.report, "R72", 261, 0);
    EXPECT_EQ(values(a.report, "R72").maxima.at("max_distance_outside_m").value, 0.0);
    for (const char* id : {"R73", "R75", "R76", "R78", "R80", "R81", "R83"}) expect(a.report, id, 0, 0);
    expect(a.report, "R82", 60, 0);
    // Supplementary counters.
    const auto& x = a.report.supplementary;
    EXPECT_EQ(x.at("X01").counts.at("w_equal_1"), 92);
    EXPECT_FLOAT_EQ(static_cast<float>(x.at("X01").minima.at("w_min").value), 0.99999988f);
    EXPECT_NEAR(x.at("X01").maxima.at("w_max").value, 2478.771, 0.001);
    EXPECT_EQ(x.at("X02").counts.at("domain_equals_vertex_bounds"), 1);
    EXPECT_EQ(x.at("X03").counts.at("hkaiNavMeshClearanceCache"), 2);
    EXPECT_NEAR(x.at("X10").maxima.at("max_leaf_box_slack_m").value, 0.387, 0.0005);
}
