#include "io/file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

#include "io/error.h"

namespace navlab {
namespace {

[[noreturn]] void fail_errno(const std::string& path, const std::string& what) {
    Error e(what + ": " + std::strerror(errno));
    e.set_file(path);
    throw e;
}

}  // namespace

InputFile::InputFile(const std::filesystem::path& path) : path_(path.string()) {
    int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail_errno(path_, "cannot open");
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        fail_errno(path_, "cannot stat");
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        Error e("is a directory, expected a file");
        e.set_file(path_);
        throw e;
    }
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ > 0) {
        void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            data_ = static_cast<const std::uint8_t*>(p);
            mapped_ = true;
        } else {
            owned_.resize(size_);
            std::size_t got = 0;
            while (got < size_) {
                ssize_t n = ::read(fd, owned_.data() + got, size_ - got);
                if (n <= 0) {
                    ::close(fd);
                    fail_errno(path_, "cannot read");
                }
                got += static_cast<std::size_t>(n);
            }
            data_ = owned_.data();
        }
    }
    ::close(fd);
}

InputFile::InputFile(InputFile&& o) noexcept { *this = std::move(o); }

InputFile& InputFile::operator=(InputFile&& o) noexcept {
    if (this != &o) {
        if (mapped_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
        path_ = std::move(o.path_);
        owned_ = std::move(o.owned_);
        mapped_ = o.mapped_;
        size_ = o.size_;
        data_ = mapped_ ? o.data_ : owned_.data();
        o.data_ = nullptr;
        o.size_ = 0;
        o.mapped_ = false;
    }
    return *this;
}

InputFile::~InputFile() {
    if (mapped_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
}

std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
    InputFile f(path);
    auto b = f.bytes();
    return {b.begin(), b.end()};
}

void write_file_atomic(const std::filesystem::path& path, std::span<const std::uint8_t> data) {
    const std::string target = path.string();
    std::filesystem::path dir = path.parent_path();
    if (dir.empty()) dir = ".";
    std::random_device rd;
    const std::string tmp = (dir / ("." + path.filename().string() + ".tmp" + std::to_string(rd()))).string();
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) fail_errno(target, "cannot create temporary file " + tmp);
    std::size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            ::close(fd);
            ::unlink(tmp.c_str());
            fail_errno(target, "cannot write");
        }
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) {
        ::unlink(tmp.c_str());
        fail_errno(target, "cannot close");
    }
    if (::rename(tmp.c_str(), target.c_str()) != 0) {
        ::unlink(tmp.c_str());
        fail_errno(target, "cannot rename temporary file into place");
    }
}

void write_file_atomic(const std::filesystem::path& path, std::string_view text) {
    write_file_atomic(path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

}  // namespace navlab
