// The face batch (FaceBatch: two faces of the same ring length to a Lanes value) against the
// one-face path bit for bit: each figure against FacePlane, max_distance_from_mean_plane and
// check_triangulation of the last-corner fan, and each face's geometry with the figures
// against analyse_face without them and analyse_face_in_full. On hostile rings of 3 to 42
// corners (hostile_rings.h) and hostile triangles: degenerate and collinear ones, N_y exactly
// 0 or within rounding of 0 (often of the wrong sign in double), repeated corners,
// coordinates from float32's smallest subnormal to its largest finite value, and NaN or
// infinite corners (which the audit never analyses: only their figures are compared).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "audit/audit_context.h"
#include "audit/audit_face_batch.h"
#include "audit/audit_load.h"
#include "geometry/fan.h"
#include "hostile_rings.h"
#include "io/shared_bytes.h"
#include "support/samples.h"
#include "synthetic_navmesh.h"

using namespace navlab::audit;
using namespace navlab::audit::test;

namespace {

struct Triangles {
    std::uint64_t s = 13;
    std::uint32_t next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<std::uint32_t>(s >> 33);
    }
    double unit() { return (next() % 1000000) / 1e6 - 0.5; }
    static double f(double v) { return double(float(v)); }  // corners are float32 values

    /// Triangle `i`: one of ten kinds, most at one of nine scales.
    std::vector<Point> make(int i) {
        const double scales[] = {1e-45, 1e-30, 1e-3, 1.0, 300.0, 1e6, 1e20, 1e36, 3e38};
        const double scale = scales[next() % 9];
        std::vector<Point> t(3);
        switch (i % 10) {
        case 0:  // random, mostly seen from above
        case 1:
            for (Point& p : t) p = {f(scale * unit()), f(scale * 0.05 * unit()), f(scale * unit())};
            break;
        case 2:  // lattice points: collinear, repeated, all equal, clockwise, vertical (N_y = 0)
            for (Point& p : t) p = {f(scale * (next() % 3)), f(scale * (next() % 2)), f(scale * (next() % 3))};
            break;
        case 3:  // a sliver within float32 rounding of a line: N_y's filter may not decide
            for (int k = 0; k < 3; ++k) t[k] = {f(scale * (0.25 + k * (1 + 1e-7 * unit()))), f(scale * 0.5), f(scale * (0.5 + k))};
            break;
        case 9: {  // P_1, P_2 on the line x = z, P_0 within 2^-50 of it: the sides P_k − P_0
                   // round, and N_y in double is often 0 or of the wrong sign
            const double tiny = std::ldexp(1.0, -50 - static_cast<int>(next() % 5)), k = f(1.5 + unit()), m = f(2 + 2 * unit());
            t = {{f(tiny * unit()), 0, f(tiny * unit())}, {k, 0, k}, {m, 0, m}};
            break;
        }
        case 4:  // steep: N's largest axis x or z
            for (Point& p : t) p = {f(scale * 0.01 * unit()), f(scale * unit()), f(scale * unit())};
            break;
        case 5:  // coordinates of very different magnitudes in one triangle
            for (Point& p : t) p = {f(scales[next() % 9] * unit()), f(scales[next() % 9] * unit()), f(scales[next() % 9] * unit())};
            break;
        case 6:  // a far corner: large distance from the mean plane relative to the size
            t = {{0, 0, 0}, {f(scale), 0, 0}, {0, f(scale * 1e-7 * unit()), f(scale)}};
            break;
        case 7:  // not finite: never analysed by the audit, never decided by the batch
            for (Point& p : t) p = {f(scale * unit()), f(scale * unit()), f(scale * unit())};
            t[next() % 3].x = next() % 2 ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
            break;
        default:  // two corners equal
            for (Point& p : t) p = {f(scale * unit()), f(scale * unit()), f(scale * unit())};
            t[next() % 3] = t[(next() % 2) + 1 == 3 ? 0 : 2];
        }
        return t;
    }
};

bool finite(const std::vector<Point>& t) {
    for (const Point& p : t)
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return false;
    return true;
}


/// Bit for bit, or both NaN (a non-finite ring's figures: never used by the audit).
bool same_value(double a, double b) { return same_double(a, b) || (std::isnan(a) && std::isnan(b)); }

/// The first figure where the batch differs from the one-face path, or "".
std::string figure_difference(const FaceFigures& f, std::span<const Point> ring) {
    const FacePlane plane(ring);
    const Vec3<double>& n = plane.normal();
    if (!same_value(f.normal.value.x, n.x) || !same_value(f.normal.value.y, n.y) || !same_value(f.normal.value.z, n.z))
        return "normal";
    for (int axis = 0; axis < 3; ++axis) {
        const Approx& a = axis == 0 ? f.normal.bound.x : (axis == 1 ? f.normal.bound.y : f.normal.bound.z);
        if (!same_value(a.value, plane.normal_bound(axis).value) || !same_value(a.error, plane.normal_bound(axis).error))
            return "bound " + std::to_string(axis);
    }
    if (!same_value(f.length, plane.normal_length())) return "length";
    const PlaneDistance d = max_distance_from_mean_plane(plane);
    if (!same_value(f.off_plane.distance, d.distance) || f.off_plane.corner != d.corner) return "off_plane";
    const int count = static_cast<int>(ring.size());
    std::vector<Cut> fan;
    for (int k = 0; k < count - 2; ++k) fan.push_back(last_corner_fan_triangle(count, k));
    const TriangulationCheck c = check_triangulation(plane, fan, true);
    if (f.fan_check.turned != c.turned || f.fan_check.first_turned != c.first_turned) return "turned";
    if (!same_value(f.fan_check.projected_face, c.projected_face) || !same_value(f.fan_check.projected_sum, c.projected_sum) ||
        !same_value(f.fan_check.projected_relative, c.projected_relative))
        return "projected";
    if (!same_double(f.fan_check.area_difference_max, c.area_difference_max)) return "area_difference";
    return "";
}

