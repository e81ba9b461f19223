// Per-type layout of what DATA holds for one value of a type: the reference leaves (pointer,
// string and hkArray fields, spec §5.2) in scan order, and the byte ranges that must be zero
// (record gaps, non-serialized members, vtable slots, non-hkArray array kinds). Computed once per
// type and shared by the strict reader and the writer.
#pragma once

#include <cstdint>
#include <vector>

#include "havok/types.h"

namespace navlab::havok {

/// One reference field inside a value.
struct RefLeaf {
    std::uint32_t offset = 0;  ///< from the start of the value
    TypeIndex field_type = 0;  ///< declared, outermost type (the PTCH group type)
    Kind kind = Kind::Pointer; ///< Pointer, String or Array (hkArray)
};

/// A byte range that is zero in every valid file.
struct ZeroRange {
    std::uint32_t offset = 0, size = 0;
};

struct Layout {
    std::vector<RefLeaf> refs;     ///< in scan order: members in declaration order, parents first
    std::vector<ZeroRange> zeros;  ///< sorted, merged
    bool plain() const noexcept { return refs.empty() && zeros.empty(); }
};

/// The first byte of one record that lies in a zero range of `layout` and is not 0, as an
/// offset from the record's start; -1 when every such byte is 0. `record` must hold the type's
/// resolved size. The reader (verify.cpp) and the builder (builder.cpp) both check records
/// with it, so a file the builder accepts is one the strict reader accepts.
inline std::int64_t first_nonzero_gap_byte(const Layout& layout, const std::uint8_t* record) noexcept {
    for (const ZeroRange& z : layout.zeros)
        for (std::uint32_t k = 0; k < z.size; ++k)
            if (record[z.offset + k]) return std::int64_t{z.offset} + k;
    return -1;
}

/// Arrays of at least this many records (and two periods, see gap_bytes_all_zero) are read
/// as 32-byte vectors where the processor has AVX2; shorter ones, and what is left after the
/// last whole period, word by word.
inline constexpr std::uint32_t kMinVectorRecords = 16;

/// Whether every byte of `count` consecutive records of `size` bytes at `records` that lies in
/// a zero range of `layout` is 0: first_nonzero_gap_byte over a whole array, which is then
/// asked for the first offending byte only when this says there is one. Without a branch per
/// record (byte by byte, an edge's gap byte and a face's padding were 2 % of a Sekiro audit):
/// the ranges as words of up to 8 bytes, masked and OR-ed across the records, or, for arrays
/// of kMinVectorRecords or more whose period lcm(size, 32) is at most 256 bytes, whole periods
/// as 32-byte vectors OR-ed and masked once (AVX2). `layout`'s ranges must lie inside `size`;
/// `records` must hold size × count bytes; nothing past them is read.
bool gap_bytes_all_zero(const Layout& layout, const std::uint8_t* records, std::uint32_t size,
                        std::uint32_t count) noexcept;

/// Lazily computed layouts of a table's types.
class Layouts {
public:
    explicit Layouts(const TypeTable& types) : types_(&types), layouts_(types.size() + 1), state_(types.size() + 1) {}
    /// The layout of type t. Throws navlab::Error on a member outside its type, a type that
    /// contains itself, or nesting deeper than 64 levels.
    /// Inline for a type already computed (a cached table's, ≈ 17 items a tagfile).
    const Layout& of(TypeIndex t) {
        if (t < state_.size() && state_[t] == 2) return layouts_[t];
        return compute(t, 0);
    }

private:
    const Layout& compute(TypeIndex t, int depth);
    const TypeTable* types_;
    std::vector<Layout> layouts_;
    std::vector<std::uint8_t> state_;  // 0 new, 1 in progress, 2 done
};

}  // namespace navlab::havok
