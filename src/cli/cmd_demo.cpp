// `navlab demo`: the README's main job. It runs the whole FromSoftware pipeline on data the
// project makes itself (no game files needed): generate the small synthetic corpus with
// Recast, list one binder, audit the corpus against the page's rules, export one binder, and
// write a viewer page of the corpus.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "cli/commands.h"
#include "formats/fromsoft/nav_source.h"
#include "io/error.h"
#include "io/file.h"
#include "synth/corpus.h"

namespace navlab::cli {
namespace {

/// Left in the corpus folder: the demo may replace a folder that holds it.
constexpr const char* kDemoMarker = ".navlab-demo";

/// Runs one navlab command line through the same registrations as main().
void run_step(const std::string& title, std::vector<std::string> args) {
    fmt::print("\n== {}\n$ navlab", title);
    for (const auto& a : args) fmt::print(" {}", a);
    fmt::print("\n");
    std::fflush(stdout);
    CLI::App app{"navlab"};
    app.require_subcommand(1);
    add_container_commands(app);
    add_synth_commands(app);
    add_audit_commands(app);
    add_export_commands(app);
    add_view_commands(app);
    std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last-first
    app.parse(args);
}

/// The binders step 1 writes under `corpus` (`synth --preset small --seed 1`).
std::set<std::filesystem::path> demo_binders(const std::filesystem::path& corpus) {
    std::set<std::filesystem::path> files;
    for (const synth::BinderPlan& b : synth::plan_corpus(synth::Preset::Small, 1))
        files.insert(corpus / b.archive_path.substr(1));  // "/map/..." under the corpus folder
    return files;
}

/// Empties `corpus` for a new demo run, refusing to delete what the demo did not write. A
/// folder with the demo's marker may hold navmesh binders and the marker; one without it (a
/// run from before the marker) only the binders the demo writes, at their own paths. A user
/// who passes --out with a folder of their own, binders included, must not lose it.
void clear_demo_corpus(const std::filesystem::path& corpus) {
    std::error_code ec;
    if (!std::filesystem::exists(corpus, ec)) return;
    if (!std::filesystem::is_directory(corpus, ec))
        throw Error("demo: " + corpus.string() + " exists and is not a folder: name another --out");
    const bool marked = std::filesystem::is_regular_file(corpus / kDemoMarker, ec);
    const std::set<std::filesystem::path> ours = demo_binders(corpus);
    for (auto it = std::filesystem::recursive_directory_iterator(corpus); it != std::filesystem::end(it); ++it) {
        const std::filesystem::path& p = it->path();
        if (it->is_directory() && !it->is_symlink()) continue;
        const bool binder = it->is_regular_file() && !it->is_symlink() && fromsoft::is_nav_file_name(p);
        if ((marked && (p.filename() == kDemoMarker || binder)) || (binder && ours.count(p))) continue;
        throw Error("demo: " + corpus.string() + " holds " + p.string() +
                    ", which the demo did not write: name another --out, or remove the folder (the demo replaces "
                    "its corpus folder)");
    }
    std::filesystem::remove_all(corpus);
}

}  // namespace

void add_demo_commands(CLI::App& app) {
    auto dir = std::make_shared<std::string>((std::filesystem::temp_directory_path() / "navlab-demo").string());
    auto* cmd = app.add_subcommand("demo", "Make a small synthetic navmesh corpus, then list, audit, export and view it");
    cmd->footer(
        "  The README's main job, on data navlab makes itself (no game files needed):\n"
        "  1. navlab synth --preset small   Recast scenes -> Sekiro- and Elden Ring-like binders (DCX/BND4/TAG0)\n"
        "  2. navlab ls                     the container chain and entries of one binder\n"
        "  3. navlab audit                  every rule of the page (R01-R97) on the corpus\n"
        "  4. navlab export --format obj    one binder's faces, triangulated, for Blender\n"
        "  5. navlab view --audit           a page showing the whole corpus in 3-D (open it in a browser)\n"
        "  Exit status: the audit's (1 when an invariant fails).\n"
        "Example: navlab demo --out /tmp/navlab-demo");
    cmd->add_option("-o,--out", *dir,
                    "Folder for the corpus, report, OBJ and viewer page (its corpus/ is replaced: refused when it "
                    "holds files the demo did not write)")->capture_default_str();
    cmd->callback([dir] {
        const std::filesystem::path out(*dir);
        const std::filesystem::path corpus = out / "corpus";
        clear_demo_corpus(corpus);
        std::filesystem::create_directories(corpus);
        write_file_atomic(corpus / kDemoMarker, std::string_view("written by navlab demo: the next demo run replaces this folder\n"));
        run_step("1. generate the small synthetic corpus",
                 {"synth", "--preset", "small", "--seed", "1", "--out", corpus.string()});
        auto files = fromsoft::find_nav_files(corpus.string());
        if (files.empty()) throw Error("demo: the generator wrote no binder into " + corpus.string());
        const std::string first = files.front().string();
        run_step("2. list one binder", {"ls", first});
        run_step("3. audit the corpus", {"audit", corpus.string(), "--json", (out / "audit.json").string()});
        run_step("4. export one binder for Blender",
                 {"export", first, "--format", "obj", "-o", (out / "binder.obj").string()});
        const std::string page = (out / "view.html").string();
        run_step("5. a viewer page of the corpus", {"view", corpus.string(), "--audit", "-o", page});
        fmt::print("\nDone: corpus in {}, audit report {}, mesh {}\nViewer page: {}\n", corpus.string(),
                   (out / "audit.json").string(), (out / "binder.obj").string(), page);
    });
}

}  // namespace navlab::cli
