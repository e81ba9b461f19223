// libFuzzer target for the container readers: any input goes through DCX decompression
// and BND4 reading. Malformed input must end in navlab::Error, never a crash; whatever
// reads must write, and a written binder must read back and write to the same bytes.
#include <cstddef>
#include <cstdint>

#include "codec/dcx.h"
#include "container/bnd4.h"
#include "io/error.h"

using namespace navlab;

namespace {

void check_binder(Bytes bytes) {
    try {
        const bnd4::Binder b = bnd4::read(bytes);
        const auto image = bnd4::write(b);
        const bnd4::Binder again = bnd4::read(image);
        if (bnd4::write(again) != image) __builtin_trap();  // the canonical layout is a fixed point
    } catch (const Error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Larger inputs only make every run slower: a KRAK header may legitimately declare up
    // to 256 KiB per 6 input bytes, which is allocated before decoding.
    if (size > 8192) return 0;
    const Bytes input(data, size);
    try {
        const dcx::Decoded d = dcx::decompress(input);
        if (d.payload.size() != d.header.uncompressed_size) __builtin_trap();
        check_binder(d.payload);
    } catch (const Error&) {
    }
    check_binder(input);
    return 0;
}
