// OrderedMerge: results finished in any order (and file counts learnt late) merge into the
// report that merging them one by one in input order gives; results finished ahead of the
// merge point wait as runs, one per gap, however many they are.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "audit/audit_report.h"
#include "audit/audit_rules.h"
#include "audit/audit_supplementary.h"
#include "audit/ordered_merge.h"

using namespace navlab;
using navlab::audit::OrderedMerge;
using navlab::audit::TagfileAudit;

namespace {

/// Tagfiles per file: an empty binder, a binder that did not open (one result), large and
/// small ones, an empty one last.
const std::vector<std::size_t> kCounts = {3, 0, 1, 7, 2, 0, 0, 5, 1, 4, 0};

/// A result whose every merged part tells which tagfile it came from: examples named by a
/// running index, maxima and minima that tie across tagfiles (the first must be kept), sets,
/// counts, the summary, SDKs and binders, unreadable and other-SDK tagfiles.
TagfileAudit result(std::size_t file, std::size_t k, int serial) {
    TagfileAudit r;
    r.rules.resize(audit::all_rules().size());
    r.readable = serial % 7 != 3;
    r.game = serial % 5 == 4 ? fromsoft::Game::Other : (file % 2 ? fromsoft::Game::Sekiro : fromsoft::Game::EldenRing);
    r.sdk = "sdk " + std::to_string(serial % 3);
    r.binder = "binder " + std::to_string(file);
    r.counts.tagfiles = 1;
    r.counts.faces = serial * 10 + 1;
    r.counts.edges = serial * 30;
    r.counts.sdk.insert(*r.sdk);
    for (std::size_t i = 0; i < r.rules.size(); i += 1 + serial % 4) {
        audit::RuleTally& t = r.rules[i];
        t.applicable = true;
        t.by_game[static_cast<int>(r.game)].checked = serial + 2;
        t.by_game[static_cast<int>(r.game)].exceptions = serial % 3;
        for (int e = 0; e < serial % 3; ++e) {
            Finding x;
            x.file = r.binder;
            x.member_index = serial * 10 + e;
            x.message = "example " + std::to_string(serial) + "." + std::to_string(e);
            t.examples.push_back(x);
        }
        t.values.count(audit::Key::intern("n"), serial);
        t.values.maximum(audit::Key::intern("tie"), serial % 4, "tagfile " + std::to_string(serial));
        t.values.minimum(audit::Key::intern("low"), -(serial % 5), "tagfile " + std::to_string(serial));
        t.values.insert(audit::Key::intern("set"), static_cast<std::uint64_t>(serial % 11));
        // A tagfile whose extreme is a NaN (its first value was one): the merge in order keeps
        // a NaN that comes first and ignores one that comes later.
        const double nan = std::numeric_limits<double>::quiet_NaN();
        t.values.maximum(audit::Key::intern("nan"), serial % 6 == 1 ? nan : serial % 5, "tagfile " + std::to_string(serial));
        t.values.minimum(audit::Key::intern("nan"), serial % 6 == 2 ? nan : -(serial % 7), "tagfile " + std::to_string(serial));
    }
    r.supplementary.resize(audit::kSupplementaryIds.size());  // X01, X02, …
    r.supplementary[0].count(audit::Key::intern("tagfiles"));
    r.supplementary[1].maximum("faces", serial % 6, "tagfile " + std::to_string(serial));
    return r;
}

struct Item {
    std::size_t file, k;
    int serial;
};

std::vector<Item> items() {
    std::vector<Item> out;
    int serial = 0;
    for (std::size_t f = 0; f < kCounts.size(); ++f)
        for (std::size_t k = 0; k < kCounts[f]; ++k) out.push_back({f, k, serial++});
    return out;
}

/// The report of every result merged one by one in input order (audit::merge_audit).
std::string in_order_json(std::size_t max_examples) {
    std::vector<TagfileAudit> results;
    for (const Item& it : items()) results.push_back(result(it.file, it.k, it.serial));
    return audit::audit_json(audit::merge_audit(results, {"in"}, max_examples)).dump();
}

/// The report of the results added in `order`; each file's count is set just before its first
/// result, or, where `counts_first`, all at the start (so runs may link across files).
std::string ordered_merge_json(const std::vector<Item>& order, std::size_t max_examples, bool counts_first) {
    OrderedMerge merge(kCounts.size(), max_examples);
    std::vector<bool> counted(kCounts.size(), false);
    auto count = [&](std::size_t f) {
        if (!counted[f]) merge.set_count(f, kCounts[f]);
        counted[f] = true;
    };
    if (counts_first)
        for (std::size_t f = 0; f < kCounts.size(); ++f) count(f);
    for (const Item& it : order) {
        count(it.file);
        merge.add(it.file, it.k, result(it.file, it.k, it.serial));
    }
    for (std::size_t f = 0; f < kCounts.size(); ++f) count(f);  // files without results
    EXPECT_EQ(merge.waiting_runs(), 0u);
    return audit::audit_json(merge.report({"in"})).dump();
}

}  // namespace

