#include <gtest/gtest.h>

#include <bit>
#include <algorithm>
#include <cfloat>
#include <limits>
#include <map>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "formats/fromsoft/aabb_tree6.h"
#include "formats/fromsoft/cluster_graph.h"
#include "formats/fromsoft/mesh_views.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "fromsoft/test_meshes.h"
#include "havok/object.h"
#include "havok/tagfile.h"
#include "havok/type_sets.h"
#include "havok/writer.h"
#include "io/error.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;
using namespace navlab::fromsoft;

namespace {

UserEdgeSetup sample_setup(float x) {
    UserEdgeSetup s;
    for (Obb* obb : {&s.obbA, &s.obbB}) {
        obb->transform = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 2, 3, 0};
        obb->halfExtents = {0.5f, 1, 0.25f, 0};
    }
    s.obbB.transform[12] = x + 4;
    s.obbB.transform[15] = 7;  // ER boxes: the float after the translation is not 0
    s.userDataA = 11, s.userDataB = 12;
    s.costAtoB = 1.5f, s.costBtoA = 2.5f;
    s.worldUpA = {0, 1, 0, 0};
    s.worldUpB = {0, 1, 0, 9};
    s.direction = 3, s.space = 1, s.forceAlign = 1;
    return s;
}

/// An Elden Ring-like tagfile: grid mesh, two user edges with edgeData, tree and setups.
NavTagfile elden_ring_like() {
    NavTagfile nav;
    nav.sdk_version = kSdkEldenRing;
    nav.mesh = fixture::grid_mesh(6, 4, nullptr, [](int i, int j) { return 0.25f * i * j; });
    nav.mesh.has_clearance_cache_seeding = true;
    nav.mesh.userData = 1;
    nav.mesh.faceData[3] = 0x11041;
    // User edges 24 and 25 between faces 0 and 23, on their own two vertices.
    NavMesh& m = nav.mesh;
    const std::int32_t v0 = static_cast<std::int32_t>(m.vertices.size());
    m.vertices.push_back({0.5f, 0, 0.5f, 1});
    m.vertices.push_back({5.5f, 6, 3.5f, 2478.77f});
    const std::uint32_t e0 = static_cast<std::uint32_t>(m.edges.size());
    Edge a;
    a.a = v0, a.b = v0 + 1, a.oppositeEdge = e0 + 1, a.oppositeFace = 23, a.flags = 20;
    Edge b = a;
    b.a = v0 + 1, b.b = v0, b.oppositeEdge = e0, b.oppositeFace = 0, b.flags = 52;
    m.edges.push_back(a), m.edges.push_back(b);
    m.edgeData.push_back(0x104), m.edgeData.push_back(0x002);
    m.faces[0].startUserEdgeIndex = static_cast<std::int32_t>(e0), m.faces[0].numUserEdges = 1;
    m.faces[23].startUserEdgeIndex = static_cast<std::int32_t>(e0 + 1), m.faces[23].numUserEdges = 1;
    nav.mediator = build_query_mediator(nav.mesh);
    nav.user_edge_setups = std::vector<UserEdgeSetup>{sample_setup(1), sample_setup(-3)};
    return nav;
}

/// A Sekiro-like tagfile: clustered grid mesh with its cluster graph and a setup array.
NavTagfile sekiro_like() {
    NavTagfile nav;
    nav.sdk_version = kSdkSekiro;
    nav.mesh = fixture::grid_mesh(5, 5, [](int i, int j) { return std::int16_t(i / 2 + 3 * (j / 2)); });
    nav.mesh.aabb.min.w = -1.1f, nav.mesh.aabb.max.w = 1.1f;
    nav.graph = make_directed_graph(nav.mesh, build_cluster_graph(nav.mesh));
    nav.user_edge_setups = std::vector<UserEdgeSetup>{sample_setup(0)};
    return nav;
}

void expect_round_trip(const NavTagfile& nav) {
    const std::vector<std::uint8_t> bytes = write_nav_tagfile(nav);
    const havok::Tagfile strict = havok::read_tagfile(bytes);
    EXPECT_TRUE(strict.warnings.empty()) << strict.warnings.front().message;
    const NavTagfile back = read_nav_tagfile(bytes);
    EXPECT_TRUE(same_model(nav, back));
    EXPECT_EQ(back.mesh.faces, nav.mesh.faces);
    EXPECT_EQ(back.mesh.edges, nav.mesh.edges);
    EXPECT_EQ(back.mesh.vertices, nav.mesh.vertices);
    EXPECT_TRUE(back.warnings.empty());
    // Same model, same bytes.
    EXPECT_EQ(write_nav_tagfile(back), bytes);
}

}  // namespace

TEST(NavTagfile, ReadsTheEldenRingSample) {
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    const std::vector<std::uint8_t> bytes = read_file(path);
    const NavTagfile nav = read_nav_tagfile(bytes);
    EXPECT_EQ(nav.sdk_version, kSdkEldenRing);
    EXPECT_EQ(nav.sdk_string, "20180100");
    EXPECT_TRUE(nav.warnings.empty());
    ASSERT_EQ(nav.variants.size(), 2u);
    EXPECT_EQ(nav.variants[0].name, "hkaiNavMesh");
    EXPECT_EQ(nav.variants[0].className, "hkaiNavMesh");
    EXPECT_EQ(nav.variants[0].type_name, "hkaiNavMesh");
    EXPECT_EQ(nav.variants[1].type_name, "hkaiStaticTreeNavMeshQueryMediator");

    const NavMesh& m = nav.mesh;
    EXPECT_EQ(m.faces.size(), 60u);
    EXPECT_EQ(m.edges.size(), 261u);
    EXPECT_EQ(m.vertices.size(), 141u);
    EXPECT_EQ(regular_edge_count(m), 261u);
    EXPECT_EQ(m.faceData, RecordVector<std::int32_t>(60, 0));
    EXPECT_EQ(m.edgeData.size(), 261u);
    EXPECT_EQ(m.faceDataStriding, 1);
    EXPECT_EQ(m.edgeDataStriding, 1);
    EXPECT_EQ(m.erosionRadius, 0.0f);
    EXPECT_EQ(m.streaming_set_count, 0u);
    EXPECT_TRUE(m.has_clearance_cache_seeding);
    EXPECT_EQ(m.clearance_cache_data_count, 2u);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(m.aabb.max.w), 0x40199999u);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(m.aabb.min.w), 0xC0199999u);
    int ones = 0, minEdges = 99, max_edges = 0;
    for (const Face& f : m.faces) {
        EXPECT_EQ(f.padding, 0xCDCD);
        EXPECT_EQ(f.clusterIndex, -1);
        minEdges = std::min<int>(minEdges, f.numEdges), max_edges = std::max<int>(max_edges, f.numEdges);
    }
    EXPECT_EQ(minEdges, 3);
    EXPECT_EQ(max_edges, 14);
    for (const Vec4& v : m.vertices) ones += v.w == 1.0f;
    EXPECT_EQ(ones, 92);
    int withOpposite = 0;
    for (const Edge& e : m.edges) {
        EXPECT_EQ(e.flags, 4);
        withOpposite += e.oppositeEdge != kNoOpposite;
    }
    EXPECT_EQ(withOpposite, 122);
    EXPECT_EQ(nav.object_counts.at("hkaiNavMeshClearanceCache"), 2u);
    EXPECT_EQ(nav.object_counts.at("hkaiNavMesh"), 1u);

    // Layouts from the file's own type table (audit R05, R06, R14, R66).
    const LayoutSummary& l = nav.layouts;
    EXPECT_EQ(l.navMesh->size, 208u);
    EXPECT_EQ(l.navMesh->version, 16u);
    ASSERT_NE(l.navMesh->find("clearanceCacheSeedingDataSet"), nullptr);
    EXPECT_EQ(l.navMesh->find("clearanceCacheSeedingDataSet")->offset, 192u);
    EXPECT_EQ(l.navMesh->find("faces")->offset, 24u);
    EXPECT_EQ(l.face->name, "hkaiNavMesh::Face");
    EXPECT_EQ(l.face->size, 16u);
    EXPECT_EQ(l.face->version, 6u);
    EXPECT_EQ(l.face->find("padding")->offset, 14u);
    EXPECT_EQ(l.face->find("padding")->format & 0x200u, 0u);  // unsigned
    EXPECT_EQ(l.face->find("startEdgeIndex")->format & 0x200u, 0x200u);  // signed
    EXPECT_EQ(l.edge->size, 20u);
    EXPECT_EQ(l.edge->version, 8u);
    EXPECT_EQ(l.edge->find("userEdgeCost")->type_name, "hkHalf16");
    EXPECT_EQ(l.vertex->name, "hkVector4");
    EXPECT_EQ(l.vertex->size, 16u);
    EXPECT_EQ(l.tree_node->size, 6u);
    EXPECT_EQ(l.tree_node->find("loData")->offset, 4u);
    EXPECT_FALSE(l.graph->present());

    ASSERT_TRUE(nav.mediator);
    const QueryMediator& q = *nav.mediator;
    EXPECT_EQ(q.nodes.size(), 119u);
    EXPECT_TRUE(q.nav_mesh_is_file_mesh);
    EXPECT_EQ(q.nav_mesh_item, nav.variants[0].item);
    EXPECT_EQ(q.tree_class, "hkcdStaticAabbTree");
    EXPECT_TRUE(q.has_tree_impl);
    EXPECT_EQ(q.domain, tree_domain_of(m));  // spec §15: the vertex bounds in four lanes
    const DecodedAabbTree t = decode_aabb_tree6(q.nodes, q.domain);
    ASSERT_TRUE(t.valid) << t.problem;
    EXPECT_EQ(t.internal_nodes, 59u);
    ASSERT_EQ(t.leaves.size(), 60u);
    std::vector<int> seen(60, 0);
    for (const TreeLeaf& leaf : t.leaves) {
        ASSERT_LT(leaf.face, 60u);
        ++seen[leaf.face];
        for (std::int32_t v : face_vertex_ring(m, leaf.face))
            for (int k = 0; k < 3; ++k) {
                const double c = k == 0 ? m.vertices[v].x : k == 1 ? m.vertices[v].y : m.vertices[v].z;
                EXPECT_LE(t.boxes[leaf.node].min[k], c);
                EXPECT_GE(t.boxes[leaf.node].max[k], c);
            }
    }
    EXPECT_EQ(seen, std::vector<int>(60, 1));
    EXPECT_FALSE(nav.graph);
    EXPECT_FALSE(nav.user_edge_setups);
}

