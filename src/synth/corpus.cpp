#include "synth/corpus.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <sstream>

#include "build/binder_names.h"
#include "container/bnd4.h"
#include "formats/fromsoft/aabb_tree6.h"
#include "formats/fromsoft/cluster_graph.h"
#include "io/error.h"
#include "io/parallel.h"
#include "synth/extras.h"
#include "synth/map_names.h"
#include "synth/scene.h"

namespace navlab::synth {

Preset parse_preset(const std::string& name) {
    if (name == "small") return Preset::Small;
    if (name == "sekiro") return Preset::Sekiro;
    if (name == "eldenring") return Preset::EldenRing;
    throw Error("unknown preset '" + name + "' (small, sekiro or eldenring)");
}

namespace {

/// Largest mesh (faces) a tile of the preset can give; beyond it the crop would run out.
struct TotalsAndCap {
    GameTotals totals;
    int max_faces;
};

std::vector<TotalsAndCap> preset_table(Preset preset) {
    // The page's figures: binders, tagfiles, empty meshes (ER: alone + with tree), faces, user
    // edges (meshes with them, in face order), setup arrays (setups), userData 1, seeding on
    // empty meshes (6,053 - 3,411).
    const GameTotals sekiro{Game::Sekiro, 10, 1509, 94, 0, 279053, 0, 0, 0, 430, 1463, 0, 0,
                            kSekiroStyle.faces_per_cluster, 8, 160};
    const GameTotals elden_ring{Game::EldenRing, 695, 7438, 4027, 2610, 6317094, 2597337, 1696, 82, 188, 673, 40,
                               2642, 0, 32, 320};
    switch (preset) {
        case Preset::Sekiro: return {{sekiro, 1000}};
        case Preset::EldenRing: return {{elden_ring, 6000}};
        case Preset::Small:
            return {{{Game::Sekiro, 2, 24, 2, 0, 4000, 0, 0, 0, 5, 16, 0, 0, kSekiroStyle.faces_per_cluster, 2, 96}, 330},
                    {{Game::EldenRing, 2, 20, 11, 7, 9000, 3600, 5, 1, 2, 7, 1, 4, 0, 2, 192}, 1500}};
    }
    return {};
}

/// Splits `total` into `n` parts of at least `min_each` and at most `cap`, heavy-tailed
/// (weights 0.05 + u^3), by largest remainder so the parts add up exactly.
std::vector<std::int64_t> split_total(std::int64_t total, int n, std::int64_t min_each, std::int64_t cap, Rng& rng) {
    std::vector<std::int64_t> parts(n, min_each);
    if (n == 0) return parts;
    std::int64_t rest = total - min_each * n;
    std::vector<double> w(n);
    for (double& x : w) {
        double u = rng.unit();
        x = 0.05 + u * u * u;
    }
    const double sum = std::accumulate(w.begin(), w.end(), 0.0);
    std::vector<std::pair<double, int>> remainders;
    std::int64_t given = 0;
    for (int i = 0; i < n; ++i) {
        const double ideal = static_cast<double>(rest) * w[i] / sum;
        const auto whole = static_cast<std::int64_t>(ideal);
        parts[i] += whole;
        given += whole;
        remainders.push_back({ideal - static_cast<double>(whole), i});
    }
    std::stable_sort(remainders.begin(), remainders.end(), [](auto& a, auto& b) { return a.first > b.first; });
    for (std::int64_t k = 0; k < rest - given; ++k) ++parts[remainders[k % n].second];
    // Parts over the cap give their excess to parts below it.
    std::int64_t excess = 0;
    for (auto& p : parts)
        if (p > cap) {
            excess += p - cap;
            p = cap;
        }
    for (int i = 0; excess > 0 && i < n; ++i) {
        const std::int64_t add = std::min(excess, cap - parts[i]);
        parts[i] += add;
        excess -= add;
    }
    return parts;
}

/// k distinct indices of [0, n), sorted.
std::vector<int> pick(int n, int k, Rng& rng) {
    std::vector<int> all(n);
    std::iota(all.begin(), all.end(), 0);
    k = std::min(k, n);
    for (int i = 0; i < k; ++i) std::swap(all[i], all[i + rng.below(static_cast<std::uint32_t>(n - i))]);
    all.resize(k);
    std::sort(all.begin(), all.end());
    return all;
}

std::vector<std::string> map_names(Game game, int count) {
    std::istringstream in(game == Game::Sekiro ? kSekiroMapNames : kEldenRingMapNames);
    std::vector<std::string> names;
    for (std::string s; in >> s;) names.push_back(s);
    // The page counts one more Elden Ring binder than the 2022 dictionary lists.
    for (int extra = 0; static_cast<int>(names.size()) < count; ++extra)
        names.push_back(fmt::format("m61_{:02}_00_00", extra));
    names.resize(count);
    return names;
}

build::FromGame from_game(Game game) { return game == Game::Sekiro ? build::FromGame::Sekiro : build::FromGame::EldenRing; }

void plan_game(const TotalsAndCap& tc, std::uint64_t seed, std::vector<BinderPlan>& out) {
    const GameTotals& t = tc.totals;
    Rng rng(derive_seed(seed, static_cast<std::uint64_t>(t.game) + 100));
    const auto per_binder = split_total(t.tagfiles, t.binders, 1, t.tagfiles, rng);
    const auto maps = map_names(t.game, t.binders);
    std::vector<EntryPlan*> all;
    const std::size_t first = out.size();
    for (int b = 0; b < t.binders; ++b) {
        BinderPlan bp{t.game, maps[b], build::navmesh_archive_path(from_game(t.game), maps[b]), {}};
        const int k = static_cast<int>(per_binder[b]);
        // Elden Ring binders hold hi-res n and lo-res o meshes; ids 10000+i and 20000+i.
        const int n_count = t.game == Game::Sekiro ? k : k - k / 3;
        for (int i = 0; i < k; ++i) {
            const bool hi = i < n_count;
            const int j = hi ? i : i - n_count;
            EntryPlan e;
            e.name = build::navmesh_member_name(from_game(t.game), maps[b], hi ? 'n' : 'o', build::navmesh_model_number(j));
            e.id = build::navmesh_member_id(hi ? 'n' : 'o', j);
            e.seed = derive_seed(derive_seed(seed, (static_cast<std::uint64_t>(t.game) << 32) | b), i);
            bp.entries.push_back(std::move(e));
        }
        out.push_back(std::move(bp));
    }
    for (std::size_t b = first; b < out.size(); ++b)
        for (auto& e : out[b].entries) all.push_back(&e);
    const int n = static_cast<int>(all.size());

    // Empty meshes, then the faces over the others.
    std::vector<char> empty(n, 0);
    const auto empties = pick(n, t.empty_meshes, rng);
    for (int i : empties) empty[i] = 1;
    for (int i : pick(static_cast<int>(empties.size()), t.empty_with_tree, rng)) all[empties[i]]->empty_tree = true;
    for (int i : pick(static_cast<int>(empties.size()), t.seeding_on_empty, rng)) all[empties[i]]->seeding = true;
    std::vector<EntryPlan*> meshes;
    for (int i = 0; i < n; ++i)
        if (!empty[i]) meshes.push_back(all[i]);
    const int m = static_cast<int>(meshes.size());
    const auto faces = split_total(t.faces, m, 4, tc.max_faces, rng);
    for (int i = 0; i < m; ++i) {
        meshes[i]->faces = static_cast<int>(faces[i]);
        meshes[i]->seeding = true;
        meshes[i]->tile = static_cast<int>(rng.below(static_cast<std::uint32_t>(t.library_tiles)));
    }
    // Setup arrays, userData 1 and user edges on meshes with faces.
    const auto with_setups = pick(m, t.setup_arrays, rng);
    const auto setups = split_total(t.setups, static_cast<int>(with_setups.size()), 1, 64, rng);
    for (std::size_t i = 0; i < with_setups.size(); ++i) meshes[with_setups[i]]->setups = static_cast<int>(setups[i]);
    for (int i : pick(m, t.user_data_one, rng)) meshes[i]->user_data_one = true;
    const auto with_user_edges = pick(m, t.meshes_with_user_edges, rng);
    std::int64_t faces_with_user_edges = 0;
    for (int i : with_user_edges) faces_with_user_edges += meshes[i]->faces;
    std::int64_t given = 0;
    for (std::size_t k = 0; k < with_user_edges.size(); ++k) {
        EntryPlan* e = meshes[with_user_edges[k]];
        const std::int64_t share = k + 1 == with_user_edges.size()
                                       ? t.user_edges - given
                                       : t.user_edges * e->faces / std::max<std::int64_t>(1, faces_with_user_edges);
        e->user_edges = static_cast<int>(share);
        given += share;
    }
    for (int i : pick(static_cast<int>(with_user_edges.size()), t.user_edges_in_face_order, rng))
        meshes[with_user_edges[i]]->user_edges_in_face_order = true;
}

/// Empty meshes: the page does not describe their box; a zero box carrying the margin.
fromsoft::Aabb empty_aabb(float margin) {
    fromsoft::Aabb box;
    box.min.w = -margin;
    box.max.w = margin;
    return box;
}

}  // namespace

std::vector<GameTotals> preset_totals(Preset preset) {
    std::vector<GameTotals> out;
    for (const auto& tc : preset_table(preset)) out.push_back(tc.totals);
    return out;
}

std::vector<BinderPlan> plan_corpus(Preset preset, std::uint64_t seed) {
    std::vector<BinderPlan> binders;
    for (const auto& tc : preset_table(preset)) plan_game(tc, seed, binders);
    return binders;
}

TileLibrary build_tile_library(Preset preset, std::uint64_t seed, unsigned threads) {
    struct Job {
        Game game;
        float size;
        int index;
    };
    std::vector<Job> jobs;
    for (const auto& t : preset_totals(preset))
        for (int i = 0; i < t.library_tiles; ++i) jobs.push_back({t.game, t.tile_size, i});
    std::vector<LibraryTile> tiles(jobs.size());
    parallel_for(jobs.size(), threads, [&](std::size_t j) {
        const Job& job = jobs[j];
        SceneParams sp;
        sp.size = job.size;
        sp.buildings = static_cast<int>(job.size * job.size / 1200);
        sp.bridges = static_cast<int>(job.size / 50) + 1;
        sp.rocks = static_cast<int>(job.size * job.size / 400);
        RecastParams rp;
        const GameStyle& style = style_of(job.game);
        rp.cell_size = style.cell_size;
        rp.detail_sample_distance = style.detail_sample_distance;
        rp.detail_max_error = style.detail_max_error;
        const std::uint64_t scene_seed = derive_seed(seed, 0x7113000ull + (static_cast<std::uint64_t>(job.game) << 16) + job.index);
        tiles[j] = make_library_tile(build_recast_mesh(make_scene(sp, scene_seed), rp));
    });
    TileLibrary lib;
    for (std::size_t j = 0; j < jobs.size(); ++j)
        (jobs[j].game == Game::Sekiro ? lib.sekiro : lib.elden_ring).push_back(std::move(tiles[j]));
    return lib;
}

fromsoft::NavTagfile make_tagfile(const BinderPlan& binder, const EntryPlan& entry, const TileLibrary& library) {
    const GameStyle& style = style_of(binder.game);
    Rng rng(entry.seed);
    fromsoft::NavTagfile t;
    t.sdk_version = style.sdk_version;
    // Elden Ring margins: 2.4 most often, then 2, then 8 (the page gives no shares).
    const double u = rng.unit();
    const std::uint32_t margin_bits = style.margins[style.margins.size() == 1 ? 0 : u < 0.6 ? 1 : u < 0.9 ? 0 : 2];
    float margin;
    std::memcpy(&margin, &margin_bits, 4);
    fromsoft::NavMesh& mesh = t.mesh;
    if (entry.faces > 0) {
        MeshRecipe recipe;
        recipe.faces = entry.faces;
        recipe.seed = rng.next();
        recipe.offset = {rng.range(-300, 300), rng.range(-40, 40), rng.range(-300, 300)};
        recipe.quarter_turns = static_cast<int>(rng.below(4));
        mesh = shape_navmesh(library.of(binder.game)[entry.tile], recipe, style);
        if (binder.game == Game::Sekiro) assign_clusters(mesh, style.faces_per_cluster, rng);
        add_user_edges(mesh, entry.user_edges, entry.user_edges_in_face_order, style.separate_user_edge_ends, rng);
        mesh.aabb = mesh_aabb(mesh, margin_bits, rng.chance(style.exact_aabb_share), rng);
    } else {
        mesh.aabb = empty_aabb(margin);
    }
    mesh.userData = entry.user_data_one ? 1 : 0;
    mesh.has_clearance_cache_seeding = entry.seeding;
    if (binder.game == Game::Sekiro) t.graph = fromsoft::make_directed_graph(mesh, fromsoft::build_cluster_graph(mesh));
    else if (entry.faces > 0 || entry.empty_tree) t.mediator = fromsoft::build_query_mediator(mesh);
    if (entry.setups > 0) {
        t.user_edge_setups = make_user_edge_setups(binder.game, mesh.aabb, entry.setups, rng);
    }
    return t;
}

}  // namespace navlab::synth