/// Whether `centroid` is R64's face centre of `ring` bit for bit (both NaN allowed), summed as
/// R64 once summed it.
bool is_centre_of(const Point& centroid, std::span<const Point> ring) {
    Point sum{0, 0, 0};
    for (const Point& p : ring) sum = sum + p;
    const double corners = static_cast<double>(ring.size());
    return same_value(centroid.x, sum.x / corners) && same_value(centroid.y, sum.y / corners) && same_value(centroid.z, sum.z / corners);
}

/// Whether `box` is the box of `ring`'s corners bit for bit (-0 and +0 differ): each corner
/// narrowed to float, then std::min and std::max in corner order, a NaN never entering.
bool is_box_of(const CornerBounds& box, std::span<const Point> ring) {
    const auto same_float = [](float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); };
    float lowest[3] = {INFINITY, INFINITY, INFINITY}, highest[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (const Point& p : ring) {
        const float c[3] = {float(p.x), float(p.y), float(p.z)};
        for (int axis = 0; axis < 3; ++axis) lowest[axis] = std::min(lowest[axis], c[axis]), highest[axis] = std::max(highest[axis], c[axis]);
    }
    for (int axis = 0; axis < 3; ++axis)
        if (!same_float(box.min[axis], lowest[axis]) || !same_float(box.max[axis], highest[axis])) return false;
    return true;
}

/// The Point past the corners that FaceBatch::analyse reads and does not use: NaN, so that a
/// figure taking it would show.
constexpr Point kSlack{NAN, NAN, NAN};

/// R40's limit under which no face is common (a distance is ≥ 0 or NaN): the batch then writes
/// every face's figures, for the tests that compare them all.
constexpr double kNoFaceCommon = -INFINITY;

/// The widths this processor runs: two always, four with AVX2 (FaceBatch::widest).
std::vector<FaceBatch::Width> widths() {
    if (FaceBatch::widest() == FaceBatch::Width::two) return {FaceBatch::Width::two};
    return {FaceBatch::Width::two, FaceBatch::Width::four};
}

void figures_and_geometry_equal_the_one_face_path(FaceBatch::Width width) {
    SCOPED_TRACE(static_cast<int>(width));
    Rings rings;
    Triangles triangles;
    FaceScratch scratch;
    FaceBatch batch(width);
    batch.start_tallies(kNoFaceCommon);
    int batched = 0, batched_triangles = 0, too_long = 0, not_finite = 0, i = 0;
    for (int round = 0; round < 2500; ++round) {
        // Every batch size, so faces meet both lanes, partners of every ring length and none.
        const int size = 1 + round % FaceBatch::kMost;
        std::vector<std::vector<Point>> faces;
        std::vector<Point> corners;  // the faces one after another, as read_faces keeps them
        std::vector<int> slots;
        batch.clear();
        for (int k = 0; k < size; ++k, ++i) {
            faces.push_back(k % 2 ? triangles.make(i) : rings.make(i));
            const int n = static_cast<int>(faces.back().size());
            slots.push_back(batch.add(corners.size(), n, k));
            ASSERT_EQ(slots.back() < 0, n > FaceBatch::kMostCorners) << "round " << round << " face " << k;
            corners.insert(corners.end(), faces.back().begin(), faces.back().end());
        }
        corners.push_back(kSlack);  // read, not used (FaceBatch::analyse)
        batch.analyse(corners.data(), true);
        for (int k = 0; k < size; ++k) {
            const std::vector<Point>& ring = faces[k];
            if (slots[k] < 0) {
                ++too_long;
                continue;
            }
            const FaceFigures& figures = batch.figures(slots[k]);
            ASSERT_FALSE(batch.common(slots[k]));
            ASSERT_EQ(figure_difference(figures, ring), "") << "round " << round << " face " << k;
            ASSERT_TRUE(is_centre_of(batch.centroid(slots[k]), ring)) << "round " << round << " face " << k;
            ASSERT_TRUE(is_box_of(batch.corner_box(slots[k]), ring)) << "round " << round << " face " << k;
            if (!finite(ring)) {
                ++not_finite;
                continue;
            }
            FaceGeometry with, without, full;
            analyse_face(ring, scratch, with, &figures);
            analyse_face(ring, scratch, without);
            analyse_face_in_full(FacePlane(ring), scratch, full);
            ASSERT_EQ(difference(with, without), "") << "round " << round << " face " << k;
            ASSERT_EQ(difference(with, full), "") << "round " << round << " face " << k;
            ++batched;
            batched_triangles += ring.size() == 3;
        }
    }
    EXPECT_GT(batched, 50000);
    EXPECT_GT(batched_triangles, 25000);
    EXPECT_GT(too_long, 1000);   // rings longer than kMostCorners stay with analyse_face alone
    EXPECT_GT(not_finite, 3000);
}

}  // namespace

TEST(FaceBatch, FiguresAndGeometryEqualTheOneFacePathBitForBit) {
    for (const FaceBatch::Width width : widths()) figures_and_geometry_equal_the_one_face_path(width);
}

