// Byte-array encoder (spec 2): stored, RLE, Huffman, tANS and split arrays, whichever is
// smallest. Huffman arrays take the smaller of the form-B (spec 2.3.2, every Sekiro stream)
// and form-C (2.3.3, Elden Ring) code-length tables, with canonical codes (2.3.5) written
// into 3-stream groups (2.3.6).
#include "codec/kraken/array_encoder.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>

#include "codec/kraken/bit_writer.h"
#include "codec/kraken/symbol_ranges_writer.h"
#include "codec/kraken/tans_encoder.h"

namespace navlab::kraken::detail {
namespace {

constexpr unsigned kMaxCodeLength = 11;
/// Below this size a Huffman table (tens of bytes) cannot pay for itself.
constexpr std::size_t kMinHuffmanSize = 24;

enum ArrayType : unsigned { kStored = 0, kTans = 1, kHuffman3 = 2, kRle = 3, kHuffman6 = 4, kSequential = 5 };

/// Bytes by which plan_huffman()'s estimate may exceed the array it prices.
constexpr std::size_t kEstimateMargin = 8;

/// Smallest part of an array given its own table by a type-5 split.
constexpr std::size_t kMinSplitPart = 1024;


std::size_t stored_header_size(std::size_t n, bool long_header) { return !long_header && n <= 0xFFF ? 2 : 3; }

void put_stored_header(std::vector<std::uint8_t>& out, std::size_t n, bool long_header) {
    if (stored_header_size(n, long_header) == 2) {
        out.push_back(static_cast<std::uint8_t>(0x80 | n >> 8));
        out.push_back(static_cast<std::uint8_t>(n));
    } else {
        put_u24be(out, static_cast<std::uint32_t>(n));
    }
}

/// Spec 2.1 coded header: short form when both 10-bit fields fit. Needs src < dst.
std::size_t coded_header_size(std::size_t src, std::size_t dst, bool long_header) {
    return !long_header && src <= 0x3FF && dst - src - 1 <= 0x3FF ? 3 : 5;
}

void put_coded_header(std::vector<std::uint8_t>& out, unsigned type, std::size_t src, std::size_t dst, bool long_header) {
    if (coded_header_size(src, dst, long_header) == 3) {
        put_u24be(out, static_cast<std::uint32_t>(0x800000 | type << 20 | (dst - src - 1) << 10 | src));
    } else {
        const std::uint64_t x = std::uint64_t{type} << 36 | std::uint64_t{dst - 1} << 18 | src;
        for (int shift = 32; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(x >> shift));
    }
}

using Histogram = std::array<std::uint32_t, 256>;
using Lengths = std::array<std::uint8_t, 256>;

/// Sorts the n distinct keys (count << 8 | symbol, in symbol order) ascending into `out`
/// (n + 1 entries): a counting sort on min(count, 256), where counts below 256 (most of a
/// chunk's arrays' symbols) take their place at once and the larger ones land last, still in
/// symbol order, then are sorted among themselves. A comparison sort of all keys mispredicted on
/// about every other comparison; LSD radix passes over all of them, a byte of the count each,
/// cost two or three 256-bucket prefix sums.
void sort_keys(const std::uint32_t* keys, unsigned n, std::uint32_t largest, std::uint32_t* out) {
    constexpr std::uint32_t kLarge = 256;  // bucket of every count >= 256
    const std::uint32_t top = std::min(largest, kLarge);
    std::array<std::uint32_t, kLarge + 1> start;
    std::fill_n(start.begin(), top + 1, 0u);
    for (unsigned i = 0; i < n; ++i) ++start[std::min(keys[i] >> 8, kLarge)];
    std::uint32_t sum = 0;
    for (unsigned b = 0; b <= top; ++b) sum += std::exchange(start[b], sum);
    for (unsigned i = 0; i < n; ++i) out[start[std::min(keys[i] >> 8, kLarge)]++] = keys[i];
    if (largest < kLarge) return;
    // The large counts: [first, n). Few (at most size / 256) on a chunk's arrays: an insertion
    // sort; else LSD radix passes on the count's bytes, as many as the largest count needs.
    const unsigned first = n - (start[kLarge] - start[kLarge - 1]);
    std::uint32_t* large = out + first;
    const unsigned m = n - first;
    if (m <= 32) {
        for (unsigned i = 1; i < m; ++i) {
            const std::uint32_t key = large[i];
            unsigned j = i;
            for (; j > 0 && large[j - 1] > key; --j) large[j] = large[j - 1];
            large[j] = key;
        }
        return;
    }
    std::array<std::uint32_t, 256> buffer;
    std::uint32_t* from = large;
    std::uint32_t* to = buffer.data();
    for (unsigned shift = 8; shift < 32 && largest >> (shift - 8) != 0; shift += 8) {
        std::array<std::uint32_t, 256> at{};
        for (unsigned i = 0; i < m; ++i) ++at[from[i] >> shift & 0xFF];
        std::uint32_t total = 0;
        for (unsigned b = 0; b < 256; ++b) total += std::exchange(at[b], total);
        for (unsigned i = 0; i < m; ++i) to[at[from[i] >> shift & 0xFF]++] = from[i];
        std::swap(from, to);
    }
    if (from != large) std::copy_n(from, m, large);
}

/// Huffman code lengths of the present symbols (>= 2 of them), at most 11 bits. Two-queue
/// construction over the symbols sorted by count (sort_keys; no heap, no allocation); when the
/// optimal tree is deeper, the lengths are clamped to 11 and the Kraft sum restored by
/// splitting the deepest shorter codes (the classic length-limiting fix of zlib-style
/// encoders), then the lengths handed out again shortest to the most frequent symbols.
/// (Halving the counts and rebuilding, as before, took several rebuilds on skewed literal
/// histograms.)
Lengths huffman_lengths(const Histogram& freq) {
    std::array<std::uint32_t, 256> keys;
    unsigned n = 0;
    for (unsigned s = 0; s < 256; ++s) {  // without a branch: absent symbols are overwritten
        keys[n] = freq[s] << 8 | s;
        n += freq[s] != 0;
    }
    if (n < 2) return {};  // asked for 2 or more (a single symbol is an RLE fill)
    const std::uint32_t largest = *std::max_element(freq.begin(), freq.end());
    std::array<std::uint32_t, 257> sorted;
    sort_keys(keys.data(), n, largest, sorted.data());
    std::array<std::uint8_t, 256> order;
    for (unsigned i = 0; i < n; ++i) order[i] = static_cast<std::uint8_t>(sorted[i]);
    // Nodes 0..n-1: the leaves in ascending count; n..2n-2: internal nodes, made in ascending
    // weight, so the two smallest are always at the front of one of the queues. Each queue
    // ends in a sentinel of the largest weight (the next internal node's, until it is made),
    // so a pick is two loads and a compare, chosen without a branch (ties take the leaf).
    std::array<std::uint32_t, 257> leaf_weight;
    std::array<std::uint32_t, 256> inner_weight;
    std::array<std::uint16_t, 512> parent;
    for (unsigned i = 0; i < n; ++i) leaf_weight[i] = sorted[i] >> 8;
    leaf_weight[n] = UINT32_MAX;
    unsigned leaf = 0, inner = 0;
    auto pick = [&](std::uint32_t& weight) {
        const bool take_leaf = leaf_weight[leaf] <= inner_weight[inner];
        weight = take_leaf ? leaf_weight[leaf] : inner_weight[inner];
        const unsigned node = take_leaf ? leaf : n + inner;
        leaf += take_leaf, inner += !take_leaf;
        return node;
    };
    for (unsigned k = 0; k + 1 < n; ++k) {
        inner_weight[k] = UINT32_MAX;
        std::uint32_t wa, wb;
        const unsigned a = pick(wa), b = pick(wb);
        inner_weight[k] = wa + wb;
        parent[a] = parent[b] = static_cast<std::uint16_t>(n + k);
    }
    std::array<std::uint8_t, 512> depth;
    depth[2 * n - 2] = 0;
    for (unsigned i = 2 * n - 2; i-- > 0;) depth[i] = static_cast<std::uint8_t>(depth[parent[i]] + 1);
    Lengths lengths{};
    unsigned deepest = 0;
    for (unsigned i = 0; i < n; ++i) lengths[order[i]] = depth[i], deepest = std::max<unsigned>(deepest, depth[i]);
    if (deepest <= kMaxCodeLength) return lengths;
    // Codes per length after clamping; Kraft sum in units of 2^-11 (above 2^11 now).
    std::array<unsigned, kMaxCodeLength + 2> count{};
    for (unsigned i = 0; i < n; ++i) ++count[std::min<unsigned>(depth[i], kMaxCodeLength)];
    std::uint32_t total = 0;
    for (unsigned len = 1; len <= kMaxCodeLength; ++len) total += count[len] << (kMaxCodeLength - len);
    for (; total > (1u << kMaxCodeLength); --total) {
        // One 11-bit code fewer (-1 unit), one shorter code split into two one bit longer (+0).
        --count[kMaxCodeLength];
        for (unsigned len = kMaxCodeLength - 1; len > 0; --len)
            if (count[len]) {
                --count[len], count[len + 1] += 2;
                break;
            }
    }
    // The least frequent symbols (front of `order`) take the longest codes.
    unsigned i = 0;
    for (unsigned len = kMaxCodeLength; len > 0; --len)
        for (unsigned k = 0; k < count[len]; ++k) lengths[order[i++]] = static_cast<std::uint8_t>(len);
    return lengths;
}

/// Prices a code-length table for the four Rice suffix widths F = 0..3 in one pass (the
/// writers below take it in place of an MsbWriter): fields that do not depend on F count for
/// all four; a Rice value v costs (v >> F) + 1 + F bits; form B cannot write v >> F above 20 >> F.
/// The Rice values are only counted per value and priced per width in bytes(): four sums per
/// value each time were half of a table's pricing. With code lengths of at most 11 bits the
/// lengths' predictors of both forms keep the values at most 22 (spec 2.3.2 and 2.3.3); a value
/// of kValues or more (longer lengths, only through the test hook) prices the table SIZE_MAX.
class RiceCounter {
public:
    void write(std::uint32_t, unsigned n) { fixed_ += n; }
    void zeros(unsigned n) { fixed_ += n; }
    void rice_prefix(unsigned v) { ++count(v); }
    void rice_suffix() { ++suffixes_; }
    void limited_rice(unsigned v) {
        ++count(v), ++suffixes_;
        limited_ = true;
    }
    /// Bytes of the table with suffix width f, or SIZE_MAX when that width cannot write it.
    std::size_t bytes(unsigned f) const {
        if (largest_ >= kValues) return SIZE_MAX;
        if (limited_ && (largest_ >> f) > (20u >> f)) return SIZE_MAX;
        std::size_t bits = fixed_ + std::size_t{suffixes_} * f;
        for (unsigned v = 0; v <= largest_; ++v) bits += std::size_t{values_[v]} * ((v >> f) + 1);
        return (bits + 7) / 8;
    }

private:
    static constexpr unsigned kValues = 64;
    std::uint32_t& count(unsigned v) {
        largest_ = std::max(largest_, v);
        return values_[std::min(v, kValues)];  // the last entry counts every value out of range
    }
    std::size_t fixed_ = 0;
    std::uint32_t suffixes_ = 0;
    unsigned largest_ = 0;
    bool limited_ = false;  ///< form B: v >> F is limited
    std::array<std::uint32_t, kValues + 1> values_{};
};

/// A Rice value of form B (spec 2.3.2): v >> F zeros (at most 20 >> F), a one, F bits of v.
template <class Writer>
bool write_limited_rice(Writer& w, unsigned v, unsigned suffix_bits) {
    const unsigned z = v >> suffix_bits;
    if (z > (20u >> suffix_bits)) return false;
    w.zeros(z);
    w.write(1, 1);
    w.write(v, suffix_bits);
    return true;
}
bool write_limited_rice(RiceCounter& c, unsigned v, unsigned) {
    c.limited_rice(v);
    return true;
}
/// The two halves of a form-C Rice value (spec 2.3.3), written apart: unary v >> F, F bits of v.
template <class Writer>
void write_rice_prefix(Writer& w, unsigned v, unsigned suffix_bits) {
    write_unary(w, v >> suffix_bits);
}
void write_rice_prefix(RiceCounter& c, unsigned v, unsigned) { c.rice_prefix(v); }
template <class Writer>
void write_rice_suffix(Writer& w, unsigned v, unsigned suffix_bits) {
    w.write(v, suffix_bits);
}
void write_rice_suffix(RiceCounter& c, unsigned, unsigned) { c.rice_suffix(); }

/// The Golomb-Rice value of a code length's difference d to its predictor (spec 2.3.2, 2.3.3):
/// 2d for d >= 0, -2d - 1 below, without a branch (`d >= 0 ? ...` was one, mispredicted on
/// about every fourth symbol of a table).
unsigned zigzag_encode(int d) { return static_cast<unsigned>(d) << 1 ^ static_cast<unsigned>(d >> 31); }

/// gamma2 of form B: x >= 1 written as V = x + 1 in 2z + 2 bits, z = bit_width(V) - 2.
template <class Writer>
void write_gamma2(Writer& w, unsigned x) {
    const unsigned v = x + 1;
    const unsigned z = static_cast<unsigned>(std::bit_width(v)) - 2;
    w.write(v, 2 * z + 2);
}

/// Form-B table (spec 2.3.2) with `suffix_bits` F; false when a length code needs more
/// zeros than the form allows for this F.
template <class Writer>
bool write_form_b(Writer& w, const Lengths& lengths, const SymbolSet& present, unsigned suffix_bits) {
    w.write(1, 2);  // form B
    w.write(suffix_bits, 2);
    w.write(lengths[0] ? 1 : 0, 1);  // skip the first gap when symbol 0 is present
    int average = 32;
    unsigned sym = 0;
    bool first = true;
    while (sym < 256) {
        const unsigned start = present.next(sym, true);
        if (!first || start != 0) write_gamma2(w, start - sym);
        first = false;
        if (start == 256) break;
        const unsigned end = present.next(start, false);
        write_gamma2(w, end - start);
        for (unsigned s = start; s < end; ++s) {
            const int d = lengths[s] - ((average + 2) >> 2);
            if (!write_limited_rice(w, zigzag_encode(d), suffix_bits)) return false;
            average = lengths[s] + ((3 * average + 2) >> 2);
        }
        sym = end;
    }
    return true;
}

/// Form-C table (spec 2.3.3) with `suffix_bits` F: n, the range count, one Golomb-Rice
/// value per present symbol (the zigzag difference to the running predictor s), the range
/// list's unary values, the suffixes, then the range list's raw bits.
struct FormC {
    unsigned n = 0;                   ///< present symbols
    std::array<unsigned, 256> values; ///< the Golomb-Rice value of each, in symbol order
    RangeList ranges;
};

FormC form_c_values(const Lengths& lengths, const SymbolSet& present) {
    FormC c;
    int s = 30;
    for (unsigned start = present.next(0, true); start < 256;) {
        const unsigned end = present.next(start, false);
        for (unsigned sym = start; sym < end; ++sym) {
            const int d = lengths[sym] - (s >> 2) - 1;
            c.values[c.n++] = zigzag_encode(d);
            s += d;
        }
        start = present.next(end, true);
    }
    range_list(present, c.ranges);
    return c;
}

template <class Writer>
void write_form_c(Writer& w, const FormC& c, unsigned suffix_bits) {
    const unsigned n = c.n;
    const auto& values = c.values;
    const RangeList& ranges = c.ranges;
    w.write(2, 2);  // form C
    w.write(suffix_bits, 2);
    w.write(n - 1, 8);
    write_range_count(w, n, static_cast<unsigned>(ranges.unary.size()));
    for (unsigned i = 0; i < n; ++i) write_rice_prefix(w, values[i], suffix_bits);
    for (unsigned u : ranges.unary) write_unary(w, u);
    for (unsigned i = 0; i < n; ++i) write_rice_suffix(w, values[i], suffix_bits);
    for (auto [value, bits] : ranges.raw) w.write(value, bits);
}

/// Canonical code words (spec 2.3.5), bit-reversed for the LSB-first streams: codes in
/// order of (length, symbol), each length's first code from the counts of the shorter ones.
std::array<std::uint16_t, 256> canonical_codes(const Lengths& lengths) {
    std::array<unsigned, kMaxCodeLength + 1> count{};
    for (unsigned s = 0; s < 256; ++s) ++count[lengths[s]];
    std::array<std::uint32_t, kMaxCodeLength + 1> next{};
    std::uint32_t code = 0;
    for (unsigned len = 1; len <= kMaxCodeLength; ++len) {
        next[len] = code;
        code = (code + count[len]) << 1;
    }
    std::array<std::uint16_t, 256> codes{};
    for (unsigned s = 0; s < 256; ++s) {
        const unsigned len = lengths[s];
        if (len == 0) continue;
        // The len-bit code reversed: all 32 bits reversed, the top len of them kept.
        std::uint32_t c = next[len]++;
        c = (c & 0x55555555u) << 1 | (c >> 1 & 0x55555555u);
        c = (c & 0x33333333u) << 2 | (c >> 2 & 0x33333333u);
        c = (c & 0x0F0F0F0Fu) << 4 | (c >> 4 & 0x0F0F0F0Fu);
        c = (c & 0x00FF00FFu) << 8 | (c >> 8 & 0x00FF00FFu);
        c = c << 16 | c >> 16;
        codes[s] = static_cast<std::uint16_t>(c >> (32 - len));
    }
    return codes;
}

/// An LSB-first stream of Huffman codes (at most 11 bits each) into a buffer sized for all of
/// them up front: each flush stores 8 bytes and moves on by the whole bytes filled, with no
/// capacity check or branch per code (the BitWriter's vector inserts were most of the time
/// of writing a stream). The same bytes as LsbWriter. A plain local value, so that its
/// fields stay in registers in the loop of write_stream().
struct CodeStream {
    std::uint8_t* out;
    std::uint64_t acc = 0;
    unsigned count = 0;
    /// Adds a code of `length` bits without storing: at most 5 between flushes (7 + 5 * 11
    /// bits fit the 64-bit accumulator).
    void put(std::uint64_t code, unsigned length) {
        acc |= code << count;
        count += length;
    }
    /// Stores the whole bytes gathered (8 bytes written, the cursor moved by those filled).
    void flush() {
        std::memcpy(out, &acc, 8);  // little-endian: the first bits first
        out += count >> 3;
        acc >>= count & ~7u;
        count &= 7;
    }
    /// Pads the last byte with zero bits; the end of the bytes written.
    std::uint8_t* finish() {
        if (count > 0) *out++ = static_cast<std::uint8_t>(acc);
        return out;
    }
};

/// Each symbol's canonical code (bit-reversed) and its length, in two tables of full-width
/// entries: a symbol is one load for its code and one added to the count (no field masks).
struct CodedSymbols {
    std::array<std::uint64_t, 256> code;
    std::array<std::uint32_t, 256> length;
};

/// The codes of data[first], data[first + 3], ... (one stream of a 3-stream group) into `out`;
/// the end of the bytes written. One stream at a time: with the three streams in one loop
/// GCC kept their cursors, accumulators and counts on the stack (about 16 instructions a
/// symbol); alone, a stream's state stays in registers. Five codes a store (7 + 5 * 11 bits).
std::uint8_t* write_stream(const std::uint8_t* in, std::size_t n, std::size_t first, const CodedSymbols& coded, std::uint8_t* out) {
    CodeStream s{out};
    const std::uint64_t* const code = coded.code.data();
    const std::uint32_t* const length = coded.length.data();
    auto put = [&](std::uint8_t symbol) { s.put(code[symbol], length[symbol]); };
    std::size_t j = first;
    for (; j + 12 < n; j += 15) {  // symbols j .. j + 12 (< n)
        put(in[j]), put(in[j + 3]), put(in[j + 6]), put(in[j + 9]), put(in[j + 12]);
        s.flush();
    }
    for (; j < n; j += 3) put(in[j]), s.flush();
    return s.finish();
}

/// One 3-stream group (spec 2.3.6): [|A| u16le][A][B][C reversed]. Returns |BC|, or nothing
/// when A outgrows its 16-bit size field.
std::optional<std::size_t> write_group(std::span<const std::uint8_t> data, const CodedSymbols& coded, std::vector<std::uint8_t>& out) {
    // Each stream takes about a third of the symbols, at most 11 bits each, +8 bytes of the
    // last store. Not zero-filled: every byte copied out below was stored first.
    const std::size_t room = (data.size() / 3 + 1) * kMaxCodeLength / 8 + 16;
    const auto buffer = std::make_unique_for_overwrite<std::uint8_t[]>(3 * room);
    std::uint8_t* const starts[3] = {buffer.get(), buffer.get() + room, buffer.get() + 2 * room};
    // Symbol j goes to A, j + 1 to C, j + 2 to B (j a multiple of 3).
    const std::size_t a_size = static_cast<std::size_t>(write_stream(data.data(), data.size(), 0, coded, starts[0]) - starts[0]);
    if (a_size > 0xFFFF) return std::nullopt;
    const std::size_t b_size = static_cast<std::size_t>(write_stream(data.data(), data.size(), 2, coded, starts[1]) - starts[1]);
    const std::size_t c_size = static_cast<std::size_t>(write_stream(data.data(), data.size(), 1, coded, starts[2]) - starts[2]);
    out.reserve(out.size() + 2 + a_size + b_size + c_size);
    out.push_back(static_cast<std::uint8_t>(a_size));
    out.push_back(static_cast<std::uint8_t>(a_size >> 8));
    out.insert(out.end(), starts[0], starts[0] + a_size);
    out.insert(out.end(), starts[1], starts[1] + b_size);
    append_reversed(out, starts[2], starts[2] + c_size);
    return b_size + c_size;
}

/// A Huffman payload (table + streams), 3 or 6 streams; nothing when the layout's limits fail.
std::optional<std::vector<std::uint8_t>> huffman_payload(std::span<const std::uint8_t> data, const Lengths& lengths,
                                                         const std::vector<std::uint8_t>& table, bool six) {
    const auto codes = canonical_codes(lengths);
    CodedSymbols coded;
    for (unsigned s = 0; s < 256; ++s) coded.code[s] = codes[s], coded.length[s] = lengths[s];
    std::vector<std::uint8_t> out = table;
    if (!six) {
        if (!write_group(data, coded, out)) return std::nullopt;
        return out;
    }
    const std::size_t split = out.size();
    out.resize(split + 3);
    const std::size_t first = (data.size() + 1) / 2;
    const auto bc1 = write_group(data.first(first), coded, out);
    const std::size_t h1 = out.size() - split - 3;
    const auto bc2 = write_group(data.subspan(first), coded, out);
    // Spec 2.3.6: both halves need |BC| >= 2 (H2 then has >= 3 bytes).
    if (!bc1 || !bc2 || *bc1 < 2 || *bc2 < 2) return std::nullopt;
    out[split] = static_cast<std::uint8_t>(h1), out[split + 1] = static_cast<std::uint8_t>(h1 >> 8);
    out[split + 2] = static_cast<std::uint8_t>(h1 >> 16);
    return out;
}

/// What a Huffman array of some data would be: code lengths, the smallest table form and
/// the estimated size (the table itself is written by huffman_table() when it is used).
struct HuffmanPlan {
    Lengths lengths{};
    unsigned form = 1;         ///< 1: form B, 2: form C
    unsigned suffix_bits = 0;  ///< the Rice suffix width F of that form
    std::size_t estimate = 0;  ///< payload bytes (table, stream splits, streams), +-3
};

Histogram histogram_of(std::span<const std::uint8_t> data) {
    // Four partial histograms: consecutive equal bytes would otherwise serialise on one counter.
    std::array<Histogram, 4> h{};
    std::size_t i = 0;
    for (; i + 4 <= data.size(); i += 4) ++h[0][data[i]], ++h[1][data[i + 1]], ++h[2][data[i + 2]], ++h[3][data[i + 3]];
    for (; i < data.size(); ++i) ++h[0][data[i]];
    for (unsigned s = 0; s < 256; ++s) h[0][s] += h[1][s] + h[2][s] + h[3][s];
    return h[0];
}

unsigned present_symbols(const Histogram& histogram) {
    return static_cast<unsigned>(std::count_if(histogram.begin(), histogram.end(), [](auto f) { return f > 0; }));
}

HuffmanPlan plan_huffman(const Histogram& histogram) {
    HuffmanPlan plan;
    plan.lengths = huffman_lengths(histogram);
    std::uint64_t bits = 0;
    for (unsigned s = 0; s < 256; ++s) bits += std::uint64_t{histogram[s]} * plan.lengths[s];
    // Both forms are priced for every suffix width in one pass each; only the smallest is
    // written (form B first on ties, as the game's Sekiro streams use it).
    RiceCounter form_b_bytes, form_c_bytes;
    const SymbolSet present = SymbolSet::of(plan.lengths);
    write_form_b(form_b_bytes, plan.lengths, present, 0);
    write_form_c(form_c_bytes, form_c_values(plan.lengths, present), 0);
    std::size_t best_bytes = SIZE_MAX;
    for (unsigned form : {1u, 2u})
        for (unsigned f = 0; f < 4; ++f) {
            const std::size_t bytes = (form == 1 ? form_b_bytes : form_c_bytes).bytes(f);
            if (bytes < best_bytes) best_bytes = bytes, plan.form = form, plan.suffix_bits = f;
        }
    plan.estimate = best_bytes + bits / 8 + 2;
    return plan;
}

/// The code-length table of a plan, in the form and suffix width it chose.
std::vector<std::uint8_t> huffman_table(const HuffmanPlan& plan) {
    MsbWriter w;
    const SymbolSet present = SymbolSet::of(plan.lengths);
    if (plan.form == 1) write_form_b(w, plan.lengths, present, plan.suffix_bits);
    else write_form_c(w, form_c_values(plan.lengths, present), plan.suffix_bits);
    return w.finish();
}

/// Six streams decode faster; their 5 extra bytes of splits only matter on small arrays.
bool use_six_streams(std::size_t n, const ArrayPolicy& policy) { return policy.six_streams && n >= 1024; }

/// About the size of the array encode_array() would write without a split (spec 2.1 header
/// included), for n bytes counted in `histogram`.
/// The Huffman plan it made, if any, goes to `plan`.
std::size_t estimate_size(const Histogram& histogram, std::size_t n, std::optional<HuffmanPlan>* plan = nullptr) {
    const std::size_t stored = 3 + n;
    if (n < kMinHuffmanSize) return stored;
    if (present_symbols(histogram) == 1) return 6;
    const HuffmanPlan made = plan_huffman(histogram);
    if (plan) *plan = made;
    return std::min(stored, 5 + made.estimate);
}
std::size_t estimate_size(std::span<const std::uint8_t> data) {
    return data.size() < kMinHuffmanSize ? 3 + data.size() : estimate_size(histogram_of(data), data.size());
}

/// Cut points (offsets into the array) where separate Huffman tables are estimated to pay:
/// the best of three cuts (1/4, 1/2, 3/4), then each side again, `depth` levels deep.
void plan_split(std::span<const std::uint8_t> data, std::size_t offset, int depth, std::vector<std::size_t>& cuts) {
    if (depth == 0 || data.size() < 2 * kMinSplitPart) return;
    std::size_t best_cut = 0, best_size = estimate_size(data);
    for (std::size_t quarter = 1; quarter <= 3; ++quarter) {
        const std::size_t cut = data.size() * quarter / 4;
        if (cut < kMinSplitPart || data.size() - cut < kMinSplitPart) continue;
        const std::size_t size = estimate_size(data.first(cut)) + estimate_size(data.subspan(cut));
        if (size + 8 < best_size) best_size = size, best_cut = cut;
    }
    if (best_cut == 0) return;
    plan_split(data.first(best_cut), offset, depth - 1, cuts);
    cuts.push_back(offset + best_cut);
    plan_split(data.subspan(best_cut), offset + best_cut, depth - 1, cuts);
}

/// Type-5 sequential payload (spec 2.6): k, then k nested arrays, one per part.
std::vector<std::uint8_t> sequential_payload(std::span<const std::uint8_t> data, const std::vector<std::size_t>& cuts,
                                             const ArrayPolicy& policy) {
    std::vector<std::uint8_t> out{static_cast<std::uint8_t>(cuts.size() + 1)};
    ArrayPolicy part_policy{.long_header = false, .six_streams = policy.six_streams, .split_depth = 0, .tans = policy.tans};
    std::size_t start = 0;
    for (std::size_t i = 0; i <= cuts.size(); ++i) {
        const std::size_t end = i < cuts.size() ? cuts[i] : data.size();
        encode_array(data.subspan(start, end - start), part_policy, out);
        start = end;
    }
    return out;
}

/// `counted` / `planned`: the histogram of `data` and its Huffman plan when already made.
std::optional<std::vector<std::uint8_t>> best_coded(std::span<const std::uint8_t> data, const ArrayPolicy& policy,
                                                    std::size_t limit, const Histogram* counted = nullptr,
                                                    const HuffmanPlan* planned = nullptr);

/// Shortest run of the current fill byte written as a run, and of another byte (a fill
/// change costs a command byte and the fill byte).
constexpr std::size_t kRunSameFill = 3;
constexpr std::size_t kRunNewFill = 6;

/// Bytes in runs of at least kRunSameFill (3) equal bytes: whether RLE is worth trying.
/// Byte i is in such a run when one of the three triples i-2..i, i-1..i+1, i..i+2 is
/// equal, counted without a branch per byte (the run walk mispredicted on every run).
std::size_t run_bytes(std::span<const std::uint8_t> data) {
    static_assert(kRunSameFill == 3);
    const std::size_t n = data.size();
    if (n < 3) return 0;
    const std::uint8_t* d = data.data();
    // triple[k]: bytes k, k+1, k+2 equal (k < n - 2); byte i counts when triple[i-2..i] has one.
    auto triple = [&](std::size_t k) -> unsigned { return k < n - 2 && d[k] == d[k + 1] && d[k + 1] == d[k + 2]; };
    std::size_t total = triple(0) + (triple(0) | triple(1));
    std::uint32_t sum = 0;
    for (std::size_t i = 2; i + 2 < n; ++i) {
        const bool e0 = d[i - 2] == d[i - 1], e1 = d[i - 1] == d[i], e2 = d[i] == d[i + 1], e3 = d[i + 1] == d[i + 2];
        sum += static_cast<std::uint32_t>((e0 & e1) | (e1 & e2) | (e2 & e3));
    }
    total += sum;
    for (std::size_t i = std::max<std::size_t>(2, n - 2); i < n; ++i) total += triple(i - 2) | triple(i - 1) | triple(i);
    return total;
}

/// The first k in [from, n - 2) where data[k] == data[k + 1] == data[k + 2] (n if none): the
/// start of the next run of at least kRunSameFill bytes. Seven positions a step: z has a zero
/// byte m where byte m equals byte m + 1, and a run starts at m where bytes m and m + 1 of z are
/// both zero (the zero-byte test is the exact form, without false positives).
std::size_t next_triple(const std::uint8_t* d, std::size_t from, std::size_t n) {
    static_assert(std::endian::native == std::endian::little, "byte m of a load is bits 8m..8m+7");
    constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;
    std::size_t k = from;
    for (; k + 9 <= n; k += 7) {
        std::uint64_t x, y;
        std::memcpy(&x, d + k, 8);
        std::memcpy(&y, d + k + 1, 8);
        const std::uint64_t z = x ^ y;
        const std::uint64_t zero = ~(((z & kLow7) + kLow7) | z | kLow7);  // 0x80 in each zero byte
        const std::uint64_t start = zero & (zero >> 8) & 0x0080808080808080ull;  // m = 0..6
        if (start) return k + static_cast<std::size_t>(std::countr_zero(start) >> 3);
    }
    for (; k + 2 < n; ++k)
        if (d[k] == d[k + 1] && d[k + 1] == d[k + 2]) return k;
    return n;
}

/// An RLE command buffer (spec 2.5): raw bytes and fill bytes, read from the front, then
/// the commands, read from the back.
struct CommandBuffer {
    std::vector<std::uint8_t> bytes;
    std::size_t front = 0;  ///< bytes [0, front) are raw and fill bytes, [front, end) commands
};

/// The command buffer of `data`, greedy: every run of kRunSameFill / kRunNewFill bytes or
/// more becomes a run (changing the fill byte first if needed), everything else is copied.
CommandBuffer rle_commands(std::span<const std::uint8_t> data) {
    std::vector<std::uint8_t> front, back;  // back: command bytes last-first (reversed at the end)
    auto command = [&](unsigned x, bool two_bytes) {
        back.push_back(static_cast<std::uint8_t>(two_bytes ? x >> 8 : x));
        if (two_bytes) back.push_back(static_cast<std::uint8_t>(x));
    };
    // copy raw bytes [from, from + copy), then `run` fill bytes.
    auto emit = [&](std::size_t from, std::size_t copy, std::size_t run) {
        front.insert(front.end(), data.begin() + from, data.begin() + from + copy);
        while (copy >= 64) {  // long copies: (x - 0x1FF) * 64 bytes, x in 0x200..0x8FF
            const std::size_t m = std::min<std::size_t>(copy / 64, 0x700);
            command(static_cast<unsigned>(m + 0x1FF), true);
            copy -= 64 * m;
        }
        const std::size_t small = run % 128;
        if (copy <= 15 && small >= 3 && small <= 15) command(static_cast<unsigned>(small << 4 | (15 - copy)), false);
        else if (copy == 15 && small == 0) command(0, false);
        else if (copy != 0 || small != 0) command(static_cast<unsigned>(0x1000 + (small << 6 | copy)), true);
        for (std::size_t m = run / 128; m > 0;) {  // long runs: (x - 0x8FF) * 128 bytes, x in 0x900..0xFFF
            const std::size_t k = std::min<std::size_t>(m, 0x700);
            command(static_cast<unsigned>(k + 0x8FF), true);
            m -= k;
        }
    };
    std::uint8_t fill = 0;
    std::size_t literal_start = 0, i = 0;
    const std::size_t n = data.size();
    while (i < n) {
        // Runs shorter than kRunSameFill stay raw bytes whatever the fill: skip to the next
        // longer run (i is always the start of a run, so the first triple is one too).
        static_assert(kRunSameFill == 3 && kRunNewFill >= kRunSameFill, "next_triple finds runs of 3");
        i = next_triple(data.data(), i, n);
        if (i == n) break;
        std::size_t e = i + 1;
        while (e < n && data[e] == data[i]) ++e;
        const std::size_t run = e - i;
        if (run >= (data[i] == fill ? kRunSameFill : kRunNewFill)) {
            if (data[i] != fill) {
                emit(literal_start, i - literal_start, 0);
                literal_start = i;
                fill = data[i];
                front.push_back(fill);
                command(1, false);
            }
            emit(literal_start, i - literal_start, run);
            literal_start = e;
        }
        i = e;
    }
    emit(literal_start, n - literal_start, 0);
    CommandBuffer cb{std::move(front), 0};
    cb.front = cb.bytes.size();
    cb.bytes.insert(cb.bytes.end(), back.rbegin(), back.rend());
    return cb;
}

/// An RLE payload (spec 2.5) of the command buffer `cb` smaller than `limit` bytes, if one
/// is: the command buffer raw (first byte 0), or entropy-coded in a nested prefix array, either whole or
/// only its raw bytes (the command bytes then follow raw).
std::optional<std::vector<std::uint8_t>> rle_payload(const CommandBuffer& cb, const ArrayPolicy& policy, std::size_t limit) {
    std::optional<std::vector<std::uint8_t>> best;
    if (cb.bytes.size() + 1 < limit) {
        std::vector<std::uint8_t> raw;
        raw.reserve(cb.bytes.size() + 1);
        raw.push_back(0);  // a raw command buffer
        append(raw, cb.bytes);
        best = std::move(raw);
    }
    // The nested array's first byte must not be 0 (a raw buffer): a coded header never starts
    // with 0 (its type is 1..5), so only coded arrays are tried.
    const ArrayPolicy nested{.long_header = false, .six_streams = policy.six_streams, .split_depth = 0, .tans = policy.tans, .rle = false};
    for (std::size_t coded_end : {cb.bytes.size(), cb.front}) {
        if (coded_end < 2) continue;
        const std::size_t bound = best ? best->size() : limit;
        const std::size_t tail = cb.bytes.size() - coded_end;
        if (tail >= bound) continue;
        auto prefix = best_coded(std::span(cb.bytes).first(coded_end), nested, bound - tail);
        if (!prefix) continue;
        prefix->insert(prefix->end(), cb.bytes.begin() + static_cast<std::ptrdiff_t>(coded_end), cb.bytes.end());
        best = std::move(prefix);
    }
    return best;
}

/// Level 1's RLE payload (ArrayPolicy::estimate_rle): the form of rle_payload() estimated
/// smallest, and only that one written (the raw buffer when the coded one fails), if its
/// estimate is below `rival` (the Huffman estimate of the array) and it is smaller than
/// `limit`. The histograms of the command buffer's front and back are counted once, for
/// both estimates and the array written.
std::optional<std::vector<std::uint8_t>> estimated_rle_payload(const CommandBuffer& cb, const ArrayPolicy& policy,
                                                               std::size_t rival, std::size_t limit) {
    const std::span<const std::uint8_t> bytes(cb.bytes);
    const Histogram front = histogram_of(bytes.first(cb.front));
    Histogram whole = histogram_of(bytes.subspan(cb.front));
    for (unsigned s = 0; s < 256; ++s) whole[s] += front[s];
    const std::size_t raw = bytes.size() + 1;
    std::size_t best = raw, coded_end = 0;
    std::optional<HuffmanPlan> plan;  // of the prefix estimated smallest
    for (std::size_t end : {bytes.size(), cb.front}) {
        if (end < 2) continue;
        std::optional<HuffmanPlan> made;
        if (const std::size_t size = estimate_size(end == cb.front ? front : whole, end, &made) + bytes.size() - end; size < best)
            best = size, coded_end = end, plan = made;
    }
    if (best >= rival) return std::nullopt;
    if (coded_end != 0) {
        const std::size_t tail = bytes.size() - coded_end;
        const ArrayPolicy nested{.long_header = false, .six_streams = policy.six_streams, .split_depth = 0, .tans = policy.tans, .rle = false};
        if (tail < std::min(raw, limit))
            if (auto prefix = best_coded(bytes.first(coded_end), nested, std::min(raw, limit) - tail,
                                         coded_end == cb.front ? &front : &whole, plan ? &*plan : nullptr)) {
                prefix->insert(prefix->end(), bytes.begin() + static_cast<std::ptrdiff_t>(coded_end), bytes.end());
                return prefix;
            }
    }
    if (raw >= limit) return std::nullopt;
    std::vector<std::uint8_t> out;
    out.reserve(raw);
    out.push_back(0);  // a raw command buffer
    out.insert(out.end(), bytes.begin(), bytes.end());
    return out;
}

/// The coded form of `data` (header included) if it is smaller than `limit` bytes: an RLE fill
/// for a single repeated byte, else Huffman with 3 or 6 streams, or a type-5 array of parts
/// with their own tables when that is smaller.
std::optional<std::vector<std::uint8_t>> best_coded(std::span<const std::uint8_t> data, const ArrayPolicy& policy,
                                                    std::size_t limit, const Histogram* counted, const HuffmanPlan* planned) {
    const std::size_t n = data.size();
    if (n < 2) return std::nullopt;
    const Histogram histogram = counted ? *counted : histogram_of(data);
    auto finish = [&](unsigned type, const std::vector<std::uint8_t>& payload) -> std::optional<std::vector<std::uint8_t>> {
        if (payload.size() >= n) return std::nullopt;
        const std::size_t size = coded_header_size(payload.size(), n, policy.long_header) + payload.size();
        if (size >= limit) return std::nullopt;
        std::vector<std::uint8_t> out;
        out.reserve(size);
        put_coded_header(out, type, payload.size(), n, policy.long_header);
        append(out, payload);
        return out;
    };
    const unsigned present = present_symbols(histogram);
    if (present == 1) return finish(kRle, {data[0]});  // spec 2.5: a 1-byte RLE payload is a fill
    if (n < kMinHuffmanSize) return std::nullopt;
    const HuffmanPlan plan = planned ? *planned : plan_huffman(histogram);
    std::optional<std::vector<std::uint8_t>> best;
    // RLE (spec 2.5) when runs cover enough of the array to pay for their commands: 1/16 of
    // it, or 1/8 with estimate_rle (level 1): below that the command buffer and its two
    // estimates cost as much as the Huffman array, and RLE did not win on any sample.
    const bool try_rle = policy.rle && run_bytes(data) * (policy.estimate_rle ? 8 : 16) >= n;
    if (try_rle && policy.estimate_rle) {
        // Only the form estimated smaller is written (Huffman when the RLE payload fails).
        if (auto rle = estimated_rle_payload(rle_commands(data), policy, plan.estimate, limit)) best = finish(kRle, *rle);
    }
    if (!best && plan.estimate + 3 < limit) {
        const std::vector<std::uint8_t> table = huffman_table(plan);
        if (use_six_streams(n, policy))
            if (auto six = huffman_payload(data, plan.lengths, table, true)) best = finish(kHuffman6, *six);
        if (!best)
            if (auto three = huffman_payload(data, plan.lengths, table, false)) best = finish(kHuffman3, *three);
    }
    // tANS codes skewed distributions in fractions of a bit, where Huffman rounds up to 1 bit.
    if (policy.tans && n >= kMinHuffmanSize && tans_estimate(n, histogram) < (best ? best->size() + 16 : limit))
        if (auto tans = tans_payload(data, histogram))
            if (auto coded = finish(kTans, *tans); coded && (!best || coded->size() < best->size())) best = std::move(coded);
    if (try_rle && !policy.estimate_rle)
        if (auto rle = rle_payload(rle_commands(data), policy, best ? best->size() : limit))
            if (auto coded = finish(kRle, *rle); coded && (!best || coded->size() < best->size())) best = std::move(coded);
    if (policy.split_depth > 0 && n >= 2 * kMinSplitPart) {
        std::vector<std::size_t> cuts;
        plan_split(data, 0, policy.split_depth, cuts);
        if (!cuts.empty())
            if (auto split = finish(kSequential, sequential_payload(data, cuts, policy)); split && (!best || split->size() < best->size()))
                best = std::move(split);
    }
    return best;
}

}  // namespace

std::size_t encode_array(std::span<const std::uint8_t> data, const ArrayPolicy& policy, std::vector<std::uint8_t>& out,
                         const Histogram* histogram) {
    const std::size_t stored = stored_header_size(data.size(), policy.long_header) + data.size();
    const std::size_t min_saving = data.size() / 16 + 64;
    // When the decode-time rule will store anything saving less than min_saving, forms larger
    // than that are not written at all (the Huffman estimate is within a few bytes, hence the
    // margin: the choice stays the one the rule below makes).
    const std::size_t limit = policy.weigh_decode_time ? std::min(stored, stored + kEstimateMargin - std::min(stored, min_saving)) : stored;
    if (auto coded = best_coded(data, policy, limit, histogram)) {
        if (!policy.weigh_decode_time || stored - coded->size() >= min_saving) {
            append(out, *coded);
            return coded->size();
        }
    }
    put_stored_header(out, data.size(), policy.long_header);
    out.insert(out.end(), data.begin(), data.end());
    return stored;
}

bool encode_coded_array(std::span<const std::uint8_t> data, const ArrayPolicy& policy, std::vector<std::uint8_t>& out) {
    const std::size_t stored = stored_header_size(data.size(), policy.long_header) + data.size();
    auto coded = best_coded(data, policy, stored);
    if (!coded) return false;
    append(out, *coded);
    return true;
}

std::size_t estimate_array_size(std::span<const std::uint8_t> data) { return estimate_size(data); }

std::array<std::uint8_t, 256> huffman_code_lengths(const std::array<std::uint32_t, 256>& histogram) {
    return huffman_lengths(histogram);
}

std::size_t next_run_of_three(std::span<const std::uint8_t> data, std::size_t from) {
    return next_triple(data.data(), from, data.size());
}

std::vector<std::uint8_t> rle_command_buffer(std::span<const std::uint8_t> data, std::size_t& front) {
    CommandBuffer cb = rle_commands(data);
    front = cb.front;
    return std::move(cb.bytes);
}

double entropy_bits(const std::array<std::uint32_t, 256>& histogram) {
    double total = 0, bits = 0;
    for (auto c : histogram) total += c;
    for (auto c : histogram)
        if (c) bits += c * std::log2(total / c);
    return bits;
}

double count_log2_count(const std::array<std::uint32_t, 256>& histogram) {
    // c log2(c) for c below kTabled: most counts of a chunk's literal arrays (a few thousand
    // bytes over some hundred symbols); a log2 call each cost about 50 instructions.
    constexpr std::uint32_t kTabled = 1024;
    static const std::array<double, kTabled> table = [] {
        std::array<double, kTabled> t{};
        for (std::uint32_t c = 1; c < kTabled; ++c) t[c] = c * std::log2(static_cast<double>(c));
        return t;
    }();
    double sum = 0;
    for (const std::uint32_t c : histogram) sum += c < kTabled ? table[c] : c * std::log2(static_cast<double>(c));
    return sum;
}

std::vector<std::uint8_t> huffman_form_c_table(const std::array<std::uint8_t, 256>& lengths, unsigned suffix_bits) {
    MsbWriter w;
    write_form_c(w, form_c_values(lengths, SymbolSet::of(lengths)), suffix_bits);
    return w.finish();
}

PricedTable huffman_table_priced(const std::array<std::uint8_t, 256>& lengths, unsigned form, unsigned suffix_bits) {
    const SymbolSet present = SymbolSet::of(lengths);
    RiceCounter counter;
    MsbWriter w;
    PricedTable table;
    if (form == 1) {
        write_form_b(counter, lengths, present, suffix_bits);
        if (write_form_b(w, lengths, present, suffix_bits)) table.written = w.finish();
    } else {
        const FormC values = form_c_values(lengths, present);
        write_form_c(counter, values, suffix_bits);
        write_form_c(w, values, suffix_bits);
        table.written = w.finish();
    }
    table.priced = counter.bytes(suffix_bits);
    return table;
}

}  // namespace navlab::kraken::detail
