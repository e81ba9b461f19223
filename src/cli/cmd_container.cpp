// Placeholder: the commands of this area are registered here once it lands.
#include "cli/commands.h"
#include "io/error.h"

namespace navlab::cli {

void add_container_commands(CLI::App&) {}

}  // namespace navlab::cli