namespace {

/// What expect_context_equals_face_by_face met: rings not Ok, faces tallied, faces in a cluster
/// (R64's centres), faces with a corner box, and faces tallied and not kept among the unusual
/// ones (the common faces, most of which the batch decides and whose figures it keeps only
/// in part).
struct FaceByFace {
    std::int64_t broken = 0, faces = 0, centred = 0, boxed = 0, common = 0;
};

/// What read_faces left in `ctx` against a face-by-face reading without the batch
/// (read_face_ring, analyse_face, FaceTallies::add): the rings (statuses and views), the
/// tallies, every unusual face, every corner box (all six values, min and max in corner order
/// as std::min and std::max keep them) and R64's per-cluster sums of face centres (summed as
/// R64 once did, each ring's vertices gathered again).
void expect_context_equals_face_by_face(const TagfileContext& ctx, FaceByFace& seen, const std::string& where) {
    using navlab::geometry::RingStatus;
    const navlab::fromsoft::NavMesh& m = ctx.mesh;
    const double limit = off_plane_limit(ctx.game);
    FaceTallies expected;
    FaceScratch scratch;
    navlab::geometry::FaceRing ring;
    const std::size_t K = ctx.tagfile.graph ? ctx.tagfile.graph->nodes.size() : 0;
    std::vector<Point> centroid_sum(K, Point{0, 0, 0});
    std::vector<std::int64_t> cluster_faces(K, 0);
    for (std::size_t i = 0; i < m.faces.size(); ++i) {
        const RingStatus status = navlab::geometry::read_face_ring(m, i, ring);
        ASSERT_EQ(ctx.rings[i].status, status) << where << " face " << i;
        ASSERT_TRUE(std::ranges::equal(ctx.rings[i].vertices, ring.vertices)) << where << " face " << i;
        EXPECT_EQ(ctx.rings[i].break_at, ring.break_at);
        if (status != RingStatus::Ok) {
            ++seen.broken;
            continue;
        }
        if (const int k = m.faces[i].clusterIndex; k >= 0 && static_cast<std::size_t>(k) < K) {
            Point c{0, 0, 0};
            for (const std::int32_t v : ring.vertices) c = c + navlab::geometry::to_point(m.vertices[v]);
            const double n = static_cast<double>(ring.vertices.size());
            centroid_sum[k] = centroid_sum[k] + Point{c.x / n, c.y / n, c.z / n};
            ++cluster_faces[k];
            ++seen.centred;
        }
        FaceGeometry g;
        analyse_face(ring.corners, scratch, g);
        const std::size_t kept = expected.unusual.size();
        expected.add(static_cast<std::int32_t>(i), g, m.faces[i].numEdges, limit);
        seen.common += expected.unusual.size() == kept;
        if (ctx.tagfile.mediator) {
            EXPECT_TRUE(is_box_of(ctx.corner_bounds[i], ring.corners)) << where << " face " << i;
            ++seen.boxed;
        }
    }
    ASSERT_EQ(ctx.cluster_centres.centroid_sum.size(), K) << where;
    EXPECT_EQ(ctx.cluster_centres.faces, cluster_faces) << where;
    for (std::size_t k = 0; k < K; ++k) {
        const Point &a = ctx.cluster_centres.centroid_sum[k], &b = centroid_sum[k];
        EXPECT_TRUE(same_double(a.x, b.x) && same_double(a.y, b.y) && same_double(a.z, b.z)) << where << " node " << k;
    }
    const FaceTallies& got = ctx.face_tallies;
    seen.faces += got.faces;
    EXPECT_EQ(got.faces, expected.faces) << where;
    EXPECT_EQ(got.zero_normal, expected.zero_normal) << where;
    EXPECT_EQ(got.no_ear, expected.no_ear) << where;
    EXPECT_EQ(got.not_convex_in_newell_plane, expected.not_convex_in_newell_plane) << where;
    EXPECT_EQ(got.triangles, expected.triangles) << where;
    EXPECT_EQ(got.turned, expected.turned) << where;
    EXPECT_EQ(got.zero_normal_or_no_ear, expected.zero_normal_or_no_ear) << where;
    EXPECT_EQ(got.dropped, expected.dropped) << where;
    EXPECT_EQ(got.fallbacks, expected.fallbacks) << where;
    EXPECT_EQ(got.edges_minus_2, expected.edges_minus_2) << where;
    for (auto [a, b] : {std::pair{&got.off_plane, &expected.off_plane},
                        {&got.projected_relative, &expected.projected_relative},
                        {&got.area_difference, &expected.area_difference},
                        {&got.area_difference_relative, &expected.area_difference_relative}}) {
        EXPECT_TRUE(same_double(a->first, b->first) && same_double(a->best, b->best)) << where;
        EXPECT_EQ(a->first_face, b->first_face) << where;
        EXPECT_EQ(a->best_face, b->best_face) << where;
    }
    ASSERT_EQ(got.unusual.size(), expected.unusual.size()) << where;
    for (std::size_t k = 0; k < got.unusual.size(); ++k) {
        EXPECT_EQ(got.unusual[k].face, expected.unusual[k].face) << where;
        EXPECT_EQ(difference(got.unusual[k].geometry, expected.unusual[k].geometry), "") << where << " face " << got.unusual[k].face;
    }
}

/// read_faces against a face-by-face reading without the batch (read_face_ring, analyse_face,
/// FaceTallies::add) over 40 meshes of up to 400 faces: the rings (statuses and views), the tallies, every
/// unusual face, the corner boxes and R64's per-cluster sums of face centres (two rounds in
/// three with a cluster graph of 0 … 11 nodes, faces in clusters below, in and past it; summed
/// as R64 once did, each ring's vertices gathered again), each mesh read twice (the second context reuses the
/// first's spare storage). `sound`: the rings break only in their shape (open, too short,
/// shifted), every edge's ends stay vertices and every vertex finite, so read_faces takes its
/// ring path for such meshes (write_sound_ring); otherwise some rings also name a vertex
/// that is not one (closed or open there) or a NaN corner. Of a sound test's meshes, every
/// other one also tiles its edges (no face repeated or shifted; a face of two edges has only
/// those): read_faces then reads runs of 3 … 8-edge faces without range or room tests
/// (read_sound_run), open rings, short faces and long rings among them.
void expect_read_faces_equal_the_face_by_face_path(bool sound, unsigned seed) {
    std::mt19937 random(seed);
    Rings rings;
    auto pick = [&](std::uint32_t n) { return static_cast<int>(random() % n); };
    std::int64_t broken = 0, long_rings = 0, faces = 0, unsound = 0, centred = 0, common = 0, tiled = 0;
    for (int round = 0; round < 40; ++round) {
        const bool tile = sound && round % 2 == 0;
        AuditTagfile tagfile = navlab::test::synthetic_tagfile();
        if (round % 2) tagfile.model->mediator.reset();  // corner boxes only beside a tree
        // Not sound: a NaN corner, a vertex index that is not one, or both, each in some rounds alone.
        const bool nan = !sound && round % 3 != 1, bad_indices = !sound && round % 3 != 0;
        navlab::fromsoft::NavMesh& m = tagfile.model->mesh;
        m.faces.clear(), m.edges.clear(), m.vertices.clear();
        const int clusters = round % 3 != 2 ? pick(12) : -1;  // graph nodes; -1: no graph
        if (clusters >= 0) tagfile.model->graph.emplace().nodes.resize(static_cast<std::size_t>(clusters));
        for (int f = 0, count = 1 + pick(400); f < count; ++f) {
            if (!tile && f > 0 && pick(round % 4 == 3 ? 2 : 50) == 0) {  // an earlier face again: its ring
                m.faces.push_back(m.faces[pick(f)]);           // counted twice, the rings' storage
                continue;                                      // may outgrow the edges and move
            }
            std::vector<Point> ring;
            if (const int kind = pick(20); kind == 0) {  // longer than a chunk's corners
                const int n = 1500 + pick(1300);  // about half of them past kChunkCorners (2,048)
                for (int k = 0; k < n; ++k) {
                    const double a = 6.283185307179586 * k / n;
                    ring.push_back({float(100 * std::cos(a)), float(pick(3) * 0.001), float(-100 * std::sin(a))});
                }
                ++long_rings;
            } else if (kind < 4) {  // lattice triangles: degenerate, collinear, either winding
                for (int k = 0; k < 3; ++k) ring.push_back({double(pick(3)), double(pick(2)), double(pick(3))});
            } else {
                ring = rings.make(pick(1000));
            }
            navlab::fromsoft::Face face;
            face.clusterIndex = static_cast<std::int16_t>(pick(std::max(clusters, 0) + 4) - 2);
            face.startEdgeIndex = static_cast<std::int32_t>(m.edges.size());
            face.numEdges = static_cast<std::int16_t>(ring.size());
            const int v0 = static_cast<int>(m.vertices.size()), n = static_cast<int>(ring.size());
            for (const Point& p : ring) m.vertices.push_back({float(p.x), float(p.y), float(p.z), 1.0f});
            for (int k = 0; k < n; ++k) {
                navlab::fromsoft::Edge e;
                e.a = v0 + k, e.b = v0 + (k + 1) % n;
                m.edges.push_back(e);
            }
            switch (pick(25)) {  // broken rings in the middle of chunks
                case 0: m.edges[face.startEdgeIndex + pick(n)].b = bad_indices ? 0x7fffffff : pick(v0 + n); break;
                case 1:
                    if (nan) m.vertices[v0 + pick(n)].y = NAN;
                    else m.edges[face.startEdgeIndex + pick(n)].b = v0 + pick(n);  // open unless it is the next corner
                    break;
                case 2:
                    face.numEdges = 2;
                    if (tile) m.edges.resize(m.edges.size() - static_cast<std::size_t>(n - 2));  // the next face starts after its two
                    break;
                case 4:  // a closed ring through a vertex index that is not one
                    if (bad_indices) {
                        const int k = pick(n);
                        m.edges[face.startEdgeIndex + k].a = m.edges[face.startEdgeIndex + (k + n - 1) % n].b = pick(2) ? -1 : 0x7fffffff;
                    }
                    break;
                case 3:
                    if (!tile) face.startEdgeIndex += 1, face.numEdges -= 1;
                    break;
                default: break;
            }
            m.faces.push_back(face);
        }
        for (int pass = 0; pass < 2; ++pass) {
            const TagfileContext ctx(tagfile);
            // A sound mesh must take the sound ring path (else this test would not test it).
            if (sound) {
                ASSERT_TRUE(ctx.sound_vertices) << "round " << round;
                ASSERT_EQ(ctx.regular_tiled, tile) << "round " << round;
            }
            tiled += pass == 0 && ctx.regular_tiled;
            unsound += !ctx.sound_vertices;
            FaceByFace seen;
            expect_context_equals_face_by_face(ctx, seen, "round " + std::to_string(round));
            broken += pass == 0 ? seen.broken : 0;
            centred += pass == 0 ? seen.centred : 0;
            common += pass == 0 ? seen.common : 0;
            faces += seen.faces;
        }
    }
    EXPECT_GT(broken, 100);
    EXPECT_GT(long_rings, 100);
    EXPECT_GT(faces, 10000);
    EXPECT_GT(centred, 1000);
    EXPECT_GT(common, 1000);
    if (!sound) {
        EXPECT_GT(unsound, 60);  // of 80 contexts: nearly every mesh has a NaN or a bad index
    } else {
        EXPECT_EQ(tiled, 20);
    }
}

}  // namespace

