// Huffman byte arrays, types 2 and 4 (spec 2.3): code-length table forms A, B and C,
// canonical codes, and the interleaved 3-stream groups.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "codec/kraken/bit_reader.h"
#include "codec/kraken/byte_array.h"
#include "codec/kraken/symbol_ranges.h"
#include "io/cpu_features.h"

namespace navlab::kraken::detail {
namespace {

constexpr unsigned kMaxCodeLength = 11;
constexpr unsigned kLutSize = 1u << kMaxCodeLength;

/// Code lengths in the order the table emits them (which decides canonical order, 2.3.5).
struct CodeLengths {
    std::array<std::uint8_t, kSymbolListRoom> symbol;  // form C's range list writes past the count
    std::array<std::uint8_t, 256> length;
    unsigned count = 0;
};

/// Form A (spec 2.3.2): sparse list in transmission order.
void read_form_a(const Context& ctx, const std::uint8_t* at, MsbForward& bits, CodeLengths& table) {
    const unsigned n = bits.read(8);
    ctx.check(n >= 2, at, "Huffman form A: fewer than 2 symbols");
    const unsigned width = bits.read(3);
    ctx.check(width <= 4, at, "Huffman form A: length width above 4");
    for (unsigned i = 0; i < n; ++i) {
        table.symbol[i] = static_cast<std::uint8_t>(bits.read(8));
        table.length[i] = static_cast<std::uint8_t>(bits.read(width) + 1);
        ctx.check(table.length[i] <= kMaxCodeLength, at, "Huffman form A: code length above 11");
    }
    table.count = n;
}

/// gamma2 of form B: z zeros (z <= 7), then 2z+2 bits including them, minus 1.
unsigned read_gamma2(const Context& ctx, const std::uint8_t* at, MsbForward& bits) {
    const unsigned z = bits.leading_zeros();
    ctx.check(z <= 7, at, "Huffman form B: run code too long");
    return bits.read(2 * z + 2) - 1;
}

/// Longest valid form-B length code: max_zeros zeros, the 1, suffix_bits raw bits, where
/// max_zeros = 20 >> suffix_bits (21, 12, 8 and 6 bits for suffix_bits 0..3).
constexpr unsigned kMaxLengthCodeBits = 21;

/// Form B (spec 2.3.2): runs of present symbols with adaptive Rice-coded lengths.
void read_form_b(const Context& ctx, const std::uint8_t* at, MsbForward& bits, CodeLengths& table) {
    const unsigned suffix_bits = bits.read(2);
    const unsigned max_zeros = 20u >> suffix_bits;
    int average = 32;
    unsigned sym = 0;
    // Counted in a local: the byte stores below may alias table.count, which GCC then
    // reloaded and stored around each of them (a store-to-load chain a symbol).
    unsigned count = 0;
    bool skip_gap = bits.read(1) != 0;
    for (;;) {
        if (!skip_gap) {
            sym += read_gamma2(ctx, at, bits);
            if (sym >= 256) break;
        }
        skip_gap = false;
        const unsigned run = read_gamma2(ctx, at, bits);
        ctx.check(sym + run <= 256, at, "Huffman form B: run past symbol 255");
        for (unsigned i = 0; i < run; ++i) {
            // A valid length code is at most max_zeros + 1 + suffix_bits <= 21 bits: one
            // refill test a code (leading_zeros() refilled below 56 bits, so for every code,
            // and read() tested again). A longer run of zeros still fails the check below: the
            // buffer holds at least 21 stream bits, so it counts more than max_zeros too.
            bits.ensure(kMaxLengthCodeBits);
            const unsigned z = bits.buffered_leading_zeros();
            ctx.check(z <= max_zeros, at, "Huffman form B: length code too long");
            bits.consume(z + 1);
            const unsigned v = (z << suffix_bits) | bits.take(suffix_bits);
            const int len = zigzag(v) + ((average + 2) >> 2);
            ctx.check(len >= 1 && len <= static_cast<int>(kMaxCodeLength), at, "Huffman form B: code length out of 1..11");
            average = len + ((3 * average + 2) >> 2);
            table.symbol[count] = static_cast<std::uint8_t>(sym++);
            table.length[count++] = static_cast<std::uint8_t>(len);
        }
        if (sym == 256) break;
    }
    table.count = count;
    ctx.check(sym == 256 && count >= 2, at, "Huffman form B: malformed symbol runs");
}

/// Form C's code lengths i..n-1 from their unary prefixes and the `SuffixBits` raw bits a
/// length that follow them all, `s` the running sum of the deltas before length i: whether
/// any of them is out of 1..11.
template <unsigned SuffixBits>
bool form_c_lengths_from(const std::uint8_t* prefixes, MsbForward& bits, unsigned i, unsigned n, int s,
                         std::uint8_t* length) {
    // 54 / SuffixBits suffixes a refill (54 of the 56 bits one guarantees), taken off a copy
    // of the buffer with constant shifts.
    constexpr unsigned kPerRefill = SuffixBits == 0 ? 256 : 54 / SuffixBits;
    unsigned out_of_range = 0;
    while (i < n) {
        const unsigned end = std::min(n, i + kPerRefill);
        bits.ensure(56);
        std::uint64_t suffixes = bits.buffered_word();
        bits.consume((end - i) * SuffixBits);
        for (; i < end; ++i) {
            unsigned v = prefixes[i];
            if constexpr (SuffixBits > 0) {
                v = v << SuffixBits | static_cast<unsigned>(suffixes >> (64 - SuffixBits));
                suffixes <<= SuffixBits;
            }
            const int d = zigzag(v);
            const int len = d + (s >> 2) + 1;
            s += d;
            out_of_range |= static_cast<unsigned>(len - 1) >= kMaxCodeLength;
            length[i] = static_cast<std::uint8_t>(len);
        }
    }
    return out_of_range != 0;
}

/// The sum of the deltas starts at 30 (spec 2.3.3).
constexpr int kFormCStartSum = 30;

#if defined(__x86_64__) && defined(__GNUC__)
/// form_c_lengths_from 16 lengths a step (AVX-512F; the last 0-15 one at a time): the 16
/// suffixes cut off one buffered word by per-lane shifts, the deltas' running sum by four
/// shifted adds across the lanes. The scalar loop took about 19 instructions a length
/// (callgrind), a third of form C's reading, which was 7-8 % of the Elden Ring binders'
/// decode time (perf). Reads prefixes[i..i+15] only while i + 16 <= n.
template <unsigned SuffixBits>
__attribute__((target("avx512f"))) bool form_c_lengths_avx512(const std::uint8_t* prefixes, MsbForward& bits,
                                                              unsigned n, std::uint8_t* length) {
    // GCC's vector extensions rather than intrinsics for the arithmetic: GCC 12's shift,
    // align and narrowing intrinsics warn (-Wmaybe-uninitialized) on their undefined merge
    // sources. Lane k of the two halves: suffix k sits SuffixBits * (k + 1) bits below the top.
    using Ints = std::int32_t __attribute__((vector_size(64)));
    using Words = std::uint64_t __attribute__((vector_size(64)));
    using HalfInts = std::int32_t __attribute__((vector_size(32)));
    using Bytes16 = std::uint8_t __attribute__((vector_size(16)));
    constexpr unsigned B = SuffixBits;
    constexpr Words kShiftLo = {64 - B, 64 - 2 * B, 64 - 3 * B, 64 - 4 * B, 64 - 5 * B, 64 - 6 * B, 64 - 7 * B, 64 - 8 * B};
    constexpr Ints kZero = {};
    Ints sum = kZero + kFormCStartSum;  // every lane: the deltas' sum before the step
    __mmask16 out_of_range = 0;
    unsigned i = 0;
    for (; i + 16 <= n; i += 16) {
        Ints v = reinterpret_cast<Ints>(
            _mm512_maskz_cvtepu8_epi32(0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(prefixes + i))));
        if constexpr (B > 0) {
            bits.ensure(16 * B);
            const Words word = Words{} + bits.buffered_word();
            bits.consume(16 * B);
            const HalfInts lo = __builtin_convertvector(word >> kShiftLo, HalfInts);
            const HalfInts hi = __builtin_convertvector(word >> (kShiftLo - 8 * B), HalfInts);
            const Ints suffixes = __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            v = v << B | (suffixes & ((1 << B) - 1));
        }
        const Ints d = (v >> 1) ^ -(v & 1);  // zigzag (v < 2^11, so the shift is logical)
        // The inclusive running sum across the lanes: four adds of itself moved up 1, 2, 4, 8 lanes.
        Ints run = d;
        run += __builtin_shufflevector(kZero, run, 0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30);
        run += __builtin_shufflevector(kZero, run, 0, 1, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29);
        run += __builtin_shufflevector(kZero, run, 0, 1, 2, 3, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27);
        run += __builtin_shufflevector(kZero, run, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
        const Ints len = d + ((sum + run - d) >> 2) + 1;  // an arithmetic shift, as the scalar `s >> 2`
        out_of_range |= _mm512_cmpgt_epu32_mask(reinterpret_cast<__m512i>(len - 1), _mm512_set1_epi32(kMaxCodeLength - 1));
        const Bytes16 narrow = __builtin_convertvector(len, Bytes16);  // each length's low byte
        std::memcpy(length + i, &narrow, 16);
        sum += __builtin_shufflevector(run, run, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15);
    }
    return form_c_lengths_from<SuffixBits>(prefixes, bits, i, n, sum[0], length) || out_of_range != 0;
}

/// Whether form C's lengths take form_c_lengths_avx512: the processor has AVX-512F and the
/// system saves its registers (asked once); allow_avx512_huffman_tables' switch lets tests
/// run the scalar loop too.
std::atomic<bool> g_avx512_huffman_tables_allowed{true};
bool use_avx512_form_c() {
    return cpu_has_avx512f_popcnt() && g_avx512_huffman_tables_allowed.load(std::memory_order_relaxed);
}
#else
bool use_avx512_form_c() { return false; }
#endif

template <unsigned SuffixBits>
bool form_c_lengths(const std::uint8_t* prefixes, MsbForward& bits, unsigned n, std::uint8_t* length) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (use_avx512_form_c()) return form_c_lengths_avx512<SuffixBits>(prefixes, bits, n, length);
#endif
    return form_c_lengths_from<SuffixBits>(prefixes, bits, 0, n, kFormCStartSum, length);
}

/// Form C (spec 2.3.3): Golomb-Rice coded length deltas over a symbol range list.
void read_form_c(const Context& ctx, const std::uint8_t* at, MsbForward& bits, CodeLengths& table) {
    const unsigned suffix_bits = bits.read(2);
    const unsigned n = bits.read(8) + 1;
    ctx.check(n >= 2, at, "Huffman form C: single-symbol table");
    // The lengths as the suffixes are read, their check after the range list's (whose errors
    // come first): one test for the whole table rather than a branch a length.
    bool out_of_range = false;
    read_coded_symbols(ctx, at, bits, n, table.symbol.data(), [&](const std::uint8_t* prefixes, MsbForward& local) {
        out_of_range = form_c_code_lengths(suffix_bits, prefixes, local, n, table.length.data());
    });
    ctx.check(!out_of_range, at, "Huffman form C: code length out of 1..11");
    table.count = n;
}

/// LSB-first lookup over the next `bits` stream bits (the table's longest code, 1..11):
/// entry = length | symbol << 8 (the length in the low byte, where a shift takes its count).
struct Lut {
    std::array<std::uint16_t, kLutSize> entry;
    unsigned bits;
};

/// kReverse11[i] = i with its 11 bits in reverse order.
constexpr std::array<std::uint16_t, kLutSize> make_reverse_table() {
    std::array<std::uint16_t, kLutSize> t{};
    for (unsigned i = 0; i < kLutSize; ++i)
        for (unsigned b = 0; b < kMaxCodeLength; ++b)
            if (i >> b & 1) t[i] = static_cast<std::uint16_t>(t[i] | 1u << (kMaxCodeLength - 1 - b));
    return t;
}
constexpr std::array<std::uint16_t, kLutSize> kReverse11 = make_reverse_table();

/// Copies entries [0, n) of a table to [n, 2n) (n a power of two). 16 bytes a step at 8
/// entries, 32 from 16 on: GCC turns a variable-size memcpy here into `rep movsq`, whose
/// start-up cost dominated the 10 or so small copies of each table.
inline void double_table(std::uint16_t* entry, unsigned n) {
    using Block = std::uint16_t __attribute__((vector_size(16)));
    auto copy_block = [&](unsigned i) {
        Block b;
        std::memcpy(&b, entry + i, 16);
        std::memcpy(entry + n + i, &b, 16);
    };
    if (n < 8) {
        for (unsigned i = 0; i < n; ++i) entry[n + i] = entry[i];
    } else if (n == 8) {
        copy_block(0);
    } else {
        for (unsigned i = 0; i < n; i += 16) copy_block(i), copy_block(i + 8);
    }
}

/// The plain counting sort of sort_by_code_length: a histogram, then each symbol to its
/// length's next slot.
void sort_by_code_length_scalar(const std::uint8_t* symbols, const std::uint8_t* lengths, unsigned n,
                                unsigned* count, std::uint8_t* sorted) {
    std::fill_n(count, kMaxCodeLength + 1, 0u);
    for (unsigned i = 0; i < n; ++i) ++count[lengths[i]];
    unsigned slot[kMaxCodeLength + 1];
    for (unsigned len = 1, index = 0; len <= kMaxCodeLength; ++len) slot[len] = index, index += count[len];
    for (unsigned i = 0; i < n; ++i) sorted[slot[lengths[i]]++] = symbols[i];
}

#if defined(__x86_64__) && defined(__GNUC__)
/// sort_by_code_length 64 symbols a step (AVX-512 BW and VBMI2): for each length, every block
/// of lengths compared with it at once, the matching symbols packed together by one
/// `vpcompressb` and stored (64 bytes, so up to 64 past the n symbols: kSortedRoom), and counted by
/// the mask's popcount. The scalar loops' `++count[len]` and `slot[len]++` each wait on the
/// last store to the same slot when lengths repeat (most of them do): about 2 % of the Elden
/// Ring binders' decode time (perf). Reads symbols and lengths [0, n) only (masked loads).
__attribute__((target("avx512f,avx512bw,avx512vbmi2,popcnt"))) void sort_by_code_length_vbmi2(
    const std::uint8_t* symbols, const std::uint8_t* lengths, unsigned n, unsigned* count, std::uint8_t* sorted) {
    constexpr unsigned kBlocks = 256 / 64;
    __m512i length_block[kBlocks], symbol_block[kBlocks];
    const unsigned blocks = (n + 63) / 64;
    for (unsigned b = 0; b < blocks; ++b) {
        const unsigned left = n - 64 * b;
        const __mmask64 valid = left >= 64 ? ~__mmask64{0} : (__mmask64{1} << left) - 1;
        // Lanes past n hold length 0, which no length matches.
        length_block[b] = _mm512_maskz_loadu_epi8(valid, lengths + 64 * b);
        symbol_block[b] = _mm512_maskz_loadu_epi8(valid, symbols + 64 * b);
    }
    count[0] = 0;
    unsigned pos = 0;
    for (unsigned len = 1; len <= kMaxCodeLength; ++len) {
        const __m512i wanted = _mm512_set1_epi8(static_cast<char>(len));
        const unsigned start = pos;
        for (unsigned b = 0; b < blocks; ++b) {
            const __mmask64 match = _mm512_cmpeq_epi8_mask(length_block[b], wanted);
            _mm512_storeu_si512(sorted + pos, _mm512_maskz_compress_epi8(match, symbol_block[b]));
            pos += static_cast<unsigned>(__builtin_popcountll(match));
        }
        count[len] = pos - start;
    }
}

/// Whether sort_by_code_length takes its VBMI2 loop (asked once; the same switch as form C's).
bool use_vbmi2_sort() {
    return cpu_has_avx512_vbmi2() && g_avx512_huffman_tables_allowed.load(std::memory_order_relaxed);
}
#endif

/// Canonical code assignment (spec 2.3.5) into the lookup table, sized by the longest code M
/// rather than 11 bits (small tables are common: the ER binders hold thousands). The table
/// grows by doubling, one code length at a time: the LSB-first table of the codes up to
/// length L+1 is that of length L written twice (an index's extra high bit does not matter
/// for shorter codes), plus one entry per code of length L+1 at its bit-reversed code. So
/// the build costs 2 x 2^M entries of memcpy and one store per symbol, where a strided fill
/// costs 2^M scattered stores and a mispredicted loop exit per symbol. Entries not yet
/// covered at some length are prefixes of longer codes: a complete code (checked) overwrites
/// every one of them by length M.
void build_lut(const Context& ctx, const std::uint8_t* at, const CodeLengths& table, Lut& lut) {
    unsigned count[kMaxCodeLength + 1];
    std::uint8_t sorted[kSortedRoom];  // symbols stably sorted by code length
    sort_by_code_length(table.symbol.data(), table.length.data(), table.count, count, sorted);
    unsigned longest = kMaxCodeLength;
    while (count[longest] == 0) --longest;  // table.count >= 2, so some length is present
    unsigned first[kMaxCodeLength + 1];
    unsigned code_pos[kMaxCodeLength + 1];  // first code of each length, as an 11-bit MSB index
    unsigned pos = 0, index = 0;
    for (unsigned len = 1; len <= kMaxCodeLength; ++len) {
        first[len] = index;
        index += count[len];
        code_pos[len] = pos;
        pos += count[len] << (kMaxCodeLength - len);
    }
    ctx.check(pos == kLutSize, at, "Huffman: code lengths do not form a complete prefix code");

    std::uint16_t* entry = lut.entry.data();
    entry[0] = entry[1] = 0;
    for (unsigned len = 1; len <= longest; ++len) {
        if (len > 1) double_table(entry, 1u << (len - 1));
        unsigned code = code_pos[len];
        for (unsigned k = first[len]; k < first[len] + count[len]; ++k, code += kLutSize >> len)
            entry[kReverse11[code]] = static_cast<std::uint16_t>(len | sorted[k] << 8);
    }
    lut.bits = longest;
}

/// One symbol from an LSB-first reader; needs >= lut.bits buffered bits. `mask` is
/// 2^lut.bits - 1, kept in a register by the caller.
template <class Reader>
inline std::uint8_t decode_symbol(Reader& bits, const Lut& lut, std::uint32_t mask) {
    const std::uint16_t e = lut.entry[bits.buffered(kMaxCodeLength) & mask];
    bits.consume(e & 0xFF);
    return static_cast<std::uint8_t>(e >> 8);
}

/// A 3-stream group (spec 2.3.6): symbol j from A, C, B for j mod 3 = 0, 1, 2. One half of
/// a 6-stream array is such a group too.
class Group {
public:
    Group(const std::uint8_t* a, std::size_t a_size, const std::uint8_t* bc, std::size_t bc_size, std::uint8_t* out,
          std::size_t count)
        : a_(a), bc_(bc), a_size_(a_size), bc_size_(bc_size), sa_(a, a_size), sb_(bc, bc_size), sc_(bc, bc_size),
          out_(out), count_(count) {}

