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
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "audit/audit_input.h"
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

/// Emptied map nodes of dropped values (Values::clear), taken by the thread's next new entries
/// (and, for std::set<std::uint64_t>, the nodes of a dropped value set, Values::insert_value):
/// each entry was a node allocated and freed per tagfile, and a key longer than the
/// small-string buffer a second one (about 45 entries a Sekiro tagfile). At most kSpareNodes
/// of each map type are kept, by the thread that clears the map. A Values cleared after that
/// thread's thread-locals are gone (a static, or a thread-local made before them) would touch
/// a destroyed vector: the audit's results are dropped by its workers while they run.
template <class Map>
std::vector<typename Map::node_type>& spare_nodes() {
    thread_local std::vector<typename Map::node_type> nodes;
    return nodes;
}
inline constexpr std::size_t kSpareNodes = 256;

/// Rule-specific figures, merged deterministically: counts add, extremes keep the first
/// strictly larger value in input order (a NaN that comes first stays), sets unite. Keys are
/// looked up without making a std::string (transparent comparison): per-element rules update
/// them once per face, and a key longer than the small-string buffer cost an allocation per
/// call.
///
/// An entry may hold no value (holds() is false: a count of kNoCount, an extreme not set, an
/// empty set): reset() leaves the entries so, for the thread's next tagfile to fill in place,
/// and merge() skips them. Only the tallies of an audit_tagfile result reused on its thread
/// hold such entries; a merged Values never does.
struct Values {
    std::map<std::string, std::int64_t, std::less<>> counts;
    std::map<std::string, Extreme, std::less<>> maxima;
    std::map<std::string, Extreme, std::less<>> minima;
    std::map<std::string, std::set<std::uint64_t>, std::less<>> sets;
    /// The count of an entry that holds none (reset()).
    static constexpr std::int64_t kNoCount = std::numeric_limits<std::int64_t>::min();
    static bool holds(std::int64_t n) { return n != kNoCount; }
    static bool holds(const Extreme& e) { return e.set; }
    static bool holds(const std::set<std::uint64_t>& s) { return !s.empty(); }
    /// `n` added to the count `into` (kNoCount: none yet).
    static void add_count(std::int64_t& into, std::int64_t n) { into = (holds(into) ? into : 0) + n; }
    void count(std::string_view key, std::int64_t n = 1) { add_count(slot(counts, key), n); }
    void maximum(std::string_view key, double v, Location at);
    void minimum(std::string_view key, double v, Location at);
    /// maximum()/minimum() with the location made by `at()` only when `v` becomes the
    /// extreme: per-element rules call these once per face or vertex, and formatting every
    /// location was a tenth of the audit's time.
    template <class At>
    void maximum_at(std::string_view key, double v, At&& at) {
        Extreme& e = slot(maxima, key);
        if (!e.set || v > e.value) e.take(v, at());
    }
    template <class At>
    void minimum_at(std::string_view key, double v, At&& at) {
        Extreme& e = slot(minima, key);
        if (!e.set || v < e.value) e.take(v, at());
    }
    void insert(std::string_view key, std::uint64_t v) { insert_value(slot(sets, key), v); }
    /// set.insert(v), in a spare node when the thread has one: each value was a node allocated
    /// and freed per tagfile (11.3 k on the Sekiro preset); clear() keeps a dropped set's nodes.
    static void insert_value(std::set<std::uint64_t>& set, std::uint64_t v) {
        auto& spare = spare_nodes<std::set<std::uint64_t>>();
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
    /// The entry of `key` in `map`, value-initialised when new (operator[] without a std::string),
    /// in a spare node when the thread has one.
    template <class Map>
    static typename Map::mapped_type& slot(Map& map, std::string_view key) {
        return slot_at(map, map.lower_bound(key), key)->second;
    }
    void merge(const Values& other);
    /// Whether no entry holds a value. Asked of each rule's Values after each tagfile, most of
    /// which have no entry: that answer inline, the entries read out of line (none_held).
    bool empty() const { return (counts.empty() && maxima.empty() && minima.empty() && sets.empty()) || none_held(); }
    /// Empties every map, their nodes to the thread's spares (values value-initialised).
    void clear() { recycle(counts), recycle(maxima), recycle(minima), recycle(sets); }
    /// Empties every entry in place, its key and node kept (and a set's nodes to the thread's
    /// spares): the same rule on the thread's next tagfile finds its entries made. Clearing the
    /// maps node by node (a tree rebalance each) and making the entries again was ≈ 270
    /// instructions an entry (thirty-ninth session). A map of more than kKeptEntries is
    /// cleared instead (keys made from the data, such as R23's edge counts, are not kept
    /// without bound).
    void reset() {
        reset_map(counts, [](std::int64_t& n) { n = kNoCount; });
        reset_map(maxima, [](Extreme& e) { e.set = e.after_nan_set = false; });
        reset_map(minima, [](Extreme& e) { e.set = e.after_nan_set = false; });
        reset_map(sets, [](std::set<std::uint64_t>& s) { keep_nodes(s), s.clear(); });
    }
    static constexpr std::size_t kKeptEntries = 64;

private:
    /// Whether no entry holds a value, given that some entry is made (empty()).
    bool none_held() const;
    template <class Map>
    static bool any_held(const Map& map) {
        for (const auto& entry : map)
            if (holds(entry.second)) return true;
        return false;
    }
    template <class Map, class Empty>
    static void reset_map(Map& map, Empty empty) noexcept {
        if (map.size() > kKeptEntries) return recycle(map);
        for (auto& entry : map) empty(entry.second);
    }
    /// slot() given `at`, map.lower_bound(key) or the entry of `key`.
    template <class Map>
    static typename Map::iterator slot_at(Map& map, typename Map::iterator at, std::string_view key) {
        if (at != map.end() && at->first == key) return at;
        auto& spare = spare_nodes<Map>();
        if (spare.empty()) return map.emplace_hint(at, std::string(key), typename Map::mapped_type{});
        typename Map::node_type node = std::move(spare.back());
        spare.pop_back();
        node.key().clear(), node.key().append(key);  // the key's storage reused
        return map.insert(at, std::move(node));
    }
    template <class Map, class Add>
    static void merge_map(Map& into, const Map& from, Add add);
    /// Moves up to kSpareNodes of `set`'s nodes to the thread's spares (for insert_value);
    /// noexcept as recycle is: a failed reservation keeps none.
    static void keep_nodes(std::set<std::uint64_t>& set) noexcept {
        auto& spare = spare_nodes<std::set<std::uint64_t>>();
        if (spare.capacity() < kSpareNodes) {
            try {
                spare.reserve(kSpareNodes);
            } catch (const std::bad_alloc&) {
                return;
            }
        }
        while (!set.empty() && spare.size() < kSpareNodes) spare.push_back(set.extract(set.begin()));
    }
    /// Runs in ~TagfileAudit (noexcept), so the spares' room is reserved first and a failed
    /// reservation only skips the reuse: push_back never allocates here.
    template <class Map>
    static void recycle(Map& map) {
        // Most of a result's 400 or so maps are empty: asked first, before the thread-local
        // (≈ 25 instructions a map, 15 M on the Sekiro preset).
        if (map.empty()) return;
        auto& spare = spare_nodes<Map>();
        if (spare.capacity() < kSpareNodes) {
            try {
                spare.reserve(kSpareNodes);
            } catch (const std::bad_alloc&) {
                map.clear();
                return;
            }
        }
        while (!map.empty() && spare.size() < kSpareNodes) {
            typename Map::node_type node = map.extract(map.begin());
            if constexpr (std::is_same_v<typename Map::mapped_type, std::set<std::uint64_t>>) keep_nodes(node.mapped());
            node.mapped() = {};
            spare.push_back(std::move(node));
        }
        map.clear();
    }
};

/// Values::maximum_at() for a loop over elements: the key's map entry is searched at the first
/// value offered, not once per face or corner (those searches were 2–3 % of the audit). Like
/// maximum_at, it creates no entry when no value is offered, and keeps the first strictly
/// larger value.
class MaximumCursor {
public:
    /// @param values outlives the cursor; @param key must outlive it too (a literal).
    MaximumCursor(Values& values, std::string_view key) : values_(values), key_(key) {}
    template <class At>
    void offer(double v, At&& at) {
        if (!slot_) slot_ = &Values::slot(values_.maxima, key_);  // map nodes never move
        if (!slot_->set || v > slot_->value) slot_->take(v, at());
    }

private:
    Values& values_;
    std::string_view key_;
    Extreme* slot_ = nullptr;
};

/// Values::insert() for a loop over elements: the key's set is searched at the first value,
/// and a value already inserted through the cursor and still in its small direct-mapped memo
/// (Elden Ring's faceData takes 18 values, mixed face to face) skips the set's own search,
/// which was 1 % of the audit. Creates no entry when no value is inserted.
class SetCursor {
public:
    /// @param values outlives the cursor; @param key must outlive it too (a literal).
    SetCursor(Values& values, std::string_view key) : values_(values), key_(key) {}
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
        if (!set_) set_ = &Values::slot(values_.sets, key_);  // map nodes never move
        Values::insert_value(*set_, v);
    }

