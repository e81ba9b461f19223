#include "view/face_audit.h"

#include <algorithm>

#include "audit/audit.h"
#include "audit/audit_load.h"
#include "audit/audit_rules.h"
#include "formats/fromsoft/nav_source.h"
#include "io/error.h"

namespace navlab::view {
namespace {

const char* kind_name(audit::Kind k) {
    switch (k) {
        case audit::Kind::Invariant: return "invariant";
        case audit::Kind::Statistic: return "statistic";
        case audit::Kind::Observed: return "observed";
    }
    return "?";
}

/// Owning face of each regular edge (-1 for user edges and edges no face claims).
std::vector<std::int32_t> edge_owners(const fromsoft::NavMesh& m) {
    std::vector<std::int32_t> owner(m.edges.size(), -1);
    for (std::size_t f = 0; f < m.faces.size(); ++f)
        for (std::int64_t e = m.faces[f].startEdgeIndex; e < std::int64_t{m.faces[f].startEdgeIndex} + m.faces[f].numEdges; ++e)
            if (e >= 0 && e < static_cast<std::int64_t>(owner.size())) owner[e] = static_cast<std::int32_t>(f);
    return owner;
}

FaceAudit face_audit(const audit::AuditTagfile& tagfile, std::map<std::string, RuleInfo>& rules) {
    if (!tagfile.model) return {};  // unreadable: the scene could not show it either
    const fromsoft::NavMesh& mesh = tagfile.model->mesh;
    // Every exception is kept as an example, so every face with one is found.
    const std::size_t all = mesh.faces.size() + mesh.edges.size() + 16;
    const audit::TagfileAudit result = audit::audit_tagfile(tagfile, all);
    const auto owner = edge_owners(mesh);
    FaceAudit out;
    out.status.assign(mesh.faces.size(), 0);
    const auto defs = audit::all_rules();
    for (std::size_t r = 0; r < result.rules.size() && r < defs.size(); ++r) {
        for (const Finding& e : result.rules[r].examples) {
            std::int64_t face = -1;
            if (e.element_kind == "face" || e.element_kind == "corner") face = e.element;
            else if (e.element_kind == "edge" && e.element >= 0 && e.element < static_cast<std::int64_t>(owner.size())) face = owner[e.element];
            if (face < 0 || face >= static_cast<std::int64_t>(mesh.faces.size())) continue;
            auto& ids = out.rules[static_cast<std::uint32_t>(face)];
            if (std::find(ids.begin(), ids.end(), defs[r].id) != ids.end()) continue;
            ids.push_back(defs[r].id);
            const std::uint8_t level = defs[r].kind == audit::Kind::Invariant ? 2 : 1;
            out.status[face] = std::max(out.status[face], level);
            rules[defs[r].id] = {defs[r].title, kind_name(defs[r].kind)};
        }
    }
    return out;
}

}  // namespace

std::vector<FaceAudit> audit_faces(const fromsoft::NavFile& nav, const std::string& entry,
                                   std::map<std::string, RuleInfo>& rules) {
    std::vector<FaceAudit> out;
    try {
        const fromsoft::NavFile chosen = nav.select(entry);  // named: a temporary would end before the loop
        for (const fromsoft::NavEntry& e : chosen.entries()) {
            const audit::AuditTagfile t = audit::load_audit_tagfile(
                e.bytes, e.in_binder ? nav.name() : std::string(), e.name, e.in_binder ? std::optional(e.index) : std::nullopt,
                e.in_dcx);
            out.push_back(face_audit(t, rules));
        }
    } catch (Error& err) {
        err.set_file(nav.name());
        throw;
    }
    return out;
}

std::vector<FaceAudit> audit_faces(const std::string& input, const std::string& entry,
                                   std::map<std::string, RuleInfo>& rules) {
    return audit_faces(fromsoft::NavFile::open(input), entry, rules);
}

}  // namespace navlab::view
