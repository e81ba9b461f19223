// write_nav_tagfile: a navmesh model as a new tagfile, built with the Havok Builder against the
// embedded 2018.1 navmesh type set.
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "formats/fromsoft/nav_tagfile.h"
#include "havok/type_sets.h"
#include "havok/writer.h"
#include "io/error.h"

namespace navlab::fromsoft {
namespace {

using havok::Builder;
using havok::NodeId;

template <class T>
Bytes bytes_of(const T& value) {
    return Bytes(reinterpret_cast<const std::uint8_t*>(&value), sizeof(T));
}
template <class T, class A>
Bytes bytes_of(const std::vector<T, A>& values) {
    return Bytes(reinterpret_cast<const std::uint8_t*>(values.data()), values.size() * sizeof(T));
}

/// Sets hkArray field `path` of `owner` to a new array of the given elements (raw records in
/// the file's layout); an empty array stays null, as Havok writes it.
template <class T, class A>
void put_array(Builder& b, NodeId owner, const char* path, const char* elementType, const std::vector<T, A>& values) {
    if (values.empty()) return;
    if (values.size() > 0xFFFFFFFFu / sizeof(T)) throw Error(std::string("too many elements for ") + path);
    b.set_array(b.at(owner, path), b.array(elementType, static_cast<std::uint32_t>(values.size()), bytes_of(values)));
}

NodeId put_mesh(Builder& b, const NavMesh& m) {
    if (m.streaming_set_count != 0) throw Error("writer: hkaiNavMesh streaming sets are not modelled", kNoOffset, "hkaiNavMesh");
    const NodeId mesh = b.object("hkaiNavMesh");
    put_array(b, mesh, "faces", "hkaiNavMesh::Face", m.faces);
    put_array(b, mesh, "edges", "hkaiNavMesh::Edge", m.edges);
    put_array(b, mesh, "vertices", "hkVector4", m.vertices);
    put_array(b, mesh, "faceData", "hkInt32", m.faceData);
    put_array(b, mesh, "edgeData", "hkInt32", m.edgeData);
    b.set_int(b.at(mesh, "faceDataStriding"), m.faceDataStriding);
    b.set_int(b.at(mesh, "edgeDataStriding"), m.edgeDataStriding);
    b.set_int(b.at(mesh, "flags"), m.flags);
    b.set_bytes(b.at(mesh, "aabb"), bytes_of(m.aabb));
    b.set_bytes(b.at(mesh, "erosionRadius"), bytes_of(m.erosionRadius));
    b.set_int(b.at(mesh, "userData"), static_cast<std::int64_t>(m.userData));
    if (m.has_clearance_cache_seeding)
        b.set_pointer(b.at(mesh, "clearanceCacheSeedingDataSet"),
                      b.object("hkaiNavMeshClearanceCacheSeeding::CacheDataSet"));
    return mesh;
}

NodeId put_graph(Builder& b, const DirectedGraph& g) {
    if (g.streaming_set_count != 0)
        throw Error("writer: graph streaming sets are not modelled", kNoOffset, "hkaiDirectedGraphExplicitCost");
    const NodeId graph = b.object("hkaiDirectedGraphExplicitCost");
    put_array(b, graph, "positions", "hkVector4", g.positions);
    put_array(b, graph, "nodes", "hkaiDirectedGraphExplicitCost::Node", g.nodes);
    put_array(b, graph, "edges", "hkaiDirectedGraphExplicitCost::Edge", g.edges);
    put_array(b, graph, "nodeData", "hkUint32", g.nodeData);
    put_array(b, graph, "edgeData", "hkUint32", g.edgeData);
    b.set_int(b.at(graph, "nodeDataStriding"), g.nodeDataStriding);
    b.set_int(b.at(graph, "edgeDataStriding"), g.edgeDataStriding);
    return graph;
}

NodeId put_mediator(Builder& b, const QueryMediator& q, NodeId mesh) {
    if (q.tree_class != "hkcdStaticAabbTree" || !q.has_tree_impl)
        throw Error("writer: the mediator's tree must be an hkcdStaticAabbTree with its Impl", kNoOffset,
                    "hkaiStaticTreeNavMeshQueryMediator");
    const NodeId mediator = b.object("hkaiStaticTreeNavMeshQueryMediator");
    const NodeId tree = b.object("hkcdStaticAabbTree");
    const NodeId impl = b.object("hkcdStaticAabbTree::Impl");
    put_array(b, impl, "tree.nodes", "hkcdCompressedAabbCodecs::Aabb6BytesCodec", q.nodes);
    b.set_bytes(b.at(impl, "tree.domain"), bytes_of(q.domain));
    b.set_pointer(b.at(tree, "treePtr"), impl);
    b.set_pointer(b.at(mediator, "tree"), tree);
    if (q.nav_mesh_is_file_mesh) b.set_pointer(b.at(mediator, "navMesh"), mesh);
    return mediator;
}

NodeId put_setups(Builder& b, const std::vector<UserEdgeSetup>& setups) {
    const NodeId owner = b.object("hkaiUserEdgeSetupArray");
    if (setups.empty()) return owner;
    const NodeId array = b.array("hkaiUserEdgeUtils::UserEdgeSetup", static_cast<std::uint32_t>(setups.size()));
    for (std::uint32_t i = 0; i < setups.size(); ++i) {
        const UserEdgeSetup& s = setups[i];
        b.set_bytes(b.at(array, "obbA", i), bytes_of(s.obbA));
        b.set_bytes(b.at(array, "obbB", i), bytes_of(s.obbB));
        b.set_int(b.at(array, "userDataA", i), s.userDataA);
        b.set_int(b.at(array, "userDataB", i), s.userDataB);
        b.set_bytes(b.at(array, "costAtoB", i), bytes_of(s.costAtoB));
        b.set_bytes(b.at(array, "costBtoA", i), bytes_of(s.costBtoA));
        b.set_bytes(b.at(array, "worldUpA", i), bytes_of(s.worldUpA));
        b.set_bytes(b.at(array, "worldUpB", i), bytes_of(s.worldUpB));
        b.set_int(b.at(array, "direction", i), s.direction);
        b.set_int(b.at(array, "space", i), s.space);
        b.set_int(b.at(array, "forceAlign", i), s.forceAlign);
    }
    b.set_array(b.at(owner, "edgeSetups"), array);
    return owner;
}

}  // namespace

std::vector<std::uint8_t> write_nav_tagfile(const NavTagfile& nav, bool allow_gap_bytes) {
    const std::uint32_t sdk = nav.sdk_version ? nav.sdk_version : kSdkEldenRing;
    Builder b(havok::navmesh_types_2018(), std::to_string(sdk));
    b.allow_gap_bytes(allow_gap_bytes);
    std::vector<NodeId> roots{put_mesh(b, nav.mesh)};
    if (nav.graph) roots.push_back(put_graph(b, *nav.graph));
    if (nav.mediator) roots.push_back(put_mediator(b, *nav.mediator, roots[0]));
    if (nav.user_edge_setups) roots.push_back(put_setups(b, *nav.user_edge_setups));
    // Variant names come from the model when it lists one per written object (a model read
    // from a file, or one made to break the naming rule on purpose); else from the classes.
    const bool named = nav.variants.size() == roots.size();
    for (std::size_t i = 0; i < roots.size(); ++i)
        b.add_variant(roots[i], named ? nav.variants[i].name : std::string(),
                      named ? nav.variants[i].className : std::string());
    return b.finish();
}

namespace {

// Floats compare by their bits: the model is file content, and a NaN read from a file is the
// same NaN after a rewrite (by value it would differ even from itself; fuzz_nav_model found
// a vertex that did, crash-f1bc1cbc in tests/fromsoft/test_tagfile.cpp).
bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }
bool same_bits(const Vec4& a, const Vec4& b) {
    return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z) && same_bits(a.w, b.w);
}
bool same_bits(const Aabb& a, const Aabb& b) { return same_bits(a.min, b.min) && same_bits(a.max, b.max); }
bool same_bits(const Obb& a, const Obb& b) {
    return std::equal(a.transform.begin(), a.transform.end(), b.transform.begin(),
                      [](float x, float y) { return same_bits(x, y); }) &&
           same_bits(a.halfExtents, b.halfExtents);
}
bool same_bits(const UserEdgeSetup& a, const UserEdgeSetup& b) {
    if (!same_bits(a.obbA, b.obbA) || !same_bits(a.obbB, b.obbB) || !same_bits(a.costAtoB, b.costAtoB) ||
        !same_bits(a.costBtoA, b.costBtoA) || !same_bits(a.worldUpA, b.worldUpA) || !same_bits(a.worldUpB, b.worldUpB))
        return false;
    // The float fields are equal: compare everything else with them zeroed (NaN != NaN).
    UserEdgeSetup x = a, y = b;
    for (UserEdgeSetup* s : {&x, &y}) s->obbA = s->obbB = {}, s->costAtoB = s->costBtoA = 0, s->worldUpA = s->worldUpB = {};
    return x == y;
}
template <class T, class A>
bool same_bits(const std::vector<T, A>& a, const std::vector<T, A>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const T& x, const T& y) { return same_bits(x, y); });
}
template <class T>
bool same_bits(const std::optional<T>& a, const std::optional<T>& b) {
    return a.has_value() == b.has_value() && (!a || same_bits(*a, *b));
}

}  // namespace

