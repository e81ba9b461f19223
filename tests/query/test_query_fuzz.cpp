// Replays fuzz_query's reproducers (tests/query/fuzz_reproducers: inputs the fuzzer made, not
// game files) through the target's own decoding (fuzz/support/query_input.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "../../fuzz/support/query_input.h"
#include "io/file.h"

namespace navlab::query {

// Folded and overlapping pieces on which the exact (Polyanya) search came round to the same
// intervals from the start's root until its guard (16 × (64 × pieces + 1024) pops: over a
// second each under ASan) and then said NoPath. With repeats pruned the search ends on its
// own (the whole replay takes milliseconds); a path it finds is finite and never shorter than
// the straight line. On such meshes exact and corridor may disagree on whether a path exists
// (docs/reliability.md), so that is not asserted.
TEST(QueryFuzzReproducers, ExactSearchEndsOnOverlappingPieces) {
    int found = 0;
    for (const char* name : {"query-cycle-1.bin", "query-cycle-2.bin", "query-cycle-3.bin"}) {
        const auto bytes = read_file(std::filesystem::path(NAVLAB_SOURCE_DIR) / "tests/query/fuzz_reproducers" / name);
        fuzz::QueryFuzzInput in(bytes.data(), bytes.size());
        const fuzz::QueryFuzzMesh m = in.mesh();
        PolygonView view(m.verts, m.polys, m.links, m.bits);
        NavMeshQuery q(view);
        for (int i = 0; i < 4; ++i) {
            const fuzz::QueryFuzzCase c = in.next_case();
            const PathResult exact = q.find_path(c.s, c.e, PathMode::Exact, c.f);
            if (exact.status != PathStatus::Found) continue;
            ++found;
            ASSERT_FALSE(exact.points.empty()) << name << " query " << i;
            EXPECT_TRUE(std::isfinite(exact.length) && std::isfinite(exact.length_xz)) << name << " query " << i;
            const auto &a = exact.points.front(), &b = exact.points.back();
            EXPECT_GE(exact.length_xz + 1e-9, std::hypot(a.x - b.x, a.z - b.z)) << name << " query " << i;
        }
    }
    std::printf("%d of 12 reproducer queries found a path\n", found);
}

// Pieces whose shared edges do not pair up (three pieces on one edge, folded rings): the
// corner graph's segment trace rebuilt each step from the entered piece's own neighbour
// across the edge, which there is another piece or none (-1, read as a piece index: an
// out-of-bounds read under ASan). Each step is now the one the trace took. Replayed as
// fuzz_query runs them: exact (interval and corner-graph searches) and corridor.
TEST(QueryFuzzReproducers, CornerGraphTraceOnPiecesWhoseEdgesDoNotPair) {
    for (const char* name : {"query-nonmanifold-1.bin", "query-nonmanifold-2.bin"}) {
        const auto bytes = read_file(std::filesystem::path(NAVLAB_SOURCE_DIR) / "tests/query/fuzz_reproducers" / name);
        fuzz::QueryFuzzInput in(bytes.data(), bytes.size());
        const fuzz::QueryFuzzMesh m = in.mesh();
        PolygonView view(m.verts, m.polys, m.links, m.bits);
        NavMeshQuery q(view), by_graph(view);
        by_graph.set_exact_search(ExactSearch::CornerGraph);
        for (int i = 0; i < 4; ++i) {
            const fuzz::QueryFuzzCase c = in.next_case();
            for (const PathResult& r : {q.find_path(c.s, c.e, PathMode::Exact, c.f), q.find_path(c.s, c.e, PathMode::Corridor, c.f),
                                        by_graph.find_path(c.s, c.e, PathMode::Exact, c.f)}) {
                if (r.status != PathStatus::Found) continue;
                ASSERT_FALSE(r.points.empty()) << name << " query " << i;
                EXPECT_TRUE(std::isfinite(r.length) && std::isfinite(r.length_xz)) << name << " query " << i;
                const auto &a = r.points.front(), &b = r.points.back();
                EXPECT_GE(r.length_xz + 1e-9, std::hypot(a.x - b.x, a.z - b.z)) << name << " query " << i;
            }
        }
    }
}

}  // namespace navlab::query
