#include "export/export.h"

#include "export/scene_export.h"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <optional>

#include "container/binder_file.h"
#include "export/fc2_mesh_export.h"
#include "export/fromsoft_export.h"
#include "export/igi_export.h"
#include "formats/farcry2/world.h"
#include "formats/fromsoft/nav_source.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "formats/igi/graph_io.h"
#include "io/error.h"
#include "io/file.h"
#include "io/report.h"
#include "io/text.h"

namespace navlab::exporter {
namespace {

/// The entry name without its folders ("N:\...\n10_00_00_00_000100.hkx" -> "n10_..hkx").
std::string leaf_name(const std::string& name) {
    const auto slash = name.find_last_of("\\/");
    return slash == std::string::npos ? name : name.substr(slash + 1);
}

std::optional<std::uint16_t> parse_sector(const std::string& entry) {
    if (entry.empty()) return std::nullopt;
    unsigned value = 0;
    auto [end, ec] = std::from_chars(entry.data(), entry.data() + entry.size(), value);
    if (ec != std::errc{} || end != entry.data() + entry.size() || value > 0xFFFF)
        throw Error("--entry must be a sector id (0..65535), got '" + entry + "'");
    return static_cast<std::uint16_t>(value);
}

}  // namespace

Family family_of(const std::string& input) {
    const std::filesystem::path p(input);
    const std::string ext = to_lower(p.extension().string());
    if (std::filesystem::is_directory(p) || ext == ".nvm") return Family::FarCry2;
    if (ext == ".dat") return Family::Igi;
    return Family::FromSoft;
}

ExportOutcome export_navigation(ExportRequest request) {
    if (request.format.empty()) {
        const std::string ext = std::filesystem::path(request.output).extension().string();
        request.format = ext.empty() ? "obj" : ext.substr(1);
    }
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
        throw Error("FromSoftware navmeshes export as obj or json, not " + request.format);
    std::vector<NamedTagfile> tagfiles;
    auto add = [&](const container::Entry& e) {
        const std::string binder = e.in_binder ? request.input : std::string();
        tagfiles.push_back({leaf_name(e.name), binder, container::read_entry(e, [](const SharedBytes& b) {
                                return fromsoft::read_nav_tagfile(b);
                            })});
    };
    try {
        if (fromsoft::is_binder_source(request.input, request.source)) {
            tagfiles = load_fromsoft_tagfiles(fromsoft::open_one_binder(request.input, request.source), request.entry);
        } else if (!request.entry.empty()) {
            add(container::open_entry(request.input, request.entry));
        } else {
            const fromsoft::NavFile nav = fromsoft::NavFile::open(request.input);
            for (const fromsoft::NavEntry& e : nav.entries()) add({e.index, 0, e.name, e.bytes, e.in_binder});
        }
    } catch (Error& e) {
        throw e.set_file(request.input);
    }
    if (request.format == "obj")
        write_file_atomic(request.output, fromsoft_obj(tagfiles));
    else
        write_file_atomic(request.output, fromsoft_json(tagfiles).dump(1) + "\n");
    return {};
}

ExportOutcome export_igi(const ExportRequest& request) {
    const igi::Graph g = igi::read_graph_file(request.input);
    std::string text;
    if (request.format == "json") text = igi::graph_to_json(g, true).dump(2) + "\n";
    else if (request.format == "graphml") text = igi::graph_to_graphml(g);
    else if (request.format == "obj") text = igi::graph_to_obj(g);
    else throw Error(fmt::format("format \"{}\" is not available for IGI graphs (json, graphml or obj)", request.format));
    write_file_atomic(request.output, text);
    return {};
}

ExportOutcome export_fc2(const ExportRequest& request) {
    if (request.format != "obj" && request.format != "json")
        throw Error("Far Cry 2 export writes obj or json, not '" + request.format + "'");
    farcry2::World world = farcry2::load_world(request.input);
    ExportOutcome outcome;
    for (const auto& f : world.failures) outcome.skipped.push_back(finding_text(f));
    if (world.sectors.empty())
        throw Error("no sector files (nv_<id>.nvm) to export; the level file nv.nvm holds no triangles")
            .set_file(request.input);
    farcry2::WorldMesh mesh = farcry2::stitch(world, parse_sector(request.entry));
    if (request.format == "obj") write_file_atomic(request.output, farcry2::to_obj(mesh));
    else write_file_atomic(request.output, farcry2::to_json(mesh).dump(1));
    outcome.summary = fmt::format("{}: {} triangles from {} sectors", request.output, mesh.triangles.size(),
                                  mesh.sectors.size());
    return outcome;
}

}  // namespace navlab::exporter
