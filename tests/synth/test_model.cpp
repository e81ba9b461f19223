// Step 1 of the synthetic corpus: Recast geometry shaped into navmesh models that hold the
// page's universal properties, deterministically.
#include <gtest/gtest.h>

#include <set>

#include "formats/fromsoft/aabb_tree6.h"
#include "synth/corpus.h"
#include "synth/extras.h"
#include "build/recast_mesh.h"
#include "synth/rng.h"
#include "synth/scene.h"
#include "synth/model_checks.h"  // tests/synth

using namespace navlab;
using namespace navlab::synth;

TEST(SynthRng, SplitMix64ReferenceValues) {
    Rng r(0);
    EXPECT_EQ(r.next(), 0xE220A8397B1DCDAFull);  // splitmix64's published first output for seed 0
    EXPECT_EQ(r.next(), 0x6E789E6AA1B965F4ull);
    Rng a(7), b(7);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(a.below(1000), b.below(1000));
}

TEST(SynthRecast, TileIsCounterClockwiseAndWelded) {
    SceneParams sp;
    sp.size = 64;
    const PolyMesh pm = build_recast_mesh(make_scene(sp, 5), RecastParams{});
    ASSERT_GT(pm.polys.size(), 100u);
    for (const auto& ring : pm.polys) {
        ASSERT_EQ(ring.size(), 3u);
        double ny = 0;
        for (std::size_t k = 0; k < 3; ++k) {
            const auto& p = pm.verts[ring[k]];
            const auto& q = pm.verts[ring[(k + 1) % 3]];
            ny += static_cast<double>(p[2]) * q[0] - static_cast<double>(p[0]) * q[2];
        }
        EXPECT_GE(ny, 0);
    }
    const LibraryTile tile = make_library_tile(pm);
    std::size_t linked = 0;
    for (const auto& n : tile.neighbours) linked += !n.empty();
    EXPECT_GT(linked, pm.polys.size() * 9 / 10) << "welding joins the polygons' detail triangles";
}

namespace {

struct SmallCorpus {
    std::vector<BinderPlan> plan;
    TileLibrary library;
    std::vector<std::vector<fromsoft::NavTagfile>> tagfiles;
};

const SmallCorpus& small_corpus() {
    static const SmallCorpus corpus = [] {
        SmallCorpus c;
        c.plan = plan_corpus(Preset::Small, 1);
        c.library = build_tile_library(Preset::Small, 1, 2);
        for (const auto& b : c.plan) {
            c.tagfiles.emplace_back();
            for (const auto& e : b.entries) c.tagfiles.back().push_back(make_tagfile(b, e, c.library));
        }
        return c;
    }();
    return corpus;
}

}  // namespace

TEST(SynthPlan, SplitsThePresetTotalsExactly) {
    for (Preset p : {Preset::Small, Preset::Sekiro, Preset::EldenRing}) {
        const auto plan = plan_corpus(p, 3);
        for (const auto& t : preset_totals(p)) {
            int binders = 0, tagfiles = 0, empty = 0, empty_tree = 0, setup_arrays = 0, setups = 0;
            std::int64_t faces = 0, user_edges = 0;
            for (const auto& b : plan) {
                if (b.game != t.game) continue;
                ++binders;
                for (std::size_t i = 0; i < b.entries.size(); ++i) {
                    const auto& e = b.entries[i];
                    ++tagfiles;
                    empty += e.faces == 0;
                    empty_tree += e.empty_tree;
                    faces += e.faces;
                    user_edges += e.user_edges;
                    setup_arrays += e.setups > 0;
                    setups += e.setups;
                    if (i > 0) {
                        EXPECT_LT(b.entries[i - 1].id, e.id) << "entries sorted by id";
                    }
                }
            }
            EXPECT_EQ(binders, t.binders);
            EXPECT_EQ(tagfiles, t.tagfiles);
            EXPECT_EQ(empty, t.empty_meshes);
            EXPECT_EQ(empty_tree, t.empty_with_tree);
            EXPECT_EQ(faces, t.faces);
            EXPECT_EQ(user_edges, t.user_edges);
            EXPECT_EQ(setup_arrays, t.setup_arrays);
            EXPECT_EQ(setups, t.setups);
        }
    }
}

