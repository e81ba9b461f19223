// libFuzzer target for the BND4 reader and writer: malformed input must end in navlab::Error,
// never a crash; whatever reads must write, and a written binder must read back and write to
// the same bytes. The custom mutator rewrites mutated entries with navlab's writer so the
// offsets stay consistent (fuzz/support/mutate.h).
#include <cstddef>
#include <cstdint>

#include "container/bnd4.h"
#include "io/error.h"
#include "support/mutate.h"
#include "support/seeds.h"

using namespace navlab;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    fuzz::write_seeds_if_asked(fuzz::bnd4_seeds);
    return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned seed) {
    return fuzz::mutate_bnd4(data, size, max_size, seed);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const bnd4::Binder b = bnd4::read(Bytes(data, size));
        for (const auto& e : b.entries)
            if (e.data().data() < data || e.data().data() + e.data().size() > data + size) __builtin_trap();
        const auto image = bnd4::write(b);
        const bnd4::Binder again = bnd4::read(image);
        if (bnd4::write(again) != image) __builtin_trap();  // the canonical layout is a fixed point
    } catch (const Error&) {
    }
    return 0;
}
