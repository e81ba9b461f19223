// `navlab demo`: the README's main job. It runs the whole FromSoftware pipeline on data the
// project makes itself (no game files needed): generate the small synthetic corpus with
// Recast, list one binder, audit the corpus against the page's rules, export one binder, and
// write a viewer page of the corpus.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "cli/commands.h"
#include "formats/fromsoft/nav_source.h"
#include "io/error.h"

namespace navlab::cli {
namespace {

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
    cmd->add_option("-o,--out", *dir, "Scratch folder for the corpus, report, OBJ and viewer page")->capture_default_str();
    cmd->callback([dir] {
        const std::filesystem::path out(*dir);
        const std::filesystem::path corpus = out / "corpus";
        std::filesystem::remove_all(corpus);
        std::filesystem::create_directories(corpus);
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
