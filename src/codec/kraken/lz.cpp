// Kraken LZ chunks (spec 3). Phase 1 decodes every sub-stream into scratch memory and
// unpacks distances and lengths; phase 2 runs the command loop with 8/16-byte copies where
// the output and literal buffers have room, and byte loops near their ends.
#include "codec/kraken/lz.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "codec/kraken/bit_reader.h"
#include "codec/kraken/byte_array.h"
#include "codec/kraken/stream_info.h"
#include "io/cpu_features.h"

namespace navlab::kraken::detail {
namespace {

/// The command loop prefetches the source of the match this many explicit distances ahead:
/// far matches (megabytes back in non-restart streams) otherwise stall on cache misses.
constexpr std::size_t kPrefetchAhead = 6;
/// The command loop checks for length- and distance-list overruns once per this many
/// commands (each reads at most two lengths and one distance past the lists' padded ends).
constexpr std::size_t kCommandBatch = 64;
/// Matches at least this long that do not overlap their source are copied by copy_long_match.
constexpr std::size_t kLongMatch = 64;

/// Decoded sub-streams of one chunk (spec 3.4).
struct SubStreams {
    const std::uint8_t* literals;
    std::size_t literal_count;
    const std::uint8_t* literal_readable_end;  ///< fast copies may read literals up to here
    const std::uint8_t* commands;
    std::size_t command_count;
    const std::uint64_t* distances;
    std::size_t distance_count;
    const std::uint32_t* lengths;
    std::size_t length_count;
};

/// Decodes one sub-stream array at z[pos] and advances pos; errors name the array.
ArrayResult read_array(const Context& ctx, const std::uint8_t* z, std::size_t size, std::size_t& pos,
                       DefaultInitVector<std::uint8_t>& buffer, std::size_t capacity, const char* name) {
    try {
        const ArrayResult r = decode_array(ctx, z + pos, size - pos, ensure(buffer, capacity), capacity, 0, true);
        pos += r.used;
        return r;
    } catch (Error& e) {
        throw e.in(name);
    }
}

/// How a chunk's distances are coded (spec 3.5): the legacy form (scale 0), scaled by 1, or
/// scaled by 2 and more with a low-bits byte each. A template argument, so the distance loop
/// carries no test of it.
enum class DistanceForm { legacy, scaled, scaled_low };

/// Spec 3.5: one distance from packed byte v (and low byte `low`, scaled_low only). Refills
/// once (a distance takes at most 31 bits, within the 56 a refill guarantees) rather than
/// before each read: the reads' refill tests mispredicted on a fifth of the distances.
template <DistanceForm Form, class Reader>
std::uint64_t read_distance(const Context& ctx, const std::uint8_t* at, Reader& bits, unsigned v, unsigned scale,
                            std::uint8_t low) {
    bits.refill();
    if constexpr (Form == DistanceForm::legacy) {
        if (v < 0xF0) {
            const unsigned nb = (v >> 4) + 4;  // <= 18
            const std::uint64_t t = bits.take(nb);
            return (((std::uint64_t{1} << nb) | t) << 4) + (v & 15) - 248;  // t < 2^nb
        }
        const unsigned nb = (v & 15) + 4;  // <= 19, and 12 more bits
        const std::uint64_t t = bits.take(nb);
        const std::uint64_t u = bits.take(12);
        return 0x7EFF00 + (((std::uint64_t{1} << nb) | t) << 12) + u;
    } else {
        const unsigned k = v >> 3;
        ctx.check(k <= 26, at, "offset: scaled distance exponent above 26");
        const std::uint64_t d0 = ((std::uint64_t{8} + (v & 7)) << k) + bits.take(k) - 8;
        if constexpr (Form == DistanceForm::scaled) return d0;
        else return scale * d0 + low;
    }
}

/// A reader's cursor (BitReader::Cursor) read through refill() and take(), as read_distance
/// reads a checked reader: refill() is a whole-word refill without the region-end test.
template <class Reader>
struct CursorBits {
    typename Reader::Cursor c;
    void refill() { Reader::refill_word(c); }
    std::uint32_t take(unsigned n) { return Reader::take(c, n); }
};

/// Spec 3.4 (7b): the distances, read alternately from fa (even i) and fb (odd i), in pairs
/// (no test of i's parity), with one form of the loop per DistanceForm. While both readers
/// have a whole word left for each pair's refill, the pairs run on the readers' cursors:
/// no region-end test, and the readers' state in six registers (the checked readers' ten
/// and a test of the scale on every distance spilled them).
template <DistanceForm Form>
void read_distances(const Context& ctx, const std::uint8_t* region, MsbForward& fa, MsbBackward& fb,
                    const std::uint8_t* packed, std::size_t count, unsigned scale, const std::uint8_t* low,
                    std::uint64_t* distances) {
    auto low_byte = [&](std::size_t i) -> std::uint8_t {
        if constexpr (Form == DistanceForm::scaled_low) return low[i];
        else return 0;
    };
    auto read_pairs = [&](auto& a, auto& b, std::size_t& i, std::size_t pair_end) {
        for (; i < pair_end; i += 2) {
            distances[i] = read_distance<Form>(ctx, region, a, packed[i], scale, low_byte(i));
            distances[i + 1] = read_distance<Form>(ctx, region, b, packed[i + 1], scale, low_byte(i + 1));
        }
    };
    std::size_t i = 0;
    // Each pair refills each reader once. word_refills_left() assumes 7 bytes a refill where
    // a distance takes 2 or so: rounds, as many pairs as the readers allow as they stand,
    // until a reader is within a word of the region's end (a cursor needs a refill allowed).
    for (std::size_t pairs; (pairs = std::min({(count - i) / 2, fa.word_refills_left(), fb.word_refills_left()})) > 0;) {
        CursorBits<MsbForward> ca{fa.cursor()};
        CursorBits<MsbBackward> cb{fb.cursor()};
        read_pairs(ca, cb, i, i + 2 * pairs);
        fa.resume(ca.c), fb.resume(cb.c);
    }
    read_pairs(fa, fb, i, count & ~std::size_t{1});
    if (i < count) distances[i] = read_distance<Form>(ctx, region, fa, packed[i], scale, low_byte(i));
}

/// Spec 3.4 (7): long-length count, distances and long lengths from the bit-stream region.
void read_bit_region(const Context& ctx, const std::uint8_t* region, std::size_t size, const std::uint8_t* packed,
                     std::size_t packed_count, unsigned scale, const std::uint8_t* low, std::uint64_t* distances,
                     std::uint32_t* long_lengths, std::size_t& long_count) {
    MsbForward fa(region, size);
    MsbBackward fb(region, size);
    const unsigned z = fb.leading_zeros();
    ctx.check(z <= 18, region, "bit region: long-length count code too long");
    fb.consume(z);
    long_count = fb.read(z + 1) - 1;
    ctx.check(long_count <= 512, region, "bit region: more than 512 long lengths");
    if (scale == 0)
        read_distances<DistanceForm::legacy>(ctx, region, fa, fb, packed, packed_count, scale, low, distances);
    else if (scale == 1)
        read_distances<DistanceForm::scaled>(ctx, region, fa, fb, packed, packed_count, scale, low, distances);
    else
        read_distances<DistanceForm::scaled_low>(ctx, region, fa, fb, packed, packed_count, scale, low, distances);
    auto read_long = [&](auto& bits) {
        const unsigned zeros = bits.leading_zeros();
        ctx.check(zeros <= 12, region, "bit region: long length code too long");
        bits.consume(zeros);
        return bits.read(zeros + 7) - 64;
    };
    for (std::size_t i = 0; i < long_count; ++i) long_lengths[i] = (i & 1) ? read_long(fb) : read_long(fa);
    ctx.check(fa.footprint() + fb.footprint() == size, region, "bit region: forward and backward streams do not meet");
}

/// unpack_lengths from packed length i on, `used` long lengths taken before it: one
/// length a step, without a branch on the byte (the game's binders have a long length in
/// about one length in nine, and a branch on it mispredicted on most of them). The i-th
/// length reads slot `used` <= i whatever the byte is.
std::size_t unpack_lengths_from(const std::uint8_t* packed, std::size_t i, std::size_t count,
                                const std::uint32_t* long_lengths, std::size_t used, std::uint32_t* lengths) {
    for (; i < count; ++i) {
        const unsigned v = packed[i];
        const std::uint32_t is_long = v == 255;
        lengths[i] = v + 3 + (long_lengths[used] & (0u - is_long));
        used += is_long;
    }
    return used;
}

#if defined(__x86_64__) && defined(__GNUC__)
/// unpack_lengths 16 lengths a step (AVX-512F; the rest one at a time): the 255s as a lane
/// mask, and the next long lengths moved into those lanes by one expand. A step reads the 16
/// long-length slots from `used` <= i, within the `count` readable ones. The scalar loop was
/// ≈ 5 % of the Elden Ring binders' decode time (perf), eight instructions a length.
__attribute__((target("avx512f,popcnt"))) std::size_t unpack_lengths_avx512(const std::uint8_t* packed,
                                                                           std::size_t count,
                                                                           const std::uint32_t* long_lengths,
                                                                           std::uint32_t* lengths) {
    const __m512i k255 = _mm512_set1_epi32(255), k3 = _mm512_set1_epi32(3);
    std::size_t used = 0, i = 0;
    for (; i + 16 <= count; i += 16) {
        // The zero-masked form: GCC 12's plain _mm512_cvtepu8_epi32 warns (-Wmaybe-uninitialized).
        const __m512i v =
            _mm512_maskz_cvtepu8_epi32(0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(packed + i)));
        const __mmask16 is_long = _mm512_cmpeq_epi32_mask(v, k255);
        const __m512i longs = _mm512_maskz_expand_epi32(is_long, _mm512_loadu_si512(long_lengths + used));
        _mm512_storeu_si512(lengths + i, _mm512_add_epi32(_mm512_add_epi32(v, k3), longs));
        used += static_cast<unsigned>(__builtin_popcount(is_long));
    }
    return unpack_lengths_from(packed, i, count, long_lengths, used, lengths);
}

/// Whether unpack_lengths takes unpack_lengths_avx512: the processor has AVX-512F (and
/// popcnt) and the system saves the registers (__builtin_cpu_supports checks both); asked
/// once. allow_avx512_lengths' switch lets tests run the scalar loop too.
std::atomic<bool> g_avx512_lengths_allowed{true};
bool use_avx512_lengths() {
    return cpu_has_avx512f_popcnt() && g_avx512_lengths_allowed.load(std::memory_order_relaxed);
}
#else
bool use_avx512_lengths() { return false; }
#endif

/// Phase 1 (spec 3.1 to 3.4).
SubStreams read_substreams(const Context& ctx, const std::uint8_t* z, std::size_t size, std::size_t pos,
                           std::size_t chunk_size) {
    Scratch& s = *ctx.scratch;
    SubStreams sub{};
    ctx.check(z[pos] < 0x80, z + pos, "LZ chunk: excess-bytes flags byte (unsupported)");
    const ArrayResult lit = read_array(ctx, z, size, pos, s.literals, chunk_size - pos, "literal array");
    sub.literals = lit.data;
    sub.literal_count = lit.size;
    sub.literal_readable_end = lit.data == s.literals.data() ? s.literals.data() + s.literals.size() : ctx.end;
    const ArrayResult cmd = read_array(ctx, z, size, pos, s.commands, chunk_size, "command array");
    sub.commands = cmd.data;
    sub.command_count = cmd.size;
    ctx.check(size - pos >= 3, z + pos, "LZ chunk: truncated after the command array");
    unsigned scale = 0;
    if (z[pos] >= 0x80) scale = z[pos++] - 127u;
    const ArrayResult po = read_array(ctx, z, size, pos, s.offsets, cmd.size, "packed offset array");
    const std::uint8_t* low = nullptr;
    if (scale >= 2) {
        const ArrayResult lo = read_array(ctx, z, size, pos, s.low_bits, po.size, "offset low-bits array");
        ctx.check(lo.size == po.size, z + pos, "offset low-bits array: size differs from the packed offsets");
        low = lo.data;
    }
    const ArrayResult pl = read_array(ctx, z, size, pos, s.lengths, chunk_size / 4, "packed length array");

    // The command loop reads up to kCommandBatch distances past the list before it checks
    // for an overrun, then dist[kPrefetchAhead]; and up to 2 x kCommandBatch lengths (the
    // 512 long lengths parked after the list cover them).
    static_assert(2 * kCommandBatch <= 512);
    const std::size_t distance_room = po.size + kCommandBatch + kPrefetchAhead + 1;
    if (s.distances.size() < distance_room) s.distances.resize(distance_room);
    // The long lengths' slots: 512, and as many as the packed lengths for unpack_lengths.
    const std::size_t length_room = pl.size + std::max<std::size_t>(512, pl.size);
    if (s.length_list.size() < length_room) s.length_list.resize(length_room);
    std::uint32_t* long_lengths = s.length_list.data() + pl.size;
    std::size_t long_count = 0;
    try {
        read_bit_region(ctx, z + pos, size - pos, po.data, po.size, scale, low, s.distances.data(), long_lengths,
                        long_count);
    } catch (Error& e) {
        throw e.in("bit region");
    }
    const std::size_t long_used = unpack_lengths(pl.data, pl.size, long_lengths, s.length_list.data());
    ctx.check(long_used <= long_count, z, "LZ chunk: more long lengths used than coded");
    ctx.check(long_used == long_count, z, "LZ chunk: long lengths left unused");
    sub.distances = s.distances.data();
    sub.distance_count = po.size;
    sub.lengths = s.length_list.data();
    sub.length_count = pl.size;
    return sub;
}

/// 16 and 8 bytes as one vector (GCC/Clang vector extension: SSE2 on x86-64, NEON on ARM);
/// `+` adds them byte-wise modulo 256.
using Bytes16 = std::uint8_t __attribute__((vector_size(16)));
using Bytes8 = std::uint8_t __attribute__((vector_size(8)));

/// Unaligned load and store of a T (an integer or a byte vector) through memcpy.
template <class T>
inline T load(const std::uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class T>
inline void store(std::uint8_t* p, T v) {
    std::memcpy(p, &v, sizeof v);
}

/// Throws the error of LZ command i; out of line so the command loop keeps its state in
/// registers (a capturing lambda made the loop index and list pointers live in memory).
[[noreturn, gnu::noinline, gnu::cold]] void fail_command(const Context& ctx, const std::uint8_t* z, std::size_t i,
                                                          const char* what) {
    ctx.fail(z, "LZ command " + std::to_string(i) + ": " + what);
}

inline void copy16(std::uint8_t* to, const std::uint8_t* from) { std::memcpy(to, from, 16); }

/// Copies n literals to op (adding the byte `last` bytes back in delta mode, last >= 8) with
/// 16 bytes written first whatever n is (most runs are below 8): the caller guarantees 16
/// bytes of room past n at op and of readable literals past n at lit.
template <bool Delta>
inline void copy_literals_fast(std::uint8_t* op, const std::uint8_t* lit, std::size_t n, std::size_t last) {
    if constexpr (Delta) {
        // The first 16 bytes as two 8-byte adds whatever `last` is (>= 8: they read only
        // bytes written before them), so short runs take no branch on it.
        // One address for both (GCC formed op + 8 - last apart). op - last is inside the window
        // (no test): last starts at 8, a block's first chunk decodes commands from its 9th
        // byte, and walk_blocks keeps every block before the last whole, so a later chunk
        // starts a whole chunk or more past the window's base.
        const std::uint8_t* const back = op - last;
        store<Bytes8>(op, load<Bytes8>(lit) + load<Bytes8>(back));
        store<Bytes8>(op + 8, load<Bytes8>(lit + 8) + load<Bytes8>(back + 8));
        if (n <= 16) return;
        if (last >= 16) {  // 16-byte adds read only bytes written before them
            for (std::size_t i = 16; i < n; i += 16) store<Bytes16>(op + i, load<Bytes16>(lit + i) + load<Bytes16>(back + i));
            return;
        }
        for (std::size_t i = 16; i < n; i += 8) store<Bytes8>(op + i, load<Bytes8>(lit + i) + load<Bytes8>(back + i));
    } else {
        copy16(op, lit);
        for (std::size_t i = 16; i < n; i += 16) copy16(op + i, lit + i);
    }
}

/// Byte-wise literal copy, for the ends of the output window and of the literal source.
template <bool Delta>
inline void copy_literals_slow(std::uint8_t* op, const std::uint8_t* lit, std::size_t n, std::size_t last) {
    const std::uint8_t* back = op - last;
    for (std::size_t i = 0; i < n; ++i) op[i] = Delta ? static_cast<std::uint8_t>(lit[i] + back[i]) : lit[i];
}

/// Copies 64 bytes as four 16-byte blocks, all loaded before any is stored.
inline void copy64(std::uint8_t* to, const std::uint8_t* from) {
    const Bytes16 a = load<Bytes16>(from), b = load<Bytes16>(from + 16), c = load<Bytes16>(from + 32),
                  e = load<Bytes16>(from + 48);
    store<Bytes16>(to, a), store<Bytes16>(to + 16, b), store<Bytes16>(to + 32, c), store<Bytes16>(to + 48, e);
}

/// Bytes 48 to n of a match of n >= kLongMatch bytes that does not overlap its source
/// (d >= n: no block reads a byte any block writes, so blocks may overlap each other and
/// run in any order). Most of the bytes of FromSoftware binders come this way (81 % in
/// matches of 64 bytes and more). Writes nothing at or past op + n: the last 64 bytes end at
/// n exactly (for n < 112 they start below op + 48 and store again the bytes the caller has
/// just copied, with the same values, as d >= n leaves the source unchanged), so 64-127 bytes
/// take no loop (and no exit to mispredict) and longer matches step 64 bytes while more than
/// 64 are left. In place of glibc's memcpy (its call, size
/// dispatch and `rep movsb` above 2 KiB): 7-10 % faster decodes of the binders. Out of line:
/// inlined, it changed the command loop's register allocation and cost the one-block files
/// 2 %. 16-byte blocks (SSE2): 32-byte ones (AVX2) timed no better.
[[gnu::noinline]] void copy_long_match(std::uint8_t* op, const std::uint8_t* from, std::size_t n) {
    if (n < 128) {
        copy16(op + 48, from + 48);  // [n - 64, n) starts past 48 when n > 112
    } else {
        for (std::size_t i = 48; i + 64 < n; i += 64) copy64(op + i, from + i);
    }
    copy64(op + n - 64, from + n - 64);
}

/// Bytes 16 to n of a match at distance d >= 16, bytes 16 to 47 whatever n is: 17 to 48
/// bytes is the most common length past 16 (38-60 % of those matches in the game's binders),
/// and this spares them the copy loop, whose exit mispredicted. d >= 16: each step reads
/// only bytes written before it. Writes up to 47 bytes past op whatever n is.
inline void copy_match_from_16(std::uint8_t* op, const std::uint8_t* from, std::size_t d, std::size_t n) {
    copy16(op + 16, from + 16);
    copy16(op + 32, from + 32);
    if (n <= 48) return;
    if (n >= kLongMatch && d >= n) {
        copy_long_match(op, from, n);
        return;
    }
    for (std::size_t i = 48; i < n; i += 16) copy16(op + i, from + i);
}

/// A match at distance d >= 16 in a wide chunk: its first 64 bytes whatever n is, as four
/// 16-byte steps in order (each reads only bytes before its own start, so overlapping matches
/// copy exactly), then one test, `n > 64`. Past 64 bytes, d >= 64 steps 64 bytes a block
/// (each block loaded whole before it is stored, reading only bytes before its own start)
/// and nearer matches 16. Writes up to 63 bytes past n (62 past a match of 2 bytes).
/// The binders' wide chunks have a sixth of their matches at d = 16-63: there the 64-byte
/// blocks' `d >= 64` test mispredicted (68 k of er_allmaterial's 460 k in callgrind's model)
/// and the 16-byte path added an `n <= 16` test (56 k more).
inline void copy_match_wide(std::uint8_t* op, const std::uint8_t* from, std::size_t d, std::size_t n) {
    copy16(op, from);
    copy16(op + 16, from + 16);
    copy16(op + 32, from + 32);
    copy16(op + 48, from + 48);
    if (n <= 64) return;
    if (d >= 64) {
        for (std::size_t i = 64; i < n; i += 64) copy64(op + i, from + i);
        return;
    }
    for (std::size_t i = 64; i < n; i += 16) copy16(op + i, from + i);
}

/// Copies a match of n bytes from distance d >= 8 with 16 bytes written first whatever n is
/// (48 when n > 16 and d >= 16, 64 with WideFirst when d >= 16). The caller guarantees 32
/// bytes of room past n at op (63 with WideFirst: the last 64-byte block of a match of 65 bytes).
template <bool WideFirst>
inline void copy_match_fast(std::uint8_t* op, std::size_t d, std::size_t n) {
    const std::uint8_t* from = op - d;
    if constexpr (WideFirst) {
        // Chunks with many matches above 16 bytes (two fifths or more of the commands:
        // decode_lz_chunk's choice; the game's binders) mispredicted the `n <= 16` test below
        // on about one match in four: at d >= 16 they copy 64 bytes whatever n is. The other
        // chunks keep the 16-byte start below (their matches are mostly 16 bytes or shorter).
        if (d >= 16) [[likely]] {
            copy_match_wide(op, from, d, n);
            return;
        }
    }
    // The first 16 bytes in 8-byte steps whatever d is (>= 8: a step never reads a byte it
    // writes): most matches are short, and this takes no branch on d for them. (8-byte
    // loads of bytes just written also forward from the earlier stores more often than
    // 16-byte loads that straddle two of them.)
    store<std::uint64_t>(op, load<std::uint64_t>(from));
    store<std::uint64_t>(op + 8, load<std::uint64_t>(from + 8));
    if (n <= 16) return;
    if (d >= 16) {
        copy_match_from_16(op, from, d, n);
        return;
    }
    for (std::size_t i = 16; i < n; i += 8) store<std::uint64_t>(op + i, load<std::uint64_t>(from + i));
}

/// `v == K ? a : v` as a conditional move on v's own register. GCC compiles the plain
/// conditionals of the command loop to branches on the command's fields, which mispredict
/// on a large share of commands, and masks to many more instructions.
template <unsigned K>
inline std::uint32_t replace_if_equal(std::uint32_t v, std::uint32_t a) {
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__("cmpl %[k], %[v]\n\tcmovel %[a], %[v]" : [v] "+r"(v) : [k] "i"(K), [a] "rm"(a) : "cc");
    return v;
#else
    return v == K ? a : v;
#endif
}
/// Spec 3.6's recent distances after a command of offset kind k (0..3): recent[k] (k < 3) or
/// the new distance `fresh` (k = 3) moves to the front and the entries before it move back
/// one. In place, on two comparisons (selecting each value apart took five and copies).
inline void use_distance(std::uint64_t k, const std::uint64_t& fresh, std::uint64_t& recent0, std::uint64_t& recent1,
                         std::uint64_t& recent2) {
#if defined(__x86_64__) && defined(__GNUC__)
    std::uint64_t d;
    __asm__("movq %[fresh], %[d]\n\t"
            "cmpq $2, %[k]\n\t"
            "cmove %[r2], %[d]\n\t"   // k == 2: recent2
            "cmovae %[r1], %[r2]\n\t"  // k >= 2: recent1 moves back
            "cmpq $1, %[k]\n\t"
            "cmove %[r1], %[d]\n\t"   // k == 1: recent1
            "cmovae %[r0], %[r1]\n\t"  // k >= 1: recent0 moves back
            "cmovae %[d], %[r0]"        // k >= 1: d to the front (k == 0 keeps recent0 there)
            : [d] "=&r"(d), [r0] "+r"(recent0), [r1] "+r"(recent1), [r2] "+r"(recent2)
            : [k] "r"(k), [fresh] "m"(fresh)
            : "cc");
#else
    const std::uint64_t r0 = recent0, r1 = recent1, r2 = recent2;
    recent0 = k == 0 ? r0 : k == 1 ? r1 : k == 2 ? r2 : fresh;
    recent1 = k >= 1 ? r0 : r1;
    recent2 = k >= 2 ? r1 : r2;
#endif
}

/// Throws the error of the first command from index i on that reads past the length or the
/// distance list (the batch that overran is walked again, counting).
[[noreturn, gnu::noinline, gnu::cold]] void fail_overrun(const Context& ctx, const std::uint8_t* z,
                                                          const SubStreams& sub, std::size_t i,
                                                          const std::uint32_t* len, const std::uint64_t* dist) {
    for (;; ++i) {
        const unsigned c = sub.commands[i];
        len += ((c & 3) == 3) + (((c >> 2) & 15) == 15);
        dist += (c >> 6) == 3;
        if (len > sub.lengths + sub.length_count) fail_command(ctx, z, i, "length list exhausted");
        if (dist > sub.distances + sub.distance_count) fail_command(ctx, z, i, "distance list exhausted");
    }
}

/// The checks and copies of one command outside the fast path (near the end of the window
/// or of the literals, or a damaged command): spec 3.6's three checks in order, then byte
/// loops. Out of line, so the command loop keeps its state in registers.
template <bool Delta>
[[gnu::noinline]] void slow_command(const Context& ctx, const std::uint8_t* z, std::size_t i, std::uint8_t* op,
                                    const std::uint8_t* lit, std::size_t lits, std::size_t match, std::uint64_t d,
                                    std::uint64_t last, const std::uint8_t* end, const std::uint8_t* lit_end,
                                    const std::uint8_t* base) {
    if (lits > static_cast<std::size_t>(lit_end - lit)) fail_command(ctx, z, i, "literal run past the literals or the chunk");
    if (lits + match > static_cast<std::size_t>(end - op)) {
        if (lits > static_cast<std::size_t>(end - op)) fail_command(ctx, z, i, "literal run past the literals or the chunk");
        fail_command(ctx, z, i, "match runs past the chunk");
    }
    if (d < 8 || d > static_cast<std::uint64_t>(op + lits - base)) fail_command(ctx, z, i, "match distance outside the window");
    copy_literals_slow<Delta>(op, lit, lits, last);
    op += lits;
    const std::uint8_t* from = op - d;
    for (std::size_t k = 0; k < match; ++k) op[k] = from[k];
}

/// Phase 2 (spec 3.6, 3.7). Per command, two tests decide the fast path: that the literal
/// run fits the literals with 16 readable bytes past it, and that literals and match fit the
/// chunk with 32 bytes of room past them in the window, 63 with WideFirst (each one
/// comparison of the pointer the command advances to against a limit that folds both
/// bounds, computed once per chunk); then the distance's two tests. A command that fails
/// either takes slow_command, which makes the exact checks in spec order (same errors) and
/// copies byte-wise. That the length and distance lists were not overrun is checked once per
/// kCommandBatch commands (the lists are padded for the reads in between; values read there
/// feed only checked copies). Lengths and recent distances are chosen with conditional moves
/// (replace_if_equal, use_distance): no branch depends on the command's fields. WideFirst: decode_lz_chunk's choice for chunks
/// with many matches above 16 bytes.
template <bool Delta, bool WideFirst>
void run_commands(const Context& ctx, const std::uint8_t* z, const SubStreams& sub, const ChunkTarget& t,
                  std::size_t start) {
    std::uint8_t* op = t.out + start;
    std::uint8_t* const end = t.out + t.pos + t.size;
    std::uint8_t* const limit = t.out + t.write_limit;
    const std::uint8_t* const base = t.out + t.window_base;
    const std::uint8_t* lit = sub.literals;
    const std::uint8_t* const lit_end = lit + sub.literal_count;
    const std::uint8_t* const lit_readable_end = sub.literal_readable_end;
    // The fast path's two limits as addresses (integers: limit - room may lie before the
    // buffer). op <= end <= limit and lit <= lit_end <= lit_readable_end hold throughout, and
    // a length is below 2^33, so no sum below wraps. `op + lits + match <= out_fast_limit` is
    // `lits + match <= end - op` (the chunk) and `lits + match + room <= limit - op` (the fast
    // copies' room); `lit + lits <= lit_fast_limit` is `lits <= lit_end - lit` and 16 readable
    // past them. Both tests compare the pointers the command advances to, which the loop
    // computes anyway.
    constexpr std::size_t room = WideFirst ? 63 : 32;  // copy_match_fast's
    const std::uintptr_t out_fast_limit =
        std::min(reinterpret_cast<std::uintptr_t>(end), reinterpret_cast<std::uintptr_t>(limit) - room);
    const std::uintptr_t lit_fast_limit =
        std::min(reinterpret_cast<std::uintptr_t>(lit_end), reinterpret_cast<std::uintptr_t>(lit_readable_end) - 16);
    const std::uint64_t* dist = sub.distances;
    const std::uint64_t* const dist_end = dist + sub.distance_count;
    const std::uint32_t* len = sub.lengths;
    const std::uint32_t* const len_end = len + sub.length_count;
    std::uint64_t recent0 = 8, recent1 = 8, recent2 = 8;
    const std::uint8_t* command = sub.commands;
    const std::uint8_t* const commands_end = command + sub.command_count;
    auto index = [&](const std::uint8_t* at) { return static_cast<std::size_t>(at - sub.commands); };
    while (command != commands_end) {
      const std::uint8_t* const batch_start = command;
      const std::uint8_t* const batch_end = command + std::min<std::size_t>(commands_end - command, kCommandBatch);
      const std::uint32_t* const batch_len = len;
      const std::uint64_t* const batch_dist = dist;
      for (; command != batch_end; ++command) {
        const unsigned c = *command;
        // Integer arithmetic: the look-ahead distance may be stale padding, and a prefetch
        // of any address is harmless where forming an out-of-range pointer would not be.
        __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(op) -
                                                         static_cast<std::uintptr_t>(dist[kPrefetchAhead])));
        // Lengths and distances without branches on the command's fields: the length and
        // distance lists are padded (SubStreams), so the unconditional reads below stay in
        // bounds even at their ends; overruns are caught by the pointer checks after them.
        // A field at its escape value (lit_code 3, match_code 15, offset_kind 3) is the one
        // whose value plus 1 carries into the bit above the field.
        const unsigned lit_code = c & 3, match_code = (c >> 2) & 15, offset_kind = c >> 6;
        const std::size_t lits = replace_if_equal<3>(lit_code, *len);
        len += (lit_code + 1) >> 2;
        // match_code + 2, or the listed length + 14: both as a 32-bit sum (match_code - 12
        // wraps back by the + 14, and every slot of the length list, a std::vector that grows
        // zero-filled, holds 0 or a length below 2^20: none wraps).
        const std::size_t match = replace_if_equal<15 - 12>(match_code - 12, *len) + 14u;
        len += (match_code + 1) >> 4;
        const std::uint64_t last = recent0;  // delta literals refer to the previous distance
        use_distance(offset_kind, *dist, recent0, recent1, recent2);
        dist += (offset_kind + 1) >> 2;
        const std::uint64_t d = recent0;

        std::uint8_t* const match_at = op + lits;
        if (reinterpret_cast<std::uintptr_t>(lit) + lits <= lit_fast_limit &&
            reinterpret_cast<std::uintptr_t>(match_at) + match <= out_fast_limit) [[likely]] {
            // Spec 3.6's `8 <= d <= op + lits - base` as two tests: one unsigned comparison
            // (`d - 8 <= op + lits - base - 8`) needed two more registers than the loop had.
            if (d > static_cast<std::uint64_t>(match_at - base) || d < 8) [[unlikely]]
                fail_command(ctx, z, index(command), "match distance outside the window");
            copy_literals_fast<Delta>(op, lit, lits, last);
            copy_match_fast<WideFirst>(match_at, static_cast<std::size_t>(d), match);
        } else {
            slow_command<Delta>(ctx, z, index(command), op, lit, lits, match, d, last, end, lit_end, base);
        }
        lit += lits;
        op = match_at + match;
      }
      if (len > len_end || dist > dist_end) [[unlikely]]
          fail_overrun(ctx, z, sub, index(batch_start), batch_len, batch_dist);
    }
    ctx.check(dist == dist_end && len == len_end, z, "LZ chunk: distances or lengths left unused");
    const std::size_t tail = end - op;
    ctx.check(static_cast<std::size_t>(lit_end - lit) == tail, z, "LZ chunk: trailing literals do not fill the chunk");
    if (static_cast<std::size_t>(limit - op) >= tail + 16 && static_cast<std::size_t>(lit_readable_end - lit) >= tail + 16)
        copy_literals_fast<Delta>(op, lit, tail, recent0);
    else
        copy_literals_slow<Delta>(op, lit, tail, recent0);
}

}  // namespace

