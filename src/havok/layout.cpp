#include "havok/layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "io/error.h"

namespace navlab::havok {
namespace {

/// Marks [offset, offset+size) covered and appends the member's own leaves and zeros shifted.
void place(Layout& out, std::vector<std::uint8_t>& covered, const Layout& inner, std::uint32_t offset,
           std::uint32_t size) {
    std::fill(covered.begin() + offset, covered.begin() + offset + size, 1);
    for (RefLeaf leaf : inner.refs) leaf.offset += offset, out.refs.push_back(leaf);
    for (const ZeroRange& z : inner.zeros)
        std::fill(covered.begin() + offset + z.offset, covered.begin() + offset + z.offset + z.size, 0);
}

std::vector<ZeroRange> uncovered(const std::vector<std::uint8_t>& covered) {
    std::vector<ZeroRange> out;
    for (std::uint32_t i = 0; i < covered.size();) {
        if (covered[i]) { ++i; continue; }
        std::uint32_t j = i;
        while (j < covered.size() && !covered[j]) ++j;
        out.push_back({i, j - i});
        i = j;
    }
    return out;
}

}  // namespace

bool gap_bytes_all_zero(const Layout& layout, const std::uint8_t* records, std::uint32_t size,
                        std::uint32_t count) noexcept {
    if constexpr (std::endian::native != std::endian::little) {
        for (std::uint32_t e = 0; e < count; ++e)
            if (first_nonzero_gap_byte(layout, records + std::size_t{e} * size) >= 0) return false;
        return true;
    }
    if (count == 0) return true;
    const std::uint64_t total = std::uint64_t{size} * count;
    std::uint64_t any = 0;
    for (const ZeroRange& z : layout.zeros)
        for (std::uint32_t at = z.offset, end = z.offset + z.size; at < end; at += 8) {
            const std::uint32_t n = std::min<std::uint32_t>(8, end - at);
            const std::uint64_t mask = n == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * n)) - 1;
            // A word's load may reach into the next record (masked off), never past the array:
            // the records whose word would are read byte by byte.
            const std::uint64_t whole = total >= at + 8u ? std::min<std::uint64_t>(count, (total - at - 8) / size + 1) : 0;
            // The words OR-ed unmasked into four accumulators, the mask applied once: a load and
            // an OR a record instead of a dependent chain of three.
            const std::uint8_t* word = records + at;
            std::uint64_t acc[4] = {0, 0, 0, 0};
            std::uint64_t e = 0;
            for (; e + 4 <= whole; e += 4, word += 4 * std::size_t{size})
                for (int j = 0; j < 4; ++j) {
                    std::uint64_t w;
                    std::memcpy(&w, word + j * std::size_t{size}, 8);
                    acc[j] |= w;
                }
            for (; e < whole; ++e, word += size) {
                std::uint64_t w;
                std::memcpy(&w, word, 8);
                acc[0] |= w;
            }
            any |= ((acc[0] | acc[1]) | (acc[2] | acc[3])) & mask;
            for (std::uint64_t e = whole; e < count; ++e)
                for (std::uint32_t k = 0; k < n; ++k) any |= records[e * size + at + k];
        }
    return any == 0;
}

const Layout& Layouts::compute(TypeIndex t, int depth) {
    const TypeTable& types = *types_;
    const Type& type = types[t];
    if (state_[t] == 2) return layouts_[t];
    if (state_[t] == 1) throw Error(fmt::format("type {} ({}) contains itself", t, types.full_name(t)));
    if (depth > 64) throw Error(fmt::format("type {} ({}) is nested more than 64 levels deep", t, types.full_name(t)));
    state_[t] = 1;
    Layout out;
    const std::uint32_t size = type.resolved_size;
    switch (type.kind()) {
        case Kind::Pointer:
        case Kind::String:
            out.refs.push_back({0, t, type.kind()});
            break;
        case Kind::Array:
            if (type.is_inline_array()) {
                const TypeIndex elem = type.resolved_subtype;
                const std::uint32_t esize = types[elem].resolved_size;
                if (std::uint64_t{esize} * type.inline_count() > size)
                    throw Error(fmt::format("type {} ({}): {} elements of {} bytes do not fit its size {}", t,
                                            types.full_name(t), type.inline_count(), esize, size));
                const Layout& inner = compute(elem, depth + 1);
                std::vector<std::uint8_t> covered(size, 0);
                for (std::uint32_t i = 0; i < type.inline_count(); ++i) place(out, covered, inner, i * esize, esize);
                out.zeros = uncovered(covered);
            } else if (type.is_hk_array()) {
                out.refs.push_back({0, t, Kind::Array});
                out.zeros.push_back({8, 8});  // m_size, m_capacityAndFlags
            } else if (size) {
                out.zeros.push_back({0, size});  // hkPropertyBag, hkReflect::Any, hkRelArray: no data
            }
            break;
        case Kind::Record: {
            std::vector<std::uint8_t> covered(size, 0);
            for (const Member& m : types.all_members(t)) {
                const std::uint32_t msize = types[m.type].resolved_size;
                if (std::uint64_t{m.offset} + msize > size)
                    throw Error(fmt::format("type {} ({}, size {}) does not hold member {} (offset {}, size {})", t,
                                            types.full_name(t), size, m.name, m.offset, msize));
                if (!m.serialized()) continue;
                place(out, covered, compute(m.type, depth + 1), m.offset, msize);
            }
            out.zeros = uncovered(covered);
            break;
        }
        default:
            break;  // Void, Opaque, Bool, Int, Float: all bytes are value
    }
    layouts_[t] = std::move(out);
    state_[t] = 2;
    return layouts_[t];
}

}  // namespace navlab::havok
