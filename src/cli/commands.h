// The navlab command is assembled from one registration function per area; each lives in
// its own cmd_*.cpp beside this header so that areas can change independently.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace navlab::cli {

/// Exit codes shared by every command.
enum Exit : int {
    kOk = 0,
    kFailed = 1,  ///< a check found a problem, or the input is malformed
    kUsage = 2,   ///< the command line is wrong
};

void add_container_commands(CLI::App& app);  // ls, unpack, pack, dcx
void add_kraken_commands(CLI::App& app);     // kraken decode
void add_hkx_commands(CLI::App& app);        // hkx check|types|dump|rewrite
void add_audit_commands(CLI::App& app);      // audit
void add_archive_commands(CLI::App& app);    // archive ls|extract (game installs)
void add_synth_commands(CLI::App& app);      // synth
void add_igi_commands(CLI::App& app);        // igi check|routes|rewrite|dump
void add_fc2_commands(CLI::App& app);        // fc2 info|check|rewrite
void add_export_commands(CLI::App& app);     // export (export/export.h)
void add_query_commands(CLI::App& app);      // path, nearest, raycast, islands
void add_demo_commands(CLI::App& app);       // demo (the README's main job)
void add_build_commands(CLI::App& app);      // build, replace
void add_view_commands(CLI::App& app);       // view (HTML viewer page)

/// Raises the command's exit code to `code` from inside a CLI11 callback (the worst wins).
void set_exit(int code);
/// The exit code set so far (kOk when none).
int exit_status();

}  // namespace navlab::cli
