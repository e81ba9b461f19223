// `navlab audit`: every Proven (and Observed) statement of the FromSoftware navmesh page,
// checked on the input and counted (shared/spec/audit-rules.md, rules R01–R97).
//
// Rules are small functions in a table (audit_rules.h). Each tagfile is evaluated on its own
// into one RuleTally per rule; tallies are merged in input order, so the report is identical
// whatever the number of threads.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "audit/audit_input.h"
#include "audit/value_keys.h"
#include "formats/fromsoft/game.h"
#include "io/error.h"

namespace navlab::audit {

using fromsoft::Game;  // Sekiro, EldenRing, Other (formats/fromsoft/game.h)
enum class Kind { Invariant, Statistic, Observed };
enum class Scope { Both, Sekiro, EldenRing };

/// The game of a tagfile from its SDKV (audit-rules.md A6); Other when it has none.
Game game_of_sdk(const std::optional<std::string>& sdk);

/// The tagfile's SDKV: the one recorded beside it, else the model's.
std::optional<std::string> sdk_of(const AuditTagfile& f);

/// One printed exception is a navlab::Finding (io/error.h): file = the binder (empty for a
/// loose tagfile), member = the entry, member_index = its index in the binder (-1 when loose),
/// object = hkaiNavMesh, hkaiDirectedGraphExplicitCost, …; element_kind = tagfile, face, edge,
/// corner, node, tree node, setup, box, vertex, member; element = its index (-1 when none);
/// field = the part of the element ("corner k", "box A/B"); message = what is wrong; severity
/// = error for an INVARIANT rule, else warning. audit_report.h prints it in the rule table.

/// Where an extreme occurs: a text, or the pieces "tagfile element index suffix" kept apart
/// and joined only by str(). Per-element rules replace an extreme thousands of times a run
/// (14.9 k times on the Sekiro preset) and a report prints a few hundred: formatting each
/// place was a string allocation, and each merge copied it again; the pieces copy without
/// one. Copies share the tagfile's name.
class Location {
public:
    Location() = default;
    /// A place given as text ("" when none).
    Location(std::string text) : text_(std::move(text)) {}  // NOLINT: implicit, as the std::string it replaces
    Location(const char* text) : text_(text) {}             // NOLINT: likewise
    /// "tagfile element index" + suffix; the tagfile's name + suffix when index < 0.
    /// @param element, suffix views of static text (literals): they are kept, not copied.
    Location(std::shared_ptr<const std::string> tagfile, std::string_view element, std::int64_t index,
             std::string_view suffix = {})
        : tagfile_(std::move(tagfile)), element_(element), suffix_(suffix), index_(index) {}
    /// The place as reports print it.
    std::string str() const;
    bool empty() const { return tagfile_ ? index_ < 0 && tagfile_->empty() && suffix_.empty() : text_.empty(); }

private:
    std::string text_;                         // when tagfile_ is null
    std::shared_ptr<const std::string> tagfile_;  // the tagfile's name, shared by its places
    std::string_view element_, suffix_;
    std::int64_t index_ = -1;
};

/// A largest (or smallest) value and where it occurs.
struct Extreme {
    double value = 0;
    Location at;
    bool set = false;
    void take(double v, Location where) { value = v, at = std::move(where), set = true; }
    /// Merging only (Values::merge): when `value` is a NaN, which no later value replaces
    /// (`v > NaN` is false), the best later value that is not one. A partial merge of later
    /// tagfiles whose first value was a NaN would otherwise hide their best value from an
    /// earlier, finite one: with it, merging partial merges (OrderedMerge's runs) gives what
    /// merging every tagfile in order gives. Not reported.
    double after_nan = 0;
    Location after_nan_at;
    bool after_nan_set = false;
};

/// Emptied nodes of dropped value sets (Values::clear), taken by the thread's next new values
/// (Values::insert_value): each value was a node allocated and freed per tagfile (11.3 k on the
/// Sekiro preset). At most kSpareNodes are kept, by the thread that clears the set. A Values
/// cleared after that thread's thread-locals are gone (a static, or a thread-local made before
/// them) would touch a destroyed vector: the audit's results are dropped by its workers while
/// they run.
inline std::vector<std::set<std::uint64_t>::node_type>& spare_set_nodes() {
    thread_local std::vector<std::set<std::uint64_t>::node_type> nodes;
    return nodes;
}
inline constexpr std::size_t kSpareNodes = 256;

/// Values as a report gives them: named, in the order of their names.
struct NamedValues {
    std::map<std::string, std::int64_t, std::less<>> counts;
    std::map<std::string, Extreme, std::less<>> maxima;
    std::map<std::string, Extreme, std::less<>> minima;
    std::map<std::string, std::set<std::uint64_t>, std::less<>> sets;
    bool empty() const { return counts.empty() && maxima.empty() && minima.empty() && sets.empty(); }
};

/// Rule-specific figures, merged deterministically: counts add, extremes keep the first
/// strictly larger value in input order (a NaN that comes first stays), sets unite. Keys are
/// interned (value_keys.h): a tagfile's figures sit in flat arrays under key numbers, merged
/// key by key with an integer compare and emptied by dropping the arrays' entries; named()
/// gives the named, ordered form once a merge is finished. With the keys named in ordered maps,
/// merging (two tree steps and a string compare an entry) and emptying them entry by entry
/// were ≈ 16 M instructions on the Sekiro preset (forty-third session).
struct Values {
    KeyedEntries<std::int64_t> counts;
    KeyedEntries<Extreme> maxima;
    KeyedEntries<Extreme> minima;
    KeyedEntries<std::set<std::uint64_t>> sets;

