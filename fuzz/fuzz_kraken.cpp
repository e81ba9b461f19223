// libFuzzer target for the Kraken decoder. Input layout (the one of the .kraken test files):
// a 4-byte little-endian output size, then the raw stream. The output size is bounded to
// 1 MiB (four 256 KiB blocks: every multi-block path) so a run stays fast: the output is
// allocated and zeroed before decoding, and at 16 MiB that alone dominated each run. Any
// navlab::Error is an expected outcome, anything else is a finding; kraken::inspect (the same
// decode, recording) must accept exactly the streams decode accepts.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "codec/kraken/kraken.h"
#include "codec/kraken/stream_info.h"
#include "io/error.h"
#include "support/seeds.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    navlab::fuzz::write_seeds_if_asked(navlab::fuzz::kraken_seeds);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 4) return 0;
    constexpr std::size_t kMaxOutput = std::size_t{1} << 20;
    const std::size_t declared = data[0] | data[1] << 8 | data[2] << 16 | std::size_t{data[3]} << 24;
    const std::span<const std::uint8_t> stream(data + 4, size - 4);
    if (declared > kMaxOutput || declared > navlab::kraken::max_decoded_size(stream.size())) return 0;
    std::vector<std::uint8_t> out(declared);
    bool decoded = true;
    try {
        navlab::kraken::decode(stream, out, 1);
    } catch (const navlab::Error&) {
        decoded = false;
    }
    // kraken::inspect walks the same decoder with its recording on: it must agree on whether
    // the stream is valid, and its blocks must add up to the stream.
    try {
        const navlab::kraken::StreamInfo info = navlab::kraken::inspect(stream, declared);
        std::size_t bytes = 0;
        for (const auto& b : info.blocks) bytes += b.compressed;
        if (!decoded || bytes != stream.size()) __builtin_trap();
    } catch (const navlab::Error&) {
        if (decoded) __builtin_trap();
    }
    return 0;
}
