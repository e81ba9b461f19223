// parallel_for — runs fn(i) for i in [0, n) on up to `threads` threads. Results must be
// stored by index so output is identical whatever the thread count; the first exception
// thrown by any fn is rethrown after all threads have stopped.
//
// Nested loops share the outer loop's threads instead of multiplying them: inside fn, a
// parallel_for gets at most the threads the outer loop asked for and did not start (one
// when every asked thread runs an item). So `--threads 1` means one thread all the way
// down (a DCX_KRAK binder opened by a one-thread audit decodes its blocks on that thread),
// and N workers each opening a binder do not start N × cores decoder threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
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
}  // namespace detail

/// @param n       number of work items.
/// @param threads worker count (0 = default_threads()); 1 runs inline. Inside another
///                parallel_for's fn, at most what that loop left over (see above).
/// @param fn      callable taking std::size_t; called exactly once per index.
template <class Fn>
void parallel_for(std::size_t n, unsigned threads, Fn&& fn) {
    if (threads == 0) threads = default_threads();
    if (detail::nested_thread_limit != 0) threads = std::min(threads, detail::nested_thread_limit);
    const unsigned asked = threads;
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, n));
    if (threads <= 1) {
        const detail::NestedThreadLimit limit(asked);
        for (std::size_t i = 0; i < n; ++i) fn(i);
        return;
    }
    const unsigned left_over = std::max(1u, asked / threads);
    std::atomic<std::size_t> next{0};
    std::exception_ptr first_error;
    std::mutex error_mutex;
    auto worker = [&] {
        const detail::NestedThreadLimit limit(left_over);
        for (;;) {
            std::size_t i = next.fetch_add(1);
            if (i >= n) return;
            try {
                fn(i);
            } catch (...) {
                std::lock_guard lock(error_mutex);
                if (!first_error) first_error = std::current_exception();
                next.store(n);
            }
        }
    };
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
    if (first_error) std::rethrow_exception(first_error);
}

}  // namespace navlab
