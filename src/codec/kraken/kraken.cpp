// Placeholder until the decoder lands (issue 3): fails with a clear message.
#include "codec/kraken/kraken.h"

#include "io/error.h"

namespace navlab::kraken {

void decode(std::span<const std::uint8_t>, std::span<std::uint8_t>, unsigned) {
    throw Error("DCX_KRAK: this build has no Oodle Kraken decoder yet");
}

std::vector<std::uint8_t> encode_stored(std::span<const std::uint8_t> data) {
    std::vector<std::uint8_t> out;
    constexpr std::size_t kBlock = 256 * 1024;
    for (std::size_t pos = 0; pos < data.size(); pos += kBlock) {
        out.push_back(0xCC);
        out.push_back(0x06);
        const std::size_t n = std::min(kBlock, data.size() - pos);
        out.insert(out.end(), data.begin() + pos, data.begin() + pos + n);
    }
    return out;
}

}  // namespace navlab::kraken
