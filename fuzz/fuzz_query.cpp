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

namespace {

struct Reader {
    const std::uint8_t* data;
    std::size_t size, at = 0;
    std::uint8_t next() { return at < size ? data[at++] : 0; }
    double coord() { return (next() % 16) * 0.5; }
};

void check_path(const navlab::query::PathResult& r) {
    if (r.status != navlab::query::PathStatus::Found) return;
    if (!std::isfinite(r.length) || !std::isfinite(r.length_xz) || r.points.empty()) std::abort();
    const auto &a = r.points.front(), &b = r.points.back();
    double straight = std::hypot(a.x - b.x, a.z - b.z);
    if (r.length_xz + 1e-6 < straight) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    // The reader below takes at most 227 bytes (1 + 24 × 3 + 1 + 12 × 8 + 1 + 2 × 6 + 12 +
    // 4 × 8); libFuzzer's default of 4096 only spends mutations on bytes nothing reads.
    navlab::fuzz::add_default_flags(argc, argv, {"-max_len=256"});
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace navlab::query;
    Reader in{data, size};
    std::vector<Vec3> verts;
    int nv = 3 + in.next() % 24;
    for (int i = 0; i < nv; ++i) verts.push_back({in.coord(), in.coord() / 4, in.coord()});
    std::vector<std::vector<std::uint32_t>> polys;
    int np = 1 + in.next() % 12;
    for (int p = 0; p < np; ++p) {
        std::vector<std::uint32_t> ring;
        int n = 3 + in.next() % 5;
        for (int k = 0; k < n; ++k) ring.push_back(in.next() % nv);
        polys.push_back(ring);
    }
    std::vector<PolygonView::Link> links;
    int nl = in.next() % 3;
    for (int l = 0; l < nl; ++l)
        links.push_back({static_cast<std::uint32_t>(in.next() % np), static_cast<std::uint32_t>(in.next() % np),
                         {in.coord(), 0, in.coord()}, {in.coord(), 0, in.coord()}});
    std::vector<std::uint32_t> bits;
    for (int p = 0; p < np; ++p) bits.push_back(in.next() % 4);
    try {
        PolygonView view(verts, polys, links, bits);
        NavMeshQuery q(view);
        for (int i = 0; i < 4; ++i) {
            Vec3 s{in.coord(), in.coord() / 4, in.coord()}, e{in.coord(), in.coord() / 4, in.coord()};
            QueryFilter f;
            f.exclude_bits = in.next() % 3;
            f.use_links = in.next() % 2;
            check_path(q.find_path(s, e, PathMode::Exact, f));
            check_path(q.find_path(s, e, PathMode::Corridor, f));
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
