// Kraken LZ chunk encoder: parse (hash chains, greedy or lazy, recent offsets first) and the
// sub-streams of spec 3.1 to 3.6, written as the decoder in lz.cpp reads them.
#include "codec/kraken/lz_encoder.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <memory>
#include <type_traits>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "codec/kraken/array_encoder.h"
#include "codec/kraken/bit_writer.h"
#include "codec/kraken/lz_parse.h"
#include "codec/kraken/sparse_parse.h"
#include "io/cpu_features.h"
#include "io/default_init_vector.h"

namespace navlab::kraken::detail {

void append_bit_region(std::vector<std::uint8_t>& out, std::span<const OffsetCode> offsets, std::span<const std::uint32_t> long_values) {
    // At most 32 bits an offset, 32 + 25 a long value, 63 for E; 8 bytes past the last store.
    const std::size_t room = 4 * offsets.size() + 8 * long_values.size() + 24;
    const auto buffer = std::make_unique_for_overwrite<std::uint8_t[]>(2 * room);
    MsbStream fa(buffer.get()), fb(buffer.get() + room);
    const std::uint32_t e1 = static_cast<std::uint32_t>(long_values.size()) + 1;
    const unsigned z = static_cast<unsigned>(std::bit_width(e1)) - 1;
    fb.write(0, z);
    fb.write(e1, z + 1);
    std::size_t i = 0;
    for (; i + 2 <= offsets.size(); i += 2) fa.write(offsets[i].value, offsets[i].bits), fb.write(offsets[i + 1].value, offsets[i + 1].bits);
    if (i < offsets.size()) fa.write(offsets[i].value, offsets[i].bits);
    for (i = 0; i < long_values.size(); ++i) {
        MsbStream& w = i & 1 ? fb : fa;
        const std::uint32_t y = long_values[i] + 64;
        const unsigned zeros = static_cast<unsigned>(std::bit_width(y)) - 7;
        w.write(0, zeros);
        w.write(y, zeros + 7);
    }
    const std::uint8_t* const a = buffer.get();
    const std::uint8_t* const b = buffer.get() + room;
    out.insert(out.end(), a, fa.finish());
    append_reversed(out, b, fb.finish());
}

namespace {

/// A command whose run or match needs a long LEN value: its index and its first LEN entry's.
struct LongCommand {
    std::uint32_t command, entry;
};

/// The LEN entries of 255 and their long values (spec 3.4) of the runs of 258 literals or
/// more and the matches of 272 bytes or more among `commands` (those listed in `longs`), whose
/// entries command_fields() wrote as bytes.
template <class C>
void mend_long_lengths(std::span<const C> commands, std::span<const LongCommand> longs, CommandArrays& a) {
    for (const LongCommand& l : longs) {
        const C& c = commands[l.command];
        std::size_t k = l.entry;
        if (c.literals >= 258) a.lengths[k] = 255, a.long_lengths.push_back(c.literals - 258);
        k += c.literals >= 3;
        if (c.length >= 272) a.lengths[k] = 255, a.long_lengths.push_back(c.length - 272);
    }
}

/// Where command_fields() writes: cursors into the arrays (sized for the commands) and the
/// long commands' list. Locals of the caller: the byte stores may alias any vector's fields,
/// which GCC then reloads.
struct FieldCursors {
    std::uint8_t* length_at;
    std::uint8_t* command_at;
    std::uint32_t* distance_at;
    LongCommand* long_at;
    std::uint32_t matched = 0;  ///< bytes the matches cover (at most a chunk)
};

/// The fields of commands[from, to) (all of `commands` indexes the long ones), one at a time.
/// No branch on a command's fields (the recent slot it uses, whether its run or match needs a
/// LEN entry): those are the data's choices, and the selects of Recent and the LEN vector's
/// pushes compiled to branches here (about two mispredictions every third command at level 1).
/// The three recent slots are scalars updated as parse_probe() updates them; the LEN entries
/// are written for every command and kept by moving the cursor or not. C: Command (then
/// from the first command: the slots start at 8), or SlottedCommand, whose slot is taken as
/// it is (level 1: no slots replayed).
template <class C>
[[gnu::always_inline]] inline void fields_one_by_one(const C* commands, std::size_t from, std::size_t to, FieldCursors& f,
                                                     std::uint8_t* lengths) {
    std::uint8_t* length_at = f.length_at;
    std::uint8_t* command_at = f.command_at;
    std::uint32_t* distance_at = f.distance_at;
    LongCommand* long_at = f.long_at;
    [[maybe_unused]] std::uint32_t s0 = 8, s1 = 8, s2 = 8;  // Recent's slots (spec 3.7); Command only
    std::uint32_t matched = f.matched;
    const C* const stop = commands + to;
    for (const C* c = commands + from; c != stop; ++c) {
        const std::uint32_t run = c->literals, length = c->length, d = c->distance;
        matched += length;
        // LEN entries: a run of 3+ literals stores run - 3, a match of 17+ bytes length - 17,
        // as bytes (from 258 and 272 on: 255 and a long value, mended by mend_long_lengths()
        // for the commands listed here: a rare branch that calls nothing); those not kept are
        // overwritten by the next entry or cut below.
        if (((run + (0x80000000u - 258)) | (length + (0x80000000u - 272))) >> 31) [[unlikely]]
            *long_at++ = {static_cast<std::uint32_t>(c - commands), static_cast<std::uint32_t>(length_at - lengths)};
        *length_at = static_cast<std::uint8_t>(run - 3), length_at += run >= 3;
        *length_at = static_cast<std::uint8_t>(length - 17), length_at += length >= 17;
        if constexpr (std::is_same_v<C, SlottedCommand>) {
            const std::uint32_t slot = c->slot;
            *distance_at = d, distance_at += slot == 3;  // kept if new
            *command_at++ = static_cast<std::uint8_t>(std::min(run, 3u) | std::min(length - 2, 15u) << 2 | slot << 6);
        } else {
            // Recent::index_of and Recent::use on the scalars: n0 = not slot 0, n01 = neither 0
            // nor 1, n012 = a new distance; slot 1 moves on from index 1, slot 2 from index 2.
            const std::uint32_t n0 = d != s0, n01 = n0 & (d != s1), n012 = n01 & (d != s2);
            *distance_at = d, distance_at += n012;  // kept if new
            s2 ^= (s2 ^ s1) & (0u - n01);
            s1 ^= (s1 ^ s0) & (0u - n0);
            s0 = d;
            *command_at++ = static_cast<std::uint8_t>(std::min(run, 3u) | std::min(length - 2, 15u) << 2 | (n0 + n01 + n012) << 6);
        }
    }
    f = {length_at, command_at, distance_at, long_at, matched};
}

#if defined(__x86_64__) && defined(__GNUC__)
/// For each 8-bit mask, the indices of its set bits in ascending order (bytes 0..7, the
/// rest 0): a byte shuffle or a lane permutation by it moves the kept entries to the front.
constexpr std::array<std::uint64_t, 256> kKeptIndices = [] {
    std::array<std::uint64_t, 256> t{};
    for (unsigned m = 0; m < 256; ++m)
        for (unsigned b = 0, k = 0; b < 8; ++b)
            if (m >> b & 1) t[m] |= std::uint64_t{b} << (8 * k++);
    return t;
}();

/// Commands c[0] and c[4] in the low and high halves.
[[gnu::target("avx2"), gnu::always_inline]] inline __m256i command_pair(const __m128i* c) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(c)), _mm_loadu_si128(c + 4), 1);
}

