// `navlab audit`: every Proven fact of the FromSoftware navmesh page checked on the input
// (shared/spec/audit-rules.md), and the FromSoftware side of `navlab export`.
#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "cli/audit_game_dir.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "export/fromsoft_export.h"
#include "formats/fromsoft/nav_source.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "io/error.h"
#include "io/file.h"
#include "audit/audit.h"
#include "audit/audit_files.h"
#include "audit/audit_report.h"

namespace navlab::cli {
namespace {

struct AuditOptions {
    std::vector<std::string> paths;
    std::string json;
    unsigned threads = 0;
    std::size_t examples = 5;
    GameDirOptions gameDir;  ///< --game-dir: binders streamed from a game install's archives
    bool all = false;
};

/// Prints the report (short, or every rule with --all), writes the JSON, and sets exit status 1
/// when an INVARIANT failed.
void report_audit(const audit::AuditReport& report, const AuditOptions& o) {
    fmt::print("{}", audit::format_audit_text(report, o.all ? audit::TextDetail::All : audit::TextDetail::Short));
    if (!o.json.empty()) write_file_atomic(o.json, audit::audit_json(report).dump(2) + "\n");
    if (audit::audit_failed(report)) set_exit(kFailed);
}

void run_audit(const AuditOptions& o) {
    // A game install given as a path (a Game/ folder with .bhd files) is read from its archives.
    if (!o.gameDir.dir.empty() || (o.paths.size() == 1 && archive::is_game_dir(o.paths[0]))) {
        GameDirOptions source = o.gameDir;
        if (source.dir.empty()) source.dir = o.paths[0];
        source.threads = o.threads;
        report_audit(audit::merge_audit(audit_game_dir(source, o.examples), {source.dir}, o.examples), o);
        return;
    }
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
    audit::AuditRun run = audit::audit_files(o.paths, {o.threads, o.examples}, on_file);
    progress.reset();  // finishes the line before the report
    report_audit(run.report, o);
}

}  // namespace

void add_audit_commands(CLI::App& app) {
    auto o = std::make_shared<AuditOptions>();
    auto* cmd = app.add_subcommand("audit", "Check every Proven fact of the FromSoftware navmesh page (rules R01-R97)");
    cmd->footer(
        "  Inputs: navmesh binders (.nvmhktbnd.dcx, .nvmhktbnd), .hkx tagfiles, or directories searched\n"
        "  recursively for them (exit 1 when a directory holds none). Prints the page's summary table\n"
        "  beside the input's, then the rules that failed or found exceptions (cases checked, exceptions,\n"
        "  first exceptions with binder, entry, index), then how many rules passed; --all prints every\n"
        "  rule and the supplementary counters. --json writes the full report. Exit status 1 when a rule\n"
        "  the page states as holding everywhere (INVARIANT) fails; statistics are only reported.\n"
        "  A progress line (files, MB/s, time left) is drawn on stderr when it is a terminal.\n"
        "  The output is identical whatever --threads is.\n"
        "  --game-dir GAME_DIR (or a Game/ folder with .bhd files as the one path) reads the binders from a\n"
        "  Sekiro / Elden Ring install's archives instead; nothing is written (docs/archives.md).\n"
        "Example: navlab audit Game/map/m10_00_00_00 --json audit.json\n"
        "         navlab audit --game-dir ~/ELDEN\\ RING/Game --json audit.json");
    auto* paths = cmd->add_option("paths", o->paths, "Binders, tagfiles or directories");
    auto* gameDir = cmd->add_option("--game-dir", o->gameDir.dir,
                                    "A Sekiro / Elden Ring install's Game/ folder: audit its navmesh binders straight "
                                    "from the .bhd/.bdt archives (docs/archives.md)");
    add_game_dir_options(cmd, o->gameDir);
    paths->excludes(gameDir);
    cmd->add_option("--json", o->json, "Also write the report as JSON (format navlab-audit/1) to FILE");
    cmd->add_option("--threads", o->threads, "Worker threads (0 = one per core)");
    cmd->add_option("--examples", o->examples, "First exceptions printed per rule (default 5)");
    cmd->add_flag("--all", o->all, "Print every rule, not only those with exceptions");
    cmd->callback([o] {
        if (o->paths.empty() && o->gameDir.dir.empty())
            throw CLI::ValidationError("paths", "give binders, tagfiles or directories, or --game-dir GAME_DIR");
        run_audit(*o);
    });
}

int export_fromsoft(const ExportRequest& request) {
    if (request.format != "obj" && request.format != "json")
        throw Error("FromSoftware navmeshes export as obj or json, not " + request.format);
    std::vector<exporter::NamedTagfile> tagfiles;
    try {
        fromsoft::NavFile nav = fromsoft::NavFile::open(request.input);
        for (const fromsoft::NavEntry& e : nav.entries()) {
            std::string leaf = std::filesystem::path(e.name).filename().string();
            auto slash = e.name.find_last_of("\\/");
            if (slash != std::string::npos) leaf = e.name.substr(slash + 1);
            if (!request.entry.empty() && request.entry != e.name && request.entry != leaf &&
                request.entry != std::to_string(e.index))
                continue;
            try {
                tagfiles.push_back({leaf, e.inBinder ? request.input : std::string(), fromsoft::read_nav_tagfile(e.bytes)});
            } catch (Error& err) {
                err.in(fmt::format("entry {} ({})", e.index, e.name));
                throw;
            }
        }
    } catch (Error& e) {
        e.set_file(request.input);
        throw;
    }
    if (tagfiles.empty()) throw Error("no navmesh tagfile matches --entry " + request.entry);
    if (request.format == "obj")
        write_file_atomic(request.output, exporter::fromsoft_obj(tagfiles));
    else
        write_file_atomic(request.output, exporter::fromsoft_json(tagfiles).dump(1) + "\n");
    return kOk;
}

}  // namespace navlab::cli
