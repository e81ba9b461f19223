// Rules R74–R97: user edges, user-edge setups, binders and member names.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <string_view>

#include "audit/audit_rules.h"
#include "io/text.h"

namespace navlab::audit {
namespace {

using fromsoft::kNoOpposite;

/// Calls fn(e) for each user edge e (R ≤ e < E).
template <class Fn>
void for_user_edges(RuleCheck& c, Fn&& fn) {
    for (std::int64_t e = c.ctx().R; e < c.ctx().E; ++e) fn(e);
}

void r74(RuleCheck& c) {
    const auto& ctx = c.ctx();
    if (ctx.E <= ctx.R && ctx.face_fields.all(FaceFieldBounds::kNumUserEdges, 0)) return c.pass(ctx.F);
    for (std::int64_t i = 0; i < ctx.F; ++i) {
        int n = ctx.mesh.faces[i].numUserEdges;
        bool extra = i + 1 == ctx.F && ctx.E > ctx.R;
        c.check(n == 0 && !extra, "face", i, [&] {
            return n ? fmt::format("numUserEdges {}", n) : fmt::format("{} edges after the {} regular ones", ctx.E - ctx.R, ctx.R);
        });
    }
}

void r75(RuleCheck& c) {
    const auto& ctx = c.ctx();
    for_user_edges(c, [&](std::int64_t e) {
        std::int32_t owner = ctx.owner[e];
        if (owner < 0 || ctx.rings[owner].status == RingStatus::RangeOutside || ctx.rings[owner].status == RingStatus::Open)
            return c.skip();
        const auto& corners = ctx.rings[owner].vertices;
        const auto& d = ctx.mesh.edges[e];
        std::string bad;
        for (std::int32_t v : {d.a, d.b}) {
            if (v < 0 || v >= ctx.V) bad += fmt::format("endpoint {} is not a vertex; ", v);
            else if (std::find(corners.begin(), corners.end(), v) != corners.end())
                bad += fmt::format("endpoint {} is a corner of face {}; ", v, owner);
        }
        c.check(bad.empty(), "edge", e, [&] { return bad; });
    });
}

void r76(RuleCheck& c) {
    for_user_edges(c, [&](std::int64_t e) {
        unsigned f = c.ctx().mesh.edges[e].flags;
        c.check(f == 20 || f == 52, "edge", e, [&] { return fmt::format("flags {}", f); });
    });
}

void r77(RuleCheck& c) {
    const auto& ctx = c.ctx();
    const std::int64_t regular = std::min(ctx.R, ctx.E);
    if (ctx.edge_scan.no_user_bits) return c.pass(regular);  // decided in the context's pass over the edges
    for (std::int64_t e = 0; e < regular; ++e) {
        unsigned f = ctx.mesh.edges[e].flags;
        c.check(edge_check::no_user_bits(ctx.mesh.edges[e]), "edge", e, [&] { return fmt::format("flags {} on a regular edge", f); });
    }
}

bool edge_data_ok(const RuleCheck& c) {
    const auto& m = c.ctx().mesh;
    return m.edgeDataStriding == 1 && static_cast<std::int64_t>(m.edgeData.size()) >= c.ctx().E;
}

void r78(RuleCheck& c) {
    if (!edge_data_ok(c)) return c.skip(std::max<std::int64_t>(0, c.ctx().E - c.ctx().R));
    for_user_edges(c, [&](std::int64_t e) {
        auto w = static_cast<std::uint32_t>(c.ctx().mesh.edgeData[e]);
        std::uint32_t low = w & 0xFF;
        bool ok = w != 0 && (low == 2 || low == 4 || low == 18 || low == 20) && (w >> 16) == 0;
        c.check(ok, "edge", e, [&] { return fmt::format("edgeData 0x{:08X}", w); });
    });
}

void r79(RuleCheck& c) {
    if (!edge_data_ok(c)) return c.skip(std::max<std::int64_t>(0, c.ctx().E - c.ctx().R));
    SetCursor second_bytes(c.values(), "second_bytes");
    for_user_edges(c, [&](std::int64_t e) {
        c.pass();
        second_bytes.insert((static_cast<std::uint32_t>(c.ctx().mesh.edgeData[e]) >> 8) & 0xFF);
    });
}

void r80(RuleCheck& c) {
    const auto& ctx = c.ctx();
    for_user_edges(c, [&](std::int64_t e) {
        std::uint32_t o = ctx.mesh.edges[e].oppositeEdge;
        if (o == kNoOpposite) return;
        if (o >= ctx.E || ctx.owner[o] < 0 || ctx.owner[e] < 0) return c.skip();
        bool user = o >= ctx.R, other_face = ctx.owner[o] != ctx.owner[e];
        if (!user) c.values().count("opposite_is_regular");
        if (!other_face) c.values().count("opposite_in_same_face");
        c.check(user && other_face, "edge", e, [&] {
            return fmt::format("opposite {}{}{}", o, user ? "" : " is a regular edge", other_face ? "" : " is in the same face");
        });
    });
}

void r81(RuleCheck& c) {
    for_user_edges(c, [&](std::int64_t e) {
        const auto& d = c.ctx().mesh.edges[e];
        if (d.oppositeEdge != kNoOpposite) return;
        c.check(d.flags == 52, "edge", e, [&] { return fmt::format("no opposite, flags {}", d.flags); });
    });
}

void r82(RuleCheck& c) {
    const auto& ctx = c.ctx();
    MaximumCursor max_per_face(c.values(), "max_user_edges_per_face");
    std::int64_t with_user_edges = 0;
    for (std::int64_t i = 0; i < ctx.F; ++i) {
        int n = ctx.mesh.faces[i].numUserEdges;
        if (n > 0) {
            ++with_user_edges;
            max_per_face.offer(n, [&] { return ctx.where("face", i); });
        }
        c.check(n <= 56, "face", i, [&] { return fmt::format("numUserEdges {}", n); });
    }
    if (with_user_edges) c.values().count("faces_with_user_edges", with_user_edges);
}

void r83(RuleCheck& c) {
    const auto& ctx = c.ctx();
    if (ctx.E <= ctx.R) return;
    std::int64_t expected = ctx.R;
    for (std::int64_t i = 0; i < ctx.F; ++i) {
        const auto& f = ctx.mesh.faces[i];
        if (f.numUserEdges <= 0) continue;
        if (f.startUserEdgeIndex != expected)
            return c.fail("face", i, fmt::format("user edges start at {}, face order expects {}", f.startUserEdgeIndex, expected));
        expected += f.numUserEdges;
    }
    c.pass();
}

// ---- setups ----

const std::vector<fromsoft::UserEdgeSetup>* setups_of(const RuleCheck& c) {
    const auto& s = c.ctx().tagfile.user_edge_setups;
    return s ? &*s : nullptr;
}

constexpr const char* kSetupArray = "hkaiUserEdgeSetupArray";

/// Calls fn(index, setup) for each setup.
template <class Fn>
void for_setups(RuleCheck& c, Fn&& fn) {
    if (const auto* s = setups_of(c))
        for (std::size_t i = 0; i < s->size(); ++i) fn(static_cast<std::int64_t>(i), (*s)[i]);
}

/// Calls fn(setup index, "A"/"B", box) for each box.
template <class Fn>
void for_boxes(RuleCheck& c, Fn&& fn) {
    for_setups(c, [&](std::int64_t i, const fromsoft::UserEdgeSetup& s) {
        fn(i, "A", s.obbA);
        fn(i, "B", s.obbB);
    });
}

void fail_setup(RuleCheck& c, std::int64_t i, const std::string& detail, const std::string& sub = {}) {
    c.fail(sub.empty() ? "setup" : "box", i, detail, sub, kSetupArray);
}

void r84(RuleCheck& c) {
    if (!setups_of(c)) return;
    thread_local LayoutVerdicts verdicts;
    const std::string& missing = verdicts.of(c.ctx().tagfile.layouts.user_edge_setup, [](const fromsoft::RecordInfo& t) {
        std::string out;
        for (const char* m : {"obbA", "obbB", "userDataA", "userDataB", "costAtoB", "costBtoA", "worldUpA",
                              "worldUpB", "direction", "space", "forceAlign"})
            if (!t.find(m)) out += std::string(out.empty() ? "" : ", ") + m;
        return out;
    });
    if (missing.empty()) c.pass();
    else c.fail("tagfile", -1, "missing " + missing, {}, kSetupArray);
}

void r85(RuleCheck& c) {
    for_setups(c, [&](std::int64_t i, const fromsoft::UserEdgeSetup& s) {
        const auto& u = s.worldUpA;
        c.values().insert("worldUpA_w_bits", [&] { std::uint32_t b; std::memcpy(&b, &u.w, 4); return b; }());
        if (u.x == 0 && u.y == 1 && u.z == 0) c.pass();
        else fail_setup(c, i, fmt::format("worldUpA ({}, {}, {})", u.x, u.y, u.z));
    });
}

void r86(RuleCheck& c) {
    for_setups(c, [&](std::int64_t i, const fromsoft::UserEdgeSetup& s) {
        if (s.forceAlign == 1) c.pass();
        else fail_setup(c, i, fmt::format("forceAlign {}", s.forceAlign));
    });
}

void r87(RuleCheck& c) {
    for_setups(c, [&](std::int64_t i, const fromsoft::UserEdgeSetup& s) {
        c.values().insert("direction", s.direction);
        if (s.direction == 1 || s.direction == 3) c.pass();
        else fail_setup(c, i, fmt::format("direction {}", s.direction));
    });
}

void r88(RuleCheck& c) {
    Game g = c.ctx().game;
    if (g == Game::Other) return;
    for_setups(c, [&](std::int64_t i, const fromsoft::UserEdgeSetup& s) {
        bool ok = g == Game::Sekiro ? s.space == 1 : s.space <= 1;
        c.values().insert("space", s.space);
        if (ok) c.pass();
        else fail_setup(c, i, fmt::format("space {}", s.space));
    });
}

void r89(RuleCheck& c) {
    if (!setups_of(c)) return;
    const auto& ctx = c.ctx();
    c.check(ctx.E == ctx.R, "tagfile", -1, [&] { return fmt::format("{} user edges", ctx.E - ctx.R); });
}

void r90(RuleCheck& c) {
    if (!setups_of(c)) return;
    const auto& l = c.ctx().tagfile.layouts;
    static constexpr ExpectedMember members[] = {{"transform", 0, 64}, {"halfExtents", 64, 16}};
    thread_local LayoutVerdicts verdicts;
    std::string bad = verdicts.of(l.obb, [&](const fromsoft::RecordInfo& t) {
        return layout_mismatch(t, "hkaiUserEdgeUtils::Obb", 80, members);
    });
    // The transform is serialized as an inline array of 16 floats (format 0x1028 in 2018).
    const fromsoft::RecordInfo& transform = *l.obb_transform;
    if (transform.present() && transform.size != 64)
        bad += fmt::format("transform type {} is {} bytes; ", transform.name, transform.size);
    if (transform.present()) c.values().insert("transform_format", transform.format);
    c.check(bad.empty(), "tagfile", -1, [&] { return bad; });
}

void r91(RuleCheck& c) {
    for_boxes(c, [&](std::int64_t i, const char* box, const fromsoft::Obb& o) {
        const auto& T = o.transform;
        Vec3<double> col[3] = {{T[0], T[1], T[2]}, {T[4], T[5], T[6]}, {T[8], T[9], T[10]}};
        double delta = 0;
        for (int a = 0; a < 3; ++a)
            for (int b = a; b < 3; ++b) delta = std::max(delta, std::fabs(dot(col[a], col[b]) - (a == b ? 1.0 : 0.0)));
        c.values().maximum_at("max_delta", delta, [&] { return c.ctx().where("setup", i, box); });
        if (delta <= 1e-5) c.pass();
        else fail_setup(c, i, fmt::format("columns off orthonormal by {:.3g}", delta), box);
    });
}

bool clean_padding(const fromsoft::Obb& o) { return o.transform[3] == 0 && o.transform[7] == 0 && o.transform[11] == 0; }

void r92(RuleCheck& c) {
    for_boxes(c, [&](std::int64_t i, const char* box, const fromsoft::Obb& o) {
        if (clean_padding(o)) c.pass();
        else
            fail_setup(c, i, fmt::format("padding {} / {} / {}", float_bits(o.transform[3]), float_bits(o.transform[7]),
                                         float_bits(o.transform[11])), box);
    });
}

void r93(RuleCheck& c) {
    for_boxes(c, [&](std::int64_t i, const char* box, const fromsoft::Obb& o) {
        if (!clean_padding(o)) c.pass();
        else fail_setup(c, i, "column padding is 0 (clean)", box);
    });
}

void r94(RuleCheck& c) {
    Game g = c.ctx().game;
    if (g == Game::Other) return;
    for_boxes(c, [&](std::int64_t i, const char* box, const fromsoft::Obb& o) {
        float t = o.transform[15];
        bool ok = g == Game::Sekiro ? t == 0.0f : t != 0.0f;
        if (ok) c.pass();
        else fail_setup(c, i, "float after the translation " + float_bits(t), box);
    });
}

void r95(RuleCheck& c) {
    for_boxes(c, [&](std::int64_t i, const char* box, const fromsoft::Obb& o) {
        const auto& h = o.halfExtents;
        if (h.x > 0 && h.y > 0 && h.z > 0) c.pass();
        else fail_setup(c, i, fmt::format("halfExtents ({}, {}, {})", h.x, h.y, h.z), box);
    });
}

// ---- binders ----

void r96(RuleCheck& c) {
    const auto& f = c.ctx().file;
    if (f.binder.empty()) return;
    if (f.starts_with_tag0) c.pass();
    else c.fail("member", f.entry_index ? static_cast<std::int64_t>(*f.entry_index) : -1, "does not begin with TAG0", {}, "BND4");
}

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Whether a file name, A-Z read as a-z, reads [no]DD_DD_DD_DD_DDDDDD.hkx (D an ASCII digit):
/// what the regular expression ^[no]\d{2}_\d{2}_\d{2}_\d{2}_\d{6}\.hkx$ matches on its lower-case
/// copy, without running std::regex's executor once per tagfile (3 % of the Sekiro preset's audit).
bool is_member_file_name(std::string_view name) {
    constexpr std::string_view kShape = "?dd_dd_dd_dd_dddddd.hkx";  // d: a digit; the rest literal
    if (name.size() != kShape.size() || (ascii_lower(name[0]) != 'n' && ascii_lower(name[0]) != 'o')) return false;
    for (std::size_t i = 1; i < name.size(); ++i)
        if (kShape[i] == 'd' ? name[i] < '0' || name[i] > '9' : ascii_lower(name[i]) != kShape[i]) return false;
    return true;
}

/// `text` equals the lower-case `lower`, A-Z read as a-z.
bool equals_nocase(std::string_view text, std::string_view lower) {
    return text.size() == lower.size() && ends_with_nocase(text, lower);
}

void r97(RuleCheck& c) {
    const auto& f = c.ctx().file;
    if (f.binder.empty()) return;
    // The entry's last three parts between \ or / (the file name first), viewing the entry:
    // ok needs all three. Compared without lower-case copies and a find_last_of (a memchr a
    // byte): ≈ 1,300 instructions a tagfile on the Sekiro preset (forty-fifth session).
    std::string_view part[3];
    std::size_t parts = 0;
    for (std::string_view rest = f.entry; parts < 3; ++parts) {
        std::size_t cut = rest.size();
        while (cut > 0 && rest[cut - 1] != '\\' && rest[cut - 1] != '/') --cut;
        part[parts] = rest.substr(cut);
        if (cut == 0) {
            ++parts;
            break;
        }
        rest = rest.substr(0, cut - 1);
    }
    const bool other = !part[0].empty() && ascii_lower(part[0][0]) == 'o';
    bool ok = is_member_file_name(part[0]) && parts == 3 && equals_nocase(part[1], "bind6") &&
              equals_nocase(part[2], "navimesh");
    if (ok && other && c.ctx().game == Game::Sekiro) ok = false;
    if (ok) c.values().count(other ? Key("o_members") : Key("n_members"));
    std::int64_t index = f.entry_index ? static_cast<std::int64_t>(*f.entry_index) : -1;
    if (ok) c.pass();
    else c.fail("member", index, "name " + f.entry, {}, "BND4");
}

}  // namespace

void add_user_edge_rules(std::vector<RuleDef>& out) {
    const Scope B = Scope::Both, S = Scope::Sekiro, ER = Scope::EldenRing;
    const Kind I = Kind::Invariant, ST = Kind::Statistic, O = Kind::Observed;
    out.insert(out.end(), {
        {"R74", "user edges", S, I, "Proven", "face", "Sekiro meshes have no user edges", false, page(279053), kNoPage, "0 user edges in 279,053 faces", r74},
        {"R75", "user edges", ER, I, "Proven · Elden Ring", "user edge", "User-edge endpoints are vertices that are not corners of the owning face", false, kNoPage, page(2597337), "all 2,597,337 user edges", r75},
        {"R76", "user edges", ER, I, "Proven · Elden Ring", "user edge", "User-edge flags are 20 or 52", false, kNoPage, page(2597337), "all 2,597,337", r76},
        {"R77", "user edges", ER, I, "Proven · Elden Ring", "regular edge", "Flag values 16 and 32 only on user edges", false, kNoPage, page(23716604), "all 23,716,604 regular edges", r77},
        {"R78", "user edges", ER, I, "Proven · Elden Ring", "user edge", "User-edge edgeData: not 0, low byte 2/4/18/20, nothing above byte 1", false, kNoPage, page(2597337), "all 2,597,337", r78},
        {"R79", "user edges", ER, ST, "Proven · Elden Ring", "user edge", "Distinct second bytes of user-edge edgeData", true, kNoPage, page(2597337), "163 distinct values", r79},
        {"R80", "user edges", ER, ST, "Proven · Elden Ring", "user edge with an opposite", "The opposite of a user edge is a user edge in another face", false, kNoPage, page(2595002, 50), "50 of 2,595,002", r80},
        {"R81", "user edges", ER, I, "Proven · Elden Ring", "user edge without an opposite", "User edges without an opposite have flags 52", false, kNoPage, page(2335), "2,335 checked, 0 exceptions", r81},
        {"R82", "user edges", ER, ST, "Proven · Elden Ring", "face", "Faces owning user edges, 1 to 56 each", false, kNoPage, page(6317094, 0), "837,953 of 6,317,094 own user edges, 1 to 56 each", r82},
        {"R83", "user edges", ER, ST, "Proven · Elden Ring", "mesh with user edges", "User edges in face order", false, kNoPage, page(1696, 1614), "1,614 of 1,696 not in face order", r83},
        {"R84", "setups", B, O, "Observed", "tagfile with a setup array", "Setup contents: two boxes, user data, costs, world-up vectors, direction, space, forceAlign", false, page(430), page(188), "observed in all 430 / 188 arrays", r84},
        {"R85", "setups", B, O, "Observed", "setup", "worldUpA is (0, 1, 0)", false, page(1463), page(673), "all 1,463 / 673 setups", r85},
        {"R86", "setups", B, O, "Observed", "setup", "forceAlign is 1", false, page(1463), page(673), "all", r86},
        {"R87", "setups", B, O, "Observed", "setup", "direction is 1 or 3", false, page(1463), page(673), "all", r87},
        {"R88", "setups", B, O, "Observed", "setup", "space is 0 or 1 (Elden Ring), 1 (Sekiro)", false, page(1463), page(673), "all", r88},
        {"R89", "setups", S, O, "Observed", "Sekiro tagfile with a setup array", "Sekiro tagfiles carry setup arrays though their meshes have no user edges", false, page(430), kNoPage, "430 tagfiles with arrays, 0 user edges", r89},
        {"R90", "setups", B, I, "Proven", "tagfile with a setup array", "A box's transform is 16 floats", false, page(430), page(188), "all 4,272 boxes", r90},
        {"R91", "setups", B, I, "Proven", "box", "Rotation columns are orthonormal", false, page(2926), page(1346), "0 of 2,926 / 1,346", r91},
        {"R92", "setups", ER, I, "Proven", "box", "Column padding floats are 0", false, kNoPage, page(1346), "all 1,346", r92},
        {"R93", "setups", S, ST, "Proven", "box", "Column padding floats are stale data in all but 2 boxes", false, page(2926, 2), kNoPage, "2 clean of 2,926", r93},
        {"R94", "setups", B, I, "Proven", "box", "Float after the translation: 0 (Sekiro), not 0 (Elden Ring)", false, page(2926), page(1346), "all 2,926 / 1,346", r94},
        {"R95", "setups", B, I, "Proven", "box", "Half extents are positive", false, page(2926), page(1346), "all 4,272", r95},
        {"R96", "binders", B, O, "Observed", "binder member", "A navmesh binder is a DCX-compressed BND4 of tagfiles", false, page(1509), page(7438), "10 / 695 binders, 1,509 / 7,438 members", r96},
        {"R97", "binders", B, O, "Observed", "binder member", "Member names: build path ...\\navimesh\\bind6\\n....hkx (Elden Ring also o...)", false, page(1509), page(7438), "o members in Elden Ring only", r97},
    });
}

}  // namespace navlab::audit
