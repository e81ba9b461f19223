// Nothing lost: outputs are replaced atomically (a SIGKILL mid-write leaves the old file or the
// new one, never a mix, and no temporary file), a write that fails (file-size limit) leaves the
// old file and says why, and a command does not overwrite its own input without --force.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "io/error.h"
#include "io/file.h"
#include "reliability/reliability_support.h"
#include "support/samples.h"

using namespace navlab;
namespace fs = std::filesystem;

namespace {

/// Runs the navlab command with `args` as a child process; returns its pid.
pid_t spawn_navlab(const std::vector<std::string>& args) {
    const std::string binary = test::navlab_binary();
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::freopen("/dev/null", "w", stdout);
        ::execv(binary.c_str(), argv.data());
        ::_exit(127);
    }
    return pid;
}

/// Files in `dir` other than the ones named.
std::vector<std::string> other_files(const fs::path& dir, const std::vector<std::string>& known) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (std::find(known.begin(), known.end(), name) == known.end()) out.push_back(name);
    }
    return out;
}

/// True for the name write_file_atomic gives its temporary for `target`: `.TARGET.navlab-tmp.PID.N`.
bool is_our_temporary(const std::string& name, const std::string& target) {
    return name.rfind("." + target + ".navlab-tmp.", 0) == 0;
}

/// The pid of a process that has exited (and been reaped): a writer that is gone.
pid_t dead_pid() {
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(0);
    ::waitpid(pid, nullptr, 0);
    return pid;
}

/// Runs `write` in a forked child under a file-size limit of `limit` bytes with SIGXFSZ
/// ignored (what navlab's main does); returns the child's exit status: 0 when `write` returned,
/// 1 when it threw navlab::Error with `expected` in its text, 2 for any other outcome.
int write_under_size_limit(rlim_t limit, const std::string& expected, void (*write)(const fs::path&), const fs::path& path) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit rl{limit, limit};
        if (::setrlimit(RLIMIT_FSIZE, &rl) != 0) ::_exit(3);
        try {
            write(path);
        } catch (const Error& e) {
            ::_exit(std::string(e.what()).find(expected) != std::string::npos &&
                            std::string(e.what()).find(path.string()) != std::string::npos
                        ? 1
                        : 2);
        } catch (...) {
            ::_exit(2);
        }
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

const std::vector<std::uint8_t>& four_mib() {
    static const std::vector<std::uint8_t> bytes(4 << 20, 0x5A);
    return bytes;
}

}  // namespace