    void count(Key key, std::int64_t n = 1) { counts[key] += n; }
    void maximum(Key key, double v, Location at);
    void minimum(Key key, double v, Location at);
    /// maximum()/minimum() with the location made by `at()` only when `v` becomes the
    /// extreme: per-element rules call these once per face or vertex, and formatting every
    /// location was a tenth of the audit's time.
    template <class At>
    void maximum_at(Key key, double v, At&& at) {
        Extreme& e = maxima[key];
        if (!e.set || v > e.value) e.take(v, at());
    }
    template <class At>
    void minimum_at(Key key, double v, At&& at) {
        Extreme& e = minima[key];
        if (!e.set || v < e.value) e.take(v, at());
    }
    void insert(Key key, std::uint64_t v) { insert_value(sets[key], v); }
    /// set.insert(v), in a spare node when the thread has one (spare_set_nodes).
    static void insert_value(std::set<std::uint64_t>& set, std::uint64_t v) {
        auto& spare = spare_set_nodes();
        if (spare.empty()) {
            set.insert(v);
            return;
        }
        const auto at = set.lower_bound(v);
        if (at != set.end() && *at == v) return;
        std::set<std::uint64_t>::node_type node = std::move(spare.back());
        spare.pop_back();
        node.value() = v;
        set.insert(at, std::move(node));
    }
    void merge(const Values& other);
    bool empty() const { return counts.empty() && maxima.empty() && minima.empty() && sets.empty(); }
    /// Drops every entry, the sets' nodes to the thread's spares. Runs in ~TagfileAudit: the
    /// same rule on the thread's next tagfile refills the arrays' room. Many Values of a result
    /// are empty (half the supplementary counters): that answer inline.
    void clear() noexcept {
        if (!empty()) drop_entries();
    }
    /// The named, ordered form (AuditMerger::finish).
    NamedValues named() const;

private:
    void drop_entries() noexcept;
    /// Moves up to kSpareNodes of `set`'s nodes to the thread's spares (for insert_value);
    /// noexcept: a failed reservation keeps none, so push_back never allocates here.
    static void keep_nodes(std::set<std::uint64_t>& set) noexcept {
        auto& spare = spare_set_nodes();
        if (spare.capacity() < kSpareNodes) {
            try {
                spare.reserve(kSpareNodes);
            } catch (const std::bad_alloc&) {
                return;
            }
        }
        while (!set.empty() && spare.size() < kSpareNodes) spare.push_back(set.extract(set.begin()));
    }
};

/// Values::maximum_at() for a loop over elements: the key's entry is searched at the first
/// value offered, not once per face or corner (those searches were 2–3 % of the audit). Like
/// maximum_at, it creates no entry when no value is offered, and keeps the first strictly
/// larger value.
class MaximumCursor {
public:
    /// @param values outlives the cursor.
    MaximumCursor(Values& values, Key key) : values_(values), key_(key) {}
    template <class At>
    void offer(double v, At&& at) {
        if (place_ == kNone) place_ = values_.maxima.place(key_);
        Extreme& e = values_.maxima.at_place(place_);  // by place: the entries may move as others are added
        if (!e.set || v > e.value) e.take(v, at());
    }

private:
    static constexpr std::size_t kNone = ~std::size_t{0};
    Values& values_;
    Key key_;
    std::size_t place_ = kNone;
};

/// Values::insert() for a loop over elements: the key's set is searched at the first value,
/// and a value already inserted through the cursor and still in its small direct-mapped memo
/// (Elden Ring's faceData takes 18 values, mixed face to face) skips the set's own search,
/// which was 1 % of the audit. Creates no entry when no value is inserted.
class SetCursor {
public:
    /// @param values outlives the cursor.
    SetCursor(Values& values, Key key) : values_(values), key_(key) {}
    void insert(std::uint64_t v) {
        if (v < 256) {  // bytes and small codes (R79's second byte): exact marks, no collisions
            std::uint64_t& word = small_[v >> 6];
            const std::uint64_t bit = std::uint64_t{1} << (v & 63);
            if (word & bit) return;
            word |= bit;
            return add(v);
        }
        const std::size_t slot = static_cast<std::size_t>((v * 0x9E3779B97F4A7C15ull) >> 59);  // 0 … 31
        if (filled_ >> slot & 1 && memo_[slot] == v) return;
        add(v);
        memo_[slot] = v;
        filled_ |= std::uint32_t{1} << slot;
    }

private:
    void add(std::uint64_t v) {
        if (place_ == kNone) place_ = values_.sets.place(key_);
        Values::insert_value(values_.sets.at_place(place_), v);  // by place, as MaximumCursor
    }