TEST(NavTagfile, RewritesTheEldenRingSampleModel) {
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    const NavTagfile nav = read_nav_tagfile(read_file(path));
    expect_round_trip(nav);
}

TEST(NavTagfile, ModelWriterMatchesTheEldenRingSampleBytes) {
    // The writer against the real file, not only against itself: every object and array of
    // the sample is written byte for byte, except what the model does not hold (the two
    // clearance caches of the seeding set, items 14-16 and 18-25) and the item numbers the
    // tree objects hold, which shift because those items are gone.
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    const auto orig_bytes = read_file(path);
    const auto mine_bytes = write_nav_tagfile(read_nav_tagfile(orig_bytes));
    const havok::Tagfile orig = havok::read_tagfile(orig_bytes);
    const havok::Tagfile mine = havok::read_tagfile(mine_bytes);
    EXPECT_EQ(mine.sdk_version, orig.sdk_version);
    ASSERT_EQ(orig.items.size(), 27u);
    ASSERT_EQ(mine.items.size(), 27u - 11u);
    auto item_bytes = [](const havok::Tagfile& t, std::size_t i) {
        return t.data.subspan(t.items[i].offset, std::size_t{t.items[i].count} * t.element_size(i));
    };
    auto type_of = [](const havok::Tagfile& t, std::size_t i) { return t.types[t.items[i].type].name; };
    // Root container, variants, names, hkaiNavMesh, the mediator, faces, edges, vertices,
    // faceData, edgeData, the seeding set, hkcdStaticAabbTree: the same items at the same numbers.
    for (std::size_t i : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}) {
        SCOPED_TRACE(type_of(orig, i));
        EXPECT_EQ(type_of(mine, i), type_of(orig, i));
        if (i == 12) continue;  // CacheDataSet: points at the cache array, which is empty here
        EXPECT_TRUE(std::ranges::equal(item_bytes(mine, i), item_bytes(orig, i))) << "item " << i;
    }
    // The 6-byte tree nodes (last item of both).
    EXPECT_EQ(type_of(orig, 26), "hkcdCompressedAabbCodecs::Aabb6BytesCodec");
    EXPECT_EQ(type_of(mine, 15), "hkcdCompressedAabbCodecs::Aabb6BytesCodec");
    EXPECT_TRUE(std::ranges::equal(item_bytes(mine, 15), item_bytes(orig, 26)));
    // The file head (TAG0, SDKV) is the sample's.
    EXPECT_TRUE(std::equal(orig_bytes.begin() + 4, orig_bytes.begin() + 0x14, mine_bytes.begin() + 4));
}

TEST(NavTagfile, EldenRingLikeRoundTrip) {
    const NavTagfile nav = elden_ring_like();
    expect_round_trip(nav);
    const NavTagfile back = read_nav_tagfile(write_nav_tagfile(nav));
    ASSERT_EQ(back.variants.size(), 3u);
    EXPECT_EQ(back.variants[1].className, "hkaiStaticTreeNavMeshQueryMediator");
    EXPECT_EQ(back.variants[2].name, "hkaiUserEdgeSetupArray");
    EXPECT_EQ(back.layouts.user_edge_setup->size, 224u);
    EXPECT_EQ(back.layouts.obb->size, 80u);
    EXPECT_EQ(back.layouts.obb_transform->format, 0x1028u);
    EXPECT_TRUE(back.mesh.has_clearance_cache_seeding);
    ASSERT_TRUE(back.user_edge_setups);
    EXPECT_EQ((*back.user_edge_setups)[1].obbB.transform[15], 7.0f);
}

TEST(NavTagfile, SekiroLikeRoundTrip) {
    const NavTagfile nav = sekiro_like();
    expect_round_trip(nav);
    const NavTagfile back = read_nav_tagfile(write_nav_tagfile(nav));
    EXPECT_EQ(back.sdk_string, "20160200");
    ASSERT_EQ(back.variants.size(), 3u);
    EXPECT_EQ(back.variants[1].type_name, "hkaiDirectedGraphExplicitCost");
    EXPECT_EQ(back.layouts.graph_edge->size, 8u);
    EXPECT_EQ(back.layouts.graph_node->find("numEdges")->offset, 4u);
    ASSERT_TRUE(back.graph);
    EXPECT_EQ(back.graph->nodes.size(), 9u);
    EXPECT_FALSE(back.mediator);
}

TEST(NavTagfile, EmptyMeshesAloneAndWithEmptyTree) {
    NavTagfile alone;
    alone.sdk_version = kSdkEldenRing;
    alone.mesh.aabb.min = {FLT_MAX, FLT_MAX, FLT_MAX, 0};
    expect_round_trip(alone);
    NavTagfile withTree = alone;
    withTree.mediator = build_query_mediator(withTree.mesh);
    expect_round_trip(withTree);
    const NavTagfile back = read_nav_tagfile(write_nav_tagfile(withTree));
    ASSERT_TRUE(back.mediator);
    EXPECT_TRUE(back.mediator->nodes.empty());
    EXPECT_EQ(back.mediator->domain.max.x, FLT_MAX);
    EXPECT_EQ(back.mediator->domain.min.z, -FLT_MAX);
}

TEST(NavTagfile, WriterRefusesWhatItCannotExpress) {
    NavTagfile nav = elden_ring_like();
    nav.mesh.streaming_set_count = 1;
    EXPECT_THROW(write_nav_tagfile(nav), Error);
    nav = elden_ring_like();
    nav.mediator->has_tree_impl = false;
    EXPECT_THROW(write_nav_tagfile(nav), Error);
}

TEST(NavTagfile, MediatorNotPointingAtTheMesh) {
    NavTagfile nav = elden_ring_like();
    nav.mediator->nav_mesh_is_file_mesh = false;
    const NavTagfile back = read_nav_tagfile(write_nav_tagfile(nav));
    ASSERT_TRUE(back.mediator);
    EXPECT_FALSE(back.mediator->nav_mesh_is_file_mesh);
    EXPECT_EQ(back.mediator->nav_mesh_item, 0u);
}

/// A tagfile (the Elden Ring-like one by default) written again with its type table changed
/// (declared values only).
std::vector<std::uint8_t> with_changed_types(void (*change)(havok::TypeTable&), const NavTagfile& nav = elden_ring_like()) {
    const auto bytes = write_nav_tagfile(nav);
    havok::Graph g = havok::graph_from_tagfile(havok::read_tagfile(bytes));
    change(g.types);
    return havok::write_graph(g);
}

