// Unit tests of the navmesh geometry: exact arithmetic, Newell normal, winding, convexity,
// planarity, the page's ear clipping and its checks, the axis-plane variant.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "geometry/convexity.h"
#include "geometry/exact.h"
#include "geometry/face_plane.h"
#include "geometry/orient2d.h"
#include "geometry/fan.h"
#include "geometry/face_ring.h"
#include "geometry/planarity.h"
#include "geometry/triangle_checks.h"
#include "geometry/triangulate.h"
#include "geometry/winding.h"

using namespace navlab::geometry;

namespace {

/// A polygon in the horizontal plane y = h from (x, z) pairs.
std::vector<Point> flat(std::initializer_list<std::pair<double, double>> xz, double h = 0) {
    std::vector<Point> p;
    for (auto [x, z] : xz) p.push_back({x, h, z});
    return p;
}

/// Counter-clockwise seen from above (+y up, right-handed): N_y = Σ z_k x_{k+1} − x_k z_{k+1} > 0,
/// i.e. the (x, z) ring goes x → −z.
std::vector<Point> ccw_square() { return flat({{0, 0}, {0, 1}, {1, 1}, {1, 0}}); }

std::vector<Point> reversed(std::vector<Point> p) { return {p.rbegin(), p.rend()}; }

void expect_complete(const FacePlane& plane, const Triangulation& t, std::size_t triangles) {
    EXPECT_FALSE(t.no_ear);
    EXPECT_EQ(t.triangles.size(), triangles);
    TriangulationCheck check = check_triangulation(plane, t);
    EXPECT_EQ(check.turned, 0);
    EXPECT_LE(check.projected_relative, 1e-9);
    EXPECT_LE(check.area_difference_max, 2e-11);
}

}  // namespace

TEST(Exact, ExpansionSignsBeyondDoublePrecision) {
    // (1 + 2^-60) - 1 is lost in double but kept by the expansion.
    Expansion a = Expansion(1.0) + Expansion(0x1p-60);
    EXPECT_EQ((a - Expansion(1.0)).sign(), 1);
    EXPECT_EQ((Expansion(1.0) - a).sign(), -1);
    EXPECT_EQ((a - a).sign(), 0);
    Expansion sq = a * a;  // 1 + 2^-59 + 2^-120
    EXPECT_EQ((sq - Expansion(1.0) - Expansion(0x1p-59)).sign(), 1);
    EXPECT_DOUBLE_EQ(sq.estimate(), 1.0 + 0x1p-59);
}

TEST(Exact, FilterFallsBackOnNearZero) {
    // A product difference that cancels below double rounding.
    double x = 1.0 + 0x1p-30, y = 1.0 - 0x1p-30;
    int s = exact_sign([&](auto zero) {
        using T = decltype(zero);
        return T(x) * T(y) - T(1.0);  // = -2^-60 exactly
    });
    EXPECT_EQ(s, -1);
    EXPECT_EQ(exact_sign([](auto zero) { using T = decltype(zero); return T(3.0) * T(2.0) - T(6.0); }), 0);
}

TEST(Newell, NormalIsTwiceTheVectorArea) {
    auto sq = ccw_square();
    FacePlane plane(sq);
    EXPECT_DOUBLE_EQ(plane.normal().y, 2.0);
    EXPECT_DOUBLE_EQ(plane.normal().x, 0.0);
    EXPECT_EQ(plane.normal_sign(1), 1);
    EXPECT_FALSE(plane.normal_is_zero());
    // Tilted triangle: N = (b − a) × (c − a).
    std::vector<Point> tri{{0, 0, 0}, {0, 1, 2}, {3, 0, 0}};
    FacePlane tp(tri);
    EXPECT_DOUBLE_EQ(tp.normal().x, 0.0);
    EXPECT_DOUBLE_EQ(tp.normal().y, 6.0);
    EXPECT_DOUBLE_EQ(tp.normal().z, -3.0);
}

TEST(Winding, CounterClockwiseFromAboveIsPositiveNy) {
    auto sq = ccw_square();
    EXPECT_EQ(winding_from_above(FacePlane(sq)), Winding::CounterClockwise);
    auto cw = reversed(sq);
    EXPECT_EQ(winding_from_above(FacePlane(cw)), Winding::Clockwise);
    // A vertical wall: zero area seen from above.
    std::vector<Point> wall{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    FacePlane wp(wall);
    EXPECT_EQ(winding_from_above(wp), Winding::Degenerate);
    EXPECT_FALSE(wp.normal_is_zero());
    EXPECT_FALSE(corners_collinear(wall));
}

TEST(Winding, TinyAreaDecidedExactly) {
    // A sliver whose N_y is far below double rounding of the coordinates' magnitude.
    float big = 4096.0f, tiny = std::nextafter(4096.0f, 5000.0f);
    std::vector<Point> sliver{{big, 0, big}, {big, 0, tiny}, {tiny, 0, tiny}};
    EXPECT_NE(winding_from_above(FacePlane(sliver)), Winding::Degenerate);
    std::vector<Point> line{{0, 0, 0}, {1, 2, 3}, {2, 4, 6}};
    FacePlane lp(line);
    EXPECT_TRUE(lp.normal_is_zero());
    EXPECT_TRUE(corners_collinear(line));
    EXPECT_EQ(winding_from_above(lp), Winding::Degenerate);
}

TEST(Convexity, ConvexAndReflexCorners) {
    auto sq = ccw_square();
    EXPECT_TRUE(convexity_from_above(sq, 1).convex);
    // An L-shaped hexagon counter-clockwise from above: one reflex corner at ring position 3.
    auto l = flat({{0, 0}, {0, 2}, {1, 2}, {1, 1}, {2, 1}, {2, 0}});
    FacePlane lp(l);
    ASSERT_EQ(lp.normal_sign(1), 1);
    Convexity c = convexity_from_above(l, 1);
    EXPECT_FALSE(c.convex);
    EXPECT_EQ(c.reflex_corner, 3);
    EXPECT_NEAR(c.reflex_sine, 1.0, 1e-12);
    // Straight corners are ignored.
    auto straight = flat({{0, 0}, {0, 1}, {0, 2}, {1, 2}, {1, 0}});
    EXPECT_TRUE(convexity_from_above(straight, 1).convex);
    EXPECT_EQ(turn_from_above(straight[0], straight[1], straight[2]), 0);
    // The same from the turns taken ahead (convexity_from_turns), for either winding.
    for (const std::vector<Point>& ring : {sq, l, straight})
        for (int winding : {1, 0, -1}) {
            std::vector<signed char> turns;
            for (std::size_t k = 0, n = ring.size(); k < n; ++k)
                turns.push_back(static_cast<signed char>(turn_from_above(ring[(k + n - 1) % n], ring[k], ring[(k + 1) % n])));
            const Convexity a = convexity_from_above(ring, winding), b = convexity_from_turns(ring, turns, winding);
            EXPECT_EQ(a.convex, b.convex);
            EXPECT_EQ(a.reflex_corner, b.reflex_corner);
            EXPECT_EQ(a.reflex_sine, b.reflex_sine);
            // Turns of another count (a seen of another face) are not read: taken anew.
            turns.assign(40, 1);
            const Convexity c = convexity_from_turns(ring, turns, winding);
            EXPECT_EQ(a.convex, c.convex);
            EXPECT_EQ(a.reflex_corner, c.reflex_corner);
        }
}

// The ring prerequisites of audit-rules.md §1, written by hand for one face of each status:
// what write_face_ring writes through its pointers (and append_face_ring appends after what a
// vector already holds) is the ring up to its first break, and the corners up to the first bad one.
TEST(FaceRing, EachStatusLeavesTheRingUpToItsFirstFault) {
    navlab::fromsoft::NavMesh m;
    m.vertices = {{0, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 1, 1}, {0, 0, 1, 1}, {std::numeric_limits<float>::infinity(), 0, 0, 1}};
    auto edge = [](std::int32_t a, std::int32_t b) {
        navlab::fromsoft::Edge e;
        e.a = a, e.b = b;
        return e;
    };
    m.edges = {edge(0, 1), edge(1, 2), edge(2, 3), edge(3, 0),   // 0: a closed quad
               edge(0, 1), edge(1, 2), edge(3, 0),               // 4: open at position 1 (ends at 2, next starts at 3)
               edge(0, 1), edge(1, 9), edge(9, 0),               // 7: vertex 9 at position 2
               edge(0, 4), edge(4, 1), edge(1, 0),               // 10: vertex 4 is not finite
               edge(0, 1), edge(1, 2), edge(2, 3)};              // 13: open only at the closing edge (3 ≠ 0)
    auto face = [](std::int32_t start, std::int16_t n) {
        navlab::fromsoft::Face f;
        f.startEdgeIndex = start, f.numEdges = n;
        return f;
    };
    m.faces = {face(0, 4), face(4, 3), face(7, 3), face(10, 3), face(14, 3), face(-1, 3), face(0, 2), face(13, 3)};
    struct Expected {
        RingStatus status;
        std::vector<std::int32_t> vertices;
        int corners;
        int break_at;
    };
    const Expected expected[] = {
        {RingStatus::Ok, {0, 1, 2, 3}, 4, -1},
        {RingStatus::Open, {0}, 0, 1},  // the vertices before the break
        {RingStatus::VertexOutOfRange, {0, 1, 9}, 2, -1},
        {RingStatus::NotFinite, {0, 4, 1}, 1, -1},
        {RingStatus::RangeOutside, {}, 0, -1},  // 14 + 3 runs past the 16 edges
        {RingStatus::RangeOutside, {}, 0, -1},  // a negative start
        {RingStatus::RangeOutside, {}, 0, -1},  // fewer than 3 edges
        {RingStatus::Open, {0, 1}, 0, 2},       // the last edge does not lead back to the first
    };
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
        const Expected& want = expected[f];
        SCOPED_TRACE(f);
        const std::size_t room = face_ring_room(m, f);
        EXPECT_EQ(room, want.status == RingStatus::RangeOutside ? 0u : static_cast<std::size_t>(m.faces[f].numEdges));
        std::vector<std::int32_t> vertices(room + 1, -7);  // one more: nothing is written past the room
        std::vector<Point> corners(room + 1, Point{-7, -7, -7});
        const RingWritten w = write_face_ring(m, f, vertices.data(), corners.data());
        EXPECT_EQ(w.status, want.status);
        EXPECT_EQ(w.break_at, want.break_at);
        ASSERT_EQ(w.vertices, static_cast<int>(want.vertices.size()));
        EXPECT_EQ(std::vector<std::int32_t>(vertices.begin(), vertices.begin() + w.vertices), want.vertices);
        EXPECT_EQ(vertices[room], -7);
        ASSERT_EQ(w.corners, want.corners);
        for (int k = 0; k < w.corners; ++k) EXPECT_TRUE(same_point(corners[k], to_point(m.vertices[want.vertices[k]])));
        EXPECT_EQ(corners[room].x, -7);
        // append_face_ring keeps what the vectors held and appends the same.
        std::vector<std::int32_t> appended{42};
        std::vector<Point> appended_corners{Point{5, 5, 5}};
        int break_at = 99;
        EXPECT_EQ(append_face_ring(m, f, appended, appended_corners, break_at), want.status);
        EXPECT_EQ(break_at, want.break_at);
        std::vector<std::int32_t> want_appended{42};
        want_appended.insert(want_appended.end(), want.vertices.begin(), want.vertices.end());
        EXPECT_EQ(appended, want_appended);
        ASSERT_EQ(appended_corners.size(), 1u + want.corners);
        EXPECT_EQ(appended_corners[0].x, 5);
        for (int k = 0; k < want.corners; ++k)
            EXPECT_TRUE(same_point(appended_corners[1 + k], to_point(m.vertices[want.vertices[k]])));
    }
}