    static constexpr std::size_t kNone = ~std::size_t{0};
    Values& values_;
    Key key_;
    std::size_t place_ = kNone;
    std::array<std::uint64_t, 4> small_{};  ///< values 0 … 255 already in the set, one bit each
    std::array<std::uint64_t, 32> memo_{};  ///< larger values already in the set, by hash
    std::uint32_t filled_ = 0;              ///< which memo_ slots hold a value
};

/// Checked/exception counts of one rule over some tagfiles.
struct Tally {
    std::int64_t checked = 0;
    std::int64_t exceptions = 0;
    std::int64_t skipped = 0;
};

/// One rule's result on one tagfile, or merged over many.
struct RuleTally {
    std::array<Tally, 3> by_game{};  ///< indexed by Game
    bool applicable = false;         ///< the rule's scope matched some tagfile
    std::vector<Finding> examples;   ///< first exceptions in input order
    Values values;
    /// Back to a value-initialised tally (the examples' buffer kept).
    void clear() {
        by_game = {};
        applicable = false;
        examples.clear();
        values.clear();
    }
};

/// One rule's result in a report: its tally over every tagfile, the values named.
struct RuleResult {
    std::array<Tally, 3> by_game{};  ///< indexed by Game
    bool applicable = false;         ///< the rule's scope matched some tagfile
    std::vector<Finding> examples;   ///< first exceptions in input order
    NamedValues values;
};

/// The page's figure for one game: cases checked and exceptions; −1 where it gives none.
struct PageFigure {
    std::int64_t checked = -1;
    std::int64_t exceptions = -1;
};

/// The per-game summary rows of audit-rules.md §4.
struct GameSummary {
    std::int64_t binders = 0, tagfiles = 0, faces = 0, edges = 0, user_edges = 0, vertices = 0,
                 empty_meshes = 0, cost_graphs = 0, mediators = 0, tree_nodes = 0, setup_arrays = 0,
                 setups = 0;
    std::set<std::string> sdk;
};

struct Summary {
    GameSummary sekiro, elden_ring;
    std::int64_t other_tagfiles = 0;
    std::set<std::string> other_sdk;
    std::int64_t unreadable = 0;
};

struct RuleDef;

/// The whole audit.
struct AuditReport {
    std::vector<std::string> inputs;
    Summary summary;
    std::vector<RuleResult> rules;  ///< parallel to all_rules()
    std::map<std::string, NamedValues> supplementary;  ///< X01–X13
};

/// X03's figures of one tagfile: how many objects of each class. The names are a list that the
/// thread's tagfiles with the same classes share (the model's order: by name), not interned
/// keys: an interned name stays for the process, so a long process (a Python session) auditing
/// crafted corpora kept every class name it ever saw, and interning ≈ 6 names a tagfile was
/// 1.6 M instructions on the Sekiro preset (forty-fifth session).
struct ClassCounts {
    std::shared_ptr<const std::vector<std::string>> names;  ///< null when there are no counts
    std::vector<std::int64_t> counts;                       ///< parallel to *names
    bool empty() const { return counts.empty(); }
};

/// ClassCounts merged: a total per class name. The places of the last few name lists are kept,
/// so a tagfile whose list was seen adds its counts without a search by name.
class ClassTotals {
public:
    void add(const ClassCounts& c);
    /// Adds what `later` merged (its totals by name).
    void add(const ClassTotals& later);
    bool empty() const { return totals_.empty(); }
    /// The totals added to `counts` (a report's X03 counts).
    void add_to(std::map<std::string, std::int64_t, std::less<>>& counts) const;

private:
    /// A list's places in totals_, kept by its pointer (held, so no other list gets its address).
    struct Seen {
        std::shared_ptr<const std::vector<std::string>> names;
        std::vector<std::size_t> places;
    };
    std::size_t place(std::string_view name);

