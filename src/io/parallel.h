// parallel_for — runs fn(i) for i in [0, n) on up to `threads` threads. Results must be
// stored by index so output is identical whatever the thread count; the first exception
// thrown by any fn is rethrown after all threads have stopped.
//
// Nested loops share the outer loop's threads instead of multiplying them: inside fn, a
// parallel_for gets at most the threads the outer loop asked for and did not start (one
// when every asked thread runs an item). So `--threads 1` means one thread all the way
// down (a DCX_KRAK binder opened by a one-thread audit decodes its blocks on that thread),
// and N workers each opening a binder do not start N × cores decoder threads.
//
// A loop whose threads sometimes wait for one another (the audit's workers, while one of them
// decompresses a binder too large to open beside another) can lend the waiting ones to the
// busy one's nested loops: a HelpBoard. A nested parallel_for that asked for more than one
// thread (or 0) and was left one, on a thread that has a board, posts its items there; idle
// threads of the outer loop call help() and run some of them. The output is the same (items are still stored by index).
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace navlab {

/// Number of worker threads to use by default: the hardware concurrency, at least 1.
inline unsigned default_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

namespace detail {
/// The most threads a parallel_for on this thread may use (0 = no limit: not inside one).
inline thread_local unsigned nested_thread_limit = 0;

/// Sets this thread's limit for its scope, restoring the one before.
class NestedThreadLimit {
public:
    explicit NestedThreadLimit(unsigned limit) : saved_(nested_thread_limit) { nested_thread_limit = limit; }
    ~NestedThreadLimit() { nested_thread_limit = saved_; }
    NestedThreadLimit(const NestedThreadLimit&) = delete;
    NestedThreadLimit& operator=(const NestedThreadLimit&) = delete;

private:
    unsigned saved_;
};

/// Items [0, n) taken one at a time by any number of threads; the first exception an item
/// throws is kept and stops the taking (items already taken still finish).
class Items {
public:
    explicit Items(std::size_t n) : n_(n) {}
    /// Takes and runs items until none is left, with `limit` for the loops inside fn;
    /// returns how many this thread took.
    template <class Fn>
    std::size_t run(Fn& fn, unsigned limit) {
        const NestedThreadLimit nested(limit);
        std::size_t taken = 0;
        for (std::size_t i; (i = next_.fetch_add(1)) < n_; ++taken) {
            try {
                fn(i);
            } catch (...) {
                std::lock_guard lock(error_mutex_);
                if (!error_) error_ = std::current_exception();
                next_.store(n_);
            }
        }
        return taken;
    }
    bool left() const { return next_.load(std::memory_order_relaxed) < n_; }
    /// Rethrows the first exception, once every thread has stopped running items.
    void rethrow() const {
        if (error_) std::rethrow_exception(error_);
    }

private:
    const std::size_t n_;
    std::atomic<std::size_t> next_{0};
    std::mutex error_mutex_;
    std::exception_ptr error_;
};
}  // namespace detail

/// Nested loops posted by busy threads, for idle threads of the same outer loop to help with.
/// One board per outer loop; its threads point at it with HelpBoard::Scope.
class HelpBoard {
public:
    /// @param wake called (no lock of the board held) after a loop is posted: wakes the idle
    ///             threads, which then find has_work() true. It must take the lock their wait
    ///             predicate holds, so the post cannot fall between a predicate and its wait.
    explicit HelpBoard(std::function<void()> wake = {}) : wake_(std::move(wake)) {}
    HelpBoard(const HelpBoard&) = delete;
    HelpBoard& operator=(const HelpBoard&) = delete;

    /// Whether a posted loop has items nobody took yet.
    bool has_work() const {
        std::lock_guard lock(mutex_);
        return first_with_items() != nullptr;
    }
    /// Runs items of posted loops until none is left untaken; returns whether it ran any.
    /// Call it from a thread that would otherwise wait.
    bool help() {
        bool ran = false;
        for (Loop* l; (l = join()) != nullptr; ran = true) {
            const std::size_t taken = l->items.run(l->fn, 1);
            std::lock_guard lock(mutex_);
            items_helped_ += taken;
            --l->helpers;
            if (l->helpers == 0) l->left.notify_all();
        }
        return ran;
    }

    /// Loops posted so far, and the items of them that threads other than their poster ran.
    std::size_t loops_posted() const {
        std::lock_guard lock(mutex_);
        return loops_posted_;
    }
    std::size_t items_helped() const {
        std::lock_guard lock(mutex_);
        return items_helped_;
    }

    /// Points this thread's nested loops at `board` for its scope (nullptr: none).
    class Scope {
    public:
        explicit Scope(HelpBoard* board) : saved_(current()) { current() = board; }
        ~Scope() { current() = saved_; }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        HelpBoard* saved_;
    };
    /// The board of this thread's outer loop, or nullptr.
    static HelpBoard*& current() {
        thread_local HelpBoard* board = nullptr;
        return board;
    }

    /// Runs fn(i) for i in [0, n) on this thread and on any helper; returns once every item
    /// is done; rethrows the first exception (items after it are skipped).
    template <class Fn>
    void run(std::size_t n, Fn& fn) {
        Loop l(n, [&fn](std::size_t i) { fn(i); });
        {
            const Posted posted(*this, l);  // un-posts and waits for the helpers, even on a throw
            if (wake_) wake_();
            l.items.run(fn, 1);  // items' exceptions are kept, not thrown
        }
        l.items.rethrow();
    }

private:
    struct Loop {
        Loop(std::size_t n, std::function<void(std::size_t)> f) : items(n), fn(std::move(f)) {}
        detail::Items items;
        const std::function<void(std::size_t)> fn;
        std::size_t helpers = 0;  ///< threads other than the poster running items (board's lock)
        std::condition_variable left;  ///< helpers fell to 0
    };

    /// A loop on the board for its scope: leaving it, no new helper may join, and it waits
    /// until the helpers have left the loop (which lives on the poster's stack).
    class Posted {
    public:
        Posted(HelpBoard& board, Loop& loop) : board_(board), loop_(loop) {
            std::lock_guard lock(board_.mutex_);
            board_.loops_.push_back(&loop_);
            ++board_.loops_posted_;
        }
        ~Posted() {
            std::unique_lock lock(board_.mutex_);
            board_.loops_.erase(std::find(board_.loops_.begin(), board_.loops_.end(), &loop_));
            loop_.left.wait(lock, [&] { return loop_.helpers == 0; });
        }
        Posted(const Posted&) = delete;
        Posted& operator=(const Posted&) = delete;

    private:
        HelpBoard& board_;
        Loop& loop_;
    };

    /// A posted loop with items left, counted as helped (nullptr when none).
    Loop* join() {
        std::lock_guard lock(mutex_);
        Loop* l = first_with_items();
        if (l) ++l->helpers;
        return l;
    }
    /// The first posted loop with items nobody took (call with the lock held), or nullptr.
    Loop* first_with_items() const {
        for (Loop* l : loops_)
            if (l->items.left()) return l;
        return nullptr;
    }

    std::function<void()> wake_;
    mutable std::mutex mutex_;
    std::vector<Loop*> loops_;  ///< posted, still taking helpers
    std::size_t loops_posted_ = 0, items_helped_ = 0;  ///< counts of loops_posted(), items_helped()
};

/// @param n       number of work items.
/// @param threads worker count (0 = default_threads()); 1 runs inline. Left one by the outer
///                loop, a loop that asked for 0 or more runs with the helpers of this
///                thread's HelpBoard, if any. Inside another parallel_for's fn, at most what
///                that loop left over (see above).
/// @param fn      callable taking std::size_t; called exactly once per index.
template <class Fn>
void parallel_for(std::size_t n, unsigned threads, Fn&& fn) {
    const bool asked_for_more = threads != 1;  // 1 means inline, on this thread
    if (threads == 0) threads = default_threads();
    if (detail::nested_thread_limit != 0) threads = std::min(threads, detail::nested_thread_limit);
    const unsigned asked = threads;
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, n));
    if (threads <= 1) {
        if (HelpBoard* board = HelpBoard::current(); board && asked_for_more && n > 1 && detail::nested_thread_limit != 0)
            return board->run(n, fn);  // inside an outer loop with a board: idle threads may help
        const detail::NestedThreadLimit limit(asked);
        for (std::size_t i = 0; i < n; ++i) fn(i);
        return;
    }
    const unsigned left_over = std::max(1u, asked / threads);
    detail::Items items(n);
    auto worker = [&] { items.run(fn, left_over); };
    std::vector<std::thread> pool;
    pool.reserve(threads - 1);  // no reallocation (which could throw) once threads run
    for (unsigned t = 1; t < threads; ++t) {
        try {
            pool.emplace_back(worker);
        } catch (const std::system_error&) {
            break;  // no more threads (e.g. under `ulimit -v`): the running ones share the work
        }
    }
    worker();
    for (auto& t : pool) t.join();
    items.rethrow();
}

}  // namespace navlab
