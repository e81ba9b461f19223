// Audit throughput on generated navmeshes: faces per second and tagfile megabytes per second,
// for the rules alone (model in memory) and for strict read + rules (bytes in memory).
#include <benchmark/benchmark.h>

#include "formats/fromsoft/nav_tagfile.h"
#include "audit/audit.h"
#include "audit/audit_load.h"
#include "geometry/face_plane.h"
#include "geometry/face_ring.h"
#include "geometry/triangulate.h"
#include "audit/synthetic_navmesh.h"  // tests/nav: the generated models of the audit tests

using namespace navlab;

namespace {

test::SyntheticOptions grid(int side) {
    test::SyntheticOptions o;
    o.width = o.height = side;
    return o;
}

void BM_AuditModel(benchmark::State& state) {
    audit::AuditTagfile f = test::synthetic_tagfile(grid(static_cast<int>(state.range(0))));
    std::size_t bytes = fromsoft::write_nav_tagfile(*f.model).size();
    for (auto _ : state) benchmark::DoNotOptimize(audit::audit_tagfile(f, 5));
    state.counters["faces/s"] = benchmark::Counter(double(f.model->mesh.faces.size()) * state.iterations(),
                                                   benchmark::Counter::kIsRate);
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
}

void BM_ReadAndAudit(benchmark::State& state) {
    audit::AuditTagfile f = test::synthetic_tagfile(grid(static_cast<int>(state.range(0))));
    std::vector<std::uint8_t> bytes = fromsoft::write_nav_tagfile(*f.model);
    std::size_t faces = f.model->mesh.faces.size();
    for (auto _ : state) {
        audit::AuditTagfile t = audit::load_audit_tagfile(bytes, "", "bench.hkx", std::nullopt);
        benchmark::DoNotOptimize(audit::audit_tagfile(t, 5));
    }
    state.counters["faces/s"] = benchmark::Counter(double(faces) * state.iterations(), benchmark::Counter::kIsRate);
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes.size()) * state.iterations());
}

void BM_TriangulateFaces(benchmark::State& state) {
    audit::AuditTagfile f = test::synthetic_tagfile(grid(static_cast<int>(state.range(0))));
    const auto& mesh = f.model->mesh;
    geometry::FaceRing ring;
    for (auto _ : state)
        for (std::size_t i = 0; i < mesh.faces.size(); ++i) {
            geometry::read_face_ring(mesh, i, ring);
            geometry::FacePlane plane(ring.corners);
            benchmark::DoNotOptimize(geometry::triangulate_newell(plane));
        }
    state.counters["faces/s"] = benchmark::Counter(double(mesh.faces.size()) * state.iterations(), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_AuditModel)->Arg(32)->Arg(128)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadAndAudit)->Arg(32)->Arg(128)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TriangulateFaces)->Arg(128)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
