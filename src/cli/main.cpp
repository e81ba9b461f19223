// navlab — read, check, convert, query and write the AI navigation data of shipped games.
#include <fmt/format.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <new>
#include <string>

#include "cli/commands.h"
#include "cli/help_format.h"
#include "io/error.h"
#include "io/heap_policy.h"
#include "io/version.h"

int main(int argc, char** argv) {
    using namespace navlab::cli;
    // A file-size limit (`ulimit -f`) must give write() an EFBIG error that the atomic writer
    // reports, keeping the old file, instead of a SIGXFSZ that kills the command mid-write.
    std::signal(SIGXFSZ, SIG_IGN);
    // An ignored SIGCHLD survives exec (a daemon's, a shell's): `build` waits for its Assimp
    // child (io/isolated.h), which the kernel would otherwise reap unseen.
    std::signal(SIGCHLD, SIG_DFL);
    // A freed binder or mesh array leaves memory at once (the audit's peak: docs/audit.md). The
    // command sets this for its process; the library never changes the allocator by itself.
    navlab::map_large_blocks_on_their_own();
    CLI::App app{
        "navlab: read, check, convert, query and write the AI navigation data of shipped games\n"
        "(FromSoftware Sekiro / Elden Ring Havok navmesh binders, Far Cry 2 .nvm, Project IGI graph .dat).\n\n"
        "Run `navlab COMMAND --help` for a command's inputs, outputs and an example.",
        "navlab"};
    app.require_subcommand(1);
    app.formatter(std::make_shared<navlab::cli::HelpFormatter>());  // before the commands: they copy it
    app.set_help_all_flag("--help-all", "Print help for every command");
    app.set_version_flag("--version", std::string("navlab ") + navlab::kVersion, "Print navlab's version and exit");
    add_demo_commands(app);
    add_container_commands(app);
    add_kraken_commands(app);
    add_hkx_commands(app);
    add_audit_commands(app);
    add_archive_commands(app);
    add_synth_commands(app);
    add_export_commands(app);
    add_igi_commands(app);
    add_fc2_commands(app);
    add_query_commands(app);
    add_build_commands(app);
    add_view_commands(app);
    if (argc == 1) {  // no command: the list of commands, not only "a subcommand is required"
        std::fputs(app.help().c_str(), stdout);
        return kUsage;
    }
    if (argv[1][0] != '-') {  // `navlab bogus`: CLI11 says only "A subcommand is required"
        try {
            app.get_subcommand(argv[1]);
        } catch (const CLI::OptionNotFound&) {
            std::fprintf(stderr, "navlab: no command '%s' (`navlab` lists the commands)\n", argv[1]);
            return kUsage;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? kOk : kUsage;
    } catch (const navlab::Error& e) {
        std::fprintf(stderr, "navlab: %s\n", e.what());
        return kFailed;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "navlab: out of memory: the input needs more memory than this process may use "
                             "(see `ulimit -v`); no output was written\n");
        return kFailed;
    } catch (const std::filesystem::filesystem_error& e) {
        // "filesystem error: cannot create directories: Permission denied [/x]" as navlab words
        // it: the path first, then what failed.
        std::string what = e.what();
        if (what.rfind("filesystem error: ", 0) == 0) what.erase(0, 18);
        if (const auto bracket = what.find(" ["); bracket != std::string::npos) what.erase(bracket);
        std::fprintf(stderr, "navlab: %s: %s\n", e.path1().string().c_str(), what.c_str());
        return kFailed;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "navlab: error: %s\n", e.what());
        return kFailed;
    }
    return exit_status();
}
