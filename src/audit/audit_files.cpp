#include "audit/audit_files.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <memory>
#include <optional>

#include "audit/audit_load.h"
#include "formats/fromsoft/nav_source.h"
#include "io/error.h"
#include "io/parallel.h"

namespace navlab::audit {
namespace {

/// Audits the tagfiles `open()` yields, handing each result to `sink` as soon as it is made;
/// `name` is the binder's (or loose tagfile's) name. The file's bytes (the decompressed
/// binder) are dropped right after the last tagfile's model is read (the model owns copies of
/// its arrays), before that tagfile's rules run.
template <class Open, class Sink>
void audit_nav(const std::string& name, Open&& open, std::size_t max_examples, std::uint64_t* tagfile_bytes,
               Sink&& sink) {
    try {
        auto nav = std::make_unique<const fromsoft::NavFile>(open());
        const std::size_t count = nav->entries().size();
        for (std::size_t k = 0; k < count; ++k) {
            const fromsoft::NavEntry& e = nav->entries()[k];
            const AuditTagfile t = load_audit_tagfile(e.bytes, e.in_binder ? name : std::string(), e.name,
                                                      e.in_binder ? std::optional<std::size_t>(e.index) : std::nullopt);
            if (k + 1 == count) nav.reset();  // `e` dangles from here on
            if (tagfile_bytes) *tagfile_bytes += t.byte_size;
            sink(audit_tagfile(t, max_examples));
        }
    } catch (const Error& err) {
        // The file as a whole is one unreadable tagfile: a binder (R96 too) unless it is a .hkx.
        const std::filesystem::path file(name);
        AuditTagfile t;
        const bool binder = !fromsoft::is_nav_file_name(file) || file.extension() != ".hkx";
        t.binder = binder ? name : std::string();
        t.entry = binder ? std::string() : file.filename().string();
        t.starts_with_tag0 = false;
        t.read_error = err.what();
        sink(audit_tagfile(t, max_examples));
    }
}

/// Bounds the binders audited at once by several workers: a worker opens a binder only when the
/// on-disk sizes of the binders still being audited, plus its own, stay within `limit` (the
/// largest binder's), or when no other binder is being audited (so a binder larger than the
/// limit still runs, alone). A binder counts until its last tagfile's rules ran, not only while
/// its bytes are held: a tagfile's model and context come to about half of its binder's bytes
/// on the eldenring preset. Two large binders audited side by side would hold two decompressed
/// payloads, two models and two contexts: 2.1× the largest binder on the Sekiro preset with 2
/// threads, against 1.35× with one. Small binders still run side by side. The size on disk
/// stands in for the decompressed size, which is known only after decoding (one compressor per
/// corpus, so the two are nearly proportional).
class BinderBudget {
public:
    explicit BinderBudget(std::uint64_t limit) : limit_(limit) {}

    /// Holds `bytes` of the budget from construction (waiting for room) to destruction.
    class Share {
    public:
        Share(BinderBudget& budget, std::uint64_t bytes) : budget_(budget), bytes_(bytes) { budget_.acquire(bytes_); }
        ~Share() { budget_.release(bytes_); }
        Share(const Share&) = delete;
        Share& operator=(const Share&) = delete;

    private:
        BinderBudget& budget_;
        std::uint64_t bytes_;
    };

private:
    void acquire(std::uint64_t bytes) {
        std::unique_lock lock(mutex_);
        room_.wait(lock, [&] { return held_ == 0 || held_ + bytes <= limit_; });
        held_ += bytes;
    }
    void release(std::uint64_t bytes) {
        {
            std::lock_guard lock(mutex_);
            held_ -= bytes;
        }
        room_.notify_all();
    }

    std::mutex mutex_;
    std::condition_variable room_;
    std::uint64_t held_ = 0;
    std::uint64_t limit_;
};

/// Merges files' results in input order while workers finish them in any order. The file at
/// the merge point merges each tagfile's result as it comes; a file ahead of it keeps its
/// results until every file before it is merged. Memory holds only the results of files ahead
/// of the merge point: a whole binder's tagfile results (97 tallies each) were held until the
/// binder was done, up to a third of the audit's peak on the Sekiro preset.
class OrderedMerge {
public:
    OrderedMerge(std::size_t files, std::size_t max_examples)
        : pending_(files), finished_(files, false), merger_(max_examples) {}

    /// The next tagfile result of file `i` (in the file's order). Call with the lock held.
    void add(std::size_t i, TagfileAudit&& r) {
        if (i == next_) {
            merger_.add(r);
        } else {
            pending_[i].push_back(std::move(r));
            ++pending_count_;
        }
    }
    /// File `i` has no more results. Call with the lock held.
    void finish(std::size_t i) {
        finished_[i] = true;
        const std::size_t from = next_;
        while (next_ < finished_.size() && finished_[next_]) ++next_;
        // Files passed, then the new merge point's results so far, in order; add() merges the
        // merge point's later results directly.
        for (std::size_t k = from; k <= next_ && k < pending_.size(); ++k) {
            for (const TagfileAudit& r : pending_[k]) merger_.add(r);
            pending_count_ -= pending_[k].size();
            std::vector<TagfileAudit>().swap(pending_[k]);
        }
    }
    AuditReport report(const std::vector<std::string>& inputs) { return merger_.finish(inputs); }
    /// True when file `i` may start (call with the lock held): it is at the merge point, or
    /// the results waiting for the merge point are few. A result is ≈ 40 KB (97 tallies, first
    /// examples); with 2 threads, one worker on the Sekiro preset's largest binder while the
    /// other went on through all the small ones left 774 results waiting: 31 MB, 2.3× the
    /// largest binder on top of the audit itself. The worker at the merge point never waits,
    /// so the merge point always moves on.
    bool may_start(std::size_t i) const { return i <= next_ || pending_count_ <= kMostWaitingResults; }

