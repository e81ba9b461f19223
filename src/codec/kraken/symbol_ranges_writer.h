// Encoder side of the table building blocks of spec 2.2, shared by the tANS Golomb weight
// table and the Huffman form-C code-length table: the truncated-binary range count, unary
// values and the symbol range list (the inverse of symbol_ranges.h).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "codec/kraken/bit_writer.h"
#include "io/promise.h"

namespace navlab::kraken::detail {

/// Spec 2.2.1 inverse: the range count r for n (1..256) present symbols, truncated binary.
/// (Writer: MsbWriter, or a counter that prices a table without writing it.)
template <class Writer>
void write_range_count(Writer& w, unsigned n, unsigned r) {
    if (n == 256) return;
    const unsigned x = 2 * std::min(257 - n, n);
    const unsigned y = static_cast<unsigned>(std::bit_width(x - 1));
    const unsigned z = (1u << y) - x;
    if (r < z) w.write(r, y - 1);
    else w.write(r + z, y);
}

/// Spec 2.2.2 inverse: v zeros, then a one.
template <class Writer>
void write_unary(Writer& w, unsigned v) {
    w.zeros(v);
    w.write(1, 1);
}

/// At most N values held in place, appended in order. The encoder prices a Huffman table for
/// nearly every array it considers (about a thousand per 16 MiB at level 1), and growing
/// three vectors in range_list() cost more than its loops.
template <class T, std::size_t N>
class BoundedList {
public:
    void push_back(const T& value) {
        NAVLAB_PROMISE(count_ < N);
        items_[count_++] = value;
    }
    std::size_t size() const { return count_; }
    const T* begin() const { return items_.data(); }
    const T* end() const { return items_.data() + count_; }
    const T& front() const { return items_[0]; }
    const T& operator[](std::size_t i) const { return items_[i]; }

private:
    std::array<T, N> items_{};  // zeroed: a copy of the whole list reads defined values
    std::size_t count_ = 0;
};

/// The present symbols (nonzero entries) of a 256-entry table as a 256-bit set, whose runs are
/// found a word at a time. It replaces walks over all 256 entries with a branch an entry, which
/// mispredicted at every edge of a run; a table is priced for nearly every array the encoder
/// considers.
struct SymbolSet {
    std::array<std::uint64_t, 4> bits{};

    template <class Table>
    static SymbolSet of(const Table& table) {
        SymbolSet set;
        for (unsigned s = 0; s < 256; ++s) set.bits[s >> 6] |= std::uint64_t{table[s] != 0} << (s & 63);
        return set;
    }
    /// A table of bytes (code lengths), eight entries a step: 0x80 in each nonzero byte (the
    /// exact test, no carries between bytes), then the eight flags gathered into one byte by a
    /// multiply (flag k lands on bit 56 + k; the other partial products take distinct bits
    /// below 56 or fall off the top, so no carry reaches those eight).
    static SymbolSet of(const std::array<std::uint8_t, 256>& table) {
        static_assert(std::endian::native == std::endian::little, "entry k of a load is byte k");
        constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;
        SymbolSet set;
        for (unsigned i = 0; i < 32; ++i) {
            std::uint64_t x;
            std::memcpy(&x, table.data() + 8 * i, 8);
            const std::uint64_t nonzero = (((x & kLow7) + kLow7) | x) & ~kLow7;
            const std::uint64_t flags = ((nonzero >> 7) * 0x0102040810204080ull) >> 56;
            set.bits[i >> 3] |= flags << (8 * (i & 7));
        }
        return set;
    }
    /// The first symbol s >= from that is present (`present`) or absent (!present); 256 if none.
    unsigned next(unsigned from, bool present) const {
        for (unsigned w = from >> 6; w < 4; ++w) {
            std::uint64_t x = present ? bits[w] : ~bits[w];
            if (w == from >> 6) x &= ~std::uint64_t{0} << (from & 63);
            if (x) return w * 64 + static_cast<unsigned>(std::countr_zero(x));
        }
        return 256;
    }
};

/// Spec 2.2.3 inverse: the unary values and raw bits describing which symbols are present.
/// 256 symbols make at most 128 runs, so at most 255 values of each kind.
struct RangeList {
    BoundedList<unsigned, 256> unary;                          ///< the R extra unary values
    BoundedList<std::pair<std::uint32_t, unsigned>, 256> raw;  ///< (value, bits), in reading order
};

/// The range list of the symbols in `present` (at least one of the 256) into `list` (empty):
/// in place, where the caller holds it (a RangeList is 3 KiB; returned by value into a form-C
/// table's values it was copied whole, a `rep movsb` each plan).
inline void range_list(const SymbolSet& present, RangeList& list) {
    NAVLAB_PROMISE(list.unary.size() == 0 && list.raw.size() == 0);
    BoundedList<std::pair<unsigned, unsigned>, 128> runs;  // [start, end)
    for (unsigned s = present.next(0, true); s < 256;) {
        const unsigned e = present.next(s, false);
        runs.push_back({s, e});
        s = present.next(e, true);
    }
    if (runs.front().first > 0) {  // leading gap: pos = read(u+1) + 2^(u+1) - 1
        const unsigned pos = runs.front().first;
        const unsigned u = static_cast<unsigned>(std::bit_width(pos + 1)) - 2;
        list.unary.push_back(u);
        list.raw.push_back({pos + 1 - (1u << (u + 1)), u + 1});
    }
    for (std::size_t i = 0; i + 1 < runs.size(); ++i) {  // every run but the implicit last one
        const unsigned run = runs[i].second - runs[i].first;
        const unsigned gap = runs[i + 1].first - runs[i].second;
        const unsigned a = static_cast<unsigned>(std::bit_width(run)) - 1;
        const unsigned b = static_cast<unsigned>(std::bit_width(gap + 1)) - 2;
        list.unary.push_back(a), list.unary.push_back(b);
        list.raw.push_back({run - (1u << a), a});
        list.raw.push_back({gap + 1 - (1u << (b + 1)), b + 1});
    }
}

/// The same, returned.
inline RangeList range_list(const SymbolSet& present) {
    RangeList list;
    range_list(present, list);
    return list;
}

}  // namespace navlab::kraken::detail