TEST(NavTagfile, ModelReaderErrorsNameTheFieldAndOffset) {
    // A face type without the member the model needs: a valid tagfile, refused by the model
    // reader itself, at the hkaiNavMesh's faces field.
    const auto renamed = with_changed_types([](havok::TypeTable& t) {
        for (havok::Member& m : t.at(t.find("hkaiNavMesh::Face")).members)
            if (m.name == "numEdges") m.name = "numEdgez";
    });
    const havok::Tagfile strict = havok::read_tagfile(renamed);  // the tagfile itself is fine
    const std::uint64_t faces_at = strict.data_offset + strict.find_variant("hkaiNavMesh")->field("faces").offset();
    try {
        read_nav_tagfile(renamed);
        ADD_FAILURE() << "read";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), faces_at);
        EXPECT_EQ(e.field(), "hkArray<hkaiNavMesh::Face, hkContainerHeapAllocator>");
        EXPECT_EQ(e.message(), "hkaiNavMesh::Face has no member numEdges");
    }
}

TEST(NavTagfile, TruncatedAndCorruptInputFailsCleanly) {
    const std::vector<std::uint8_t> good = write_nav_tagfile(elden_ring_like());
    for (std::size_t n : {std::size_t{0}, std::size_t{7}, good.size() / 2, good.size() - 1}) {
        const std::vector<std::uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        EXPECT_THROW(read_nav_tagfile(cut), Error) << n;
    }
    // Flip bytes across the whole file: every outcome is a model or a navlab::Error, never a
    // crash (run under ASan/UBSan).
    int errors = 0, models = 0;
    for (std::size_t pos = 0; pos < good.size(); pos += 3) {
        std::vector<std::uint8_t> bad = good;
        bad[pos] ^= 0xA5;
        try {
            (void)read_nav_tagfile(bad);
            ++models;
        } catch (const Error&) {
            ++errors;
        }
    }
    EXPECT_GT(errors, 0);
    EXPECT_GT(models, 0);  // e.g. flips inside float data read fine
}

TEST(NavTagfile, VariantNamesFromTheModel) {
    NavTagfile nav = sekiro_like();
    nav.variants = {{"hkaiNavMesh", "hkaiNavMesh", {}, 0}, {"graph", "", {}, 0}, {"", "Setups", {}, 0}};
    const NavTagfile back = read_nav_tagfile(write_nav_tagfile(nav));
    ASSERT_EQ(back.variants.size(), 3u);
    EXPECT_EQ(back.variants[1].name, "graph");
    EXPECT_EQ(back.variants[1].className, "hkaiDirectedGraphExplicitCost");
    EXPECT_EQ(back.variants[1].type_name, "hkaiDirectedGraphExplicitCost");
    EXPECT_EQ(back.variants[2].name, "hkaiUserEdgeSetupArray");
    EXPECT_EQ(back.variants[2].className, "Setups");
    // A list that does not match the written objects is not used.
    nav.variants.pop_back();
    EXPECT_EQ(read_nav_tagfile(write_nav_tagfile(nav)).variants[1].name, "hkaiDirectedGraphExplicitCost");
}

// fuzz_nav_model finding (crash-f1bc1cbc..., 7,796 bytes, from navlab-written seeds): a
// mutated vertex is a NaN. The rewrite kept its bits, yet same_model said the read-back model
// differed (floats compared by value), so the model differed even from itself.
// fuzz_nav_model (session 5, crash-44c27649…, made from navlab-written seeds): the file's own
// type table serializes hkaiNavMesh::Edge::paddingByte, whose byte is 0xFF; the writer, which
// writes the 2018 type set where that byte is a non-serialized gap, copied it and wrote a file
// its own strict reader refused. The builder now refuses such records, naming element and byte.
TEST(NavTagfile, WriterRefusesBytesInTheTypeSetsGaps) {
    const auto bytes = read_file(std::filesystem::path(NAVLAB_SOURCE_DIR) / "tests/fromsoft/fuzz_reproducers/nav_model-gap-byte.hkx");
    const NavTagfile nav = read_nav_tagfile(bytes);
    ASSERT_FALSE(nav.mesh.edges.empty());
    EXPECT_EQ(nav.mesh.edges[0].paddingByte, 0xFF);
    try {
        (void)write_nav_tagfile(nav);
        FAIL() << "a paddingByte of 0xFF was written";
    } catch (const Error& e) {
        EXPECT_EQ(e.field(), "hkaiNavMesh::Edge");
        EXPECT_NE(std::string(e.what()).find("element 0: byte 17 is a gap or non-serialized member"), std::string::npos)
            << e.what();
    }
    NavTagfile fixed = nav;  // the same model with the byte cleared writes and reads back
    for (Edge& edge : fixed.mesh.edges) edge.paddingByte = 0;
    EXPECT_TRUE(same_model(fixed, read_nav_tagfile(write_nav_tagfile(fixed))));
}

TEST(NavTagfile, NanFloatsAreTheSameModelAfterARewrite) {
    const auto bytes = read_file(std::filesystem::path(NAVLAB_SOURCE_DIR) / "tests/fromsoft/fuzz_reproducers/nav_model-nan-vertex.hkx");
    const NavTagfile nav = read_nav_tagfile(bytes);
    EXPECT_TRUE(std::any_of(nav.mesh.vertices.begin(), nav.mesh.vertices.end(),
                            [](const Vec4& v) { return v.x != v.x || v.y != v.y || v.z != v.z || v.w != v.w; }));
    EXPECT_TRUE(same_model(nav, nav));
    const auto image = write_nav_tagfile(nav);
    EXPECT_TRUE(same_model(nav, read_nav_tagfile(image)));
    EXPECT_EQ(write_nav_tagfile(read_nav_tagfile(image)), image);

    // The same in every float the model holds, built by hand; and bits, not values, decide:
    // -0.0 is not 0.0, one NaN payload is not another.
    NavTagfile sekiro = sekiro_like();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    sekiro.mesh.vertices[3].y = nan, sekiro.mesh.aabb.max.x = nan, sekiro.mesh.erosionRadius = nan;
    sekiro.graph->positions[0].z = nan;
    (*sekiro.user_edge_setups)[0].obbA.transform[5] = nan, (*sekiro.user_edge_setups)[0].costBtoA = nan;
    EXPECT_TRUE(same_model(sekiro, sekiro));
    EXPECT_TRUE(same_model(sekiro, read_nav_tagfile(write_nav_tagfile(sekiro))));
    NavTagfile other = sekiro;
    (*other.user_edge_setups)[0].costBtoA = std::bit_cast<float>(std::bit_cast<std::uint32_t>(nan) | 1u);
    EXPECT_FALSE(same_model(sekiro, other));
    other = sekiro;
    other.mesh.vertices[0].x = -0.0f;
    EXPECT_EQ(sekiro.mesh.vertices[0].x, 0.0f);
    EXPECT_FALSE(same_model(sekiro, other));
    other = sekiro;
    other.graph->positions[1].w += 1;
    EXPECT_FALSE(same_model(sekiro, other));
    NavTagfile er = elden_ring_like();
    NavTagfile er_moved = er;
    er_moved.mediator->domain.min.y = nan;
    EXPECT_FALSE(same_model(er, er_moved));
    EXPECT_TRUE(same_model(er_moved, read_nav_tagfile(write_nav_tagfile(er_moved))));
}

// The model's arrays are copied in chunks (copy_records, through a buffer of bytes) from bytes
// of any alignment into the arrays the previous read gave back (recycle_mesh_arrays): meshes
// larger and smaller than the one before (edges, faces and vertices past one chunk, a count at
// a chunk's end), the tagfile at every alignment mod 4, must read the records the writer was
// given.
TEST(NavTagfile, RecycledArraysAndUnalignedBytesReadTheWrittenRecords) {
    int seed = 0;
    for (const auto& [nx, nz] : {std::pair{6, 4}, {2, 1}, {9, 7}, {1, 1}, {16, 9}, {5, 8}, {8, 8}, {13, 10}}) {
        NavTagfile nav = elden_ring_like();
        nav.mesh = fixture::grid_mesh(nx, nz, [](int i, int j) { return std::int16_t(i + j); });
        for (std::size_t i = 0; i < nav.mesh.edges.size(); ++i) {
            Edge& e = nav.mesh.edges[i];
            e.flags = static_cast<std::uint8_t>(i * 7 + seed);
            e.userEdgeCost = static_cast<std::uint16_t>(0x3c00 + i);
            nav.mesh.edgeData[i] = static_cast<std::int32_t>(i * 31 + seed);
        }
        for (std::size_t i = 0; i < nav.mesh.faces.size(); ++i) nav.mesh.faceData[i] = static_cast<std::int32_t>(i * 13 - seed);
        nav.mediator = build_query_mediator(nav.mesh);
        const std::vector<std::uint8_t> bytes = write_nav_tagfile(nav);
        for (std::size_t shift = 0; shift < 4; ++shift, ++seed) {
            std::vector<std::uint8_t> moved(shift, 0xAB);
            moved.insert(moved.end(), bytes.begin(), bytes.end());
            NavTagfile back = read_nav_tagfile(std::span(moved).subspan(shift));
            EXPECT_EQ(back.mesh.faces, nav.mesh.faces) << nx << "x" << nz << " at +" << shift;
            EXPECT_EQ(back.mesh.edges, nav.mesh.edges) << nx << "x" << nz << " at +" << shift;
            EXPECT_EQ(back.mesh.vertices, nav.mesh.vertices) << nx << "x" << nz << " at +" << shift;
            EXPECT_EQ(back.mesh.faceData, nav.mesh.faceData) << nx << "x" << nz << " at +" << shift;
            EXPECT_EQ(back.mesh.edgeData, nav.mesh.edgeData) << nx << "x" << nz << " at +" << shift;
            ASSERT_TRUE(back.mediator);
            EXPECT_EQ(back.mediator->nodes, nav.mediator->nodes) << nx << "x" << nz << " at +" << shift;
            recycle_mesh_arrays(std::move(back.mesh));
        }
    }
}

