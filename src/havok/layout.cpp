#include "havok/layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "io/cpu_features.h"
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

namespace {

/// gap_bytes_all_zero a word at a time: each range as words of up to 8 bytes, OR-ed across
/// the records (any count).
bool gap_words_all_zero(const Layout& layout, const std::uint8_t* records, std::uint32_t size, std::uint32_t count) noexcept {
    if constexpr (std::endian::native != std::endian::little) {
        for (std::uint32_t e = 0; e < count; ++e)
            if (first_nonzero_gap_byte(layout, records + std::size_t{e} * size) >= 0) return false;
        return true;
    }
    if (count == 0) return true;
    std::uint64_t any = 0;
    if (count == 1) {
        // One record (a pointer item: the mesh, the graph, …): each word of its ranges loaded
        // and masked, without the setup of the loop over records below (≈ 40 instructions a
        // word, 1.8 M on Sekiro).
        for (const ZeroRange& z : layout.zeros)
            for (std::uint32_t at = z.offset, end = z.offset + z.size; at < end; at += 8) {
                const std::uint32_t n = std::min<std::uint32_t>(8, end - at);
                if (at + 8 > size) {  // the word would reach past the record
                    for (std::uint32_t k = 0; k < n; ++k) any |= records[at + k];
                    continue;
                }
                std::uint64_t w;
                std::memcpy(&w, records + at, 8);
                any |= n == 8 ? w : w & ((std::uint64_t{1} << (8 * n)) - 1);
            }
        return any == 0;
    }
    const std::uint64_t total = std::uint64_t{size} * count;
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

#if defined(__x86_64__) && defined(__GNUC__)

/// The most 32-byte vectors in a period (lcm(size, 32) bytes) that the vector pass takes.
constexpr std::uint32_t kMaxPeriodVectors = 8;

[[gnu::target("avx2"), gnu::always_inline]] inline __m256i load(const std::uint8_t* at) noexcept {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at));
}

/// Whether `periods` periods of V 32-byte vectors at `p`, AND-ed with the period's gap mask
/// `mask` (V vectors), are all zero: the vectors OR-ed into one accumulator per place in the
/// period (a load-and-OR each, U periods a step), the mask applied once at the end.
template <int V, int U>
[[gnu::target("avx2")]] bool periods_zero_avx2(const std::uint8_t* p, std::uint64_t periods, const std::uint8_t* mask) noexcept {
    __m256i acc[U][V];
    for (int u = 0; u < U; ++u)
        for (int j = 0; j < V; ++j) acc[u][j] = _mm256_setzero_si256();
    std::uint64_t k = 0;
    for (; k + U <= periods; k += U, p += 32 * V * U)
        for (int u = 0; u < U; ++u)
            for (int j = 0; j < V; ++j) acc[u][j] = _mm256_or_si256(acc[u][j], load(p + 32 * (V * u + j)));
    for (; k < periods; ++k, p += 32 * V)
        for (int j = 0; j < V; ++j) acc[0][j] = _mm256_or_si256(acc[0][j], load(p + 32 * j));
    __m256i any = _mm256_setzero_si256();
    for (int j = 0; j < V; ++j) {
        __m256i column = acc[0][j];
        for (int u = 1; u < U; ++u) column = _mm256_or_si256(column, acc[u][j]);
        any = _mm256_or_si256(any, _mm256_and_si256(column, load(mask + 32 * j)));
    }
    return _mm256_testz_si256(any, any);
}

/// periods_zero_avx2 for a period of `vectors` (1 … kMaxPeriodVectors) vectors; a short
/// period takes several a step, so that a step holds about four loads.
bool periods_zero(std::uint32_t vectors, const std::uint8_t* p, std::uint64_t periods, const std::uint8_t* mask) noexcept {
    switch (vectors) {
        case 1: return periods_zero_avx2<1, 4>(p, periods, mask);
        case 2: return periods_zero_avx2<2, 2>(p, periods, mask);
        case 3: return periods_zero_avx2<3, 1>(p, periods, mask);
        case 4: return periods_zero_avx2<4, 1>(p, periods, mask);
        case 5: return periods_zero_avx2<5, 1>(p, periods, mask);
        case 6: return periods_zero_avx2<6, 1>(p, periods, mask);
        case 7: return periods_zero_avx2<7, 1>(p, periods, mask);
        default: return periods_zero_avx2<8, 1>(p, periods, mask);
    }
}

#endif

}  // namespace

bool gap_bytes_all_zero(const Layout& layout, const std::uint8_t* records, std::uint32_t size,
                        std::uint32_t count) noexcept {
    if (layout.zeros.empty()) return true;  // refs but no gaps: nothing to read
#if defined(__x86_64__) && defined(__GNUC__)
    // An array of records as 32-byte vectors: the gap bytes repeat every lcm(size, 32) bytes
    // (a period: `vectors` vectors holding `per_period` records), so one mask of a period's gap
    // bytes serves every period, and a record costs about size / 32 loads and ORs whatever
    // its ranges. The word pass took a load and an OR per word of each range per record,
    // plus ≈ 40 instructions per word of each range per array (5.6 M on Sekiro).
    if (size != 0 && count >= kMinVectorRecords && cpu_has_avx2()) {
        const std::uint32_t common = std::gcd(size, 32u), vectors = size / common, per_period = 32 / common;
        const std::uint64_t periods = count / per_period;
        if (vectors <= kMaxPeriodVectors && periods >= 2) {
            alignas(32) std::uint8_t mask[32 * kMaxPeriodVectors] = {};
            for (std::uint32_t r = 0; r < per_period; ++r)
                for (const ZeroRange& z : layout.zeros) std::memset(mask + r * size + z.offset, 0xFF, z.size);
            if (!periods_zero(vectors, records, periods, mask)) return false;
            const std::uint64_t done = periods * per_period;
            return gap_words_all_zero(layout, records + done * size, size, static_cast<std::uint32_t>(count - done));
        }
    }
#endif
    return gap_words_all_zero(layout, records, size, count);
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
