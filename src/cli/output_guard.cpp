#include "cli/output_guard.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <system_error>

namespace navlab::cli {

void refuse_overwriting_input(const std::string& input, const std::string& output, bool force) {
    if (force) return;
    std::error_code ec;
    if (!std::filesystem::equivalent(input, output, ec) || ec) return;
    throw CLI::ValidationError("output", output + " is the input file " + input +
                                             ": pass --force to overwrite the input in place");
}

CLI::Validator json_report_file() {
    return CLI::Validator(
        [](std::string& path) -> std::string {
            std::ifstream in(path, std::ios::binary);
            if (!in) return {};  // missing (or unreadable: the write reports it)
            char head[64];
            in.read(head, sizeof head);
            const std::streamsize n = in.gcount();
            for (std::streamsize i = 0; i < n; ++i) {
                const char c = head[i];
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
                if (c == '{' || c == '[') return {};
                return path + " exists and is not a JSON file: the report would replace it "
                              "(is it an input taken as the report's name? name a .json file)";
            }
            return {};  // empty or blank
        },
        "FILE");
}

}  // namespace navlab::cli
