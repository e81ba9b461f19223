// Tagfile read + full strict check throughput (MB/s) on large synthetic navmesh tagfiles
// written by our own Builder (a grid of quads; the bytes are mostly flat arrays like the game's).
// Also the writer's throughput for the same files, and the strict read of the real sample
// tagfiles ($NAVLAB_SAMPLES or ../shared/samples, havok/*/*.hkx; skipped when absent) with and
// without the thread's TYPE-section cache: Cold reads the seven files in turn, so the 4-entry
// cache never holds the next file's section and every read parses its type table; Cached reads
// each file twice in a row and times only the second. Cold / Cached = what the TYPE section costs.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "io/shared_bytes.h"

#include "havok/navmesh_fixture.h"
#include "havok/tagfile.h"
#include "havok/writer.h"

using namespace navlab;

namespace {

const std::vector<std::uint8_t>& grid(std::int64_t side) {
    static std::map<std::int64_t, std::vector<std::uint8_t>> cache;
    auto& bytes = cache[side];
    if (bytes.empty()) bytes = test::grid_navmesh(std::uint32_t(side), std::uint32_t(side));
    return bytes;
}

void BM_ReadStrict(benchmark::State& state) {
    const auto& bytes = grid(state.range(0));
    for (auto _ : state) {
        havok::Tagfile t = havok::read_tagfile(bytes);
        benchmark::DoNotOptimize(t.items.size());
    }
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes.size()));
    state.counters["file_MB"] = double(bytes.size()) / 1e6;
}

void BM_ReadStructureOnly(benchmark::State& state) {
    const auto& bytes = grid(state.range(0));
    havok::ReadOptions options;
    options.verify_objects = false;
    for (auto _ : state) {
        havok::Tagfile t = havok::read_tagfile(bytes, options);
        benchmark::DoNotOptimize(t.items.size());
    }
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes.size()));
}

void BM_RoundTripWrite(benchmark::State& state) {
    const auto& bytes = grid(state.range(0));
    const havok::Tagfile t = havok::read_tagfile(bytes);
    for (auto _ : state) {
        auto out = havok::write_tagfile(t);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes.size()));
}

/// The real TAG0 sample tagfiles, read once; empty when the samples folder is absent.
const std::vector<SharedBytes>& samples() {
    static const std::vector<SharedBytes> files = [] {
        std::vector<SharedBytes> out;
        const char* env = std::getenv("NAVLAB_SAMPLES");
        const std::filesystem::path dir =
            (env && *env ? std::filesystem::path(env) : std::filesystem::path(NAVLAB_SOURCE_DIR) / ".." / "shared" / "samples") /
            "havok";
        if (!std::filesystem::is_directory(dir)) return out;
        std::vector<std::filesystem::path> paths;
        for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
            if (e.is_regular_file() && e.path().extension() != ".md") paths.push_back(e.path());
        std::sort(paths.begin(), paths.end());
        for (const auto& p : paths) {
            SharedBytes bytes = SharedBytes::map_file(p);
            if (havok::looks_like_tagfile(bytes.span())) out.push_back(bytes);
        }
        return out;
    }();
    return files;
}

void read_samples(benchmark::State& state, bool cached) {
    const auto& files = samples();
    if (files.empty()) return state.SkipWithError("no sample tagfiles (set NAVLAB_SAMPLES)");
    std::int64_t bytes = 0;
    for (auto _ : state) {
        for (const SharedBytes& f : files) {
            if (cached) {
                state.PauseTiming();
                benchmark::DoNotOptimize(havok::read_tagfile(f.span()).items.size());
                state.ResumeTiming();
            }
            benchmark::DoNotOptimize(havok::read_tagfile(f.span()).items.size());
            bytes += std::int64_t(f.size());
        }
    }
    state.SetBytesProcessed(bytes);
    state.counters["files"] = double(files.size());  // the time of one iteration is one read of each
}
void BM_ReadSamplesCold(benchmark::State& state) { read_samples(state, false); }
void BM_ReadSamplesCached(benchmark::State& state) { read_samples(state, true); }

}  // namespace

// Grid side 64 (~0.6 MB), 256 (~9 MB), 512 (~37 MB).
BENCHMARK(BM_ReadStrict)->Arg(64)->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadStructureOnly)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RoundTripWrite)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadSamplesCold)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ReadSamplesCached)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
