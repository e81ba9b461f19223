// libFuzzer target for the tagfile reader and writer: malformed input must end in
// navlab::Error, never a crash, hang or unbounded allocation. Whatever reads strictly must
// round-trip: the written file reads back and writes to the same bytes.
// Seeds: fuzz/support/seeds.h (navlab's writers, never game files); the custom mutator
// fuzzes one leaf section at a time and keeps the section sizes consistent.
#include <cstddef>
#include <cstdint>

#include "havok/object.h"
#include "havok/tagfile.h"
#include "havok/writer.h"
#include "io/error.h"
#include "support/tagfile_hooks.h"

using namespace navlab;

NAVLAB_FUZZ_TAGFILE_HOOKS()

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const Bytes bytes(data, size);
    try {
        const havok::Tagfile t = havok::read_tagfile(bytes);
        for (const havok::NamedVariant& v : t.named_variants())
            if (v.object) (void)v.object->type_name();
        const auto image = havok::write_tagfile(t);
        const havok::Tagfile again = havok::read_tagfile(image);
        if (havok::write_tagfile(again) != image) __builtin_trap();  // the writer's layout is a fixed point
    } catch (const Error&) {
    }
    try {  // the structure-only mode must be as safe
        havok::ReadOptions loose;
        loose.verify_objects = false;
        (void)havok::read_tagfile(bytes, loose);
    } catch (const Error&) {
    }
    return 0;
}
