// `navlab demo`: the README's main job on data the project makes itself.
#include <fmt/format.h>

#include "cli/commands.h"

namespace navlab::cli {

void add_demo_commands(CLI::App& app) {
    auto* cmd = app.add_subcommand("demo", "Generate a small synthetic corpus and audit it (the README's main job)");
    cmd->callback([] { fmt::print("navlab demo: nothing to show yet\n"); });
}

}  // namespace navlab::cli
