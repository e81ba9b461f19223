// The self-contained viewer page `navlab view` writes: one HTML file holding the viewer script
// (three.js bundled in at build time, tools/web/viewer), a JSON description of the scene and
// its binary buffers base64-packed. It opens offline in any browser; docs/viewer.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "export/scene.h"

namespace navlab::view {

/// Audit results of one member's faces.
struct FaceAudit {
    /// Per face: 0 no exception, 1 a reported statistic/observation, 2 a failed invariant.
    std::vector<std::uint8_t> status;
    std::map<std::uint32_t, std::vector<std::string>> rules;  ///< face -> rule ids with an exception there
};

/// A rule named in the page's audit panel.
struct RuleInfo {
    std::string title;
    std::string kind;  ///< "invariant", "statistic" or "observed"
};

/// A path to draw over the faces (the hook for `navlab path`; see docs/viewer.md).
struct ViewerPath {
    std::vector<exporter::Point3> points;  ///< polyline, metres, +y up
    std::vector<std::pair<std::uint32_t, std::uint32_t>> corridor;  ///< (member, face) in order
};

/// Everything one page shows.
struct ViewerInput {
    std::string title;
    std::vector<exporter::Scene> scenes;  ///< one per input, members shown in order
    /// Parallel to the members of all scenes (flattened); empty = written without --audit.
    std::vector<FaceAudit> audits;
    std::map<std::string, RuleInfo> rules;
    std::optional<ViewerPath> path;
};

/// Page size limits: the page is refused when the input has more faces than `max_faces` or
/// the page would be larger than `max_bytes`.
struct PageLimits {
    std::size_t max_faces = 250000;
    std::size_t max_bytes = 200u << 20;
};

/// Bytes the page will have (exact: the sections are sized before anything is written).
std::size_t page_size(const ViewerInput& input);

/// The HTML page. Throws navlab::Error when a limit is exceeded (the message gives the size
/// the page would have and suggests --entry / --max-faces), or when navlab was built without
/// the viewer script (tools/web/node_modules missing at build time).
std::string viewer_page(const ViewerInput& input, const PageLimits& limits = {});

}  // namespace navlab::view