// read_faces reads faces in chunks (at most FaceBatch::kMost faces and about 2,048 corners,
// the corner array growing within a chunk) and gives each face its batch figures, with broken
// rings of every kind among the faces and rings longer than a chunk.
TEST(FaceBatch, ReadFacesInChunksEqualsTheFaceByFacePath) { expect_read_faces_equal_the_face_by_face_path(false, 5); }

// The same on meshes whose vertices are all sound (read_faces then tests only each ring's
// closure per corner), and whose decided faces are tallied from their figures.
TEST(FaceBatch, ReadFacesOfASoundMeshEqualsTheFaceByFacePath) { expect_read_faces_equal_the_face_by_face_path(true, 6); }

// read_faces on the real Elden Ring navmesh (havok/er: 60 faces, most of them common, a tree, no
// cluster graph) against the face-by-face path, as loaded and damaged: with a cluster graph
// (R64's centres, clusters below, in and past it), one vertex in five lifted (warped faces,
// not common), mirrored (every face clockwise), a NaN corner (the mesh no longer sound), an
// open ring. A common face keeps only its centre and corner box of the batch's figures: both
// must be the full path's. Context after context, so each reads into the last one's storage.
TEST(FaceBatch, ReadFacesOfTheRealSampleEqualsTheFaceByFacePath) {
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    const navlab::SharedBytes bytes = navlab::SharedBytes::map_file(path);
    const AuditTagfile loaded = load_audit_tagfile(bytes.span(), "", path.filename().string(), std::nullopt);
    ASSERT_TRUE(loaded.model) << loaded.read_error;
    FaceByFace seen;
    for (int variant = 0; variant < 6; ++variant) {
        AuditTagfile tagfile = loaded;
        navlab::fromsoft::NavMesh& m = tagfile.model->mesh;
        if (variant >= 1) {
            tagfile.model->graph.emplace().nodes.resize(7);
            for (std::size_t i = 0; i < m.faces.size(); ++i) m.faces[i].clusterIndex = static_cast<std::int16_t>(i % 9) - 1;
        }
        if (variant == 2)
            for (std::size_t v = 0; v < m.vertices.size(); v += 5) m.vertices[v].y += 0.3f;
        if (variant == 3)
            for (auto& v : m.vertices) v.z = -v.z;
        if (variant == 4) m.vertices[m.edges[7].a].x = NAN;
        if (variant == 5) m.edges[10].b = m.edges[20].a;
        for (int pass = 0; pass < 2; ++pass) {
            const TagfileContext ctx(tagfile);
            ASSERT_EQ(ctx.sound_vertices, variant != 4) << "variant " << variant;
            expect_context_equals_face_by_face(ctx, seen, "variant " + std::to_string(variant));
        }
    }
    EXPECT_GT(seen.common, 400);  // of 12 × 60 faces
    EXPECT_GT(seen.centred, 400);
    EXPECT_GT(seen.boxed, 700);
    EXPECT_GE(seen.broken, 4);
}

