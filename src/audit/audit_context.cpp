#include "audit/audit_context.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "audit/audit_face_batch.h"
#include "io/cpu_features.h"
#include "io/free_arrays.h"
#include "geometry/planarity.h"
#include "io/text.h"

namespace navlab::audit {
namespace {

CornerBounds bounds_of(std::span<const Point> corners) {
    // Taken in double and narrowed once: the corners are float vertices widened, so the
    // narrowing is exact and the extremes (and which of ±0 wins) are the same as in float.
    // x and y side by side in one vector (GCC/Clang vector extension, SSE2's minpd/maxpd on
    // x86-64): `q < lo ? q : lo` is std::min(lo, q) lane by lane, the first of equal values
    // kept. (The compiler left the three-lane loop scalar.)
    using Pair = double __attribute__((vector_size(16)));
    Pair lo_xy = {INFINITY, INFINITY}, hi_xy = {-INFINITY, -INFINITY};
    double lo_z = INFINITY, hi_z = -INFINITY;
    for (const Point& p : corners) {
        const Pair xy = {p.x, p.y};
        lo_xy = xy < lo_xy ? xy : lo_xy;
        hi_xy = hi_xy < xy ? xy : hi_xy;
        lo_z = std::min(lo_z, p.z), hi_z = std::max(hi_z, p.z);
    }
    CornerBounds b;
    b.min[0] = static_cast<float>(lo_xy[0]), b.min[1] = static_cast<float>(lo_xy[1]), b.min[2] = static_cast<float>(lo_z);
    b.max[0] = static_cast<float>(hi_xy[0]), b.max[1] = static_cast<float>(hi_xy[1]), b.max[2] = static_cast<float>(hi_z);
    return b;
}

/// The arrays of the last TagfileContext this thread destroyed, emptied but with their
/// capacity. A context takes them over and gives them back, so a thread auditing tagfile after
/// tagfile writes into memory it already has: arrays above the allocator's mmap threshold
/// (128 KiB, io/heap_policy.h) were otherwise mapped, zero-faulted page by page and unmapped
/// again for every large tagfile (≈ 0.25× the decode's CPU on the eldenring preset, seventh
/// session). What a thread keeps is at most the largest tagfile's context, which the peak
/// already holds while that tagfile is audited.
struct SpareStorage {
    DefaultInitVector<std::int32_t> owner;
    std::vector<RingView> rings;
    std::vector<CornerBounds> corner_bounds;
    std::vector<UnusualFace> unusual;
    ClusterCentres cluster_centres;
    DefaultInitVector<std::int32_t> ring_vertices;
    std::vector<ClusterPair> cluster_pairs;
    std::vector<Point> corners;  ///< a chunk of faces' corners, in read_faces (grows to the largest chunk)
    FaceScratch scratch;
    FaceBatch batch;
    fromsoft::DecodedTreeLeaves tree;
};

[[gnu::noinline]] SpareStorage& spare() {
    thread_local SpareStorage storage;
    return storage;
}

/// `to` takes `from`'s buffer, emptied.
template <class T, class A>
void take_emptied(std::vector<T, A>& to, std::vector<T, A>& from) {
    to = std::move(from);
    to.clear();
    from = {};
}

/// `to` takes `from`'s buffer with its entries, for an array whose every entry the next user
/// writes before it reads it (the ring views): its resize then makes only the entries past the
/// previous user's size (a value-initialising resize of every entry was ≈ 1.6 M instructions on
/// Sekiro `krak`).
template <class T>
void take_kept(std::vector<T>& to, std::vector<T>& from) {
    to = std::move(from);
    from = {};
}

/// The tolerances of a common face (R40's, R44's, R45's), written so that NaN counts as
/// unusual (FaceBatch::analyse tests the same of the faces it decided).
bool within_tolerances(double off_plane, const TriangulationCheck& c, double off_plane_limit) {
    return off_plane <= off_plane_limit && c.projected_relative <= kR44ProjectedRelativeMost &&
           c.area_difference_max <= kR45AreaDifferenceMost;
}

/// Sets R = Σ numEdges (negative counts as 0), `users` to whether any face has user edges
/// (numUserEdges > 0), and returns whether the faces tile the edges in order (each face's
/// startEdgeIndex is R of the faces before it) with R ≤ E. For such faces it writes every one
/// of the E entries of `owner` (whatever they held): face i owns [start, start + numEdges),
/// the entries from R on are kNoOwner. A face of at most eight edges with eight entries of
/// room writes eight entries whatever its numEdges (one range checked, no loop): a loop per
/// face, ending after its 3 … 8 edges, mispredicted its exit at nearly every face. Other faces
/// write their range in a loop. What a face writes past its range the next faces write again,
/// and what lies past the last range is cleared at the end (so `owner` needs no fill before:
/// filling all E entries first was a memset of 4 M instructions on Sekiro). When the faces do
/// not tile the edges, `owner` is left half written and the caller fills and marks it again.
bool own_tiled_edges(std::span<const fromsoft::Face> faces, std::span<std::int32_t> owner, std::int64_t& R, bool& users) {
    const std::int64_t E = static_cast<std::int64_t>(owner.size());
    std::int32_t* out = owner.data();
    std::int64_t r = 0;
    bool tiled = true, any_users = false;
    for (std::size_t i = 0; i < faces.size(); ++i) {
        const fromsoft::Face& face = faces[i];
        const std::int64_t n = std::max<std::int64_t>(0, face.numEdges);
        any_users |= face.numUserEdges > 0;
        tiled &= face.startEdgeIndex == r;
        const std::int32_t id = static_cast<std::int32_t>(i);
        if (tiled && n <= 8 && r + 8 <= E) {
            for (int k = 0; k < 8; ++k) out[r + k] = id;
        } else if (tiled) {
            for (std::int64_t e = r; e < r + n && e < E; ++e) out[e] = id;
        }
        r += n;
    }
    R = r;
    users = any_users;
    if (!tiled || r > E) return false;
    std::fill(out + r, out + E, kNoOwner);
    return true;
}

}  // namespace

namespace {

using Quad = float __attribute__((vector_size(16)));
using Counts = std::int32_t __attribute__((vector_size(16)));
static_assert(sizeof(Quad) == sizeof(fromsoft::Vec4));

/// The bounds and finiteness of vertices offered in order (bound_vertices' runs).
struct VertexRun {
    Quad lo = {INFINITY, INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    Quad not_finite = {};  // stays ±0 in a lane while its values are finite, else NaN
    // Lanes equal to 1, w's the one read (X01): a compare is all ones (-1) where true. A tagfile
    // is under 2^30 bytes (TAG0's size field), so under 2^26 vertices: no int32 overflows.
    Counts ones = {};
    void add(const fromsoft::Vec4& p) {
        Quad c;
        std::memcpy(&c, &p, sizeof c);
        lo = c < lo ? c : lo;  // std::min(lo, c) and std::max(hi, c), lane by lane: a NaN never enters
        hi = hi < c ? c : hi;
        not_finite += c * 0.0f;  // NaN for a NaN or an infinity, which no later sum undoes
        ones -= c == Quad{1.0f, 1.0f, 1.0f, 1.0f};
    }
    /// `later`'s vertices offered after this run's: this run's value wins a tie (-0 against +0),
    /// as in one run in vertex order.
    void join(const VertexRun& later) {
        lo = later.lo < lo ? later.lo : lo, hi = hi < later.hi ? later.hi : hi;
        not_finite += later.not_finite;
        ones += later.ones;
    }
};

bool finish_bounds(const VertexRun& all, VertexBounds& bounds) {
    for (int k = 0; k < 4; ++k) bounds.min[k] = all.lo[k], bounds.max[k] = all.hi[k];
    bounds.w_equal_1 = all.ones[3];
    return all.not_finite[0] == 0 && all.not_finite[1] == 0 && all.not_finite[2] == 0;
}

#if defined(__x86_64__)
/// Two quarters' runs from their vectors: the low half is the earlier quarter's, `two[0]`.
[[gnu::target("avx2")]] void take_two_runs(VertexRun* two, __m256 lo, __m256 hi, __m256 nf, __m256i ones) {
    alignas(32) float l[8], h[8], n[8];
    alignas(32) std::int32_t o[8];
    _mm256_store_ps(l, lo), _mm256_store_ps(h, hi), _mm256_store_ps(n, nf), _mm256_store_si256(reinterpret_cast<__m256i*>(o), ones);
    for (int k = 0; k < 2; ++k) {
        std::memcpy(&two[k].lo, l + 4 * k, 16), std::memcpy(&two[k].hi, h + 4 * k, 16);
        std::memcpy(&two[k].not_finite, n + 4 * k, 16), std::memcpy(&two[k].ones, o + 4 * k, 16);
    }
}

/// bound_vertices over four quarters of the vertices side by side, two to a 256-bit vector
/// (the first and second quarter in one, the third and fourth in the other): a vertex costs a
/// load or an insert and half of four AVX operations, against four SSE operations. Each
/// quarter is a run in vertex order (vminps(c, lo) is `c < lo ? c : lo`, vmaxps(c, hi) is
/// `hi < c ? c : hi`), the vertices past the fourth quarter's end join the fourth run, and the
/// runs join in order, so every bit is the one-run loop's.
[[gnu::target("avx2")]] bool bound_vertices_avx2(std::span<const fromsoft::Vec4> vertices, VertexBounds& bounds) {
    const std::size_t quarter = vertices.size() / 4;
    const float* const v = reinterpret_cast<const float*>(vertices.data());
    __m256 lo01 = _mm256_set1_ps(INFINITY), hi01 = _mm256_set1_ps(-INFINITY), lo23 = lo01, hi23 = hi01;
    __m256 nf01 = _mm256_setzero_ps(), nf23 = nf01;
    __m256i ones01 = _mm256_setzero_si256(), ones23 = ones01;  // VertexRun::ones, two runs a vector
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    for (std::size_t i = 0; i < quarter; ++i) {
        const float* const p = v + 4 * i;
        const __m256 c01 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p)), _mm_loadu_ps(p + 4 * quarter), 1);
        const __m256 c23 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 8 * quarter)), _mm_loadu_ps(p + 12 * quarter), 1);
        lo01 = _mm256_min_ps(c01, lo01), hi01 = _mm256_max_ps(c01, hi01), nf01 = _mm256_add_ps(nf01, _mm256_mul_ps(c01, zero));
        lo23 = _mm256_min_ps(c23, lo23), hi23 = _mm256_max_ps(c23, hi23), nf23 = _mm256_add_ps(nf23, _mm256_mul_ps(c23, zero));
        ones01 = _mm256_sub_epi32(ones01, _mm256_castps_si256(_mm256_cmp_ps(c01, one, _CMP_EQ_OQ)));
        ones23 = _mm256_sub_epi32(ones23, _mm256_castps_si256(_mm256_cmp_ps(c23, one, _CMP_EQ_OQ)));
    }
    VertexRun run[4];
    take_two_runs(run, lo01, hi01, nf01, ones01);
    take_two_runs(run + 2, lo23, hi23, nf23, ones23);
    for (std::size_t i = 4 * quarter; i < vertices.size(); ++i) run[3].add(vertices[i]);
    run[0].join(run[1]), run[2].join(run[3]), run[0].join(run[2]);
    return finish_bounds(run[0], bounds);
}
#endif

}  // namespace

