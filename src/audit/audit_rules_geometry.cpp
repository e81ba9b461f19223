// Rules R38–R55: winding, convexity, planarity, triangulation, aabb, face and edge data.
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "audit/audit_rules.h"

namespace navlab::audit {
namespace {

/// Calls fn(face, geometry) for each face of FaceTallies::unusual, in face order: every face
/// where R38–R48 can fail or skip (beyond the faces without geometry) is among them.
template <class Fn>
void for_unusual(const RuleCheck& c, Fn&& fn) {
    const auto& ctx = c.ctx();
    for (const UnusualFace& u : ctx.face_tallies.unusual) fn(std::int64_t{u.face}, u.geometry);
}

/// The faces without geometry (a broken ring), which every rule here skips.
std::int64_t without_geometry(const RuleCheck& c) { return c.ctx().F - c.ctx().face_tallies.faces; }

int edges_of(const RuleCheck& c, std::int64_t face) { return c.ctx().mesh.faces[face].numEdges; }

/// check() for the walk over the unusual faces: fails through RuleCheck::fail, counts failures.
template <class Detail>
void check_unusual(RuleCheck& c, bool ok, std::int64_t face, std::int64_t& failed, Detail&& detail) {
    if (ok) return;
    ++failed;
    c.exception("face", face, detail);
}

/// A rule's maximum from the tallies: offers what offering every face in order would leave.
void offer(RuleCheck& c, Key key, const FirstAndBest& m) {
    MaximumCursor cursor(c.values(), key);
    m.offer_to(cursor, [&](std::int32_t face) { return c.ctx().where("face", face); });
}

/// Counts kept in plain integers while the faces are walked and named once per tagfile: a
/// map lookup by name per face was a tenth of the audit. Only non-zero counts are named, as
/// Values::count does when called per case.
struct LocalCounts {
    std::vector<std::pair<Key, std::int64_t>> counts;
    std::int64_t& operator[](Key key) {
        for (auto& [k, n] : counts)
            if (k == key) return n;
        return counts.emplace_back(key, 0).second;
    }
    void flush(Values& v) const {
        for (const auto& [k, n] : counts)
            if (n != 0) v.count(k, n);
    }
};

void r38(RuleCheck& c) {
    const FaceTallies& t = c.ctx().face_tallies;
    LocalCounts n;
    std::int64_t failed = 0;
    std::vector<Point> corners;
    for_unusual(c, [&](std::int64_t i, const FaceGeometry& g) {
        if (g.winding == Winding::CounterClockwise) return;
        const bool clockwise = g.winding == Winding::Clockwise;
        const char* cls = clockwise ? "clockwise" : "degenerate";
        ++n[clockwise ? Key("clockwise") : Key("degenerate")];
        if (g.winding == Winding::Degenerate) {
            if (g.zero_normal) ++n["degenerate_zero_vector_area"];
            if (g.collinear) ++n["degenerate_collinear"];
        }
        check_unusual(c, false, i, failed, [&] {
            return fmt::format("{}, N_y {:.3g}, {} edges", cls, FacePlane(c.ctx().corners_of(i, corners)).normal().y, edges_of(c, i));
        });
    });
    n["counter_clockwise"] = t.faces - failed;
    n.flush(c.values());
    c.skip(without_geometry(c));
    c.pass(t.faces - failed);  // the eligible faces that did not fail
}

void r39(RuleCheck& c) {
    LocalCounts n;
    std::int64_t failed = 0;
    for_unusual(c, [&](std::int64_t i, const FaceGeometry& g) {
        if (!g.convexity.convex) {
            if (g.convexity.reflex_sine > 1e-5) ++n["with_sine_tolerance_1e-5"];
            if (g.convexity.reflex_sine > 1e-3) ++n["with_sine_tolerance_1e-3"];
        }
        check_unusual(c, g.convexity.convex, i, failed, [&] {
            return fmt::format("{} edges, strongest reflex corner sin {}", edges_of(c, i), short_sci(g.convexity.reflex_sine));
        });
    });
    n.flush(c.values());
    c.skip(without_geometry(c));
    c.pass(c.ctx().face_tallies.faces - failed);  // the eligible faces that did not fail
}

void r40(RuleCheck& c) {
    const auto& ctx = c.ctx();
    const FaceTallies& t = ctx.face_tallies;
    if (ctx.game == Game::Other) return c.skip(ctx.F);
    double limit = off_plane_limit(ctx.game);
    offer(c, "max_distance_m", t.off_plane);
    std::int64_t failed = 0;
    for_unusual(c, [&](std::int64_t i, const FaceGeometry& g) {
        if (g.zero_normal) return;
        check_unusual(c, g.off_plane.distance <= limit, i, failed, [&] {
            return fmt::format("corner {} is {:.4f} m off the mean plane", g.off_plane.corner, g.off_plane.distance);
        });
    });
    c.skip(without_geometry(c) + t.zero_normal);
    c.pass(t.faces - t.zero_normal - failed);  // the eligible faces that did not fail
}

void r41(RuleCheck& c) {
    const FaceTallies& t = c.ctx().face_tallies;
    std::int64_t failed = 0;
    for_unusual(c, [&](std::int64_t i, const FaceGeometry& g) {
        if (g.zero_normal) return;
        check_unusual(c, g.bad_fan < 0, i, failed,
                      [&] { return fmt::format("fan triangle k = {} is not turned with the face", g.bad_fan); });
    });
    c.skip(without_geometry(c) + t.zero_normal);
    c.pass(t.faces - t.zero_normal - failed);  // the eligible faces that did not fail
}

void r42(RuleCheck& c) {
    const FaceTallies& t = c.ctx().face_tallies;
    c.skip(without_geometry(c));
    c.pass(t.faces);
    if (t.faces == 0) return;  // the figures are named (even when 0) once a face was triangulated
    c.values().count("triangles", t.triangles);
    c.values().count("dropped_cuts", t.dropped);
    c.values().count("straight_corner_fallbacks", t.fallbacks);
    c.values().count("sum_numEdges_minus_2", t.edges_minus_2);
}

void r43(RuleCheck& c) {
    const FaceTallies& t = c.ctx().face_tallies;
    c.skip(without_geometry(c));
    c.pass(t.triangles - t.turned);
    for_unusual(c, [&](std::int64_t i, const FaceGeometry& g) {
        for (int k = 0; k < g.check.turned; ++k) {
            const Cut& cut = g.first_turned;
            c.exception("face", i, [&] {
                return k == 0 ? fmt::format("triangle ({}, {}, {}) turned against the face", cut[0], cut[1], cut[2])
                              : std::string("another turned triangle");
            });
        }
    });
}

void r44(RuleCheck& c) {
    const FaceTallies& t = c.ctx().face_tallies;
    offer(c, "max_relative_difference", t.projected_relative);
    std::int64_t failed = 0;
    for_unusual(c, [&](std::int64_t i, const FaceGeometry& g) {
        if (g.zero_normal || g.no_ear) return;
        check_unusual(c, g.check.projected_relative <= kR44ProjectedRelativeMost, i, failed, [&] {
            return fmt::format("triangles {:.12g} m², face {:.12g} m², relative {:.3g}", g.check.projected_sum,
                               g.check.projected_face, g.check.projected_relative);
        });
    });
    c.skip(without_geometry(c) + t.zero_normal_or_no_ear);
    c.pass(t.faces - t.zero_normal_or_no_ear - failed);  // the eligible faces that did not fail
}

void r45(RuleCheck& c) {
    const FaceTallies& t = c.ctx().face_tallies;
    offer(c, "max_difference_m2", t.area_difference);
    offer(c, "max_relative_to_area", t.area_difference_relative);
    std::int64_t failed = 0;
    for_unusual(c, [&](std::int64_t i, const FaceGeometry& g) {
        if (g.no_ear) return;
        check_unusual(c, g.check.area_difference_max <= kR45AreaDifferenceMost, i, failed, [&] {
            const auto& d = g.check.area_difference;
            return fmt::format("sum of triangle area vectors minus the face's: ({:.3g}, {:.3g}, {:.3g}) m²", d.x, d.y, d.z);
        });
    });
    c.skip(without_geometry(c) + t.no_ear);
    c.pass(t.faces - t.no_ear - failed);  // the eligible faces that did not fail
}

void r46(RuleCheck& c) {
    const FaceTallies& t = c.ctx().face_tallies;
    std::int64_t failed = 0;
    for_unusual(c, [&](std::int64_t i, const FaceGeometry& g) {
        if (g.zero_normal) return;
        check_unusual(c, !g.no_ear, i, failed, [&] { return fmt::format("no ear with {} corners left", g.corners_left); });
    });
    c.skip(without_geometry(c) + t.zero_normal);
    c.pass(t.faces - t.zero_normal - failed);  // the eligible faces that did not fail
}

void r47(RuleCheck& c) {
    LocalCounts n;
    std::int64_t failed = 0;
    for_unusual(c, [&](std::int64_t i, const FaceGeometry& g) {
        if (g.no_ear && g.zero_normal) ++n["zero_area"];
        check_unusual(c, !g.no_ear, i, failed, [&] {
            return fmt::format("{}, {} corners left", g.zero_normal ? "N = 0" : "N != 0", g.corners_left);
        });
    });
    n.flush(c.values());
    c.skip(without_geometry(c));
    c.pass(c.ctx().face_tallies.faces - failed);  // the eligible faces that did not fail
}

void r48(RuleCheck& c) {
    const FaceTallies& t = c.ctx().face_tallies;
    std::int64_t lost = 0, failed = 0;
    for_unusual(c, [&](std::int64_t i, const FaceGeometry& g) {
        lost += g.lost;
        check_unusual(c, g.lost == 0, i, failed, [&] {
            return fmt::format("{} lost, first cut ({}, {}, {})", g.lost, g.first_lost[0], g.first_lost[1], g.first_lost[2]);
        });
    });
    c.skip(without_geometry(c));
    c.pass(t.faces - failed);  // the eligible faces that did not fail
    if (t.faces > 0) c.values().count("lost_triangles", lost);
}

// ---- aabb ----

float lane(const fromsoft::Vec4& v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }
const char* axis_name(int k) { return k == 0 ? "x" : (k == 1 ? "y" : "z"); }

using Bounds = VertexBounds;  // computed once per tagfile in the context (lanes x, y, z used here)

/// Runs fn(bounds) on meshes with faces and vertices; skips the others.
template <class Fn>
void for_mesh_with_faces(RuleCheck& c, Fn&& fn) {
    if (c.ctx().F == 0) return;
    if (c.ctx().V == 0) return c.skip();
    fn(c.ctx().vertex_bounds);
}

/// Whether lo ≤ v ≤ hi in x, y and z for every vertex (a NaN is not): R49's statement, the four
/// lanes of a vertex compared at once (w's lane is not read out). Vertex by vertex, six compares
/// and jumps were ≈ 19 instructions a vertex (forty-sixth session).
bool all_inside(std::span<const fromsoft::Vec4> vertices, const fromsoft::Vec4& lo, const fromsoft::Vec4& hi) {
    using F4 = float __attribute__((vector_size(16)));
    using I4 = std::int32_t __attribute__((vector_size(16)));
    static_assert(sizeof(fromsoft::Vec4) == sizeof(F4));
    F4 l, h;
    std::memcpy(&l, &lo, sizeof l), std::memcpy(&h, &hi, sizeof h);
    I4 all = {-1, -1, -1, -1};
    for (const fromsoft::Vec4& v : vertices) {
        F4 x;
        std::memcpy(&x, &v, sizeof x);
        all &= (l <= x) & (x <= h);
    }
    return (all[0] & all[1] & all[2]) != 0;
}

void r49(RuleCheck& c) {
    const auto& m = c.ctx().mesh;
    if (c.ctx().F == 0) return;
    if (all_inside(m.vertices, m.aabb.min, m.aabb.max)) return c.pass(c.ctx().V);
    for (std::int64_t i = 0; i < c.ctx().V; ++i) {
        int bad = -1;
        for (int k = 0; k < 3 && bad < 0; ++k)
            if (!(lane(m.aabb.min, k) <= lane(m.vertices[i], k) && lane(m.vertices[i], k) <= lane(m.aabb.max, k))) bad = k;
        c.check(bad < 0, "vertex", i, [&] {
            return fmt::format("{} = {} outside [{}, {}]", axis_name(bad), lane(m.vertices[i], bad), lane(m.aabb.min, bad),
                               lane(m.aabb.max, bad));
        });
    }
}

void r50(RuleCheck& c) {
    const auto& box = c.ctx().mesh.aabb;
    for_mesh_with_faces(c, [&](const Bounds& b) {
        bool tight = true;
        for (int k = 0; k < 3; ++k) tight = tight && lane(box.min, k) == b.min[k] && lane(box.max, k) == b.max[k];
        c.check(!tight, "tagfile", -1, [&] {
            return fmt::format("aabb ({}, {}, {}) – ({}, {}, {}) equals the vertex bounds", box.min.x, box.min.y,
                               box.min.z, box.max.x, box.max.y, box.max.z);
        });
    });
}

std::uint32_t bits_of(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

void r51(RuleCheck& c) {
    const auto& ctx = c.ctx();
    const auto& box = ctx.mesh.aabb;
    if (ctx.game == Game::Other) return c.skip();
    c.values().insert(ctx.F > 0 ? Key("margin_bits") : Key("empty_mesh_margin_bits"), bits_of(box.max.w));
    if (ctx.F == 0) return;
    bool symmetric = bits_of(box.min.w) == (bits_of(box.max.w) ^ 0x80000000u);
    static constexpr float kSekiro[] = {1.1f}, kElden[] = {2.0f, 2.4f, 8.0f};
    std::span<const float> nominal = ctx.game == Game::Sekiro ? std::span<const float>(kSekiro) : std::span<const float>(kElden);
    bool known = false;
    for (float m : nominal) known = known || ulp_distance(box.max.w, m) <= 2;
    c.check(symmetric && known, "tagfile", -1, [&] {
        return fmt::format("margin lanes {} / {}{}", float_bits(box.min.w), float_bits(box.max.w),
                           symmetric ? " not a margin of the game" : " not symmetric");
    });
}

/// The vertex bounds grown by the margin, rounded to float32 (R52, R53).
void grown_bounds(const Bounds& b, float margin, float gmin[3], float gmax[3]) {
    for (int k = 0; k < 3; ++k) {
        gmin[k] = static_cast<float>(static_cast<double>(b.min[k]) - margin);
        gmax[k] = static_cast<float>(static_cast<double>(b.max[k]) + margin);
    }
}

void r52(RuleCheck& c) {
    const auto& box = c.ctx().mesh.aabb;
    for_mesh_with_faces(c, [&](const Bounds& b) {
        float gmin[3], gmax[3];
        grown_bounds(b, box.max.w, gmin, gmax);
        std::string bad;
        for (int k = 0; k < 3; ++k) {
            if (lane(box.min, k) > gmin[k] && ulp_distance(lane(box.min, k), gmin[k]) > 2)
                bad += fmt::format("min.{} {} inside grown bound {}; ", axis_name(k), lane(box.min, k), gmin[k]);
            if (lane(box.max, k) < gmax[k] && ulp_distance(lane(box.max, k), gmax[k]) > 2)
                bad += fmt::format("max.{} {} inside grown bound {}; ", axis_name(k), lane(box.max, k), gmax[k]);
        }
        c.check(bad.empty(), "tagfile", -1, [&] { return bad; });
    });
}

void r53(RuleCheck& c) {
    const auto& box = c.ctx().mesh.aabb;
    for_mesh_with_faces(c, [&](const Bounds& b) {
        float gmin[3], gmax[3];
        grown_bounds(b, box.max.w, gmin, gmax);
        bool equal = true;
        for (int k = 0; k < 3; ++k)
            equal = equal && ulp_distance(lane(box.min, k), gmin[k]) <= 2 && ulp_distance(lane(box.max, k), gmax[k]) <= 2;
        c.check(equal, "tagfile", -1, [&] {
            return fmt::format("larger by {:.3g} / {:.3g} / {:.3g} m (min side), {:.3g} / {:.3g} / {:.3g} m (max side)",
                               double(gmin[0]) - box.min.x, double(gmin[1]) - box.min.y, double(gmin[2]) - box.min.z,
                               double(box.max.x) - gmax[0], double(box.max.y) - gmax[1], double(box.max.z) - gmax[2]);
        });
    });
}

// ---- face and edge data ----

void r54(RuleCheck& c) {
    const auto& ctx = c.ctx();
    const auto& m = ctx.mesh;
    if (ctx.game == Game::Other) return c.skip(ctx.F);
    if (m.faceDataStriding != 1 || static_cast<std::int64_t>(m.faceData.size()) < ctx.F) return c.skip(ctx.F);
    constexpr std::uint32_t kEldenBits = 1u | 1u << 6 | 1u << 12 | 1u << 16 | 1u << 17 | 1u << 20 | 1u << 24 | 1u << 28;
    SetCursor values(c.values(), "values");
    for (std::int64_t i = 0; i < ctx.F; ++i) {
        auto w = static_cast<std::uint32_t>(m.faceData[i]);
        values.insert(w);
        bool ok = ctx.game == Game::Sekiro ? (w == 0 || w == 1 || w == 4 || w == 5) : (w & ~kEldenBits) == 0;
        c.check(ok, "face", i, [&] {
            std::uint32_t stray = ctx.game == Game::Sekiro ? w : (w & ~kEldenBits);
            return fmt::format("faceData 0x{:08X}, stray bits 0x{:08X}", w, stray);
        });
    }
}

void r55(RuleCheck& c) {
    const auto& ctx = c.ctx();
    const auto& m = ctx.mesh;
    std::int64_t regular = std::min(ctx.R, ctx.E);
    if (m.edgeDataStriding != 1 || static_cast<std::int64_t>(m.edgeData.size()) < ctx.E) return c.skip(regular);
    const std::span data(m.edgeData);
    if (all_hold(0, regular, [&](std::int64_t e) { return static_cast<std::uint32_t>(data[e]) == 0; })) return c.pass(regular);
    for (std::int64_t e = 0; e < regular; ++e) {
        auto w = static_cast<std::uint32_t>(m.edgeData[e]);
        c.check(w == 0, "edge", e, [&] { return fmt::format("edgeData 0x{:08X}", w); });
    }
}

}  // namespace

void add_geometry_rules(std::vector<RuleDef>& out) {
    const Scope B = Scope::Both;
    const Kind I = Kind::Invariant, ST = Kind::Statistic;
    out.insert(out.end(), {
        {"R38", "geometry", B, ST, "Proven", "face", "Faces wind counter-clockwise seen from above, with exceptions", false, page(279053, 199), page(6317094, 10896), "clockwise: Sekiro 199, Elden Ring 8,835; degenerate: Elden Ring 2,061", r38},
        {"R39", "geometry", B, ST, "Proven", "face", "Faces not convex seen from above", false, page(279053, 13019), page(6317094, 135629), "Sekiro 13,019 of 279,053 / Elden Ring 135,629 of 6,317,094", r39},
        {"R40", "geometry", B, ST, "Proven", "face with N != 0", "Corner distance from the face's mean plane", false, kNoPage, kNoPage, "maximum 0.65 m (Sekiro), 1.38 m (Elden Ring)", r40},
        {"R41", "geometry", B, ST, "Proven", "face with N != 0", "A fan from one corner is wrong for some faces", false, kNoPage, kNoPage, "some faces", r41},
        {"R42", "triangulation", B, ST, "Proven", "face", "Triangle count of the page's ear clipping", true, page(279053), page(6317094), "602,658 (Sekiro), 11,079,642 (Elden Ring) triangles", r42},
        {"R43", "triangulation", B, I, "Proven", "triangle", "No triangle turned against its face", false, page(602658), page(11079642), "0 of 602,658 / 11,079,642", r43},
        {"R44", "triangulation", B, I, "Proven", "face with N != 0 and a complete triangulation", "Projected area of the triangles equals the face's within 1e-9", false, kNoPage, kNoPage, "every face", r44},
        {"R45", "triangulation", B, I, "Proven", "face with a complete triangulation", "Area vectors of the triangles add up to the face's within 2e-11", false, kNoPage, kNoPage, "every face", r45},
        {"R46", "triangulation", B, I, "Proven", "face with N != 0", "Every face of non-zero area has an ear at every step", false, kNoPage, kNoPage, "0 (both games)", r46},
        {"R47", "triangulation", B, ST, "Proven", "face", "Faces with no ear", false, page(279053, 0), page(6317094, 2), "Elden Ring 2 (zero-area), Sekiro 0", r47},
        {"R48", "triangulation", B, ST, "Proven", "face", "Triangles lost when zero-area cuts are dropped in the axis plane", false, kNoPage, kNoPage, "lost triangles 208 (Sekiro), 3,826 (Elden Ring)", r48},
        {"R49", "aabb", B, I, "Proven", "vertex of a mesh with faces", "aabb contains every vertex", false, kNoPage, kNoPage, "every vertex of the 1,415 / 3,411 meshes with faces", r49},
        {"R50", "aabb", B, I, "Proven", "mesh with faces", "aabb is never tight", false, page(1415), page(3411), "0 of 1,415 / 3,411", r50},
        {"R51", "aabb", B, I, "Proven", "mesh with faces", "Fourth lanes hold the margin: 1.1 (Sekiro); 2, 2.4 or 8 (Elden Ring)", false, page(1415), page(3411), "every Sekiro mesh 1.1; Elden Ring 2, 2.4 or 8", r51},
        {"R52", "aabb", B, I, "Proven", "mesh with faces", "aabb contains the vertex bounds grown by the margin", false, page(1415), page(3411), "0 of 1,415 / 3,411", r52},
        {"R53", "aabb", B, ST, "Proven", "mesh with faces", "aabb equals the vertex bounds grown by the margin", false, page(1415, 630), page(3411, 3372), "equal in 785 of 1,415 (Sekiro), 39 of 3,411 (Elden Ring)", r53},
        {"R54", "face/edge data", B, ST, "Unknown (values stated)", "face", "faceData values and bits", false, page(279053, 0), page(6317094, 0), "Sekiro 0, 1, 4, 5; Elden Ring 18 values of bits 0, 6, 12, 16, 17, 20, 24, 28", r54},
        {"R55", "face/edge data", B, I, "Proven", "regular edge", "edgeData is 0 on every regular edge", false, page(1160836), page(23716604), "all regular edges", r55},
    });
}

}  // namespace navlab::audit