namespace {

/// The layout facts of one record, as text.
std::string record_text(const char* what, const RecordInfo& r) {
    std::string out = fmt::format("\n{}: {} size {} align {} version {} format {:#x}", what, r.name, r.size, r.alignment,
                                  r.version, r.format);
    for (const MemberInfo& m : r.members())
        out += fmt::format(" [{} {} {} {} {:#x} {}]", m.name, m.offset, m.size, m.type_name, m.format, m.flags);
    return out;
}

/// Every field of a model read, as text (record arrays compared with ==, flagged here).
std::string model_text(const NavTagfile& nav, const NavTagfile& mesh_of) {
    std::string out = fmt::format("SDK {} {} {}", nav.sdk_version, nav.sdk_string, nav.own_type_table);
    for (const RootVariant& v : nav.variants) out += fmt::format("\nvariant {} {} {} {}", v.name, v.className, v.type_name, v.item);
    for (const auto& [type, count] : nav.object_counts) out += fmt::format("\nobjects {} {}", type, count);
    for (const Finding& w : nav.warnings) out += fmt::format("\nwarning {} {} {}", w.offset, w.field, w.message);
    const LayoutSummary& l = nav.layouts;
    out += record_text("navMesh", *l.navMesh) + record_text("face", *l.face) + record_text("edge", *l.edge) +
           record_text("vertex", *l.vertex) + record_text("graph", *l.graph) + record_text("graph_node", *l.graph_node) +
           record_text("graph_edge", *l.graph_edge) + record_text("tree_node", *l.tree_node) +
           record_text("user_edge_setup", *l.user_edge_setup) + record_text("obb", *l.obb) +
           record_text("obb_transform", *l.obb_transform);
    out += fmt::format("\nat {} {} {}", l.faces_at, l.edges_at, l.vertices_at);
    out += fmt::format("\nmesh {}", nav.mesh == mesh_of.mesh ? "same" : "differs");
    out += fmt::format("\ngraph {}", nav.graph == mesh_of.graph ? "same" : "differs");
    out += fmt::format("\nsetups {}", nav.user_edge_setups == mesh_of.user_edge_setups ? "same" : "differs");
    if (nav.mediator) {
        const QueryMediator& m = *nav.mediator;
        out += fmt::format("\nmediator {} {} {} {} {}", m.nodes.size(), m.nav_mesh_is_file_mesh, m.nav_mesh_item, m.tree_class,
                           m.has_tree_impl);
        out += mesh_of.mediator && m.nodes == mesh_of.mediator->nodes && m.domain == mesh_of.mediator->domain ? " same" : " differs";
    }
    return out;
}

/// read_nav_tagfile's model, or its error, as text; `fresh`: the model read on a new thread
/// (whose per-thread storage, caches and recycled arrays start empty) to compare against.
std::string read_model_text(const std::vector<std::uint8_t>& bytes, const NavTagfile* fresh) {
    try {
        NavTagfile nav = read_nav_tagfile(bytes);
        std::string out = model_text(nav, fresh ? *fresh : nav);
        recycle_nav_tagfile(std::move(nav));
        return out;
    } catch (const Error& e) {
        return fmt::format("error at {}: {}", e.offset(), e.what());
    }
}

}  // namespace

// read_nav_tagfile reuses per thread what its last tagfile had (the tagfile's vectors, the
// verifier's storage, the model given back: its arrays, and the variants, object counts and
// layouts it assigns over): a read of B after reads of A and of a bad tagfile (one that fails in
// the strict read, one that fails in the model read) must give what a first read of B on a
// fresh thread gives, field by field, and errors the same.
TEST(NavTagfile, ReadAfterOtherTagfilesEqualsAFreshRead) {
    const std::vector<std::uint8_t> elden = write_nav_tagfile(elden_ring_like()), sekiro = write_nav_tagfile(sekiro_like());
    std::vector<std::uint8_t> truncated(elden.begin(), elden.begin() + static_cast<std::ptrdiff_t>(elden.size() / 2));
    std::vector<std::uint8_t> bad_model = sekiro;  // "faces" renamed: the strict read passes, the model's fails
    const auto at = std::search(bad_model.begin(), bad_model.end(), std::begin("faces"), std::end("faces") - 1);
    ASSERT_NE(at, bad_model.end());
    *at = 'g';
    std::vector<std::vector<std::uint8_t>> tagfiles = {elden, sekiro, truncated, bad_model};
    if (const auto sample = test::sample("havok/er/n10_01_00_00_001700.hkx")) tagfiles.push_back(read_file(*sample));
    for (const auto& b : tagfiles) {
        std::optional<NavTagfile> fresh;
        std::string fresh_text;
        std::thread([&] {
            try {
                fresh = read_nav_tagfile(b);
                fresh_text = model_text(*fresh, *fresh);
            } catch (const Error& e) {
                fresh_text = fmt::format("error at {}: {}", e.offset(), e.what());
            }
        }).join();
        for (const auto& a : tagfiles) {
            read_model_text(a, nullptr);
            read_model_text(truncated, nullptr);
            read_model_text(bad_model, nullptr);
            read_model_text(a, nullptr);
            EXPECT_EQ(read_model_text(b, fresh ? &*fresh : nullptr), fresh_text);
        }
    }
}

namespace {

/// A tagfile of `setups` root variants with names past 15 characters (strings on the heap)
/// and one more over a mesh. With `template_setups`, its TYPE section gives the setup array a
/// template parameter: its full name is "hkaiUserEdgeSetupArray<hkaiNavMesh>", and the table,
/// read from bytes, is one the model reader keeps a memo for. The variants' names start with
/// `first` (names of the same length as another tagfile's, not the same).
std::vector<std::uint8_t> many_variants_tagfile(int setups, bool template_setups = false, char first = 'a') {
    havok::TypeTable types = havok::navmesh_types_2018();
    if (template_setups) {
        const havok::TypeIndex array = types.find("hkaiUserEdgeSetupArray"), mesh = types.find("hkaiNavMesh");
        if (!array || !mesh) throw Error("the 2018 type set has no hkaiUserEdgeSetupArray or hkaiNavMesh");
        types.at(array).params.push_back({"tT", mesh});
    }
    havok::Builder b(std::move(types));
    for (int i = 0; i < setups; ++i)
        b.add_variant(b.object("hkaiUserEdgeSetupArray"), fmt::format("{} variant named at length {}", first, i),
                      "hkaiUserEdgeSetupArray");
    b.add_variant(b.object("hkaiNavMesh"));
    return b.finish();
}

/// The object counts and root variants of a tagfile as a plain reading gives them: a full type
/// name per pointer item, each variant's target's full type name and its first pointer item.
std::string plain_counts_and_variants(const havok::Tagfile& file) {
    std::map<std::string, std::uint32_t> counts;
    for (const havok::Item& item : file.items)
        if (item.kind == havok::ItemKind::Pointer) ++counts[file.types.full_name(item.type)];
    std::string out;
    for (const havok::NamedVariant& v : file.named_variants()) {
        havok::ItemIndex item = 0;
        for (havok::ItemIndex i = 1; v.object && item == 0 && i < file.items.size(); ++i)
            if (file.items[i].kind == havok::ItemKind::Pointer && file.items[i].offset == v.object->offset()) item = i;
        out += fmt::format("\nvariant {} {} {} {}", v.name, v.class_name, v.object ? v.object->type_name() : "", item);
    }
    for (const auto& [type, count] : counts) out += fmt::format("\nobjects {} {}", type, count);
    return out;
}

std::string counts_and_variants(const NavTagfile& nav) {
    std::string out;
    for (const RootVariant& v : nav.variants) out += fmt::format("\nvariant {} {} {} {}", v.name, v.className, v.type_name, v.item);
    for (const auto& [type, count] : nav.object_counts) out += fmt::format("\nobjects {} {}", type, count);
    return out;
}

}  // namespace