/// Sets `bounds` from one pass over the vertices and returns whether every x, y and z is
/// finite. Out of line: inlined into the constructor, GCC kept the finiteness sum on the stack,
/// a store and a reload in the chain of every vertex's add (a third of the constructor's time).
[[gnu::noinline]] bool bound_vertices(std::span<const fromsoft::Vec4> vertices, VertexBounds& bounds) {
#if defined(__x86_64__)
    if (cpu_has_avx2()) return bound_vertices_avx2(vertices, bounds);
#endif
    return bound_vertices_without_avx2(vertices, bounds);
}

bool bound_vertices_without_avx2(std::span<const fromsoft::Vec4> vertices, VertexBounds& bounds) {
    // In locals (the compiler cannot rule out that `bounds` aliases the vertices, and stored
    // it on every vertex), the four lanes of a vertex in one vector as bounds_of does (SSE's
    // minps/maxps). Two runs side by side, over the first half and over the second, each in
    // vertex order: in one run every vertex waited for the last one's sum and bounds.
    const std::size_t half = vertices.size() / 2;
    const fromsoft::Vec4* const first = vertices.data();
    const fromsoft::Vec4* const second = first + half;
    VertexRun a, b;
    for (std::size_t i = 0; i < half; ++i) a.add(first[i]), b.add(second[i]);
    if (vertices.size() % 2 != 0) b.add(vertices.back());
    a.join(b);
    return finish_bounds(a, bounds);
}