namespace {

/// Rings of 4 … 8 corners near each edge of what the batch decides (FaceFigures::Decided):
/// convex and gently warped (the common face), clockwise, lattice points (corners exactly on
/// their neighbours' line, repeated corners, exact zero turns), a corner pulled in (reflex
/// along N or seen from above, a bad fan from corner 0 beside a good one from the last),
/// tilted to |N_y| = |N_x| or |N_z| exactly or within rounding, vertical (N_y = 0), strongly
/// warped, slivers, at scales from 1e-30 to 1e36.
struct NearRings {
    std::mt19937_64 random{31};
    int pick(int n) { return static_cast<int>(random() % static_cast<std::uint64_t>(n)); }
    double unit() { return static_cast<double>(random() % 1000000) / 1e6 - 0.5; }
    static double f(double v) { return double(float(v)); }  // corners are float32 values

    std::vector<Point> make() {
        const double scales[] = {1e-30, 1e-3, 1.0, 300.0, 1e6, 1e20, 1e36};
        const double scale = scales[pick(7)];
        const int n = 4 + pick(5);
        const double turn = (pick(4) == 0 ? -1 : 1) * 6.283185307179586 / n;
        std::vector<Vec3<double>> ring;
        for (int k = 0; k < n; ++k) {
            const double a = (k + 0.3 * unit()) * turn, r = 1 + 0.2 * unit();
            ring.push_back({r * std::cos(a), 0.01 * unit(), -r * std::sin(a)});
        }
        for (int variation = 0, count = 1 + pick(2); variation < count; ++variation) {
            const int j = pick(n);
            switch (pick(9)) {
            case 0: break;  // as it is
            case 1:         // lattice points
                for (auto& p : ring) p = {std::round(2 * p.x), std::round(p.y), std::round(2 * p.z)};
                break;
            case 2: {  // corner j pulled in or pushed out
                const double by = pick(2) ? 0.5 * unit() + 0.5 : 1.02;
                ring[j].x *= by, ring[j].z *= by;
                break;
            }
            case 3:  // tilted about the z axis to 45°: |N_y| = |N_x| in the plane y = x
                for (auto& p : ring) p.y = p.x * (pick(3) == 0 ? 1 + 1e-7 * unit() : 1);
                break;
            case 4:  // tilted about the x axis to 45°: |N_y| = |N_z|
                for (auto& p : ring) p.y = p.z;
                break;
            case 5:  // vertical: N_y = 0
                for (auto& p : ring) p = {p.x, p.z, 0.25};
                break;
            case 6:  // corner j far off the plane
                ring[j].y += (pick(2) ? 0.2 : 3.0) * (pick(2) ? 1 : -1);
                break;
            case 7:  // a sliver
                for (auto& p : ring) p.z *= 1e-7;
                break;
            default:  // corner j on the segment of its neighbours (exactly, when they are lattice points)
                ring[j] = {0.5 * (ring[(j + n - 1) % n].x + ring[(j + 1) % n].x), 0.5 * (ring[(j + n - 1) % n].y + ring[(j + 1) % n].y),
                           0.5 * (ring[(j + n - 1) % n].z + ring[(j + 1) % n].z)};
            }
        }
        std::vector<Point> out;
        for (const auto& p : ring) out.push_back({f(scale * p.x), f(scale * p.y), f(scale * p.z)});
        return out;
    }
};

// What the batch decides for a face of 4 … 8 corners (FaceFigures::Decided) must be what the
// exact predicates give: when it says the one loop takes both fans, analyse_face_at_once does
// (FacePlane's orient_at and corner turns with their exact fallback, turn_from_above,
// axis_plane_of), with no reflex corner seen from above, R41's bad fan from
// first_bad_fan_triangle and X08 from the exact corner turns; every corner turn along N that
// it hands on (FaceFigures::turns) is the exact one or left open, and
// so is R41's answer where it says it decided it, for undecided faces too; and analyse_face
// with those figures (no FacePlane) equals analyse_face without them, field by field.
void decided_signs_are_the_exact_predicates(FaceBatch::Width width) {
    SCOPED_TRACE(static_cast<int>(width));
    NearRings rings;
    FaceScratch scratch;
    FaceBatch batch(width);
    batch.start_tallies(kNoFaceCommon);
    int decided = 0, undecided = 0, bad_fan = 0, concave = 0, straight_from_above = 0, both_fans_undecided = 0, reflex_from_above = 0;
    int open_turns = 0, zero_turns = 0, negative_turns = 0, bad_fan_undecided_face = 0;
    for (int round = 0; round < 3000; ++round) {
        const int size = 1 + round % FaceBatch::kMost;
        std::vector<std::vector<Point>> faces;
        std::vector<Point> corners;
        std::vector<int> slots;
        batch.clear();
        for (int k = 0; k < size; ++k) {
            faces.push_back(rings.make());
            slots.push_back(batch.add(corners.size(), static_cast<int>(faces.back().size()), k));
            corners.insert(corners.end(), faces.back().begin(), faces.back().end());
        }
        corners.push_back(kSlack);  // read, not used (FaceBatch::analyse)
        batch.analyse(corners.data(), false);
        for (int k = 0; k < size; ++k) {
            const std::vector<Point>& ring = faces[k];
            const int n = static_cast<int>(ring.size());
            const FaceFigures& figures = batch.figures(slots[k]);
            const FacePlane plane(ring);
            FaceGeometry at_once;
            const OneLoop way = analyse_face_at_once(plane, scratch, at_once);
            if (figures.decided.both_fans) {
                ++decided;
                ASSERT_EQ(way, OneLoop::BothFans) << "round " << round << " face " << k;
                ASSERT_EQ(axis_plane_of(plane).axis, 1) << "round " << round << " face " << k;
                bool negative = false, reflex = false;
                for (int c = 0; c < n; ++c) {
                    negative |= plane.corner_turn(c) < 0;
                    const int above = turn_from_above(ring[(c + n - 1) % n], ring[c], ring[(c + 1) % n]);
                    reflex |= above == -plane.normal_sign(1);
                    straight_from_above += above == 0;
                }
                ASSERT_EQ(figures.decided.reflex_from_above, reflex) << "round " << round << " face " << k;
                ASSERT_EQ(at_once.convexity.convex, !reflex) << "round " << round << " face " << k;
                reflex_from_above += reflex;
                ASSERT_EQ(figures.decided.convex_in_newell_plane, !negative) << "round " << round << " face " << k;
                ASSERT_EQ(figures.decided.bad_fan, first_bad_fan_triangle(plane)) << "round " << round << " face " << k;
                bad_fan += figures.decided.bad_fan >= 0;
                concave += negative;
            } else {
                ++undecided;
                both_fans_undecided += way == OneLoop::BothFans;
            }
            // The turns along N and R41's answer the batch hands to a face it did not decide:
            // each one it gives is the exact one (expansions).
            const Vec3<Expansion>& exact = plane.exact_normal();
            for (int c = 0; c < n; ++c) {
                const Vec3<Expansion> p = lift<Expansion>(ring[(c + n - 1) % n]), q = lift<Expansion>(ring[c]),
                                      r = lift<Expansion>(ring[(c + 1) % n]);
                const int along = dot(cross(q - p, r - q), exact).sign();
                ASSERT_TRUE(figures.turns[c] == FacePlane::kTurnOpen || figures.turns[c] == along) << "round " << round << " face " << k;
                open_turns += figures.turns[c] == FacePlane::kTurnOpen;
                zero_turns += figures.turns[c] == 0;
                negative_turns += figures.turns[c] < 0;
            }
            if (figures.decided.bad_fan_decided) {
                ASSERT_EQ(figures.decided.bad_fan, first_bad_fan_triangle(FacePlane(ring))) << "round " << round << " face " << k;
                bad_fan_undecided_face += !figures.decided.both_fans && figures.decided.bad_fan >= 0;
            }
            ASSERT_TRUE(!figures.decided.both_fans || figures.decided.bad_fan_decided) << "round " << round << " face " << k;
            FaceGeometry with, without;
            analyse_face(ring, scratch, with, &figures);
            analyse_face(ring, scratch, without);
            ASSERT_EQ(difference(with, without), "") << "round " << round << " face " << k;
        }
    }
    // The batch's turns: some left open, exact zeros and turns both ways decided; R41's answer
    // handed over for undecided faces with a bad fan triangle.
    EXPECT_GT(open_turns, 100);
    EXPECT_GT(zero_turns, 100);
    EXPECT_GT(negative_turns, 1000);
    EXPECT_GT(bad_fan_undecided_face, 200);
    // Every edge of the certificate is met on both sides.
    EXPECT_GT(decided, 20000);
    EXPECT_GT(undecided, 20000);
    EXPECT_GT(bad_fan, 200);
    EXPECT_GT(concave, 200);
    EXPECT_GT(straight_from_above, 100);
    EXPECT_GT(reflex_from_above, 200);
    EXPECT_GT(both_fans_undecided, 1000);  // left to the one-face path: axis x or z, a straight corner the filter leaves open, ...
}

}  // namespace

