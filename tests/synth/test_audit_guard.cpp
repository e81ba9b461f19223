// The old-vs-new guard of the audit engine (issue 13): the JSON report must stay byte for byte
// what the first (per-rule, model-based) engine produced on the same input. The digests below
// were recorded from that engine (commit 12c7d05) and must only change together with an
// intended change of the report format, never with a change of speed.
//
// Inputs: reduced Sekiro- and Elden Ring-shaped corpora (the first binders of each preset's
// plan, made with the synth code in memory), the in-test synthetic meshes (grids and a
// few thousand random faces full of degenerate, collinear, non-convex and warped rings, so
// both the floating-point filter and its exact fallback decide), and the real Elden Ring sample.
#include <gtest/gtest.h>

#include <cstring>

#include "../audit/synthetic_navmesh.h"
#include "audit/audit.h"
#include "audit/audit_load.h"
#include "audit/audit_report.h"
#include "codec/dcx.h"
#include "container/bnd4.h"
#include "io/file.h"
#include "io/shared_bytes.h"
#include "support/samples.h"
#include "support/sha256.h"
#include "synth/corpus.h"
#include "synth/write.h"

using namespace navlab;

namespace {

std::string json_digest(const audit::AuditReport& report) {
    const std::string text = audit::audit_json(report).dump(2);
    return test::sha256_hex({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
}

std::string digest_of(const std::vector<audit::AuditTagfile>& files, std::size_t examples = 5) {
    std::vector<audit::TagfileAudit> results;
    for (const auto& f : files) results.push_back(audit::audit_tagfile(f, examples));
    return json_digest(audit::merge_audit(results, {"guard"}, examples));
}

/// The first `binders` binders of a preset's plan, each cut to its first `entries` tagfiles,
/// written and read back through DCX, BND4 and the strict reader as the CLI does.
std::vector<audit::AuditTagfile> reduced_corpus(synth::Preset preset, std::size_t binders, std::size_t entries,
                                                synth::Compression compression) {
    std::vector<synth::BinderPlan> plan = synth::plan_corpus(preset, 1);
    plan.resize(std::min(plan.size(), binders));
    for (auto& b : plan)
        if (b.entries.size() > entries) b.entries.resize(entries);
    const synth::TileLibrary library = synth::build_tile_library(preset, 1, 2);
    std::vector<audit::AuditTagfile> out;
    for (const auto& b : plan) {
        const synth::BinderOutput made = synth::make_binder(b, library, compression);
        const dcx::Decoded d = dcx::decompress(made.file);
        const bnd4::Binder binder = bnd4::read(d.payload);
        for (std::size_t e = 0; e < binder.entries.size(); ++e)
            out.push_back(audit::load_audit_tagfile(binder.entries[e].data(), b.archive_path, binder.entries[e].name, e));
    }
    return out;
}

/// Deterministic bits (splitmix64) so the random faces are the same on every machine.
struct Bits {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

/// An Elden Ring mesh of `faces` random rings (3–9 corners) over a small lattice with random
/// float offsets: repeated corners, collinear runs, bow ties, reflex corners, steep and warped
/// faces. Every edge is a boundary edge; the aabb and the tree are refitted.
audit::AuditTagfile random_faces(int faces, std::uint64_t seed) {
    test::SyntheticOptions o;
    o.width = o.height = 1;
    o.user_edges = false;
    audit::AuditTagfile f = test::synthetic_tagfile(o);
    auto& m = f.model->mesh;
    m.vertices.clear();
    m.edges.clear();
    m.faces.clear();
    Bits bits{seed};
    for (int i = 0; i < faces; ++i) {
        const int n = 3 + bits.below(7);
        const int base = static_cast<int>(m.vertices.size());
        const float ox = static_cast<float>(bits.below(50)) * 4.0f, oz = static_cast<float>(bits.below(50)) * 4.0f;
        const int style = bits.below(4);  // 0 lattice, 1 lattice + tiny offsets, 2 random, 3 flat collinear-ish
        for (int k = 0; k < n; ++k) {
            float x = static_cast<float>(bits.below(4)), y = static_cast<float>(bits.below(2)) * 0.5f,
                  z = static_cast<float>(bits.below(4));
            if (style == 1) x += static_cast<float>(bits.below(3)) * 1e-6f;
            if (style == 2) {
                x = static_cast<float>(bits.next() % 100000) / 25000.0f;
                y = static_cast<float>(bits.next() % 100000) / 1e6f;
                z = static_cast<float>(bits.next() % 100000) / 25000.0f;
            }
            if (style == 3) z = x * 0.5f + static_cast<float>(bits.below(2)) * 1e-7f;
            m.vertices.push_back({ox + x, y, oz + z, 1.0f});
        }
        fromsoft::Face face;
        face.startEdgeIndex = static_cast<std::int32_t>(m.edges.size());
        face.numEdges = static_cast<std::int16_t>(n);
        face.clusterIndex = -1;
        m.faces.push_back(face);
        for (int k = 0; k < n; ++k)
            m.edges.push_back({base + k, base + (k + 1) % n, fromsoft::kNoOpposite, fromsoft::kNoOpposite, 4, 0, 0});
    }
    m.faceData.assign(m.faces.size(), 0);
    m.edgeData.assign(m.edges.size(), 0);
    test::fit_aabb(m, m.aabb.max.w);
    f.model->mediator = fromsoft::build_query_mediator(m);
    return f;
}

}  // namespace

TEST(AuditGuard, SyntheticMeshesKeepTheirReport) {
    test::SyntheticOptions sekiro, wide, empty;
    sekiro.sekiro = true;
    wide.sekiro = true;
    wide.width = 30;
    empty.width = 0;
    empty.user_edges = false;
    std::vector<audit::AuditTagfile> files{test::synthetic_tagfile(), test::synthetic_tagfile(sekiro),
                                           test::synthetic_tagfile(wide), test::synthetic_tagfile(empty)};
    EXPECT_EQ(digest_of(files), "9f8c4852890132090f25cd631da6beecc49d0169af025914231f9e62a301a561");
}

TEST(AuditGuard, RandomFacesKeepTheirReport) {
    std::vector<audit::AuditTagfile> files{random_faces(3000, 1), random_faces(3000, 2)};
    // The faces reach every geometric outcome the guard must keep: clockwise and degenerate,
    // non-convex, wrong fans, turned triangles, faces without an ear, lost triangles.
    std::vector<audit::TagfileAudit> results;
    for (const auto& f : files) results.push_back(audit::audit_tagfile(f, 20));
    const audit::AuditReport report = audit::merge_audit(results, {"guard"}, 20);
    for (int rule : {38, 39, 40, 41, 43, 44, 46, 47, 48})
        EXPECT_GT(report.rules[rule - 1].by_game[1].exceptions, 100) << "R" << rule;
    EXPECT_EQ(digest_of(files, 20), "f1bff335d1b41a39aeba87991335fc06cb4e1ff5484509fb834bc2447d130f6c");
}

TEST(AuditGuard, ReducedSekiroCorpusKeepsItsReport) {
    EXPECT_EQ(digest_of(reduced_corpus(synth::Preset::Sekiro, 2, 40, synth::Compression::Dflt)), "944574959898e77168072e0ccb0ea78b8f5dbf3b2ca7ee83113e42ed5063a065");
}

TEST(AuditGuard, ReducedEldenRingCorpusKeepsItsReport) {
    EXPECT_EQ(digest_of(reduced_corpus(synth::Preset::EldenRing, 3, 20, synth::Compression::Zstd)), "ab45d2a4742b90ce25ca95d9ed963799afa429e089a8a6d44da43271151dc919");
}

TEST(AuditGuard, RealSampleKeepsItsReport) {
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    const SharedBytes in = SharedBytes::map_file(path);
    std::vector<audit::AuditTagfile> files{audit::load_audit_tagfile(in.span(), std::string(), path.filename().string(), std::nullopt)};
    EXPECT_EQ(digest_of(files, 10), "5397ba896f8c7d9cb3104cda9204768bfea217547093341fef7f52833f868144");
}