namespace {

/// `m` after the faces of a DecidedTallies lane were offered to it too (`first` at `first_face`,
/// `best` at `best_face`, a face of +infinity: none): the value at the smaller first face, the
/// larger best value (the smaller face between equal ones), as offering all of them in face
/// order leaves it.
void take_lane(FirstAndBest& m, double first, double first_face, double best, double best_face) {
    if (first_face != INFINITY && (!m.any || first_face < m.first_face))
        m.any = true, m.first = first, m.first_face = static_cast<std::int32_t>(first_face);
    if (best_face != INFINITY && (!m.any_number || best > m.best || (best == m.best && best_face < m.best_face)))
        m.any_number = true, m.best = best, m.best_face = static_cast<std::int32_t>(best_face);
}
void take_lane(FirstAndBest& m, const DecidedTallies::Maximum& lane, int k) {
    take_lane(m, lane.first[k], lane.first_face[k], lane.best[k], lane.best_face[k]);
}

}  // namespace

void FaceTallies::add_decided(const DecidedTallies& t) {
    // Test ReadFacesOfASoundMeshEqualsTheFaceByFacePath keeps this and the batch's sums in step with add.
    for (int k = 0; k < DecidedTallies::kLanes; ++k) {
        faces += t.faces[k];
        not_convex_in_newell_plane += t.not_convex_in_newell_plane[k];
        triangles += t.triangles[k];
        edges_minus_2 += t.triangles[k];  // an Ok ring has numEdges corners
        take_lane(off_plane, t.off_plane, k);
        take_lane(projected_relative, t.projected_relative, k);
        take_lane(area_difference, 0, t.area_difference_face[k], 0, t.area_difference_face[k]);
        take_lane(area_difference_relative, 0, t.area_difference_relative_face[k], 0, t.area_difference_relative_face[k]);
    }
}