    /// Whether 15 symbols (5 from each stream) are left: what one refill of each covers, as 5
    /// symbols of at most 11 bits fit the 56 bits a refill guarantees.
    bool fifteen_left() const { return count_ - j_ >= 15; }
    void refill() { sa_.refill(), sb_.refill(), sc_.refill(); }
    /// Symbols j, j+1, j+2 (after refill(), at most 5 times per refill).
    void three(const Lut& lut, std::uint32_t mask) {
        out_[j_] = decode_symbol(sa_, lut, mask);
        out_[j_ + 1] = decode_symbol(sc_, lut, mask);
        out_[j_ + 2] = decode_symbol(sb_, lut, mask);
        j_ += 3;
    }
    /// Every symbol left (see finish_here), on a copy of the group in local variables:
    /// the symbols are stored as bytes, which may alias any object whose address is
    /// taken, so with the readers in a Group in memory GCC reloaded and stored their state
    /// around every symbol (19 instructions a symbol on ooffice's 3-stream arrays).
    void finish(const Lut& lut, std::uint32_t mask) {
        Group local = *this;
        local.finish_here(lut, mask);
        *this = local;
    }
    /// Every symbol left: 15 a round while there are, then one a refill.
    [[gnu::always_inline]] void finish_here(const Lut& lut, std::uint32_t mask) {
        while (std::size_t rounds = word_rounds_left()) word_rounds(lut, mask, rounds);
        while (fifteen_left()) {
            refill();
            for (int r = 0; r < 5; ++r) three(lut, mask);
        }
        for (; j_ < count_; ++j_) {
            switch (j_ % 3) {
                case 0: sa_.refill(), out_[j_] = decode_symbol(sa_, lut, mask); break;
                case 1: sc_.refill(), out_[j_] = decode_symbol(sc_, lut, mask); break;
                default: sb_.refill(), out_[j_] = decode_symbol(sb_, lut, mask); break;
            }
        }
    }
    /// Rounds of 15 symbols that every stream can refill for with whole words, without the
    /// region-end test (bounded by each reader's word_refills_left()).
    std::size_t word_rounds_left() const {
        return std::min({(count_ - j_) / 15, sa_.word_refills_left(), sb_.word_refills_left(), sc_.word_refills_left()});
    }
    /// `rounds` rounds of 15 symbols (at most word_rounds_left()) on the readers' cursors:
    /// three values a stream, which with the output and the table fit the registers, where
    /// the readers' five values a stream and the end tests did not.
    [[gnu::always_inline]] void word_rounds(const Lut& lut, std::uint32_t mask, std::size_t rounds) {
        LsbForward::Cursor a = sa_.cursor(), b = sb_.cursor();
        LsbBackward::Cursor c = sc_.cursor();
        std::uint8_t* out = out_ + j_;
        const std::uint16_t* entry = lut.entry.data();
        auto symbol = [&](auto& cur) {
            const std::uint32_t e = entry[cur.bits & mask];
            cur.bits >>= e & 63;  // the code's length, the entry's low byte (a shift's own count)
            cur.count -= e;       // exact in the low byte: the symbol's part borrows only above it
            return static_cast<std::uint8_t>(e >> 8);
        };
        j_ += 15 * rounds;
        do {
            a.count &= 0xFF, b.count &= 0xFF, c.count &= 0xFF;
            LsbForward::refill_word(a), LsbForward::refill_word(b), LsbBackward::refill_word(c);
            for (int r = 0; r < 5; ++r) out[3 * r] = symbol(a);
            for (int r = 0; r < 5; ++r) out[3 * r + 1] = symbol(c);
            for (int r = 0; r < 5; ++r) out[3 * r + 2] = symbol(b);
            out += 15;
        } while (--rounds);
        a.count &= 0xFF, b.count &= 0xFF, c.count &= 0xFF;
        sa_.resume(a), sb_.resume(b), sc_.resume(c);
    }
    /// Every stream ends exactly at its region's end (after finish()).
    void check_ends(const Context& ctx) const {
        ctx.check(sa_.footprint() == a_size_, a_, "Huffman: stream A does not end at its region end");
        ctx.check(sb_.footprint() + sc_.footprint() == bc_size_, bc_, "Huffman: streams B and C do not meet");
    }

private:
    const std::uint8_t *a_, *bc_;
    std::size_t a_size_, bc_size_;
    LsbForward sa_, sb_;
    LsbBackward sc_;
    std::uint8_t* out_;
    std::size_t count_, j_ = 0;
};

/// Splits one half `[s: u16le][A: s bytes][BC]` into its group.
Group split_half(const Context& ctx, const std::uint8_t* half, std::size_t size, std::uint8_t* out, std::size_t count,
                 std::size_t min_bc) {
    ctx.check(size >= 2, half, "Huffman: stream split missing");
    const std::size_t a_size = u16le(half);
    ctx.check(a_size + 2 <= size && size - 2 - a_size >= min_bc, half, "Huffman: stream split past the payload");
    return Group(half + 2, a_size, half + 2 + a_size, size - 2 - a_size, out, count);
}

void decode_three_streams(const Context& ctx, const Lut& lut, Group g) {
    g.finish(lut, (1u << lut.bits) - 1);
    g.check_ends(ctx);
}

/// The two halves of a 6-stream array one after the other, each on the word-cursor loop of a
/// 3-stream group (six cursors in one loop spilled registers and timed no better: docs/kraken.md,
/// thirty-seventh session). The checks are those of two 3-stream groups; when both halves are
/// broken, the second's split is reported before the first's stream ends.
void decode_six_streams(const Context& ctx, const Lut& lut, Group first, Group second) {
    const std::uint32_t mask = (1u << lut.bits) - 1;
    first.finish(lut, mask);
    second.finish(lut, mask);
    first.check_ends(ctx);
    second.check_ends(ctx);
}

}  // namespace

