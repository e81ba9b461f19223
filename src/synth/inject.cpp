#include "synth/inject.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "formats/fromsoft/aabb_tree6.h"
#include "io/error.h"

namespace navlab::synth {
namespace {

using fromsoft::kNoOpposite;
using fromsoft::NavTagfile;

enum Needs : unsigned { kAny = 0, kFaces = 1, kUserEdges = 2, kSetups = 4, kEmptyTree = 8, kSekiro = 16, kEldenRing = 32 };

struct Fault {
    const char* rule;
    unsigned needs;
    std::function<std::string(NavTagfile&)> apply;
};

/// First regular edge with an opposite.
std::size_t linked_edge(const NavTagfile& t) {
    for (std::size_t e = 0; e < t.mesh.edges.size(); ++e)
        if (t.mesh.edges[e].oppositeEdge != kNoOpposite) return e;
    throw Error("no edge with an opposite");
}

std::size_t first_user_edge(const NavTagfile& t) {
    std::size_t r = 0;
    for (const auto& f : t.mesh.faces) r += static_cast<std::size_t>(f.numEdges);
    return r;
}

const std::vector<Fault>& faults() {
    static const std::vector<Fault> table = {
        {"R04", kAny, [](NavTagfile& t) { t.sdk_version = 20150100; return std::string("SDKV 20150100"); }},
        {"R15", kFaces, [](NavTagfile& t) { t.mesh.faceData.pop_back(); return std::string("faceData one word short"); }},
        {"R16", kAny, [](NavTagfile& t) { t.mesh.erosionRadius = 0.25f; return std::string("erosionRadius 0.25"); }},
        {"R17", kSekiro, [](NavTagfile& t) { t.mesh.userData = 7; return std::string("userData 7"); }},
        {"R21", kFaces, [](NavTagfile& t) {
             auto& f = t.mesh.faces[1 % t.mesh.faces.size()];
             f.startEdgeIndex += 1;
             return fmt::format("face {}: startEdgeIndex +1", 1 % t.mesh.faces.size());
         }},
        {"R22", kFaces, [](NavTagfile& t) {
             for (std::size_t f = 0; f < t.mesh.faces.size(); ++f)
                 if (t.mesh.faces[f].numUserEdges == 0) {
                     t.mesh.faces[f].startUserEdgeIndex = 0;
                     return fmt::format("face {}: startUserEdgeIndex 0 without user edges", f);
                 }
             throw Error("every face has user edges");
         }},
        {"R24", kFaces | kSekiro, [](NavTagfile& t) {
             t.mesh.faces[0].clusterIndex = static_cast<std::int16_t>(t.graph->nodes.size());
             return fmt::format("face 0: clusterIndex {} (graph has {} nodes)", t.graph->nodes.size(), t.graph->nodes.size());
         }},
        {"R25", kFaces | kEldenRing, [](NavTagfile& t) { t.mesh.faces[0].clusterIndex = 0; return std::string("face 0: clusterIndex 0"); }},
        {"R26", kFaces, [](NavTagfile& t) { t.mesh.faces[0].padding = 0; return std::string("face 0: padding 0xCDCD -> 0x0000"); }},
        {"R27", kFaces, [](NavTagfile& t) {
             // Both ends of the corner change so the ring stays closed.
             const auto& f = t.mesh.faces[0];
             const auto bad = static_cast<std::int32_t>(t.mesh.vertices.size() + 10);
             t.mesh.edges[f.startEdgeIndex].a = bad;
             t.mesh.edges[f.startEdgeIndex + f.numEdges - 1].b = bad;
             return fmt::format("face 0: corner 0 is vertex {} ({} vertices)", bad, t.mesh.vertices.size());
         }},
        {"R28", kFaces, [](NavTagfile& t) {
             const auto e = linked_edge(t);
             t.mesh.edges[e].oppositeEdge = static_cast<std::uint32_t>(t.mesh.edges.size() + 100);
             return fmt::format("edge {}: oppositeEdge {}", e, t.mesh.edges[e].oppositeEdge);
         }},
        {"R29", kFaces, [](NavTagfile& t) {
             const auto e = linked_edge(t);
             auto& edge = t.mesh.edges[e];
             edge.oppositeFace = (edge.oppositeFace + 1) % t.mesh.faces.size();
             return fmt::format("edge {}: oppositeFace {} (not the owner of edge {})", e, edge.oppositeFace, edge.oppositeEdge);
         }},
        {"R30", kFaces, [](NavTagfile& t) { t.mesh.edges[0].flags = 5; return std::string("edge 0: flags 5"); }},
        {"R31", kFaces, [](NavTagfile& t) { t.mesh.edges[0].paddingByte = 1; return std::string("edge 0: paddingByte 1"); }},
        {"R32", kFaces, [](NavTagfile& t) { t.mesh.edges[0].userEdgeCost = 0x3C00; return std::string("edge 0: userEdgeCost 0x3C00"); }},
        {"R33", kFaces, [](NavTagfile& t) {
             t.mesh.edges[0].b = t.mesh.edges[0].a;
             return fmt::format("face 0: edge 0 ends at its start (vertex {})", t.mesh.edges[0].a);
         }},
        {"R36", kFaces, [](NavTagfile& t) {
             const auto e = linked_edge(t);
             const auto o = t.mesh.edges[e].oppositeEdge;
             t.mesh.edges[o].oppositeEdge = kNoOpposite;
             t.mesh.edges[o].oppositeFace = kNoOpposite;
             return fmt::format("edge {}: its opposite {} has no opposite", e, o);
         }},
        {"R49", kFaces, [](NavTagfile& t) {
             float lo = t.mesh.vertices[0].x;
             for (const auto& v : t.mesh.vertices) lo = std::min(lo, v.x);
             t.mesh.aabb.min.x = lo + 0.5f;
             return fmt::format("aabb.min.x {} above the lowest vertex x {}", t.mesh.aabb.min.x, lo);
         }},
        {"R51", kFaces, [](NavTagfile& t) {
             t.mesh.aabb.min.w = -3;
             t.mesh.aabb.max.w = 3;
             return std::string("aabb margin lanes -3 / 3");
         }},
        {"R55", kFaces, [](NavTagfile& t) { t.mesh.edgeData[0] = 7; return std::string("edge 0: edgeData 7"); }},
        {"R61", kFaces | kSekiro, [](NavTagfile& t) {
             if (t.graph->edges.empty()) throw Error("graph without edges");
             t.graph->edges[0].flags = 1;
             return std::string("graph edge 0: flags 1");
         }},
        {"R65", kFaces | kSekiro, [](NavTagfile& t) {
             t.graph->positions[0].y = t.mesh.aabb.max.y + 100;
             return fmt::format("graph node 0: y {} above the aabb", t.graph->positions[0].y);
         }},
        {"R71", kFaces | kEldenRing, [](NavTagfile& t) {
             std::vector<std::size_t> leaves;
             for (std::size_t i = 0; i < t.mediator->nodes.size() && leaves.size() < 2; ++i)
                 if (!fromsoft::tree_node_is_internal(t.mediator->nodes[i])) leaves.push_back(i);
             if (leaves.size() < 2) throw Error("tree with one leaf");
             auto& second = t.mediator->nodes[leaves[1]];
             const auto& first = t.mediator->nodes[leaves[0]];
             second.hiData = first.hiData;
             second.loData = first.loData;
             return fmt::format("tree node {}: leaf for face {} again", leaves[1], fromsoft::tree_node_data(first));
         }},
        {"R72", kFaces | kEldenRing, [](NavTagfile& t) {
             for (std::size_t i = 0; i < t.mediator->nodes.size(); ++i)
                 if (!fromsoft::tree_node_is_internal(t.mediator->nodes[i])) {
                     t.mediator->nodes[i].xyz[1] = 0xEE;
                     return fmt::format("tree node {} (face {}): y nibbles 0xEE shrink its box", i,
                                        fromsoft::tree_node_data(t.mediator->nodes[i]));
                 }
             throw Error("tree without leaves");
         }},
        {"R73", kEmptyTree | kEldenRing, [](NavTagfile& t) {
             t.mediator->domain.min.x = 0;
             return std::string("empty tree: domain.min.x 0");
         }},
        {"R76", kUserEdges | kEldenRing, [](NavTagfile& t) {
             const auto e = first_user_edge(t);
             t.mesh.edges[e].flags = 36;
             return fmt::format("user edge {}: flags 36", e);
         }},
        {"R78", kUserEdges | kEldenRing, [](NavTagfile& t) {
             const auto e = first_user_edge(t);
             t.mesh.edgeData[e] = 0;
             return fmt::format("user edge {}: edgeData 0", e);
         }},
        {"R81", kUserEdges | kEldenRing, [](NavTagfile& t) {
             const auto e = first_user_edge(t);
             auto& edge = t.mesh.edges[e];
             edge.oppositeEdge = edge.oppositeFace = kNoOpposite;
             edge.flags = 20;
             return fmt::format("user edge {}: no opposite, flags 20", e);
         }},
        {"R91", kSetups, [](NavTagfile& t) {
             for (int r = 0; r < 3; ++r) (*t.user_edge_setups)[0].obbA.transform[r] *= 2;
             return std::string("setup 0 box A: rotation column 0 has length 2");
         }},
        {"R92", kSetups | kEldenRing, [](NavTagfile& t) {
             (*t.user_edge_setups)[0].obbA.transform[3] = 1.5f;
             return std::string("setup 0 box A: column 0 padding 1.5");
         }},
        {"R94", kSetups, [](NavTagfile& t) {
             float& f = (*t.user_edge_setups)[0].obbA.transform[15];
             f = f == 0 ? 1.0f : 0.0f;
             return fmt::format("setup 0 box A: float after the translation {}", f);
         }},
        {"R95", kSetups, [](NavTagfile& t) {
             (*t.user_edge_setups)[0].obbA.halfExtents.x = -1;
             return std::string("setup 0 box A: half extent x -1");
         }},
    };
    return table;
}

const Fault& find_fault(const std::string& rule) {
    for (const auto& f : faults())
        if (rule == f.rule) return f;
    std::string known;
    for (const auto& f : faults()) known += std::string(known.empty() ? "" : " ") + f.rule;
    throw Error("--inject " + rule + ": not a rule synth can break (" + known + ")");
}

}  // namespace

std::vector<std::string> injectable_rules() {
    std::vector<std::string> ids;
    for (const auto& f : faults()) ids.push_back(f.rule);
    return ids;
}

bool can_inject(const std::string& rule, const BinderPlan& binder, const EntryPlan& entry) {
    const unsigned n = find_fault(rule).needs;
    if ((n & kSekiro) && binder.game != Game::Sekiro) return false;
    if ((n & kEldenRing) && binder.game != Game::EldenRing) return false;
    if ((n & kFaces) && entry.faces < 64) return false;  // room for several clusters and leaves
    if ((n & kUserEdges) && entry.user_edges == 0) return false;
    if ((n & kSetups) && entry.setups == 0) return false;
    if ((n & kEmptyTree) && !entry.empty_tree) return false;
    return true;
}

std::string inject_fault(const std::string& rule, fromsoft::NavTagfile& tagfile) {
    return rule + ": " + find_fault(rule).apply(tagfile);
}

}  // namespace navlab::synth
