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
#include "support/flags.h"
#include "support/mutate.h"
#include "support/seeds.h"

using namespace navlab;

namespace {
constexpr int kKrakenLevel = 1;
}

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    // Inputs over 8 KiB are skipped below: libFuzzer need not make them.
    fuzz::add_default_flags(argc, argv, {"-max_len=8192"});
    fuzz::write_seeds_if_asked(fuzz::dcx_seeds);
    return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned seed) {
    return fuzz::mutate_dcx(data, size, max_size, seed);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Larger inputs only make every run slower: a KRAK header may legitimately declare up
    // to 256 KiB per 6 input bytes, which is allocated (and zeroed, page by page) before
    // decoding. The bomb checks themselves are tested in tests/codec; here outputs over
    // 1 MiB (four Kraken blocks, sixteen EDGE chunks: every multi-block path) are skipped:
    // at 16 MiB the allocation's page faults were a third of every run.
    if (size > 8192) return 0;
    const Bytes input(data, size);
    dcx::Decoded d;
    try {
        if (dcx::read_header(input).uncompressed_size > (1u << 20)) return 0;
        d = dcx::decompress(input);
    } catch (const Error&) {
        return 0;
    }
    if (d.payload.size() != d.header.uncompressed_size) __builtin_trap();
    if (d.header.variant != dcx::Variant::None) {
        // Our own encoder's output must decode to the same payload (EDGE, KRAK stored, ...).
        // Kraken at level 1: the header's level (6 or 9: optimal parsing) took two thirds of
        // every run; the encoder's levels are fuzzed on their own by fuzz_kraken_encode.
        const auto again = dcx::compress(d.payload, d.header.variant, &d.header, kKrakenLevel);
        if (dcx::decompress(again).payload != d.payload) __builtin_trap();
    }
    try {
        (void)bnd4::read(d.payload);
    } catch (const Error&) {
    }
    return 0;
}
