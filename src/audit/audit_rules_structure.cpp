// Rules R01–R20: file and class structure, mesh header fields.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <set>

#include "audit/audit_rules.h"

namespace navlab::audit {
namespace {

constexpr const char* kMesh = "hkaiNavMesh";
constexpr const char* kGraph = "hkaiDirectedGraphExplicitCost";
constexpr const char* kMediator = "hkaiStaticTreeNavMeshQueryMediator";
constexpr const char* kSetups = "hkaiUserEdgeSetupArray";

std::set<std::string> root_classes(const fromsoft::NavTagfile& t) {
    std::set<std::string> s;
    for (const auto& v : t.variants) s.insert(v.className);
    return s;
}

/// Whether root_classes(t) is the set of the distinct names `want`, without building either
/// set: R10–R13 ask it of every tagfile, and the sets were about 1 % of a Sekiro audit.
bool root_classes_are(const fromsoft::NavTagfile& t, std::initializer_list<std::string_view> want) {
    for (const auto& v : t.variants)
        if (std::find(want.begin(), want.end(), v.className) == want.end()) return false;
    return std::all_of(want.begin(), want.end(), [&](std::string_view cls) { return has_root_class(t, cls); });
}

std::string join(const std::set<std::string>& s) {
    std::string out = "{";
    for (const auto& x : s) out += (out.size() > 1 ? ", " : "") + x;
    return out + "}";
}

void r01(RuleCheck& c) { c.pass(); }
// Readable; unreadable tagfiles are recorded by the engine. Accepted deviations are counted.
void r02(RuleCheck& c) {
    c.pass();
    c.values().count("strict_read_warnings", static_cast<std::int64_t>(c.ctx().tagfile.warnings.size()));
}

void r03(RuleCheck& c) {
    c.check(c.ctx().tagfile.own_type_table, "tagfile", -1, [] { return std::string("TCRF: the type table is in a compendium"); });
}

void r04(RuleCheck& c) {
    std::string sdk = sdk_of(c.ctx().file).value_or("?");
    c.check(c.ctx().game != Game::Other, "tagfile", -1, [&] { return "SDKV " + sdk; });
}

void r05(RuleCheck& c) {
    static constexpr ExpectedMember members[] = {
        {"faces", 24, 0},         {"edges", 40, 0},       {"vertices", 56, 0},
        {"streamingSets", 72, 0}, {"faceData", 88, 0},    {"edgeData", 104, 0},
        {"faceDataStriding", 120, 0}, {"edgeDataStriding", 124, 0}, {"aabb", 144, 0},
        {"erosionRadius", 176, 0}, {"userData", 184, 0}, {"clearanceCacheSeedingDataSet", 192, 0}};
    thread_local LayoutVerdicts verdicts;
    const std::string& bad = verdicts.of(c.ctx().tagfile.layouts.navMesh, [&](const fromsoft::RecordInfo& t) {
        std::string out = layout_mismatch(t, "hkaiNavMesh", 208, members);
        if (t.present() && t.version != 16) out += fmt::format("version {}, expected 16", t.version);
        return out;
    });
    c.check(bad.empty(), "tagfile", -1, [&] { return bad; });
}

void r06(RuleCheck& c) {
    const auto& layouts = c.ctx().tagfile.layouts;
    static constexpr ExpectedMember face[] = {{"startEdgeIndex", 0, 4}, {"startUserEdgeIndex", 4, 4},
                                              {"numEdges", 8, 2},       {"numUserEdges", 10, 2},
                                              {"clusterIndex", 12, 2},  {"padding", 14, 2}};
    static constexpr ExpectedMember edge[] = {{"a", 0, 4},      {"b", 4, 4},           {"oppositeEdge", 8, 4},
                                              {"oppositeFace", 12, 4}, {"flags", 16, 1}, {"paddingByte", 17, 1},
                                              {"userEdgeCost", 18, 2}};
    thread_local LayoutVerdicts face_verdicts, edge_verdicts;
    const std::string bad = face_verdicts.of(layouts.face, [&](const fromsoft::RecordInfo& t) {
        return layout_mismatch(t, "hkaiNavMesh::Face", 16, face);
    }) + edge_verdicts.of(layouts.edge, [&](const fromsoft::RecordInfo& t) {
        return layout_mismatch(t, "hkaiNavMesh::Edge", 20, edge);
    });
    if (layouts.face->present()) c.values().insert("face_version", layouts.face->version);
    if (layouts.edge->present()) c.values().insert("edge_version", layouts.edge->version);
    c.check(bad.empty(), "tagfile", -1, [&] { return bad; });
}

void r07(RuleCheck& c) {
    const auto& variants = c.ctx().tagfile.variants;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const auto& v = variants[i];
        if (v.name != v.className || v.className != v.type_name || v.className.rfind("hkai", 0) != 0)
            return c.fail("variant", static_cast<std::int64_t>(i),
                          fmt::format("name {}, className {}, object type {}", v.name, v.className, v.type_name), {},
                          "hkRootLevelContainer");
    }
    c.pass();
}

void r08(RuleCheck& c) {
    int roots = 0;
    for (const auto& v : c.ctx().tagfile.variants) roots += v.className == kMesh;
    const auto& objects = c.ctx().tagfile.object_counts;
    auto it = objects.find(kMesh);
    std::uint32_t items = it == objects.end() ? 0 : it->second;
    c.check(roots == 1 && items == 1, "tagfile", -1,
            [&] { return fmt::format("{} root variants and {} objects of hkaiNavMesh", roots, items); });
}

void r09(RuleCheck& c) {
    // The repeated class named is the first in name order, as a map of counts would give it;
    // counted over the few variants in place (the map was two allocations a variant).
    const auto& variants = c.ctx().tagfile.variants;
    const std::string* repeated = nullptr;
    int count = 0;
    for (const auto& v : variants) {
        if (v.className == kMesh || (repeated && v.className >= *repeated)) continue;
        const auto n = std::count_if(variants.begin(), variants.end(), [&](const auto& w) { return w.className == v.className; });
        if (n > 1) repeated = &v.className, count = static_cast<int>(n);
    }
    if (repeated) return c.fail("tagfile", -1, fmt::format("{} root variants of {}", count, *repeated));
    c.pass();
}

void r10(RuleCheck& c) {
    const auto& t = c.ctx().tagfile;
    bool ok = root_classes_are(t, {kMesh, kGraph}) || root_classes_are(t, {kMesh, kGraph, kSetups});
    c.check(ok, "tagfile", -1, [&] { return "classes " + join(root_classes(t)); });
}

void r11(RuleCheck& c) {
    const auto& t = c.ctx().tagfile;
    c.pass();
    if (root_classes_are(t, {kMesh, kGraph})) c.values().count("mesh_graph");
    if (root_classes_are(t, {kMesh, kGraph, kSetups})) c.values().count("mesh_graph_setups");
}

void r12(RuleCheck& c) {
    const auto& t = c.ctx().tagfile;
    bool ok = c.ctx().F > 0 ? (root_classes_are(t, {kMesh, kMediator}) || root_classes_are(t, {kMesh, kMediator, kSetups}))
                            : (root_classes_are(t, {kMesh}) || root_classes_are(t, {kMesh, kMediator}));
    c.check(ok, "tagfile", -1, [&] { return fmt::format("classes {} with {} faces", join(root_classes(t)), c.ctx().F); });
}

void r13(RuleCheck& c) {
    const auto& t = c.ctx().tagfile;
    c.pass();
    bool faces = c.ctx().F > 0;
    if (faces && root_classes_are(t, {kMesh, kMediator})) c.values().count("faces_mediator");
    if (faces && root_classes_are(t, {kMesh, kMediator, kSetups})) c.values().count("faces_mediator_setups");
    if (!faces && root_classes_are(t, {kMesh})) c.values().count("empty_mesh_alone");
    if (!faces && root_classes_are(t, {kMesh, kMediator})) c.values().count("empty_mesh_empty_tree");
}

void r14(RuleCheck& c) {
    const fromsoft::RecordInfo& v = *c.ctx().tagfile.layouts.vertex;
    c.check(v.present() && v.size == 16, "tagfile", -1, [&] {
        return v.present() ? fmt::format("vertex element {} is {} bytes", v.name, v.size) : std::string("no vertex element type");
    });
    c.values().count("vertices", c.ctx().V);
}

void r15(RuleCheck& c) {
    const auto& m = c.ctx().mesh;
    std::int64_t F = c.ctx().F, E = c.ctx().E;
    bool lengths = static_cast<std::int64_t>(m.faceData.size()) == F * m.faceDataStriding &&
                   static_cast<std::int64_t>(m.edgeData.size()) == E * m.edgeDataStriding;
    bool strides = F == 0 || (m.faceDataStriding == 1 && m.edgeDataStriding == 1);
    if (F == 0) c.values().insert("empty_mesh_strides", (std::uint64_t(m.faceDataStriding) << 32) | std::uint32_t(m.edgeDataStriding));
    c.check(lengths && strides, "tagfile", -1, [&] {
        return fmt::format("strides {}/{}, faceData {} words for {} faces, edgeData {} words for {} edges",
                           m.faceDataStriding, m.edgeDataStriding, m.faceData.size(), F, m.edgeData.size(), E);
    });
}

void r16(RuleCheck& c) {
    float r = c.ctx().mesh.erosionRadius;
    c.check(r == 0.0f, "tagfile", -1, [&] { return "erosionRadius " + float_bits(r); });
}

void r17(RuleCheck& c) {
    auto u = c.ctx().mesh.userData;
    c.check(u == 0, "tagfile", -1, [&] { return fmt::format("userData {}", u); });
}

void r18(RuleCheck& c) {
    auto u = c.ctx().mesh.userData;
    c.values().insert("userData", u);
    c.check(u == 0, "tagfile", -1, [&] { return fmt::format("userData {}{}", u, u == 1 ? "" : " (not 0 or 1)"); });
}

void r19(RuleCheck& c) {
    auto n = c.ctx().mesh.streaming_set_count;
    c.check(n == 0, "tagfile", -1, [&] { return fmt::format("{} streaming sets", n); });
}

void r20(RuleCheck& c) {
    c.values().count("cache_datas", c.ctx().mesh.clearance_cache_data_count);
    c.check(c.ctx().mesh.has_clearance_cache_seeding, "tagfile", -1, [] { return std::string("no clearance-cache seeding data"); });
}

}  // namespace

