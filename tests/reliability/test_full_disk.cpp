// A really full disk: each test runs in a forked child that enters a private mount namespace
// (as root, or as an unprivileged user through a user namespace) and mounts a small tmpfs, so
// `write` fails with ENOSPC from the kernel itself rather than from a simulated limit. Where
// the machine allows no namespace (a CI container without CAP_SYS_ADMIN or user namespaces)
// the tests skip and say why.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "io/error.h"
#include "io/file.h"
#include "reliability/reliability_support.h"
#include "support/samples.h"

using namespace navlab;
namespace fs = std::filesystem;

namespace {

/// Exit status of a child that could not set up the namespace (the test skips).
constexpr int kNoNamespace = 77;

/// Writes `text` to the file at `path` (the child's report to the parent).
void report(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

/// Maps the current user to root inside a new user namespace (the `unshare -r` steps).
bool map_to_root(uid_t uid, gid_t gid) {
    auto put = [](const char* file, const std::string& text) {
        std::ofstream out(file);
        out << text;
        out.close();
        return !out.fail();
    };
    put("/proc/self/setgroups", "deny");  // absent on old kernels: not an error
    return put("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1\n") &&
           put("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1\n");
}

/// In the calling (child) process: a private mount namespace with a tmpfs of `size_kib` KiB
/// mounted on `mount_point`. Returns "" or why it cannot be done here.
std::string enter_private_tmpfs(const fs::path& mount_point, int size_kib) {
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    if (::unshare(CLONE_NEWNS) != 0) {
        const int root_errno = errno;
        if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
            return std::string("no private mount namespace: unshare(CLONE_NEWNS): ") + std::strerror(root_errno) +
                   "; unshare(CLONE_NEWUSER|CLONE_NEWNS): " + std::strerror(errno);
        if (!map_to_root(uid, gid)) return "user namespace without a uid map: " + std::string(std::strerror(errno));
    }
    // Mounts made here must not propagate back to the machine's namespace.
    if (::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return std::string("cannot make / private: ") + std::strerror(errno);
    const std::string options = "size=" + std::to_string(size_kib) + "k";
    if (::mount("none", mount_point.c_str(), "tmpfs", 0, options.c_str()) != 0)
        return "cannot mount a " + options + " tmpfs on " + mount_point.string() + ": " + std::strerror(errno);
    return "";
}

/// What the child reported: skipped (no namespace here: `text` says why), or ok, or the failure.
struct ChildOutcome {
    bool skipped = false, ok = false;
    std::string text;
};

/// Runs `body(mount_point)` in a forked child inside a private mount namespace where
/// `dir`/mnt is a fresh tmpfs of `size_kib` KiB (seen by that child and its children only).
/// `body` returns "" on success or what went wrong; it comes back through a report file
/// outside the tmpfs.
ChildOutcome run_on_small_tmpfs(const fs::path& dir, int size_kib, const std::function<std::string(const fs::path&)>& body) {
    const fs::path mnt = dir / "mnt", report_file = dir / "report.txt";
    fs::create_directories(mnt);
    std::fflush(nullptr);  // nothing buffered may be written twice
    const pid_t pid = ::fork();
    if (pid == 0) {
        const std::string why = enter_private_tmpfs(mnt, size_kib);
        if (!why.empty()) {
            report(report_file, why);
            ::_exit(kNoNamespace);
        }
        std::string failure;
        try {
            failure = body(mnt);
        } catch (const std::exception& e) {
            failure = std::string("unexpected exception: ") + e.what();
        }
        report(report_file, failure);
        ::_exit(failure.empty() ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    std::ifstream in(report_file);
    ChildOutcome out;
    out.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    out.skipped = WIFEXITED(status) && WEXITSTATUS(status) == kNoNamespace;
    out.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!out.ok && !out.skipped) out.text = "child status " + std::to_string(status) + ": " + out.text;
    return out;
}

/// Names in `dir` other than the ones listed, comma-separated ("" when none).
std::string other_names(const fs::path& dir, std::initializer_list<std::string> known) {
    std::string out;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (std::find(known.begin(), known.end(), name) == known.end()) out += (out.empty() ? "" : ", ") + name;
    }
    return out;
}

/// Fills the filesystem holding `dir` with a file named `name` until `write` says ENOSPC.
std::string fill(const fs::path& dir, const std::string& name) {
    const int fd = ::open((dir / name).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return "cannot create the filler: " + std::string(std::strerror(errno));
    const std::vector<char> block(4096, 'F');
    int err = 0;
    while (err == 0) {
        if (::write(fd, block.data(), block.size()) < 0) err = errno;
    }
    ::close(fd);
    return err == ENOSPC ? "" : "filling stopped with " + std::string(std::strerror(err)) + ", not ENOSPC";
}

const std::vector<std::uint8_t> kOldBytes(1000, 0x11);

/// What a failed write must leave: the old destination byte for byte and no other file.
std::string check_left_alone(const fs::path& mnt, std::initializer_list<std::string> known) {
    if (read_file(mnt / "out.bin") != kOldBytes) return "the old out.bin was changed";
    if (const std::string extra = other_names(mnt, known); !extra.empty()) return "left behind: " + extra;
    return "";
}

}  // namespace

TEST(FullDisk, CommandOnAFullTmpfsFailsClearlyAndKeepsTheOldFile) {
    const fs::path dir = test::scratch_dir("full_disk_cli");
    test::put_file(dir / "in.dcx", test::memset_krak_dcx(16, 0x5A));  // 4 MiB output, input outside the tmpfs
    // Puts the old out.bin on the tmpfs, decompresses into it; exit status and output.
    auto decompress_onto = [&](const fs::path& mnt, std::string& out) {
        test::put_file(mnt / "out.bin", kOldBytes);
        return test::run_command(test::navlab_binary() + " dcx decompress " + test::quoted(dir / "in.dcx") + " " +
                                     test::quoted(mnt / "out.bin"),
                                 &out);
    };
    const ChildOutcome full = run_on_small_tmpfs(dir, 64, [&](const fs::path& mnt) -> std::string {
        std::string out;
        const int status = decompress_onto(mnt, out);
        if (status != 1) return "exit status " + std::to_string(status) + " (want 1): " + out;
        if (out.find("No space left on device") == std::string::npos) return "no ENOSPC text: " + out;
        if (out.find((mnt / "out.bin").string()) == std::string::npos) return "the file is not named: " + out;
        return check_left_alone(mnt, {"out.bin"});
    });
    if (full.skipped) GTEST_SKIP() << "a full disk needs a private mount namespace for a small tmpfs: " << full.text;
    EXPECT_TRUE(full.ok) << full.text;
    // A tmpfs with room takes the same command (the failure above was the space, not the mount).
    const ChildOutcome roomy = run_on_small_tmpfs(dir, 8192, [&](const fs::path& mnt) -> std::string {
        std::string out;
        if (const int status = decompress_onto(mnt, out); status != 0)
            return "exit status " + std::to_string(status) + " with room: " + out;
        if (fs::file_size(mnt / "out.bin") != (4u << 20)) return "wrong output size";
        const std::string extra = other_names(mnt, {"out.bin"});
        return extra.empty() ? "" : "left behind: " + extra;
    });
    EXPECT_TRUE(roomy.ok) << roomy.text;
    fs::remove_all(dir);
}

TEST(FullDisk, BothWritersOnAFilledTmpfsThrowEnospcAndKeepTheOldFile) {
    const fs::path dir = test::scratch_dir("full_disk_writer");
    const ChildOutcome r = run_on_small_tmpfs(dir, 256, [](const fs::path& mnt) -> std::string {
        test::put_file(mnt / "out.bin", kOldBytes);
        if (std::string why = fill(mnt, "filler"); !why.empty()) return why;
        const std::vector<std::uint8_t> data(64 << 10, 0x5A);
        for (auto* write : {+[](const fs::path& p, std::span<const std::uint8_t> d) { write_file_atomic(p, d); },
                            +[](const fs::path& p, std::span<const std::uint8_t> d) { write_file_atomic_named(p, d); }}) {
            try {
                write(mnt / "out.bin", data);
                return "a write to a full filesystem succeeded";
            } catch (const Error& e) {
                const std::string what = e.what();
                if (what.find("No space left on device") == std::string::npos ||
                    what.find((mnt / "out.bin").string()) == std::string::npos)
                    return "unclear error: " + what;
            }
            if (std::string why = check_left_alone(mnt, {"out.bin", "filler"}); !why.empty()) return why;
        }
        // Room made again, the same writes replace the file.
        fs::remove(mnt / "filler");
        write_file_atomic(mnt / "out.bin", data);
        if (read_file(mnt / "out.bin") != data) return "the write after freeing space is wrong";
        const std::string extra = other_names(mnt, {"out.bin"});
        return extra.empty() ? "" : "left behind: " + extra;
    });
    if (r.skipped) GTEST_SKIP() << "a full disk needs a private mount namespace for a small tmpfs: " << r.text;
    EXPECT_TRUE(r.ok) << r.text;
    fs::remove_all(dir);
}
