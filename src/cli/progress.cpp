#include "cli/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace navlab::cli {

Progress::Progress(std::string label, std::size_t total)
    : label_(std::move(label)), total_(total), active_(::isatty(2) == 1 && total > 1),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

Progress::~Progress() {
    if (active_) draw(true);
}

void Progress::tick(std::size_t n, std::uint64_t bytes) {
    done_ += n;
    bytes_ += bytes;
    if (!active_) return;
    auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex_);
    if (now - last_ < std::chrono::milliseconds(100) && done_ < total_) return;
    last_ = now;
    draw(false);
}

void Progress::draw(bool final) {
    const std::size_t done = done_.load();
    const double frac = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(frac * kWidth);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "\r%s [%.*s%*s] %zu/%zu %.1fs", label_.c_str(), filled,
                 "##############################", kWidth - filled, "", done, total_, secs);
    if (total_bytes_ > 0 && secs > 0) {
        const double bytes = static_cast<double>(bytes_.load());
        const double rate = bytes / secs;  // bytes per second so far
        const double left = rate > 0 ? (static_cast<double>(total_bytes_) - bytes) / rate : 0;
        std::fprintf(stderr, "  %.1f MB/s  ETA %.0fs   ", rate / 1e6, final ? 0.0 : left);
    } else if (done > 0 && !final) {
        // No byte counts: the time left from the steps' own pace.
        const double left = secs * static_cast<double>(total_ - std::min(done, total_)) / static_cast<double>(done);
        std::fprintf(stderr, "  ETA %.0fs   ", left);
    }
    if (final) std::fprintf(stderr, "\n");
    std::fflush(stderr);
}

}  // namespace navlab::cli
