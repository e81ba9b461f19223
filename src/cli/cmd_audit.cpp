// Placeholder: the commands of this area are registered here once it lands.
#include "cli/commands.h"
#include "io/error.h"

namespace navlab::cli {

void add_audit_commands(CLI::App&) {}

int export_fromsoft(const ExportRequest&) { throw Error("export of FromSoftware navmeshes is not built yet"); }
}  // namespace navlab::cli
