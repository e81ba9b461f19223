// OrderedMerge — merges per-tagfile audit results in input order (binder by binder, tagfiles in
// binder order) while workers finish them in any order, so the report is the same whatever
// the thread count.
//
// A result at the merge point is merged at once. A result ahead of it joins the run of
// finished results it extends: results that follow each other wait merged into one partial
// AuditMerger (the merge is associative), not one by one. With 2 threads on the Sekiro preset
// one worker often audits a large tagfile at the merge point while the other finishes the
// small ones after it; each waiting result held ≈ 40 KB (97 tallies), so their number had to
// be capped (32), and the worker ahead then waited 12 % of its time. A run holds one partial
// report however many results it merged: what waits is bounded by the number of gaps in the
// finished results (about one per worker), not by how far ahead the workers are.
#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "audit/audit.h"

namespace navlab::audit {

class OrderedMerge {
public:
    /// A file whose tagfile count is not known yet (its binder is not opened).
    static constexpr std::size_t kUnknown = std::numeric_limits<std::size_t>::max();
    /// Runs that may wait before work ahead of the merge point may start (may_start()).
    static constexpr std::size_t kMostRuns = 32;

    /// @param files        files (binders or loose tagfiles) in input order.
    /// @param max_examples first exceptions kept per rule.
    OrderedMerge(std::size_t files, std::size_t max_examples);

    /// File `file` has `n` results (its tagfiles; 1 for a file that does not open). Set once,
    /// before any of its results is added.
    void set_count(std::size_t file, std::size_t n);
    /// Result `k` of file `file`, once (k below its count).
    void add(std::size_t file, std::size_t k, const TagfileAudit& result);
    /// True when result `k` of file `file` may be started: it is at or before the merge
    /// point, or few runs wait. The merge point's work never waits, so the merge point always
    /// moves on.
    bool may_start(std::size_t file, std::size_t k) const;
    /// Runs of finished results waiting for the merge point.
    std::size_t waiting_runs() const { return runs_.size(); }
    /// The report, once every result is added; the merge is spent afterwards.
    AuditReport report(std::vector<std::string> inputs);
    /// The rules whose examples the merged results already complete (read by any thread).
    const ExamplesTaken& taken() const { return taken_; }

private:
    using Key = std::pair<std::size_t, std::size_t>;  ///< (file, result)

    /// Finished results from `first` (the map's key) to `last`, merged.
    struct Run {
        Key last;
        AuditMerger merged;
    };

    /// `key`, or the first key of the next file with results when its file has none left (files
    /// whose count is known to be 0 are skipped; an unknown count stops there).
    Key past_finished_files(Key key) const;
    /// The key after `key`: the next result of its file, else past_finished_files.
    Key next(Key key) const;
    /// Moves the merge point past finished files and through the runs waiting at it.
    void advance();

    std::vector<std::size_t> counts_;  ///< results per file; kUnknown until set_count
    /// Runs by first key. Touching runs are one, except across a file whose count was unknown
    /// when they met.
    std::map<Key, Run> runs_;
    Key point_{0, 0};                  ///< the merge point: every result before it is merged
    std::size_t max_examples_;
    AuditMerger merger_;
    ExamplesTaken taken_;
};

}  // namespace navlab::audit