/// fields_one_by_one() of level 1's commands eight a step under AVX2, where none of the eight
/// needs a long LEN value (else those eight go one by one): the commands' fields moved into
/// lanes (a 4 x 4 transpose in each 128-bit half), the command bytes, the kept LEN entries and
/// new distances moved to the front by a shuffle from kKeptIndices and stored whole (the
/// bytes past them are overwritten next or cut, as one by one). The scalar loop was about 36
/// instructions a command (a fifth of level 1's chunk writer). Stores stay in the arrays:
/// before the step at i the cursors are at most at entry i (commands, distances) and 2i (LEN),
/// and a step stores 8 entries (16 LEN bytes) from there.
[[gnu::target("avx2,popcnt")]] void fields_avx2(const SlottedCommand* commands, std::size_t count, FieldCursors& f,
                                                 std::uint8_t* lengths) {
    static_assert(sizeof(SlottedCommand) == 16, "a command is one 128-bit load");
    const __m256i k2 = _mm256_set1_epi32(2), k3 = _mm256_set1_epi32(3), k15 = _mm256_set1_epi32(15);
    const __m256i k16 = _mm256_set1_epi32(16), k17 = _mm256_set1_epi32(17);
    const __m256i long_run = _mm256_set1_epi32(257), long_match = _mm256_set1_epi32(271);
    // Byte 0 of each 32-bit lane to bytes 0-3 of its half; bytes 0 and 1 to bytes 0-7.
    const __m256i first_bytes = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                 0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i two_bytes = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1,
                                               0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
    __m256i matched = _mm256_setzero_si256();
    std::size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m128i* c = reinterpret_cast<const __m128i*>(commands + i);
        const __m256i r0 = command_pair(c), r1 = command_pair(c + 1), r2 = command_pair(c + 2), r3 = command_pair(c + 3);
        const __m256i t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpackhi_epi32(r0, r1);
        const __m256i t2 = _mm256_unpacklo_epi32(r2, r3), t3 = _mm256_unpackhi_epi32(r2, r3);
        // Lane k of each: command i + k (k < 4 in the low half, i + 4 + k - 4 in the high one).
        const __m256i run = _mm256_unpacklo_epi64(t0, t2), length = _mm256_unpackhi_epi64(t0, t2);
        const __m256i distance = _mm256_unpacklo_epi64(t1, t3), slot = _mm256_unpackhi_epi64(t1, t3);
        const __m256i is_long = _mm256_or_si256(_mm256_cmpgt_epi32(run, long_run), _mm256_cmpgt_epi32(length, long_match));
        if (!_mm256_testz_si256(is_long, is_long)) [[unlikely]] {
            fields_one_by_one(commands, i, i + 8, f, lengths);
            continue;
        }
        matched = _mm256_add_epi32(matched, length);
        // The command bytes: min(run, 3) | min(length - 2, 15) << 2 | slot << 6 (unsigned mins).
        const __m256i byte = _mm256_or_si256(
            _mm256_or_si256(_mm256_min_epu32(run, k3), _mm256_slli_epi32(_mm256_min_epu32(_mm256_sub_epi32(length, k2), k15), 2)),
            _mm256_slli_epi32(slot, 6));
        const __m256i bytes = _mm256_shuffle_epi8(byte, first_bytes);
        const std::uint64_t eight = static_cast<std::uint32_t>(_mm256_extract_epi32(bytes, 0)) |
                                    std::uint64_t{static_cast<std::uint32_t>(_mm256_extract_epi32(bytes, 4))} << 32;
        std::memcpy(f.command_at, &eight, 8);
        f.command_at += 8;
        // New distances (slot 3) to the front.
        const unsigned is_new = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(slot, k3))));
        const __m256i order = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(kKeptIndices[is_new])));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(f.distance_at), _mm256_permutevar8x32_epi32(distance, order));
        f.distance_at += __builtin_popcount(is_new);
        // LEN: run - 3 (kept for runs of 3+) and length - 17 (matches of 17+), two bytes a command.
        const __m256i entries = _mm256_or_si256(_mm256_and_si256(_mm256_sub_epi32(run, k3), _mm256_set1_epi32(0xFF)),
                                                _mm256_slli_epi32(_mm256_sub_epi32(length, k17), 8));
        const __m256i kept = _mm256_or_si256(_mm256_and_si256(_mm256_cmpgt_epi32(run, k2), _mm256_set1_epi32(0xFF)),
                                             _mm256_and_si256(_mm256_cmpgt_epi32(length, k16), _mm256_set1_epi32(0xFF00)));
        const __m256i entry_bytes = _mm256_shuffle_epi8(entries, two_bytes);
        const unsigned kept_bits = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_shuffle_epi8(kept, two_bytes)));
        for (int half = 0; half < 2; ++half) {  // commands i..i+3, then i+4..i+7
            const unsigned m = kept_bits >> (16 * half) & 0xFF;
            const __m128i e = half ? _mm256_extracti128_si256(entry_bytes, 1) : _mm256_castsi256_si128(entry_bytes);
            const __m128i front = _mm_shuffle_epi8(e, _mm_cvtsi64_si128(static_cast<long long>(kKeptIndices[m])));
            _mm_storel_epi64(reinterpret_cast<__m128i*>(f.length_at), front);
            f.length_at += __builtin_popcount(m);
        }
    }
    // The matches' sum (at most a chunk, so no lane overflows).
    const __m128i sum4 = _mm_add_epi32(_mm256_castsi256_si128(matched), _mm256_extracti128_si256(matched, 1));
    const __m128i sum2 = _mm_add_epi32(sum4, _mm_unpackhi_epi64(sum4, sum4));
    f.matched += static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_add_epi32(sum2, _mm_shuffle_epi32(sum2, 1))));
    fields_one_by_one(commands, i, count, f, lengths);
}