void FaceTallies::add(std::int32_t face, const FaceGeometry& g, int edges, double off_plane_limit) {
    ++faces;
    zero_normal += g.zero_normal;
    no_ear += g.no_ear;
    zero_normal_or_no_ear += g.zero_normal || g.no_ear;
    not_convex_in_newell_plane += !g.convex_in_newell_plane;
    triangles += g.triangles;
    dropped += g.dropped;
    fallbacks += g.fallbacks;
    turned += g.check.turned;
    edges_minus_2 += edges - 2;
    if (!g.zero_normal) off_plane.offer(g.off_plane.distance, face);
    if (!g.zero_normal && !g.no_ear) projected_relative.offer(g.check.projected_relative, face);
    if (!g.no_ear) {
        area_difference.offer(g.check.area_difference_max, face);
        if (g.check.projected_face > 0)
            area_difference_relative.offer(g.check.area_difference_max / g.check.projected_face, face);
    }
    const bool common = g.winding == Winding::CounterClockwise && g.convexity.convex && !g.zero_normal && g.bad_fan < 0 &&
                        g.check.turned == 0 && !g.no_ear && g.lost == 0 &&
                        within_tolerances(g.off_plane.distance, g.check, off_plane_limit);
    if (!common) unusual.push_back({face, g});
}

bool has_root_class(const fromsoft::NavTagfile& t, std::string_view cls) {
    for (const auto& v : t.variants)
        if (v.className == cls) return true;
    return false;
}

TagfileContext::TagfileContext(const AuditTagfile& f)
    : file(f), tagfile(*f.model), mesh(f.model->mesh), game(game_of_sdk(sdk_of(f))),
      where_prefix(std::make_shared<const std::string>(escape_non_utf8(f.binder.empty() ? f.entry : f.binder + " | " + f.entry))) {  // printed in reports
    SpareStorage& keep = spare();
    take_emptied(owner, keep.owner);
    take_kept(rings, keep.rings);
    take_emptied(corner_bounds, keep.corner_bounds);
    take_emptied(face_tallies.unusual, keep.unusual);
    take_emptied(cluster_centres.centroid_sum, keep.cluster_centres.centroid_sum);
    take_emptied(cluster_centres.faces, keep.cluster_centres.faces);
    take_emptied(ring_vertices, keep.ring_vertices);
    F = static_cast<std::int64_t>(mesh.faces.size());
    E = static_cast<std::int64_t>(mesh.edges.size());
    V = static_cast<std::int64_t>(mesh.vertices.size());
    owner.resize(static_cast<std::size_t>(E));  // no fill: own_tiled_edges writes every entry, or fails and the fill below does
    bool user_edges = false;
    regular_tiled = own_tiled_edges(mesh.faces, owner, R, user_edges);
    face_fields = bound_face_fields(mesh.faces);
    auto own = [&](std::int64_t start, std::int64_t n, std::int32_t face) {
        for (std::int64_t e = std::max<std::int64_t>(0, start); e < start + n && e < E; ++e)
            owner[e] = owner[e] == kNoOwner ? face : kManyOwners;
    };
    if (!regular_tiled) {
        owner.assign(E, kNoOwner);
        for (std::int64_t i = 0; i < F; ++i) own(mesh.faces[i].startEdgeIndex, mesh.faces[i].numEdges, static_cast<std::int32_t>(i));
    }
    // An edge's owner is the same whichever order the ranges are marked in (none, one face, or
    // kManyOwners), so the user edges come after every regular one; a second pass over the
    // faces only when some face has any (1.7 M instructions on Sekiro, where most have none).
    for (std::int64_t i = 0; user_edges && i < F; ++i) {
        const auto& face = mesh.faces[i];
        if (face.numUserEdges > 0) own(face.startUserEdgeIndex, face.numUserEdges, static_cast<std::int32_t>(i));
    }
    const bool finite = bound_vertices(mesh.vertices, vertex_bounds);
    // R63's cluster pairs only where there is a cluster graph to compare them with.
    edge_scan = scan_edges(mesh.edges, owner, R, V, tagfile.graph ? std::span(mesh.faces) : std::span<const fromsoft::Face>{},
                           widest_edge_lanes(), std::move(keep.cluster_pairs));
    sound_vertices = edge_scan.endpoints_are_vertices && finite;
    read_faces();
    if (tagfile.mediator && F > 0) {
        tree.emplace(std::move(keep.tree));
        fromsoft::decode_aabb_tree6_leaves(tagfile.mediator->nodes, tagfile.mediator->domain, *tree);
    }
}

