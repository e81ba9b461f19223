#include "audit/ordered_merge.h"

#include <iterator>

#include "audit/audit_rules.h"

namespace navlab::audit {

OrderedMerge::OrderedMerge(std::size_t files, std::size_t max_examples)
    : counts_(files, kUnknown), max_examples_(max_examples), merger_(max_examples), taken_(all_rules().size()) {}

void OrderedMerge::set_count(std::size_t file, std::size_t n) {
    counts_[file] = n;
    advance();
}

OrderedMerge::Key OrderedMerge::past_finished_files(Key key) const {
    while (key.first < counts_.size() && counts_[key.first] != kUnknown && key.second >= counts_[key.first]) {
        ++key.first;
        key.second = 0;
    }
    return key;
}

OrderedMerge::Key OrderedMerge::next(Key key) const { return past_finished_files({key.first, key.second + 1}); }

void OrderedMerge::add(std::size_t file, std::size_t k, const TagfileAudit& result) {
    const Key key{file, k};
    if (key == point_) {
        merger_.add(result, &taken_);
        point_ = next(point_);
        advance();
        return;
    }
    // Join the run that ends right before `key`, or start one; then absorb the run that
    // starts right after it. A run whose neighbour's count was unknown when it ended stays
    // apart: correct, one more partial report until the merge point reaches both.
    auto after = runs_.upper_bound(key);
    Run* run = nullptr;
    if (after != runs_.begin()) {
        Run& before = std::prev(after)->second;
        if (next(before.last) == key) run = &before;
    }
    if (!run) run = &runs_.emplace(key, Run{key, AuditMerger(max_examples_)}).first->second;
    run->merged.add(result);
    run->last = key;
    if (after != runs_.end() && next(key) == after->first) {
        run->merged.add(after->second.merged);
        run->last = after->second.last;
        runs_.erase(after);
    }
}

bool OrderedMerge::may_start(std::size_t file, std::size_t k) const {
    return Key{file, k} <= point_ || runs_.size() <= kMostRuns;
}

void OrderedMerge::advance() {
    for (;;) {
        point_ = past_finished_files(point_);  // a count set since the point moved here
        const auto first = runs_.begin();
        if (first == runs_.end() || first->first != point_) return;
        merger_.add(first->second.merged, &taken_);
        point_ = next(first->second.last);
        runs_.erase(first);
    }
}

AuditReport OrderedMerge::report(std::vector<std::string> inputs) { return merger_.finish(std::move(inputs)); }

}  // namespace navlab::audit
