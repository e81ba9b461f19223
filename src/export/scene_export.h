// `navlab export --format glb|ply|detour`: load any input as a scene (scene.h) and write it
// in one of the 3-D formats. One entry point so the command line stays a thin shell.
#pragma once

#include <string>
#include <vector>

#include "formats/fromsoft/binder_source.h"

namespace navlab::exporter {

/// True for the formats this file writes: glb, ply, detour.
bool is_scene_format(const std::string& format);

/// What an export did.
struct SceneExportResult {
    std::string summary;               ///< "out.glb: 3 members, 120 faces, 4 lines" (Detour: and its cell size)
    std::vector<std::string> skipped;  ///< input files that did not load (the file is still written)
};

/// Detour cells wider than this (metres; a scene over 3 km across) get a note in the summary.
inline constexpr float kCoarseDetourCell = 0.05f;

/// ", Detour cells 0.0043 m" for the summary, with a note when the cells are coarse.
std::string detour_cell_note(float cell_size);

/// Loads `input` (optionally one `entry`) and writes `output` atomically in `format`. An input
/// with no faces still gives a valid (empty) file; the summary then says so.
/// Throws navlab::Error for unreadable input or what the format cannot hold.
/// @param source --map/--game/--keys for a game install (load_scene).
SceneExportResult export_scene(const std::string& input, const std::string& entry, const std::string& format,
                               const std::string& output, const fromsoft::SourceOptions& source = {});

}  // namespace navlab::exporter
