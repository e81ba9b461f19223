// libFuzzer target for the BHD5 archive index reader (the plaintext after RSA): the first byte
// picks the file-header layout (even: Sekiro/DS3, odd: Elden Ring), the rest is the BHD5. Any
// input either throws navlab::Error or parses into an index whose canonical rewrite parses
// and rewrites to the same bytes.
#include <cstddef>
#include <cstdint>

#include "container/archive/bhd5.h"
#include "io/error.h"
#include "support/seeds.h"

using namespace navlab;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    fuzz::write_seeds_if_asked(fuzz::bhd5_seeds);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const archive::Game game = data[0] % 2 ? archive::Game::EldenRing : archive::Game::Sekiro;
    constexpr std::uint64_t kBdtSize = std::uint64_t{1} << 40;  // offsets are checked against it
    archive::Bhd5 bhd;
    try {
        bhd = archive::parse_bhd5(Bytes(data + 1, size - 1), game, kBdtSize, "fuzz.bhd");
    } catch (const Error&) {
        return 0;
    }
    std::vector<std::uint8_t> image;
    try {
        image = archive::write_bhd5(bhd, game);
    } catch (const Error&) {
        return 0;  // what the canonical layout cannot hold is refused clearly
    }
    const archive::Bhd5 again = archive::parse_bhd5(image, game, kBdtSize, "rewrite.bhd");
    if (archive::write_bhd5(again, game) != image) __builtin_trap();  // canonical layout is a fixed point
    return 0;
}
