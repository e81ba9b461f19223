#include "io/isolated.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <new>
#include <string_view>
#include <thread>
#include <utility>

#include "io/error.h"

namespace navlab {
namespace {

// What the child sends back: one kind byte, then length-prefixed parts.
enum class Kind : std::uint8_t { Result = 0, NavlabError = 1, OutOfMemory = 2, OtherException = 3 };

void append_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void append_part(std::vector<std::uint8_t>& out, std::string_view part) {
    append_u64(out, part.size());
    out.insert(out.end(), part.begin(), part.end());
}

/// Reads the parts back; refuses a message cut short (the child died while writing).
class Parts {
public:
    explicit Parts(const std::vector<std::uint8_t>& in) : in_(in) {}
    bool u64(std::uint64_t& v) {
        if (in_.size() - pos_ < 8) return false;
        v = 0;
        for (int i = 0; i < 8; ++i) v |= std::uint64_t{in_[pos_ + i]} << (8 * i);
        pos_ += 8;
        return true;
    }
    bool part(std::string& s) {
        std::uint64_t n = 0;
        if (!u64(n) || in_.size() - pos_ < n) return false;
        s.assign(reinterpret_cast<const char*>(in_.data() + pos_), n);
        pos_ += n;
        return true;
    }

private:
    const std::vector<std::uint8_t>& in_;
    std::size_t pos_ = 1;  // after the kind byte
};

bool write_all(int fd, const std::uint8_t* p, std::size_t n) {
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w, n -= static_cast<std::size_t>(w);
    }
    return true;
}

void set_limit(int resource, rlim_t soft, rlim_t hard) {
    const rlimit r{soft, hard};
    ::setrlimit(resource, &r);  // best effort: a limit the system refuses leaves the child as it was
}

/// Address space this process maps now, in bytes (the first field of /proc/self/statm, in
/// pages, times the page size).
[[maybe_unused]] std::uint64_t mapped_bytes() {  // unused where no memory limit applies (sanitizers)
    FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long pages = 0;
    const int got = std::fscanf(f, "%lu", &pages);
    std::fclose(f);
    return got == 1 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

/// The CPU limit in force: 1 s to 10⁶ s (so the arithmetic on it cannot wrap).
std::uint64_t cpu_limit(const IsolationLimits& limits) {
    return std::clamp<std::uint64_t>(limits.cpu_seconds, 1, 1'000'000);
}

/// The wall-clock limit: `wall_seconds`, or ten times the CPU limit plus 10 s, room enough for
/// a spinning child on a loaded machine to meet its CPU limit first.
std::uint64_t wall_limit(const IsolationLimits& limits) {
    return limits.wall_seconds > 0 ? std::min<std::uint64_t>(limits.wall_seconds, 10'000'000)
                                   : 10 * cpu_limit(limits) + 10;
}

[[noreturn]] void run_child(int fd, const std::function<std::vector<std::uint8_t>()>& work, const IsolationLimits& limits,
                            pid_t parent) noexcept {
    // No child outlives a parent killed on its own (nor one that died before this line).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    set_limit(RLIMIT_CORE, 0, 0);
    const rlim_t cpu = static_cast<rlim_t>(cpu_limit(limits));
    set_limit(RLIMIT_CPU, cpu, cpu + 1);  // SIGXCPU at the soft limit, SIGKILL a second later
    if constexpr (kIsolatedMemoryLimitApplies) {
        // Without /proc the child's own size is unknown: no limit rather than one below it.
        if (const std::uint64_t mapped = mapped_bytes(); limits.extra_memory > 0 && mapped > 0) {
            const rlim_t as = static_cast<rlim_t>(mapped + limits.extra_memory);
            set_limit(RLIMIT_AS, as, as);
        }
    }
    std::vector<std::uint8_t> out;
    try {
        const std::vector<std::uint8_t> result = work();
        const auto kind = static_cast<std::uint8_t>(Kind::Result);
        ::_exit(write_all(fd, &kind, 1) && write_all(fd, result.data(), result.size()) ? 0 : 1);
    } catch (const Error& e) {
        out.assign(1, static_cast<std::uint8_t>(Kind::NavlabError));
        append_u64(out, e.offset());
        append_part(out, e.message());
        append_part(out, e.field());
        append_part(out, e.file());
    } catch (const std::bad_alloc&) {
        out.assign(1, static_cast<std::uint8_t>(Kind::OutOfMemory));
    } catch (const std::exception& e) {
        out.assign(1, static_cast<std::uint8_t>(Kind::OtherException));
        append_part(out, e.what());
    } catch (...) {
        out.assign(1, static_cast<std::uint8_t>(Kind::OtherException));
        append_part(out, "an exception of unknown type");
    }
    ::_exit(write_all(fd, out.data(), out.size()) ? 0 : 1);
}

std::string signal_text(int sig) {
    const char* name = ::strsignal(sig);
    return fmt::format("signal {}{}", sig, name ? fmt::format(", {}", name) : "");
}

/// How the child ended: its wait status and the CPU time it used, in seconds.
struct Ending {
    int status = 0;
    double cpu = 0;
    bool timed_out = false;  ///< stopped by the parent at the wall-clock deadline
};

/// The child as the parent holds it: the read end of its pipe, and its pid until it is reaped.
/// Leaving early (an exception) kills and reaps it, so no child outlives the call.
class Child {
public:
    Child(pid_t pid, int fd, std::string what) : pid_(pid), fd_(fd), what_(std::move(what)) {}
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;
    ~Child() {
        if (fd_ >= 0) ::close(fd_);
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            int status = 0;
            while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
            }
        }
    }

