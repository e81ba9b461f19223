// Encoder side of the table building blocks of spec 2.2, shared by the tANS Golomb weight
// table and the Huffman form-C code-length table: the truncated-binary range count, unary
// values and the symbol range list (the inverse of symbol_ranges.h).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "codec/kraken/bit_writer.h"

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
        assert(count_ < N);
        items_[count_++] = value;
    }
    std::size_t size() const { return count_; }
    const T* begin() const { return items_.data(); }
    const T* end() const { return items_.data() + count_; }
    const T& front() const { return items_[0]; }
    const T& operator[](std::size_t i) const { return items_[i]; }

private:
    std::array<T, N> items_{};  // zeroed: RangeList is copied whole (3 KiB, a few stores)
    std::size_t count_ = 0;
};

/// Spec 2.2.3 inverse: the unary values and raw bits describing which symbols are present.
/// 256 symbols make at most 128 runs, so at most 255 values of each kind.
struct RangeList {
    BoundedList<unsigned, 256> unary;                          ///< the R extra unary values
    BoundedList<std::pair<std::uint32_t, unsigned>, 256> raw;  ///< (value, bits), in reading order
};

/// The range list of the symbols s with present[s] != 0 (at least one of the 256).
template <class Table>
RangeList range_list(const Table& present) {
    BoundedList<std::pair<unsigned, unsigned>, 128> runs;  // [start, end)
    for (unsigned s = 0; s < 256;) {
        if (!present[s]) {
            ++s;
            continue;
        }
        unsigned e = s;
        while (e < 256 && present[e]) ++e;
        runs.push_back({s, e});
        s = e;
    }
    RangeList list;
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
    return list;
}

}  // namespace navlab::kraken::detail