TagfileContext::~TagfileContext() {
    SpareStorage& keep = spare();
    take_emptied(keep.owner, owner);
    take_kept(keep.rings, rings);
    take_emptied(keep.corner_bounds, corner_bounds);
    take_emptied(keep.unusual, face_tallies.unusual);
    take_emptied(keep.cluster_centres.centroid_sum, cluster_centres.centroid_sum);
    take_emptied(keep.cluster_centres.faces, cluster_centres.faces);
    take_emptied(keep.ring_vertices, ring_vertices);
    take_emptied(keep.cluster_pairs, edge_scan.cluster_pairs);
    if (tree) keep.tree = std::move(*tree);
}

/// Frees the arrays sized by the tagfile, not the face scratch and batch: those are sized by
/// the largest face (or fixed: the batch's inline rows), and `spare() = SpareStorage{}` zeroed
/// and copied the batch's rows, ≈ 0.8 M instructions a release: most of the +10.6 % own work
/// that releasing before every binder cost on m31 (19 binders).
void release_spare_context_storage(std::size_t min_bytes) {
    SpareStorage& s = spare();
    free_arrays_of_at_least(min_bytes, s.owner, s.rings, s.corner_bounds, s.unusual, s.cluster_centres.centroid_sum,
                            s.cluster_centres.faces, s.ring_vertices, s.cluster_pairs, s.corners, s.tree.leaves);
}

