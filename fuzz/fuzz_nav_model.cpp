// libFuzzer target for the FromSoftware navmesh model reader (hkai classes by member name) and
// writer: any tagfile either throws navlab::Error or reads into a model whose rewrite reads
// back to the same model. Seeds and the section-aware mutator: fuzz/support.
#include <cstddef>
#include <cstdint>

#include "formats/fromsoft/nav_tagfile.h"
#include "io/error.h"
#include "support/tagfile_hooks.h"

using namespace navlab;

NAVLAB_FUZZ_TAGFILE_HOOKS()

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fromsoft::NavTagfile nav;
    try {
        nav = fromsoft::read_nav_tagfile(std::span<const std::uint8_t>(data, size));
    } catch (const Error&) {
        return 0;
    }
    std::vector<std::uint8_t> again;
    try {
        again = fromsoft::write_nav_tagfile(nav);
    } catch (const Error&) {
        return 0;  // what the writer cannot express (streaming sets, ...) is refused clearly
    }
    if (!fromsoft::same_model(nav, fromsoft::read_nav_tagfile(again))) __builtin_trap();
    return 0;
}