bool same_model(const NavTagfile& a, const NavTagfile& b) {
    // Each compares the float fields by bits, then the rest with them cleared (NaN != NaN).
    auto mesh_equal = [](NavMesh x, NavMesh y) {
        if (!same_bits(x.vertices, y.vertices) || !same_bits(x.aabb, y.aabb) || !same_bits(x.erosionRadius, y.erosionRadius))
            return false;
        for (NavMesh* m : {&x, &y}) m->vertices.clear(), m->aabb = {}, m->erosionRadius = 0, m->clearance_cache_data_count = 0;
        return x == y;
    };
    auto graph_equal = [](const std::optional<DirectedGraph>& x, const std::optional<DirectedGraph>& y) {
        if (x.has_value() != y.has_value()) return false;
        if (!x) return true;
        if (!same_bits(x->positions, y->positions)) return false;
        DirectedGraph rest_x = *x, rest_y = *y;
        rest_x.positions.clear(), rest_y.positions.clear();
        return rest_x == rest_y;
    };
    auto mediator_equal = [](const std::optional<QueryMediator>& x, const std::optional<QueryMediator>& y) {
        if (x.has_value() != y.has_value()) return false;
        return !x || (x->nodes == y->nodes && same_bits(x->domain, y->domain) && x->nav_mesh_is_file_mesh == y->nav_mesh_is_file_mesh);
    };
    const std::uint32_t sdk_a = a.sdk_version ? a.sdk_version : kSdkEldenRing;
    const std::uint32_t sdk_b = b.sdk_version ? b.sdk_version : kSdkEldenRing;
    return sdk_a == sdk_b && mesh_equal(a.mesh, b.mesh) && graph_equal(a.graph, b.graph) &&
           mediator_equal(a.mediator, b.mediator) && same_bits(a.user_edge_setups, b.user_edge_setups);
}

}  // namespace navlab::fromsoft