    Values& values_;
    std::string_view key_;
    std::set<std::uint64_t>* set_ = nullptr;
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
    std::vector<RuleTally> rules;  ///< parallel to all_rules()
    std::map<std::string, Values> supplementary;  ///< X01–X13
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
    /// preset (thirty-third session). The values of the rules `ran` names are emptied in place
    /// (Values::reset); a result without `ran` is cleared in full.
    ~TagfileAudit();

    std::vector<RuleTally> rules;  ///< parallel to all_rules()
    /// The rules audit_tagfile ran, in table order; empty in a result made otherwise. When not
    /// empty it describes `rules` exactly: a rule that ran counts in by_game[game] alone, one
    /// without extras holds no example and no value, and a rule that did not run has a
    /// value-initialised tally but for value entries that hold none (Values::reset, kept from
    /// the thread's earlier tagfiles). AuditMerger::add and ~TagfileAudit then touch only what it
    /// names: reading every part of all 97 tallies to merge a tagfile, and writing them to
    /// clear it, cost ≈ 5,400 instructions a tagfile more on the Sekiro preset, where ≈ 20
    /// rules of a tagfile hold extras (thirty-eighth session). Whoever changes the tallies of
    /// such a result empties `ran` (the result then merges and clears in full).
    std::vector<RanRule> ran;
    /// The supplementary counters, at the indices of kSupplementaryIds (audit_supplementary.h);
    /// empty for an unreadable tagfile. Emptied in place (Values::reset) and given to the
    /// thread's next audit_tagfile by ~TagfileAudit, as `rules` is.
    std::vector<Values> supplementary;
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

    AuditReport report_;
    /// The supplementary counters merged, by index as TagfileAudit::supplementary: keyed only
    /// by finish(), so a tagfile's counters merge without a search by their ids.
    std::vector<Values> supplementary_;
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