// The model reader recounts the object counts that recycle_nav_tagfile gave back (names found
// in place, nodes added and removed) and reassigns the root variants' strings: after reads of
// tagfiles with fewer, more and other objects and variants (one with a template type among
// them: its full name differs from its base name; names of the same length as the last
// tagfile's but not the same), each tagfile's counts and variants are those
// of a plain reading. A model of more than 64 variants is not kept for the next read (a hostile
// file's list would stay with the thread): a read after the 70-variant one starts afresh.
TEST(NavTagfile, RecycledCountsAndVariantsEqualAPlainReading) {
    // The setup array has a template parameter in the fourth and sixth (written into their
    // TYPE bytes: tables with a memo, so its full name and roles are memoised too).
    std::vector<std::vector<std::uint8_t>> bytes = {write_nav_tagfile(elden_ring_like()), write_nav_tagfile(sekiro_like()),
                                                    many_variants_tagfile(40, false, 'b'), many_variants_tagfile(2, true),
                                                    many_variants_tagfile(0), many_variants_tagfile(70, true),
                                                    many_variants_tagfile(3)};
    {  // The last one's first variant made null (its object is then unreferenced: read unverified).
        const havok::Tagfile f = havok::read_tagfile(bytes.back());
        const havok::ObjectView first = f.root().field("namedVariants").as_array().object(0);
        const std::uint64_t at = f.data_offset + first.offset() + f.types.find_member(first.type_index(), "variant")->offset;
        std::fill_n(bytes.back().begin() + static_cast<std::ptrdiff_t>(at), 8, 0);
    }
    std::vector<havok::Tagfile> files;
    // On a fresh thread: its caches start empty, so every table (fewer than kTypeTablesKept) is
    // kept and gets a memo, whatever other tests read before.
    std::thread([&] {
        for (const auto& b : bytes) files.push_back(havok::read_tagfile(b, {.verify_objects = &b != &bytes.back()}));
        for (const havok::Tagfile& f : files) EXPECT_TRUE(havok::type_table_is_kept(f.types));
        for (const havok::Tagfile& b : files) {
            const std::string plain = plain_counts_and_variants(b);
            for (const havok::Tagfile& a : files) {
                recycle_nav_tagfile(nav_from_tagfile(a));
                NavTagfile nav = nav_from_tagfile(b);
                EXPECT_EQ(counts_and_variants(nav), plain);
                recycle_nav_tagfile(std::move(nav));
            }
        }
        recycle_nav_tagfile(nav_from_tagfile(files[5]));  // 70 variants
        EXPECT_LT(nav_from_tagfile(files[4]).variants.capacity(), 64u) << "the 70 variants' storage was kept";
    }).join();
    ASSERT_EQ(files.size(), bytes.size());
    EXPECT_NE(plain_counts_and_variants(files[3]).find("objects hkaiUserEdgeSetupArray<hkaiNavMesh> 2"), std::string::npos);
    EXPECT_NE(plain_counts_and_variants(files[6]).find("variant a variant named at length 0 hkaiUserEdgeSetupArray  0"),
              std::string::npos);
}

// The reader's memo keeps, per type table and type index, the type's full name, roles and
// layout. An entry reused for another table (the oldest, when a ninth table comes) must forget
// the former table's: the same indices mean other types there. On a fresh thread (its memo's
// eight entries empty), `second` takes entry 0, then `first`, a renamed `first` and seven
// renamed Elden Ring-like tables take 1, 2, ... 7, 0, 1; `second` read again (its first table
// no longer kept: parsed anew) takes entry 2, the renamed `first`'s, whose type indices mean
// other classes. Its model must equal a fresh thread's. The models' layouts are shares of the
// memo's: they stay whole after their entries were reused and the thread that read them is
// gone; changing one model's layout changes no other's.
TEST(NavTagfile, ReusedMemoEntryForgetsTheFormerTablesTypes) {
    const std::vector<std::uint8_t> elden = write_nav_tagfile(elden_ring_like()), setups = many_variants_tagfile(3);
    {  // The premise: in the two tables, some type index means different classes.
        const havok::Tagfile a = havok::read_tagfile(elden), b = havok::read_tagfile(setups);
        bool differ = false;
        for (havok::TypeIndex t = 1; t <= std::min(a.types.size(), b.types.size()); ++t)
            differ = differ || a.types.full_name(t) != b.types.full_name(t);
        ASSERT_TRUE(differ);
    }
    // Seven tables besides the first: "faces" renamed, each copy with another first letter (their
    // model reads fail after the counts and variants were read, and so memoised).
    const auto at = std::search(elden.begin(), elden.end(), std::begin("faces"), std::end("faces") - 1);
    ASSERT_NE(at, elden.end());
    std::vector<std::vector<std::uint8_t>> others;
    for (std::size_t k = 0; k + 1 < havok::kTypeTablesKept; ++k) {
        others.push_back(elden);
        others.back()[static_cast<std::size_t>(at - elden.begin())] = static_cast<std::uint8_t>('g' + k);
    }
    for (const auto& order : {std::pair{&elden, &setups}, std::pair{&setups, &elden}}) {
        // Plain variables, not a structured binding: clang before 16 cannot capture one in a lambda.
        const std::vector<std::uint8_t>* first = order.first;
        const std::vector<std::uint8_t>* second = order.second;
        std::string fresh_text;
        std::thread([&] { fresh_text = read_model_text(*second, nullptr); }).join();
        NavTagfile kept;  // read on a thread that is gone when its layouts are looked at
        std::string kept_text;
        std::thread([&] {
            kept = read_nav_tagfile(*second);
            kept_text = model_text(kept, kept);
            std::vector<std::uint8_t> renamed = *first;
            const auto name = std::search(renamed.begin(), renamed.end(), std::begin("faces"), std::end("faces") - 1);
            if (name != renamed.end()) *name = 'z';
            read_model_text(*first, nullptr), read_model_text(renamed, nullptr);
            for (const auto& b : others) read_model_text(b, nullptr);
            EXPECT_EQ(read_model_text(*second, nullptr), fresh_text);
        }).join();
        EXPECT_EQ(model_text(kept, kept), kept_text);
        NavTagfile again = read_nav_tagfile(*second);
        const std::uint32_t face_size = again.layouts.face->size;
        kept.layouts.face.edit().size = face_size + 1;
        EXPECT_EQ(again.layouts.face->size, face_size);
        EXPECT_EQ(read_nav_tagfile(*second).layouts.face->size, face_size);
    }
}

// Review of the thirty-sixth session: the model reader finds each root variant's item by a scan
// over the items, which grew with variants × items on a hostile root of many variants (80,000
// variants: 5 s). Past a few lookups it builds a map once. Both ways must name the item a
// plain scan of the file names: the first pointer item at the variant's object.
TEST(NavTagfile, EveryRootVariantNamesItsObjectsFirstPointerItem) {
    havok::Builder b(havok::navmesh_types_2018());
    constexpr int kVariants = 40;  // past the reader's scans, so its map answers the rest
    for (int i = 0; i < kVariants; ++i)
        b.add_variant(b.object("hkaiUserEdgeSetupArray"), fmt::format("v{}", i), "hkaiUserEdgeSetupArray");
    const std::vector<std::uint8_t> bytes = b.finish();
    const NavTagfile nav = read_nav_tagfile(bytes);
    const havok::Tagfile file = havok::read_tagfile(bytes);
    const auto roots = file.named_variants();
    ASSERT_EQ(nav.variants.size(), static_cast<std::size_t>(kVariants));
    ASSERT_EQ(roots.size(), static_cast<std::size_t>(kVariants));
    for (int k = 0; k < kVariants; ++k) {
        ASSERT_TRUE(roots[k].object);
        havok::ItemIndex first = 0;
        for (havok::ItemIndex i = 1; i < file.items.size() && !first; ++i)
            if (file.items[i].kind == havok::ItemKind::Pointer && file.items[i].offset == roots[k].object->offset()) first = i;
        EXPECT_NE(first, 0u) << "variant " << k;
        EXPECT_EQ(nav.variants[k].item, first) << "variant " << k;
    }
}