/// Whether command_fields() takes fields_avx2() for level 1's commands: the processor has AVX2
/// (and popcnt) and the system saves the registers; asked once. allow_avx2_command_fields'
/// switch lets tests run the one-by-one loop too.
std::atomic<bool> g_avx2_fields_allowed{true};
bool use_avx2_fields() {
    return cpu_has_avx2_popcnt() && g_avx2_fields_allowed.load(std::memory_order_relaxed);
}
#else
bool use_avx2_fields() { return false; }
#endif

/// The command bytes, new distances and LEN entries of `commands` (covering at most `span`
/// bytes) into `a` (sized for them); returns the bytes the matches cover. The literals have a
/// loop of their own (copy_literals): in one loop with them GCC kept the slots and cursors on
/// the stack.
template <class C>
std::uint32_t command_fields(std::span<const C> commands, std::size_t span, CommandArrays& a) {
    // A long command covers 258 bytes or more.
    DefaultInitVector<LongCommand> longs(std::min(commands.size(), span / 258 + 1));
    FieldCursors f{a.lengths.data(), a.command_bytes.data(), a.distances.data(), longs.data()};
    bool done = false;
#if defined(__x86_64__) && defined(__GNUC__)
    if constexpr (std::is_same_v<C, SlottedCommand>)  // level 1's commands only
        if (use_avx2_fields()) {
            fields_avx2(commands.data(), commands.size(), f, a.lengths.data());
            done = true;
        }
#endif
    if (!done) fields_one_by_one(commands.data(), 0, commands.size(), f, a.lengths.data());
    a.distances.resize(static_cast<std::size_t>(f.distance_at - a.distances.data()));
    a.lengths.resize(static_cast<std::size_t>(f.length_at - a.lengths.data()));
    mend_long_lengths(commands, std::span(longs.data(), f.long_at), a);
    return f.matched;
}

