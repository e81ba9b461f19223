// The audit's per-face geometry alone, on the faces of real-sized corpora: the one-loop path
// (audit::analyse_face, as the audit runs it) against every figure computed on its own
// (analyse_face_in_full, the previous engine's steps), in CPU nanoseconds per face, with the
// share of faces the one-loop path takes. Both run over the same rings in one process,
// alternately, so the machine's load affects both alike.
//
//   bench_face_geometry DIR [--binders N] [--rounds R]
//
// DIR: binders or tagfiles (e.g. a `navlab synth --preset eldenring` corpus); the first N
// files (default 40) are read once and their well-formed face rings kept in memory.
#include <fmt/format.h>

#include <filesystem>
#include <string>
#include <vector>

#include "audit/audit_face_geometry.h"
#include "audit/audit_load.h"
#include "bench_options.h"
#include "formats/fromsoft/nav_source.h"
#include "geometry/face_ring.h"
#include "io/error.h"
#include "synth_corpus.h"

using namespace navlab;

int main(int argc, char** argv) {
    std::string dir;
    std::size_t most = 40;
    int rounds = 3;
    bench::Options("usage: bench_face_geometry DIR [--binders N] [--rounds R]\n"
                   "The audit's per-face geometry: the one-loop path against every figure on its own, in ns a face.")
        .positional("DIR", "binders or tagfiles (e.g. a `navlab synth --preset eldenring` corpus)", dir)
        .value("--binders", "N", "the first N files of DIR (default 40)", most)
        .value("--rounds", "R", "alternating rounds (default 3)", rounds)
        .parse(argc, argv);
    std::vector<std::vector<geometry::Point>> rings;
    std::vector<std::filesystem::path> files;
    try {
        files = fromsoft::find_nav_files(dir);
        if (files.size() > most) files.resize(most);
        for (const auto& file : files) {
            const fromsoft::NavFile nav = fromsoft::NavFile::open(file);
            for (const auto& e : nav.entries()) {
                const audit::AuditTagfile t = audit::load_audit_tagfile(e.bytes, file.string(), e.name, e.index);
                if (!t.model) continue;
                geometry::FaceRing ring;
                for (std::size_t f = 0; f < t.model->mesh.faces.size(); ++f)
                    if (geometry::read_face_ring(t.model->mesh, f, ring) == geometry::RingStatus::Ok) rings.push_back(ring.corners);
            }
        }
    } catch (const Error& e) {
        fmt::print(stderr, "bench_face_geometry: {}\n", e.what());
        return 1;
    }
    if (rings.empty()) {
        fmt::print(stderr, "bench_face_geometry: no well-formed face ring in the navmesh files under {}\n", dir);
        return 1;
    }
    std::size_t at_once = 0;
    audit::FaceScratch scratch;
    for (const auto& r : rings) {
        audit::FaceGeometry g;
        at_once += audit::analyse_face_at_once(geometry::FacePlane(r), scratch, g) != audit::OneLoop::NotTaken;
    }
    double best_fused = 1e300, best_full = 1e300;
    double checksum = 0;
    for (int round = 0; round < rounds; ++round) {
        double c0 = bench::cpu_seconds();
        for (const auto& r : rings) {
            audit::FaceGeometry g;
            audit::analyse_face(r, scratch, g);
            checksum += g.off_plane.distance;
        }
        best_fused = std::min(best_fused, bench::cpu_seconds() - c0);
        c0 = bench::cpu_seconds();
        for (const auto& r : rings) {
            audit::FaceGeometry g;
            audit::analyse_face_in_full(geometry::FacePlane(r), scratch, g);
            checksum -= g.off_plane.distance;
        }
        best_full = std::min(best_full, bench::cpu_seconds() - c0);
    }
    const double n = static_cast<double>(rings.size());
    fmt::print("faces      {} well-formed rings from {} files; one loop takes {:.1f} % of them\n", rings.size(), files.size(),
               100.0 * static_cast<double>(at_once) / n);
    fmt::print("analyse    one loop {:.0f} ns/face, every figure on its own {:.0f} ns/face: {:.2f}x (best of {} rounds)\n",
               best_fused / n * 1e9, best_full / n * 1e9, best_full / best_fused, rounds);
    return checksum == 0 ? 0 : 0;
}
