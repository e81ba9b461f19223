// `navlab export`: one command for every format; the input decides which exporter runs.
#include <fmt/format.h>

#include <filesystem>

#include "cli/commands.h"
#include "cli/game_dir_options.h"
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
        "  Faces whose rings do not read (see navlab audit) are left out of every format but JSON, and\n"
        "    named on stderr (\"navlab: skipped ...\"): the file is written, the exit status is 1.\n"
        "  A Sekiro / Elden Ring install's Game/ folder is read in place: --map MAP_ID (or the binder's archive\n"
        "    path) picks the binder, streamed from the archives (docs/archives.md).\n"
        "Example: navlab export m10_00_00_00.nvmhktbnd.dcx --format obj -o m10.obj\n"
        "         navlab export ~/ELDEN\\ RING/Game --map m60_44_36_00 -o m60_44_36_00.glb");
    cmd->add_option("input", req->input, "Binder, tagfile, game install (with --map), graph .dat, .nvm file or Far Cry 2 folder")
        ->required();
    cmd->add_option("-o,--output", req->output, "Output file")->required();
    cmd->add_option("-f,--format", req->format, "obj, json, graphml, glb, ply or detour (default: from the output's extension)");
    cmd->add_option("--entry", req->entry, "Binder entry (name or index) or Far Cry 2 sector to export alone");
    auto source = std::make_shared<SourceArgs>();
    add_source_options(cmd, *source, false);
    auto force = std::make_shared<bool>(false);
    cmd->add_flag("--force", *force, "Allow the output to be the input file itself (replaced atomically)");
    cmd->callback([req, force, source] {
        refuse_overwriting_input(req->input, req->output, *force);
        if (req->format.empty() && std::filesystem::path(req->output).extension().string().size() < 2)
            throw CLI::ValidationError("--format", req->output + " has no extension to take the format from: name one "
                                                               "(obj, json, graphml, glb, ply or detour)");
        req->source = source->options();
        const exporter::ExportOutcome outcome = exporter::export_navigation(*req);
        for (const auto& line : outcome.skipped) fmt::print(stderr, "navlab: skipped {}\n", line);
        if (!outcome.summary.empty()) fmt::print("{}\n", outcome.summary);
        if (!outcome.complete()) set_exit(kFailed);
    });
}

}  // namespace navlab::cli
