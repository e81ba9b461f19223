// libFuzzer target for the Far Cry 2 .nvm readers: any input must either throw navlab::Error or
// read, write back byte for byte, and survive the checker and the stitcher.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "formats/farcry2/world.h"
#include "support/seeds.h"

using namespace navlab;
using namespace navlab::farcry2;

namespace {

void require(bool ok) {
    if (!ok) std::abort();
}

void fuzz_sector(Bytes bytes) {
    World world;
    world.sectors.push_back({"fuzz", read_sector(bytes), std::nullopt});
    require(write_sector(world.sectors[0].file).bytes == std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
    check_world(world, 1);
    stitch(world);
}

void fuzz_level(Bytes bytes) {
    require(write_level(read_level(bytes)) == std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    fuzz::write_seeds_if_asked(fuzz::fc2_seeds);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes bytes(data, size);
    try {
        fuzz_sector(bytes);
    } catch (const Error&) {
    }
    try {
        fuzz_level(bytes);
    } catch (const Error&) {
    }
    return 0;
}
