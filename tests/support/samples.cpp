#include "support/samples.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>

namespace navlab::test {

std::optional<std::filesystem::path> samples_dir() {
    if (const char* env = std::getenv("NAVLAB_SAMPLES"); env && *env) {
        if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
        return std::nullopt;
    }
    auto p = std::filesystem::path(NAVLAB_SOURCE_DIR) / ".." / "shared" / "samples";
    if (std::filesystem::is_directory(p)) return std::filesystem::canonical(p);
    return std::nullopt;
}

std::optional<std::filesystem::path> sample(const std::string& relative) {
    auto dir = samples_dir();
    if (!dir) return std::nullopt;
    auto p = *dir / relative;
    if (!std::filesystem::exists(p)) return std::nullopt;
    return p;
}

bool samples_required() {
    if (const char* env = std::getenv("NAVLAB_REQUIRE_SAMPLES"); env && std::string(env) == "1") return true;
    const char* dir = std::getenv("NAVLAB_SAMPLES");
    return dir && *dir && !std::filesystem::is_directory(dir);
}

std::string missing_sample_message(const std::string& relative) {
    const char* dir = std::getenv("NAVLAB_SAMPLES");
    if (dir && *dir && !std::filesystem::is_directory(dir))
        return "NAVLAB_SAMPLES=" + std::string(dir) + " is not a folder (sample " + relative + " wanted)";
    std::string where = samples_dir() ? samples_dir()->string() : "no samples folder (NAVLAB_SAMPLES unset, ../shared/samples absent)";
    std::string msg = "sample " + relative + " not found in " + where;
    if (samples_required()) return msg + "; NAVLAB_REQUIRE_SAMPLES=1 makes this a failure";
    return msg + ": set NAVLAB_SAMPLES to the shared samples folder to run this check";
}

std::optional<std::filesystem::path> sample_or_report(const std::string& relative) {
    auto p = sample(relative);
    if (p) return p;
    if (samples_required()) ADD_FAILURE() << missing_sample_message(relative);
    else std::fprintf(stderr, "[  SKIPPED ] %s\n", missing_sample_message(relative).c_str());
    return std::nullopt;
}

std::string navlab_binary() {
    if (const char* env = std::getenv("NAVLAB_BINARY"); env && *env) return env;
    return NAVLAB_BINARY;
}

int run_command(const std::string& command, std::string* output) {
    std::string full = command + " 2>&1";
    FILE* pipe = ::popen(full.c_str(), "r");
    if (!pipe) return -1;
    std::array<char, 4096> buf{};
    std::string out;
    while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
    int status = ::pclose(pipe);
    if (output) *output = std::move(out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

namespace {

/// Removes the scratch folders of this test process once its tests have run, unless one
/// failed (its files are then kept for a look, and named) or NAVLAB_KEEP_SCRATCH=1. CTest runs
/// every test in its own process, so without this each run left a few hundred folders in
/// /tmp (a machine that ran the suite forty times held 5.7 GB of them).
class ScratchCleanup : public ::testing::Environment {
public:
    static ScratchCleanup& instance() {
        static ScratchCleanup* const cleanup = [] {
            auto* c = new ScratchCleanup;  // owned by gtest once added
            ::testing::AddGlobalTestEnvironment(c);
            return c;
        }();
        return *cleanup;
    }
    void add(const std::filesystem::path& dir) {
        std::lock_guard lock(mutex_);
        dirs_.insert(dir);
    }
    void TearDown() override {
        if (::getpid() != owner_) return;  // a forked child that came back through gtest
        const char* keep = std::getenv("NAVLAB_KEEP_SCRATCH");
        const bool failed = ::testing::UnitTest::GetInstance()->Failed();
        std::lock_guard lock(mutex_);
        for (const auto& dir : dirs_) {
            if (failed || (keep && std::string(keep) == "1")) {
                std::fprintf(stderr, "scratch kept: %s\n", dir.c_str());
                continue;
            }
            std::error_code ec;
            std::filesystem::remove_all(dir, ec);
        }
    }

private:
    const pid_t owner_ = ::getpid();
    std::mutex mutex_;
    std::set<std::filesystem::path> dirs_;
};

// Registered before RUN_ALL_TESTS, whichever test asks for a folder first.
[[maybe_unused]] const ScratchCleanup& kRegistered = ScratchCleanup::instance();

}  // namespace

std::filesystem::path scratch_dir(const std::string& name) {
    auto base = std::filesystem::temp_directory_path() /
                ("navlab-test-" + std::to_string(::getpid()) + "-" + name);
    std::filesystem::remove_all(base);
    std::filesystem::create_directories(base);
    ScratchCleanup::instance().add(base);
    return base;
}

}  // namespace navlab::test
