// libFuzzer target for the audit on a parsed mesh: any tagfile goes through the audit's own
// loader (strict read kept as R02) and every rule R01-R97; hostile meshes (dangling indices,
// degenerate faces, cyclic graphs) must give findings, never a crash or a hang.
#include <cstddef>
#include <cstdint>

#include "audit/audit.h"
#include "audit/audit_load.h"
#include "io/error.h"
#include "support/tagfile_hooks.h"

using namespace navlab;

NAVLAB_FUZZ_TAGFILE_HOOKS()

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const audit::AuditTagfile t = audit::load_audit_tagfile(std::span<const std::uint8_t>(data, size), "fuzz.nvmhktbnd.dcx", "fuzz.hkx", 0);
    (void)audit::audit_tagfile(t, 3);
    return 0;
}