TEST(FaceBatch, DecidedSignsAreTheExactPredicates) {
    for (const FaceBatch::Width width : widths()) decided_signs_are_the_exact_predicates(width);
}

namespace {

/// The first field where two batches' figures differ bit for bit (both NaN allowed: a
/// non-finite ring's figures are never used), or "".
std::string figures_difference(const FaceFigures& a, const FaceFigures& b) {
    const auto same_vec = [](const Vec3<double>& u, const Vec3<double>& w) {
        return same_value(u.x, w.x) && same_value(u.y, w.y) && same_value(u.z, w.z);
    };
    const auto same_approx = [](const Approx& u, const Approx& w) { return same_value(u.value, w.value) && same_value(u.error, w.error); };
    if (!same_vec(a.normal.value, b.normal.value)) return "normal";
    if (!same_approx(a.normal.bound.x, b.normal.bound.x) || !same_approx(a.normal.bound.y, b.normal.bound.y) ||
        !same_approx(a.normal.bound.z, b.normal.bound.z))
        return "bound";
    if (!same_value(a.length, b.length)) return "length";
    if (!same_value(a.off_plane.distance, b.off_plane.distance) || a.off_plane.corner != b.off_plane.corner) return "off_plane";
    const TriangulationCheck &c = a.fan_check, &d = b.fan_check;
    if (c.turned != d.turned || c.first_turned != d.first_turned || !same_value(c.projected_face, d.projected_face) ||
        !same_value(c.projected_sum, d.projected_sum) || !same_value(c.projected_relative, d.projected_relative) ||
        !same_vec(c.area_difference, d.area_difference) || !same_value(c.area_difference_max, d.area_difference_max))
        return "fan_check";
    if (a.decided.both_fans != b.decided.both_fans || a.decided.convex_in_newell_plane != b.decided.convex_in_newell_plane ||
        a.decided.bad_fan != b.decided.bad_fan || a.decided.reflex_from_above != b.decided.reflex_from_above ||
        a.decided.bad_fan_decided != b.decided.bad_fan_decided)
        return "decided";
    if (a.turns != b.turns) return "turns";
    return "";
}

}  // namespace

