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
void add_export_commands(CLI::App& app);     // export (dispatches to the format below)
void add_demo_commands(CLI::App& app);       // demo (the README's main job)
void add_build_commands(CLI::App& app);      // build, replace
void add_view_commands(CLI::App& app);       // view (HTML viewer page)

/// What `navlab export` was asked for; each format's exporter reads what it needs.
struct ExportRequest {
    std::string input;   ///< file or folder
    std::string output;  ///< output file (or folder for multi-file formats)
    std::string format;  ///< obj, json, graphml, glb, ply, detour
    std::string entry;   ///< binder entry name or index, or FC2 sector; empty = all
};

/// Per-format exporters, each in its area's cmd_*.cpp. Return an Exit code.
int export_fromsoft(const ExportRequest& request);
int export_igi(const ExportRequest& request);
int export_fc2(const ExportRequest& request);

/// Sets the command's exit code from inside a CLI11 callback.
void set_exit(int code);

}  // namespace navlab::cli
