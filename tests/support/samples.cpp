#include "support/samples.h"

#include <array>
#include <cstdio>
#include <cstdlib>

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

std::filesystem::path scratch_dir(const std::string& name) {
    auto base = std::filesystem::temp_directory_path() /
                ("navlab-test-" + std::to_string(::getpid()) + "-" + name);
    std::filesystem::remove_all(base);
    std::filesystem::create_directories(base);
    return base;
}

}  // namespace navlab::test
