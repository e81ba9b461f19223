// The rule table: one entry per rule R01–R97 of audit-rules.md, each a small function that
// evaluates its statement on one tagfile through a RuleCheck.
#pragma once

#include <array>
#include <span>
#include <string>
#include <vector>

#include "audit/audit.h"
#include "audit/audit_context.h"
#include "havok/tagfile.h"  // kTypeTablesKept

namespace navlab::audit {

/// The recorder a rule writes to for one tagfile.
class RuleCheck {
public:
    RuleCheck(const TagfileContext& ctx, RuleTally& tally, std::size_t max_examples)
        : ctx_(ctx), tally_(tally), game_(static_cast<std::size_t>(ctx.game)), max_(max_examples) {}

    /// One case checked that holds.
    void pass(std::int64_t n = 1) { tally_.by_game[game_].checked += n; }
    /// One case checked that is an exception; keeps it as an example while there is room.
    [[gnu::cold, gnu::noinline]] void fail(const std::string& element, std::int64_t index, const std::string& detail,
              const std::string& sub = {}, const std::string& object = "hkaiNavMesh");
    /// fail() with the example's texts made only while the tagfile's examples have room:
    /// `detail()` (side-effect free) is called, and `element` made a string, only then. A rule
    /// with thousands of exceptions in a tagfile (R37 on Elden Ring) formatted every one
    /// before fail() dropped all but the first few (seventh session).
    template <class Detail>
    void exception(const char* element, std::int64_t index, Detail&& detail) {
        if (tally_.examples.size() < max_) [[unlikely]]
            fail(element, index, detail());
        else
            ++tally_.by_game[game_].checked, ++tally_.by_game[game_].exceptions;
    }
    /// How many more examples this tagfile keeps.
    std::size_t example_room() const { return max_ > tally_.examples.size() ? max_ - tally_.examples.size() : 0; }
    /// n exceptions counted without naming them: for a rule that named the first ones
    /// already and knows that no example is wanted from the rest (example_room() is 0).
    void count_exceptions(std::int64_t n) { tally_.by_game[game_].checked += n, tally_.by_game[game_].exceptions += n; }
    /// A case whose prerequisites do not hold (not counted as checked).
    void skip(std::int64_t n = 1) { tally_.by_game[game_].skipped += n; }
    /// pass() or exception() by `ok`; `detail` is only called on failure. `element` is a
    /// literal made into a string only on failure: rules call check() once per face or edge,
    /// and building the string on every call was most of a passing case's cost.
    template <class Detail>
    void check(bool ok, const char* element, std::int64_t index, Detail&& detail) {
        if (ok) [[likely]]
            pass();
        else
            exception(element, index, detail);
    }
    Values& values() { return tally_.values; }
    const TagfileContext& ctx() const { return ctx_; }

private:
    const TagfileContext& ctx_;
    RuleTally& tally_;
    std::size_t game_;
    std::size_t max_;
};

/// Whether ok(i) holds for every i in [begin, end): the per-element rules' fast path. On a
/// well-formed mesh every element passes, and this loop (no side effect, no counter in memory,
/// no example) lets a rule record all its passes with one RuleCheck::pass(n). Only a tagfile
/// where some element fails is walked one check() at a time, in element order, so the counts
/// and the examples are those of the plain loop.
///
/// ok(i) is asked kAllHoldBlock elements at a time without a branch each (one test a block):
/// the compiler then folds a block's answers without a jump per element, which was most of
/// such a rule's instructions (forty-sixth session). So `ok` must be safe to ask of every i in
/// [begin, end), whatever the answers before it (it reads only element i, in bounds).
inline constexpr std::int64_t kAllHoldBlock = 16;
template <class Ok>
bool all_hold(std::int64_t begin, std::int64_t end, Ok&& ok) {
    std::int64_t i = begin;
    for (; end - i >= kAllHoldBlock; i += kAllHoldBlock) {
        bool all = true;
        for (std::int64_t k = 0; k < kAllHoldBlock; ++k) all &= static_cast<bool>(ok(i + k));
        if (!all) return false;
    }
    for (; i < end; ++i)
        if (!ok(i)) return false;
    return true;
}

using RuleFn = void (*)(RuleCheck&);

struct RuleDef {
    const char* id;
    const char* group;
    Scope scope;
    Kind kind;
    const char* page_tag;
    const char* unit;
    const char* title;
    bool total;  ///< a pure total: exceptions is null (R01, R11, R13, R42, R79)
    PageFigure page_sekiro, page_elden_ring;
    const char* page_text;  ///< the page's figure as printed beside the input's
    RuleFn fn;
};

/// Every rule, in ID order.
std::span<const RuleDef> all_rules();

/// Rules of each group file (audit_rules_*.cpp), appended to `out`.
void add_structure_rules(std::vector<RuleDef>& out);   // R01–R20
void add_topology_rules(std::vector<RuleDef>& out);    // R21–R37
void add_geometry_rules(std::vector<RuleDef>& out);    // R38–R55
void add_graph_tree_rules(std::vector<RuleDef>& out);  // R56–R73
void add_user_edge_rules(std::vector<RuleDef>& out);   // R74–R97

/// One member a record layout must have: name, offset and byte size (0 = size not compared).
struct ExpectedMember {
    std::string_view name;  // a view: RecordInfo::find took a strlen of each name (0.6 M on Sekiro)
    std::uint32_t offset;
    std::uint32_t size;
};

/// Compares a record layout of the file's type table with the page's; "" when equal.
/// @param t the record; @param role its name in messages; @param size expected size (0 = any).
std::string layout_mismatch(const fromsoft::RecordInfo& t, const char* role, std::uint32_t size,
                            std::span<const ExpectedMember> members);

/// One rule's verdicts on one role's layouts, remembered on this thread for the last few
/// layouts asked (a `thread_local` per rule and role). The model reader gives the tagfiles of
/// one type table the same RecordInfo (RecordRef), and a binder's tagfiles share a few tables:
/// comparing each tagfile's member lists with the page's by name was ≈ 8 M instructions on the
/// Sekiro preset (forty-sixth session). A layout is known by its address while a slot holds a
/// share of it (so no other layout can take that address), and a shared layout is never
/// changed (RecordRef::edit() copies it first). That last point holds only while no caller
/// keeps the reference edit() returns across audits: none does (every edit() in src and tests
/// is one expression); a layout changed after an audit read it would get the old verdict.
class LayoutVerdicts {
public:
    /// verdict(*layout), a text that depends on the layout alone; valid until the next call.
    template <class Verdict>
    const std::string& of(const fromsoft::RecordRef& layout, Verdict&& verdict) {
        const fromsoft::RecordInfo* info = &*layout;
        if (slots_[last_].filled && &*slots_[last_].layout == info) return slots_[last_].text;
        for (std::size_t i = 0; i < slots_.size(); ++i)
            if (slots_[i].filled && &*slots_[i].layout == info) return slots_[last_ = i].text;
        std::string text = verdict(*layout);
        Slot& s = slots_[last_ = next_];
        next_ = (next_ + 1) % slots_.size();
        s.text = std::move(text);
        s.layout = layout;  // held: the address stays this layout's
        s.filled = true;
        return s.text;
    }

private:
    struct Slot {
        fromsoft::RecordRef layout;
        std::string text;
        bool filled = false;
    };
    std::array<Slot, havok::kTypeTablesKept> slots_;  ///< as many as the tables the model reader keeps
    std::size_t last_ = 0, next_ = 0;
};

/// A number in short scientific notation as the spec prints it: "9.8e-4".
std::string short_sci(double v);

/// A float as its value and bit pattern: "2.4 (0x40199999)".
std::string float_bits(float f);
/// ULP distance of two float32 values (monotone mapping of their bits).
std::int64_t ulp_distance(float a, float b);

/// Shorthands for the table.
inline constexpr PageFigure kNoPage{};
inline constexpr PageFigure page(std::int64_t checked, std::int64_t exceptions = 0) { return {checked, exceptions}; }

}  // namespace navlab::audit