/// A corner writer as the audit's AVX one (audit_context.cpp): x, y, z and w widened, stored as
/// 32 bytes, w on the next Point's x.
struct WidenWholeVertex {
    static void widen(const navlab::fromsoft::Vec4& v, Point* corner) {
        const double d[4] = {v.x, v.y, v.z, v.w};
        std::memcpy(static_cast<void*>(corner), d, sizeof d);
    }
};

// write_sound_ring against write_face_ring on sound meshes (every edge's ends vertices, every
// vertex finite): random faces over random edges, so most rings are open at some edge (the
// closing one included), some closed, some outside the edges or shorter than 3 (room 0, which
// write_sound_ring is not given). It must say closed exactly when write_face_ring says Ok, write
// the same entries then, no vertex past the room and no corner past its slack (the x of the
// one Point past the room) either way. Rings of 3 … 8 corners (unrolled) and longer (the loop),
// many through the vertex array's last vertex.
TEST(FaceRing, SoundRingEqualsTheCheckedRing) {
    std::mt19937 random(17);
    auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
    int statuses[5] = {};
    int lengths[10][2] = {};  // [min(n, 9)][closed]: the unrolled lengths and the loop, each both ways
    for (int round = 0; round < 200; ++round) {
        navlab::fromsoft::NavMesh m;
        const int V = 1 + pick(6);
        // w is no x: a corner whose x is a w shows (WidenWholeVertex)
        for (int v = 0; v < V; ++v) m.vertices.push_back({float(pick(100)), float(pick(9)) / 4, float(-pick(100)), -3.5f});
        for (int e = 0, E = 3 + pick(40); e < E; ++e) {
            navlab::fromsoft::Edge d;
            d.a = pick(V), d.b = pick(4) ? (d.a + 1) % V : pick(V);  // mostly chained
            m.edges.push_back(d);
        }
        for (int f = 0; f < 20; ++f) {
            navlab::fromsoft::Face face;
            face.startEdgeIndex = pick(static_cast<int>(m.edges.size()) + 4) - 2;
            face.numEdges = static_cast<std::int16_t>(pick(10));
            m.faces.push_back(face);
        }
        for (int f = 0; f < 3 && V >= 3; ++f) {  // closed rings over vertices 0, 1, 2 (and some longer)
            const int n = 3 + pick(10);
            navlab::fromsoft::Face face;
            face.startEdgeIndex = static_cast<std::int32_t>(m.edges.size()), face.numEdges = static_cast<std::int16_t>(n);
            for (int k = 0; k < n; ++k) {
                navlab::fromsoft::Edge d;
                d.a = k % V, d.b = (k + 1) % n % V;
                m.edges.push_back(d);
            }
            m.faces.push_back(face);
        }
        for (std::size_t f = 0; f < m.faces.size(); ++f) {
            const std::size_t room = face_ring_room(m, f);
            std::vector<std::int32_t> v1(room + 1, -7), v2(room + 1, -7);
            std::vector<Point> c1(room + 1, Point{-7, -7, -7}), c2(room + 2, Point{-7, -7, -7});
            const RingWritten a = write_face_ring(m, f, v1.data(), c1.data());
            ++statuses[static_cast<int>(a.status)];
            if (room == 0) {
                EXPECT_EQ(a.status, RingStatus::RangeOutside);
                continue;
            }
            // Every other face with a corner writer that stores 32 bytes as the audit's AVX one
            // does: the corners must be written in ring order, each over the last one's w.
            const bool whole = f % 2 == 1;
            const auto* edge = m.edges.data() + m.faces[f].startEdgeIndex;
            const bool closed = whole ? write_sound_ring<WidenWholeVertex>(edge, static_cast<std::int64_t>(room), m.vertices.data(), v2.data(), c2.data())
                                      : write_sound_ring(edge, static_cast<std::int64_t>(room), m.vertices.data(), v2.data(), c2.data());
            ASSERT_EQ(closed, a.status == RingStatus::Ok) << "round " << round << " face " << f;
            ASSERT_TRUE(closed || a.status == RingStatus::Open) << "round " << round << " face " << f;
            if (closed)
                for (std::size_t k = 0; k < room; ++k) {
                    EXPECT_EQ(v1[k], v2[k]);
                    EXPECT_TRUE(same_point(c1[k], c2[k]));
                }
            EXPECT_EQ(v2[room], -7);
            EXPECT_TRUE(same_point({0, c2[room].y, c2[room].z}, {0, -7, -7}));  // the slack: x alone
            EXPECT_TRUE(same_point(c2[room + 1], {-7, -7, -7}));
            ++lengths[std::min<std::size_t>(room, 9)][closed];
        }
    }
    EXPECT_GT(statuses[static_cast<int>(RingStatus::Ok)], 500);
    EXPECT_GT(statuses[static_cast<int>(RingStatus::Open)], 500);
    EXPECT_GT(statuses[static_cast<int>(RingStatus::RangeOutside)], 500);
    EXPECT_EQ(statuses[static_cast<int>(RingStatus::VertexOutOfRange)] + statuses[static_cast<int>(RingStatus::NotFinite)], 0);
    for (int n = 3; n <= 9; ++n) {
        EXPECT_GT(lengths[n][0], 10) << n;
        EXPECT_GT(lengths[n][1], 10) << n;
    }
}

TEST(Planarity, OffPlaneCornerDistance) {
    std::vector<Point> warped{{0, 0, 0}, {0, 0, 1}, {1, 0.4, 1}, {1, 0, 0}};
    FacePlane plane(warped);
    PlaneDistance d = max_distance_from_mean_plane(plane);
    EXPECT_GT(d.distance, 0.09);
    EXPECT_LT(d.distance, 0.11);
    auto sq = ccw_square();
    EXPECT_EQ(max_distance_from_mean_plane(FacePlane(sq)).distance, 0.0);
}

