// The two libFuzzer hooks of every target whose input is one Havok tagfile (fuzz_tagfile,
// fuzz_nav_model, fuzz_audit, fuzz_export): seeds written by navlab's own writers, and the
// section-aware mutator. libFuzzer finds the hooks by name in the target, so each target
// expands NAVLAB_FUZZ_TAGFILE_HOOKS once at namespace scope.
#pragma once

#include <cstddef>
#include <cstdint>

#include "support/mutate.h"
#include "support/seeds.h"

#define NAVLAB_FUZZ_TAGFILE_HOOKS()                                                                       \
    extern "C" int LLVMFuzzerInitialize(int*, char***) {                                                  \
        navlab::fuzz::write_seeds_if_asked(navlab::fuzz::tagfile_seeds);                                  \
        return 0;                                                                                         \
    }                                                                                                     \
    extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max, \
                                                   unsigned seed) {                                       \
        return navlab::fuzz::mutate_tagfile(data, size, max, seed);                                       \
    }
