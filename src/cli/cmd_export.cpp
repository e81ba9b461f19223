// `navlab export`: one command for every format; the input decides which exporter runs.
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/output_guard.h"
#include "export/export.h"

namespace navlab::cli {

void add_export_commands(CLI::App& app) {
    auto req = std::make_shared<exporter::ExportRequest>();
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
        const exporter::ExportOutcome outcome = exporter::export_navigation(*req);
        for (const auto& line : outcome.skipped) fmt::print(stderr, "navlab: skipped {}\n", line);
        if (!outcome.summary.empty()) fmt::print("{}\n", outcome.summary);
        if (!outcome.complete()) set_exit(kFailed);
    });
}

}  // namespace navlab::cli
