// libFuzzer target for the FromSoftware navmesh model reader (hkai classes by member name) and
// writer: any tagfile either throws navlab::Error or reads into a model whose rewrite reads
// back to the same model. Seeds and the section-aware mutator: fuzz/support.
#include <cstddef>
#include <cstdint>

#include "formats/fromsoft/nav_tagfile.h"
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
