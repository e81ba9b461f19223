// The prologue bench_corpus and bench_archive share: CPU and wall clocks, and the synthetic
// corpus they measure — found in DIR, or generated there with `navlab synth`'s code when DIR
// holds no binder yet (and reused on later runs).
#pragma once

#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/fromsoft/nav_source.h"
#include "synth/write.h"

namespace navlab::bench {

inline double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

/// CPU seconds (user + system) of the whole process so far: on a shared machine wall time
/// says more about the neighbours than about the code.
inline double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/// The binders under `dir`, sorted as the audit sorts them; empty when `dir` does not exist.
inline std::vector<std::filesystem::path> binders_in(const std::filesystem::path& dir) {
    // The synth corpus holds binders only; find_nav_files sorts them as the audit does.
    if (!std::filesystem::exists(dir)) return {};
    return fromsoft::find_nav_files(dir);
}

/// The default corpus folder of a preset and seed: /tmp/navlab-bench-<preset>-<seed>.
inline std::string default_corpus_dir(const std::string& preset, std::uint64_t seed) {
    return fmt::format("/tmp/navlab-bench-{}-{}", preset, seed);
}

/// The corpus's binders: those in `dir`, or, when it holds none, a corpus generated there
/// first (preset, seed, `threads` workers; 0 = all cores) with one line printed about it.
inline std::vector<std::filesystem::path> corpus_binders(const std::string& preset, std::uint64_t seed,
                                                         const std::filesystem::path& dir, unsigned threads) {
    auto files = binders_in(dir);
    if (!files.empty()) return files;
    synth::CorpusOptions o;
    o.preset = synth::parse_preset(preset);
    o.seed = seed;
    o.out = dir;
    o.threads = threads;
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = synth::generate_corpus(o);
    fmt::print("generate   {:>8.1f} s   {} binders, {:.1f} MB of DCX, {:.1f} MB of BND4\n", seconds_since(t0),
               r.files.size(), r.fileBytes / 1e6, r.binderBytes / 1e6);
    return binders_in(dir);
}

}  // namespace navlab::bench