void decode_lz_chunk(const Context& ctx, const std::uint8_t* z, std::size_t size, unsigned mode,
                     const ChunkTarget& target) {
    ctx.check(size >= 13, z, "LZ chunk: payload below 13 bytes");
    ctx.check(mode <= 1, z, "LZ chunk: invalid literal mode");
    std::size_t pos = 0;
    if (target.pos == target.window_base) {
        std::memcpy(target.out + target.pos, z, 8);
        pos = 8;
    }
    const SubStreams sub = read_substreams(ctx, z, size, pos, target.size);
    if (ctx.info) [[unlikely]] {
        ChunkInfo& c = ctx.info->blocks.back().chunks.back();
        c.commands = sub.command_count, c.literals = sub.literal_count;
        c.new_distances = sub.distance_count, c.long_lengths = sub.length_count;
    }
    // Matches above 16 bytes (match code 15) in two fifths or more of the commands: the large
    // binders (46-60 % over the stream), not Silesia (2-9 %: the `n <= 16` test predicts
    // well) nor the one-block files (9-36 %: at a quarter they took the wide path and decoded
    // 4-5 % slower).
    std::uint32_t matches_over_16 = 0;  // 32 bits (commands <= 128 Ki): GCC vectorizes the sum
    for (std::size_t i = 0; i < sub.command_count; ++i) matches_over_16 += (sub.commands[i] & 0x3C) == 0x3C;
    const bool wide_first = 5 * std::size_t{matches_over_16} >= 2 * sub.command_count;
    const std::size_t start = target.pos + pos;
    if (mode == 0) {
        if (wide_first) run_commands<true, true>(ctx, z, sub, target, start);
        else run_commands<true, false>(ctx, z, sub, target, start);
    } else {
        if (wide_first) run_commands<false, true>(ctx, z, sub, target, start);
        else run_commands<false, false>(ctx, z, sub, target, start);
    }
}

std::size_t unpack_lengths(const std::uint8_t* packed, std::size_t count, const std::uint32_t* long_lengths,
                           std::uint32_t* lengths) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (use_avx512_lengths()) return unpack_lengths_avx512(packed, count, long_lengths, lengths);
#endif
    return unpack_lengths_from(packed, 0, count, long_lengths, 0, lengths);
}

bool allow_avx512_lengths(bool allowed) {
#if defined(__x86_64__) && defined(__GNUC__)
    g_avx512_lengths_allowed.store(allowed, std::memory_order_relaxed);
#endif
    return use_avx512_lengths();
}

}  // namespace navlab::kraken::detail
