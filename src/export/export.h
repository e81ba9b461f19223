// `navlab export` as a library call: one request, the input's format family picked from the
// path, the output written atomically. The command only parses options and prints the outcome.
#pragma once

#include <string>
#include <vector>

#include "export/scene.h"
#include "formats/farcry2/world.h"
#include "formats/fromsoft/binder_source.h"

namespace navlab::exporter {

/// What to export; each family's exporter reads what it needs.
struct ExportRequest {
    std::string input;   ///< file or folder
    std::string output;  ///< output file (or folder for multi-file formats)
    std::string format;  ///< obj, json, graphml; empty = from the output's extension (obj when none)
    std::string entry;   ///< binder entry name or index, or Far Cry 2 sector; empty = all
    /// --map/--game/--keys: a game install (or any input with maps) is read as one FromSoftware
    /// binder through fromsoft::open_one_binder.
    fromsoft::SourceOptions source;
};

/// What an export did, for the caller to print.
struct ExportOutcome {
    std::vector<std::string> skipped;  ///< inputs that could not be read, and faces left out, one line each
    std::string summary;               ///< one line for the user, or empty
    bool complete() const noexcept { return skipped.empty(); }
};

/// The input's family (Family: export/scene.h): Far Cry 2 for folders and .nvm files, IGI for
/// .dat, FromSoftware else (export_navigation reads game installs and --map inputs as
/// FromSoftware first).
Family family_of(const std::string& input);

/// Loads the Far Cry 2 world of an input family_of() calls Far Cry 2, for an export or a page.
/// A folder holding no `.nvm` file is refused (navlab::Error naming it), in words that say what
/// it holds instead when that is FromSoftware navmesh files: an export writes one of those at a
/// time (`navlab view` shows a whole folder).
farcry2::World load_far_cry_2_input(const std::string& input);

/// Exports `request.input` with the exporter of its family (below). Throws navlab::Error for
/// unreadable input or a format the family does not offer; nothing is written then.
ExportOutcome export_navigation(ExportRequest request);

/// FromSoftware binder or tagfile: obj or json (fromsoft_export.h); `entry` picks one tagfile.
ExportOutcome export_fromsoft(const ExportRequest& request);
/// IGI graph<id>.dat: json, graphml or obj (igi_export.h).
ExportOutcome export_igi(const ExportRequest& request);
/// Far Cry 2 folder or .nvm: obj or json (fc2_mesh_export.h); `entry` picks one sector.
/// Unreadable sector files are skipped and listed in the outcome.
ExportOutcome export_fc2(const ExportRequest& request);

}  // namespace navlab::exporter
