#include "cli/audit_game_dir.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "audit/audit_load.h"
#include "cli/progress.h"
#include "container/archive/navmesh_search.h"
#include "container/binder_file.h"
#include "io/error.h"
#include "io/parallel.h"

namespace navlab::cli {
namespace {

bool has_hkx_suffix(const std::string& name) {
    if (name.size() < 4) return false;
    std::string tail = name.substr(name.size() - 4);
    std::transform(tail.begin(), tail.end(), tail.begin(), [](unsigned char c) { return std::tolower(c); });
    return tail == ".hkx";
}

}  // namespace

std::string archive_binder_name(const std::string& stem, const std::string& path) {
    std::string alias = stem;
    std::transform(alias.begin(), alias.end(), alias.begin(), [](unsigned char c) { return std::tolower(c); });
    return alias + ":" + path;
}

std::vector<audit::TagfileAudit> audit_game_dir(const GameDirOptions& o, std::size_t examples) {
    const archive::GameInstall install = open_game_dir(o);
    const std::vector<archive::NamedEntry> binders = archive::find_navmesh_binders(install);
    std::vector<std::vector<audit::TagfileAudit>> per_binder(binders.size());
    Progress progress("audit", binders.size());
    parallel_for(binders.size(), o.threads, [&](std::size_t i) {
        const archive::NamedEntry& b = binders[i];
        const std::string name = archive_binder_name(install.archives()[b.ref.archive].stem, b.path);
        try {
            const container::BinderFile file = container::BinderFile::from_bytes(install.read(b.ref), name);
            for (const container::Entry& e : file.entries()) {
                // The navmesh members are the .hkx entries, as for binders on disk (nav_source).
                if (file.is_binder && !has_hkx_suffix(e.name)) continue;
                const audit::AuditTagfile t = audit::load_audit_tagfile(
                    e.data, file.is_binder ? name : std::string(), e.name,
                    file.is_binder ? std::optional<std::size_t>(e.index) : std::nullopt);
                per_binder[i].push_back(audit::audit_tagfile(t, examples));
            }
        } catch (const Error& err) {
            audit::AuditTagfile t;
            t.binder = name;
            t.starts_with_tag0 = false;
            t.read_error = err.what();
            per_binder[i].push_back(audit::audit_tagfile(t, examples));
        }
        progress.tick();
    });
    std::vector<audit::TagfileAudit> results;
    for (auto& v : per_binder)
        for (auto& r : v) results.push_back(std::move(r));
    return results;
}

}  // namespace navlab::cli
