// `navlab synth`: the synthetic Sekiro / Elden Ring navmesh corpus (src/synth).
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/number_options.h"
#include "cli/output_guard.h"
#include "cli/progress.h"
#include "io/error.h"
#include "io/file.h"
#include "io/json_text.h"
#include "synth/inject.h"
#include "synth/write.h"

namespace navlab::cli {
namespace {

struct SynthArgs {
    std::string preset = "small";
    std::uint64_t seed = 1;
    std::string out;
    std::string dcx = "dflt";
    unsigned threads = 0;
    std::string inject;
    std::string json;
};

/// The page's figures for the summary (Sekiro, Elden Ring).
struct PageRow {
    const char* name;
    std::int64_t synth::GameCounts::*field;
    std::int64_t sekiro, elden_ring;
};
constexpr PageRow kPageRows[] = {
    {"Binders", &synth::GameCounts::binders, 10, 695},
    {"Tagfiles", &synth::GameCounts::tagfiles, 1509, 7438},
    {"Faces", &synth::GameCounts::faces, 279053, 6317094},
    {"Edges", &synth::GameCounts::edges, 1160836, 26313941},
    {"User edges", &synth::GameCounts::user_edges, 0, 2597337},
    {"Vertices", &synth::GameCounts::vertices, 454816, 13306284},
    {"Empty meshes", &synth::GameCounts::empty_meshes, 94, 4027},
    {"Cost graphs", &synth::GameCounts::graphs, 1509, 0},
    {"Graph nodes", &synth::GameCounts::graph_nodes, 20803, 0},
    {"Graph edges", &synth::GameCounts::graph_edges, 52200, 0},
    {"Mediators", &synth::GameCounts::mediators, 0, 6021},
    {"Tree nodes", &synth::GameCounts::tree_nodes, 0, 12630777},
    {"Setup arrays", &synth::GameCounts::setup_arrays, 430, 188},
    {"Setups", &synth::GameCounts::setups, 1463, 673},
};

void print_summary(const synth::CorpusResult& r, double seconds) {
    fmt::print("{:<14}{:>12}{:>12}{:>14}{:>14}\n", "", "Sekiro", "page", "Elden Ring", "page");
    for (const auto& row : kPageRows)
        fmt::print("{:<14}{:>12}{:>12}{:>14}{:>14}\n", row.name, r.sekiro.*row.field, row.sekiro,
                   r.elden_ring.*row.field, row.elden_ring);
    fmt::print("{} binders, {:.1f} MB written ({:.1f} MB of BND4), {:.1f} s\n", r.files.size(),
               static_cast<double>(r.file_bytes) / 1e6, static_cast<double>(r.binder_bytes) / 1e6, seconds);
}

nlohmann::json counts_json(const synth::GameCounts& c) {
    nlohmann::json j;
    for (const auto& row : kPageRows) j[row.name] = c.*row.field;
    return j;
}

}  // namespace

void add_synth_commands(CLI::App& app) {
    auto args = std::make_shared<SynthArgs>();
    auto* cmd = app.add_subcommand("synth", "Generate a synthetic Sekiro / Elden Ring navmesh binder corpus (Recast)");
    cmd->footer(
        "  Output: OUT/map/.../mAA_BB_CC_DD.nvmhktbnd.dcx binders (BND4 of Havok tagfiles, FromSoftware names and ids).\n"
        "  Presets: sekiro (10 binders, 1,509 tagfiles, 279k faces), eldenring (695 binders, 7,438 tagfiles,\n"
        "  6.3 M faces), small (4 binders, for tests). Same seed, same bytes, whatever --threads.\n"
        "  --inject RULE breaks one audit rule (R04, R26, R72, ...) in one tagfile and prints where.\n"
        "Example: navlab synth --preset sekiro --seed 7 --out corpus/sekiro");
    cmd->add_option("--preset", args->preset, "small, sekiro or eldenring")
        ->capture_default_str()
        ->check(CLI::IsMember({"small", "sekiro", "eldenring"}));  // a usage error: exit 2
    cmd->add_option("--seed", args->seed, "Random seed")->capture_default_str()->transform(whole_number(UINT64_MAX));
    cmd->add_option("-o,--out", args->out, "Output folder")->required();
    cmd->add_option("--dcx", args->dcx, "Binder compression: dflt, zstd or krak (Kraken, level 6)")
        ->capture_default_str()
        ->check(CLI::IsMember({"dflt", "zstd", "krak"}));
    cmd->add_option("--threads", args->threads, "Worker threads (0 = all cores)");
    cmd->add_option("--inject", args->inject, "Audit rule id to break once (see --help footer)")
        ->check(CLI::IsMember(synth::injectable_rules()));
    cmd->add_option("--json", args->json, "Also write the totals as JSON to this file")->check(json_report_file());
    cmd->callback([args] {
        synth::CorpusOptions o;
        o.preset = synth::parse_preset(args->preset);
        o.seed = args->seed;
        o.out = args->out;
        o.compression = synth::parse_compression(args->dcx);
        o.threads = args->threads;
        o.inject = args->inject;
        std::error_code made;
        std::filesystem::create_directories(o.out, made);
        if (made) throw Error("cannot make the output folder: " + made.message()).set_file(o.out.string());
        require_output_folder("--json", args->json);  // before the corpus is written, not after
        const auto plan = synth::plan_corpus(o.preset, o.seed);
        Progress progress("synth", plan.size());
        o.progress = [&](std::size_t, std::size_t) { progress.tick(); };
        const auto start = std::chrono::steady_clock::now();
        const synth::CorpusResult r = synth::generate_corpus(o);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        print_summary(r, seconds);
        if (!r.injected.empty()) fmt::print("injected {}\n", r.injected);
        if (!args->json.empty()) {
            nlohmann::json j{{"preset", args->preset}, {"seed", args->seed}, {"sekiro", counts_json(r.sekiro)},
                             {"elden_ring", counts_json(r.elden_ring)}, {"file_bytes", r.file_bytes},
                             {"binder_bytes", r.binder_bytes}, {"seconds", seconds}, {"injected", r.injected}};
            write_file_atomic(args->json, json_text(j, 2) + "\n");
        }
    });
}

}  // namespace navlab::cli
