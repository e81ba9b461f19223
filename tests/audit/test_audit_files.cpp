// audit_files: a progress callback that throws (a cancel button) ends the run with its
// exception, never a hang, even while a worker waits for a slow file ahead of it.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "audit/audit_files.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;
using namespace std::chrono_literals;

TEST(AuditFiles, ProgressThatThrowsEndsTheRunWithoutAHang) {
    const auto dir = test::scratch_dir("audit-files-progress");
    // File 0 is a FIFO: its worker blocks opening it until the test writes, while the other
    // worker runs ahead through the small files until 32 results wait for file 0, then sleeps
    // until file 0 is merged. The callback throws on the first call after the FIFO is released
    // (file 0's own): its worker must still wake the sleeper, or parallel_for never joins.
    const auto fifo = dir / "slow.hkx";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::vector<std::string> paths{fifo.string()};
    for (int i = 0; i < 40; ++i) {
        const auto p = dir / fmt::format("f{}.hkx", i);
        write_file_atomic(p, std::string_view("not a tagfile"));
        paths.push_back(p.string());
    }
    std::atomic<int> calls{0};
    std::atomic<bool> released{false};
    std::promise<std::string> outcome;
    std::thread audit([&] {
        try {
            audit::audit_files(paths, {2, 5, {}}, [&](const audit::AuditProgress&) {
                ++calls;
                if (released) throw std::runtime_error("cancelled");
            });
            outcome.set_value("no exception");
        } catch (const std::exception& e) {
            outcome.set_value(e.what());
        }
    });
    // Wait until the running-ahead worker has stopped reporting (it waits for file 0).
    int last = -1;
    for (int stable = 0; stable < 3;) {
        std::this_thread::sleep_for(100ms);
        stable = calls == last ? stable + 1 : 0;
        last = calls;
    }
    EXPECT_GE(last, 30);
    released = true;
    // Opening the FIFO for writing unblocks file 0's worker, which reads an empty file. Nothing
    // is written: that worker may already have closed its end (a write would raise SIGPIPE).
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ::close(fd);
    auto result = outcome.get_future();
    if (result.wait_for(30s) != std::future_status::ready) {
        ADD_FAILURE() << "audit_files hung after its progress callback threw";
        std::_Exit(1);  // the audit thread can never be joined
    }
    audit.join();
    EXPECT_EQ(result.get(), "cancelled");
}
