#include "audit/audit_report.h"

#include <fmt/format.h>

#include <utility>

#include "audit/audit_rules.h"
#include "io/text.h"

namespace navlab::audit {
namespace {

const char* scope_name(Scope s) { return s == Scope::Both ? "both" : (s == Scope::Sekiro ? "sekiro" : "elden_ring"); }
const char* scope_text(Scope s) { return s == Scope::Both ? "both" : (s == Scope::Sekiro ? "Sekiro" : "Elden Ring"); }
const char* kind_name(Kind k) { return k == Kind::Invariant ? "INVARIANT" : (k == Kind::Statistic ? "STATISTIC" : "OBSERVED"); }

/// "1,234,567".
std::string grouped(std::int64_t n) {
    std::string digits = std::to_string(n < 0 ? -n : n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return n < 0 ? "-" + out : out;
}

std::string plural_word(const std::string& w) {
    if (w == "vertex") return "vertices";
    if (w == "box" || w == "mesh") return w + "es";
    return w + "s";
}

/// "face" → "faces", "regular edge with an opposite" → "regular edges with an opposite".
std::string plural(const std::string& unit) {
    for (const char* sep : {" with", " of ", " without"}) {
        auto at = unit.find(sep);
        if (at != std::string::npos) return plural(unit.substr(0, at)) + unit.substr(at);
    }
    auto space = unit.rfind(' ');
    if (space == std::string::npos) return plural_word(unit);
    return unit.substr(0, space + 1) + plural_word(unit.substr(space + 1));
}

Tally total(const RuleResult& t) {
    Tally s;
    for (const Tally& g : t.by_game) {
        s.checked += g.checked;
        s.exceptions += g.exceptions;
        s.skipped += g.skipped;
    }
    return s;
}

std::string values_text(const NamedValues& v) {
    std::string out;
    for (const auto& [k, n] : v.counts) out += fmt::format("  {} {}", k, grouped(n));
    for (const auto& [k, e] : v.maxima) out += fmt::format("  {} {:.6g}{}", k, e.value, e.at.empty() ? "" : " (" + e.at.str() + ")");
    for (const auto& [k, e] : v.minima) out += fmt::format("  {} {:.9g}", k, e.value);
    for (const auto& [k, s] : v.sets) {
        out += fmt::format("  {} {{", k);
        std::size_t shown = 0;
        for (auto x : s) {
            if (shown++ == 16) {
                out += fmt::format(", … {} in all", s.size());
                break;
            }
            out += fmt::format("{}{}", shown > 1 ? ", " : "", x);
        }
        out += "}";
    }
    return out;
}

/// "BINDER | ENTRY #I  KIND INDEX:FIELD" (parts that are empty left out).
std::string location(const Finding& e) {
    const std::string member = escape_non_utf8(e.member);  // an entry name is the binder's bytes
    std::string where = e.file.empty() ? member : e.file + " | " + member;
    if (e.member_index >= 0) where += fmt::format(" #{}", e.member_index);
    std::string what = e.element_kind;
    if (e.element >= 0) what += fmt::format(" {}", e.element);
    if (!e.field.empty()) what += ":" + e.field;
    return where + "  " + what;
}

/// An exception in the report's JSON (audit-rules.md §9): {binder, entry, entry_index, object,
/// element, index, [sub,] detail}.
nlohmann::ordered_json example_json(const Finding& e) {
    using json = nlohmann::ordered_json;
    json x;
    x["binder"] = e.file.empty() ? json(nullptr) : json(e.file);
    x["entry"] = e.member;
    x["entry_index"] = e.member_index >= 0 ? json(e.member_index) : json(nullptr);
    x["object"] = e.object;
    x["element"] = e.element_kind;
    x["index"] = e.element >= 0 ? json(e.element) : json(nullptr);
    if (!e.field.empty()) x["sub"] = e.field;
    x["detail"] = e.message;
    return x;
}

void summary_row(std::string& out, const char* name, std::int64_t in_s, std::int64_t page_s, std::int64_t in_e,
                 std::int64_t page_e) {
    out += fmt::format("  {:<44} {:>12} {:>12} {:>12} {:>12}\n", name, grouped(in_s), grouped(page_s), grouped(in_e),
                       grouped(page_e));
}

/// The page's §4 figures.
GameSummary page_summary(Game g) {
    GameSummary s;
    if (g == Game::Sekiro) {
        s = {10, 1509, 279053, 1160836, 0, 454816, 94, 1509, 0, 0, 430, 1463, {"20160200"}};
    } else {
        s = {695, 7438, 6317094, 26313941, 2597337, 13306284, 4027, 0, 6021, 12630777, 188, 673, {"20180100"}};
    }
    return s;
}

nlohmann::ordered_json summary_json(const GameSummary& s) {
    return {{"binders", s.binders},       {"tagfiles", s.tagfiles},         {"sdk", s.sdk},
            {"faces", s.faces},           {"edges", s.edges},               {"user_edges", s.user_edges},
            {"vertices", s.vertices},     {"empty_meshes", s.empty_meshes}, {"cost_graphs", s.cost_graphs},
            {"mediators", s.mediators},   {"tree_nodes", s.tree_nodes},     {"setup_arrays", s.setup_arrays},
            {"setups", s.setups}};
}

nlohmann::ordered_json values_json(const NamedValues& v) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& [k, n] : v.counts) j[k] = n;
    for (const auto* extremes : {&v.maxima, &v.minima})
        for (const auto& [k, e] : *extremes) {
            j[k] = e.value;
            if (!e.at.empty()) j[k + "_at"] = e.at.str();
        }
    for (const auto& [k, s] : v.sets) j[k] = s;
    return j;
}

nlohmann::ordered_json page_json(PageFigure p) {
    if (p.checked < 0 && p.exceptions < 0) return nullptr;
    nlohmann::ordered_json j;
    j["checked"] = p.checked < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(p.checked);
    j["exceptions"] = p.exceptions < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(p.exceptions);
    return j;
}


/// One rule's lines: status and counts, title and values, first exceptions.
std::string rule_text(const AuditReport& report, std::size_t i) {
    const RuleDef& r = all_rules()[i];
    const RuleResult& t = report.rules[i];
    Tally sum = total(t);
    std::string out = fmt::format("{}  {}  {}  {}  {}", r.id, r.group, scope_text(r.scope), kind_name(r.kind),
                                  rule_status(report, i));
    if (t.applicable) {
        out += fmt::format("  checked {} {}", grouped(sum.checked), sum.checked == 1 ? r.unit : plural(r.unit));
        if (!r.total) out += fmt::format("  exceptions {}", grouped(sum.exceptions));
        if (sum.skipped) out += fmt::format("  skipped {}", grouped(sum.skipped));
    }
    out += fmt::format("   page: {}\n", r.page_text);
    out += fmt::format("     {}", r.title);
    out += values_text(t.values) + "\n";
    bool warn = r.kind == Kind::Observed && sum.exceptions > 0;
    for (const Finding& ex : t.examples)
        out += fmt::format("     {}  {}  {}\n", warn ? "warning:" : "-", location(ex), ex.message);
    return out;
}

}  // namespace

