// `navlab view`: one self-contained HTML page showing navmeshes in 3-D (src/view, docs/viewer.md).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/output_guard.h"
#include "cli/game_dir_options.h"
#include "export/scene.h"
#include "formats/fromsoft/nav_source.h"
#include "formats/igi/graph_io.h"
#include "io/error.h"
#include "io/file.h"
#include "io/json_text.h"
#include "io/text.h"
#include "query/igi_path.h"
#include "query/query_input.h"
#include "view/face_audit.h"
#include "view/viewer_page.h"

namespace navlab::cli {
namespace {

struct ViewArgs {
    std::vector<std::string> inputs;
    std::string output;
    std::vector<std::string> path;
    std::string entry;
    bool audit = false;
    bool json = false;
    view::PageLimits limits;
    SourceArgs source;  ///< --map, --game, --keys
};

/// What --path drew, for the summary line or --json: its length in metres over `steps` faces
/// (FromSoftware, Far Cry 2) or nodes (IGI) of `of`, and for IGI what the route table says.
struct PathSummary {
    view::ViewerPath path;
    double length_m = 0;
    std::size_t steps = 0;
    const char* step_name = "faces";
    std::string of;
    std::string table;  ///< IGI only: "the route table walks the same", or how it differs
};

/// One thing the page shows: binder `index` of a binder source, or any other input by path.
struct Shown {
    std::string name;  ///< the file, or the binder's name ("data2:/map/...")
    const fromsoft::BinderSource* source = nullptr;
    std::size_t index = 0;
};

/// Folders of FromSoftware binders and game installs (and any input with --map) are their
/// binders, read through fromsoft::BinderSource; any other input stays as given (a Far Cry 2
/// world is a folder too). `sources` keeps the opened sources alive.
std::vector<Shown> expand(const ViewArgs& a, std::vector<std::unique_ptr<fromsoft::BinderSource>>& sources) {
    const fromsoft::SourceOptions options = a.source.options();
    std::vector<Shown> out;
    for (const auto& input : a.inputs) {
        const bool binders = fromsoft::is_binder_source(input, options) ||
                             (std::filesystem::is_directory(input) && !fromsoft::find_nav_files(input).empty());
        if (!binders) {
            out.push_back({input});
            continue;
        }
        sources.push_back(std::make_unique<fromsoft::BinderSource>(fromsoft::BinderSource::open(input, options)));
        for (std::size_t i = 0; i < sources.back()->binders().size(); ++i)
            out.push_back({sources.back()->binders()[i].name, sources.back().get(), i});
    }
    return out;
}

/// "name" for one input; "stem/name" when several inputs could hold members of the same name.
std::string member_label(const std::string& source, const std::string& name, bool several) {
    if (!several) return name;
    std::string stem = std::filesystem::path(source).filename().string();
    if (auto dot = stem.find('.'); dot != std::string::npos && dot > 0) stem = stem.substr(0, dot);
    return stem + "/" + name;
}

query::Vec3 path_point(const std::string& text) {
    if (auto p = query::parse_point(text)) return *p;
    throw Error(fmt::format("--path wants two X,Y,Z points, not '{}'", text));
}

/// The page's (member, face) of the query's face `face` of mesh `m`. FromSoftware: the members
/// are the input's tagfiles in binder order, as the query input's meshes, and faces keep their
/// index. Far Cry 2: one stitched mesh whose triangles are numbered sector after sector, the
/// page's members being those sectors in the same order (exporter::farcry2_scene).
std::pair<std::uint32_t, std::uint32_t> page_face(const query::QueryInput& in, const query::QueryMesh& m,
                                                  std::uint32_t face) {
    if (!in.world_mesh) return {static_cast<std::uint32_t>(&m - in.meshes.data()), face};
    const auto& sectors = in.world_mesh->sectors;
    for (std::size_t s = 0; s < sectors.size(); ++s)
        if (face - sectors[s].first_triangle < sectors[s].triangle_count)
            return {static_cast<std::uint32_t>(s), face - sectors[s].first_triangle};
    throw std::logic_error(fmt::format("page_face: triangle {} lies in no sector", face));
}

/// An IGI node id (a whole int32), or nullopt.
std::optional<std::int32_t> parse_node_id(const std::string& text) {
    std::int32_t id = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return id;
}

/// An IGI node id as --path gives it.
std::int32_t path_node(const std::string& text) {
    if (auto id = parse_node_id(text)) return *id;
    throw Error(fmt::format("--path on an IGI graph wants two node ids, not '{}'", escape_non_utf8(text)));
}

/// The shortest route between --path's two nodes of the one IGI graph (Dijkstra over its links,
/// as `navlab path --from-node --to-node` gives it), drawn through the nodes; the summary says
/// whether the graph's own route table walks the same length. No corridor: a graph has no faces.
PathSummary igi_path_overlay(const std::string& file, const ViewArgs& a) {
    const std::int32_t from = path_node(a.path[0]), to = path_node(a.path[1]);
    const igi::Graph graph = igi::read_graph_file(file);
    query::IgiPathReport r;
    try {
        r = query::igi_path(graph, from, to);
    } catch (Error& e) {
        throw e.set_file(file);  // "graph1.dat: node: 7 is not a node of the graph"
    }
    if (!r.shortest.reached)
        throw Error(fmt::format("--path {} {}: no route between the nodes (no_path); nothing drawn", from, to))
            .set_file(file);
    PathSummary s;
    s.length_m = r.shortest.length / exporter::kIgiUnitsPerMetre, s.steps = r.shortest.nodes.size();
    s.step_name = "nodes", s.of = file;
    for (const std::int32_t id : r.shortest.nodes) {
        // igi_path walked these ids over the graph's nodes, so each is found.
        const auto node =
            std::find_if(graph.nodes.begin(), graph.nodes.end(), [&](const igi::Node& n) { return n.id == id; });
        const igi::Vec3& p = node->position;
        s.path.points.push_back(exporter::scene_point(exporter::Family::Igi, p.x, p.y, p.z));
    }
    s.table = "the route table walks the same";
    if (!r.match)
        s.table = r.table.reached
                      ? fmt::format("the route table walks {:.3f} m", r.table.length / exporter::kIgiUnitsPerMetre)
                      : "the route table does not reach it: " + r.table.problem;
    return s;
}

/// The exact shortest path between --path's two points over the one FromSoftware or Far Cry 2
/// input, as the page draws it (+y up: scene_point, as the faces). A point
/// off the mesh, or no path, is an error: the page never shows a guess.
PathSummary path_overlay(const std::vector<Shown>& files, const std::vector<exporter::Scene>& scenes,
                         const ViewArgs& a) {
    const exporter::Family family = scenes.front().family;
    if (files.size() != 1)
        throw Error("--path needs exactly one input: a FromSoftware binder or tagfile (--map picks one of an install), "
                    "a Far Cry 2 world or .nvm file, or an IGI graph");
    if (family == exporter::Family::Igi) return igi_path_overlay(files.front().name, a);
    const query::Vec3 from = path_point(a.path[0]), to = path_point(a.path[1]);
    const Shown& shown = files.front();
    const query::QueryInput in = shown.source ? query::load_query_input(shown.source->open_nav(shown.index), a.entry)
                                              : query::load_query_input(shown.name, a.entry);
    const query::QueryMesh& m = query::mesh_for(in, from);
    const query::PathResult r = m.query->find_path(m.in(from), m.in(to), query::PathMode::Exact);
    if (r.status == query::PathStatus::OffMesh)
        throw Error(fmt::format("--path {} {}: a point is {:.3f} m from the nearest face (off_mesh); nothing drawn",
                                a.path[0], a.path[1], r.off_mesh_distance));
    if (r.status == query::PathStatus::NoPath)
        throw Error(fmt::format("--path {} {}: no path from face {} to face {} (no_path); nothing drawn", a.path[0],
                                a.path[1], r.start_face, r.end_face));
    PathSummary s;
    s.length_m = r.length, s.steps = r.faces.size(), s.of = m.name;
    for (const query::Vec3& p : r.points) {
        const query::Vec3 q = m.out(p);  // the input's own frame: z-up for Far Cry 2
        s.path.points.push_back(exporter::scene_point(family, q.x, q.y, q.z));
    }
    for (std::uint32_t f : r.faces) s.path.corridor.push_back(page_face(in, m, f));
    return s;
}

void run_view(const ViewArgs& a) {
    view::ViewerInput input;
    std::vector<std::unique_ptr<fromsoft::BinderSource>> sources;
    const std::vector<Shown> files = expand(a, sources);
    for (const Shown& file : files) {
        // A binder of a source is opened once for its scene and its audit.
        std::optional<fromsoft::NavFile> nav;
        if (file.source) nav = file.source->open_nav(file.index);
        exporter::Scene scene = nav ? exporter::fromsoft_scene(exporter::load_fromsoft_tagfiles(*nav, a.entry), file.name)
                                    : exporter::load_scene(file.name, a.entry);
        for (const auto& s : scene.skipped) fmt::print(stderr, "navlab: skipped {}\n", s);
        if (!scene.skipped.empty()) set_exit(kFailed);
        if (a.audit) {
            std::vector<view::FaceAudit> audits(scene.members.size());
            if (scene.family == exporter::Family::FromSoft)
                audits = nav ? view::audit_faces(*nav, a.entry, input.rules) : view::audit_faces(file.name, a.entry, input.rules);
            audits.resize(scene.members.size());
            input.audits.insert(input.audits.end(), audits.begin(), audits.end());
        }
        for (auto& m : scene.members) m.name = member_label(file.name, m.name, files.size() > 1);
        input.scenes.push_back(std::move(scene));
    }
    std::optional<PathSummary> drawn;
    if (!a.path.empty()) {
        drawn = path_overlay(files, input.scenes, a);
        input.path = drawn->path;
    }
    input.title = files.size() == 1 ? files.front().name : fmt::format("{} inputs", files.size());
    if (!a.entry.empty()) input.title += " --entry " + a.entry;
    const std::string page = view::viewer_page(input, a.limits);
    write_file_atomic(a.output, page);
    std::size_t faces = 0, members = 0, nodes = 0;  // nodes: an IGI graph's, drawn as points
    for (const auto& s : input.scenes) {
        faces += s.face_count(), members += s.members.size();
        for (const auto& m : s.members) nodes += m.points.size();
    }
    if (a.json) {
        nlohmann::json j{{"output", a.output}, {"bytes", page.size()}, {"members", members},
                         {"faces", faces},     {"nodes", nodes},        {"audit", a.audit}};
        if (drawn) {
            j["path"] = {{"length", drawn->length_m}, {drawn->step_name, drawn->steps}, {"of", drawn->of},
                         {"point_count", drawn->path.points.size()}};
            if (!drawn->table.empty()) j["path"]["route_table"] = drawn->table;
        }
        fmt::print("{}\n", json_text(j));
        return;
    }
    if (drawn)
        fmt::print("path: {:.3f} m over {} {} of {}{}\n", drawn->length_m, drawn->steps, drawn->step_name, drawn->of,
                   drawn->table.empty() ? "" : " (" + drawn->table + ")");
    const std::string shown = nodes ? fmt::format("{} faces, {} nodes", faces, nodes) : fmt::format("{} faces", faces);
    fmt::print("{}: {} members, {}, {:.1f} MB{}\n", a.output, members, shown, page.size() / 1048576.0,
               faces + nodes == 0 ? " (the input holds no faces: the page shows an empty scene)" : "");
}

}  // namespace

void add_view_commands(CLI::App& app) {
    auto a = std::make_shared<ViewArgs>();
    auto* cmd = app.add_subcommand("view", "Write one self-contained HTML page showing navmeshes in 3-D");
    cmd->footer(
        "  Inputs: FromSoftware binders, tagfiles or folders of them; Far Cry 2 folders or .nvm files; IGI\n"
        "  graph .dat files. The page (three.js inlined, data base64-packed) opens offline in any browser:\n"
        "  faces coloured by member, faceData, cluster or audit result (--audit), user edges as arrows,\n"
        "  Elden Ring AABB-tree leaf boxes, Far Cry 2 sector grid and links, IGI nodes, links and route\n"
        "  next hops; click a face or node for its details; press ? in the page for the keys.\n"
        "  Inputs over --max-faces faces are refused with the size the page would have. Faces whose rings do\n"
        "  not read (see navlab audit) are left out and named on stderr; the page is written, exit status 1.\n"
        "  A Sekiro / Elden Ring install's Game/ folder is read in place (docs/archives.md): every navmesh\n"
        "  binder found, or those --map names (map id or archive path, repeatable).\n"
        "  --path FROM TO needs one input: a FromSoftware binder (or one --map of an install), a Far Cry 2\n"
        "  world (points in its z-up world coordinates, as `navlab path` takes them) or an IGI graph (two node\n"
        "  ids: the shortest route over its links, and whether its route table agrees).\n"
        "Example: navlab view m10_00_00_00.nvmhktbnd.dcx --audit -o m10.html\n"
        "         navlab view ~/ELDEN\\ RING/Game --map m60_44_36_00 --map m60_44_37_00 -o tiles.html");
    cmd->add_option("inputs", a->inputs, "Binders, tagfiles, folders, game installs, .nvm or graph .dat files")->required();
    cmd->add_option("-o,--output", a->output, "The HTML page to write")->required();
    cmd->add_option("--entry", a->entry, "Only this binder member (name or index) or Far Cry 2 sector");
    cmd->add_flag("--audit", a->audit, "Audit FromSoftware faces (rules R01-R97) for the audit colouring and panel");
    cmd->add_option("--path", a->path,
                    "FROM TO: points X,Y,Z (FromSoftware, Far Cry 2: the exact shortest path) or IGI node ids (the "
                    "shortest route)")
        ->expected(2)
        ->check(CLI::Validator(
            [](std::string& text) {
                return query::parse_point(text) || parse_node_id(text)
                           ? std::string()
                           : "two X,Y,Z points (three numbers within ±1e7 m each) or two IGI node ids, not '" + text + "'";
            },
            ""));
    cmd->add_option("--max-faces", a->limits.max_faces, "Refuse inputs with more faces (default 250000)")
        ->capture_default_str();
    cmd->add_flag("--json", a->json, "Print the result as JSON");
    add_source_options(cmd, a->source, true);
    cmd->callback([a] {
        refuse_output_over_inputs("--output", "the page", a->output, a->inputs);
        run_view(*a);
    });
}

}  // namespace navlab::cli