TEST(Triangulate, ConvexQuadGivesTwoTriangles) {
    auto sq = ccw_square();
    FacePlane plane(sq);
    Triangulation t = triangulate_newell(plane);
    expect_complete(plane, t, 2);
    EXPECT_EQ(t.dropped.size(), 0u);
    EXPECT_EQ(t.triangles[0], (Cut{3, 0, 1}));
    EXPECT_EQ(first_bad_fan_triangle(plane), -1);
}

TEST(Triangulate, ClockwiseFaceUsesItsOwnNormal) {
    auto cw = reversed(flat({{0, 0}, {0, 2}, {1, 2}, {1, 1}, {2, 1}, {2, 0}}));
    FacePlane plane(cw);
    ASSERT_EQ(winding_from_above(plane), Winding::Clockwise);
    expect_complete(plane, triangulate_newell(plane), 4);
}

TEST(Triangulate, NonConvexFaceAvoidsTheReflexCorner) {
    // Arrow head: the fan from corner 0 crosses outside the face.
    auto arrow = flat({{0, 0}, {2, 1}, {0, 2}, {1, 1}});
    FacePlane plane(arrow);
    ASSERT_EQ(plane.normal_sign(1), -1);
    // Counter-clockwise, starting at a corner whose fan crosses the notch at (1, 1).
    auto ccw = flat({{0, 2}, {2, 1}, {0, 0}, {1, 1}});
    FacePlane p2(ccw);
    ASSERT_EQ(p2.normal_sign(1), 1);
    Triangulation t = triangulate_newell(p2);
    expect_complete(p2, t, 2);
    EXPECT_NE(first_bad_fan_triangle(p2), -1);
}

TEST(Triangulate, CollinearCornerWithoutAreaIsDropped) {
    // A straight corner on a flat face: its cut has zero area in 3-space.
    // Ring position 0 is the straight corner, so the first cut examined is dropped.
    auto straight = flat({{0, 1}, {0, 2}, {1, 2}, {1, 0}, {0, 0}});
    FacePlane plane(straight);
    Triangulation t = triangulate_newell(plane);
    ASSERT_EQ(t.dropped.size(), 1u);
    EXPECT_EQ(t.dropped[0], (Cut{4, 0, 1}));
    expect_complete(plane, t, 2);
}

TEST(Triangulate, StraightInProjectionButSteppingOffThePlane) {
    // Corner 1 is straight seen from above but rises: its cut has area in 3-space, so
    // Algorithm T keeps it while the axis-plane variant drops it (R48).
    std::vector<Point> face{{0, 0.5, 1}, {0, 0, 2}, {1, 0, 2}, {1, 0, 0}, {0, 0, 0}};
    FacePlane plane(face);
    Triangulation t = triangulate_newell(plane);
    expect_complete(plane, t, 3);
    EXPECT_EQ(t.dropped.size(), 0u);
    Triangulation axis = triangulate_axis_plane(plane);
    EXPECT_EQ(lost_triangles(plane, axis), 1);
    EXPECT_FALSE(axis.no_ear);
}

TEST(Triangulate, OffPlaneCornersStillTileTheVectorArea) {
    std::vector<Point> warped{{0, 0, 0}, {0, 0.3, 1}, {0.5, 1.2, 2}, {1, 0.1, 2}, {1.5, -0.4, 1}, {1, 0, 0}};
    FacePlane plane(warped);
    expect_complete(plane, triangulate_newell(plane), 4);
}

TEST(Triangulate, ZeroAreaFaceHasNoEar) {
    // A face that goes out and back along a line has N = 0 and no droppable first cut... the
    // collinear cuts are dropped, the rest has no plane.
    std::vector<Point> line{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 0, 0}};
    FacePlane plane(line);
    ASSERT_TRUE(plane.normal_is_zero());
    Triangulation t = triangulate_newell(plane);
    EXPECT_TRUE(t.triangles.empty());
    // Every cut of a collinear ring has zero area in 3-space, so all are dropped.
    EXPECT_FALSE(t.no_ear);
    TriangulationCheck check = check_triangulation(plane, t);
    EXPECT_EQ(check.area_difference_max, 0.0);

    // Zero vector area but not collinear: a bow tie with opposite lobes.
    std::vector<Point> bow{{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 1}};
    FacePlane bp(bow);
    ASSERT_TRUE(bp.normal_is_zero());
    Triangulation bt = triangulate_newell(bp);
    EXPECT_TRUE(bt.no_ear);
    EXPECT_EQ(bt.corners_left, 4);
}

TEST(Triangulate, DegenerateTriangleIsDropped) {
    std::vector<Point> tri{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}};
    FacePlane plane(tri);
    Triangulation t = triangulate_newell(plane);
    EXPECT_TRUE(t.triangles.empty());
    EXPECT_EQ(t.dropped.size(), 1u);
}

TEST(Triangulate, RepeatedCornerSpikeEndsWithATurnedTriangle) {
    // Corner (1, 1) repeats in the ring (a spike of zero width). Algorithm T ignores corners at
    // the same projected position as the cut's, so it clips (6, 3, 4) and the last triangle is
    // turned against the face: R43 and R44 report such a face, while the signed area vectors
    // still add up (R45).
    auto spike = flat({{0, 0}, {0, 2}, {1, 2}, {1, 1}, {3, 1}, {1, 1}, {1, 0}});
    FacePlane plane(spike);
    Triangulation t = triangulate_newell(plane);
    EXPECT_FALSE(t.no_ear);
    ASSERT_EQ(t.triangles.size(), 5u);
    EXPECT_EQ(t.triangles[3], (Cut{6, 3, 4}));
    TriangulationCheck check = check_triangulation(plane, t);
    EXPECT_EQ(check.turned, 1);
    EXPECT_EQ(check.first_turned, 4);
    EXPECT_GT(check.projected_relative, 1e-9);
    EXPECT_EQ(check.area_difference_max, 0.0);
}

TEST(Triangulate, ManyCornersConvex) {
    std::vector<Point> circle;
    for (int i = 0; i < 40; ++i) {
        double a = -2 * M_PI * i / 40;  // clockwise in (x, z) angle = counter-clockwise from above
        circle.push_back({static_cast<float>(std::cos(a) * 10), 0.0, static_cast<float>(std::sin(a) * 10)});
    }
    FacePlane plane(circle);
    ASSERT_EQ(plane.normal_sign(1), 1);
    expect_complete(plane, triangulate_newell(plane), 38);
    EXPECT_TRUE(convexity_from_above(circle, 1).convex);
}

TEST(Exact, LongExpansionsSpillToTheHeapAndStayExact) {
    // 18 powers of two 55 binary digits apart cannot merge; their square has more terms than
    // the inline buffer holds (exponents stay inside double's range).
    Expansion sum(0.0);
    for (int k = 0; k < 18; ++k) sum = sum + Expansion(std::ldexp(1.0, 500 - 55 * k));
    Expansion copy = sum;
    EXPECT_EQ((sum - copy).sign(), 0);
    EXPECT_EQ((sum - Expansion(std::ldexp(1.0, 500))).sign(), 1);
    Expansion sq = sum * sum;
    EXPECT_EQ(sq.sign(), 1);
    EXPECT_EQ((sq - sum * copy).sign(), 0);
}

// check_triangulation reports Σ A − N/2 = 0 for every complete triangulation without
// computing it (triangle_checks.cpp): the identity, checked here with the exact sum on random
// rings over a small lattice (repeated corners, collinear runs, warped and non-convex rings).
TEST(Triangulate, CompleteTriangulationsTileTheVectorAreaExactly) {
    std::uint64_t s = 7;
    auto next = [&] {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<int>(s >> 33);
    };
    int complete = 0;
    for (int face = 0; face < 3000; ++face) {
        std::vector<Point> ring;
        const int n = 3 + next() % 8;
        for (int k = 0; k < n; ++k)
            ring.push_back({(next() % 5) * 0.75, (next() % 3) * 0.1 + (next() % 2) * 1e-7, (next() % 5) * 1.25});
        FacePlane plane(ring);
        Triangulation t = triangulate_newell(plane);
        if (t.no_ear) continue;
        ++complete;
        Vec3<Expansion> sum{Expansion(0.0), Expansion(0.0), Expansion(0.0)};
        for (const Cut& cut : t.triangles) {
            Vec3<Expansion> a = lift<Expansion>(ring[cut[0]]), b = lift<Expansion>(ring[cut[1]]),
                            d = lift<Expansion>(ring[cut[2]]);
            sum = sum + cross(b - a, d - b);
        }
        Vec3<Expansion> diff = sum - plane.exact_normal();
        ASSERT_EQ(diff.x.sign(), 0) << face;
        ASSERT_EQ(diff.y.sign(), 0) << face;
        ASSERT_EQ(diff.z.sign(), 0) << face;
        EXPECT_EQ(check_triangulation(plane, t).area_difference_max, 0.0);
    }
    EXPECT_GT(complete, 1000);
}

