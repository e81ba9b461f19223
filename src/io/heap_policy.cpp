#include "io/heap_policy.h"

#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace navlab {

void map_large_blocks_on_their_own() {
#if defined(__GLIBC__)
    static std::once_flag once;
    // Setting M_MMAP_THRESHOLD also turns off glibc's dynamic raising of it.
    std::call_once(once, [] { mallopt(M_MMAP_THRESHOLD, static_cast<int>(kOwnMappingBytes)); });
#endif
}

}  // namespace navlab