    std::vector<std::int64_t> totals_;                        ///< by place
    std::map<std::string, std::size_t, std::less<>> places_;  ///< name → place in totals_
    std::array<Seen, 8> seen_;  ///< a few lists: a preset has a few, two threads interleave them
    std::size_t next_seen_ = 0;  ///< the slot of seen_ replaced next
};

/// One rule that ran on a tagfile, as audit_tagfile records it (TagfileAudit::ran).
struct RanRule {
    std::uint16_t rule = 0;  ///< index in all_rules()
    bool extras = false;     ///< its tally holds examples or values
};

/// The audit of one tagfile: everything the merge needs, so the model can be dropped.
struct TagfileAudit {
    TagfileAudit() = default;
    TagfileAudit(const TagfileAudit&) = default;
    TagfileAudit(TagfileAudit&&) = default;
    TagfileAudit& operator=(const TagfileAudit&) = default;
    TagfileAudit& operator=(TagfileAudit&&) = default;
    /// Gives `rules`, emptied, to the thread's next audit_tagfile: a corpus audit makes and
    /// drops one result per tagfile on each thread, and allocating, value-initialising and
    /// freeing the 97 tallies (≈ 30 KB) was ≈ 14,000 instructions a tagfile on the Sekiro
    /// preset (thirty-third session). Only the tallies of the rules `ran` names are emptied
    /// (their Values keep their arrays' room); a result without `ran` is cleared in full.
    ~TagfileAudit();