TEST(FacePlane, RememberedCornerTurnsEqualTheExactOrientation) {
    // orient_at serves rotations of single-corner turns from its memo: every triple of every
    // ring (lattice points, many collinear and repeated) must still get the sign computed
    // with expansions directly; rings longer than the memo too.
    std::uint64_t s = 11;
    auto next = [&] {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<int>(s >> 33);
    };
    for (int face = 0; face < 300; ++face) {
        std::vector<Point> ring;
        const int n = face % 50 == 0 ? 40 : 3 + next() % 7;
        for (int k = 0; k < n; ++k)
            ring.push_back({(next() % 4) * 0.5, (next() % 3) * 0.25, (next() % 4) * 1.5});
        FacePlane plane(ring);
        const Vec3<Expansion>& N = plane.exact_normal();
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                for (int d = 0; d < n; ++d) {
                    if (a == b || b == d || a == d) continue;
                    Vec3<Expansion> p = lift<Expansion>(ring[a]), q = lift<Expansion>(ring[b]), r = lift<Expansion>(ring[d]);
                    ASSERT_EQ(plane.orient_at(a, b, d), dot(cross(q - p, r - q), N).sign()) << face << ": " << a << b << d;
                }
    }
}

namespace {

/// Algorithm T as audit-rules.md §6.7 words it, every predicate with expansions and in the
/// spec's order, no shortcut: the reference for triangulate_newell (`along_axis` false) and
/// triangulate_axis_plane (true: projected along N's largest axis, compared exactly, ties to
/// the lower axis, x with sign + when N = 0; a cut is dropped when its projection has no area).
Triangulation algorithm_t_as_written(const std::vector<Point>& P, bool along_axis = false) {
    Vec3<Expansion> N = newell_normal<Expansion>(P);
    auto e = [&](int k) { return lift<Expansion>(P[k]); };
    auto area = [&](int a, int c, int d) { return cross(e(c) - e(a), e(d) - e(c)); };
    auto zero = [](const Vec3<Expansion>& v) { return v.x.sign() == 0 && v.y.sign() == 0 && v.z.sign() == 0; };
    const Expansion* component[3] = {&N.x, &N.y, &N.z};
    auto magnitude = [&](int k) { return component[k]->sign() < 0 ? -*component[k] : *component[k]; };
    int axis = 0;
    for (int k = 1; k < 3; ++k)
        if ((magnitude(k) - magnitude(axis)).sign() > 0) axis = k;
    const int axis_sign = component[axis]->sign() == 0 ? 1 : component[axis]->sign();
    auto pick = [&](const Vec3<Expansion>& v) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); };
    auto orient = [&](int a, int c, int d) {
        return along_axis ? axis_sign * pick(area(a, c, d)).sign() : dot(area(a, c, d), N).sign();
    };
    auto zero_area = [&](int a, int c, int d) { return along_axis ? orient(a, c, d) == 0 : zero(area(a, c, d)); };
    auto same = [&](int r, int x) {
        if (!along_axis) return zero(cross(e(r) - e(x), N));
        const Vec3<Expansion> v = e(r) - e(x);
        return (axis == 0 ? v.y.sign() == 0 && v.z.sign() == 0
                          : (axis == 1 ? v.z.sign() == 0 && v.x.sign() == 0 : v.x.sign() == 0 && v.y.sign() == 0));
    };
    const bool has_plane = !zero(N);
    Triangulation out;
    std::vector<int> ring;
    for (int k = 0; k < static_cast<int>(P.size()); ++k) ring.push_back(k);
    while (ring.size() > 3) {
        const int m = static_cast<int>(ring.size());
        auto at = [&](int j) { return Cut{ring[(j + m - 1) % m], ring[j], ring[(j + 1) % m]}; };
        int chosen = -1;
        bool drop = false;
        for (int j = 0; j < m && chosen < 0; ++j) {
            auto [a, c, d] = at(j);
            if (zero_area(a, c, d)) {
                chosen = j;
                drop = true;
            } else if (orient(a, c, d) > 0) {
                bool empty = true;
                for (int r : ring)
                    if (r != a && r != c && r != d && orient(a, c, r) >= 0 && orient(c, d, r) >= 0 &&
                        orient(d, a, r) >= 0 && !same(r, a) && !same(r, c) && !same(r, d))
                        empty = false;
                if (empty) chosen = j;
            }
        }
        if (chosen < 0 && has_plane)
            for (int j = 0; j < m && chosen < 0; ++j)
                if (auto [a, c, d] = at(j); orient(a, c, d) == 0) chosen = j, ++out.fallbacks;
        if (chosen < 0) {
            out.no_ear = true;
            out.corners_left = m;
            return out;
        }
        (drop ? out.dropped : out.triangles).push_back(at(chosen));
        ring.erase(ring.begin() + chosen);
    }
    if (ring.size() == 3) (zero_area(ring[0], ring[1], ring[2]) ? out.dropped : out.triangles).push_back({ring[0], ring[1], ring[2]});
    return out;
}

}  // namespace

// triangulate_newell writes the fan from the last corner without ear tests when 2n − 6
// orientations prove that every step takes its first candidate (triangulate.cpp): on convex
// rings (warped, near-degenerate, up to 40 corners) and random lattice rings it must give
// Algorithm T's exact output as the spec words it.
TEST(Triangulate, LastCornerFanEqualsAlgorithmTAsWritten) {
    std::uint64_t s = 13;
    auto next = [&] {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<int>(s >> 33);
    };
    int fans = 0, clipped = 0;
    for (int face = 0; face < 3000; ++face) {
        std::vector<Point> ring;
        if (face % 2 == 0) {
            // Convex seen from above: corners on a circle in either direction, heights varied,
            // sometimes a corner pulled inward (reflex) or repeated.
            const int n = face % 100 == 0 ? 40 : 3 + next() % 8;
            const double turn = (face % 6 == 0 ? -1 : 1) * 2 * 3.141592653589793 / n;
            for (int k = 0; k < n; ++k) {
                double radius = (face % 10 == 2 && k == n / 2) ? 0.3 : 2.0;
                ring.push_back({radius * std::cos(k * turn), (next() % 5) * 0.2, -radius * std::sin(k * turn)});
            }
            if (face % 10 == 4) ring.push_back(ring.back());
        } else {
            const int n = 3 + next() % 8;
            for (int k = 0; k < n; ++k)
                ring.push_back({(next() % 5) * 0.75, (next() % 3) * 0.1 + (next() % 2) * 1e-7, (next() % 5) * 1.25});
        }
        FacePlane plane(ring);
        Triangulation t = triangulate_newell(plane), expected = algorithm_t_as_written(ring);
        (t.last_corner_fan ? fans : clipped)++;
        ASSERT_EQ(t.triangles, expected.triangles) << face;
        ASSERT_EQ(t.dropped, expected.dropped) << face;
        ASSERT_EQ(t.fallbacks, expected.fallbacks) << face;
        ASSERT_EQ(t.no_ear, expected.no_ear) << face;
        ASSERT_EQ(t.corners_left, expected.corners_left) << face;
        if (t.last_corner_fan) {
            EXPECT_EQ(check_triangulation(plane, t).turned, 0) << face;
        }
    }
    EXPECT_GT(fans, 1000);
    EXPECT_GT(clipped, 1000);
}