/// The bytes of a run that copy_literals' 8-byte step does not take (more than 8 literals, or
/// fewer than 8 bytes left in the block): out of line, so that the step's loop keeps its state
/// in registers (with the memcpy call inline GCC kept the block's size and the commands' end
/// on the stack).
[[gnu::noinline]] void copy_run(const std::uint8_t* src, const std::uint8_t* ref, std::size_t count, std::uint8_t* raw_at,
                                std::uint8_t* delta_at) {
    std::memcpy(raw_at, src, count);
    for (std::size_t i = 0; i < count; ++i) delta_at[i] = static_cast<std::uint8_t>(src[i] - ref[i]);
}

/// The literals of `commands` over block[first, end) and the trailing ones, raw and as deltas
/// against the bytes at the last distance (recent slot 0: 8, then each command's distance),
/// into `raw` and `delta`, which have room for them and 8 bytes more.
template <class C>
void copy_literals(std::span<const std::uint8_t> block, std::size_t first, std::size_t end, std::span<const C> commands,
                   std::uint8_t* raw_at, std::uint8_t* delta_at) {
    const std::uint8_t* const data = block.data();
    const std::size_t eight_end = std::max<std::size_t>(block.size(), 8) - 8;  // p <= eight_end: 8 bytes from p
    std::size_t p = first;
    std::uint32_t last = 8;
    auto literals = [&](std::size_t count) {
        const std::uint8_t* src = data + p;
        const std::uint8_t* ref = src - last;  // slot 0 <= p: inside the block
        // A run of at most 8 (most of them) as one 8-byte move, and its deltas as one 8-byte
        // subtraction, where the block has the bytes; the bytes past the run are overwritten
        // by the next run or dropped with the slack. (GCC made the byte loop a memcpy call
        // per run: 3 % of level 1 on the emevd; the delta loop's exit mispredicted.)
        if (count <= 8 && p <= eight_end) [[likely]] {
            std::memcpy(raw_at, src, 8);
            const std::uint64_t d = bytewise_difference(load64(src), load64(ref));
            std::memcpy(delta_at, &d, 8);
        } else {
            copy_run(src, ref, count, raw_at, delta_at);
        }
        raw_at += count, delta_at += count;
        p += count;
    };
    for (const C& c : commands) {
        literals(c.literals);
        p += c.length, last = c.distance;
    }
    literals(end - p);
}

