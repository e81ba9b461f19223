// bench_cluster_guide: `corridor` mode with and without the Sekiro cluster guide
// (query/cluster_guide.h) on bench_query's Recast meshes, clustered as Sekiro is (13 faces per
// cluster, the page's mean) with the cluster graph the seed page defines. No real Sekiro
// navmesh is among the samples. Fixed random face-centre pairs in one island, one thread.
// Prints queries per second unguided and guided (ratio = speed-up), the share of pairs whose
// corridor (face list) changed, and the guided/unguided xz length ratio; the same again for
// the longest quarter of the pairs (straight xz distance).
//
// Usage: bench_cluster_guide [--pairs N] [--small-only] (defaults: 300 pairs on the small
// 230 m mesh and on the large 800 m multi-level one).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "bench_options.h"
#include "build/clusters.h"
#include "formats/fromsoft/cluster_graph.h"
#include "query/cluster_guide.h"
#include "query/navmesh_query.h"
#include "support/detour_mesh.h"
#include "support/recast_polygons.h"
#include "synth/style.h"

using namespace navlab;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Outcome {
    double seconds = 0;
    std::vector<query::PathResult> results;
};

Outcome timed(const query::NavMeshQuery& q, const std::vector<testing::CentrePair>& pairs, const std::vector<std::size_t>& which,
              const query::QueryFilter& f) {
    Outcome o;
    const query::Vec3 ext{0.05, 1.0, 0.05};
    auto t0 = Clock::now();
    for (std::size_t i : which) o.results.push_back(q.find_path(pairs[i].s, pairs[i].e, query::PathMode::Corridor, f, ext));
    o.seconds = seconds_since(t0);
    return o;
}

void report(const char* what, const query::NavMeshQuery& q, const std::vector<testing::CentrePair>& pairs,
            const std::vector<std::size_t>& which, const query::QueryFilter& guided) {
    // Best of 3 runs of each, interleaved, so the shared machine's noise hits both alike.
    Outcome u, g;
    double tu = 1e30, tg = 1e30;
    for (int run = 0; run < 3; ++run) {
        u = timed(q, pairs, which, {});
        g = timed(q, pairs, which, guided);
        tu = std::min(tu, u.seconds), tg = std::min(tg, g.seconds);
    }
    int changed = 0, lost = 0;
    double sum = 0, worst = 0, best = 1e30;
    std::size_t n = 0;
    for (std::size_t k = 0; k < which.size(); ++k) {
        if (u.results[k].status != query::PathStatus::Found) continue;
        if (g.results[k].status != query::PathStatus::Found) {
            ++lost;
            continue;
        }
        changed += g.results[k].faces != u.results[k].faces;
        double r = g.results[k].length_xz / u.results[k].length_xz;
        sum += r, worst = std::max(worst, r), best = std::min(best, r), ++n;
    }
    std::printf("   %-16s %4zu pairs: unguided %8.0f q/s, guided %8.0f q/s (speed-up %.2fx); corridor changed on %.1f%%; "
                "length guided/unguided mean %.4f min %.4f max %.4f; paths lost %d\n",
                what, which.size(), which.size() / tu, which.size() / tg, tu / tg, 100.0 * changed / std::max<std::size_t>(n, 1),
                n ? sum / n : NAN, best, worst, lost);
}

void run(const char* label, const synth::SceneParams& sp, int pair_count) {
    testing::RecastPolygons rp = testing::make_recast_polygons(sp, 7);
    if (!rp.one_tile) {
        std::printf("%s: too large for one Detour tile: skipped\n", label);
        return;
    }
    auto dt = testing::make_detour_mesh(rp.verts, rp.polys, rp.cell);
    fromsoft::NavMesh mesh = testing::to_navmesh(dt->verts, rp.polys);
    const int size = static_cast<int>(synth::kSekiroStyle.faces_per_cluster + 0.5);
    int clusters = build::grow_clusters(mesh, [&] { return size; });
    fromsoft::DirectedGraph graph = fromsoft::make_directed_graph(mesh, fromsoft::build_cluster_graph(mesh));
    query::FromSoftView view(mesh, label);
    query::NavMeshQuery q(view);
    auto guide = query::ClusterGuide::from_mesh(mesh, graph);
    if (!guide) {
        std::printf("%s: the graph does not fit the mesh\n", label);
        std::exit(1);
    }
    query::QueryFilter guided;
    guided.cluster_guide = &*guide;
    std::vector<testing::CentrePair> pairs = testing::centre_pairs(*dt, q, static_cast<std::size_t>(pair_count));
    std::printf("\n== %s: %zu faces, %d clusters\n", label, mesh.faces.size(), clusters);
    std::vector<std::size_t> all(pairs.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    std::vector<std::size_t> longest = all;
    auto dist = [&](std::size_t i) { return std::hypot(pairs[i].s.x - pairs[i].e.x, pairs[i].s.z - pairs[i].e.z); };
    std::sort(longest.begin(), longest.end(), [&](std::size_t a, std::size_t b) { return dist(a) > dist(b); });
    longest.resize(longest.size() / 4);
    report("all", q, pairs, all, guided);
    report("longest quarter", q, pairs, longest, guided);
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    int pairs = 300;
    bool large = true;
    bench::Options("usage: bench_cluster_guide [options]\n"
                   "`corridor` queries with and without the Sekiro cluster guide on Recast meshes clustered as Sekiro is.")
        .value("--pairs", "N", "start/end pairs per scene (default 300)", pairs)
        .flag("--small-only", "only the small scene", large, false)
        .parse(argc, argv);
    synth::SceneParams p;
    p.size = 230, p.buildings = 0, p.bridges = 0, p.rocks = 150;
    run("small (single level, 230 m)", p, pairs);
    if (large) {
        p.size = 800, p.buildings = 200, p.bridges = 40, p.rocks = 1000;
        run("large (multi level, 800 m)", p, pairs);
    }
}
