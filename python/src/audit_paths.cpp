#include "audit_paths.h"

#include "audit/audit.h"
#include "audit/audit_load.h"
#include "audit/audit_report.h"
#include "formats/fromsoft/nav_source.h"
#include "io/error.h"
#include "io/parallel.h"

namespace navlab::python {

std::string audit_paths_json(const std::vector<std::filesystem::path>& paths, unsigned threads, std::size_t examples) {
    std::vector<std::filesystem::path> files;
    std::vector<std::string> inputs;
    for (const auto& p : paths) {
        auto found = fromsoft::find_nav_files(p);
        files.insert(files.end(), found.begin(), found.end());
        inputs.push_back(p.string());
    }
    std::vector<std::vector<audit::TagfileAudit>> per_file(files.size());
    parallel_for(files.size(), threads, [&](std::size_t i) {
        const std::string path = files[i].string();
        try {
            fromsoft::NavFile nav = fromsoft::NavFile::open(files[i]);
            for (const fromsoft::NavEntry& e : nav.entries()) {
                audit::AuditTagfile t = audit::load_audit_tagfile(
                    e.bytes, e.inBinder ? path : std::string(), e.name,
                    e.inBinder ? std::optional<std::size_t>(e.index) : std::nullopt);
                per_file[i].push_back(audit::audit_tagfile(t, examples));
            }
        } catch (const Error& err) {
            audit::AuditTagfile t;
            const bool binder = files[i].extension() != ".hkx";
            t.binder = binder ? path : std::string();
            t.entry = binder ? std::string() : files[i].filename().string();
            t.starts_with_tag0 = false;
            t.read_error = err.what();
            per_file[i].push_back(audit::audit_tagfile(t, examples));
        }
    });
    std::vector<audit::TagfileAudit> results;
    for (auto& v : per_file)
        for (auto& r : v) results.push_back(std::move(r));
    audit::AuditReport report = audit::merge_audit(results, inputs, examples);
    return audit::audit_json(report).dump(2) + "\n";
}

}  // namespace navlab::python
