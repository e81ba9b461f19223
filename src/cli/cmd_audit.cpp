// `navlab audit`: every Proven fact of the FromSoftware navmesh page checked on the input
// (shared/spec/audit-rules.md).
#include <fmt/format.h>

#include <filesystem>

#include "cli/commands.h"
#include "cli/progress.h"
#include "formats/fromsoft/nav_source.h"
#include "io/error.h"
#include "io/file.h"
#include "io/parallel.h"
#include "audit/audit.h"
#include "audit/audit_load.h"
#include "audit/audit_report.h"

namespace navlab::cli {
namespace {

struct AuditOptions {
    std::vector<std::string> paths;
    std::string json;
    unsigned threads = 0;
    std::size_t examples = 5;
};

/// Audits every tagfile of one file (binder or loose .hkx). A file that does not open is one
/// unreadable tagfile (R02), so one bad binder does not stop a corpus run.
std::vector<audit::TagfileAudit> audit_file(const std::filesystem::path& file, std::size_t examples) {
    std::vector<audit::TagfileAudit> out;
    std::string path = file.string();
    try {
        fromsoft::NavFile nav = fromsoft::NavFile::open(file);
        for (const fromsoft::NavEntry& e : nav.entries()) {
            audit::AuditTagfile t = audit::load_audit_tagfile(e.bytes, e.in_binder ? path : std::string(), e.name,
                                                          e.in_binder ? std::optional<std::size_t>(e.index) : std::nullopt);
            out.push_back(audit::audit_tagfile(t, examples));
        }
    } catch (const Error& err) {
        audit::AuditTagfile t;
        bool binder = !fromsoft::is_nav_file_name(file) || file.extension() != ".hkx";
        t.binder = binder ? path : std::string();
        t.entry = binder ? std::string() : file.filename().string();
        t.starts_with_tag0 = false;
        t.read_error = err.what();
        out.push_back(audit::audit_tagfile(t, examples));
    }
    return out;
}

void run_audit(const AuditOptions& o) {
    std::vector<std::filesystem::path> files;
    for (const auto& p : o.paths) {
        auto found = fromsoft::find_nav_files(p);
        files.insert(files.end(), found.begin(), found.end());
    }
    std::vector<std::vector<audit::TagfileAudit>> per_file(files.size());
    Progress progress("audit", files.size());
    parallel_for(files.size(), o.threads, [&](std::size_t i) {
        per_file[i] = audit_file(files[i], o.examples);
        progress.tick();
    });
    std::vector<audit::TagfileAudit> results;
    for (auto& v : per_file)
        for (auto& r : v) results.push_back(std::move(r));
    audit::AuditReport report = audit::merge_audit(results, o.paths, o.examples);
    fmt::print("{}", audit::format_audit_text(report));
    if (!o.json.empty()) write_file_atomic(o.json, audit::audit_json(report).dump(2) + "\n");
    if (audit::audit_failed(report)) set_exit(kFailed);
}

}  // namespace

void add_audit_commands(CLI::App& app) {
    auto o = std::make_shared<AuditOptions>();
    auto* cmd = app.add_subcommand("audit", "Check every Proven fact of the FromSoftware navmesh page (rules R01-R97)");
    cmd->footer(
        "  Inputs: navmesh binders (.nvmhktbnd.dcx, .nvmhktbnd), .hkx tagfiles, or directories searched\n"
        "  recursively for them. Prints the page's summary table beside the input's, then every rule with\n"
        "  cases checked, exceptions and the first exceptions (binder, entry, index). Exit status 1 when\n"
        "  a rule the page states as holding everywhere (INVARIANT) fails; statistics are only reported.\n"
        "  The output is identical whatever --threads is.\n"
        "Example: navlab audit Game/map/m10_00_00_00 --json audit.json");
    cmd->add_option("paths", o->paths, "Binders, tagfiles or directories")->required();
    cmd->add_option("--json", o->json, "Also write the report as JSON (format navlab-audit/1) to FILE");
    cmd->add_option("--threads", o->threads, "Worker threads (0 = one per core)");
    cmd->add_option("--examples", o->examples, "First exceptions printed per rule (default 5)");
    cmd->callback([o] { run_audit(*o); });
}

}  // namespace navlab::cli