    /// Results that may wait for the merge point before a file ahead of it may start (a
    /// binder started may add all its tagfiles' results above this).
    static constexpr std::size_t kMostWaitingResults = 32;

private:
    std::vector<std::vector<TagfileAudit>> pending_;
    std::vector<bool> finished_;
    std::size_t next_ = 0;  ///< the merge point: every file before it is merged
    std::size_t pending_count_ = 0;  ///< results in pending_
    AuditMerger merger_;
};

/// One binder of one source, in input order.
struct Unit {
    const fromsoft::BinderSource* source = nullptr;
    std::size_t index = 0;
    const fromsoft::BinderRef& ref() const { return source->binders()[index]; }
};

AuditRun audit_units(const std::vector<Unit>& units, const std::vector<std::string>& inputs,
                     const AuditFilesOptions& options, const AuditProgressFn& progress) {
    AuditRun run;
    AuditProgress done;
    done.files_total = units.size();
    for (const Unit& u : units) {
        run.files.push_back(u.ref().name);
        done.bytes_total += u.ref().size;
    }
    OrderedMerge merge(units.size(), options.max_examples);
    std::uint64_t largest = 0;
    for (const Unit& u : units) largest = std::max(largest, u.ref().size);
    BinderBudget budget(largest);
    std::mutex mutex;
    std::condition_variable merged;  // the merge point moved
    parallel_for(units.size(), options.threads, [&](std::size_t i) {
        std::uint64_t bytes = 0;
        const Unit& u = units[i];
        {
            // Before the budget: a worker waiting here holds no share the merge point's needs.
            std::unique_lock lock(mutex);
            merged.wait(lock, [&] { return merge.may_start(i); });
        }
        try {
            const BinderBudget::Share share(budget, u.ref().size);
            audit_nav(
                u.ref().name, [&] { return u.source->open_nav(u.index); }, options.max_examples, &bytes,
                [&](TagfileAudit&& r) {
                    std::lock_guard lock(mutex);
                    merge.add(i, std::move(r));
                });
        } catch (...) {
            // Not a file's own error (those are R02 results) but e.g. bad_alloc: the run ends
            // with it; move the merge point on so no worker waits for this file forever.
            {
                std::lock_guard lock(mutex);
                merge.finish(i);
            }
            merged.notify_all();
            throw;
        }
        std::exception_ptr progress_failed;
        {
            std::lock_guard lock(mutex);
            merge.finish(i);
            run.tagfile_bytes += bytes;
            ++done.files_done;
            done.bytes_done += u.ref().size;
            // Under the lock so calls never overlap. A callback that throws (a cancel button)
            // ends the run, but only after the waiting workers are woken: skipping the
            // notify left a worker asleep on may_start forever and parallel_for never joined.
            if (progress) {
                try {
                    progress(done);
                } catch (...) {
                    progress_failed = std::current_exception();
                }
            }
        }
        merged.notify_all();
        if (progress_failed) std::rethrow_exception(progress_failed);
    });
    run.report = merge.report(inputs);
    return run;
}

std::vector<Unit> units_of(const fromsoft::BinderSource& source) {
    std::vector<Unit> units;
    for (std::size_t i = 0; i < source.binders().size(); ++i) units.push_back({&source, i});
    return units;
}

}  // namespace

std::vector<TagfileAudit> audit_file(const std::filesystem::path& file, std::size_t max_examples,
                                     std::uint64_t* tagfile_bytes) {
    std::vector<TagfileAudit> out;
    audit_nav(file.string(), [&] { return fromsoft::NavFile::open(file); }, max_examples, tagfile_bytes,
              [&](TagfileAudit&& r) { out.push_back(std::move(r)); });
    return out;
}

AuditRun audit_files(const std::vector<std::string>& paths, const AuditFilesOptions& options,
                     const AuditProgressFn& progress) {
    // With several paths, each --map must be in one of them (not in all): each source keeps
    // the selectors it holds.
    fromsoft::SourceOptions open = options.source;
    open.maps.clear();
    std::vector<fromsoft::BinderSource> sources;
    for (const auto& p : paths) sources.push_back(fromsoft::BinderSource::open(p, open));
    std::vector<bool> keep(sources.size(), options.source.maps.empty());
    for (const std::string& map : options.source.maps) {
        bool found = false;
        for (std::size_t s = 0; s < sources.size(); ++s)
            if (sources[s].holds(map)) keep[s] = found = true;
        if (!found) sources.front().select({map});  // throws "map X is not in PATH (...)"
    }
    std::vector<Unit> units;
    for (std::size_t s = 0; s < sources.size(); ++s) {
        if (!keep[s]) continue;
        if (!options.source.maps.empty()) {
            std::vector<std::string> held;
            for (const std::string& map : options.source.maps)
                if (sources[s].holds(map)) held.push_back(map);
            sources[s].select(held);
        }
        for (const Unit& u : units_of(sources[s])) units.push_back(u);
    }
    return audit_units(units, paths, options, progress);
}

AuditRun audit_source(const fromsoft::BinderSource& source, const AuditFilesOptions& options,
                      const AuditProgressFn& progress) {
    return audit_units(units_of(source), {source.origin()}, options, progress);
}

}  // namespace navlab::audit
