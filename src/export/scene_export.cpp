#include "export/scene_export.h"

#include <fmt/format.h>

#include "export/detour_export.h"
#include "export/glb_export.h"
#include "export/ply_export.h"
#include "export/scene.h"
#include "io/error.h"
#include "io/file.h"

namespace navlab::exporter {

std::string detour_cell_note(float cell_size) {
    std::string note = fmt::format(", Detour cells {:.3g} m", cell_size);
    // Detour stores corners as 16-bit cells over the whole scene: one stray vertex far from the
    // level widens every cell, and corners closer than a cell merge without a word.
    if (cell_size > kCoarseDetourCell)
        note += fmt::format(" (coarse: the scene spans {:.0f} m, and corners closer than a cell merge; a vertex far from "
                            "the rest, a damaged one, widens it: export fewer members with --entry)",
                            static_cast<double>(cell_size) * kDetourQuantumSteps);
    return note;
}

bool is_scene_format(const std::string& format) { return format == "glb" || format == "ply" || format == "detour"; }

SceneExportResult export_scene(const std::string& input, const std::string& entry, const std::string& format,
                               const std::string& output, const fromsoft::SourceOptions& source) {
    const Scene scene = load_scene(input, entry, source);
    std::vector<std::uint8_t> bytes;
    std::string detour_cells;
    if (format == "glb") bytes = scene_to_glb(scene);
    else if (format == "ply") bytes = scene_to_ply(scene);
    else if (format == "detour") {
        DetourSet set = scene_to_detour_set(scene);
        bytes = std::move(set.bytes);
        if (set.tiles > 0) detour_cells = detour_cell_note(set.cell_size);
    } else throw Error("format " + format + " is not one of glb, ply, detour");
    write_file_atomic(output, bytes);
    const std::size_t faces = scene.face_count();
    std::string summary = fmt::format("{}: {} members, {} faces, {} lines", output, scene.members.size(), faces,
                                      scene.line_count());
    summary += detour_cells;
    if (faces == 0 && scene.line_count() == 0) summary += " (the input holds no faces: the file is valid but empty)";
    return {summary, scene.skipped};
}

}  // namespace navlab::exporter