template <class C>
CommandArrays arrays_of(std::span<const std::uint8_t> block, std::size_t first, std::size_t end, std::span<const C> commands) {
    CommandArrays a;
    // LEN has room for two entries a command (its run's and its match's).
    a.command_bytes.resize(commands.size()), a.distances.resize(commands.size()), a.lengths.resize(2 * commands.size());
    const std::size_t literal_count = end - first - command_fields(commands, end - first, a);
    // Sized for the literals the parse leaves, not the chunk: most of a compressible chunk is
    // matches, and 128 KiB allocations cost page faults (a fresh mapping each). 8 bytes more
    // until they are filled, for copy_literals' 8-byte moves.
    a.raw.resize(literal_count + 8), a.delta.resize(literal_count + 8);
    copy_literals(block, first, end, commands, a.raw.data(), a.delta.data());
    a.raw.resize(literal_count), a.delta.resize(literal_count);
    return a;
}

}  // namespace

CommandArrays command_arrays(std::span<const std::uint8_t> block, std::size_t first, std::size_t end,
                             std::span<const Command> commands) {
    return arrays_of(block, first, end, commands);
}

CommandArrays command_arrays(std::span<const std::uint8_t> block, std::size_t first, std::size_t end,
                             std::span<const SlottedCommand> commands) {
    return arrays_of(block, first, end, commands);
}

bool allow_avx2_command_fields(bool allowed) {
#if defined(__x86_64__) && defined(__GNUC__)
    g_avx2_fields_allowed.store(allowed, std::memory_order_relaxed);
#endif
    return use_avx2_fields();
}

