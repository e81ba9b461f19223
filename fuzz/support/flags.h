// Per-target libFuzzer defaults that travel with the target: libFuzzer parses its flags after
// LLVMFuzzerInitialize, which may change argv, so a target can add e.g. its -max_len and every
// runner (tools/fuzz.sh, a campaign script, a developer's command line) gets it.
#pragma once

#include <initializer_list>

namespace navlab::fuzz {

/// Appends each of `flags` ("-name=value") to the command line unless it already sets that
/// -name (what the runner says wins). Call from LLVMFuzzerInitialize with its arguments; the
/// new argv lives until the process exits.
void add_default_flags(int* argc, char*** argv, std::initializer_list<const char*> flags);

}  // namespace navlab::fuzz