namespace {

/// The batch's tallies of its decided faces (DecidedTallies, folded by FaceTallies::add_decided)
/// and its common() against FaceTallies::add of each decided face's geometry (analyse_face
/// without the figures) in face order. 600 tagfiles of 1 … 6 batches of 1 … 64 faces: the near
/// rings (decided or not at every edge of the certificate), hostile rings and triangles (some
/// not finite), each face numbered at random without repeats, so that the batch meets the
/// faces out of face order, and lattice faces give equal maxima at several faces (the smaller
/// face must win); R40's limit the game's or small enough that some decided faces pass it.
/// Every face's centre and (every other batch) corner box, which the batch keeps of a common
/// face although it writes none of its other figures, against the one-face path's.
void decided_tallies_equal_those_of_each_face(FaceBatch::Width width) {
    SCOPED_TRACE(static_cast<int>(width));
    NearRings near;
    Rings rings;
    Triangles triangles;
    FaceScratch scratch;
    FaceBatch batch(width);
    std::mt19937 random(41);
    std::int64_t decided = 0, common = 0, ties = 0, top_ties = 0, i = 0;
    for (int tagfile = 0; tagfile < 600; ++tagfile) {
        const double limit = tagfile % 3 == 0 ? 1e-3 : off_plane_limit(tagfile % 3 == 1 ? Game::Sekiro : Game::EldenRing);
        batch.start_tallies(limit);
        std::vector<std::int32_t> numbers(FaceBatch::kMost * 6);
        std::iota(numbers.begin(), numbers.end(), 0);
        std::shuffle(numbers.begin(), numbers.end(), random);
        std::vector<std::pair<std::int32_t, std::vector<Point>>> analysed;  // (face, ring) of the decided faces
        std::vector<bool> common_of(numbers.size());
        std::size_t next = 0;
        for (int b = 0, batches = 1 + static_cast<int>(random() % 6); b < batches; ++b) {
            const int size = 1 + static_cast<int>(random() % FaceBatch::kMost);
            std::vector<std::vector<Point>> faces;
            std::vector<Point> corners;
            std::vector<int> slots;
            std::vector<std::int32_t> face_of;
            batch.clear();
            for (int k = 0; k < size; ++k, ++i) {
                const int kind = static_cast<int>(random() % 4);
                faces.push_back(kind < 2 ? near.make() : (kind == 2 ? rings.make(static_cast<int>(i)) : triangles.make(static_cast<int>(i))));
                face_of.push_back(numbers[next++]);
                slots.push_back(batch.add(corners.size(), static_cast<int>(faces.back().size()), face_of.back()));
                corners.insert(corners.end(), faces.back().begin(), faces.back().end());
            }
            corners.push_back(kSlack);  // read, not used (FaceBatch::analyse)
            batch.analyse(corners.data(), b % 2 == 0);
            for (int k = 0; k < size; ++k) {
                if (slots[k] < 0) continue;
                // What a face keeps, common or not: its centre, and its corner box when asked for.
                ASSERT_TRUE(is_centre_of(batch.centroid(slots[k]), faces[k])) << "tagfile " << tagfile << " face " << k;
                if (b % 2 == 0) {
                    ASSERT_TRUE(is_box_of(batch.corner_box(slots[k]), faces[k])) << "tagfile " << tagfile << " face " << k;
                }
                if (!(batch.common(slots[k]) || batch.figures(slots[k]).decided.both_fans)) continue;
                ASSERT_TRUE(finite(faces[k])) << "tagfile " << tagfile << " face " << k;
                analysed.emplace_back(face_of[k], faces[k]);
                common_of[face_of[k]] = batch.common(slots[k]);
            }
        }
        std::ranges::sort(analysed, {}, [](const auto& a) { return a.first; });
        FaceTallies expected, got;
        std::vector<double> distances;
        for (const auto& [face, ring] : analysed) {
            FaceGeometry g;
            analyse_face(ring, scratch, g);
            const std::size_t kept = expected.unusual.size();
            expected.add(face, g, static_cast<int>(ring.size()), limit);
            ASSERT_EQ(common_of[face], expected.unusual.size() == kept) << "tagfile " << tagfile << " face " << face;
            distances.push_back(g.off_plane.distance);
            ++decided;
            common += common_of[face];
        }
        // Ties at a distance above 0 (zeros are most faces' and decide nothing; NaN is never best).
        std::erase_if(distances, [](double d) { return !(d > 0); });
        std::ranges::sort(distances);
        ties += std::adjacent_find(distances.begin(), distances.end()) != distances.end();
        top_ties += distances.size() >= 2 && distances.end()[-1] == distances.end()[-2];  // at R40's best
        got.add_decided(batch.decided_tallies());
        EXPECT_EQ(got.faces, expected.faces) << "tagfile " << tagfile;
        EXPECT_EQ(got.zero_normal + got.no_ear + got.zero_normal_or_no_ear + got.dropped + got.fallbacks + got.turned,
                  expected.zero_normal + expected.no_ear + expected.zero_normal_or_no_ear + expected.dropped + expected.fallbacks +
                      expected.turned);
        EXPECT_EQ(got.not_convex_in_newell_plane, expected.not_convex_in_newell_plane) << "tagfile " << tagfile;
        EXPECT_EQ(got.triangles, expected.triangles) << "tagfile " << tagfile;
        EXPECT_EQ(got.edges_minus_2, expected.edges_minus_2) << "tagfile " << tagfile;
        for (auto [a, b] : {std::pair{&got.off_plane, &expected.off_plane},
                            {&got.projected_relative, &expected.projected_relative},
                            {&got.area_difference, &expected.area_difference},
                            {&got.area_difference_relative, &expected.area_difference_relative}}) {
            ASSERT_EQ(a->any, b->any) << "tagfile " << tagfile;
            ASSERT_EQ(a->any_number, b->any_number) << "tagfile " << tagfile;
            EXPECT_TRUE(same_double(a->first, b->first) && same_double(a->best, b->best)) << "tagfile " << tagfile;
            EXPECT_EQ(a->first_face, b->first_face) << "tagfile " << tagfile;
            EXPECT_EQ(a->best_face, b->best_face) << "tagfile " << tagfile;
        }
    }
    EXPECT_GT(decided, 20000);
    EXPECT_GT(common, 5000);
    EXPECT_GT(decided - common, 10000);
    EXPECT_GT(ties, 100);     // tagfiles where two decided faces share a distance above 0
    EXPECT_GE(top_ties, 5);  // ... the largest one, which picks R40's best face
}

}  // namespace

