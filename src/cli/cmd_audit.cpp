// `navlab audit`: every Proven fact of the FromSoftware navmesh page checked on the input
// (shared/spec/audit-rules.md).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <memory>

#include "audit/audit.h"
#include "audit/audit_files.h"
#include "audit/audit_report.h"
#include "cli/commands.h"
#include "cli/game_dir_options.h"
#include "cli/output_guard.h"
#include "cli/progress.h"
#include "container/archive/game_install.h"
#include "formats/fromsoft/nav_source.h"
#include "io/error.h"
#include "io/file.h"
#include "io/json_text.h"

namespace navlab::cli {
namespace {

struct AuditOptions {
    std::vector<std::string> paths;
    std::string json;
    unsigned threads = 0;
    std::size_t examples = 5;
    std::string gameDir;  ///< --game-dir: the same as giving the install as the one path
    SourceArgs source;    ///< --map, --game, --keys
    bool all = false;
};

/// Prints the report (short, or every rule with --all), writes the JSON, and sets exit status 1
/// when an INVARIANT failed.
void report_audit(const audit::AuditReport& report, const AuditOptions& o) {
    fmt::print("{}", audit::format_audit_text(report, o.all ? audit::TextDetail::All : audit::TextDetail::Short));
    if (!o.json.empty()) write_file_atomic(o.json, json_text(audit::audit_json(report), 2) + "\n");
    if (audit::audit_failed(report)) set_exit(kFailed);
}

void run_audit(const AuditOptions& o) {
    // A game install (a Game/ folder with .bhd files) is one more path: fromsoft::BinderSource
    // streams its navmesh binders from the archives.
    // --game-dir names an install: a folder with neither .bhd archives nor navmesh files is
    // named as a missing install, not as a folder without binders (one of binders is audited,
    // as it always was).
    if (!o.gameDir.empty() && !archive::is_game_dir(o.gameDir) &&
        (!std::filesystem::is_directory(o.gameDir) || fromsoft::find_nav_files(o.gameDir).empty()))
        archive::locate_game_dir(o.gameDir);
    const std::vector<std::string> paths = o.gameDir.empty() ? o.paths : std::vector<std::string>{o.gameDir};
    // The progress line needs the totals, which audit_files learns after finding the files:
    // it is made on the first call.
    std::unique_ptr<Progress> progress;
    std::uint64_t last_bytes = 0;
    auto on_file = [&](const audit::AuditProgress& p) {
        if (!progress) {
            progress = std::make_unique<Progress>("audit", p.files_total);
            progress->set_total_bytes(p.bytes_total);
        }
        progress->tick(1, p.bytes_done - last_bytes);
        last_bytes = p.bytes_done;
    };
    audit::AuditRun run = audit::audit_files(paths, {o.threads, o.examples, o.source.options(o.threads)}, on_file);
    progress.reset();  // finishes the line before the report
    // A binder of another kind (a .msgbnd given by name) opens but holds no tagfile: as for a
    // folder without binders, an error rather than a report of 97 rules not applicable.
    const audit::Summary& s = run.report.summary;
    if (s.sekiro.tagfiles + s.elden_ring.tagfiles + s.other_tagfiles + s.unreadable == 0)
        throw Error(fmt::format("no navmesh tagfile in {}: {} file(s) read, none holds a .hkx member",
                                fmt::join(paths, ", "), run.files.size()));
    report_audit(run.report, o);
}

}  // namespace

void add_audit_commands(CLI::App& app) {
    auto o = std::make_shared<AuditOptions>();
    auto* cmd = app.add_subcommand("audit", "Check every Proven fact of the FromSoftware navmesh page (rules R01-R97)");
    cmd->footer(
        "  Inputs: navmesh binders (.nvmhktbnd.dcx, .nvmhktbnd), .hkx tagfiles, or directories searched\n"
        "  recursively for them (exit 1 when they hold no navmesh tagfile). Prints the page's summary table\n"
        "  beside the input's, then the rules that failed or found exceptions (cases checked, exceptions,\n"
        "  first exceptions with binder, entry, index), then how many rules passed; --all prints every\n"
        "  rule and the supplementary counters. --json writes the full report. Exit status 1 when a rule\n"
        "  the page states as holding everywhere (INVARIANT) fails; statistics are only reported.\n"
        "  A progress line (files, MB/s, time left) is drawn on stderr when it is a terminal.\n"
        "  The output is identical whatever --threads is.\n"
        "  A Sekiro / Elden Ring install's Game/ folder (any path holding .bhd archives, or --game-dir) is\n"
        "  read in place: its navmesh binders are streamed from the archives, nothing is written; they are\n"
        "  named data2:/map/... (docs/archives.md). --map keeps only the binders named (map ids or paths).\n"
        "Example: navlab audit Game/map/m10_00_00_00 --json audit.json\n"
        "         navlab audit ~/ELDEN\\ RING/Game --map m60_44_36_00 --json audit.json");
    auto* paths = cmd->add_option("paths", o->paths, "Binders, tagfiles or directories");
    auto* gameDir = cmd->add_option("--game-dir", o->gameDir,
                                    "A Sekiro / Elden Ring install's Game/ folder: audit its navmesh binders straight "
                                    "from the .bhd/.bdt archives (docs/archives.md)");
    add_source_options(cmd, o->source, true);
    paths->excludes(gameDir);
    cmd->add_option("--json", o->json, "Also write the report as JSON (format navlab-audit/1) to FILE")->check(json_report_file());
    cmd->add_option("--threads", o->threads, "Worker threads (0 = one per core)");
    cmd->add_option("--examples", o->examples, "First exceptions printed per rule (default 5)");
    cmd->add_flag("--all", o->all, "Print every rule, not only those with exceptions");
    cmd->callback([o] {
        if (o->paths.empty() && o->gameDir.empty())
            throw CLI::ValidationError("paths", "give binders, tagfiles or directories, or --game-dir GAME_DIR");
        run_audit(*o);
    });
}

}  // namespace navlab::cli