// The model reader keeps find_member's answers per type table and thread (with the table's
// record layouts): a read whose table is kept (so memoised, and read twice so that the second
// read takes every answer from the memo) gives what a read of the same tagfile through a table
// that is not kept (a changed copy: every member looked up afresh) gives, model and errors.
TEST(NavTagfile, MemoisedMemberLookupsReadWhatFreshLookupsRead) {
    const std::vector<std::uint8_t> elden = write_nav_tagfile(elden_ring_like()), sekiro = write_nav_tagfile(sekiro_like());
    std::vector<std::vector<std::uint8_t>> tagfiles = {elden, sekiro};
    // "faces" renamed, each copy with another first letter: more type tables than the reader's
    // cache keeps (kTypeTablesKept), so reading them all replaces every entry; the model's read fails.
    const auto at = std::search(sekiro.begin(), sekiro.end(), std::begin("faces"), std::end("faces") - 1);
    ASSERT_NE(at, sekiro.end());
    for (std::size_t k = 0; k <= havok::kTypeTablesKept; ++k) {
        tagfiles.push_back(sekiro);
        tagfiles.back()[static_cast<std::size_t>(at - sekiro.begin())] = static_cast<std::uint8_t>('g' + k);
    }
    if (const auto sample = test::sample("havok/er/n10_01_00_00_001700.hkx")) tagfiles.push_back(read_file(*sample));
    // The plain read's model, kept: the memoised reads' meshes, graphs, setups and mediators
    // are compared with it, not with themselves.
    std::optional<NavTagfile> fresh;
    auto text_of = [&fresh](auto&& read) {
        try {
            const NavTagfile nav = read();
            return model_text(nav, fresh ? *fresh : nav) + fmt::format("\nfaces {} edges {} vertices {}", nav.mesh.faces.size(),
                                                                      nav.mesh.edges.size(), nav.mesh.vertices.size());
        } catch (const Error& e) {
            return fmt::format("error at {} in {}: {}", e.offset(), e.field(), e.what());
        }
    };
    for (const auto& b : tagfiles) {
        fresh.reset();
        auto plain_read = [&] {
            havok::Tagfile file = havok::read_tagfile(b);
            (void)file.types.at(1);  // a changed copy: not the table the reader's cache keeps
            return nav_from_tagfile(file);
        };
        const std::string plain = text_of(plain_read);
        try {
            fresh = plain_read();
        } catch (const Error&) {
        }
        EXPECT_TRUE(plain.find("\nmesh same") != std::string::npos || plain.starts_with("error at")) << plain.substr(0, 200);
        // Every other table read after b's, so b's entry is replaced before it is read again.
        for (const auto& other : tagfiles) (void)text_of([&] { return read_nav_tagfile(other); });
        for (int round = 0; round < 2; ++round) EXPECT_EQ(text_of([&] { return read_nav_tagfile(b); }), plain) << round;
    }
}

namespace {

/// The bytes of a model's mesh and graph, and their scalars, as text: the planned reads' values.
std::string mesh_and_graph_text(const NavTagfile& nav) {
    std::uint64_t hash = 14695981039346656037u;  // FNV-1a over every array's bytes
    auto add = [&hash](const auto& array) {
        const auto* p = reinterpret_cast<const std::uint8_t*>(array.data());
        for (std::size_t i = 0; i < array.size() * sizeof(array[0]); ++i) hash = (hash ^ p[i]) * 1099511628211u;
        hash = (hash ^ array.size()) * 1099511628211u;
    };
    const NavMesh& m = nav.mesh;
    add(m.faces), add(m.edges), add(m.vertices), add(m.faceData), add(m.edgeData);
    std::string out = fmt::format("\nmesh {} {} {} {} {} {}", m.faceDataStriding, m.edgeDataStriding, m.flags, m.userData,
                                  m.streaming_set_count, m.clearance_cache_data_count);
    if (nav.graph) {
        const DirectedGraph& g = *nav.graph;
        add(g.positions), add(g.nodes), add(g.edges), add(g.nodeData), add(g.edgeData);
        out += fmt::format("\ngraph {} {} {}", g.nodeDataStriding, g.edgeDataStriding, g.streaming_set_count);
    }
    return out + fmt::format("\nhash {:x}", hash);
}

/// Swaps the names of two members of `type`: the same classes, two members moved.
void swap_member_names(havok::TypeTable& t, const char* type, std::string_view x, std::string_view y) {
    for (havok::Member& m : t.at(t.find(type)).members) {
        if (m.name == x) m.name = y;
        else if (m.name == y) m.name = x;
    }
}

/// Renames a member of `type`: the model's member missing.
void rename_member(havok::TypeTable& t, const char* type, std::string_view from, std::string_view to) {
    for (havok::Member& m : t.at(t.find(type)).members)
        if (m.name == from) m.name = to;
}

/// A mesh whose faceData member is a string (hkStringPtr) in the TYPE section: a reference to an
/// array item of chars where the model reads an hkArray, which as_array refuses.
std::vector<std::uint8_t> string_face_data_tagfile() {
    havok::TypeTable types = havok::navmesh_types_2018();
    const havok::TypeIndex string = types.find("hkStringPtr");
    if (!string) throw Error("the 2018 type set has no hkStringPtr");
    for (havok::Member& m : types.at(types.find("hkaiNavMesh")).members)
        if (m.name == "faceData") m.type = string;
    havok::Builder b(std::move(types));
    const havok::NodeId mesh = b.object("hkaiNavMesh");
    b.set_string(b.at(mesh, "faceData"), "four");
    b.add_variant(mesh);
    return b.finish();
}

/// A mesh whose faceDataStriding member is of type `type` (hkReal: 4 bytes, as the int it
/// replaces, which as_int refuses; hkInt16: a narrower signed integer), holding -3.
std::vector<std::uint8_t> retyped_striding_tagfile(const char* type) {
    havok::TypeTable types = havok::navmesh_types_2018();
    const havok::TypeIndex index = types.find(type);
    if (!index) throw Error(fmt::format("the 2018 type set has no {}", type));
    for (havok::Member& m : types.at(types.find("hkaiNavMesh")).members)
        if (m.name == "faceDataStriding") m.type = index;
    const bool real = types[index].kind() == havok::Kind::Float;
    havok::Builder b(std::move(types));
    const havok::NodeId mesh = b.object("hkaiNavMesh");
    if (real) b.set_float(b.at(mesh, "faceDataStriding"), -3);
    else b.set_int(b.at(mesh, "faceDataStriding"), -3);
    b.add_variant(mesh);
    return b.finish();
}

}  // namespace

