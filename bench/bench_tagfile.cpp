// Tagfile read + full strict check throughput (MB/s) on large synthetic navmesh tagfiles
// written by our own Builder (a grid of quads; the bytes are mostly flat arrays like the game's).
// Also the writer's throughput for the same files.
#include <benchmark/benchmark.h>

#include <map>

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

}  // namespace

// Grid side 64 (~0.6 MB), 256 (~9 MB), 512 (~37 MB).
BENCHMARK(BM_ReadStrict)->Arg(64)->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadStructureOnly)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RoundTripWrite)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
