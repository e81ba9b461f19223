#include "audit/audit_supplementary.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

namespace navlab::audit {
namespace {

void x01_vertex_w(const TagfileContext& ctx, Values& v) {
    if (ctx.V == 0) return;
    const auto& vertices = ctx.mesh.vertices;
    const std::int64_t ones = ctx.vertex_bounds.w_equal_1;  // counted with the bounds
    // Values::maximum (minimum) keeps the first strictly larger (smaller) value, so from w_0 the
    // extreme is w_0 itself when it is a NaN (nothing compares beyond a NaN), and otherwise the
    // first w equal to the largest (smallest) w that is no NaN: the w lane of the context's
    // vertex bounds, which skip NaNs too (w_0 being one of their candidates, the search ends).
    std::int64_t at_max = 0, at_min = 0;
    if (const float w0 = vertices[0].w; w0 == w0) {
        while (vertices[at_max].w != ctx.vertex_bounds.max[3]) ++at_max;
        while (vertices[at_min].w != ctx.vertex_bounds.min[3]) ++at_min;
    }
    if (ones) v.count("w_equal_1", ones);
    v.maximum_at("w_max", vertices[at_max].w, [&] { return ctx.where("vertex", at_max); });
    v.minimum_at("w_min", vertices[at_min].w, [&] { return ctx.where("vertex", at_min); });
}

void x02_domain(const TagfileContext& ctx, Values& v) {
    if (!ctx.tagfile.mediator || ctx.V == 0) return;
    const float *lo = ctx.vertex_bounds.min, *hi = ctx.vertex_bounds.max;
    const auto& d = ctx.tagfile.mediator->domain;
    bool equal = d.min.x == lo[0] && d.min.y == lo[1] && d.min.z == lo[2] && d.min.w == lo[3] && d.max.x == hi[0] &&
                 d.max.y == hi[1] && d.max.z == hi[2] && d.max.w == hi[3];
    v.count(equal ? Key("domain_equals_vertex_bounds") : Key("domain_differs"));
}

void x04_x05_x06(const TagfileContext& ctx, Values& x04, Values& x05, Values& x06) {
    const EdgeScan& s = ctx.edge_scan;  // counted in the context's one pass over the edges
    if (s.opposite_is_user_edge) x04.count("opposite_is_user_edge", s.opposite_is_user_edge);
    if (s.opposite_in_same_face) x04.count("opposite_in_same_face", s.opposite_in_same_face);
    if (s.opposite_not_mutual) x05.count("opposite_not_mutual", s.opposite_not_mutual);
    if (s.flags_52_with_opposite) x06.count("flags_52_with_opposite", s.flags_52_with_opposite);
}

void x08_newell_convexity(const TagfileContext& ctx, Values& v) {
    if (std::int64_t n = ctx.face_tallies.not_convex_in_newell_plane) v.count("not_convex_in_newell_plane", n);
}

void x09_user_vertices(const TagfileContext& ctx, Values& v) {
    if (ctx.E <= ctx.R) return;
    // Per vertex: 1 = a face corner, 2 = a user-edge end (marks, not a sort of every end:
    // the sort was 2 % of the audit). Ends outside 0 … V−1 are few and sorted apart.
    std::vector<std::uint8_t> mark(static_cast<std::size_t>(ctx.V), 0);
    for (const auto& ring : ctx.rings)
        for (std::int32_t k : ring.vertices)
            if (k >= 0 && k < ctx.V) mark[k] = 1;
    std::int64_t ends = 0, corners = 0;
    std::vector<std::int32_t> outside;
    auto end = [&](std::int32_t k) {
        if (k < 0 || k >= ctx.V) return outside.push_back(k);
        if (mark[k] & 2) return;
        mark[k] |= 2;
        ++ends;
        corners += mark[k] & 1;
    };
    for (std::int64_t e = ctx.R; e < ctx.E; ++e) end(ctx.mesh.edges[e].a), end(ctx.mesh.edges[e].b);
    std::sort(outside.begin(), outside.end());
    ends += std::unique(outside.begin(), outside.end()) - outside.begin();
    v.count("user_edge_vertices", ends);
    if (corners) v.count("that_are_face_corners", corners);
}

void x10_leaf_slack(const TagfileContext& ctx, Values& v) {
    if (!ctx.tree || !ctx.tree->valid) return;
    FirstAndBest max_slack;  // offered to the values once: a cursor's offer per leaf was 0.7 M on m31
    for (const auto& leaf : ctx.tree->leaves) {
        if (leaf.face >= ctx.F || ctx.rings[leaf.face].status != RingStatus::Ok) continue;
        const CornerBounds& b = ctx.corner_bounds[leaf.face];
        double slack = 0;
        const fromsoft::Box3& box = leaf.box;
        for (int k = 0; k < 3; ++k) slack = std::max({slack, b.min[k] - box.min[k], box.max[k] - b.max[k]});
        max_slack.offer(slack, static_cast<std::int32_t>(leaf.face));  // below F
    }
    MaximumCursor cursor(v, "max_leaf_box_slack_m");
    max_slack.offer_to(cursor, [&](std::int32_t face) { return ctx.where("face", face); });
}

void x13_handedness(const TagfileContext& ctx, Values& v) {
    if (!ctx.tagfile.user_edge_setups) return;
    for (const auto& s : *ctx.tagfile.user_edge_setups)
        for (const auto* o : {&s.obbA, &s.obbB}) {
            const auto& T = o->transform;
            Vec3<double> c0{T[0], T[1], T[2]}, c1{T[4], T[5], T[6]}, c2{T[8], T[9], T[10]};
            v.count(dot(cross(c0, c1), c2) < 0 ? Key("determinant_negative") : Key("determinant_positive"));
        }
}

}  // namespace

void supplementary_counters(const TagfileContext& ctx, std::vector<Values>& into) {
    // Each counter fills its own Values, in place: a map of the counters with figures (≈ 4
    // nodes a Sekiro tagfile), each counter's entries made again and the merge's search by id
    // were 6.6 M instructions on the Sekiro preset (forty-third session).
    enum { X01, X02, X03, X04, X05, X06, X08, X09, X10, X11, X13, kCounters };
    static_assert(kCounters == kSupplementaryIds.size() && X03 == kClassCountsCounter);  // X03: class_counts
    into.resize(kCounters);
    std::vector<Values>& v = into;
    x01_vertex_w(ctx, v[X01]);
    x02_domain(ctx, v[X02]);
    x04_x05_x06(ctx, v[X04], v[X05], v[X06]);
    x08_newell_convexity(ctx, v[X08]);
    x09_user_vertices(ctx, v[X09]);
    x10_leaf_slack(ctx, v[X10]);
    v[X11].insert("flags", ctx.mesh.flags);
    x13_handedness(ctx, v[X13]);
}

namespace {

using ClassNames = std::shared_ptr<const std::vector<std::string>>;
using ObjectCounts = decltype(fromsoft::NavTagfile::object_counts);

bool same_names(const ObjectCounts& objects, const std::vector<std::string>& names) {
    return names.size() == objects.size() &&
           std::equal(objects.begin(), objects.end(), names.begin(),
                      [](const auto& object, const std::string& name) { return object.first == name; });
}

ClassNames make_names(const ObjectCounts& objects) {
    auto names = std::make_shared<std::vector<std::string>>();
    names->reserve(objects.size());
    for (const auto& object : objects) names->push_back(object.first);
    return names;
}

/// The thread's list of `objects`' names: one of the last few lists made, latest used first (a
/// preset's tagfiles have a few class lists, mixed), else a new one. A list longer than
/// kKeptClassNames is made for this tagfile only: a hostile file's thousands of classes are
/// not kept with the thread.
ClassNames names_of(const ObjectCounts& objects) {
    if (objects.size() > kKeptClassNames) return make_names(objects);
    thread_local std::array<ClassNames, 8> lists;
    std::size_t i = 0;
    while (i < lists.size() && lists[i] && !same_names(objects, *lists[i])) ++i;
    if (i == lists.size() || !lists[i]) {  // a new list, in the last slot's place
        i = lists.size() - 1;
        lists[i] = make_names(objects);
    }
    std::rotate(lists.begin(), lists.begin() + static_cast<std::ptrdiff_t>(i), lists.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    return lists[0];
}

}  // namespace

void class_counts(const TagfileContext& ctx, ClassCounts& into) {
    const auto& objects = ctx.tagfile.object_counts;
    into.counts.clear();
    into.names.reset();
    if (objects.empty()) return;
    into.names = names_of(objects);
    for (const auto& object : objects) into.counts.push_back(object.second);
}

}  // namespace navlab::audit
