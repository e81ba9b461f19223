// libFuzzer target for the Kraken encoder: the input's first byte picks a level (0..9), the
// rest is encoded, the stream must fit max_encoded_size and decode to the same bytes. The
// encoder must never throw on any input of a valid level. Long runs and periodic data are the
// adversarial cases for the match finder: its chain depth bounds the time per position.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "codec/kraken/kraken.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const int level = data[0] % (navlab::kraken::kMaxLevel + 1);
    const std::span<const std::uint8_t> input(data + 1, size - 1);
    const std::vector<std::uint8_t> stream = navlab::kraken::encode(input, level, 1);
    if (stream.size() > navlab::kraken::max_encoded_size(input.size())) std::abort();
    std::vector<std::uint8_t> out(input.size());
    navlab::kraken::decode(stream, out, 1);  // a navlab::Error here is a finding too
    if (!std::equal(out.begin(), out.end(), input.begin())) std::abort();
    return 0;
}