bool form_c_code_lengths(unsigned suffix_bits, const std::uint8_t* prefixes, MsbForward& bits, unsigned n,
                         std::uint8_t* length) {
    switch (suffix_bits) {
        case 0: return form_c_lengths<0>(prefixes, bits, n, length);
        case 1: return form_c_lengths<1>(prefixes, bits, n, length);
        case 2: return form_c_lengths<2>(prefixes, bits, n, length);
        default: return form_c_lengths<3>(prefixes, bits, n, length);
    }
}

void sort_by_code_length(const std::uint8_t* symbols, const std::uint8_t* lengths, unsigned n, unsigned* count,
                         std::uint8_t* sorted) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (use_vbmi2_sort()) return sort_by_code_length_vbmi2(symbols, lengths, n, count, sorted);
#endif
    sort_by_code_length_scalar(symbols, lengths, n, count, sorted);
}

bool allow_avx512_huffman_tables(bool allowed) {
#if defined(__x86_64__) && defined(__GNUC__)
    g_avx512_huffman_tables_allowed.store(allowed, std::memory_order_relaxed);
#endif
    return use_avx512_form_c();
}

void decode_huffman(const Context& ctx, const std::uint8_t* src, std::size_t src_size, std::uint8_t* out,
                    std::size_t dst_size, bool six_streams) {
    MsbForward bits(src, src_size);
    CodeLengths table;
    switch (bits.read(2)) {
        case 0: read_form_a(ctx, src, bits, table); break;
        case 1: read_form_b(ctx, src, bits, table); break;
        case 2: read_form_c(ctx, src, bits, table); break;
        default: ctx.fail(src, "Huffman: invalid table form 3");
    }
    const std::uint64_t table_size = bits.footprint();
    ctx.check(table_size <= src_size, src, "Huffman: code-length table runs past the payload");
    Lut lut;
    build_lut(ctx, src, table, lut);

    const std::uint8_t* p = src + table_size;
    const std::size_t size = src_size - table_size;
    if (!six_streams) {
        ctx.check(size >= 3, p, "Huffman-3: payload too short for the stream split");
        decode_three_streams(ctx, lut, split_half(ctx, p, size, out, dst_size, 0));
        return;
    }
    ctx.check(size >= 6, p, "Huffman-6: payload too short for the stream split");
    const std::size_t first = u24le(p);
    ctx.check(first <= size - 3 && size - 3 - first >= 3, p, "Huffman-6: half split past the payload");
    const std::size_t first_count = (dst_size + 1) / 2;
    const Group one = split_half(ctx, p + 3, first, out, first_count, 2);
    const Group two = split_half(ctx, p + 3 + first, size - 3 - first, out + first_count, dst_size - first_count, 2);
    decode_six_streams(ctx, lut, one, two);
}

}  // namespace navlab::kraken::detail