TEST(SynthPlan, NamesFollowTheBinderConventions) {
    const auto plan = plan_corpus(Preset::Small, 3);
    ASSERT_FALSE(plan.empty());
    EXPECT_EQ(plan[0].archive_path, "/map/m10_00_00_00/m10_00_00_00.nvmhktbnd.dcx");
    EXPECT_EQ(plan[0].entries[0].name,
              "N:\\NTC\\data\\Target\\INTERROOT_win64\\map\\m10_00_00_00\\navimesh\\bind6\\n10_00_00_00_001000.hkx");
    EXPECT_EQ(plan[0].entries[0].id, 10000);
    bool sawO = false;
    for (const auto& b : plan)
        if (b.game == Game::EldenRing) {
            EXPECT_EQ(b.archive_path.rfind("/map/m", 0), 0u);
            for (const auto& e : b.entries) {
                EXPECT_EQ(e.name.rfind("N:\\GR\\data\\INTERROOT_win64\\map\\", 0), 0u);
                if (e.id >= 20000) {
                    sawO = true;
                    EXPECT_NE(e.name.find("\\bind6\\o"), std::string::npos);
                }
            }
        }
    EXPECT_TRUE(sawO);
}

TEST(SynthModel, SmallPresetHoldsTheUniversalProperties) {
    const auto& c = small_corpus();
    std::int64_t faces[2] = {0, 0};
    for (std::size_t b = 0; b < c.plan.size(); ++b) {
        const Game game = c.plan[b].game;
        for (std::size_t i = 0; i < c.plan[b].entries.size(); ++i) {
            const auto& e = c.plan[b].entries[i];
            const auto& t = c.tagfiles[b][i];
            SCOPED_TRACE(e.name);
            EXPECT_EQ(t.sdk_version, game == Game::Sekiro ? 20160200u : 20180100u);
            EXPECT_EQ(static_cast<int>(t.mesh.faces.size()), e.faces);
            faces[game == Game::EldenRing] += static_cast<std::int64_t>(t.mesh.faces.size());
            checks::check_mesh(t.mesh, game);
            if (t.user_edge_setups) checks::check_setups(*t.user_edge_setups, game);
            EXPECT_EQ(t.graph.has_value(), game == Game::Sekiro);
            EXPECT_EQ(t.mediator.has_value(), game == Game::EldenRing && (e.faces > 0 || e.empty_tree));
            EXPECT_EQ(t.user_edge_setups.has_value(), e.setups > 0);
            const int user_edges = static_cast<int>(t.mesh.edges.size()) -
                                  [&] { int r = 0; for (auto& f : t.mesh.faces) r += f.numEdges; return r; }();
            EXPECT_EQ(user_edges, e.user_edges);
            if (game == Game::Sekiro && e.faces > 0) {
                int maxCluster = -1;
                std::vector<char> used(t.mesh.faces.size(), 0);
                for (const auto& f : t.mesh.faces) {
                    maxCluster = std::max<int>(maxCluster, f.clusterIndex);
                    used[f.clusterIndex] = 1;
                }
                for (int k = 0; k <= maxCluster; ++k) EXPECT_TRUE(used[k]) << "every cluster number used";
            }
        }
    }
    EXPECT_EQ(faces[0], 4000);
    EXPECT_EQ(faces[1], 9000);
}

TEST(SynthModel, ShapedFacesHaveThePagesGeometry) {
    const auto& c = small_corpus();
    for (std::size_t b = 0; b < c.plan.size(); ++b) {
        const GameStyle& style = style_of(c.plan[b].game);
        int clockwise = 0, degenerate = 0, nonConvex = 0, faces = 0;
        double maxOff = 0;
        for (const auto& t : c.tagfiles[b]) {
            const auto& m = t.mesh;
            for (int f = 0; f < static_cast<int>(m.faces.size()); ++f) {
                ++faces;
                maxOff = std::max(maxOff, face_off_plane(m, f));
                const auto& face = m.faces[f];
                double ny = 0;
                bool left = false, right = false;
                for (int k = 0; k < face.numEdges; ++k) {
                    auto at = [&](int j) { return m.vertices[m.edges[face.startEdgeIndex + (k + j) % face.numEdges].a]; };
                    const auto p = at(0), q = at(1), s = at(2);
                    ny += static_cast<double>(p.z) * q.x - static_cast<double>(p.x) * q.z;
                    const double turn = (static_cast<double>(q.z) - p.z) * (static_cast<double>(s.x) - q.x) -
                                        (static_cast<double>(q.x) - p.x) * (static_cast<double>(s.z) - q.z);
                    left |= turn > 0;
                    right |= turn < 0;
                }
                clockwise += ny < 0;
                degenerate += ny == 0;
                nonConvex += ny > 0 && right;
            }
        }
        SCOPED_TRACE(c.plan[b].map);
        EXPECT_LE(maxOff, style.max_off_plane + 0.005);
        EXPECT_GT(maxOff, style.max_off_plane * 0.5) << "corners are pushed off plane";
        EXPECT_GT(nonConvex, 0);
        EXPECT_LT(nonConvex, faces / 10);
        EXPECT_LT(clockwise + degenerate, faces / 50 + 3);
    }
}

