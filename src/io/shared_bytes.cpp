#include "io/shared_bytes.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "io/buffer_pool.h"
#include "io/error.h"

namespace navlab {
namespace {

/// A whole file, mapped read-only (or read into memory when it cannot be mapped: pipes,
/// file systems without mmap). Only map_file() makes one; SharedBytes owns it.
class MappedFile {
public:
    explicit MappedFile(const std::filesystem::path& path);
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile() {
        if (mapped_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
    }
    std::span<const std::uint8_t> bytes() const noexcept { return {data_, size_}; }

private:
    void read_stream(int fd, const std::string& name);
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    bool mapped_ = false;
    std::vector<std::uint8_t> owned_;
};

/// Closes `fd` and throws an Error naming `path`: "WHAT: <strerror(errno)>" (or `message`).
[[noreturn]] void fail(int fd, const std::string& path, const std::string& message) {
    if (fd >= 0) ::close(fd);
    Error e(message);
    e.set_file(path);
    throw e;
}

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

/// Up to `n` bytes from `fd` into `to` (retried when a signal interrupts it); 0 at the end.
std::size_t read_some(int fd, const std::string& name, std::uint8_t* to, std::size_t n) {
    for (;;) {
        const ssize_t got = ::read(fd, to, n);
        if (got >= 0) return static_cast<std::size_t>(got);
        if (errno != EINTR) fail(fd, name, errno_text("cannot read"));
    }
}

MappedFile::MappedFile(const std::filesystem::path& path) {
    const std::string name = path.string();
    const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(fd, name, errno_text("cannot open"));
    struct stat st {};
    if (::fstat(fd, &st) != 0) fail(fd, name, errno_text("cannot stat"));
    if (S_ISDIR(st.st_mode)) fail(fd, name, "is a directory, expected a file");
    // A device's size says nothing (0 for a terminal or /dev/urandom, which never end).
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) fail(fd, name, "is a device, expected a file or a pipe");
    if (!S_ISREG(st.st_mode)) {  // st_size is 0 for a pipe: read to its end
        read_stream(fd, name);
        return;
    }
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ > 0) {
        void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            data_ = static_cast<const std::uint8_t*>(p);
            mapped_ = true;
        } else {
            owned_.resize(size_);
            for (std::size_t got = 0; got < size_;) {
                const std::size_t n = read_some(fd, name, owned_.data() + got, size_ - got);
                if (n == 0) fail(fd, name, fmt::format("the file ended at byte {} of {} (it changed while read)", got, size_));
                got += n;
            }
            data_ = owned_.data();
        }
    }
    ::close(fd);
}

/// Reads a pipe or socket to its end into owned_ (closes fd), at most kMaxStreamBytes.
void MappedFile::read_stream(int fd, const std::string& name) {
    std::size_t got = 0;
    for (;;) {
        if (got == owned_.size()) {
            if (got >= SharedBytes::kMaxStreamBytes) {
                std::uint8_t probe;
                if (read_some(fd, name, &probe, 1) == 0) break;
                fail(fd, name, fmt::format("a pipe of more than {} MiB: save it to a file first",
                                           SharedBytes::kMaxStreamBytes >> 20));
            }
            owned_.resize(std::min(std::max<std::size_t>(2 * got, 1u << 20), SharedBytes::kMaxStreamBytes));
        }
        const std::size_t n = read_some(fd, name, owned_.data() + got, owned_.size() - got);
        if (n == 0) break;
        got += n;
    }
    ::close(fd);
    owned_.resize(got);
    owned_.shrink_to_fit();
    data_ = owned_.data();
    size_ = got;
}

/// A payload that gives its memory to the buffer pool when the last SharedBytes on it goes.
struct PooledBytes {
    PayloadBuffer bytes;
    ~PooledBytes() { recycle_buffer(std::move(bytes)); }
};

}  // namespace

SharedBytes::SharedBytes(std::vector<std::uint8_t> bytes) {
    auto owner = std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes));
    view_ = *owner;
    owner_ = std::move(owner);
}

SharedBytes::SharedBytes(PayloadBuffer bytes) {
    auto owner = std::make_shared<PooledBytes>();
    owner->bytes = std::move(bytes);  // moved in place: PooledBytes has no move constructor
    view_ = owner->bytes;
    owner_ = std::move(owner);
}

SharedBytes SharedBytes::map_file(const std::filesystem::path& path) {
    auto file = std::make_shared<const MappedFile>(path);
    const std::span<const std::uint8_t> view = file->bytes();
    return SharedBytes(std::move(file), view);
}

SharedBytes SharedBytes::borrow(std::span<const std::uint8_t> bytes) noexcept { return SharedBytes(nullptr, bytes); }

SharedBytes SharedBytes::slice(std::size_t offset, std::size_t size) const {
    if (offset > view_.size() || size > view_.size() - offset)
        throw Error(fmt::format("bytes [{}, +{}) are outside a buffer of {} bytes", hex(offset), hex(size),
                                hex(view_.size())));
    return SharedBytes(owner_, view_.subspan(offset, size));
}

SharedBytes SharedBytes::slice(std::span<const std::uint8_t> inner) const {
    // Compare as integers: pointers into different objects are not ordered in C++.
    const auto begin = reinterpret_cast<std::uintptr_t>(view_.data());
    const auto at = reinterpret_cast<std::uintptr_t>(inner.data());
    if (inner.empty()) return SharedBytes(owner_, {});
    if (at < begin || at - begin > view_.size()) throw Error("a span outside its buffer was sliced");
    return slice(at - begin, inner.size());
}

}  // namespace navlab