std::string format_audit_text(const AuditReport& report, TextDetail detail) {
    std::string out = "navmesh audit (shared/spec/audit-rules.md), inputs:";
    for (const auto& in : report.inputs) out += " " + in;
    out += "\n\n";
    const GameSummary &s = report.summary.sekiro, &e = report.summary.elden_ring;
    GameSummary ps = page_summary(Game::Sekiro), pe = page_summary(Game::EldenRing);
    out += fmt::format("  {:<44} {:>12} {:>12} {:>12} {:>12}\n", "", "input·Sekiro", "page·Sekiro", "input·ER", "page·ER");
    summary_row(out, "Binders", s.binders, ps.binders, e.binders, pe.binders);
    summary_row(out, "Tagfiles", s.tagfiles, ps.tagfiles, e.tagfiles, pe.tagfiles);
    auto sdk = [](const GameSummary& g) {
        std::string t;
        for (const auto& v : g.sdk) t += (t.empty() ? "" : ",") + v;
        return t.empty() ? std::string("-") : t;
    };
    out += fmt::format("  {:<44} {:>12} {:>12} {:>12} {:>12}\n", "  SDK", sdk(s), "20160200", sdk(e), "20180100");
    summary_row(out, "Faces", s.faces, ps.faces, e.faces, pe.faces);
    summary_row(out, "Edges", s.edges, ps.edges, e.edges, pe.edges);
    summary_row(out, "  user edges", s.user_edges, ps.user_edges, e.user_edges, pe.user_edges);
    summary_row(out, "Vertices", s.vertices, ps.vertices, e.vertices, pe.vertices);
    summary_row(out, "Tagfiles whose mesh has no face", s.empty_meshes, ps.empty_meshes, e.empty_meshes, pe.empty_meshes);
    summary_row(out, "hkaiDirectedGraphExplicitCost", s.cost_graphs, ps.cost_graphs, e.cost_graphs, pe.cost_graphs);
    summary_row(out, "hkaiStaticTreeNavMeshQueryMediator", s.mediators, ps.mediators, e.mediators, pe.mediators);
    summary_row(out, "  tree nodes", s.tree_nodes, ps.tree_nodes, e.tree_nodes, pe.tree_nodes);
    summary_row(out, "hkaiUserEdgeSetupArray", s.setup_arrays, ps.setup_arrays, e.setup_arrays, pe.setup_arrays);
    summary_row(out, "  setups", s.setups, ps.setups, e.setups, pe.setups);
    out += fmt::format("  other SDK tagfiles {}, unreadable {}\n\n", report.summary.other_tagfiles, report.summary.unreadable);

    auto rules = all_rules();
    std::int64_t failed = 0, quiet = 0, not_applicable = 0;
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const std::string status = rule_status(report, i);
        failed += status == "fail";
        if (detail == TextDetail::All || total(report.rules[i]).exceptions > 0) {
            out += rule_text(report, i);
        } else if (status == "not_applicable") {
            ++not_applicable;
        } else {
            ++quiet;
        }
    }
    if (detail == TextDetail::Short) {
        out += fmt::format("\n{} rules passed", quiet);
        if (not_applicable) out += fmt::format(", {} not applicable", not_applicable);
        out += fmt::format(", {} invariants failed (--all prints every rule)\n", failed);
        return out;
    }
    if (!report.supplementary.empty()) {
        out += "\nsupplementary counters\n";
        for (const auto& [id, v] : report.supplementary) out += fmt::format("{}{}\n", id, values_text(v));
    }
    out += fmt::format("\n{} rules, {} invariants failed\n", rules.size(), failed);
    return out;
}

