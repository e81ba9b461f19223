// Kraken decode throughput on the samples, in MB/s of decoded output. The "/threads:1" runs
// are the per-core speed; "/all_cores" decodes restart-flagged blocks in parallel.
//   build/bench/bench_kraken [--benchmark_filter=er_allmaterial]
// Samples: $NAVLAB_SAMPLES, else ../shared/samples beside the source tree.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "codec/kraken/kraken.h"
#include "io/file.h"
#include "io/parallel.h"

namespace {

struct Sample {
    std::string name;
    std::vector<std::uint8_t> stream;
    std::size_t size;
};

std::filesystem::path samples_dir() {
    if (const char* env = std::getenv("NAVLAB_SAMPLES"); env && *env) return env;
    return std::filesystem::path(NAVLAB_SOURCE_DIR) / ".." / "shared" / "samples";
}

std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t o) {
    return std::uint32_t{b[o]} << 24 | std::uint32_t{b[o + 1]} << 16 | std::uint32_t{b[o + 2]} << 8 | b[o + 3];
}

/// KRAK DCX files (stream after the 0x4C-byte header) and raw .kraken files (u32le size first).
std::vector<Sample> load_samples() {
    std::vector<Sample> out;
    const auto dir = samples_dir();
    for (const char* sub : {"fromsoft", "kraken"}) {
        if (!std::filesystem::is_directory(dir / sub)) continue;
        for (const auto& entry : std::filesystem::directory_iterator(dir / sub)) {
            const auto path = entry.path();
            const auto bytes = navlab::read_file(path);
            if (path.extension() == ".dcx" && bytes.size() > 0x4C && std::string(bytes.begin() + 0x28, bytes.begin() + 0x2C) == "KRAK") {
                const std::size_t packed = be32(bytes, 0x20);
                if (0x4C + packed > bytes.size()) continue;
                out.push_back({path.stem().stem().string(),
                               {bytes.begin() + 0x4C, bytes.begin() + 0x4C + packed}, be32(bytes, 0x1C)});
            } else if (path.extension() == ".kraken" && bytes.size() > 4 && bytes.size() > 100000) {
                const std::size_t size = bytes[0] | bytes[1] << 8 | bytes[2] << 16 | std::size_t{bytes[3]} << 24;
                out.push_back({path.stem().string(), {bytes.begin() + 4, bytes.end()}, size});
            }
        }
    }
    return out;
}

void decode_sample(benchmark::State& state, const Sample* sample, unsigned threads) {
    std::vector<std::uint8_t> out(sample->size);
    for (auto _ : state) {
        navlab::kraken::decode(sample->stream, out, threads);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(sample->size));
}

}  // namespace

int main(int argc, char** argv) {
    static const std::vector<Sample> samples = load_samples();
    if (samples.empty()) std::fprintf(stderr, "bench_kraken: no samples found in %s\n", samples_dir().c_str());
    for (const Sample& s : samples) {
        // One thread: CPU time of the calling thread is the per-core speed even on a busy machine.
        benchmark::RegisterBenchmark((s.name + "/threads:1").c_str(), decode_sample, &s, 1u)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark((s.name + "/all_cores").c_str(), decode_sample, &s, 0u)->Unit(benchmark::kMillisecond)->UseRealTime();
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::printf("cores: %u\n", navlab::default_threads());
    return 0;
}