// The clippers decide each orientation with its filter inline and hand what it leaves open to
// the exact predicate (triangulate.cpp), and check_triangulation orients only the last
// triangle of a clipping along N. On rings that need ear clipping, at every scale float32
// has (reflex, clockwise, warped, steep, collinear and repeated corners, corners exactly on
// a neighbour's line, near-degenerate; a few longer than the clipper's ring on the stack),
// both variants must give Algorithm T's output as the spec words it, with expansions, and
// the check must count the turned triangles that expansions count.
TEST(Triangulate, ClippedRingsEqualAlgorithmTAsWrittenInBothVariants) {
    std::uint64_t s = 29;
    auto next = [&] {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<int>(s >> 33);
    };
    auto unit = [&] { return (next() % 1000000) / 1e6; };
    auto f = [](double v) { return double(float(v)); };
    const double scales[] = {0x1p-140, 1e-30, 1e-3, 1.0, 300.0, 1e6, 1e20, 1e36};
    int clipped[2] = {}, dropped[2] = {}, fallbacks = 0, no_ear = 0, turned = 0, zero_areas = 0;
    for (int face = 0; face < 4000; ++face) {
        const double scale = scales[face % 8];
        const int kind = (face / 8) % 7;
        // A few rings longer than the clipper's ring on the stack (64 corners).
        const int n = face % 400 == 399 ? 65 + next() % 8 : 4 + next() % (kind == 6 ? 12 : 6);
        const double turn = (next() % 3 == 0 ? -1 : 1) * 2 * 3.141592653589793 / n;
        std::vector<Point> ring;
        for (int k = 0; k < n; ++k) {
            const double cx = std::cos(k * turn), cz = -std::sin(k * turn);
            const double r = (k % 3 == 1) ? 0.3 : 1.0;  // every third corner pulled in: reflex
            switch (kind) {
            case 0:  // reflex corners, gently warped
                ring.push_back({f(scale * r * cx), f(scale * 0.02 * unit()), f(scale * r * cz)});
                break;
            case 1:  // lattice points: collinear, repeated, clockwise, spikes
                ring.push_back({f(scale * (next() % 4)), f(scale * (next() % 2) * 0.5), f(scale * (next() % 4))});
                break;
            case 2:  // strongly warped and steep: the axis plane differs from N's
                ring.push_back({f(scale * r * cx), f(scale * (r * cz * 2 + (k % 2) * unit())), f(scale * (r * cz + 0.3 * unit()))});
                break;
            case 3:  // vertical or nearly: N's largest axis x or z, N_y 0 or tiny
                ring.push_back({f(scale * r * cx), f(scale * r * cz), f(scale * (face % 2 ? 0 : 1e-7 * unit()))});
                break;
            case 4:  // near-degenerate: every corner within float32 rounding of a line
                ring.push_back({f(scale * (1 + k * 1e-7 * unit())), f(scale * 0.5), f(scale * (k + (k % 2) * 1e-6 * r))});
                break;
            case 5: {  // on a line through the origin, exactly, at magnitudes up to 2^40 apart:
                       // exact zeros whose products round in double; one corner lifted or not
                const double base = std::ldexp(1.0, (face % 8) * 20 - 80);
                const double t = base * std::ldexp(1.0 + next() % 4, next() % 41 - 20) * (k % 2 ? 1 : -1);
                const double lift = k == 0 && face % 3 != 0 ? base * std::ldexp(1.0, next() % 41 - 20) : 0;
                ring.push_back({t * 3, t * 7 + lift, t * -5});
                break;
            }
            default:  // many corners on a star, some exactly on a neighbour's line seen from above
                ring.push_back({f(scale * (k % 4 == 2 ? 0.5 : r) * cx), f(scale * 0.001 * (k % 3)), f(scale * (k % 4 == 2 ? 0.5 : r) * cz)});
            }
        }
        if (next() % 5 == 0) ring.insert(ring.begin() + next() % ring.size(), ring[next() % ring.size()]);
        if (next() % 7 == 0) {  // a corner on its neighbours' midpoint (exact in float32 on a lattice)
            const int m = next() % static_cast<int>(ring.size());
            const Point &a = ring[(m + ring.size() - 1) % ring.size()], &b = ring[(m + 1) % ring.size()];
            if (kind == 1) ring[m] = {(a.x + b.x) / 2, (a.y + b.y) / 2, (a.z + b.z) / 2};
        }
        const FacePlane plane(ring);
        const Vec3<Expansion>& N = plane.exact_normal();
        for (int variant = 0; variant < 2; ++variant) {
            const Triangulation t = variant == 0 ? triangulate_newell(plane) : triangulate_axis_plane(plane);
            const Triangulation expected = algorithm_t_as_written(ring, variant == 1);
            ASSERT_EQ(t.triangles, expected.triangles) << face << " variant " << variant;
            ASSERT_EQ(t.dropped, expected.dropped) << face << " variant " << variant;
            ASSERT_EQ(t.fallbacks, expected.fallbacks) << face << " variant " << variant;
            ASSERT_EQ(t.no_ear, expected.no_ear) << face << " variant " << variant;
            ASSERT_EQ(t.corners_left, expected.corners_left) << face << " variant " << variant;
            clipped[variant] += !t.last_corner_fan;
            dropped[variant] += !t.dropped.empty();
            if (variant == 1) continue;
            fallbacks += t.fallbacks > 0;
            no_ear += t.no_ear;
            // R43: every triangle oriented with expansions.
            int count = 0, first = -1;
            for (std::size_t i = 0; i < t.triangles.size(); ++i) {
                const auto [a, b, d] = t.triangles[i];
                const Vec3<Expansion> p = lift<Expansion>(ring[a]), q = lift<Expansion>(ring[b]), r = lift<Expansion>(ring[d]);
                if (dot(cross(q - p, r - q), N).sign() < 0 && count++ == 0) first = static_cast<int>(i);
            }
            const TriangulationCheck check = check_triangulation(plane, t);
            ASSERT_EQ(check.turned, count) << face;
            ASSERT_EQ(check.first_turned, first) << face;
            turned += count > 0;
        }
        // zero_area_3d on every three corners of the ring, against the expansions.
        for (std::size_t a = 0; a < ring.size(); ++a)
            for (std::size_t b = 0; b < ring.size(); ++b) {
                const std::size_t d = (a + b + face) % ring.size();
                const Vec3<Expansion> p = lift<Expansion>(ring[a]), q = lift<Expansion>(ring[b]), r = lift<Expansion>(ring[d]);
                const Vec3<Expansion> c = cross(q - p, r - q);
                const bool exact = c.x.sign() == 0 && c.y.sign() == 0 && c.z.sign() == 0;
                ASSERT_EQ(zero_area_3d(ring[a], ring[b], ring[d]), exact) << face << ": " << a << b << d;
                zero_areas += exact && a != b && b != d && a != d;
            }
    }
    // Each kind of outcome is exercised, not only the proven fans.
    EXPECT_GT(clipped[0], 1500);
    EXPECT_GT(clipped[1], 1500);
    EXPECT_GT(dropped[0], 400);
    EXPECT_GT(dropped[1], 400);
    EXPECT_GT(fallbacks, 20);
    EXPECT_GT(no_ear, 100);
    EXPECT_GT(turned, 300);
    EXPECT_GT(zero_areas, 3000);
}

namespace {

/// Random numbers for the ring generators: `next` a 31-bit integer, `unit` in [0, 1).
struct RingRandom {
    std::uint64_t s;
    int next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<int>(s >> 33);
    }
    double unit() { return (next() % 1000000) / 1e6; }
};

/// Ring number `face` of 4 … 8 corners (the faces the batch leaves to ear clipping), at one of
/// five scales 2^-140 … 1e20 and of eight kinds: concave (one or two corners pulled in past
/// the centre's side), lattice points (collinear, repeated, spikes), steep and warped,
/// vertical or nearly, slivers within float32 rounding of a line, grid points with a corner
/// straight from above and lifted; sometimes a corner repeated.
std::vector<Point> hostile_short_ring(int face, RingRandom& random) {
    auto next = [&] { return random.next(); };
    auto unit = [&] { return random.unit(); };
    auto f = [](double v) { return double(float(v)); };
    const double scales[] = {0x1p-140, 1e-3, 1.0, 300.0, 1e20};
    const double scale = scales[face % 5];
    const int kind = (face / 5) % 8;
    const int n = 4 + next() % 5;  // 4 … 8 corners: the faces the batch leaves to ear clipping
    const double turn = (face % 4 == 0 ? -1 : 1) * 2 * 3.141592653589793 / n;
    std::vector<Point> ring;
    for (int k = 0; k < n; ++k) {
        const double angle = k * turn + 0.3 * turn * unit();
        const double cx = std::cos(angle), cz = -std::sin(angle);
        // One or two corners pulled in past the centre's side: reflex along N and from above.
        const bool pulled = k == face % n || (kind >= 4 && k == (face / 3 + 2) % n);
        const double r = pulled ? -0.2 + 0.5 * unit() : 1.0;
        switch (kind) {
        case 0:  // concave, gently warped
        case 4:
            ring.push_back({f(scale * r * cx), f(scale * 0.02 * unit()), f(scale * r * cz)});
            break;
        case 1:  // lattice: collinear, repeated, spikes, straight corners
            ring.push_back({f(scale * (next() % 3)), f(scale * (next() % 2) * 0.5), f(scale * (next() % 3))});
            break;
        case 2:  // steep and warped: the axis plane differs from N's
        case 5:
            ring.push_back({f(scale * r * cx), f(scale * (r * cz * 1.5 + 0.4 * unit())), f(scale * (r * cz + 0.2 * unit()))});
            break;
        case 3:  // vertical or nearly: N_y 0 or tiny, the axis plane x or z
            ring.push_back({f(scale * r * cx), f(scale * r * cz), f(scale * (face % 2 ? 0 : 1e-7 * unit()))});
            break;
        case 6:  // a sliver within float32 rounding of a line, one corner pulled off it or not
            ring.push_back({f(scale * (1 + k * 1e-7 * unit())), f(scale * 0.5), f(scale * (k + (pulled ? 1e-6 : 0)))});
            break;
        default:  // on a grid whose midpoints are exact: corners straight from above, lifted
            ring.push_back({std::round(64 * r * cx) / 64, 0, std::round(64 * r * cz) / 64});
        }
    }
    if (kind == 7) {
        const int m = next() % n;
        const Point &a = ring[(m + n - 1) % n], &b = ring[(m + 1) % n];
        ring[m] = {(a.x + b.x) / 2, next() % 3 == 0 ? 0 : (next() % 2 ? 0.25 : -0.25), (a.z + b.z) / 2};
    }
    if (next() % 6 == 0) ring[next() % n] = ring[next() % n];  // a repeated corner
    return ring;
}

