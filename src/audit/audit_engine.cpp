// The audit engine: the rule table, per-tagfile evaluation and the deterministic merge.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "audit/audit_rules.h"
#include "audit/audit_supplementary.h"
#include "io/text.h"

namespace navlab::audit {

Game game_of_sdk(const std::optional<std::string>& sdk) { return sdk ? fromsoft::game_of_sdk(*sdk) : Game::Other; }

std::optional<std::string> sdk_of(const AuditTagfile& f) {
    if (f.sdk) return f.sdk;
    if (f.model && !f.model->sdk_string.empty()) return f.model->sdk_string;
    if (f.model && f.model->sdk_version) return std::to_string(f.model->sdk_version);
    return std::nullopt;
}

std::string short_sci(double v) {
    std::string s = fmt::format("{:.1e}", v);  // "9.8e-04"
    auto e = s.find('e');
    if (e == std::string::npos) return s;
    std::string mantissa = s.substr(0, e), exponent = s.substr(e + 1);
    char sign = exponent[0] == '-' ? '-' : 0;
    std::size_t digits = exponent.find_first_not_of("+-0");
    return mantissa + "e" + (sign ? "-" : "") + (digits == std::string::npos ? "0" : exponent.substr(digits));
}

std::string float_bits(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return fmt::format("{} (0x{:08X})", f, b);
}

std::int64_t ulp_distance(float a, float b) {
    auto key = [](float f) {
        std::uint32_t u;
        std::memcpy(&u, &f, 4);
        return (u & 0x80000000u) ? -static_cast<std::int64_t>(u & 0x7FFFFFFFu) : static_cast<std::int64_t>(u);
    };
    std::int64_t d = key(a) - key(b);
    return d < 0 ? -d : d;
}

std::string Location::str() const {
    if (!tagfile_) return text_;
    if (index_ < 0) return std::string(*tagfile_).append(suffix_);
    char digits[24];
    const char* end = std::to_chars(digits, digits + sizeof digits, index_).ptr;
    std::string out;
    out.reserve(tagfile_->size() + element_.size() + 2 + static_cast<std::size_t>(end - digits) + suffix_.size());
    out.append(*tagfile_).append(1, ' ').append(element_).append(1, ' ');
    out.append(digits, static_cast<std::size_t>(end - digits)).append(suffix_);
    return out;
}

void Values::maximum(Key key, double v, Location at) {
    Extreme& e = maxima[key];
    if (!e.set || v > e.value) e.take(v, std::move(at));
}

void Values::minimum(Key key, double v, Location at) {
    Extreme& e = minima[key];
    if (!e.set || v < e.value) e.take(v, std::move(at));
}

namespace {

/// One later value `v` folded into `e` as maximum()/minimum() fold values in order (the first
/// value, replaced by each strictly better one), keeping the best value after a first NaN.
template <class Better>
void fold_extreme(Extreme& e, double v, const Location& at, Better better) {
    if (!e.set) {
        e.take(v, at);
    } else if (std::isnan(e.value)) {
        if (!std::isnan(v) && (!e.after_nan_set || better(v, e.after_nan)))
            e.after_nan = v, e.after_nan_at = at, e.after_nan_set = true;
    } else if (better(v, e.value)) {
        e.value = v, e.at = at;
    }
}

/// The fold of `from`'s values (in order, after `into`'s) into `into`.
template <class Better>
void merge_extreme(Extreme& into, const Extreme& from, Better better) {
    if (!from.set) return;
    fold_extreme(into, from.value, from.at, better);
    if (from.after_nan_set) fold_extreme(into, from.after_nan, from.after_nan_at, better);
}

/// `entries` under their keys' names.
template <class T>
std::map<std::string, T, std::less<>> named_entries(const KeyedEntries<T>& entries) {
    std::map<std::string, T, std::less<>> out;
    for (const auto& e : entries) out.emplace(e.key.name(), e.value);
    return out;
}

}  // namespace

void Values::merge(const Values& other) {
    counts.merge(other.counts, [](std::int64_t& into, std::int64_t n) { into += n; });
    maxima.merge(other.maxima, [](Extreme& into, const Extreme& e) {
        merge_extreme(into, e, [](double a, double b) { return a > b; });
    });
    minima.merge(other.minima, [](Extreme& into, const Extreme& e) {
        merge_extreme(into, e, [](double a, double b) { return a < b; });
    });
    sets.merge(other.sets, [](std::set<std::uint64_t>& into, const std::set<std::uint64_t>& s) {
        into.insert(s.begin(), s.end());
    });
}

void Values::drop_entries() noexcept {
    counts.clear(), maxima.clear(), minima.clear();
    for (auto& e : sets) keep_nodes(e.value);
    sets.clear();
}

NamedValues Values::named() const {
    return {named_entries(counts), named_entries(maxima), named_entries(minima), named_entries(sets)};
}

void RuleCheck::fail(const std::string& element, std::int64_t index, const std::string& detail, const std::string& sub,
                     const std::string& object) {
    ++tally_.by_game[game_].checked;
    ++tally_.by_game[game_].exceptions;
    if (tally_.examples.size() >= max_) return;
    const AuditTagfile& f = ctx_.file;
    Finding x;
    x.file = f.binder;
    x.member = f.entry;
    x.member_index = f.entry_index ? static_cast<std::int64_t>(*f.entry_index) : -1;
    x.object = object;
    x.element_kind = element;
    x.element = index;
    x.field = sub;
    x.message = escape_non_utf8(detail);  // names read from the file (R07's variants) may be damaged
    tally_.examples.push_back(std::move(x));
}

std::span<const RuleDef> all_rules() {
    static const std::vector<RuleDef> table = [] {
        std::vector<RuleDef> t;
        add_structure_rules(t);
        add_topology_rules(t);
        add_geometry_rules(t);
        add_graph_tree_rules(t);
        add_user_edge_rules(t);
        return t;
    }();
    return table;
}

namespace {

bool in_scope(Scope s, Game g) {
    return s == Scope::Both || (s == Scope::Sekiro && g == Game::Sekiro) || (s == Scope::EldenRing && g == Game::EldenRing);
}

/// One readable tagfile's figures for the summary table (§4).
GameSummary summary_counts(const TagfileContext& ctx) {
    GameSummary s;
    const auto& t = ctx.tagfile;
    s.tagfiles = 1;
    if (auto sdk = sdk_of(ctx.file)) s.sdk.insert(*sdk);
    s.faces = ctx.F;
    s.edges = ctx.E;
    s.user_edges = std::max<std::int64_t>(0, ctx.E - ctx.R);
    s.vertices = ctx.V;
    s.empty_meshes = ctx.F == 0;
    s.cost_graphs = t.graph.has_value();
    s.mediators = t.mediator.has_value();
    if (t.mediator) s.tree_nodes = static_cast<std::int64_t>(t.mediator->nodes.size());
    s.setup_arrays = t.user_edge_setups.has_value();
    if (t.user_edge_setups) s.setups = static_cast<std::int64_t>(t.user_edge_setups->size());
    return s;
}

/// Rules that run on a tagfile the strict reader rejected: R02 itself and the binder rules.
bool runs_on_unreadable(const RuleDef& r) {
    return std::strcmp(r.id, "R02") == 0 || std::strcmp(r.id, "R96") == 0 || std::strcmp(r.id, "R97") == 0;
}

/// The rules that run on a tagfile of game `g`, readable or not, in table order: the same list
/// for every such tagfile, so made once (each rule's scope and name were asked per tagfile).
std::span<const std::uint16_t> rules_to_run(Game g, bool readable) {
    static const auto lists = [] {
        std::array<std::vector<std::uint16_t>, 6> out;  // [game * 2 + readable]
        const auto rules = all_rules();
        for (std::size_t k = 0; k < out.size(); ++k)
            for (std::size_t i = 0; i < rules.size(); ++i)
                if ((k % 2 != 0 || runs_on_unreadable(rules[i])) && in_scope(rules[i].scope, static_cast<Game>(k / 2)))
                    out[k].push_back(static_cast<std::uint16_t>(i));
        return out;
    }();
    return lists[static_cast<std::size_t>(g) * 2 + (readable ? 1 : 0)];
}

/// The tallies and the list of rules run of the last result this thread dropped, emptied
/// (~TagfileAudit); empty when none is kept.
struct SpareResult {
    std::vector<RuleTally> rules;
    std::vector<RanRule> ran;
    std::vector<Values> supplementary;
    std::vector<std::int64_t> class_counts;
};
SpareResult& spare_result() {
    thread_local SpareResult spare;
    return spare;
}

}  // namespace

TagfileAudit::~TagfileAudit() {
    if (classes.counts.capacity() != 0 && classes.counts.capacity() <= kKeptClassNames) {
        classes.counts.clear();
        spare_result().class_counts = std::move(classes.counts);
    }
    if (!supplementary.empty()) {
        for (Values& v : supplementary) v.clear();  // its arrays' room kept for the next tagfile
        spare_result().supplementary = std::move(supplementary);
    }
    if (rules.size() != all_rules().size()) return;  // moved from, or not an audit_tagfile result
    if (ran.empty()) {
        // Every tally, not only the applicable ones: a result built by hand may fill any of them.
        for (RuleTally& t : rules) t.clear();
    } else {
        for (const RanRule r : ran) {  // the others are untouched (`ran`)
            RuleTally& t = rules[r.rule];
            t.by_game[static_cast<std::size_t>(game)] = {};
            t.applicable = false;
            if (r.extras) t.examples.clear(), t.values.clear();  // its arrays' room kept for the next tagfile
        }
        ran.clear();
    }
    SpareResult& spare = spare_result();
    spare.rules = std::move(rules);
    spare.ran = std::move(ran);
}

TagfileAudit audit_tagfile(const AuditTagfile& file, std::size_t max_examples, const ExamplesTaken* taken) {
    auto rules = all_rules();
    TagfileAudit out;
    if (SpareResult& spare = spare_result(); spare.rules.size() == rules.size()) {
        out.rules = std::move(spare.rules);  // cleared when given back
        out.ran = std::move(spare.ran);
    } else {
        out.rules.resize(rules.size());
    }
    out.ran.reserve(rules.size());
    const bool readable = file.model.has_value();
    AuditTagfile stand_in;
    if (!readable) {  // a context over an empty model, for the rules that still run
        stand_in = file;
        stand_in.model.emplace();
    }
    TagfileContext ctx(readable ? file : stand_in);
    out.game = ctx.game;  // the tallies' game from here (~TagfileAudit clears its counts)
    // A tagfile of another SDK runs only "both"-scope rules (R04).
    for (const std::uint16_t i : rules_to_run(ctx.game, readable)) {
        const RuleDef& r = rules[i];
        RuleTally& tally = out.rules[i];
        out.ran.push_back({i, true});  // extras until known, for a rule that throws
        tally.applicable = true;
        RuleCheck check(ctx, tally, taken && taken->full(i) ? 0 : max_examples);
        if (!readable && std::strcmp(r.id, "R02") == 0)
            check.fail("tagfile", -1, file.read_error, {}, "TAG0");
        else
            r.fn(check);
        if (r.kind == Kind::Invariant)
            for (Finding& x : tally.examples) x.severity = Finding::Severity::Error;
        out.ran.back().extras = !tally.examples.empty() || !tally.values.empty();
    }
    out.readable = readable;
    out.sdk = sdk_of(file);
    out.binder = file.binder;
    if (readable) {
        out.supplementary = std::move(spare_result().supplementary);  // emptied when given back
        supplementary_counters(ctx, out.supplementary);
        out.classes.counts = std::move(spare_result().class_counts);  // emptied when given back
        class_counts(ctx, out.classes);
        out.counts = summary_counts(ctx);
    }
    return out;
}

AuditMerger::AuditMerger(std::size_t max_examples)
    : rules_(all_rules().size()), supplementary_(kSupplementaryIds.size()), max_examples_(max_examples) {}

namespace {

void add_counts(GameSummary& into, const GameSummary& c) {
    into.tagfiles += c.tagfiles;
    into.faces += c.faces;
    into.edges += c.edges;
    into.user_edges += c.user_edges;
    into.vertices += c.vertices;
    into.empty_meshes += c.empty_meshes;
    into.cost_graphs += c.cost_graphs;
    into.mediators += c.mediators;
    into.tree_nodes += c.tree_nodes;
    into.setup_arrays += c.setup_arrays;
    into.setups += c.setups;
    into.sdk.insert(c.sdk.begin(), c.sdk.end());
}

void add_tally(Tally& into, const Tally& from) {
    into.checked += from.checked;
    into.exceptions += from.exceptions;
    into.skipped += from.skipped;
}

}  // namespace

void AuditMerger::add_extras(RuleTally& into, const RuleTally& from, std::size_t rule, ExamplesTaken* taken) {
    for (const Finding& e : from.examples)
        if (into.examples.size() < max_examples_) into.examples.push_back(e);
    if (taken && into.examples.size() >= max_examples_) taken->mark_full(rule);
    if (!from.values.empty()) into.values.merge(from.values);  // most rules of a tagfile have none
}

void AuditMerger::add_rules(const std::vector<RuleTally>& rules, ExamplesTaken* taken) {
    for (std::size_t i = 0; i < rules.size(); ++i) {
        RuleTally& into = rules_[i];
        const RuleTally& from = rules[i];
        into.applicable = into.applicable || from.applicable;
        for (std::size_t k = 0; k < 3; ++k) add_tally(into.by_game[k], from.by_game[k]);
        add_extras(into, from, i, taken);
    }
}

// A rule without extras leaves `taken` as it was: its merged examples did not grow, so they
// were complete at the last add that could mark them (marking only spares later audits
// examples the merge would drop; a rule not marked costs nothing else).
void AuditMerger::add_ran(const TagfileAudit& result, ExamplesTaken* taken) {
    const auto game = static_cast<std::size_t>(result.game);
    for (const RanRule r : result.ran) {
        RuleTally& into = rules_[r.rule];
        const RuleTally& from = result.rules[r.rule];
        into.applicable = true;
        add_tally(into.by_game[game], from.by_game[game]);
        if (r.extras) add_extras(into, from, r.rule, taken);
    }
}

void AuditMerger::add(const TagfileAudit& r, ExamplesTaken* taken) {
    Summary& summary = report_.summary;
    if (!r.readable) {
        ++summary.unreadable;
    } else if (r.game == Game::Other) {
        ++summary.other_tagfiles;
        if (r.sdk) summary.other_sdk.insert(*r.sdk);
    } else {
        add_counts(r.game == Game::Sekiro ? summary.sekiro : summary.elden_ring, r.counts);
        if (!r.binder.empty()) binders_[r.game == Game::Sekiro ? 0 : 1].insert(r.binder);
    }
    if (r.ran.empty())
        add_rules(r.rules, taken);
    else
        add_ran(r, taken);
    for (std::size_t i = 0; i < std::min(r.supplementary.size(), supplementary_.size()); ++i)
        if (!r.supplementary[i].empty()) supplementary_[i].merge(r.supplementary[i]);  // about half have none
    if (!r.classes.empty()) classes_.add(r.classes);
}

void AuditMerger::add(const AuditMerger& later, ExamplesTaken* taken) {
    Summary& summary = report_.summary;
    const Summary& from = later.report_.summary;
    summary.unreadable += from.unreadable;
    summary.other_tagfiles += from.other_tagfiles;
    summary.other_sdk.insert(from.other_sdk.begin(), from.other_sdk.end());
    add_counts(summary.sekiro, from.sekiro);
    add_counts(summary.elden_ring, from.elden_ring);
    for (int g = 0; g < 2; ++g) binders_[g].insert(later.binders_[g].begin(), later.binders_[g].end());
    add_rules(later.rules_, taken);
    for (std::size_t i = 0; i < supplementary_.size(); ++i) supplementary_[i].merge(later.supplementary_[i]);
    classes_.add(later.classes_);
}

void ClassTotals::add(const ClassCounts& c) {
    if (!c.names) return;  // no counts
    Seen* seen = nullptr;
    for (Seen& s : seen_)
        if (s.names == c.names) seen = &s;
    if (!seen) {  // a list not seen lately: its names' places, searched once
        seen = &seen_[next_seen_];
        next_seen_ = (next_seen_ + 1) % seen_.size();
        seen->names = c.names;
        seen->places.clear();
        for (const std::string& name : *c.names) seen->places.push_back(place(name));
    }
    for (std::size_t i = 0; i < std::min(c.counts.size(), seen->places.size()); ++i)
        totals_[seen->places[i]] += c.counts[i];
}

void ClassTotals::add(const ClassTotals& later) {
    for (const auto& [name, at] : later.places_) totals_[place(name)] += later.totals_[at];
}

std::size_t ClassTotals::place(std::string_view name) {
    if (const auto at = places_.find(name); at != places_.end()) return at->second;
    places_.emplace(std::string(name), totals_.size());
    totals_.push_back(0);
    return totals_.size() - 1;
}

void ClassTotals::add_to(std::map<std::string, std::int64_t, std::less<>>& counts) const {
    for (const auto& [name, at] : places_) counts[name] += totals_[at];
}

AuditReport AuditMerger::finish(std::vector<std::string> inputs) {
    report_.inputs = std::move(inputs);
    report_.rules.reserve(rules_.size());
    for (RuleTally& t : rules_)
        report_.rules.push_back({t.by_game, t.applicable, std::move(t.examples), t.values.named()});
    // A counter no tagfile filled is left out.
    for (std::size_t i = 0; i < supplementary_.size(); ++i) {
        const bool classes = i == kClassCountsCounter && !classes_.empty();
        if (supplementary_[i].empty() && !classes) continue;
        NamedValues named = supplementary_[i].named();
        if (classes) classes_.add_to(named.counts);
        report_.supplementary.emplace(kSupplementaryIds[i], std::move(named));
    }
    report_.summary.sekiro.binders = static_cast<std::int64_t>(binders_[0].size());
    report_.summary.elden_ring.binders = static_cast<std::int64_t>(binders_[1].size());
    return std::move(report_);
}

AuditReport merge_audit(std::span<const TagfileAudit> results, std::vector<std::string> inputs,
                        std::size_t max_examples) {
    AuditMerger merger(max_examples);
    for (const TagfileAudit& r : results) merger.add(r);
    return merger.finish(std::move(inputs));
}

std::string rule_status(const AuditReport& report, std::size_t i) {
    const RuleDef& def = all_rules()[i];
    const RuleResult& t = report.rules[i];
    if (!t.applicable) return "not_applicable";
    std::int64_t checked = 0, exceptions = 0;
    for (const Tally& g : t.by_game) {
        checked += g.checked;
        exceptions += g.exceptions;
    }
    if (def.kind != Kind::Invariant) return "reported";
    if (exceptions > 0) return "fail";
    return checked == 0 ? "vacuous" : "pass";
}

bool audit_failed(const AuditReport& report) {
    for (std::size_t i = 0; i < report.rules.size(); ++i)
        if (rule_status(report, i) == "fail") return true;
    return false;
}

}  // namespace navlab::audit