nlohmann::ordered_json audit_json(const AuditReport& report) {
    using json = nlohmann::ordered_json;
    json j;
    j["format"] = "navlab-audit/1";
    j["inputs"] = report.inputs;
    json summary;
    summary["sekiro"] = summary_json(report.summary.sekiro);
    summary["elden_ring"] = summary_json(report.summary.elden_ring);
    summary["other"] = {{"tagfiles", report.summary.other_tagfiles}, {"sdk", report.summary.other_sdk}};
    summary["unreadable"] = report.summary.unreadable;
    summary["page"] = {{"sekiro", summary_json(page_summary(Game::Sekiro))},
                       {"elden_ring", summary_json(page_summary(Game::EldenRing))}};
    // Each finished part is moved into its parent: copying them (the rules' array whole) was
    // 3.1 M of audit_json's 7.7 M on the Sekiro preset (3.2 M of 8.0 M on eldenring m31).
    j["summary"] = std::move(summary);
    json rules = json::array();
    auto defs = all_rules();
    std::int64_t invariants = 0, failed = 0;
    for (std::size_t i = 0; i < defs.size(); ++i) {
        const RuleDef& r = defs[i];
        const RuleResult& t = report.rules[i];
        Tally sum = total(t);
        std::string status = rule_status(report, i);
        invariants += r.kind == Kind::Invariant;
        failed += status == "fail";
        json rule;
        rule["id"] = r.id;
        rule["group"] = r.group;
        rule["title"] = r.title;
        rule["scope"] = scope_name(r.scope);
        rule["kind"] = kind_name(r.kind);
        rule["page_tag"] = r.page_tag;
        rule["unit"] = r.unit;
        rule["status"] = status;
        rule["checked"] = sum.checked;
        rule["skipped"] = sum.skipped;
        rule["exceptions"] = r.total ? json(nullptr) : json(sum.exceptions);
        json by_game;
        for (auto [name, g, scope] : {std::tuple{"sekiro", Game::Sekiro, Scope::Sekiro},
                                      std::tuple{"elden_ring", Game::EldenRing, Scope::EldenRing}}) {
            const Tally& tg = t.by_game[static_cast<std::size_t>(g)];
            bool in_scope = r.scope == Scope::Both || r.scope == scope;
            const GameSummary& present = g == Game::Sekiro ? report.summary.sekiro : report.summary.elden_ring;
            if (!in_scope || present.tagfiles == 0) {
                by_game[name] = nullptr;
                continue;
            }
            by_game[name] = {{"checked", tg.checked}, {"exceptions", r.total ? json(nullptr) : json(tg.exceptions)}};
        }
        rule["by_game"] = std::move(by_game);
        rule["page"] = {{"sekiro", page_json(r.page_sekiro)}, {"elden_ring", page_json(r.page_elden_ring)}};
        rule["page_text"] = r.page_text;
        rule["values"] = values_json(t.values);
        json examples = json::array();
        for (const Finding& e : t.examples) examples.push_back(example_json(e));
        rule["examples"] = std::move(examples);
        rules.push_back(std::move(rule));
    }
    j["rules"] = std::move(rules);
    json supplementary = json::object();
    for (const auto& [id, v] : report.supplementary) supplementary[id] = values_json(v);
    j["supplementary"] = std::move(supplementary);
    j["result"] = {{"rules", defs.size()}, {"invariants", invariants}, {"invariants_failed", failed},
                   {"exit_status", failed ? 1 : 0}};
    return j;
}

}  // namespace navlab::audit
