#include "io/file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

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
