// `navlab build` (level geometry -> game-ready navmesh binder) and `navlab replace` (one
// member of a binder swapped, added or removed), src/build.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "build/farcry2_out.h"
#include "build/geometry_in.h"
#include "build/igi_graph_in.h"
#include "build/pipeline.h"
#include "build/replace.h"
#include "cli/commands.h"
#include "cli/number_options.h"
#include "cli/output_guard.h"
#include "cli/progress.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "formats/igi/graph_io.h"
#include "io/error.h"
#include "io/file.h"
#include "io/json_text.h"
#include "io/text.h"

namespace navlab::cli {
namespace {

struct BuildArgs {
    std::vector<std::string> geometry;
    std::string game = "eldenring";
    std::string out;
    std::string map;
    std::string spec;
    std::string dcx = "krak";
    std::string up = "y";
    float scale = 1;
    unsigned threads = 0;
    std::string json;
};

nlohmann::json stats_json(const build::BuildResult& r, const build::LoadedGeometry& g) {
    const auto& s = r.stats;
    nlohmann::json stages = nlohmann::json::object();
    for (const auto& st : r.stages) stages[st.stage] = st.seconds;
    return {{"triangles_in", g.soup.triangle_count()},
            {"bounds", {g.min, g.max}},
            {"grid", {s.cols, s.rows}},
            {"tagfiles", r.tiles.size()},
            {"faces", s.faces},
            {"edges", s.edges},
            {"user_edges", s.user_edges},
            {"vertices", s.vertices},
            {"max_corners", s.max_corners},
            {"recast_polygons", s.recast_polygons},
            {"recast_area_m2", s.recast_area},
            {"face_area_m2", s.face_area},
            {"seam_edges", s.seams.seam_edges},
            {"unmatched_border_edges", s.seams.unmatched_edges},
            {"seam_vertices_moved", s.seams.moved_vertices},
            {"seam_vertices_inserted", s.seams.inserted_vertices},
            {"binder_bytes", r.binder.size()},
            {"seconds", stages}};
}

void print_stages(const std::vector<build::StageTime>& stages) {
    std::string times;
    for (const auto& st : stages) times += fmt::format("{}{} {:.2f} s", times.empty() ? "" : ", ", st.stage, st.seconds);
    fmt::print("time: {}\n", times);
}

/// A progress line over the Recast stage on a terminal (tiles that hold triangles; a stray
/// vertex far from the level can make that thousands), gone once the build returns.
struct TileBar {
    std::unique_ptr<Progress> bar;
    build::TileProgress hooks() {
        return {[this](std::size_t tiles) { bar = std::make_unique<Progress>("build: recast tiles", tiles); },
                [this] { bar->tick(); }};
    }
};

void write_farcry2(const BuildArgs& a, const build::LoadedGeometry& g, const build::BuildSpec& spec, double load) {
    TileBar tiles;
    build::Fc2Result r = build::build_farcry2(g.soup, spec, a.threads, tiles.hooks());
    tiles.bar.reset();
    r.stages.insert(r.stages.begin(), {"load", load});
    // Everything was made in memory first: an error above leaves the folder untouched.
    std::filesystem::create_directories(a.out);
    for (const auto& f : r.files) write_file_atomic(std::filesystem::path(a.out) / f.name, f.bytes);
    fmt::print("{} sector file(s) + {}: {} triangles, {} same-sector and {} cross-sector links\n", r.files.size() - 1,
               r.files[0].name, r.triangles, r.same_sector_links, r.cross_sector_links);
    fmt::print("seams: {} edge pairs coincide, {} border edges without a partner\n", r.seams.seam_edges, r.seams.unmatched_edges);
    if (!r.warnings.empty()) fmt::print("note: {} (and {} more sectors)\n", r.warnings[0], r.warnings.size() - 1);
    print_stages(r.stages);
    fmt::print("wrote {}\n", a.out);
}

void run_build(const BuildArgs& a) {
    build::FromGame game = build::FromGame::EldenRing;
    if (a.game == "sekiro") game = build::FromGame::Sekiro;
    else if (a.game != "eldenring" && a.game != "farcry2") throw Error("--game '" + a.game + "': eldenring, sekiro or farcry2");
    std::vector<std::string> inputs(a.geometry.begin(), a.geometry.end());
    if (!a.spec.empty()) inputs.push_back(a.spec);
    refuse_output_over_inputs("--out", "the binder", a.out, inputs);
    if (a.game == "farcry2" && !a.json.empty())
        throw CLI::ValidationError("--json", "a Far Cry 2 build prints its figures, it writes no report: leave --json out");
    refuse_report_over_inputs(a.json, inputs);  // a glTF scene or BUILD.json is JSON too
    require_output_folder("--json", a.json);    // before the binder is written, not after
    build::BuildOptions o;
    o.game = game;
    o.compression = build::parse_compression(a.dcx);
    o.threads = a.threads;
    if (!a.spec.empty()) {
        const auto bytes = read_file(a.spec);
        o.spec = build::parse_build_spec(std::string(bytes.begin(), bytes.end()), a.spec);
    }
    if (!a.map.empty()) o.spec.map = a.map;
    build::validate_build_spec(o.spec, a.spec.empty() ? "--map" : a.spec);

    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::filesystem::path> files(a.geometry.begin(), a.geometry.end());
    const build::LoadedGeometry g = build::load_geometry(files, {a.up.size() == 1 ? a.up[0] : '?', a.scale});
    const double load = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // Bounds first, so wrong units or a wrong up axis show before the build runs.
    fmt::print("scene: {} triangles from {} file(s), bounds ({:.2f}, {:.2f}, {:.2f}) .. ({:.2f}, {:.2f}, {:.2f}) m, "
               "size {:.1f} x {:.1f} x {:.1f} m\n",
               g.soup.triangle_count(), files.size(), g.min[0], g.min[1], g.min[2], g.max[0], g.max[1], g.max[2],
               g.max[0] - g.min[0], g.max[1] - g.min[1], g.max[2] - g.min[2]);
    std::fflush(stdout);
    if (a.game == "farcry2") return write_farcry2(a, g, o.spec, load);
    TileBar tiles;
    o.progress = tiles.hooks();
    build::BuildResult r = build::build_fromsoft(g.soup, o);
    tiles.bar.reset();
    r.stages.insert(r.stages.begin(), {"load", load});
    write_file_atomic(a.out, r.binder);

    const auto& s = r.stats;
    fmt::print("grid {} x {} tiles of {} m: {} tagfile(s) for {} ({})\n", s.cols, s.rows, o.spec.tile_size, r.tiles.size(),
               o.spec.map, a.game);
    fmt::print("faces {}, edges {} ({} user), vertices {}, largest face {} corners\n", s.faces, s.edges, s.user_edges,
               s.vertices, s.max_corners);
    fmt::print("walkable area {:.1f} m² (Recast polygon mesh {:.1f} m², {:+.3f} %)\n", s.face_area, s.recast_area,
               s.recast_area > 0 ? 100 * (s.face_area / s.recast_area - 1) : 0.0);
    fmt::print("seams: {} edge pairs coincide, {} border edges without a partner, {} vertices moved, {} inserted\n",
               s.seams.seam_edges, s.seams.unmatched_edges, s.seams.moved_vertices, s.seams.inserted_vertices);
    print_stages(r.stages);
    fmt::print("wrote {} ({} bytes)\n", a.out, r.binder.size());
    if (!a.json.empty()) write_file_atomic(a.json, json_text(stats_json(r, g), 2) + "\n");
}

}  // namespace

void add_build_commands(CLI::App& app) {
    auto args = std::make_shared<BuildArgs>();
    auto* cmd = app.add_subcommand("build", "Build a game-ready navmesh binder from level geometry (Recast)");
    cmd->footer(
        "  Input: OBJ, glTF/GLB, PLY or FBX files (Assimp), merged into one scene, y up and metres unless\n"
        "  --up z / --scale say otherwise. The scene's bounds and triangle count are printed first.\n"
        "  Assimp reads each file in a child process: a file it crashes on, or spins on past 30 s + 5 s\n"
        "  per MB of CPU, is an error naming the file. Assimp is the module libnavlab_assimp_reader.so,\n"
        "  found beside navlab, in the install prefix's LIBDIR/navlab (cmake --install), or where it\n"
        "  was built (NAVLAB_ASSIMP_READER=PATH points elsewhere).\n"
        "  On a terminal a progress line counts the tiles.\n"
        "  Output: one .nvmhktbnd.dcx binder: one Havok tagfile per tile (hkaiNavMesh + Elden Ring AABB-tree\n"
        "  mediator or Sekiro cluster graph), FromSoftware member names and ids for --map. Far Cry 2:\n"
        "  a folder with nv.nvm and one nv_<id>.nvm per 64 m sector, cross-sector links filled in.\n"
        "  BUILD.json (--spec; docs/build.md): agent size, cell and tile size, map, area volumes (faceData),\n"
        "  links (user edges), aabb margin. Same input, same bytes, whatever --threads.\n"
        "Example: navlab build level.obj --game eldenring --map m10_00_00_00 -o m10_00_00_00.nvmhktbnd.dcx");
    cmd->add_option("geometry", args->geometry, "Geometry files (OBJ, glTF/GLB, PLY, FBX)")->required();
    // Checked here, so that a mistaken option is a usage error (exit 2) before any file is read.
    cmd->add_option("--game", args->game, "eldenring, sekiro or farcry2")
        ->capture_default_str()
        ->check(CLI::IsMember({"eldenring", "sekiro", "farcry2"}));
    cmd->add_option("-o,--out", args->out, "Output binder (.nvmhktbnd.dcx); Far Cry 2: output folder")->required();
    cmd->add_option("--map", args->map, "Map name mAA_BB_CC_DD (default m10_00_00_00, or the spec's)");
    cmd->add_option("--spec", args->spec, "BUILD.json with the build settings");
    cmd->add_option("--dcx", args->dcx, "krak (Kraken, level 6), dflt or zstd")
        ->capture_default_str()
        ->check(CLI::IsMember({"krak", "dflt", "zstd"}));
    cmd->add_option("--up", args->up, "The files' up axis: y or z")->capture_default_str()->check(CLI::IsMember({"y", "z"}));
    cmd->add_option("--scale", args->scale, "Scale to metres (0.01 for centimetres)")
        ->capture_default_str()
        ->check(positive_number("0.01 for centimetres"));
    cmd->add_option("--threads", args->threads, "Worker threads (0 = all cores)");
    cmd->add_option("--json", args->json, "Also write the figures as JSON to this file")->check(json_report_file());
    cmd->callback([args] { run_build(*args); });

    // `igi build` joins the igi command (registered before this one).
    if (CLI::App* igi = app.get_subcommand("igi")) {
        struct IgiArgs {
            std::string json, out;
        };
        auto iargs = std::make_shared<IgiArgs>();
        auto* ib = igi->add_subcommand("build", "Make a graph<id>.dat from GRAPH.json with a fresh route table");
        ib->footer(
            "  GRAPH.json: {\"max_nodes\": N, \"nodes\": [{\"id\", \"position\": [x,y,z], \"radius\", \"material\",\n"
            "  \"criteria\", \"gamma\"}], \"links\": [{\"from\", \"to\", \"type\"}]} (docs/build.md). Output: the named\n"
            "  variant in the retail field order, its N x N route table computed (shortest paths), so that\n"
            "  `navlab igi check` passes.\n"
            "Example: navlab igi build graph.json -o graph8.dat");
        ib->add_option("graph", iargs->json, "GRAPH.json")->required();
        ib->add_option("-o,--out", iargs->out, "Output graph<id>.dat")->required();
        ib->callback([iargs] {
            refuse_output_over_inputs("--out", "the graph", iargs->out, {iargs->json});
            const auto text = read_file(iargs->json);
            const igi::Graph g = build::graph_from_json(std::string(text.begin(), text.end()), iargs->json);
            const auto bytes = igi::write_graph(g, igi::Layout::Retail);
            write_file_atomic(iargs->out, bytes);
            fmt::print("{} nodes, {} links, nMaxNodes {}, route table {} entries; wrote {} ({} bytes)\n", g.nodes.size(),
                       g.links.size(), g.max_nodes, g.routes.size(), iargs->out, bytes.size());
        });
    }

    struct ReplaceArgs {
        std::string binder, entry, file, out;
        bool remove = false, force = false, unchecked = false;
    };
    auto rargs = std::make_shared<ReplaceArgs>();
    auto* rep = app.add_subcommand("replace", "Swap, add or remove one member of a binder");
    rep->footer(
        "  ENTRY is an index, a full member name or a file name (n10_00_00_00_001000.hkx); a file name the\n"
        "  binder lacks adds a member (folder of member 0, next id of its kind). Other members keep their\n"
        "  bytes; BND4 sizes, hash table and alignment and the DCX header are rewritten as the game's writer does.\n"
        "Example: navlab replace m10_00_00_00.nvmhktbnd.dcx n10_00_00_00_001000.hkx new.hkx -o out.nvmhktbnd.dcx");
    rep->add_option("binder", rargs->binder, "Binder file (DCX or BND4)")->required();
    rep->add_option("entry", rargs->entry, "Member index, name or file name")->required();
    rep->add_option("file", rargs->file, "New member bytes (.hkx); omit with --remove");
    rep->add_option("-o,--out", rargs->out, "Output binder")->required();
    rep->add_flag("--remove", rargs->remove, "Remove the member instead");
    rep->add_flag("--force", rargs->force, "Allow the output to be the input binder itself (replaced atomically)");
    rep->add_flag("--unchecked", rargs->unchecked, "Put FILE in as a .hkx member even when it does not read as a navmesh tagfile");
    rep->callback([rargs] {
        refuse_overwriting_input(rargs->binder, rargs->out, rargs->force);
        if (rargs->remove == !rargs->file.empty())
            throw CLI::ValidationError("replace", "give FILE, or --remove without FILE");
        std::optional<std::vector<std::uint8_t>> data;
        if (!rargs->remove) data = read_file(rargs->file);
        const auto input = read_file(rargs->binder);
        build::ReplaceResult r;
        try {
            r = build::replace_member(input, rargs->entry, data);
        } catch (Error& e) {
            e.set_file(rargs->binder);
            throw;
        }
        // A .hkx member that every reader refuses would only show later, at the next query.
        if (data && !rargs->unchecked && to_lower(std::filesystem::path(r.name).extension().string()) == ".hkx") {
            const std::string context = "the new member, read as a navmesh tagfile (--unchecked puts it in anyway)";
            try {
                if (!fromsoft::holds_navmesh(fromsoft::read_nav_tagfile(*data)))
                    throw Error("a Havok tagfile without an hkaiNavMesh", 0, "TAG0");
            } catch (Error& e) {
                throw e.set_file(rargs->file).in(context);
            }
        }
        write_file_atomic(rargs->out, r.file);
        fmt::print("{} {} (id {}); {} members; wrote {} ({} bytes)\n", r.action, escape_non_utf8(r.name), r.id,
                   r.members, rargs->out, r.file.size());
    });
}

}  // namespace navlab::cli
