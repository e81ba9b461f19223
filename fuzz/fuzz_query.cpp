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
        NavMeshQuery q(view), by_graph(view);
        by_graph.set_exact_search(ExactSearch::CornerGraph);  // exact's search on large meshes
        for (int i = 0; i < 4; ++i) {
            const auto [s, e, f] = in.next_case();
            check_path(q.find_path(s, e, PathMode::Exact, f));
            check_path(q.find_path(s, e, PathMode::Corridor, f));
            check_path(by_graph.find_path(s, e, PathMode::Exact, f));
            RaycastResult r = q.raycast(s, e, f);
            if (!r.off_mesh && !(r.t >= 0 && r.t <= 1)) std::abort();
            q.nearest_face(s);
        }
        q.islands(true);
        q.islands(false);
    } catch (const navlab::Error&) {
    }
    return 0;
}