std::string layout_mismatch(const fromsoft::RecordInfo& t, const char* role, std::uint32_t size,
                            std::span<const ExpectedMember> members) {
    if (!t.present()) return fmt::format("no type {}; ", role);
    std::string out;
    if (size && t.size != size) out += fmt::format("{} is {} bytes, expected {}; ", t.name, t.size, size);
    for (const auto& m : members) {
        const fromsoft::MemberInfo* found = t.find(m.name);
        if (!found)
            out += fmt::format("member {} missing; ", m.name);
        else if (found->offset != m.offset || (m.size && found->size != m.size))
            out += fmt::format("{} at {} ({} bytes), expected {} ({} bytes); ", m.name, found->offset, found->size,
                               m.offset, m.size);
    }
    return out;
}

void add_structure_rules(std::vector<RuleDef>& out) {
    const Scope B = Scope::Both, S = Scope::Sekiro, ER = Scope::EldenRing;
    const Kind I = Kind::Invariant, ST = Kind::Statistic, O = Kind::Observed;
    out.insert(out.end(), {
        {"R01", "structure", B, ST, "Proven", "tagfile", "Corpus table", true, page(1509), page(7438), "the summary table", r01},
        {"R02", "structure", B, I, "Proven", "tagfile", "Every tagfile reads with a strict reader", false, page(1509), page(7438), "all 1,509 / 7,438 read", r02},
        {"R03", "structure", B, I, "Proven", "tagfile", "Each tagfile carries its own type table", false, page(1509), page(7438), "all 1,509 / 7,438", r03},
        {"R04", "structure", B, I, "Proven", "tagfile", "SDK version is 20160200 (Sekiro) or 20180100 (Elden Ring)", false, page(1509), page(7438), "1,509 x 20160200 / 7,438 x 20180100", r04},
        {"R05", "structure", B, I, "Proven", "tagfile", "hkaiNavMesh record: 208 bytes, version 16, page's members", false, page(1509), page(7438), "both games", r05},
        {"R06", "structure", B, I, "Proven", "tagfile", "Face and Edge records as in the page's tables", false, page(1509), page(7438), "both games", r06},
        {"R07", "structure", B, O, "Observed", "tagfile", "Root is hkRootLevelContainer; variants are hkai* objects named for their class", false, kNoPage, kNoPage, "observed on all tagfiles", r07},
        {"R08", "structure", B, I, "Proven", "tagfile", "Exactly one hkaiNavMesh", false, page(1509), page(7438), "all 1,509 / 7,438", r08},
        {"R09", "structure", B, I, "Proven", "tagfile", "At most one root variant of each other class", false, page(1509), page(7438), "all 1,509 / 7,438", r09},
        {"R10", "structure", S, I, "Proven", "tagfile", "Sekiro tagfile classes: mesh + graph (+ setups)", false, page(1509), kNoPage, "1,509 of 1,509", r10},
        {"R11", "structure", S, ST, "Proven", "tagfile", "Sekiro class combinations counted", true, page(1509), kNoPage, "1,079 mesh+graph, 430 with setups", r11},
        {"R12", "structure", ER, I, "Proven", "tagfile", "Elden Ring tagfile classes by face count", false, kNoPage, page(7438), "all 7,438", r12},
        {"R13", "structure", ER, ST, "Proven", "tagfile", "Elden Ring class combinations counted", true, kNoPage, page(7438), "3,223 faces+mediator, 188 with setups, 1,417 empty alone, 2,610 empty+tree", r13},
        {"R14", "mesh header", B, I, "Proven", "tagfile", "Vertices are four floats; the fourth is not data", false, page(1509), page(7438), "both games", r14},
        {"R15", "mesh header", B, I, "Proven", "tagfile", "One faceData/edgeData word per face/edge; strides 1 in meshes with faces", false, page(1509), page(7438), "every mesh with faces (1,415 / 3,411)", r15},
        {"R16", "mesh header", B, I, "Proven", "tagfile", "erosionRadius is 0", false, page(1509), page(7438), "all 1,509 / 7,438", r16},
        {"R17", "mesh header", S, I, "Proven", "tagfile", "userData is 0", false, page(1509), kNoPage, "0 exceptions of 1,509", r17},
        {"R18", "mesh header", ER, ST, "Proven", "tagfile", "userData is 0 except in 40 meshes (value 1)", false, kNoPage, page(7438, 40), "40 of 7,438, all 1", r18},
        {"R19", "mesh header", B, I, "Proven", "tagfile", "streamingSets is empty", false, page(1509), page(7438), "all 1,509 / 7,438", r19},
        {"R20", "mesh header", B, ST, "Proven", "tagfile", "Clearance-cache seeding data present", false, page(1509, 94), page(7438, 1385), "present in 1,415 of 1,509 and 6,053 of 7,438", r20},
    });
}

}  // namespace navlab::audit
