// The audit (src/audit) seen per face, for the viewer's audit colouring and side panel: which
// rules have an exception on each face of each FromSoftware tagfile.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "formats/fromsoft/nav_source.h"
#include "view/viewer_page.h"

namespace navlab::view {

/// Audits the tagfiles of a FromSoftware binder or tagfile (optionally one `entry`, chosen as
/// exporter::load_fromsoft_tagfiles chooses it, so the results are parallel to its members)
/// and maps every exception located on a face, an edge (its owning face) or a corner to
/// that face. Adds the rules it names to `rules`.
std::vector<FaceAudit> audit_faces(const std::string& input, const std::string& entry,
                                   std::map<std::string, RuleInfo>& rules);
/// The same for a binder already opened (one of a fromsoft::BinderSource).
std::vector<FaceAudit> audit_faces(const fromsoft::NavFile& nav, const std::string& entry,
                                   std::map<std::string, RuleInfo>& rules);

}  // namespace navlab::view
