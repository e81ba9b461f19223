#include "audit/audit_files.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "audit/audit_load.h"
#include "audit/audit_rules.h"
#include "audit/ordered_merge.h"
#include "formats/fromsoft/nav_source.h"
#include "io/error.h"
#include "io/parallel.h"

namespace navlab::audit {
namespace {

/// A file that does not open (or whose audit threw navlab::Error) as one unreadable tagfile: of
/// a binder (R96 too) unless it is a .hkx.
AuditTagfile unreadable_file(const std::string& name, const Error& err) {
    const std::filesystem::path file(name);
    AuditTagfile t;
    const bool binder = !fromsoft::is_nav_file_name(file) || file.extension() != ".hkx";
    t.binder = binder ? name : std::string();
    t.entry = binder ? std::string() : file.filename().string();
    t.starts_with_tag0 = false;
    t.read_error = err.what();
    return t;
}

/// Before it decompresses a binder, a worker frees the arrays it keeps between tagfiles that take
/// at least this much (release_large_kept_storage): sized for the largest tagfile it audited
/// (≈ 2.9 MB on Elden Ring), they were ≈ 0.3× of the largest payload in the two-worker peak.
/// Not all of them: the small ones, regrown by every binder's first tagfiles (on Sekiro every
/// kept array is below this), cost ≈ 4–6 % of Sekiro's audit CPU in refaults when freed too.
/// Elden Ring, two workers, own peak ÷ largest payload: 2.11–2.21× keeping all; 1.82–1.97×
/// from 64 KiB; 1.86–2.08× from 128 KiB; 1.78–1.88× freeing all (docs/audit.md).
constexpr std::size_t kKeptArraysFreedFrom = std::size_t(64) << 10;

/// Tagfile `e` of the file `name` read for the audit (its model owns copies of its arrays, so
/// the file's bytes may go once this returns).
AuditTagfile load_entry(const fromsoft::NavEntry& e, const std::string& name) {
    return load_audit_tagfile(e.bytes, e.in_binder ? name : std::string(), e.name,
                              e.in_binder ? std::optional<std::size_t>(e.index) : std::nullopt, e.in_dcx);
}

/// audit_tagfile, or, if it throws navlab::Error, the result of the same tagfile unreadable,
/// with that message (R02), in the strict read's words ("DCX payload" where its offsets count
/// from one). No rule throws today (the strict read keeps its error as R02's); this keeps one
/// tagfile's result in its place if one ever does, so the results that follow it need not be
/// dropped (they may be merged already: OrderedMerge).
TagfileAudit audit_tagfile_or_error(const AuditTagfile& t, std::size_t max_examples, const ExamplesTaken* taken) {
    try {
        return audit_tagfile(t, max_examples, taken);
    } catch (Error& err) {
        if (t.dcx_payload) err.in("DCX payload");
        AuditTagfile unreadable;  // the same entry (name, index, TAG0, SDK), without its model
        unreadable.binder = t.binder;
        unreadable.entry = t.entry;
        unreadable.entry_index = t.entry_index;
        unreadable.byte_size = t.byte_size;
        unreadable.starts_with_tag0 = t.starts_with_tag0;
        unreadable.dcx_payload = t.dcx_payload;
        unreadable.sdk = sdk_of(t);
        unreadable.read_error = err.what();
        return audit_tagfile(unreadable, max_examples);
    }
}

/// Audits the tagfiles `open()` yields, one after the other, handing each result to `sink` as
/// soon as it is made; `name` is the binder's (or loose tagfile's) name. The file's bytes are
/// dropped right after the last tagfile's model is read, before that tagfile's rules run.
template <class Open, class Sink>
void audit_nav(const std::string& name, Open&& open, std::size_t max_examples, std::uint64_t* tagfile_bytes,
               Sink&& sink) {
    std::unique_ptr<const fromsoft::NavFile> nav;
    try {
        nav = std::make_unique<const fromsoft::NavFile>(open());
    } catch (const Error& err) {
        return sink(audit_tagfile(unreadable_file(name, err), max_examples));
    }
    const std::size_t count = nav->entries().size();
    for (std::size_t k = 0; k < count; ++k) {
        const AuditTagfile t = load_entry(nav->entries()[k], name);
        if (k + 1 == count) nav.reset();
        if (tagfile_bytes) *tagfile_bytes += t.byte_size;
        sink(audit_tagfile_or_error(t, max_examples, nullptr));
    }
}

/// One binder of one source, in input order.
struct Unit {
    const fromsoft::BinderSource* source = nullptr;
    std::size_t index = 0;
    const fromsoft::BinderRef& ref() const { return source->binders()[index]; }
};

/// CPU seconds the calling thread has used (0 when the clock cannot be read).
double thread_cpu_seconds() {
    timespec t{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

/// Lets `nav` go and returns the CPU seconds that took on this thread (its payload's release
/// when this was the last holder).
double release_timed(std::shared_ptr<const fromsoft::NavFile>& nav) {
    const double before = thread_cpu_seconds();
    nav.reset();
    return thread_cpu_seconds() - before;
}

/// The audit of many binders by several workers that share them: the unit of work is a
/// tagfile, not a binder. A binder is decompressed once by the worker that opens it; its
/// payload is then shared (std::shared_ptr) by the workers auditing its tagfiles and goes as
/// soon as its last tagfile's model is read. A free worker takes the next tagfile of the
/// earliest opened binder; only when every opened tagfile is taken does it open the next
/// binder, and only while the payloads held, plus the new one's, stay within the largest
/// binder's size on disk (or when none is held). While another worker decompresses the binder
/// in input order and the next one does not fit, it opens a later binder that fits instead
/// (open_next), whose results wait in the merge. Memory: at most the largest payload's worth
/// of payloads, plus one tagfile's model and context per worker, plus the runs of finished
/// results waiting merged (OrderedMerge: about one per worker; work ahead starts only while
/// at most kMostRuns wait, except the tagfiles of a binder opened ahead). Speed: when each
/// worker audited a binder of its own under the same bound, the largest binders ran alone (the
/// other worker waited for the whole binder) and the last binders left one worker idle; now
/// both audit the large binder, and a worker waits only while another decompresses a binder
/// too large to open beside it with nothing later that fits (and helps decode it when it is
/// DCX_KRAK, whose restart blocks decode apart: board_).
/// All state is under one mutex; workers wait on one condition variable, woken after every
/// change. The merge point's work never waits: it is claimable, and the payloads held when the
/// merge point's binder is next to open all belong to binders whose tagfiles never wait for
/// the merge (earlier ones, or ones opened ahead), so they go and the run always moves on.
class SharedAudit {
public:
    SharedAudit(const std::vector<Unit>& units, const AuditFilesOptions& options, const AuditProgressFn& progress)
        : units_(units), options_(options), progress_(progress), binders_(units.size()),
          merge_(units.size(), options.max_examples) {
        done_.files_total = units.size();
        for (const Unit& u : units) {
            done_.bytes_total += u.ref().size;
            limit_ = std::max(limit_, u.ref().size);
        }
    }

    /// Audits every unit with `threads` workers (0 = one per core).
    AuditRun run(const std::vector<std::string>& inputs) {
        const unsigned workers = options_.threads == 0 ? default_threads() : options_.threads;
        std::vector<std::chrono::steady_clock::time_point> exits(workers);
        parallel_for(workers, workers, [&](std::size_t w) {
            work();
            exits[w] = std::chrono::steady_clock::now();
        });
        // A worker that found nothing left waited for the others to finish too.
        const auto end = std::chrono::steady_clock::now();
        for (const auto& exit : exits) run_.idle_seconds += std::chrono::duration<double>(end - exit).count();
        run_.decode_loops_shared = board_.loops_posted();
        run_.decode_items_helped = board_.items_helped();
        for (const Unit& u : units_) run_.files.push_back(u.ref().name);
        run_.report = merge_.report(inputs);
        return std::move(run_);
    }

private:
    static constexpr std::size_t kUnknown = OrderedMerge::kUnknown;

    /// A binder's state in the run.
    struct Binder {
        std::shared_ptr<const fromsoft::NavFile> nav;  ///< opened, until its last tagfile is taken
        std::size_t count = kUnknown;  ///< tagfiles to audit, once opened (1 when it does not open)
        std::size_t next = 0;          ///< the next tagfile to take
        std::size_t loading = 0;       ///< tagfiles taken whose model is not read yet
        std::size_t running = 0;       ///< opening or tagfiles taken, not finished
        bool holds_budget = false;     ///< its size counts in held_ (from opening to the last model read)
        bool opened = false;           ///< opened or being opened
        bool ahead = false;            ///< opened before an earlier binder (open_next)
    };

    /// What a worker does next.
    struct Task {
        enum Kind { kWait, kDone, kOpen, kTagfile } kind = kWait;
        std::size_t binder = 0, tagfile = 0;
        std::shared_ptr<const fromsoft::NavFile> nav = {};  ///< kTagfile: its binder, until its model is read
    };

    void work() {
        const HelpBoard::Scope helping(&board_);
        try {
            for (;;) {
                Task t;
                {
                    std::unique_lock lock(mutex_);
                    if ((t = take()).kind == Task::kWait && !board_.has_work()) {
                        const auto since = std::chrono::steady_clock::now();
                        changed_.wait(lock, [&] { return (t = take()).kind != Task::kWait || board_.has_work(); });
                        run_.idle_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
                    }
                }
                if (t.kind == Task::kWait) {  // nothing to take, but a worker's decode has blocks left
                    board_.help();
                    continue;
                }
                if (t.kind == Task::kDone) return;
                if (t.kind == Task::kOpen) open(t.binder);
                else audit(std::move(t));
            }
        } catch (...) {
            // Not a file's own error (those are R02 results) but e.g. bad_alloc or a progress
            // callback that threw: the run ends with it, and no worker may wait for this one.
            {
                std::lock_guard lock(mutex_);
                failed_ = true;
            }
            changed_.notify_all();
            throw;
        }
    }

    /// The next task, taken (call with the lock held): kWait when none may start yet.
    Task take() {
        if (failed_) return {Task::kDone};
        for (std::size_t b = first_open_; b < opened_end_; ++b) {
            Binder& w = binders_[b];
            if (w.count == kUnknown) continue;  // being opened, or not opened yet
            if (w.next >= w.count) {
                if (b == first_open_) ++first_open_;
                continue;
            }
            // A binder opened ahead holds budget that the merge point's binder may need: its
            // tagfiles never wait for the merge (it could not move on), and they form few runs.
            if (!w.ahead && !merge_.may_start(b, w.next)) return {Task::kWait};
            Task t{Task::kTagfile, b, w.next++, w.nav};
            ++w.loading;
            ++w.running;
            if (w.next >= w.count) w.nav.reset();  // `t` holds it
            return t;
        }
        if (opened_ < units_.size()) return open_next();
        return {opening_ > 0 ? Task::kWait : Task::kDone};
    }

    /// The next binder to open, in input order; while another worker decompresses the binder in
    /// input order before it and the next one does not fit, a later binder that fits (at most
    /// kOpenAhead places ahead), whose results then wait in the merge (call with the lock
    /// held). Openings ahead do not justify more of them: the merge point waits only for what a
    /// decompression in order already made it wait for. On the eldenring preset 23 neighbouring
    /// pairs of binders do not fit together; waiting for those decompressions was 4 % of a
    /// 2-thread audit's time, and 22 of the 23 have a small binder within three places.
    Task open_next() {
        for (std::size_t b = opened_; b < units_.size() && b <= opened_ + kOpenAhead; ++b) {
            if (binders_[b].opened) continue;
            if (!merge_.may_start(b, 0)) break;
            const std::uint64_t size = units_[b].ref().size;
            if (held_ > 0 && held_ + size > limit_) {
                if (opening_in_order_ == 0) break;  // ahead only while a decompression would be waited for
                continue;
            }
            Binder& w = binders_[b];
            w.ahead = b != opened_;
            run_.binders_opened_ahead += w.ahead;
            held_ += size;
            w.holds_budget = w.opened = true;
            ++w.running;
            ++opening_;
            opening_in_order_ += !w.ahead;
            opened_end_ = std::max(opened_end_, b + 1);
            while (opened_ < units_.size() && binders_[opened_].opened) ++opened_;
            return {Task::kOpen, b};
        }
        return {Task::kWait};
    }

    /// Opens (decompresses) binder `b`; its tagfiles become available to every worker.
    void open(std::size_t b) {
        const Unit& u = units_[b];
        std::shared_ptr<const fromsoft::NavFile> nav;
        std::optional<TagfileAudit> broken;
        const double cpu_before = thread_cpu_seconds();
        std::optional<Error> open_error;
        // Idle while it decompresses, and the other workers' peak meets this binder's payload.
        release_large_kept_storage(kKeptArraysFreedFrom);
        try {
            nav = std::make_shared<const fromsoft::NavFile>(u.source->open_nav(u.index));
        } catch (const Error& err) {
            open_error = err;
        }
        const double open_cpu = thread_cpu_seconds() - cpu_before;
        if (open_error) broken = audit_tagfile(unreadable_file(u.ref().name, *open_error), options_.max_examples);
        std::exception_ptr failed;
        {
            std::lock_guard lock(mutex_);
            run_.open_cpu_seconds += open_cpu;
            Binder& w = binders_[b];
            --opening_;
            opening_in_order_ -= !w.ahead;
            --w.running;
            w.count = broken ? 1 : nav->entries().size();
            merge_.set_count(b, w.count);
            if (broken) {
                w.next = 1;
                merge_.add(b, 0, std::move(*broken));
            } else if (w.count > 0) {
                w.nav = std::move(nav);
            }
            release_budget(w, b);
            failed = finish(w, b);
        }
        changed_.notify_all();
        if (nav) {  // not kept (no tagfile): its payload goes here, outside the lock, timed as an open
            const double release_cpu = release_timed(nav);
            std::lock_guard lock(mutex_);
            run_.open_cpu_seconds += release_cpu;
        }
        if (failed) std::rethrow_exception(failed);
    }

    /// Reads task `t`'s model, lets its binder's payload go, audits it.
    void audit(Task t) {
        const std::string& name = units_[t.binder].ref().name;
        const AuditTagfile model = load_entry(t.nav->entries()[t.tagfile], name);
        // The payload goes here when this was its last holder: only that release is timed (the
        // thread clock is a system call, about 1.4 µs on the VM, too dear for every tagfile).
        // With several workers a release can be missed, when another holder lets go between
        // the count and the reset.
        double release_cpu = 0;
        if (t.nav.use_count() == 1)
            release_cpu = release_timed(t.nav);
        else
            t.nav.reset();
        {
            std::lock_guard lock(mutex_);
            run_.open_cpu_seconds += release_cpu;
            Binder& w = binders_[t.binder];
            --w.loading;
            release_budget(w, t.binder);
        }
        changed_.notify_all();
        TagfileAudit result = audit_tagfile_or_error(model, options_.max_examples, &merge_.taken());
        std::exception_ptr failed;
        {
            std::lock_guard lock(mutex_);
            Binder& w = binders_[t.binder];
            run_.tagfile_bytes += model.byte_size;
            merge_.add(t.binder, t.tagfile, result);
            --w.running;
            failed = finish(w, t.binder);
        }
        changed_.notify_all();
        if (failed) std::rethrow_exception(failed);
    }

    /// Gives binder `b`'s size back to the budget once its payload is gone: every tagfile taken
    /// and every model read (call with the lock held).
    void release_budget(Binder& w, std::size_t b) {
        if (!w.holds_budget || w.next < w.count || w.loading > 0) return;
        held_ -= units_[b].ref().size;
        w.holds_budget = false;
    }

    /// Reports binder `b` done when it is (call with the lock held): the progress callback, under
    /// the lock so calls never overlap. Returns what the callback threw; the caller wakes the
    /// waiting workers before rethrowing it (a worker left asleep would never join).
    std::exception_ptr finish(const Binder& w, std::size_t b) {
        if (w.next < w.count || w.running > 0) return nullptr;
        ++done_.files_done;
        done_.bytes_done += units_[b].ref().size;
        if (!progress_) return nullptr;
        try {
            const HelpBoard::Scope none(nullptr);  // under mutex_: a loop in it must not post (wake_ locks it)
            progress_(done_);
        } catch (...) {
            failed_ = true;
            return std::current_exception();
        }
        return nullptr;
    }

    const std::vector<Unit>& units_;
    const AuditFilesOptions& options_;
    const AuditProgressFn& progress_;

    std::mutex mutex_;
    std::condition_variable changed_;  ///< any of the state below changed, or board_ has work
    /// A worker opening a DCX_KRAK binder posts its restart blocks here; a worker with nothing
    /// to take decodes some of them instead of waiting (the largest binders open alone).
    HelpBoard board_{[this] {
        { const std::lock_guard lock(mutex_); }  // a waiter is in its predicate or asleep, not between
        changed_.notify_all();
    }};
    std::vector<Binder> binders_;
    OrderedMerge merge_;
    /// Binders looked at beyond the next one in input order when it does not fit.
    static constexpr std::size_t kOpenAhead = 8;
    std::size_t opened_ = 0;      ///< every binder before it is opened or being opened
    std::size_t opened_end_ = 0;  ///< one past the last binder opened or being opened
    std::size_t first_open_ = 0;  ///< every binder before it has all its tagfiles taken
    std::size_t opening_ = 0;     ///< binders being opened
    std::size_t opening_in_order_ = 0;  ///< of those, the ones opened in input order
    std::uint64_t held_ = 0;      ///< on-disk sizes of the binders whose payload is held
    std::uint64_t limit_ = 0;     ///< the largest binder's size on disk
    bool failed_ = false;         ///< a worker threw: the others stop
    AuditProgress done_;
    AuditRun run_;
};

AuditRun audit_units(const std::vector<Unit>& units, const std::vector<std::string>& inputs,
                     const AuditFilesOptions& options, const AuditProgressFn& progress) {
    return SharedAudit(units, options, progress).run(inputs);
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