TEST(AtomicWrites, SigkillMidWriteLeavesTheOldFileOrTheNewOne) {
    const auto dir = test::scratch_dir("sigkill");
    // 64 MiB of output from a 1.5 KiB input: the write takes long enough to be interrupted.
    const auto input = test::memset_krak_dcx(256, 0x5A);
    test::put_file(dir / "in.dcx", input);
    const std::vector<std::uint8_t> old_bytes(1 << 20, 0x11);
    const std::size_t new_size = 256u << 18;
    const std::vector<std::string> args{"dcx", "decompress", (dir / "in.dcx").string(), (dir / "out.bin").string()};

    // How long one full run takes here, to spread the kills over it.
    auto start = std::chrono::steady_clock::now();
    int status = 0;
    ::waitpid(spawn_navlab(args), &status, 0);
    const auto full = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    int saw_old = 0, saw_new = 0, named_leftovers = 0;
    for (int round = 0; round < 24; ++round) {
        test::put_file(dir / "out.bin", old_bytes);
        const pid_t pid = spawn_navlab(args);
        std::this_thread::sleep_for(full * round / 20);
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        // The data goes to an unnamed O_TMPFILE inode the kernel frees with the process; only
        // a kill in the microseconds between naming it and the rename can leave a temporary,
        // and the next writer into the folder removes it.
        for (const std::string& name : other_files(dir, {"in.dcx", "out.bin"})) {
            ASSERT_TRUE(is_our_temporary(name, "out.bin")) << "round " << round << " left " << name;
            ++named_leftovers;
        }
        const auto now = read_file(dir / "out.bin");
        if (now == old_bytes) {
            ++saw_old;
        } else {
            ASSERT_EQ(now.size(), new_size) << "round " << round << ": a mix of old and new";
            ASSERT_TRUE(std::all_of(now.begin(), now.end(), [](std::uint8_t b) { return b == 0x5A; })) << round;
            ++saw_new;
        }
    }
    EXPECT_GT(saw_old, 0);  // some kills landed before the rename ...
    // ... and the last rounds (delay ≥ a full run) normally see the new file; the machine may
    // be too loaded for that, which does not weaken the old-or-new check above.
    std::printf("SIGKILL rounds: %d saw the old file, %d the new one, %d left a named temporary\n", saw_old,
                saw_new, named_leftovers);
    std::fflush(stdout);  // before the next fork, whose child reopens stdout
    EXPECT_LE(named_leftovers, 2);
    ::waitpid(spawn_navlab(args), &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_EQ(other_files(dir, {"in.dcx", "out.bin"}), std::vector<std::string>{});
    fs::remove_all(dir);
}

TEST(AtomicWrites, FileSizeLimitGivesAClearErrorAndKeepsTheOldFile) {
    const auto dir = test::scratch_dir("ulimit_f");
    test::put_file(dir / "in.dcx", test::memset_krak_dcx(16, 0x5A));  // 4 MiB output
    const std::vector<std::uint8_t> old_bytes(1000, 0x11);
    test::put_file(dir / "out.bin", old_bytes);
    std::string out;
    // ulimit -f counts 1024-byte blocks: 1 MiB may be written, 4 MiB are needed.
    const int status = test::run_command("ulimit -f 1024; exec " + test::navlab_binary() + " dcx decompress " +
                                             test::quoted(dir / "in.dcx") + " " + test::quoted(dir / "out.bin"),
                                         &out);
    EXPECT_EQ(status, 1) << out;  // an exit status, not SIGXFSZ
    EXPECT_NE(out.find("cannot write: File too large"), std::string::npos) << out;
    EXPECT_NE(out.find(dir / "out.bin"), std::string::npos) << out;  // names the file
    EXPECT_EQ(read_file(dir / "out.bin"), old_bytes);
    EXPECT_EQ(other_files(dir, {"in.dcx", "out.bin"}), std::vector<std::string>{}) << "temporary file left behind";
    fs::remove_all(dir);
}

TEST(AtomicWrites, WriteLimitFailsCleanlyInBothWriters) {
    const auto dir = test::scratch_dir("rlimit_fsize");
    const std::vector<std::uint8_t> old_bytes(1000, 0x11);
    for (auto* write : {+[](const fs::path& p) { write_file_atomic(p, four_mib()); },
                        +[](const fs::path& p) { write_file_atomic_named(p, four_mib()); }}) {
        test::put_file(dir / "out.bin", old_bytes);
        EXPECT_EQ(write_under_size_limit(1 << 20, "cannot write: File too large", write, dir / "out.bin"), 1);
        EXPECT_EQ(read_file(dir / "out.bin"), old_bytes);
        EXPECT_EQ(other_files(dir, {"out.bin"}), std::vector<std::string>{}) << "temporary file left behind";
        // Under a limit the data fits, both writers replace the file.
        EXPECT_EQ(write_under_size_limit(8 << 20, "", write, dir / "out.bin"), 0);
        EXPECT_EQ(read_file(dir / "out.bin"), four_mib());
        EXPECT_EQ(other_files(dir, {"out.bin"}), std::vector<std::string>{});
    }
    fs::remove_all(dir);
}

TEST(AtomicWrites, StaleTemporariesOfDeadWritersAreRemovedAndNothingElse) {
    const auto dir = test::scratch_dir("stale");
    const std::string dead = std::to_string(dead_pid()), alive = std::to_string(::getppid());
    const std::vector<std::string> kept{
        "out.bin",
        ".out.bin.navlab-tmp." + alive + ".7",  // its writer (our parent) is running
        ".out.bin.tmp" + dead,                 // not our pattern
        ".out.bin.navlab-tmp.x" + dead + ".7",  // not a pid
        ".out.bin.navlab-tmp." + dead,          // no random part
        "out.bin.navlab-tmp." + dead + ".7",    // not hidden
    };
    for (const auto& name : kept) test::put_file(dir / name, {1, 2, 3});
    fs::create_directory(dir / (".d.navlab-tmp." + dead + ".1"));  // not a regular file
    const std::vector<std::string> stale{".out.bin.navlab-tmp." + dead + ".7", ".other.navlab-tmp." + dead + ".12345"};
    for (const auto& name : stale) test::put_file(dir / name, {1, 2, 3});

    EXPECT_EQ(remove_stale_temporaries(dir), stale.size());
    std::vector<std::string> left = other_files(dir, {});
    std::sort(left.begin(), left.end());
    std::vector<std::string> expected = kept;
    expected.push_back(".d.navlab-tmp." + dead + ".1");
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(left, expected);
    fs::remove_all(dir);
}

TEST(AtomicWrites, KilledNamedFallbackWriterIsCleanedUpByTheNextWrite) {
    const auto dir = test::scratch_dir("named_fallback");
    const std::vector<std::uint8_t> old_bytes(1000, 0x11);
    test::put_file(dir / "out.bin", old_bytes);
    // A fallback writer killed mid-write: a file-size limit with SIGXFSZ at its default action
    // kills the child inside write(), after its temporary is created and 1 MiB written, as a
    // SIGKILL at that moment would (deterministically, unlike a timed kill).
    const pid_t pid = ::fork();
    if (pid == 0) {
        const rlimit rl{1 << 20, 1 << 20};
        ::setrlimit(RLIMIT_FSIZE, &rl);
        write_file_atomic_named(dir / "out.bin", four_mib());
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ) << status;
    EXPECT_EQ(read_file(dir / "out.bin"), old_bytes);
    const auto left = other_files(dir, {"out.bin"});
    ASSERT_EQ(left.size(), 1u);
    EXPECT_TRUE(is_our_temporary(left[0], "out.bin")) << left[0];
    EXPECT_EQ(fs::file_size(dir / left[0]), 1u << 20);

    // The next navlab process writing into the folder removes it.
    test::put_file(dir / "in.dcx", test::memset_krak_dcx(1, 0x5A));
    std::string out;
    ASSERT_EQ(test::run_command(test::navlab_binary() + " dcx decompress " + test::quoted(dir / "in.dcx") + " " +
                                    test::quoted(dir / "out.bin"),
                                &out),
              0)
        << out;
    EXPECT_EQ(other_files(dir, {"in.dcx", "out.bin"}), std::vector<std::string>{});
    EXPECT_EQ(read_file(dir / "out.bin"), std::vector<std::uint8_t>(256 << 10, 0x5A));
    fs::remove_all(dir);
}

TEST(AtomicWrites, OverwritingTheInputNeedsForce) {
    const auto dir = test::scratch_dir("force");
    const auto original = test::memset_krak_dcx(1, 0x5A);
    test::put_file(dir / "a.dcx", original);
    fs::create_symlink(dir / "a.dcx", dir / "link.dcx");
    const std::string a = test::quoted(dir / "a.dcx");
    // Every command that reads a file and writes another; the guard runs before any reading.
    for (const std::string& command :
         {"dcx compress " + a + " " + a, "dcx decompress " + a + " " + a, "kraken decode " + a + " " + a,
          "kraken encode " + a + " " + a,
          "hkx rewrite " + a + " " + a, "igi rewrite " + a + " " + a, "igi routes " + a + " -o " + a,
          "fc2 rewrite " + a + " " + a, "export " + a + " -o " + a, "replace " + a + " 0 --remove -o " + a,
          "dcx compress " + a + " " + test::quoted(dir / "link.dcx")}) {
        SCOPED_TRACE(command);
        std::string out;
        EXPECT_EQ(test::run_command(test::navlab_binary() + " " + command, &out), 2) << out;
        EXPECT_NE(out.find("is the input file"), std::string::npos) << out;
        EXPECT_NE(out.find("pass --force to overwrite the input in place"), std::string::npos) << out;
        EXPECT_EQ(read_file(dir / "a.dcx"), original);
    }
    std::string out;
    ASSERT_EQ(test::run_command(test::navlab_binary() + " dcx compress " + a + " " + a + " --variant DCX_ZSTD --force", &out),
              0)
        << out;
    EXPECT_NE(read_file(dir / "a.dcx"), original);
    EXPECT_TRUE(fs::is_symlink(dir / "link.dcx"));
    fs::remove_all(dir);
}

// Commands whose output is another kind of file than their input (a page, a binder built from
// geometry, a graph from GRAPH.json, a binder packed from a folder) have no --force: naming an
// input as the output is refused (exit 2) before anything is read, and the input is kept.
TEST(AtomicWrites, AnOutputOfAnotherKindNeverReplacesAnInput) {
    const auto dir = test::scratch_dir("other-kind");
    const auto original = test::memset_krak_dcx(1, 0x5A);
    for (const char* name : {"a.dcx", "scene.obj", "graph.json"}) test::put_file(dir / name, original);
    fs::create_directories(dir / "unpacked");
    test::put_file(dir / "unpacked" / "entry.hkx", original);
    const std::string a = test::quoted(dir / "a.dcx"), obj = test::quoted(dir / "scene.obj");
    const std::string graph = test::quoted(dir / "graph.json"), entry = test::quoted(dir / "unpacked" / "entry.hkx");
    for (const std::string& command :
         {"view " + a + " -o " + a, "view " + test::quoted(dir / "graph.json") + " " + a + " -o " + a,
          "build " + obj + " -o " + obj, "igi build " + graph + " -o " + graph,
          "pack " + test::quoted(dir / "unpacked") + " " + entry}) {
        SCOPED_TRACE(command);
        std::string out;
        EXPECT_EQ(test::run_command(test::navlab_binary() + " " + command, &out), 2) << out;
        EXPECT_NE(out.find("is an input of the command"), std::string::npos) << out;
        for (const fs::path& p : {dir / "a.dcx", dir / "scene.obj", dir / "graph.json", dir / "unpacked" / "entry.hkx"})
            EXPECT_EQ(read_file(p), original) << p;
    }
    fs::remove_all(dir);
}

// A report that cannot be written fails the command before its work: `build` and `synth` wrote
// their binder or corpus, then failed on the report (exit 1, an output left behind).
TEST(AtomicWrites, AReportThatCannotBeWrittenFailsBeforeTheWork) {
    const auto dir = test::scratch_dir("report-folder");
    const std::string missing = test::quoted(dir / "missing" / "r.json");
    write_file_atomic(dir / "scene.obj", std::string_view("v 0 0 0\nv 10 0 0\nv 10 0 10\nf 1 2 3\n"));
    for (const std::string& command :
         {"build " + test::quoted(dir / "scene.obj") + " -o " + test::quoted(dir / "o.dcx") + " --json " + missing,
          "synth --preset small --out " + test::quoted(dir / "s") + " --json " + missing}) {
        SCOPED_TRACE(command);
        std::string out;
        EXPECT_EQ(test::run_command(test::navlab_binary() + " " + command, &out), 2) << out;
        EXPECT_NE(out.find("--json: the folder " + (dir / "missing").string() + " of " + (dir / "missing" / "r.json").string() +
                           " does not exist"),
                  std::string::npos)
            << out;
    }
    EXPECT_EQ(other_files(dir, {"scene.obj", "s"}), std::vector<std::string>{});
    EXPECT_TRUE(fs::is_empty(dir / "s"));  // synth makes its folder, then checks the report's
    fs::remove_all(dir);
}

// `navlab audit --json a.dcx b.dcx` takes a.dcx as the report's name: the report must not
// replace it. An existing JSON file, or a new name, is still written.
TEST(AtomicWrites, AReportNeverReplacesData) {
    const auto dir = test::scratch_dir("report");
    const auto original = test::memset_krak_dcx(1, 0x5A);
    test::put_file(dir / "a.dcx", original);
    test::put_file(dir / "old.json", std::vector<std::uint8_t>{' ', '{', '}'});
    const std::string a = test::quoted(dir / "a.dcx");
    for (const std::string& command :
         {"audit --json " + a + " " + test::quoted(dir), "synth --preset small --json " + a + " --out " + test::quoted(dir / "s"),
          "archive ls " + test::quoted(dir) + " --json " + a, "nearest " + a + " 0,0,0 --json " + a,
          "build " + test::quoted(dir / "scene.obj") + " -o " + test::quoted(dir / "o.dcx") + " --json " + a}) {
        SCOPED_TRACE(command);
        std::string out;
        EXPECT_EQ(test::run_command(test::navlab_binary() + " " + command, &out), 2) << out;
        EXPECT_NE(out.find("exists and is not a JSON file"), std::string::npos) << out;
        EXPECT_EQ(read_file(dir / "a.dcx"), original);
    }
    EXPECT_FALSE(fs::exists(dir / "s"));
    std::string out;
    ASSERT_EQ(test::run_command(test::navlab_binary() + " synth --preset small --json " + test::quoted(dir / "old.json") +
                                    " --out " + test::quoted(dir / "s"),
                                &out),
              0)
        << out;
    EXPECT_EQ(read_file(dir / "old.json").at(0), '{');
    // An input that is JSON itself (a glTF scene) passes the first check, not the second.
    const std::vector<std::uint8_t> scene{'{', '}'};
    test::put_file(dir / "scene.gltf", scene);
    const std::string gltf = test::quoted(dir / "scene.gltf");
    EXPECT_EQ(test::run_command(test::navlab_binary() + " build " + gltf + " -o " + test::quoted(dir / "o.dcx") +
                                    " --json " + gltf,
                                &out),
              2)
        << out;
    EXPECT_NE(out.find("is an input of the command"), std::string::npos) << out;
    EXPECT_EQ(read_file(dir / "scene.gltf"), scene);
    fs::remove_all(dir);
}