// The model reader finds the members it reads once per type table and object type (a plan) and
// reads each by its planned offset. A table whose members moved or are missing is another
// table: read right after tagfiles of the standard table planned the same classes, it must read
// what lookups by name read (a table the reader keeps no memo for: every member looked up
// afresh), model and error, and the moved members must hold the bytes their names point at.
TEST(NavTagfile, PlannedMembersReadWhatLookupsByNameRead) {
    const NavTagfile elden = elden_ring_like(), sekiro = sekiro_like();
    const std::vector<std::uint8_t> standard_elden = write_nav_tagfile(elden), standard_sekiro = write_nav_tagfile(sekiro);
    const std::vector<std::uint8_t> edge_ends_swapped = with_changed_types(
        [](havok::TypeTable& t) { swap_member_names(t, "hkaiNavMesh::Edge", "a", "b"); });
    const std::vector<std::uint8_t> data_swapped = with_changed_types(
        [](havok::TypeTable& t) { swap_member_names(t, "hkaiNavMesh", "faceData", "edgeData"); });
    const std::vector<std::uint8_t> arrays_swapped = with_changed_types(  // faces read from Edge records: refused
        [](havok::TypeTable& t) { swap_member_names(t, "hkaiNavMesh", "faces", "edges"); });
    const std::vector<std::uint8_t> no_user_data = with_changed_types(
        [](havok::TypeTable& t) { rename_member(t, "hkaiNavMesh", "userData", "userDatum"); });
    const std::vector<std::uint8_t> no_seeding = with_changed_types(  // an optional member: absent, no error
        [](havok::TypeTable& t) { rename_member(t, "hkaiNavMesh", "clearanceCacheSeedingDataSet", "seeding"); });
    const std::vector<std::uint8_t> setup_data_swapped = with_changed_types(  // read member by member, in place
        [](havok::TypeTable& t) { swap_member_names(t, "hkaiUserEdgeUtils::UserEdgeSetup", "userDataA", "userDataB"); });
    const std::vector<std::uint8_t> graph_swapped = with_changed_types(
        [](havok::TypeTable& t) { swap_member_names(t, "hkaiDirectedGraphExplicitCost::Node", "startEdgeIndex", "numEdges"); },
        sekiro);
    const std::vector<std::uint8_t> no_graph_edges = with_changed_types(
        [](havok::TypeTable& t) { rename_member(t, "hkaiDirectedGraphExplicitCost", "edges", "links"); }, sekiro);
    NavTagfile named = elden;  // variants named apart from their classes
    named.variants = {{"the mesh", "hkaiNavMesh", "", 0},
                      {"the mediator", "hkaiStaticTreeNavMeshQueryMediator", "", 0},
                      {"the setups", "hkaiUserEdgeSetupArray", "", 0}};
    const std::vector<std::uint8_t> variant_names_swapped = with_changed_types(
        [](havok::TypeTable& t) { swap_member_names(t, "hkRootLevelContainer::NamedVariant", "name", "className"); }, named);
    const std::vector<std::uint8_t> no_variant_target = with_changed_types(
        [](havok::TypeTable& t) { rename_member(t, "hkRootLevelContainer::NamedVariant", "variant", "target"); });
    std::vector<std::vector<std::uint8_t>> tagfiles = {standard_elden, standard_sekiro, edge_ends_swapped, data_swapped,
                                                       arrays_swapped, no_user_data,    no_seeding,        setup_data_swapped,
                                                       graph_swapped,  no_graph_edges,  string_face_data_tagfile(),
                                                       retyped_striding_tagfile("hkReal"),
                                                       retyped_striding_tagfile("hkInt16"),
                                                       variant_names_swapped,           no_variant_target};
    if (const auto sample = test::sample("havok/er/n10_01_00_00_001700.hkx")) tagfiles.push_back(read_file(*sample));
    auto text_of = [](auto&& read) {
        try {
            const NavTagfile nav = read();
            return model_text(nav, nav) + mesh_and_graph_text(nav);
        } catch (const Error& e) {
            return fmt::format("error at {} in {}: {}", e.offset(), e.field(), e.what());
        }
    };
    for (const auto& b : tagfiles) {
        const std::string by_name = text_of([&] {
            havok::Tagfile file = havok::read_tagfile(b);
            (void)file.types.at(1);  // a changed copy: not a table the reader keeps a memo (or plans) for
            return nav_from_tagfile(file);
        });
        for (int round = 0; round < 2; ++round) {
            (void)read_nav_tagfile(standard_elden), (void)read_nav_tagfile(standard_sekiro);
            EXPECT_EQ(text_of([&] { return read_nav_tagfile(b); }), by_name) << round;
        }
    }
    // The moved members hold the bytes their names point at, and every other member its own (the
    // records read member by member): the planned read against the model written.
    const NavTagfile ends = read_nav_tagfile(edge_ends_swapped);
    ASSERT_EQ(ends.mesh.edges.size(), elden.mesh.edges.size());
    for (std::size_t i = 0; i < ends.mesh.edges.size(); ++i) {
        Edge expected = elden.mesh.edges[i];
        std::swap(expected.a, expected.b);
        EXPECT_EQ(ends.mesh.edges[i], expected) << i;
    }
    const NavTagfile setups = read_nav_tagfile(setup_data_swapped);
    ASSERT_TRUE(setups.user_edge_setups && elden.user_edge_setups);
    ASSERT_EQ(setups.user_edge_setups->size(), elden.user_edge_setups->size());
    for (std::size_t i = 0; i < setups.user_edge_setups->size(); ++i) {
        UserEdgeSetup expected = (*elden.user_edge_setups)[i];
        std::swap(expected.userDataA, expected.userDataB);
        EXPECT_EQ((*setups.user_edge_setups)[i], expected) << i;
    }
    const NavTagfile data = read_nav_tagfile(data_swapped);
    EXPECT_TRUE(std::equal(data.mesh.faceData.begin(), data.mesh.faceData.end(), elden.mesh.edgeData.begin(), elden.mesh.edgeData.end()));
    EXPECT_TRUE(std::equal(data.mesh.edgeData.begin(), data.mesh.edgeData.end(), elden.mesh.faceData.begin(), elden.mesh.faceData.end()));
    const NavTagfile graph = read_nav_tagfile(graph_swapped);
    ASSERT_TRUE(graph.graph && sekiro.graph);
    ASSERT_EQ(graph.graph->nodes.size(), sekiro.graph->nodes.size());
    for (std::size_t i = 0; i < graph.graph->nodes.size(); ++i) {
        EXPECT_EQ(graph.graph->nodes[i].startEdgeIndex, sekiro.graph->nodes[i].numEdges) << i;
        EXPECT_EQ(graph.graph->nodes[i].numEdges, sekiro.graph->nodes[i].startEdgeIndex) << i;
    }
    EXPECT_FALSE(read_nav_tagfile(no_seeding).mesh.has_clearance_cache_seeding);
    EXPECT_THROW((void)read_nav_tagfile(no_user_data), Error);
    EXPECT_THROW((void)read_nav_tagfile(arrays_swapped), Error);
    EXPECT_THROW((void)read_nav_tagfile(no_graph_edges), Error);
    const NavTagfile variants = read_nav_tagfile(variant_names_swapped);
    ASSERT_EQ(variants.variants.size(), 3u);
    EXPECT_EQ(variants.variants[0].name, "hkaiNavMesh");
    EXPECT_EQ(variants.variants[0].className, "the mesh");
    EXPECT_THROW((void)read_nav_tagfile(no_variant_target), Error);
    EXPECT_THROW((void)read_nav_tagfile(string_face_data_tagfile()), Error);  // not an hkArray
    EXPECT_THROW((void)read_nav_tagfile(retyped_striding_tagfile("hkReal")), Error);  // not an integer
    EXPECT_EQ(read_nav_tagfile(retyped_striding_tagfile("hkInt16")).mesh.faceDataStriding, -3);  // sign-extended
}



namespace {

/// `bytes` with the root variants' name member declared in TBDY of the variant member's type (a
/// pointer), DATA unchanged: its slot still references a string's char array item, which
/// as_string refuses (not a string). The NamedVariant's three member records (FSTR index, flags,
/// offset, type: one-byte varints here) are found by their flags, offsets and types.
std::vector<std::uint8_t> variant_name_as_pointer(std::vector<std::uint8_t> bytes) {
    const havok::Tagfile file = havok::read_tagfile(bytes);
    const std::vector<havok::Member>& m = file.types[file.types.find("hkRootLevelContainer::NamedVariant")].members;
    if (m.size() != 3 || m[0].name != "name" || m[2].name != "variant") throw Error("unexpected NamedVariant members");
    std::array<int, 12> want{};  // -1: any byte (the FSTR index)
    for (std::size_t k = 0; k < 3; ++k) {
        if (m[k].flags > 127 || m[k].offset > 127 || m[k].type > 127) throw Error("a member field is not a one-byte varint");
        want[4 * k] = -1;
        want[4 * k + 1] = static_cast<int>(m[k].flags);
        want[4 * k + 2] = static_cast<int>(m[k].offset);
        want[4 * k + 3] = static_cast<int>(m[k].type);
    }
    std::vector<std::size_t> found;
    for (std::size_t i = 0; i + want.size() <= bytes.size(); ++i) {
        bool match = true;
        for (std::size_t j = 0; j < want.size() && match; ++j) match = want[j] < 0 || bytes[i + j] == want[j];
        if (match) found.push_back(i);
    }
    if (found.size() != 1) throw Error(fmt::format("{} places hold the NamedVariant's member records", found.size()));
    bytes[found[0] + 3] = static_cast<std::uint8_t>(m[2].type);
    return bytes;
}

}  // namespace

// A plan reads a member as a string in place only when the table declares it a string: the
// root variants' name declared a pointer (its slot still referencing a string) is refused as
// as_string refuses it, through the memo's plan as through a table without one.
TEST(NavTagfile, PlannedStringsAreDeclaredStrings) {
    const std::vector<std::uint8_t> bytes = variant_name_as_pointer(write_nav_tagfile(elden_ring_like()));
    auto text_of = [](const havok::Tagfile& file) {
        try {
            const NavTagfile nav = nav_from_tagfile(file);
            return model_text(nav, nav);
        } catch (const Error& e) {
            return fmt::format("error at {} in {}: {}", e.offset(), e.field(), e.what());
        }
    };
    for (int round = 0; round < 2; ++round) {  // the second through the plan made by the first
        havok::Tagfile file = havok::read_tagfile(bytes, {.verify_objects = false});
        ASSERT_TRUE(havok::type_table_is_kept(file.types));
        const std::string planned = text_of(file);
        EXPECT_NE(planned.find("is not a string"), std::string::npos) << planned.substr(0, 200);
        (void)file.types.at(1);  // a changed copy: no memo, no plan
        EXPECT_EQ(text_of(file), planned);
    }
}

