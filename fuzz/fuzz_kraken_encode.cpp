// libFuzzer target for the Kraken encoder: the input's first byte picks a level (0..9), the
// rest is encoded, the stream must fit max_encoded_size and decode to the same bytes. The
// encoder must never throw on any input of a valid level. Long runs and periodic data are the
// adversarial cases for the match finder: its chain depth bounds the time per position.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "codec/kraken/kraken.h"

namespace {

/// The longest input each level encodes; a longer one with that level byte is encoded at the
/// level 4 below (9 -> 5, 8 -> 4: the same input through the greedy/lazy parse instead).
/// Levels 8 and 9 differ from level 7 only in their settings (chain depth, nice length,
/// arrivals, passes): the same parser code, which level 7 takes on every input size, and
/// level 8 up to 1 KiB, past its nice length of 256 (the "long match: not expanded" path).
/// Under ASan, level 9 costs ~7 ms for 256 bytes and ~45 ms for 1 KiB (its 4 arrivals x 40
/// lengths x 4 passes per position); levels 1-5 stay under 1 ms at 4 KiB. On the campaign
/// corpus those few large level-9 inputs were most of the target's time (docs/reliability.md).
std::size_t longest_input(int level) {
    switch (level) {
        case 9: return 256;
        case 8: return 1024;
        default: return SIZE_MAX;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    int level = data[0] % (navlab::kraken::kMaxLevel + 1);
    const std::span<const std::uint8_t> input(data + 1, size - 1);
    if (input.size() > longest_input(level)) level -= 4;
    const std::vector<std::uint8_t> stream = navlab::kraken::encode(input, level, 1);
    if (stream.size() > navlab::kraken::max_encoded_size(input.size())) std::abort();
    std::vector<std::uint8_t> out(input.size());
    navlab::kraken::decode(stream, out, 1);  // a navlab::Error here is a finding too
    if (!std::equal(out.begin(), out.end(), input.begin())) std::abort();
    return 0;
}
