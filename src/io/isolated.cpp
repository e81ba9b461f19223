#include "io/isolated.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <new>
#include <string_view>

#include "io/error.h"

#if defined(__SANITIZE_ADDRESS__)
#define NAVLAB_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NAVLAB_UNDER_ASAN 1
#endif
#endif

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

/// Address space this process maps now (the first field of /proc/self/statm, in pages).
std::uint64_t mapped_bytes() {
    FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long pages = 0;
    const int got = std::fscanf(f, "%lu", &pages);
    std::fclose(f);
    return got == 1 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

[[noreturn]] void run_child(int fd, const std::function<std::vector<std::uint8_t>()>& work, const IsolationLimits& limits) {
    set_limit(RLIMIT_CORE, 0, 0);
    const rlim_t cpu = static_cast<rlim_t>(std::max<std::uint64_t>(limits.cpu_seconds, 1));
    set_limit(RLIMIT_CPU, cpu, cpu + 1);  // SIGXCPU at the soft limit, SIGKILL a second later
#ifndef NAVLAB_UNDER_ASAN
    if (limits.extra_memory > 0) {
        const rlim_t as = static_cast<rlim_t>(mapped_bytes() + limits.extra_memory);
        set_limit(RLIMIT_AS, as, as);
    }
#endif
    std::vector<std::uint8_t> out;
    try {
        std::vector<std::uint8_t> result = work();
        out.push_back(static_cast<std::uint8_t>(Kind::Result));
        out.insert(out.end(), result.begin(), result.end());
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

}  // namespace

std::vector<std::uint8_t> run_isolated(const std::function<std::vector<std::uint8_t>()>& work,
                                       const IsolationLimits& limits, const std::string& what) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(fmt::format("cannot make a pipe: {}", std::strerror(errno)), kNoOffset, what);
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int err = errno;
        ::close(fds[0]), ::close(fds[1]);
        throw Error(fmt::format("cannot start a child process: {}", std::strerror(err)), kNoOffset, what);
    }
    if (pid == 0) {
        ::close(fds[0]);
        run_child(fds[1], work, limits);
    }
    ::close(fds[1]);
    std::vector<std::uint8_t> in;
    std::uint8_t buf[1 << 16];
    for (;;) {
        const ssize_t r = ::read(fds[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        in.insert(in.end(), buf, buf + r);
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        if (sig == SIGXCPU || sig == SIGKILL)
            throw Error(fmt::format("stopped after {} s of CPU time ({}): the file is damaged, or too large for this "
                                    "limit",
                                    limits.cpu_seconds, signal_text(sig)),
                        kNoOffset, what);
        throw Error(fmt::format("crashed ({}): the file is damaged, or holds something the reader cannot take",
                                signal_text(sig)),
                    kNoOffset, what);
    }
    // A sanitizer catches a crash itself and exits with a status instead of the signal.
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || in.empty())
        throw Error(fmt::format("crashed (exit status {} without an answer): the file is damaged, or holds something "
                                "the reader cannot take",
                                WIFEXITED(status) ? WEXITSTATUS(status) : -1),
                    kNoOffset, what);
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

}  // namespace navlab