// A planned hkArray, integer, string or pointer member (its type checked once per table) is read
// in place; when a check fails, as_array, as_int, as_uint, as_string or target answers. Every
// reference member the reader takes from the mesh, the graph and the root variants, its item
// index set to each item of the file (array and pointer items, the null item), one past the
// last and two values past 32 bits, and every integer member of the mesh and the graph, its
// bytes set to patterns with the top bit set and clear, read through the table's memo (the
// plan) and through a table without one (every accessor whole), must give the same model or
// error. The strict checks are off: they would refuse most of these references first.
TEST(NavTagfile, PlannedMembersReadWhatTheAccessorsRead) {
    for (const std::vector<std::uint8_t>& good : {write_nav_tagfile(elden_ring_like()), write_nav_tagfile(sekiro_like())}) {
        const havok::Tagfile strict = havok::read_tagfile(good);
        std::vector<std::uint64_t> places;  // DATA offsets of the reference members' item indices
        std::vector<std::pair<std::uint64_t, std::uint32_t>> integers;  // the integer members' offsets and sizes
        std::vector<havok::ObjectView> objects;
        for (const char* root : {"hkaiNavMesh", "hkaiDirectedGraphExplicitCost"})
            if (const std::optional<havok::ObjectView> object = strict.find_variant(root)) objects.push_back(*object);
        const std::size_t models = objects.size();
        const havok::ArrayView variants = strict.root().field("namedVariants").as_array();
        for (std::uint32_t i = 0; i < variants.size(); ++i) objects.push_back(variants.object(i));
        for (std::size_t o = 0; o < objects.size(); ++o) {
            for (const havok::Member& m : strict.types.all_members(objects[o].type_index())) {
                const havok::Type& type = strict.types[m.type];
                if (type.is_reference()) places.push_back(objects[o].offset() + m.offset);
                if (o < models && (type.kind() == havok::Kind::Int || type.kind() == havok::Kind::Bool))
                    integers.push_back({objects[o].offset() + m.offset, type.resolved_size});
            }
        }
        ASSERT_GE(places.size(), 16u);
        ASSERT_GE(integers.size(), 4u);
        std::vector<std::uint64_t> indices = {strict.items.size(), std::uint64_t{1} << 32 | 1, ~std::uint64_t{0}};
        for (std::uint64_t i = 0; i < strict.items.size(); ++i) indices.push_back(i);
        auto text_of = [](const havok::Tagfile& file) {
            try {
                const NavTagfile nav = nav_from_tagfile(file);
                return model_text(nav, nav) + mesh_and_graph_text(nav);
            } catch (const Error& e) {
                return fmt::format("error at {} in {}: {}", e.offset(), e.field(), e.what());
            }
        };
        auto expect_same_reads = [&](const std::vector<std::uint8_t>& bytes, const std::string& what) {
            havok::Tagfile file = havok::read_tagfile(bytes, {.verify_objects = false});
            ASSERT_TRUE(havok::type_table_is_kept(file.types));
            const std::string planned = text_of(file);
            (void)file.types.at(1);  // a changed copy: no memo, no plan
            EXPECT_EQ(text_of(file), planned) << what;
        };
        for (const auto& [place, size] : integers) {
            for (const std::uint64_t pattern : {std::uint64_t{0}, ~std::uint64_t{0}, std::uint64_t{0x8000000000000080},
                                                std::uint64_t{0x7F7F7F7F7F7F7F7F}, std::uint64_t{0x0102030405068090}}) {
                std::vector<std::uint8_t> bytes = good;
                for (std::uint32_t k = 0; k < size && k < 8; ++k)
                    bytes[strict.data_offset + place + k] = static_cast<std::uint8_t>(pattern >> (8 * (size - 1 - k)));
                expect_same_reads(bytes, fmt::format("integer at {}, pattern {:x}", place, pattern));
            }
        }
        for (const std::uint64_t place : places) {
            for (const std::uint64_t index : indices) {
                std::vector<std::uint8_t> bytes = good;
                for (int k = 0; k < 8; ++k) bytes[strict.data_offset + place + k] = static_cast<std::uint8_t>(index >> (8 * k));
                expect_same_reads(bytes, fmt::format("member at {}, item {}", place, index));
            }
        }
    }
}

// A setup type whose layout is not the model's is read member by member, in place: a field of
// the model's width copied (neighbours in the file and the model as one copy), a 4-byte float
// widened and narrowed on its bits (a signalling NaN comes back quiet). Each setup must be
// what a plain reading by Values gives: the member's bytes, or static_cast<float> of as_float.
TEST(NavTagfile, SetupsReadInPlaceEqualAPlainReading) {
    NavTagfile nav = sekiro_like();
    nav.user_edge_setups->clear();
    for (std::uint32_t i = 0; i < 6; ++i) {
        UserEdgeSetup s = sample_setup(static_cast<float>(i) - 2.5f);
        s.userDataA = 0xA1B2C3D4u + i, s.userDataB = 0x5E6F7081u * (i + 1);  // every byte not zero
        s.direction = static_cast<std::uint8_t>(0x81 + i), s.forceAlign = static_cast<std::uint8_t>(0xF0 - i);
        nav.user_edge_setups->push_back(s);
    }
    const std::vector<std::uint8_t> moved = with_changed_types(  // two integers and two floats swapped
        [](havok::TypeTable& t) {
            swap_member_names(t, "hkaiUserEdgeUtils::UserEdgeSetup", "userDataA", "userDataB");
            swap_member_names(t, "hkaiUserEdgeUtils::UserEdgeSetup", "costAtoB", "costBtoA");
        },
        nav);
    constexpr std::uint32_t kFloatBits[] = {0x7F800001u, 0x7FA00000u, 0xFFBFFFFFu, 0x7FC00001u, 0x7F800000u,
                                            0x00000001u, 0x80000000u, 0x3FC00000u, 0xFF800123u, 0x807FFFFFu};
    struct Field {
        const char* name;
        std::size_t offset, size;
    };
    const Field fields[] = {{"obbA", offsetof(UserEdgeSetup, obbA), sizeof(Obb)},
                            {"obbB", offsetof(UserEdgeSetup, obbB), sizeof(Obb)},
                            {"userDataA", offsetof(UserEdgeSetup, userDataA), 4},
                            {"userDataB", offsetof(UserEdgeSetup, userDataB), 4},
                            {"costAtoB", offsetof(UserEdgeSetup, costAtoB), 4},
                            {"costBtoA", offsetof(UserEdgeSetup, costBtoA), 4},
                            {"worldUpA", offsetof(UserEdgeSetup, worldUpA), 16},
                            {"worldUpB", offsetof(UserEdgeSetup, worldUpB), 16},
                            {"direction", offsetof(UserEdgeSetup, direction), 1},
                            {"space", offsetof(UserEdgeSetup, space), 1},
                            {"forceAlign", offsetof(UserEdgeSetup, forceAlign), 1}};
    for (std::size_t round = 0; round < std::size(kFloatBits); ++round) {
        std::vector<std::uint8_t> bytes = moved;
        const havok::Tagfile plain = havok::read_tagfile(bytes);
        const havok::ArrayView array = plain.find_variant("hkaiUserEdgeSetupArray")->field("edgeSetups").as_array();
        ASSERT_EQ(array.size(), 6u);
        for (std::uint32_t i = 0; i < array.size(); ++i)
            for (const char* cost : {"costAtoB", "costBtoA"}) {  // every pattern in some field of some round
                const std::uint32_t bits = kFloatBits[(round + 2 * i + (cost[4] == 'B')) % std::size(kFloatBits)];
                std::memcpy(bytes.data() + plain.data_offset + array.object(i).field(cost).offset(), &bits, 4);
            }
        const havok::Tagfile file = havok::read_tagfile(bytes);
        const havok::ArrayView setups = file.find_variant("hkaiUserEdgeSetupArray")->field("edgeSetups").as_array();
        const std::uint64_t in_place_before = record_arrays_read_in_place();
        const NavTagfile back = read_nav_tagfile(bytes);
        // The setups' layout is not the model's: the copy plan must have read them in place
        // (a fallback member by member would give the same values, so the count tells).
        EXPECT_EQ(record_arrays_read_in_place(), in_place_before + 1) << "round " << round;
        ASSERT_TRUE(back.user_edge_setups);
        ASSERT_EQ(back.user_edge_setups->size(), setups.size());
        for (std::uint32_t i = 0; i < setups.size(); ++i) {
            const auto* record = reinterpret_cast<const std::uint8_t*>(&(*back.user_edge_setups)[i]);
            for (const Field& f : fields) {
                const havok::Value v = setups.object(i).field(f.name);
                std::vector<std::uint8_t> want(f.size);
                if (v.kind() == havok::Kind::Float) {
                    const float narrowed = static_cast<float>(v.as_float());
                    std::memcpy(want.data(), &narrowed, 4);
                } else {
                    ASSERT_EQ(v.bytes().size(), f.size) << f.name;
                    std::memcpy(want.data(), v.bytes().data(), f.size);
                }
                EXPECT_EQ(std::vector<std::uint8_t>(record + f.offset, record + f.offset + f.size), want)
                    << "setup " << i << " " << f.name << " round " << round;
            }
        }
    }
}
