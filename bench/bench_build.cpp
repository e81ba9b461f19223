// bench_build: `navlab build` on a 1 km x 1 km synth terrain with buildings, bridges and rocks,
// saved as OBJ and loaded back through Assimp, built as an Elden Ring binder (64 m tiles).
// Prints the time of each stage and the whole build against Recast alone (the "recast + merge"
// stage is Recast's own pipeline plus the face merging; everything else is navlab's).
//
//   build/bench/bench_build [--size M] [--threads N] [--dir DIR]
// Target (issue 15): the 1 km scene in at most 60 s on 2 cores. Run it once: it takes a while.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "bench_options.h"
#include "build/geometry_in.h"
#include "build/pipeline.h"
#include "synth/scene.h"

using namespace navlab;

int main(int argc, char** argv) {
    float size = 1000;
    unsigned threads = 2;
    std::filesystem::path dir = std::filesystem::temp_directory_path() / "navlab_bench_build";
    std::string dir_text = dir.string();
    bench::Options("usage: bench_build [options]\n"
                   "`navlab build` on a synth terrain saved as OBJ, stage by stage, against Recast alone.")
        .value("--size", "M", "side of the square terrain in metres (default 1000)", size)
        .value("--threads", "N", "workers (default 2)", threads)
        .value("--dir", "DIR", "where the terrain OBJ is written and reused (default $TMPDIR/navlab_bench_build)", dir_text)
        .parse(argc, argv);
    dir = dir_text;
    std::filesystem::create_directories(dir);
    const std::filesystem::path obj = dir / fmt::format("terrain_{}m.obj", static_cast<int>(size));
    using clock = std::chrono::steady_clock;
    auto seconds = [](clock::time_point a) { return std::chrono::duration<double>(clock::now() - a).count(); };
    if (!std::filesystem::exists(obj)) {
        const auto t0 = clock::now();
        synth::SceneParams sp;
        sp.size = size;
        sp.buildings = static_cast<int>(size * size / 1200);
        sp.bridges = static_cast<int>(size / 50) + 1;
        sp.rocks = static_cast<int>(size * size / 400);
        const auto scene = synth::make_scene(sp, 1);
        std::ofstream out(obj);
        for (int v = 0; v < scene.vertex_count(); ++v)
            out << fmt::format("v {} {} {}\n", scene.verts[v * 3], scene.verts[v * 3 + 1], scene.verts[v * 3 + 2]);
        for (int t = 0; t < scene.triangle_count(); ++t)
            out << fmt::format("f {} {} {}\n", scene.tris[t * 3] + 1, scene.tris[t * 3 + 1] + 1, scene.tris[t * 3 + 2] + 1);
        fmt::print("scene     {:8.2f} s  {} triangles written to {}\n", seconds(t0), scene.triangle_count(), obj.string());
    }
    const auto t0 = clock::now();
    const build::LoadedGeometry g = build::load_geometry({obj}, {});
    const double load = seconds(t0);
    build::BuildOptions o;
    o.threads = threads;
    const auto t1 = clock::now();
    const build::BuildResult r = build::build_fromsoft(g.soup, o);
    const double total = seconds(t1);
    fmt::print("load      {:8.2f} s  {} triangles, {:.0f} x {:.0f} m\n", load, g.soup.triangle_count(), g.max[0] - g.min[0],
               g.max[2] - g.min[2]);
    double recast = 0;
    for (const auto& st : r.stages) {
        fmt::print("{:<14}{:8.2f} s\n", st.stage, st.seconds);
        if (st.stage == "recast + merge") recast = st.seconds;
    }
    const auto& s = r.stats;
    fmt::print("build     {:8.2f} s  {} threads, {} tagfiles, {} faces, {} vertices, {:.1f} MB binder (DCX_KRAK stored)\n", total,
               threads, r.tiles.size(), s.faces, s.vertices, static_cast<double>(r.binder.size()) / 1e6);
    fmt::print("area      {:.0f} m² faces vs {:.0f} m² Recast ({:+.4f} %); seams {} coincide, {} unmatched\n", s.face_area,
               s.recast_area, 100 * (s.face_area / s.recast_area - 1), s.seams.seam_edges, s.seams.unmatched_edges);
    fmt::print("load + build {:.2f} s (target 60 s); build / recast stage {:.2f}\n", load + total, total / recast);
    return 0;
}