namespace {

/// Where read_faces' ring pass writes: the flat ring storage and the chunk's corners, each with
/// the room made so far. Passed by value and returned, so the pass keeps it in registers (its
/// int32 stores may alias anything reached through a reference).
struct RingStorage {
    std::int32_t* ring_out;
    std::size_t ring_room;
    std::size_t used = 0;  ///< entries of ring_out written
    bool moved = false;    ///< the ring storage grew, so the views made before point into its old buffer
    Point* corner_out;
    std::size_t corner_room;
};

/// What the ring pass reads, fixed for a tagfile.
struct RingSource {
    const fromsoft::NavMesh& mesh;
    bool sound;  ///< TagfileContext::sound_vertices
    /// sound, and the faces tile the edges in order (TagfileContext::regular_tiled): a face of
    /// 3 … kMostCorners edges then has its range inside the edges, and the ring storage (room
    /// for min(R, E) = R entries) room for its ring (read_sound_run).
    bool sound_tiled;
    RingView* views;
    DefaultInitVector<std::int32_t>& ring_vertices;
    std::vector<Point>& corners;
    FaceBatch& batch;
};

/// A chunk of faces ends once it holds this many corners (48 KiB of them), so the corner storage
/// stays within that and the longest ring.
constexpr std::size_t kChunkCorners = 2048;

/// The faces' rings from `first` to at most `end` into `storage`, a chunk: each face's ring viewed
/// in `views`, its corners after the chunk's earlier ones in the corner storage (corner_start[j]
/// … corner_start[j + 1] for face first + j: none unless the ring is Ok) and added to the batch
/// (in_batch[j], its slot or −1). The chunk ends before `end` once it holds kChunkCorners
/// corners. Returns the face after the chunk's last.
/// Widen: how write_sound_ring writes a corner (WidenVertex, or WidenVertexAvx2).
/// The corners a chunk may hold: it takes faces while it holds fewer than kChunkCorners, and a
/// face in read_sound_run has at most kMostCorners, plus write_sound_ring's slack.
constexpr std::size_t kSoundRunCorners = kChunkCorners + FaceBatch::kMostCorners + 1;

/// Where read_sound_run is: the next face's ring entries, the corners and the chunk's arrays.
struct SoundRun {
    std::int32_t* ring;
    Point* corners;
    std::size_t at;  ///< the next face's first corner
};

/// read_sound_run's face `i` of N edges: its ring written, and when it closes viewed, filed in
/// the batch and counted in `run`; returns whether it closed.
template <int N, class Widen>
bool read_sound_ring(const fromsoft::Edge* edge, const fromsoft::Vec4* vertices, RingView& view, FaceBatch& batch, SoundRun& run,
                     std::int64_t i, std::size_t& corner_end, int& in_batch) {
    if (!write_sound_ring_of<N, Widen>(edge, vertices, run.ring, run.corners + run.at)) return false;
    view = {RingStatus::Ok, -1, {run.ring, static_cast<std::size_t>(N)}};
    run.ring += N;
    in_batch = batch.add_of<N>(run.at, static_cast<std::int32_t>(i));
    run.at += N;
    corner_end = run.at;
    return true;
}

/// read_rings' faces from `i` on while each has 3 … kMostCorners edges and a ring that closes, in
/// a mesh that is sound_tiled, with room for kSoundRunCorners corners: their ranges are inside
/// the edges and the ring storage has room for their rings (each ring takes at most what its
/// face's range spans, and the ranges tile R ≤ room entries), so the only tests left per face are
/// its length and its ring's closure (the general loop's range and two room tests, with its
/// spilled pointers, were ≈ 40 instructions a face on Sekiro `krak`). The chunk holds fewer than
/// kMost faces before each, so add_of may file them. Returns the first face not read (a face it
/// stops at is left for the general loop, which writes it afresh).
template <class Widen>
std::int64_t read_sound_run(const RingSource& src, RingStorage& out, std::int64_t first, std::int64_t i, std::int64_t end,
                            std::size_t* corner_start, int* in_batch) {
    const fromsoft::Face* const faces = src.mesh.faces.data();
    const fromsoft::Edge* const edges = src.mesh.edges.data();
    const fromsoft::Vec4* const vertices = src.mesh.vertices.data();
    RingView* const views = src.views;
    FaceBatch& batch = src.batch;
    SoundRun run{out.ring_out + out.used, out.corner_out, corner_start[i - first]};
    static_assert(FaceBatch::kMostCorners == 8, "one case per length the batch takes");
    for (; i < end && run.at < kChunkCorners; ++i) {
        const fromsoft::Edge* const edge = edges + faces[i].startEdgeIndex;
        std::size_t& corner_end = corner_start[i - first + 1];
        int& slot = in_batch[i - first];
        bool closed = false;
        switch (faces[i].numEdges) {
            case 3: closed = read_sound_ring<3, Widen>(edge, vertices, views[i], batch, run, i, corner_end, slot); break;
            case 4: closed = read_sound_ring<4, Widen>(edge, vertices, views[i], batch, run, i, corner_end, slot); break;
            case 5: closed = read_sound_ring<5, Widen>(edge, vertices, views[i], batch, run, i, corner_end, slot); break;
            case 6: closed = read_sound_ring<6, Widen>(edge, vertices, views[i], batch, run, i, corner_end, slot); break;
            case 7: closed = read_sound_ring<7, Widen>(edge, vertices, views[i], batch, run, i, corner_end, slot); break;
            case 8: closed = read_sound_ring<8, Widen>(edge, vertices, views[i], batch, run, i, corner_end, slot); break;
            default: break;
        }
        if (!closed) break;
    }
    out.used = static_cast<std::size_t>(run.ring - out.ring_out);
    return i;
}

template <class Widen>
std::int64_t read_rings(const RingSource& src, RingStorage& storage, std::int64_t first, std::int64_t end, std::size_t* corner_start,
                        int* in_batch) {
    RingStorage out = storage;
    const bool sound_tiled = src.sound_tiled;
    if (sound_tiled && out.corner_room < kSoundRunCorners) {
        src.corners.resize(kSoundRunCorners);
        out.corner_out = src.corners.data(), out.corner_room = kSoundRunCorners;
    }
    const fromsoft::Face* const faces = src.mesh.faces.data();
    const fromsoft::Edge* const edges = src.mesh.edges.data();
    const fromsoft::Vec4* const vertices = src.mesh.vertices.data();
    const std::size_t edge_count = src.mesh.edges.size();
    const bool sound = src.sound;
    RingView* const views = src.views;
    FaceBatch& batch = src.batch;
    batch.clear();
    corner_start[0] = 0;
    std::int64_t last = first;
    for (; last < end && corner_start[last - first] < kChunkCorners; ++last) {
        if (sound_tiled) {
            last = read_sound_run<Widen>(src, out, first, last, end, corner_start, in_batch);
            if (last == end || corner_start[last - first] >= kChunkCorners) break;
        }
        const std::int64_t i = last, j = i - first;
        const std::size_t room = face_ring_room(faces[i], edge_count), at = corner_start[j];
        if (out.ring_room - out.used < room) {
            const std::size_t grown = std::max(out.used + room, 2 * out.ring_room);
            src.ring_vertices.resize(out.used);  // nothing unwritten is copied
            src.ring_vertices.resize(grown);
            out.ring_out = src.ring_vertices.data(), out.ring_room = grown;
            out.moved = true;
        }
        if (out.corner_room < at + room + 1) {  // + 1: write_sound_ring's slack
            src.corners.resize(at + room + 1);
            out.corner_out = src.corners.data(), out.corner_room = at + room + 1;
        }
        // A sound mesh's ring is Open or Ok where it has room: only its closure is tested.
        RingWritten w;
        if (sound && room != 0 &&
            write_sound_ring<Widen>(edges + faces[i].startEdgeIndex, static_cast<std::int64_t>(room), vertices,
                                    out.ring_out + out.used, out.corner_out + at))
            w.vertices = w.corners = static_cast<int>(room);
        else
            w = write_face_ring(src.mesh, static_cast<std::size_t>(i), out.ring_out + out.used, out.corner_out + at);
        // Viewing the storage as it is now: valid at the end unless it grows again.
        views[i] = {w.status, w.break_at, {out.ring_out + out.used, static_cast<std::size_t>(w.vertices)}};
        out.used += static_cast<std::size_t>(w.vertices);
        // A ring not Ok has no corners here (add refuses fewer than 3); an Ok one has 3 or more.
        const int n = w.status == RingStatus::Ok ? w.corners : 0;
        corner_start[j + 1] = at + static_cast<std::size_t>(n);
        in_batch[j] = batch.add(at, n, static_cast<std::int32_t>(i));
    }
    storage = out;
    return last;
}

[[gnu::noinline]] std::int64_t read_rings_of_chunk(const RingSource& src, RingStorage& storage, std::int64_t first, std::int64_t end,
                                                  std::size_t* corner_start, int* in_batch) {
    return read_rings<geometry::WidenVertex>(src, storage, first, end, corner_start, in_batch);
}

#if defined(__x86_64__)
/// write_sound_ring's corner as one AVX convert of the whole vertex (x, y, z, w) and one 32-byte
/// store, w landing on the next corner's x or the slack (geometry::WidenVertex): 2 instructions
/// a corner against 6.
struct WidenVertexAvx2 {
    [[gnu::target("avx2")]] static void widen(const fromsoft::Vec4& v, Point* corner) {
        static_assert(sizeof(fromsoft::Vec4) == 16 && sizeof(Point) == 24);
        _mm256_storeu_pd(reinterpret_cast<double*>(corner), _mm256_cvtps_pd(_mm_loadu_ps(&v.x)));
    }
};

/// read_rings_of_chunk compiled for AVX2 (read_faces takes it where the processor has it), every
/// call inlined (flatten), WidenVertexAvx2's among them.
[[gnu::target("avx2"), gnu::flatten, gnu::noinline]] std::int64_t read_rings_of_chunk_avx2(const RingSource& src, RingStorage& storage,
                                                                                          std::int64_t first, std::int64_t end,
                                                                                          std::size_t* corner_start, int* in_batch) {
    return read_rings<WidenVertexAvx2>(src, storage, first, end, corner_start, in_batch);
}
#endif

/// Where read_faces puts what it learns of each face, fixed for a tagfile.
struct FaceSink {
    const fromsoft::Face* faces;
    FaceTallies& tallies;
    FaceScratch& scratch;
    double off_plane_limit;
    CornerBounds* corner_bounds;  ///< nullptr without a tree
    Point* centroid_sum;          ///< R64's, per cluster
    std::int64_t* cluster_faces;
    std::int64_t clusters;        ///< K: 0 without a cluster graph
};

/// A chunk's faces as the batch analysed them (read_rings' arrays).
struct ChunkFaces {
    const FaceBatch& batch;
    const std::size_t* corner_start;
    const int* in_batch;
    const Point* corners;
    std::int64_t first, last;
};

/// The geometry of face `face`, whose ring is Ok and which the batch did not find common, kept
/// among the unusual faces (a decided one, whose tallies the batch has too) or tallied.
[[gnu::noinline]] void take_uncommon_face(const FaceSink& sink, std::int64_t face, std::span<const Point> ring, const FaceFigures* figures) {
    FaceGeometry g;
    analyse_face(ring, sink.scratch, g, figures);
    const std::int32_t i = static_cast<std::int32_t>(face);
    if (figures && figures->decided.both_fans) sink.tallies.unusual.push_back({i, g});
    else sink.tallies.add(i, g, sink.faces[face].numEdges, sink.off_plane_limit);
}

/// read_faces' pass over a chunk's faces in face order once the batch analysed them (the
/// tallies keep first values and the unusual faces in face order): out of line, with its
/// arrays as arguments, so the pass over ≈ 90 % common faces keeps them in registers (inside
/// read_faces they were on the stack, and the batch's address taken from the thread's
/// storage per face).
[[gnu::noinline]] void take_chunk(const ChunkFaces& chunk, const FaceSink& sink) {
    const FaceBatch& batch = chunk.batch;
    const std::size_t* const corner_start = chunk.corner_start;  // indexed by j = i − chunk.first
    const int* const in_batch = chunk.in_batch;
    const fromsoft::Face* const faces = sink.faces;
    CornerBounds* const corner_bounds = sink.corner_bounds;
    Point* const centroid_sum = sink.centroid_sum;
    std::int64_t* const cluster_faces = sink.cluster_faces;
    const std::int64_t K = sink.clusters, last = chunk.last;  // locals: ++cluster_faces[k] might write them
    const Point* const corners = chunk.corners;
    for (std::int64_t i = chunk.first, j = 0; i < last; ++i, ++j) {
        const std::size_t at = corner_start[j], n = corner_start[j + 1] - at;
        if (n == 0) continue;  // the ring is not Ok
        const std::span<const Point> ring(corners + at, n);
        const int slot = in_batch[j];
        // A common face is all in the batch's tallies.
        if (slot < 0 || !batch.common(slot)) take_uncommon_face(sink, i, ring, slot >= 0 ? &batch.figures(slot) : nullptr);
        if (corner_bounds) corner_bounds[i] = slot >= 0 ? batch.corner_box(slot) : bounds_of(ring);
        if (const int k = faces[i].clusterIndex; k >= 0 && k < K) {
            // The batch's centroid is centroid_of's over the same corners, lane by lane.
            centroid_sum[k] = centroid_sum[k] + (slot >= 0 ? batch.centroid(slot) : geometry::centroid_of(ring.data(), ring.size()));
            ++cluster_faces[k];
        }
    }
}

}  // namespace