TEST(OrderedMerge, AnyFinishingOrderGivesTheInOrderReport) {
    std::mt19937 rng(20261203);
    for (std::size_t max_examples : {0u, 1u, 2u, 50u}) {
        SCOPED_TRACE(max_examples);
        const std::string expected = in_order_json(max_examples);
        std::vector<Item> order = items();
        EXPECT_EQ(ordered_merge_json(order, max_examples, false), expected);
        std::reverse(order.begin(), order.end());
        EXPECT_EQ(ordered_merge_json(order, max_examples, true), expected);
        for (int trial = 0; trial < 40; ++trial) {
            std::shuffle(order.begin(), order.end(), rng);
            ASSERT_EQ(ordered_merge_json(order, max_examples, trial % 2 == 0), expected) << "trial " << trial;
        }
    }
}

TEST(OrderedMerge, TheFirstExamplesAreThoseOfTheFirstTagfilesWhateverFinishedFirst) {
    // Independent of merge_audit: rule 0's first 4 examples are those of the first tagfiles in
    // input order with examples of it, counted here by hand.
    std::vector<std::int64_t> expected;
    for (const Item& it : items()) {
        const TagfileAudit r = result(it.file, it.k, it.serial);
        for (const Finding& x : r.rules[0].examples)
            if (expected.size() < 4) expected.push_back(x.member_index);
    }
    ASSERT_EQ(expected.size(), 4u);
    std::vector<Item> order = items();
    std::reverse(order.begin(), order.end());
    OrderedMerge merge(kCounts.size(), 4);
    for (std::size_t f = 0; f < kCounts.size(); ++f) merge.set_count(f, kCounts[f]);
    for (const Item& it : order) merge.add(it.file, it.k, result(it.file, it.k, it.serial));
    const audit::AuditReport report = merge.report({"in"});
    std::vector<std::int64_t> got;
    for (const Finding& x : report.rules[0].examples) got.push_back(x.member_index);
    EXPECT_EQ(got, expected);
}

TEST(OrderedMerge, ResultsAheadOfOneSlowTagfileWaitAsOneRun) {
    // One worker holds the first tagfile while the others finish everything after it, across
    // files: they wait as one run (one result waiting each held ≈ 40 KB before), and work
    // ahead may always start.
    OrderedMerge merge(kCounts.size(), 5);
    for (std::size_t f = 0; f < kCounts.size(); ++f) merge.set_count(f, kCounts[f]);
    const std::vector<Item> all = items();
    // In descending order, each result closes the gap before the run after it: still one run.
    for (std::size_t i = all.size() - 1; i >= 1; --i) {
        ASSERT_TRUE(merge.may_start(all[i].file, all[i].k));
        merge.add(all[i].file, all[i].k, result(all[i].file, all[i].k, all[i].serial));
        EXPECT_EQ(merge.waiting_runs(), 1u) << "after result " << i;
    }
    // Nothing is merged yet, so no rule's examples are complete (waiting runs must not mark
    // them: tagfiles audited meanwhile would drop examples the report needs).
    for (std::size_t r = 0; r < audit::all_rules().size(); ++r) EXPECT_FALSE(merge.taken().full(r)) << r;
    merge.add(all[0].file, all[0].k, result(all[0].file, all[0].k, all[0].serial));
    EXPECT_EQ(merge.waiting_runs(), 0u);
    EXPECT_TRUE(merge.taken().full(0));  // rule 0 has more than 5 examples in all
}

TEST(OrderedMerge, WorkAheadWaitsOnlyWhenManyGapsAre) {
    // Every other result finished: each is a run of its own, and past kMostRuns of them only
    // the merge point's work may start.
    const std::size_t files = 2 * OrderedMerge::kMostRuns + 8;
    OrderedMerge merge(files, 5);
    for (std::size_t f = 0; f < files; ++f) merge.set_count(f, 1);
    std::size_t f = 1;
    for (; merge.waiting_runs() <= OrderedMerge::kMostRuns; f += 2) {
        ASSERT_TRUE(merge.may_start(f, 0));
        merge.add(f, 0, result(f, 0, static_cast<int>(f)));
    }
    EXPECT_EQ(merge.waiting_runs(), OrderedMerge::kMostRuns + 1);
    EXPECT_FALSE(merge.may_start(f, 0));
    EXPECT_TRUE(merge.may_start(0, 0));
    merge.add(0, 0, result(0, 0, 0));  // the merge point merges the first run too
    EXPECT_EQ(merge.waiting_runs(), OrderedMerge::kMostRuns);
    EXPECT_TRUE(merge.may_start(f, 0));
}