/// A clipper's output (run `run` of face `face`'s `variant`) is Algorithm T's as written:
/// every field the audit reads.
void assert_same_clipping(const Triangulation& t, const Triangulation& expected, int face, int variant, int run) {
    ASSERT_EQ(t.triangles, expected.triangles) << face << " variant " << variant << " run " << run;
    ASSERT_EQ(t.dropped, expected.dropped) << face << " variant " << variant << " run " << run;
    ASSERT_EQ(t.fallbacks, expected.fallbacks) << face << " variant " << variant << " run " << run;
    ASSERT_EQ(t.no_ear, expected.no_ear) << face << " variant " << variant << " run " << run;
    ASSERT_EQ(t.corners_left, expected.corners_left) << face << " variant " << variant << " run " << run;
}

/// R43 with expansions: how many of `t`'s triangles turn against N, the first of them (or −1),
/// and `t.last_turn`, where known, checked against the last triangle's turn.
void turned_along_n(const std::vector<Point>& ring, const Vec3<Expansion>& N, const Triangulation& t, int face, int& count, int& first) {
    for (std::size_t i = 0; i < t.triangles.size(); ++i) {
        const auto [a, b, d] = t.triangles[i];
        const Vec3<Expansion> p = lift<Expansion>(ring[a]), q = lift<Expansion>(ring[b]), r = lift<Expansion>(ring[d]);
        const int sign = dot(cross(q - p, r - q), N).sign();
        if (i + 1 == t.triangles.size() && t.last_turn != Triangulation::kTurnUnknown) {
            ASSERT_EQ(t.last_turn, sign) << face;
        }
        if (sign < 0 && count++ == 0) first = static_cast<int>(i);
    }
}

}  // namespace

// triangulate_newell's clipper takes a candidate's turn from the plane's corner turn while the
// candidate's neighbours are its face neighbours. On short rings of every hostile kind the
// audit meets (concave with one or more reflex corners, convex, clockwise, collinear and
// repeated corners, corners straight from above and lifted, vertical, slivers within float32
// rounding, near-degenerate), both variants, with the plane's turns remembered or not and with
// the fan proof skipped, must give Algorithm T's output as the spec words it.
TEST(Triangulate, CornerTurnsReusedInShortRingsEqualAlgorithmTAsWritten) {
    RingRandom random{37};
    int clipped[2] = {}, two_reflex = 0, dropped = 0;
    for (int face = 0; face < 12000; ++face) {
        const std::vector<Point> ring = hostile_short_ring(face, random);
        const int n = static_cast<int>(ring.size());
        int reflex = 0;
        const FacePlane remembered(ring), fresh(ring);
        remembered.remember_corner_turns();
        for (int k = 0; k < n; ++k) reflex += remembered.corner_turn(k) < 0;
        two_reflex += reflex >= 2;
        for (int variant = 0; variant < 2; ++variant) {
            const Triangulation expected = algorithm_t_as_written(ring, variant == 1);
            Triangulation t[3];
            if (variant == 0) {
                triangulate_newell(remembered, t[0]);
                triangulate_newell(fresh, t[1]);
                triangulate_newell(remembered, t[2], true);  // the fan proof skipped: the loop gives the fan too
            } else {
                triangulate_axis_plane(remembered, t[0]);
                triangulate_axis_plane(fresh, t[1]);
                triangulate_axis_plane(remembered, t[2], true);
            }
            for (int i = 0; i < 3; ++i)
                ASSERT_NO_FATAL_FAILURE(assert_same_clipping(t[i], expected, face, variant, i));
            clipped[variant] += !t[0].last_corner_fan;
            dropped += !expected.dropped.empty();
        }
    }
    // Most rings are clipped in both variants, many with two reflex corners (several clipping
    // passes, candidates whose neighbours changed) and drops.
    EXPECT_GT(clipped[0], 6000);
    EXPECT_GT(clipped[1], 6000);
    EXPECT_GT(two_reflex, 2000);
    EXPECT_GT(dropped, 1000);
}

namespace {

/// Ring number `face` for the clippers' long and non-simple cases, one of six kinds: stars
/// {n/w} of 4 … 20 corners winding w = 1 … 3 times (sometimes a corner pulled in), spirals
/// closed by one long side, figure eights, lattice rings (collinear, repeated, straight
/// corners, spikes), steep warped rings (the axis plane differs from N's), and
/// hostile_short_ring; either direction, three scales, sometimes a corner repeated.
std::vector<Point> non_simple_ring(int face, RingRandom& random) {
    auto f = [](double v) { return double(float(v)); };
    std::vector<Point> ring;
    const int kind = face % 6;
    if (kind == 5) return hostile_short_ring(face, random);
    const int n = 4 + random.next() % 17;
    const double scale = face % 3 == 0 ? 1e-3 : (face % 3 == 1 ? 1.0 : 1e6);
    const int winds = 1 + random.next() % 3;  // stars {n/winds}: corners of other turns inside each ear
    for (int k = 0; k < n; ++k) {
        const double angle = 2 * 3.141592653589793 * k * winds / n * (face % 4 == 0 ? -1 : 1);
        double r = 1.0, x = 0, z = 0, y = scale * 0.05 * random.unit();
        switch (kind) {
        case 0:  // a star, sometimes a corner pulled in
            r = k == face % n ? 0.3 : 1.0;
            x = r * std::cos(angle), z = r * std::sin(angle);
            break;
        case 1:  // a spiral winding inwards, closed by one long side
            r = 1.0 - 0.8 * k / n;
            x = r * std::cos(2 * angle), z = r * std::sin(2 * angle);
            break;
        case 2:  // a figure eight
            x = std::sin(2 * 3.141592653589793 * k / n), z = std::sin(4 * 3.141592653589793 * k / n) / 2;
            break;
        case 3:  // lattice points: collinear, repeated, straight, spikes
            x = random.next() % 4, z = random.next() % 4, y = scale * (random.next() % 2) * 0.5;
            break;
        default:  // steep and warped: the axis plane differs from N's
            x = std::cos(angle), z = std::sin(angle) + 0.3 * random.unit(), y = scale * 1.5 * std::sin(angle);
        }
        ring.push_back({f(scale * x), f(y), f(scale * z)});
    }
    if (random.next() % 5 == 0) ring.insert(ring.begin() + random.next() % ring.size(), ring[random.next() % ring.size()]);
    return ring;
}

}  // namespace

// Each clipper takes the turns of the two candidates next to a clipped ear, and of the three
// corners left after the last ear, from that ear's containment test (orient(d, a, r) for the
// corners just beyond it), and check_triangulation takes the last triangle's turn along N from
// the clipper. On long and non-simple rings (stars that wind twice or more, spirals, figure
// eights, lattice rings with collinear, repeated and straight corners, the short hostile rings)
// both variants must give Algorithm T's output as the spec words it, the check must count the
// turned triangles that expansions count, and an axis plane handed in must change nothing.
TEST(Triangulate, TurnsFromTheLastEarEqualAlgorithmTAsWrittenOnNonSimpleRings) {
    RingRandom random{43};
    int clipped = 0, known_last = 0, turned = 0, dropped = 0, no_ear = 0;
    for (int face = 0; face < 6000; ++face) {
        const std::vector<Point> ring = non_simple_ring(face, random);
        const FacePlane plane(ring);
        plane.remember_corner_turns();
        const Vec3<Expansion>& N = plane.exact_normal();
        for (int variant = 0; variant < 2; ++variant) {
            const Triangulation expected = algorithm_t_as_written(ring, variant == 1);
            Triangulation t[2];
            if (variant == 0) {
                triangulate_newell(plane, t[0], true);
                triangulate_newell(plane, t[1]);
            } else {
                const AxisPlane axis = axis_plane_of(plane);
                triangulate_axis_plane(plane, t[0], true, &axis);
                triangulate_axis_plane(plane, t[1]);
            }
            for (int i = 0; i < 2; ++i)
                ASSERT_NO_FATAL_FAILURE(assert_same_clipping(t[i], expected, face, variant, i));
            dropped += !expected.dropped.empty();
            no_ear += expected.no_ear;
            if (variant == 1) continue;
            clipped += !t[0].last_corner_fan;
            known_last += t[0].last_turn != Triangulation::kTurnUnknown;
            int count = 0, first = -1;
            ASSERT_NO_FATAL_FAILURE(turned_along_n(ring, N, t[0], face, count, first));
            const TriangulationCheck check = check_triangulation(plane, t[0]);
            ASSERT_EQ(check.turned, count) << face;
            ASSERT_EQ(check.first_turned, first) << face;
            turned += count > 0;
        }
    }
    EXPECT_GT(clipped, 4000);
    EXPECT_GT(known_last, 3000);
    EXPECT_GT(turned, 300);
    EXPECT_GT(dropped, 300);
    EXPECT_GT(no_ear, 50);
}