    std::vector<RuleTally> rules;  ///< parallel to all_rules()
    /// The rules audit_tagfile ran, in table order; empty in a result made otherwise. When not
    /// empty it describes `rules` exactly: a rule that ran counts in by_game[game] alone, one
    /// without extras holds no example and no value, and a rule that did not run has a
    /// value-initialised tally. AuditMerger::add and ~TagfileAudit then touch only what it
    /// names: reading every part of all 97 tallies to merge a tagfile, and writing them to
    /// clear it, cost ≈ 5,400 instructions a tagfile more on the Sekiro preset, where ≈ 20
    /// rules of a tagfile hold extras (thirty-eighth session). Whoever changes the tallies of
    /// such a result empties `ran` (the result then merges and clears in full).
    std::vector<RanRule> ran;
    /// The supplementary counters, at the indices of kSupplementaryIds (audit_supplementary.h);
    /// empty for an unreadable tagfile. Emptied (Values::clear) and given to the thread's next
    /// audit_tagfile by ~TagfileAudit, as `rules` is.
    std::vector<Values> supplementary;
    /// X03's counts (its place in `supplementary` stays empty); given back as it is.
    ClassCounts classes;
    bool readable = false;
    Game game = Game::Other;
    std::optional<std::string> sdk;
    std::string binder;
    GameSummary counts;  ///< this tagfile's contribution to its game's summary
};

/// The rules whose merged report already holds all its examples (AuditMerger::add marks
/// them), shared by the threads of one run. A tagfile audited after a rule is marked is
/// merged after every tagfile merged so far, so the merge would drop its examples of that
/// rule: its audit counts that rule's exceptions without naming them. On the Sekiro preset
/// every tagfile named up to five exceptions of each of four rules (R39, R41, R48, R37),
/// strings and all, for the first tagfile's to be kept.
class ExamplesTaken {
public:
    explicit ExamplesTaken(std::size_t rules) : full_(rules) {}
    /// Whether rule `rule` (index in all_rules()) wants no more examples.
    /// Rule indices past the table's size read as not full.
    bool full(std::size_t rule) const { return rule < full_.size() && full_[rule].load(std::memory_order_relaxed); }
    void mark_full(std::size_t rule) {
        if (rule < full_.size()) full_[rule].store(true, std::memory_order_relaxed);
    }

private:
    // Relaxed: a stale "not full" only names examples that the merge then drops.
    std::vector<std::atomic<bool>> full_;
};

/// Evaluates every rule on one tagfile.
/// @param tagfile      the tagfile and its facts.
/// @param max_examples how many first exceptions to keep per rule.
/// @param taken        when given, the rules it marks full keep no example (the counts and
///                     values are the same).
TagfileAudit audit_tagfile(const AuditTagfile& tagfile, std::size_t max_examples,
                           const ExamplesTaken* taken = nullptr);

/// The merge of per-tagfile results in input order, one at a time, so a corpus run can drop
/// each tagfile's result as soon as it is merged. merge_audit() is add() over a span.
class AuditMerger {
public:
    /// @param max_examples first exceptions kept per rule.
    explicit AuditMerger(std::size_t max_examples);
    /// Adds the next tagfile's result (input order).
    /// @param taken when given, marks each rule whose examples are now complete.
    void add(const TagfileAudit& result, ExamplesTaken* taken = nullptr);
    /// Adds what `later` merged, as if its results were added here one by one: the merge is
    /// associative (counts add, the first examples and extremes in order are kept, sets unite),
    /// so results that finish ahead of the merge point can wait merged (OrderedMerge).
    /// @param taken when given, marks each rule whose examples are now complete.
    void add(const AuditMerger& later, ExamplesTaken* taken = nullptr);
    /// The report; the merger is spent afterwards.
    /// @param inputs the paths given, for the report.
    AuditReport finish(std::vector<std::string> inputs);

private:
    /// Every part of every tally of `rules` (parallel to all_rules()).
    void add_rules(const std::vector<RuleTally>& rules, ExamplesTaken* taken);
    /// The tallies `result.ran` names, and of those only by_game[result.game] and the extras
    /// it marks: what add_rules adds for such a result.
    void add_ran(const TagfileAudit& result, ExamplesTaken* taken);
    /// `from`'s examples (while room is left) and values into `into`, rule `rule`'s tallies;
    /// marks the rule in `taken` once its examples are complete.
    void add_extras(RuleTally& into, const RuleTally& from, std::size_t rule, ExamplesTaken* taken);

    AuditReport report_;  ///< all but the rules until finish()
    /// The rules' tallies merged, their values named only by finish().
    std::vector<RuleTally> rules_;
    /// The supplementary counters merged, by index as TagfileAudit::supplementary: keyed only
    /// by finish(), so a tagfile's counters merge without a search by their ids.
    std::vector<Values> supplementary_;
    ClassTotals classes_;  ///< X03's counts (TagfileAudit::classes)
    std::set<std::string> binders_[2];  ///< Sekiro, Elden Ring binder paths
    std::size_t max_examples_;
};

/// Merges per-tagfile results, given in input order, into a report.
/// @param results      audit_tagfile() of each tagfile, in input order.
/// @param inputs       the paths given, for the report.
/// @param max_examples first exceptions kept per rule.
AuditReport merge_audit(std::span<const TagfileAudit> results, std::vector<std::string> inputs,
                        std::size_t max_examples);

/// Status text of rule `i` in the report: pass, fail, vacuous, reported, not_applicable.
std::string rule_status(const AuditReport& report, std::size_t i);

/// Whether an INVARIANT failed (the exit status is then non-zero).
bool audit_failed(const AuditReport& report);

}  // namespace navlab::audit
