#include "cli/output_guard.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <system_error>

namespace navlab::cli {
namespace {

/// Whether two paths name one existing file (the same path, or another name for its inode).
bool same_file(const std::string& a, const std::string& b) {
    std::error_code ec;
    return std::filesystem::equivalent(a, b, ec) && !ec;
}

}  // namespace

void refuse_overwriting_input(const std::string& input, const std::string& output, bool force) {
    if (force || !same_file(input, output)) return;
    throw CLI::ValidationError("output", output + " is the input file " + input +
                                             ": pass --force to overwrite the input in place");
}

CLI::Validator json_report_file() {
    return CLI::Validator(
        [](std::string& path) -> std::string {
            // `--json --all` took "--all" as the report's name (CLI11 takes the next word).
            if (path.rfind('-', 0) == 0)
                return "'" + path + "' looks like an option, not a report file: write ./" + path + " for a file of that name";
            // Only a regular file is read: a FIFO or a terminal (/dev/stdout) would block.
            std::error_code ec;
            if (!std::filesystem::is_regular_file(path, ec)) return {};  // missing, or not data
            std::ifstream in(path, std::ios::binary);
            if (!in) return path + " exists and cannot be read: the report would replace it unseen";
            char head[64];
            in.read(head, sizeof head);
            const std::streamsize n = in.gcount();
            const bool bom = n >= 3 && head[0] == '\xEF' && head[1] == '\xBB' && head[2] == '\xBF';  // UTF-8
            for (std::streamsize i = bom ? 3 : 0; i < n; ++i) {
                const char c = head[i];
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
                if (c == '{' || c == '[') return {};
                return path + " exists and is not a JSON file: the report would replace it "
                              "(is it an input taken as the report's name? name a .json file)";
            }
            return {};  // empty or blank
        },
        "");  // no type word in --help ("FILE" read as "must exist")
}

void require_output_folder(const std::string& option, const std::string& path) {
    if (path.empty()) return;
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    const std::string where = folder.empty() ? "." : folder.string();
    std::error_code ec;
    if (!std::filesystem::is_directory(where, ec))
        throw CLI::ValidationError(option, "the folder " + where + " of " + path + " does not exist");
    if (::access(where.c_str(), W_OK) != 0)
        throw CLI::ValidationError(option, path + " cannot be written: " + where + " is not writable");
}

void refuse_output_over_inputs(const std::string& option, const std::string& what, const std::string& output,
                               const std::vector<std::string>& inputs) {
    if (output.empty()) return;
    for (const std::string& input : inputs)
        if (same_file(input, output))
            throw CLI::ValidationError(option, output + " is an input of the command (" + input + "): " + what +
                                                   " would replace it; name another file");
}

void refuse_report_over_inputs(const std::string& report, const std::vector<std::string>& inputs) {
    refuse_output_over_inputs("--json", "the report", report, inputs);
}

}  // namespace navlab::cli
