#include "io/file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <cstring>
#include <mutex>
#include <random>
#include <set>

#include "io/error.h"
#include "io/shared_bytes.h"

namespace navlab {
namespace {

[[noreturn]] void fail_errno(const std::string& path, const std::string& what) {
    Error e(what + ": " + std::strerror(errno));
    e.set_file(path);
    throw e;
}

}  // namespace

std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
    const SharedBytes file = SharedBytes::map_file(path);
    return {file.begin(), file.end()};
}

namespace {

/// Our temporary files are named `.NAME.navlab-tmp.PID.RANDOM` so a later write can tell its
/// own kind from anything else in the folder and whether the writer that made one is gone.
constexpr std::string_view kTempMarker = ".navlab-tmp.";

std::string temp_name(const std::string& filename) {
    std::random_device rd;
    return "." + filename + std::string(kTempMarker) + std::to_string(::getpid()) + "." + std::to_string(rd());
}

/// The pid of the writer that made `name`, or 0 when `name` is not one of our temporary files.
pid_t temp_owner(const std::string& name) {
    if (name.empty() || name[0] != '.') return 0;
    const std::size_t marker = name.rfind(kTempMarker);
    if (marker == std::string::npos || marker < 2) return 0;
    const std::string rest = name.substr(marker + kTempMarker.size());
    const std::size_t dot = rest.find('.');
    if (dot == 0 || dot == std::string::npos || dot + 1 == rest.size()) return 0;
    for (std::size_t i = 0; i < rest.size(); ++i)
        if (i != dot && !std::isdigit(static_cast<unsigned char>(rest[i]))) return 0;
    const long pid = std::strtol(rest.c_str(), nullptr, 10);
    return pid > 0 && pid <= std::numeric_limits<pid_t>::max() ? static_cast<pid_t>(pid) : 0;
}

/// An open file descriptor closed on scope exit.
struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

void write_bytes(int fd, std::span<const std::uint8_t> data, const std::string& target) {
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail_errno(target, "cannot write");
        }
        done += static_cast<std::size_t>(n);
    }
}

void write_all(int fd, std::span<const std::uint8_t> data, const std::string& target) {
    write_bytes(fd, data, target);
    if (::fsync(fd) != 0) fail_errno(target, "cannot write (fsync)");
}

/// An existing `target` that is neither a regular file nor a folder (a device such as
/// /dev/null, a FIFO, /dev/stdout's pipe or terminal) is written in place: renaming a file over
/// it would replace the device itself (as root, /dev/null for the whole machine), and a stream
/// has no old contents to keep. Returns false for anything else (written atomically).
bool write_into_stream(const std::string& target, std::span<const std::uint8_t> data) {
    struct stat st {};
    if (::stat(target.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return false;
    Fd file{::open(target.c_str(), O_WRONLY | O_CLOEXEC)};
    if (file.fd < 0) fail_errno(target, "cannot open for writing");
    write_bytes(file.fd, data, target);
    return true;
}

/// Makes the rename durable. Filesystems that cannot sync a directory say EINVAL; nothing
/// more can be done there, so that is not an error.
void sync_directory(int dir_fd, const std::string& target) {
    if (::fsync(dir_fd) != 0 && errno != EINVAL && errno != EROFS)
        fail_errno(target, "cannot sync the folder after renaming");
}

/// Renames the named temporary `tmp` over `target` in `dir_fd`, then syncs the folder; removes
/// `tmp` when the rename fails.
void rename_into_place(int dir_fd, const std::string& tmp, const std::filesystem::path& path, const std::string& target) {
    if (::renameat(dir_fd, tmp.c_str(), dir_fd, path.filename().c_str()) != 0) {
        const int saved = errno;
        ::unlinkat(dir_fd, tmp.c_str(), 0);
        errno = saved;
        fail_errno(target, "cannot rename temporary file into place");
    }
    sync_directory(dir_fd, target);
}

/// O_TMPFILE: the data goes to an unnamed inode that the kernel frees if the process dies,
/// then gets a name (linkat through /proc/self/fd, open(2)'s documented way for an
/// unprivileged process) only once it is complete and synced. Returns false, having touched
/// nothing, when the filesystem, the kernel or a missing /proc does not allow it.
bool write_unnamed_then_link(int dir_fd, const std::filesystem::path& path, std::span<const std::uint8_t> data,
                             const std::string& target) {
    Fd file{::openat(dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644)};
    if (file.fd < 0) {
        if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) return false;
        fail_errno(target, "cannot create temporary file");
    }
    write_all(file.fd, data, target);
    const std::string proc = "/proc/self/fd/" + std::to_string(file.fd);
    const std::string tmp = temp_name(path.filename().string());
    if (::linkat(AT_FDCWD, proc.c_str(), dir_fd, tmp.c_str(), AT_SYMLINK_FOLLOW) != 0) {
        if (errno == ENOENT) return false;  // no /proc: the named fallback
        fail_errno(target, "cannot link temporary file");
    }
    rename_into_place(dir_fd, tmp, path, target);
    return true;
}

/// Leftovers come from writers that died before this process wrote to their folder, so one
/// look per folder per process finds them; later writes to the folder cost nothing extra.
void remove_stale_temporaries_once(const std::filesystem::path& dir) {
    static std::mutex mutex;
    static std::set<std::string> done;
    std::error_code ec;
    const std::string key = std::filesystem::absolute(dir, ec).lexically_normal().string();
    {
        std::lock_guard lock(mutex);
        if (!done.insert(key).second) return;
    }
    remove_stale_temporaries(dir);
}

}  // namespace

std::size_t remove_stale_temporaries(const std::filesystem::path& dir) {
    std::size_t removed = 0;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const pid_t owner = temp_owner(name);
        if (owner == 0 || owner == ::getpid()) continue;
        if (::kill(owner, 0) == 0 || errno != ESRCH) continue;  // its writer may still be running
        struct stat st {};
        if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) continue;
        if (::unlink(it->path().c_str()) == 0) ++removed;
    }
    return removed;
}

void write_file_atomic_named(const std::filesystem::path& path, std::span<const std::uint8_t> data) {
    const std::string target = path.string();
    if (write_into_stream(target, data)) return;
    const std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
    Fd dir_fd{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
    if (dir_fd.fd < 0) fail_errno(target, "cannot open the output folder");
    const std::string tmp = temp_name(path.filename().string());
    {
        Fd file{::openat(dir_fd.fd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)};
        if (file.fd < 0) fail_errno(target, "cannot create temporary file " + (dir / tmp).string());
        try {
            write_all(file.fd, data, target);
        } catch (...) {
            ::unlinkat(dir_fd.fd, tmp.c_str(), 0);
            throw;
        }
    }
    rename_into_place(dir_fd.fd, tmp, path, target);
}

void write_file_atomic(const std::filesystem::path& path, std::span<const std::uint8_t> data) {
    const std::string target = path.string();
    if (write_into_stream(target, data)) return;
    const std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
    Fd dir_fd{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
    if (dir_fd.fd < 0) fail_errno(target, "cannot open the output folder");
    remove_stale_temporaries_once(dir);
    if (!write_unnamed_then_link(dir_fd.fd, path, data, target)) write_file_atomic_named(path, data);
}

void write_file_atomic(const std::filesystem::path& path, std::string_view text) {
    write_file_atomic(path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

}  // namespace navlab