TEST(FaceBatch, DecidedTalliesEqualThoseOfEachDecidedFace) {
    for (const FaceBatch::Width width : widths()) decided_tallies_equal_those_of_each_face(width);
}

// Four faces to a lane value (AVX2) must give what two give (SSE2) bit for bit, every figure
// and every decision, on the hostile rings of both tests above (the two-lane path is checked
// against the one-face path and the exact predicates there, on a processor without AVX2 too).
// Both batches see the same faces in the same order, so each face meets other partners in the
// two widths (and lanes filled by repeating the last face).
TEST(FaceBatch, FourLanesEqualTwoLanesBitForBit) {
    if (FaceBatch::widest() != FaceBatch::Width::four) GTEST_SKIP() << "no AVX2 on this processor";
    Rings rings;
    Triangles triangles;
    NearRings near;
    FaceBatch two(FaceBatch::Width::two), four(FaceBatch::Width::four);
    two.start_tallies(kNoFaceCommon), four.start_tallies(kNoFaceCommon);
    int compared = 0, decided = 0, i = 0;
    for (int round = 0; round < 5000; ++round) {
        const int size = 1 + round % FaceBatch::kMost;
        std::vector<Point> corners;
        std::vector<int> slots;
        two.clear();
        four.clear();
        for (int k = 0; k < size; ++k, ++i) {
            const std::vector<Point> ring = round % 2 ? near.make() : (k % 2 ? triangles.make(i) : rings.make(i));
            const int n = static_cast<int>(ring.size());
            slots.push_back(two.add(corners.size(), n, k));
            ASSERT_EQ(four.add(corners.size(), n, k), slots.back());
            corners.insert(corners.end(), ring.begin(), ring.end());
        }
        corners.push_back(kSlack);  // read, not used (FaceBatch::analyse)
        two.analyse(corners.data(), false);
        four.analyse(corners.data(), false);
        for (int k = 0; k < size; ++k) {
            if (slots[k] < 0) continue;
            ASSERT_EQ(figures_difference(two.figures(slots[k]), four.figures(slots[k])), "") << "round " << round << " face " << k;
            const Point &c = two.centroid(slots[k]), &d = four.centroid(slots[k]);
            ASSERT_TRUE(same_value(c.x, d.x) && same_value(c.y, d.y) && same_value(c.z, d.z)) << "round " << round << " face " << k;
            ++compared;
            decided += four.figures(slots[k]).decided.both_fans;
        }
    }
    EXPECT_GT(compared, 100000);
    EXPECT_GT(decided, 20000);
}