void TagfileContext::read_faces() {
    SpareStorage& keep = spare();
    // Entries kept from an earlier context are stale views: every one below F is written below
    // before it is read, so only the entries past the earlier size are made.
    rings.resize(F);
    // Only the tree's rules (R72, X10) read the corners' boxes: none without a mediator.
    const bool bounds = tagfile.mediator.has_value();
    corner_bounds.resize(bounds ? F : 0);
    // R64's sums only where there is a cluster graph; K = 0 without one, so no face is added.
    const std::int64_t K = tagfile.graph ? static_cast<std::int64_t>(tagfile.graph->nodes.size()) : 0;
    cluster_centres.centroid_sum.assign(static_cast<std::size_t>(K), Point{0, 0, 0});
    cluster_centres.faces.assign(static_cast<std::size_t>(K), 0);
    // The arrays through locals: the ring's vertices are stored as int32, which may alias any
    // member or vector bookkeeping, so the compiler reloaded each size and pointer per face.
    Point* const centroid_sum = cluster_centres.centroid_sum.data();
    std::int64_t* const cluster_faces = cluster_centres.faces.data();
    const fromsoft::Face* const faces = mesh.faces.data();
    // The rings take at most R entries (Σ numEdges), written in place (write_face_ring) into
    // room made once: E bounds it (R beyond E is a broken mesh, whose overlapping rings may
    // need more: the room then grows as a vector does).
    ring_vertices.resize(static_cast<std::size_t>(std::min(R, E)));
    const RingSource src{mesh, sound_vertices, sound_vertices && regular_tiled, rings.data(), ring_vertices, keep.corners, keep.batch};
    RingStorage storage{ring_vertices.data(), ring_vertices.size(), 0, false, keep.corners.data(), keep.corners.size()};
    FaceScratch& scratch = keep.scratch;
    FaceBatch& batch = keep.batch;
    const double limit = off_plane_limit(game);
    batch.start_tallies(limit);
    const FaceSink sink{faces, face_tallies, scratch, limit, bounds ? corner_bounds.data() : nullptr, centroid_sum, cluster_faces, K};
#if defined(__x86_64__)
    const bool avx2 = cpu_has_avx2();
#else
    constexpr bool avx2 = false;
#endif
    // Faces in chunks: first every ring of the chunk (its corners one after another in the
    // corner storage) into the batch, then the batch's figures together, then each face's
    // geometry in order (the tallies keep first values and the unusual faces in face order).
    constexpr std::int64_t kChunk = FaceBatch::kMost;
    std::size_t corner_start[kChunk + 1];
    int in_batch[kChunk];
    for (std::int64_t first = 0, last = 0; first < F; first = last) {
        const std::int64_t end = std::min(F, first + kChunk);
#if defined(__x86_64__)
        if (avx2) last = read_rings_of_chunk_avx2(src, storage, first, end, corner_start, in_batch);
        else
#endif
            last = read_rings_of_chunk(src, storage, first, end, corner_start, in_batch);
        const Point* const corner_out = storage.corner_out;
        batch.analyse(corner_out, bounds);
        take_chunk(ChunkFaces{batch, corner_start, in_batch, corner_out, first, last}, sink);
    }
    face_tallies.add_decided(batch.decided_tallies());
    ring_vertices.resize(storage.used);  // smaller: the buffer stays
    if (storage.moved) {  // the same views into the grown storage: the rings lie one after another
        RingView* const views = rings.data();
        std::size_t at = 0;
        for (std::int64_t i = 0; i < F; ++i) {
            const std::size_t n = views[i].vertices.size();
            views[i].vertices = std::span<const std::int32_t>(ring_vertices).subspan(at, n);
            at += n;
        }
    }
}

std::span<const Point> TagfileContext::corners_of(std::int64_t face, std::vector<Point>& scratch) const {
    // A ring that is not Ok may hold a vertex index outside the vertices (VertexOutOfRange
    // appends them before checking): one test per call, not per corner.
    if (rings[face].status != RingStatus::Ok) throw std::logic_error("corners_of: face " + std::to_string(face) + " has no well-formed ring");
    scratch.clear();
    for (const std::int32_t v : rings[face].vertices) scratch.push_back(to_point(mesh.vertices[v]));
    return scratch;
}

bool TagfileContext::has_class(const std::string& cls) const { return has_root_class(tagfile, cls); }

}  // namespace navlab::audit
