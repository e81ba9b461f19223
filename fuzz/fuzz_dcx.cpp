// libFuzzer target for DCX, every variant (DCX and DCP forms; DFLT, EDGE, KRAK, ZSTD; bare
// zlib): malformed input must end in navlab::Error, never a crash; whatever decodes must
// have the declared size and re-encode in its own variant to a file that decodes the same.
// A decoded payload goes on to the BND4 reader. The custom mutator keeps the header's sizes
// consistent with the stream (fuzz/support/mutate.h); seeds: fuzz/support/seeds.h.
#include <cstddef>
#include <cstdint>

#include "codec/dcx.h"
#include "container/bnd4.h"
#include "io/error.h"
#include "support/mutate.h"
#include "support/seeds.h"

using namespace navlab;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    fuzz::write_seeds_if_asked(fuzz::dcx_seeds);
    return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned seed) {
    return fuzz::mutate_dcx(data, size, max_size, seed);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Larger inputs only make every run slower: a KRAK header may legitimately declare up
    // to 256 KiB per 6 input bytes, which is allocated before decoding. The bomb checks
    // themselves are tested in tests/codec; here outputs over 16 MiB are skipped for speed.
    if (size > 8192) return 0;
    const Bytes input(data, size);
    dcx::Decoded d;
    try {
        if (dcx::read_header(input).uncompressed_size > (1u << 24)) return 0;
        d = dcx::decompress(input);
    } catch (const Error&) {
        return 0;
    }
    if (d.payload.size() != d.header.uncompressed_size) __builtin_trap();
    if (d.header.variant != dcx::Variant::None) {
        // Our own encoder's output must decode to the same payload (EDGE, KRAK stored, ...).
        const auto again = dcx::compress(d.payload, d.header.variant, &d.header);
        if (dcx::decompress(again).payload != d.payload) __builtin_trap();
    }
    try {
        (void)bnd4::read(d.payload);
    } catch (const Error&) {
    }
    return 0;
}