    /// Everything the child writes until it closes the pipe, or until `deadline` (a reader
    /// blocked rather than spinning, which the CPU limit misses): false then.
    bool read_all(std::vector<std::uint8_t>& in, std::chrono::steady_clock::time_point deadline) {
        std::uint8_t buf[1 << 16];
        for (;;) {
            const int ready = poll_until(deadline);
            if (ready == 0) return false;
            const ssize_t r = ::read(fd_, buf, sizeof buf);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) return true;
            in.insert(in.end(), buf, buf + r);
        }
    }

    /// Waits for the child's end until `deadline`, then kills it. A child that closed its pipe
    /// but runs on is stopped as one that never answered.
    Ending wait(std::chrono::steady_clock::time_point deadline, bool answered) {
        ::close(fd_), fd_ = -1;
        Ending end;
        end.timed_out = !answered || !exited_by(deadline);
        if (end.timed_out) ::kill(pid_, SIGKILL);
        rusage use{};
        pid_t got;
        while ((got = ::wait4(pid_, &end.status, 0, &use)) < 0 && errno == EINTR) {
        }
        const int err = errno;
        pid_ = -1;  // reaped, or gone where it cannot be (a caller that ignores SIGCHLD)
        if (got < 0)
            throw Error(fmt::format("how the child process ended is unknown ({}): is SIGCHLD ignored?", std::strerror(err)),
                        kNoOffset, what_);
        const auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
        end.cpu = secs(use.ru_utime) + secs(use.ru_stime);
        return end;
    }