TEST(SynthModel, SameSeedSameModel) {
    const auto& c = small_corpus();
    const auto library = build_tile_library(Preset::Small, 1, 1);
    for (std::size_t b = 0; b < c.plan.size(); ++b)
        for (std::size_t i = 0; i < c.plan[b].entries.size(); ++i) {
            const auto again = make_tagfile(c.plan[b], c.plan[b].entries[i], library);
            const auto& first = c.tagfiles[b][i].mesh;
            // Field by field; no float here is NaN, so equal values mean the same model.
            EXPECT_EQ(again.mesh.faces, first.faces);
            EXPECT_EQ(again.mesh.edges, first.edges);
            EXPECT_EQ(again.mesh.vertices, first.vertices);
            EXPECT_EQ(again.mesh.faceData, first.faceData);
            EXPECT_EQ(again.mesh.aabb, first.aabb);
        }
}

TEST(SynthModel, SekiroGraphsAndEldenRingTreesMatchTheirMeshes) {
    const auto& c = small_corpus();
    for (std::size_t b = 0; b < c.plan.size(); ++b)
        for (const auto& t : c.tagfiles[b]) {
            const auto& m = t.mesh;
            if (t.graph) {
                // One node per cluster; an edge x -> y exactly when faces of x and y are opposite.
                int clusters = 0;
                for (const auto& f : m.faces) clusters = std::max(clusters, f.clusterIndex + 1);
                ASSERT_EQ(static_cast<int>(t.graph->nodes.size()), clusters);
                std::set<std::pair<int, int>> adjacent, edges;
                for (const auto& f : m.faces)
                    for (int k = 0; k < f.numEdges; ++k) {
                        const auto g = m.edges[f.startEdgeIndex + k].oppositeFace;
                        if (g != fromsoft::kNoOpposite && m.faces[g].clusterIndex != f.clusterIndex)
                            adjacent.insert({f.clusterIndex, m.faces[g].clusterIndex});
                    }
                int start = 0;
                for (std::size_t x = 0; x < t.graph->nodes.size(); ++x) {
                    EXPECT_EQ(t.graph->nodes[x].startEdgeIndex, start);
                    for (int k = 0; k < t.graph->nodes[x].numEdges; ++k)
                        edges.insert({static_cast<int>(x), static_cast<int>(t.graph->edges[start + k].target)});
                    start += t.graph->nodes[x].numEdges;
                }
                EXPECT_EQ(edges, adjacent);
                for (const auto& p : t.graph->positions) {
                    EXPECT_GE(p.x, m.aabb.min.x);
                    EXPECT_LE(p.x, m.aabb.max.x);
                    EXPECT_GE(p.z, m.aabb.min.z);
                    EXPECT_LE(p.z, m.aabb.max.z);
                }
            }
            if (t.mediator) {
                EXPECT_EQ(t.mediator->nodes.size(), m.faces.empty() ? 0 : 2 * m.faces.size() - 1);
                const auto tree = fromsoft::decode_aabb_tree6(t.mediator->nodes, t.mediator->domain);
                ASSERT_TRUE(tree.valid) << tree.problem;
                std::vector<int> seen(m.faces.size(), 0);
                for (const auto& leaf : tree.leaves) ++seen.at(leaf.face);
                for (int s : seen) EXPECT_EQ(s, 1) << "one leaf per face";
                if (m.faces.empty()) {
                    EXPECT_EQ(t.mediator->domain.max.x, FLT_MAX);
                }
            }
        }
}