// triangulate_axis_plane takes a candidate's turn from the caller's turns from above while the
// candidate is still a corner of the face and the axis plane is y's (N_y's sign times the turn
// from above). On the non-simple rings (stars winding up to three times, spirals, figure eights,
// lattice rings, steep warped rings, the hostile short rings; either direction), with the fan
// proof skipped or not, it must give Algorithm T's output as written; turns handed in for a face
// whose axis is x or z change nothing.
TEST(Triangulate, AxisClipperWithTurnsFromAboveEqualsAlgorithmTAsWritten) {
    RingRandom random{47};
    int along_y[2] = {}, clipped = 0, dropped = 0, no_ear = 0, other_axis = 0;
    for (int face = 0; face < 8000; ++face) {
        const std::vector<Point> ring = non_simple_ring(face, random);
        const int n = static_cast<int>(ring.size());
        std::vector<signed char> above(ring.size());
        for (int k = 0; k < n; ++k) above[k] = static_cast<signed char>(turn_from_above(ring[(k + n - 1) % n], ring[k], ring[(k + 1) % n]));
        const FacePlane plane(ring);
        const AxisPlane axis = axis_plane_of(plane);
        const Triangulation expected = algorithm_t_as_written(ring, true);
        Triangulation t[3];
        triangulate_axis_plane(plane, t[0], false, nullptr, above);
        triangulate_axis_plane(plane, t[1], true, &axis, above);
        triangulate_axis_plane(plane, t[2], false, &axis, above);
        for (int i = 0; i < 3; ++i) ASSERT_NO_FATAL_FAILURE(assert_same_clipping(t[i], expected, face, 1, i));
        if (axis.axis == 1) {
            ++along_y[axis.sign > 0];
        } else {
            ++other_axis;
        }
        clipped += !t[0].last_corner_fan;
        dropped += !expected.dropped.empty();
        no_ear += expected.no_ear;
    }
    EXPECT_GT(along_y[0], 1000);  // clockwise seen along y: the turns from above negated
    EXPECT_GT(along_y[1], 1000);
    EXPECT_GT(other_axis, 500);
    EXPECT_GT(clipped, 5000);
    EXPECT_GT(dropped, 300);
    EXPECT_GT(no_ear, 50);
}

// Both clippers clip a ring of four corners from its four corner turns alone (clip_quad). On
// quads of every pattern of turn signs (lattice points: collinear, repeated and all-equal
// corners, spikes; self-crossing bow ties; concave darts; steep and vertical quads; near-
// degenerate slivers), at several scales and both directions, each variant with the turns
// remembered or not, with the fan proof skipped or not and with turns from above handed in,
// must give Algorithm T's output as written; the Newell clipping's last turn and R43's count
// must be what expansions give.
TEST(Triangulate, QuadsFromTheirCornerTurnsEqualAlgorithmTAsWritten) {
    RingRandom random{53};
    auto f = [](double v) { return double(float(v)); };
    std::vector<bool> pattern_seen[2] = {std::vector<bool>(81), std::vector<bool>(81)};
    int no_ear = 0, dropped = 0, turned = 0, fans = 0;
    for (int face = 0; face < 20000; ++face) {
        const double scale = face % 5 == 0 ? 1e-3 : (face % 5 == 1 ? 1e6 : 1.0);
        std::vector<Point> ring(4);
        switch (face % 6) {
        case 0:  // lattice points: every sign pattern, zeros, repeated corners
        case 1:
            for (Point& p : ring) p = {f(scale * (random.next() % 3)), f(scale * (random.next() % 2) * 0.5), f(scale * (random.next() % 3))};
            break;
        case 2: {  // a bow tie: two sides crossing, sometimes through a corner
            const double w = 1 + random.next() % 3, h = 1 + random.next() % 3;
            ring = {{0, 0, 0}, {f(scale * w), 0, f(scale * h)}, {f(scale * w), f(scale * 0.1 * random.unit()), 0}, {0, 0, f(scale * h)}};
            if (random.next() % 3 == 0) ring[2] = {f(scale * w / 2), 0, f(scale * h / 2)};
            break;
        }
        case 3:  // a dart: one corner pulled past the others' side, or onto it
            ring = {{0, 0, 0}, {f(scale * 2), 0, 0}, {f(scale * (random.next() % 5) * 0.5), f(scale * 0.01 * random.unit()), f(scale * (random.next() % 3) * 0.5)}, {0, 0, f(scale * 2)}};
            break;
        case 4:  // steep or vertical: the axis plane x or z
            for (Point& p : ring) p = {f(scale * (random.next() % 3)), f(scale * (random.next() % 3)), f(scale * 0.001 * (random.next() % 2))};
            break;
        default:  // a sliver within float32 rounding of a line
            for (int k = 0; k < 4; ++k) ring[k] = {f(scale * (1 + k * 1e-7 * random.unit())), f(scale * 0.5), f(scale * (k + (k == 2 ? 1e-6 : 0)))};
        }
        if (face % 4 == 0) std::swap(ring[1], ring[3]);  // the other direction
        std::vector<signed char> above(4);
        for (int k = 0; k < 4; ++k) above[k] = static_cast<signed char>(turn_from_above(ring[(k + 3) % 4], ring[k], ring[(k + 1) % 4]));
        const FacePlane remembered(ring), fresh(ring);
        remembered.remember_corner_turns();
        const Vec3<Expansion>& N = remembered.exact_normal();
        const AxisPlane axis = axis_plane_of(remembered);
        for (int variant = 0; variant < 2; ++variant) {
            const Triangulation expected = algorithm_t_as_written(ring, variant == 1);
            Triangulation t[4];
            if (variant == 0) {
                triangulate_newell(remembered, t[0]);
                triangulate_newell(fresh, t[1]);
                triangulate_newell(remembered, t[2], true);
                triangulate_newell(fresh, t[3], true);
            } else {
                triangulate_axis_plane(remembered, t[0]);
                triangulate_axis_plane(fresh, t[1], false, &axis, above);
                triangulate_axis_plane(remembered, t[2], true, &axis);
                triangulate_axis_plane(fresh, t[3], true, nullptr, above);
            }
            for (int i = 0; i < 4; ++i) ASSERT_NO_FATAL_FAILURE(assert_same_clipping(t[i], expected, face, variant, i));
            // The pattern of the four turns in this variant's projection, with expansions.
            int pattern = 0;
            for (int k = 0; k < 4; ++k) {
                const Vec3<Expansion> p = lift<Expansion>(ring[(k + 3) % 4]), q = lift<Expansion>(ring[k]), r = lift<Expansion>(ring[(k + 1) % 4]);
                const Vec3<Expansion> c = cross(q - p, r - q);
                const Expansion& along_axis = axis.axis == 0 ? c.x : (axis.axis == 1 ? c.y : c.z);
                pattern = pattern * 3 + 1 + (variant == 0 ? dot(c, N).sign() : axis.sign * along_axis.sign());
            }
            pattern_seen[variant][pattern] = true;
            no_ear += expected.no_ear;
            dropped += !expected.dropped.empty();
            fans += t[0].last_corner_fan;
            if (variant == 1) continue;
            int count = 0, first = -1;
            ASSERT_NO_FATAL_FAILURE(turned_along_n(ring, N, t[0], face, count, first));
            for (int i = 0; i < 4; ++i) {
                const TriangulationCheck check = check_triangulation(i % 2 ? fresh : remembered, t[i]);
                ASSERT_EQ(check.turned, count) << face << " run " << i;
                ASSERT_EQ(check.first_turned, first) << face << " run " << i;
            }
            turned += count > 0;
        }
    }
    // Most of the 81 patterns of four signs in each variant, and every kind of outcome.
    // The patterns that four points can show (26 along N, 30 in the axis plane, whose sign is
    // N's), and every outcome but a fallback (a quad with a straight corner has an ear).
    for (int variant = 0; variant < 2; ++variant) EXPECT_GE(std::count(pattern_seen[variant].begin(), pattern_seen[variant].end(), true), 26) << variant;
    EXPECT_GT(no_ear, 100);
    EXPECT_GT(dropped, 1000);
    EXPECT_GT(turned, 100);
    EXPECT_GT(fans, 1000);
}

