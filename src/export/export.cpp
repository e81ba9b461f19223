#include "export/export.h"

#include "export/scene_export.h"

#include <fmt/format.h>

#include <filesystem>

#include "export/fc2_mesh_export.h"
#include "export/fromsoft_export.h"
#include "export/igi_export.h"
#include "export/scene.h"
#include "formats/farcry2/world.h"
#include "formats/fromsoft/nav_source.h"
#include "formats/igi/graph_io.h"
#include "io/error.h"
#include "io/file.h"
#include "io/json_text.h"
#include "io/report.h"
#include "io/text.h"

namespace navlab::exporter {

Family family_of(const std::string& input) {
    const std::filesystem::path p(input);
    const std::string ext = to_lower(p.extension().string());
    if (std::filesystem::is_directory(p) || ext == ".nvm") return Family::FarCry2;
    if (ext == ".dat") return Family::Igi;
    return Family::FromSoft;
}

farcry2::World load_far_cry_2_input(const std::string& input) {
    farcry2::World world = farcry2::load_world(input);
    if (!world.found_no_file()) return world;
    if (!fromsoft::find_nav_files(input).empty())
        throw Error("a folder of FromSoftware navmesh files: export one binder or tagfile at a time (navlab view shows "
                    "a whole folder)")
            .set_file(input);
    throw Error("no navmesh binders, tagfiles or Far Cry 2 .nvm files found").set_file(input);
}

ExportOutcome export_navigation(ExportRequest request) {
    // The format by name or by the output's extension, in any case (m10.OBJ); an output without
    // an extension no longer becomes OBJ unasked.
    if (request.format.empty()) {
        const std::string ext = std::filesystem::path(request.output).extension().string();
        if (ext.size() < 2)
            throw Error(request.output + ": no format given, and no extension to take it from (obj, json, graphml, glb, "
                                         "ply or detour)");
        request.format = ext.substr(1);
    }
    request.format = to_lower(request.format);
    if (is_scene_format(request.format)) {  // glb, ply, detour: every family through the scene model
        SceneExportResult r = export_scene(request.input, request.entry, request.format, request.output, request.source);
        return {std::move(r.skipped), std::move(r.summary)};
    }
    if (fromsoft::is_binder_source(request.input, request.source)) return export_fromsoft(request);
    switch (family_of(request.input)) {
        case Family::FarCry2: return export_fc2(request);
        case Family::Igi: return export_igi(request);
        case Family::FromSoft: break;
    }
    return export_fromsoft(request);
}

ExportOutcome export_fromsoft(const ExportRequest& request) {
    if (request.format != "obj" && request.format != "json")
        throw Error("FromSoftware navmeshes export as obj, json, glb, ply or detour, not " + request.format);
    const std::vector<NamedTagfile> tagfiles =
        fromsoft::is_binder_source(request.input, request.source)
            ? load_fromsoft_tagfiles(fromsoft::open_one_binder(request.input, request.source), request.entry)
            : load_fromsoft_tagfiles(request.input, request.entry);
    if (request.format == "obj") {
        write_file_atomic(request.output, fromsoft_obj(tagfiles));
        return {faces_left_out(tagfiles, request.input), {}};
    }
    // JSON keeps every face as stored, broken rings too (their vertices as far as they read).
    write_file_atomic(request.output, json_text(fromsoft_json(tagfiles), 1) + "\n");
    return {};
}

ExportOutcome export_igi(const ExportRequest& request) {
    const igi::Graph g = igi::read_graph_file(request.input);
    std::string text;
    if (request.format == "json") text = json_text(igi::graph_to_json(g, true), 2) + "\n";
    else if (request.format == "graphml") text = igi::graph_to_graphml(g);
    else if (request.format == "obj") text = igi::graph_to_obj(g);
    else throw Error(fmt::format("IGI graphs export as json, graphml, obj, glb, ply or detour, not {}", request.format));
    write_file_atomic(request.output, text);
    return {};
}

ExportOutcome export_fc2(const ExportRequest& request) {
    if (request.format != "obj" && request.format != "json")
        throw Error("Far Cry 2 worlds export as obj, json, glb, ply or detour, not " + request.format);
    farcry2::World world = load_far_cry_2_input(request.input);
    ExportOutcome outcome;
    for (const auto& f : world.failures) outcome.skipped.push_back(finding_text(f));
    if (world.sectors.empty())
        throw Error("no sector files (nv_<id>.nvm) to export; the level file nv.nvm holds no triangles")
            .set_file(request.input);
    farcry2::WorldMesh mesh = farcry2::stitch(world, farcry2::parse_sector_entry(request.entry));
    if (request.format == "obj") write_file_atomic(request.output, farcry2::to_obj(mesh));
    else write_file_atomic(request.output, json_text(farcry2::to_json(mesh), 1));
    outcome.summary = fmt::format("{}: {} triangles from {} sectors", request.output, mesh.triangles.size(),
                                  mesh.sectors.size());
    return outcome;
}

}  // namespace navlab::exporter
