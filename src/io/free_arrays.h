// Giving back the memory of arrays a thread keeps for reuse, when they are large.
#pragma once

#include <cstddef>
#include <type_traits>

namespace navlab {

/// Frees each of `arrays` (vectors) whose capacity takes at least `min_bytes` bytes; the others
/// keep theirs (0: frees them all). An empty vector is moved in: `v = {}` would be a vector's
/// initializer-list assignment, which keeps the capacity. Why: what the audit's workers keep
/// between tagfiles is sized for the largest tagfile each one audited (docs/audit.md).
template <class... Arrays>
void free_arrays_of_at_least(std::size_t min_bytes, Arrays&... arrays) {
    auto free_if_large = [min_bytes](auto& v) {
        using Vector = std::remove_reference_t<decltype(v)>;
        if (v.capacity() * sizeof(typename Vector::value_type) >= min_bytes) v = Vector();
    };
    (free_if_large(arrays), ...);
}

}  // namespace navlab
