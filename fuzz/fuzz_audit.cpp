// libFuzzer target for the audit on a parsed mesh: any tagfile goes through the audit's own
// loader (strict read kept as R02) and every rule R01-R97; hostile meshes (dangling indices,
// degenerate faces, cyclic graphs) must give findings, never a crash or a hang.
#include <cstddef>
#include <cstdint>

#include "audit/audit.h"
#include "audit/audit_load.h"
#include "io/error.h"
#include "support/mutate.h"
#include "support/seeds.h"

using namespace navlab;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    fuzz::write_seeds_if_asked(fuzz::tagfile_seeds);
    return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned seed) {
    return fuzz::mutate_tagfile(data, size, max_size, seed);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const audit::AuditTagfile t = audit::load_audit_tagfile(std::span<const std::uint8_t>(data, size), "fuzz.nvmhktbnd.dcx", "fuzz.hkx", 0);
    (void)audit::audit_tagfile(t, 3);
    return 0;
}