// The Newell fan proof (newell_takes_first_candidate_throughout) and R41's fan
// (first_bad_fan_triangle) take the turns at their ends from the plane and every other
// orientation from NewellOrient's inline filter, orient_at settling what it leaves open. On
// the hostile short rings above and on convex rings at every scale (some longer than the plane
// remembers, some with a corner exactly straight or within float32 rounding of straight, some
// with a repeated corner), both must give what orientations computed with expansions give,
// with the plane's turns remembered or not.
TEST(Triangulate, FanProofsWithTheFilterInlineEqualExpansions) {
    RingRandom random{41};
    auto f = [](double v) { return double(float(v)); };
    const double scales[] = {0x1p-140, 0x1p-10, 1.0, 256.0, 0x1p66};  // powers of two: grid midpoints stay exact
    int proven = 0, refuted = 0, bad = 0, straight = 0, left_open = 0;
    for (int face = 0; face < 12000; ++face) {
        std::vector<Point> ring;
        if (face % 2 == 1) {
            ring = hostile_short_ring(face / 2, random);
        } else {
            const double scale = scales[(face / 2) % 5];
            const int n = face % 100 == 0 ? 40 : 4 + random.next() % 5;
            const double turn = (face % 8 == 0 ? -1 : 1) * 2 * 3.141592653589793 / n;
            for (int k = 0; k < n; ++k) {
                const double angle = k * turn + 0.2 * turn * random.unit();
                ring.push_back({scale * std::round(64 * std::cos(angle)) / 64, f(scale * 0.05 * random.unit()),
                                scale * std::round(-64 * std::sin(angle)) / 64});
            }
            const int m = random.next() % n;
            const Point &a = ring[(m + n - 1) % n], &b = ring[(m + 1) % n];
            switch ((face / 2) % 4) {
            case 0:  // exactly straight in 3-space: the filter's bound is not 0 off the axes
                ring[m] = {(a.x + b.x) / 2, (a.y + b.y) / 2, (a.z + b.z) / 2};
                break;
            case 1:  // within float32 rounding of straight, either side
                ring[m] = {f((a.x + b.x) / 2 * (1 + 1e-7 * (random.unit() - 0.5))), f((a.y + b.y) / 2), f((a.z + b.z) / 2)};
                break;
            case 2:  // a repeated corner
                ring[m] = a;
                break;
            default:
                break;
            }
        }
        const int n = static_cast<int>(ring.size());
        const FacePlane remembered(ring), fresh(ring);
        remembered.remember_corner_turns();
        const Vec3<Expansion> N = newell_normal<Expansion>(ring);
        const Vec3<double> error{remembered.normal_bound(0).error, remembered.normal_bound(1).error, remembered.normal_bound(2).error};
        auto exact = [&](int a, int b, int d) {
            const TurnFilter<double> t = turn_filter_terms(ring[b] - ring[a], ring[d] - ring[b], remembered.normal(), error);
            const Vec3<Expansion> p = lift<Expansion>(ring[a]), q = lift<Expansion>(ring[b]), r = lift<Expansion>(ring[d]);
            const int sign = dot(cross(q - p, r - q), N).sign();
            // left to orient_at's exact fallback (exact zeros off the axes, whose bound is not 0)
            left_open += !(t.value > t.bound || -t.value > t.bound || t.bound == 0);
            return sign;
        };
        const bool expected_proof = takes_first_candidate_throughout(n, exact);
        int expected_bad = -1;
        for (int k = 1; k + 1 < n && expected_bad < 0; ++k)
            if (exact(0, k, k + 1) <= 0) expected_bad = k;
        for (int k = 0; k < n; ++k) straight += exact(k == 0 ? n - 1 : k - 1, k, (k + 1) % n) == 0;
        for (const FacePlane* plane : {&remembered, &fresh}) {
            ASSERT_EQ(newell_takes_first_candidate_throughout(*plane), expected_proof) << face;
            ASSERT_EQ(first_bad_fan_triangle(*plane), expected_bad) << face;
        }
        (expected_proof ? proven : refuted)++;
        bad += expected_bad >= 0;
    }
    EXPECT_GT(proven, 4000);
    EXPECT_GT(refuted, 4000);
    EXPECT_GT(bad, 4000);
    EXPECT_GT(straight, 5000);
    EXPECT_GT(left_open, 3000);
}

TEST(Orient, FilteredSignsEqualExpansionsOnNearlyCollinearFloats) {
    // Points on a line through float32 rounding, at scales from millimetres to kilometres,
    // some repeated: values where the double result is within its rounding error of zero, so
    // the static filters of orient2d_sign, FacePlane::orient and the Newell normal's bound must
    // defer to expansions.
    std::uint64_t s = 5;
    auto unit = [&] {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(s >> 11) * 0x1p-53;
    };
    int signs[3] = {0, 0, 0};
    for (int i = 0; i < 20000; ++i) {
        const double scale = std::pow(10.0, -3 + 7 * unit());
        const Point base{scale * unit(), scale * unit(), scale * unit()}, dir{unit() - 0.5, unit() - 0.5, unit() - 0.5};
        auto on_line = [&](double t) {
            return Point{double(float(base.x + t * dir.x)), double(float(base.y + t * dir.y)), double(float(base.z + t * dir.z))};
        };
        std::vector<Point> ring{on_line(0), on_line(scale * unit()), on_line(scale * unit()), on_line(-scale * unit())};
        if (i % 7 == 0) ring[2] = ring[1];
        if (i % 5 == 0) ring[3].y = double(float(ring[3].y + scale * 1e-3));  // a ring with area: N ≠ 0
        const FacePlane plane(ring);
        const Vec3<Expansion>& N = plane.exact_normal();
        ASSERT_EQ(plane.normal_sign(0), N.x.sign()) << i;  // the normal's own static bound
        ASSERT_EQ(plane.normal_sign(1), N.y.sign()) << i;
        ASSERT_EQ(plane.normal_sign(2), N.z.sign()) << i;
        const Vec3<Expansion> p = lift<Expansion>(ring[0]), q = lift<Expansion>(ring[1]), r = lift<Expansion>(ring[2]);
        const int exact3 = dot(cross(q - p, r - q), N).sign();
        ASSERT_EQ(plane.orient(ring[0], ring[1], ring[2]), exact3) << i;
        const int exact2 = ((q.z - p.z) * (r.x - q.x) - (q.x - p.x) * (r.z - q.z)).sign();
        ASSERT_EQ(orient2d_sign(ring[0].z, ring[0].x, ring[1].z, ring[1].x, ring[2].z, ring[2].x), exact2) << i;
        ++signs[exact2 + 1];
    }
    // Both turns and exact zeros occur, so neither shortcut of the filter is all that was tested.
    EXPECT_GT(signs[0], 1000);
    EXPECT_GT(signs[1], 1000);
    EXPECT_GT(signs[2], 1000);
}

TEST(Orient, ZeroBoundIsAnExactZeroAtEveryScale) {
    // The filters return 0 without expansions when their error bound is 0 (every product
    // they add is 0). Rings along and across the axes, with repeated corners and coordinates
    // from 2^-149 (the smallest float32) to 2e38 (near the largest), where such zero bounds
    // occur, must keep the expansions' signs, zeros and non-zeros alike.
    std::uint64_t s = 17;
    auto next = [&] {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<int>(s >> 33);
    };
    const double scales[] = {0x1p-149, 1e-30, 1e-3, 1.0, 1e7, 1e30, 1e38};
    int zeros = 0, nonzeros = 0;
    for (int i = 0; i < 20000; ++i) {
        const double scale = scales[i % 7];
        // Lattice points of 0 … 2 units (float32 values, all finite), so many differences are exactly 0.
        auto coordinate = [&] { return double(float(scale * (next() % 3))); };
        std::vector<Point> ring;
        for (int k = 0; k < 4; ++k) ring.push_back({coordinate(), coordinate(), coordinate()});
        if (i % 3 == 0) ring[1].y = ring[0].y, ring[2].y = ring[0].y, ring[3].y = ring[0].y;  // flat
        if (i % 5 == 0) ring[2] = ring[1];
        const FacePlane plane(ring);
        const Vec3<Expansion>& N = plane.exact_normal();
        for (int k = 0; k < 4; ++k) {
            const Point &P = ring[(k + 3) % 4], &Q = ring[k], &R = ring[(k + 1) % 4];
            const Vec3<Expansion> p = lift<Expansion>(P), q = lift<Expansion>(Q), r = lift<Expansion>(R);
            const int exact3 = dot(cross(q - p, r - q), N).sign();
            ASSERT_EQ(plane.orient(P, Q, R), exact3) << i << " corner " << k;
            ASSERT_EQ(plane.corner_turn(k), exact3) << i << " corner " << k;
            const int exact2 = ((q.z - p.z) * (r.x - q.x) - (q.x - p.x) * (r.z - q.z)).sign();
            ASSERT_EQ(orient2d_sign(P.z, P.x, Q.z, Q.x, R.z, R.x), exact2) << i << " corner " << k;
            (exact2 == 0 ? zeros : nonzeros)++;
        }
    }
    EXPECT_GT(zeros, 10000);
    EXPECT_GT(nonzeros, 10000);
}
