// `navlab export`: one command for every format; the input decides which exporter runs.
#include <fmt/format.h>

#include <filesystem>

#include "cli/commands.h"
#include "cli/output_guard.h"
#include "export/scene_export.h"
#include "io/error.h"

namespace navlab::cli {
namespace {

enum class Family { FromSoft, Igi, FarCry2 };

bool has_extension(const std::filesystem::path& p, const char* ext) {
    std::string e = p.extension().string();
    for (auto& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return e == ext;
}

/// Far Cry 2 worlds are folders or .nvm files; IGI graphs are .dat; the rest is FromSoftware.
Family detect(const std::string& input) {
    std::filesystem::path p(input);
    if (std::filesystem::is_directory(p) || has_extension(p, ".nvm")) return Family::FarCry2;
    if (has_extension(p, ".dat")) return Family::Igi;
    return Family::FromSoft;
}

}  // namespace

void add_export_commands(CLI::App& app) {
    auto req = std::make_shared<ExportRequest>();
    auto* cmd = app.add_subcommand("export", "Export navigation data to OBJ, JSON, GraphML, GLB, PLY or Detour");
    cmd->footer(
        "  FromSoftware binder/tagfile: triangulated faces (one OBJ group per tagfile), user edges as lines;\n"
        "    JSON adds face attributes (cluster, faceData).\n"
        "  IGI graph<id>.dat: nodes as points, links as lines (obj), or json / graphml.\n"
        "  Far Cry 2 folder or .nvm: triangles in world coordinates (obj or json).\n"
        "  Every input: glb (glTF 2.0 binary: triangles with _FACE/_FACE_DATA/_CLUSTER/_EDGE_FLAGS, lines,\n"
        "    one node per member), ply (binary, polygons as stored), detour (RecastDemo MSET navmesh set).\n"
        "    Metres, +y up; docs/export.md has the details.\n"
        "Example: navlab export m10_00_00_00.nvmhktbnd.dcx --format obj -o m10.obj");
    cmd->add_option("input", req->input, "Binder, tagfile, graph .dat, .nvm file or Far Cry 2 folder")
        ->required();
    cmd->add_option("-o,--output", req->output, "Output file")->required();
    cmd->add_option("-f,--format", req->format, "obj, json, graphml, glb, ply or detour (default: from the output's extension)");
    cmd->add_option("--entry", req->entry, "Binder entry (name or index) or Far Cry 2 sector to export alone");
    auto force = std::make_shared<bool>(false);
    cmd->add_flag("--force", *force, "Allow the output to be the input file itself (replaced atomically)");
    cmd->callback([req, force] {
        refuse_overwriting_input(req->input, req->output, *force);
        if (req->format.empty()) {
            std::string ext = std::filesystem::path(req->output).extension().string();
            req->format = ext.empty() ? "obj" : ext.substr(1);
        }
        if (exporter::is_scene_format(req->format)) {
            const auto result = exporter::export_scene(req->input, req->entry, req->format, req->output);
            for (const auto& s : result.skipped) fmt::print(stderr, "navlab: skipped {}\n", s);
            fmt::print("{}\n", result.summary);
            set_exit(result.skipped.empty() ? kOk : kFailed);
            return;
        }
        switch (detect(req->input)) {
            case Family::FarCry2: set_exit(export_fc2(*req)); break;
            case Family::Igi: set_exit(export_igi(*req)); break;
            case Family::FromSoft: set_exit(export_fromsoft(*req)); break;
        }
    });
}

}  // namespace navlab::cli
