// Placeholder: the commands of this area are registered here once it lands.
#include "cli/commands.h"
#include "io/error.h"

namespace navlab::cli {

void add_fc2_commands(CLI::App&) {}

int export_fc2(const ExportRequest&) { throw Error("export of Far Cry 2 navmeshes is not built yet"); }
}  // namespace navlab::cli
