// Placeholder: the commands of this area are registered here once it lands.
#include "cli/commands.h"
#include "io/error.h"

namespace navlab::cli {

void add_igi_commands(CLI::App&) {}

int export_igi(const ExportRequest&) { throw Error("export of IGI graphs is not built yet"); }
}  // namespace navlab::cli
