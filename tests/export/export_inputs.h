// Inputs of every family for the export and viewer tests, made on the spot: the small synthetic
// FromSoftware corpus (navlab synth), a Far Cry 2 world (the farcry2 tests' fixture writer) and
// an IGI graph (the igi tests' retail graph8 fixture).
#pragma once

#include <filesystem>
#include <string>

namespace navlab::test {

/// Paths of the generated inputs; made once per test program.
struct ExportInputs {
    std::filesystem::path dir;
    std::string sekiro_binder;  ///< a Sekiro-like binder (clusters, user edges)
    std::string er_binder;      ///< an Elden Ring-like binder (query trees, user edges)
    std::string empty_entry;    ///< name of an ER binder member with no face
    std::string fc2_world;      ///< a folder of 2 x 2 sectors
    std::string igi_graph;      ///< graph8.dat
};

const ExportInputs& export_inputs();

/// Runs a shell command; fails the current test (with the output) when the status differs.
std::string run_ok(const std::string& command);

/// Whole file as a string.
std::string slurp(const std::filesystem::path& path);

/// tools/web in the source tree (the pinned npm packages live in its node_modules).
std::filesystem::path web_tools();

}  // namespace navlab::test
