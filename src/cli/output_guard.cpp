#include "cli/output_guard.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <system_error>

namespace navlab::cli {

void refuse_overwriting_input(const std::string& input, const std::string& output, bool force) {
    if (force) return;
    std::error_code ec;
    if (!std::filesystem::equivalent(input, output, ec) || ec) return;
    throw CLI::ValidationError("output", output + " is the input file " + input +
                                             ": pass --force to overwrite the input in place");
}

}  // namespace navlab::cli
