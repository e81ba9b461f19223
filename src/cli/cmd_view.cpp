// `navlab view`: one self-contained HTML page showing navmeshes in 3-D (src/view, docs/viewer.md).
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "export/scene.h"
#include "formats/fromsoft/nav_source.h"
#include "io/error.h"
#include "io/file.h"
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
};

/// A folder of FromSoftware binders is its binders; any other input stays as given (a Far Cry 2
/// world is a folder too).
std::vector<std::string> expand(const std::vector<std::string>& inputs) {
    std::vector<std::string> out;
    for (const auto& input : inputs) {
        if (std::filesystem::is_directory(input)) {
            const auto files = fromsoft::find_nav_files(input);
            if (!files.empty()) {
                for (const auto& f : files) out.push_back(f.string());
                continue;
            }
        }
        out.push_back(input);
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

/// The exact shortest path between --path's two points over the one FromSoftware input, as the
/// page draws it. A point off the mesh, or no path, is an error: the page never shows a guess.
view::ViewerPath path_overlay(const std::vector<std::string>& files, const std::vector<exporter::Scene>& scenes,
                              const ViewArgs& a) {
    if (files.size() != 1 || scenes.front().family != exporter::Family::FromSoft)
        throw Error("--path needs exactly one FromSoftware binder or tagfile as input");
    const query::Vec3 from = path_point(a.path[0]), to = path_point(a.path[1]);
    const query::QueryInput in = query::load_query_input(files.front(), a.entry);
    const query::QueryMesh& m = query::mesh_for(in, from);
    const query::PathResult r = m.query->find_path(m.in(from), m.in(to), query::PathMode::Exact);
    if (r.status == query::PathStatus::OffMesh)
        throw Error(fmt::format("--path {} {}: a point is {:.3f} m from the nearest face (off_mesh); nothing drawn",
                                a.path[0], a.path[1], r.off_mesh_distance));
    if (r.status == query::PathStatus::NoPath)
        throw Error(fmt::format("--path {} {}: no path from face {} to face {} (no_path); nothing drawn", a.path[0],
                                a.path[1], r.start_face, r.end_face));
    // Members of the page are the input's tagfiles in binder order, as the query input's meshes.
    const auto member = static_cast<std::uint32_t>(&m - in.meshes.data());
    view::ViewerPath path;
    for (const query::Vec3& p : r.points) {
        const query::Vec3 q = m.out(p);
        path.points.push_back({static_cast<float>(q.x), static_cast<float>(q.y), static_cast<float>(q.z)});
    }
    for (std::uint32_t f : r.faces) path.corridor.push_back({member, f});
    if (!a.json) fmt::print("path: {:.3f} m over {} faces of {}\n", r.length, r.faces.size(), m.name);
    return path;
}

void run_view(const ViewArgs& a) {
    view::ViewerInput input;
    const std::vector<std::string> files = expand(a.inputs);
    for (const auto& file : files) {
        exporter::Scene scene = exporter::load_scene(file, a.entry);
        for (const auto& s : scene.skipped) fmt::print(stderr, "navlab: skipped {}\n", s);
        if (!scene.skipped.empty()) set_exit(kFailed);
        if (a.audit) {
            std::vector<view::FaceAudit> audits(scene.members.size());
            if (scene.family == exporter::Family::FromSoft) audits = view::audit_faces(file, a.entry, input.rules);
            audits.resize(scene.members.size());
            input.audits.insert(input.audits.end(), audits.begin(), audits.end());
        }
        for (auto& m : scene.members) m.name = member_label(file, m.name, files.size() > 1);
        input.scenes.push_back(std::move(scene));
    }
    if (!a.path.empty()) input.path = path_overlay(files, input.scenes, a);
    input.title = files.size() == 1 ? files.front() : fmt::format("{} inputs", files.size());
    if (!a.entry.empty()) input.title += " --entry " + a.entry;
    const std::string page = view::viewer_page(input, a.limits);
    write_file_atomic(a.output, page);
    std::size_t faces = 0, members = 0;
    for (const auto& s : input.scenes) faces += s.face_count(), members += s.members.size();
    if (a.json) {
        fmt::print("{}\n", nlohmann::json{{"output", a.output}, {"bytes", page.size()}, {"members", members},
                                          {"faces", faces}, {"audit", a.audit}}
                               .dump());
        return;
    }
    fmt::print("{}: {} members, {} faces, {:.1f} MB{}\n", a.output, members, faces, page.size() / 1048576.0,
               faces == 0 ? " (the input holds no faces: the page shows an empty scene)" : "");
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
        "  Inputs over --max-faces faces are refused with the size the page would have.\n"
        "Example: navlab view m10_00_00_00.nvmhktbnd.dcx --audit -o m10.html");
    cmd->add_option("inputs", a->inputs, "Binders, tagfiles, folders, .nvm or graph .dat files")->required();
    cmd->add_option("-o,--output", a->output, "The HTML page to write")->required();
    cmd->add_option("--entry", a->entry, "Only this binder member (name or index) or Far Cry 2 sector");
    cmd->add_flag("--audit", a->audit, "Audit FromSoftware faces (rules R01-R97) for the audit colouring and panel");
    cmd->add_option("--path", a->path, "FROM TO points (x,y,z): draw the exact shortest path between them (FromSoftware input)")
        ->expected(2);
    cmd->add_option("--max-faces", a->limits.max_faces, "Refuse inputs with more faces (default 250000)")
        ->capture_default_str();
    cmd->add_flag("--json", a->json, "Print the result as JSON");
    cmd->callback([a] { run_view(*a); });
}

}  // namespace navlab::cli
