// libFuzzer target for the BHD5 plaintext parser (what a .bhd decrypts to). The first input
// byte picks the file-header layout (even: Sekiro, odd: Elden Ring) and the next four the
// .bdt size; the rest is the plaintext. Malformed input must end in navlab::Error, never a
// crash; whatever parses must write, and the written layout is a fixed point of
// parse-then-write.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "container/archive/bhd5.h"
#include "io/error.h"

using namespace navlab;
using namespace navlab::archive;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 5 || size > 65536) return 0;
    const Game game = data[0] % 2 ? Game::EldenRing : Game::Sekiro;
    std::uint32_t bdtSize = 0;
    std::memcpy(&bdtSize, data + 1, 4);
    const Bytes plain(data + 5, size - 5);
    try {
        const Bhd5 bhd = parse_bhd5(plain, game, bdtSize, "fuzz.bhd");
        const auto image = write_bhd5(bhd, game);
        const auto again = write_bhd5(parse_bhd5(image, game, bdtSize, "written.bhd"), game);
        if (again != image) __builtin_trap();
    } catch (const Error&) {
    }
    return 0;
}
