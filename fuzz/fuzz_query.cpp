// libFuzzer target for the path queries: the input bytes become a small random mesh (vertices
// on a coarse grid so corners repeat, polygons of any winding, zero-area and folded faces,
// one-way links) and a few queries. Any mesh must either be refused with navlab::Error or
// answer every query without crashing, hanging or returning a path shorter than the straight
// line between its snapped ends.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "io/error.h"
#include "query/navmesh_query.h"
#include "support/flags.h"
#include "support/query_input.h"

namespace {

void check_path(const navlab::query::PathResult& r) {
    if (r.status != navlab::query::PathStatus::Found) return;
    if (!std::isfinite(r.length) || !std::isfinite(r.length_xz) || r.points.empty()) std::abort();
    const auto &a = r.points.front(), &b = r.points.back();
    double straight = std::hypot(a.x - b.x, a.z - b.z);
    if (r.length_xz + 1e-6 < straight) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    // QueryFuzzInput reads at most 227 bytes (1 + 24 × 3 + 1 + 12 × 8 + 1 + 2 × 6 + 12 +
    // 4 × 8); libFuzzer's default of 4096 only spends mutations on bytes nothing reads.
    navlab::fuzz::add_default_flags(argc, argv, {"-max_len=256"});
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace navlab::query;
    navlab::fuzz::QueryFuzzInput in(data, size);
    const navlab::fuzz::QueryFuzzMesh m = in.mesh();
    try {
        PolygonView view(m.verts, m.polys, m.links, m.bits);
        // One query object (building it was a fifth of a run; two were built before): the
        // default (Auto) exact search stays on intervals on a mesh this small while the graph
        // is not built, so every Auto query comes first, then the corner graph's (building
        // it makes Auto use it too) -- the same searches as two objects, one mesh build.
        NavMeshQuery q(view);
        navlab::fuzz::QueryFuzzCase cases[4];
        for (auto& c : cases) c = in.next_case();
        for (const auto& [s, e, f] : cases) {
            check_path(q.find_path(s, e, PathMode::Exact, f));
            check_path(q.find_path(s, e, PathMode::Corridor, f));
            RaycastResult r = q.raycast(s, e, f);
            if (!r.off_mesh && !(r.t >= 0 && r.t <= 1)) std::abort();
            q.nearest_face(s);
        }
        q.islands(true);
        q.islands(false);
        q.set_exact_search(ExactSearch::CornerGraph);  // exact's search on large meshes
        for (const auto& [s, e, f] : cases) check_path(q.find_path(s, e, PathMode::Exact, f));
    } catch (const navlab::Error&) {
    }
    return 0;
}