private:
    /// poll() on the pipe until it is readable (1) or `deadline` passes (0).
    int poll_until(std::chrono::steady_clock::time_point deadline) {
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return 0;
            pollfd p{fd_, POLLIN, 0};
            const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
            if (ready > 0) return 1;
            if (ready < 0 && errno != EINTR)
                throw Error(fmt::format("cannot wait for the child process: {}", std::strerror(errno)), kNoOffset, what_);
        }
    }

    /// Whether the child has ended (or can be waited for at once) before `deadline`.
    bool exited_by(std::chrono::steady_clock::time_point deadline) {
        for (;;) {
            siginfo_t info{};
            const int got = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
            if (got == 0 && info.si_pid == pid_) return true;
            // errno only after a failure: a success leaves an earlier call's ECHILD in place, and
            // a live child taken for gone was then waited for without end (seen under --gtest_shuffle).
            if (got < 0 && errno == ECHILD) return true;  // nothing to wait for: wait4 says so
            if (std::chrono::steady_clock::now() >= deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }

    pid_t pid_;
    int fd_;
    std::string what_;
};

/// The error for a child that ended on a signal or without an answer.
Error ending_error(const Ending& end, const IsolationLimits& limits, const std::string& what) {
    const std::uint64_t limit = cpu_limit(limits);
    const int status = end.status;
    const double cpu = end.cpu;
    if (end.timed_out)
        return Error(fmt::format("neither answered nor ended within {} s and was stopped: the file is damaged, or "
                                 "too large for this limit",
                                 wall_limit(limits)),
                     kNoOffset, what);
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        // SIGXCPU at the soft limit, SIGKILL at the hard one a second later; any other SIGKILL
        // (the OOM killer, a user) came from outside.
        if (sig == SIGXCPU || (sig == SIGKILL && cpu >= static_cast<double>(limit)))
            return Error(fmt::format("stopped after {} s of CPU time ({}): the file is damaged, or too large for this "
                                     "limit",
                                     limit, signal_text(sig)),
                         kNoOffset, what);
        if (sig == SIGKILL) return Error(fmt::format("was killed ({}), not by navlab", signal_text(sig)), kNoOffset, what);
        return Error(fmt::format("crashed ({}): the file is damaged, or holds something the reader cannot take",
                                 signal_text(sig)),
                     kNoOffset, what);
    }
    // A sanitizer catches a crash itself and exits with a status instead of the signal.
    return Error(fmt::format("crashed (exit status {} without an answer): the file is damaged, or holds something the "
                             "reader cannot take",
                             WIFEXITED(status) ? WEXITSTATUS(status) : -1),
                 kNoOffset, what);
}

/// The child's answer (its first byte the Kind) as bytes or as the error it carries.
std::vector<std::uint8_t> decode_answer(std::vector<std::uint8_t> in, const IsolationLimits& limits, const std::string& what) {
    Parts parts(in);
    switch (static_cast<Kind>(in[0])) {
        case Kind::Result:
            in.erase(in.begin());
            return in;
        case Kind::NavlabError: {
            std::uint64_t offset = 0;
            std::string message, field, file;
            if (parts.u64(offset) && parts.part(message) && parts.part(field) && parts.part(file)) {
                Error e(message, offset, field);
                if (!file.empty()) e.set_file(file);
                throw e;
            }
            break;
        }
        case Kind::OutOfMemory:
            throw Error(fmt::format("needed more than {} MB of memory: the file is damaged, or too large for this limit",
                                    limits.extra_memory >> 20),
                        kNoOffset, what);
        case Kind::OtherException: {
            std::string message;
            if (parts.part(message)) throw Error(message, kNoOffset, what);
            break;
        }
    }
    throw Error("sent back an answer navlab cannot read", kNoOffset, what);
}

}  // namespace

std::vector<std::uint8_t> run_isolated(const std::function<std::vector<std::uint8_t>()>& work,
                                       const IsolationLimits& limits, const std::string& what) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(fmt::format("cannot make a pipe: {}", std::strerror(errno)), kNoOffset, what);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int err = errno;
        ::close(fds[0]), ::close(fds[1]);
        throw Error(fmt::format("cannot start a child process: {}", std::strerror(err)), kNoOffset, what);
    }
    if (pid == 0) {
        ::close(fds[0]);
        run_child(fds[1], work, limits, parent);
    }
    ::close(fds[1]);
    Child child(pid, fds[0], what);
    std::vector<std::uint8_t> in;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wall_limit(limits));
    const bool answered = child.read_all(in, deadline);
    const Ending end = child.wait(deadline, answered);
    if (end.timed_out || !WIFEXITED(end.status) || WEXITSTATUS(end.status) != 0 || in.empty())
        throw ending_error(end, limits, what);
    return decode_answer(std::move(in), limits, what);
}

}  // namespace navlab
