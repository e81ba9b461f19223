// A one-line progress bar on stderr, shown only when stderr is a terminal, so logs and
// pipes stay clean. Thread-safe: workers call tick() from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace navlab::cli {

class Progress {
public:
    /// @param label shown before the bar ("audit").
    /// @param total number of steps (files, binders).
    Progress(std::string label, std::size_t total);
    ~Progress();
    /// Marks n more steps done and redraws at most every 100 ms.
    /// @param bytes the bytes those steps read, for the MB/s and ETA shown once
    ///              set_total_bytes() was called.
    void tick(std::size_t n = 1, std::uint64_t bytes = 0);
    /// The bytes all steps read together: the line then shows MB/s and the time left from
    /// them (without, the time left comes from the steps done so far).
    void set_total_bytes(std::uint64_t total) noexcept { total_bytes_ = total; }
    /// Whether the bar is drawn (stderr is a terminal).
    bool active() const noexcept { return active_; }

private:
    void draw(bool final);
    std::string label_;
    std::size_t total_;
    std::atomic<std::size_t> done_{0};
    std::atomic<std::uint64_t> bytes_{0};
    std::uint64_t total_bytes_ = 0;
    bool active_;
    std::mutex mutex_;
    std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace navlab::cli