namespace {

/// Writes the chunk payload of one parse (spec 3.1): sub-streams, then the bit region.
template <class Commands>
LzChunk write_chunk(std::span<const std::uint8_t> block, std::size_t start, std::size_t first, std::size_t end,
                    const Commands& commands, const LzParams& params) {
    const int split_depth = params.split_depth;
    const bool tans = params.search_entropy;
    const bool quick = params.quick_arrays;
    // The arrays are written before they are read (DefaultInitVector: no fill).
    CommandArrays arrays = command_arrays(block, first, end, commands);
    const auto& raw = arrays.raw;
    const auto& delta = arrays.delta;
    const auto& distances = arrays.distances;
    const std::size_t literal_count = raw.size();
    // Level 1's histograms, counted over the finished arrays (a loop per run mispredicted its exit).
    std::array<std::uint32_t, 256> raw_histogram{}, delta_histogram{};
    if (quick)
        for (std::size_t i = 0; i < literal_count; ++i) ++raw_histogram[raw[i]], ++delta_histogram[delta[i]];

    // Literal mode per chunk (spec 1.4): whichever literal array is estimated smaller (level 1:
    // of lower order-0 entropy; both have literal_count bytes, so the larger sum of c log2 c).
    const bool use_delta = quick ? count_log2_count(delta_histogram) > count_log2_count(raw_histogram)
                                 : estimate_array_size(delta) < estimate_array_size(raw);
    LzChunk chunk{{}, use_delta ? 0u : 1u};
    std::vector<std::uint8_t>& z = chunk.payload;
    if (first != start) z.insert(z.end(), block.begin() + start, block.begin() + first);  // window start
    // Levels 1-6 (no entropy search) favour decode speed: see ArrayPolicy::weigh_decode_time.
    const bool weigh = !params.search_entropy;
    const ArrayPolicy policy{.split_depth = split_depth, .tans = tans, .estimate_rle = quick, .weigh_decode_time = weigh};
    // Level 1 hands the literal array's histogram on (counted above), the other levels count it there.
    encode_array(use_delta ? delta : raw,
                 {.long_header = true, .split_depth = split_depth, .tans = tans, .estimate_rle = quick, .weigh_decode_time = weigh}, z,
                 quick ? (use_delta ? &delta_histogram : &raw_histogram) : nullptr);
    encode_array(arrays.command_bytes, policy, z);
    // Offsets (spec 3.4, 3.5): legacy, or scaled with a scale byte (and low bits for scale >= 2).
    const unsigned scale = params.search_entropy ? choose_scale(distances) : 0;
    DefaultInitVector<OffsetCode> offsets(distances.size());
    DefaultInitVector<std::uint8_t> packed_offsets(distances.size()), low(distances.size());
    for (std::size_t i = 0; i < distances.size(); ++i) {
        offsets[i] = scale == 0 ? offset_code(distances[i]) : scaled_code(distances[i], scale, low[i]);
        packed_offsets[i] = offsets[i].packed;
    }
    if (scale != 0) z.push_back(static_cast<std::uint8_t>(127 + scale));
    // Without a scale byte the array must not start with a byte >= 0x80 (it would be one).
    encode_array(packed_offsets,
                 {.long_header = scale == 0, .split_depth = split_depth, .tans = tans, .estimate_rle = quick, .weigh_decode_time = weigh}, z);
    if (scale >= 2) encode_array(low, policy, z);
    encode_array(arrays.lengths, policy, z);
    append_bit_region(z, offsets, arrays.long_lengths);
    return chunk;
}

}  // namespace

std::optional<LzChunk> encode_lz_chunk(MatchFinder& finder, std::span<const std::uint8_t> block, std::size_t start,
                                       std::size_t n, const LzParams& params) {
    const bool window_start = start == 0;
    const std::size_t first = start + (window_start ? 8 : 0);
    const std::size_t end = start + n;
    if (n < 16) return std::nullopt;
    std::optional<LzChunk> best;
    auto consider = [&](const auto& commands) {
        LzChunk chunk = write_chunk(block, start, first, end, commands, params);
        if (chunk.payload.size() < 13 || chunk.payload.size() >= n) return;
        if (!best || chunk.payload.size() < best->payload.size()) best = std::move(chunk);
    };
    if (params.sparse) {
        consider(parse_sparse(finder, block, first, end, params));
    } else if (params.optimal) {
        for (const auto& commands : parse_optimal(finder, block, first, end, params)) consider(commands);
    } else if (!params.chains) {
        consider(parse_probe_slotted(finder, first, end, params));  // level 1
    } else {
        consider(parse_lazy(finder, first, end, params));
    }
    return best;
}

}  // namespace navlab::kraken::detail
