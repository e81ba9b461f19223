// Kraken LZ chunk encoder: parse (hash chains, greedy or lazy, recent offsets first) and the
// sub-streams of spec 3.1 to 3.6, written as the decoder in lz.cpp reads them.
#include "codec/kraken/lz_encoder.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "codec/kraken/array_encoder.h"
#include "codec/kraken/bit_writer.h"
#include "codec/kraken/lz_parse.h"
#include "codec/kraken/sparse_parse.h"
#include "io/default_init_vector.h"

namespace navlab::kraken::detail {
namespace {

/// LEN[] entries (spec 3.4 item 8): a packed byte, and the long value for byte 255.
struct Lengths {
    std::vector<std::uint8_t> packed;
    std::vector<std::uint32_t> long_values;
    void push(std::uint32_t value) {  // value >= 3
        if (value - 3 < 255) {
            packed.push_back(static_cast<std::uint8_t>(value - 3));
        } else {
            packed.push_back(255);
            long_values.push_back(value - 258);
        }
    }
};

/// Spec 3.4 (7): E, the offsets' raw bits and the long lengths, on alternating readers.
std::vector<std::uint8_t> bit_region(std::span<const OffsetCode> offsets, const std::vector<std::uint32_t>& long_values) {
    MsbWriter fa, fb;
    const std::uint32_t e1 = static_cast<std::uint32_t>(long_values.size()) + 1;
    const unsigned z = static_cast<unsigned>(std::bit_width(e1)) - 1;
    fb.zeros(z);
    fb.write(e1, z + 1);
    for (std::size_t i = 0; i < offsets.size(); ++i) (i & 1 ? fb : fa).write(offsets[i].value, offsets[i].bits);
    for (std::size_t i = 0; i < long_values.size(); ++i) {
        MsbWriter& w = i & 1 ? fb : fa;
        const std::uint32_t y = long_values[i] + 64;
        const unsigned zeros = static_cast<unsigned>(std::bit_width(y)) - 7;
        w.zeros(zeros);
        w.write(y, zeros + 7);
    }
    std::vector<std::uint8_t> region = fa.finish();
    append_reversed(region, fb.finish());
    return region;
}

/// Writes the chunk payload of one parse (spec 3.1): sub-streams, then the bit region.
LzChunk write_chunk(std::span<const std::uint8_t> block, std::size_t start, std::size_t first, std::size_t end,
                    const std::vector<Command>& commands, const LzParams& params) {
    const int split_depth = params.split_depth;
    const bool tans = params.search_entropy;
    // The arrays sized up front are written before they are read (DefaultInitVector: no fill).
    DefaultInitVector<std::uint8_t> raw, delta;
    std::vector<std::uint8_t> command_bytes;
    DefaultInitVector<std::uint32_t> distances;
    Lengths lengths;
    // Reserved for the literals the parse leaves, not the chunk: most of a compressible chunk
    // is matches, and 128 KiB reservations cost page faults (a fresh mapping each).
    // (Summed in 32 bits, at most a chunk: GCC 12 -O3 vectorised the size_t form of this loop
    // through stack stores and 16-byte reloads, a store-forwarding stall every four commands
    // that was a tenth of this function at level 1.)
    std::uint32_t matched = 0;
    for (const Command& c : commands) matched += c.length;
    const std::size_t literal_count = end - first - matched;
    // Sized once and filled through pointers: literal runs are short (a few bytes between
    // matches), and a vector insert per run cost more than its bytes. `raw` and `delta` have 8
    // bytes more until they are filled, for the 8-byte moves below.
    raw.resize(literal_count + 8), delta.resize(literal_count + 8), command_bytes.reserve(commands.size());
    distances.resize(commands.size()), lengths.packed.reserve(commands.size());
    std::uint32_t* distances_at = distances.data();
    std::size_t new_distances = 0;
    std::uint8_t* raw_at = raw.data();
    std::uint8_t* delta_at = delta.data();
    Recent recent;
    std::size_t p = first;
    const bool quick = params.quick_arrays;
    auto literals = [&](std::size_t count) {
        const std::uint8_t* src = block.data() + p;
        const std::uint8_t* ref = src - recent.slot[0];  // slot 0 <= p: inside the block
        // A run of at most 8 (most of them) as one 8-byte move, and its deltas as one 8-byte
        // subtraction, where the block has the bytes; the bytes past the run are overwritten
        // by the next run or dropped with the slack. (GCC made the byte loop a memcpy call
        // per run: 3 % of level 1 on the emevd; the delta loop's exit mispredicted.)
        if (count <= 8 && p + 8 <= block.size()) {
            std::memcpy(raw_at, src, 8);
            const std::uint64_t d = bytewise_difference(load64(src), load64(ref));
            std::memcpy(delta_at, &d, 8);
        } else {
            std::memcpy(raw_at, src, count);
            for (std::size_t i = 0; i < count; ++i) delta_at[i] = static_cast<std::uint8_t>(src[i] - ref[i]);
        }
        raw_at += count, delta_at += count;
        p += count;
    };
    for (const Command& c : commands) {
        literals(c.literals);
        unsigned lit_field = c.literals;
        if (c.literals >= 3) lit_field = 3, lengths.push(c.literals);
        const unsigned index = recent.index_of(c.distance);
        distances_at[new_distances] = c.distance, new_distances += index == 3;  // kept if new (no branch)
        recent.use(index, c.distance);
        unsigned match_field = c.length - 2;
        if (c.length > 16) match_field = 15, lengths.push(c.length - 14);
        command_bytes.push_back(static_cast<std::uint8_t>(lit_field | match_field << 2 | index << 6));
        p += c.length;
    }
    distances.resize(new_distances);
    literals(end - p);
    raw.resize(literal_count), delta.resize(literal_count);
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
    encode_array(command_bytes, policy, z);
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
    encode_array(lengths.packed, policy, z);
    append(z, bit_region(offsets, lengths.long_values));
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
    auto consider = [&](const std::vector<Command>& commands) {
        LzChunk chunk = write_chunk(block, start, first, end, commands, params);
        if (chunk.payload.size() < 13 || chunk.payload.size() >= n) return;
        if (!best || chunk.payload.size() < best->payload.size()) best = std::move(chunk);
    };
    if (params.sparse) {
        consider(parse_sparse(finder, block, first, end, params));
    } else if (params.optimal) {
        for (const auto& commands : parse_optimal(finder, block, first, end, params)) consider(commands);
    } else {
        consider(parse_lazy(finder, first, end, params));
    }
    return best;
}

}  // namespace navlab::kraken::detail
