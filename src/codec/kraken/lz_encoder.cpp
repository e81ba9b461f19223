// Kraken LZ chunk encoder: parse (hash chains, greedy or lazy, recent offsets first) and the
// sub-streams of spec 3.1 to 3.6, written as the decoder in lz.cpp reads them.
#include "codec/kraken/lz_encoder.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "codec/kraken/array_encoder.h"
#include "codec/kraken/bit_writer.h"

namespace navlab::kraken::detail {
namespace {

constexpr unsigned kHashBits = 16;
constexpr std::uint32_t kMinMatch = 4;
/// Smallest distance any decoder handles (spec 3.7: legacy offsets cannot express less).
constexpr std::size_t kMinDistance = 8;

inline std::uint32_t load32(const std::uint8_t* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
inline std::uint64_t load64(const std::uint8_t* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}
inline std::uint32_t hash4(const std::uint8_t* p) { return (load32(p) * 2654435761u) >> (32 - kHashBits); }

/// Legacy near-offset code (spec 3.5) of distance d (8 ... 8,388,359): packed byte, raw bits.
struct OffsetCode {
    std::uint8_t packed;
    unsigned bits;
    std::uint32_t value;
};
OffsetCode offset_code(std::uint32_t d) {
    const std::uint32_t x = d + 248;
    const std::uint32_t high = x >> 4;
    const unsigned nb = static_cast<unsigned>(std::bit_width(high)) - 1;
    return {static_cast<std::uint8_t>((nb - 4) << 4 | (x & 15)), nb, high - (1u << nb)};
}

/// Rough bit price of a match, against about 7 bits a literal: the parse's cost model.
int match_gain(std::uint32_t length, std::uint32_t distance, bool recent) {
    const int cost = recent ? 6 : 13 + static_cast<int>(offset_code(distance).bits);
    return static_cast<int>(length) * 7 - cost;
}

/// One LZ command: a literal run then a match (spec 3.6).
struct Command {
    std::uint32_t literals, length, distance;
};

/// Recent-offset slots with the move-to-front of spec 3.7.
struct Recent {
    std::uint32_t slot[3] = {8, 8, 8};
    /// The slot holding d (0..2), or 3 for a new distance.
    unsigned index_of(std::uint32_t d) const {
        for (unsigned i = 0; i < 3; ++i)
            if (slot[i] == d) return i;
        return 3;
    }
    void use(unsigned index, std::uint32_t d) {
        if (index == 0) return;
        if (index >= 2) slot[2] = slot[1];
        slot[1] = slot[0];
        slot[0] = d;
    }
};

/// A match candidate at one position, with its gain.
struct Candidate {
    std::uint32_t length = 0, distance = 0;
    int gain = 0;
};

Candidate best_at(MatchFinder& finder, std::size_t p, std::size_t limit, const Recent& recent, const LzParams& params) {
    Candidate best;
    for (unsigned i = 0; i < 3; ++i) {
        const std::uint32_t len = finder.match_length(p, recent.slot[i], limit);
        if (len >= 2) {
            const int gain = match_gain(len, recent.slot[i], true);
            if (gain > best.gain) best = {len, recent.slot[i], gain};
        }
    }
    if (best.length >= params.nice_length) return best;
    const MatchFinder::Match m = finder.find(p, limit, params);
    if (m.length >= kMinMatch) {
        const int gain = match_gain(m.length, m.distance, false);
        if (gain > best.gain) best = {m.length, m.distance, gain};
    }
    return best;
}

/// Parses [p, end) into commands; the bytes after the last match are the trailing literals.
std::vector<Command> parse(MatchFinder& finder, std::size_t p, std::size_t end, const LzParams& params) {
    std::vector<Command> commands;
    Recent recent;
    std::size_t literal_start = p;
    unsigned misses = 0;
    while (p + kMinMatch <= end) {
        Candidate c = best_at(finder, p, end, recent, params);
        if (c.gain <= 0) {
            ++misses;
            p += params.skip_literals ? 1 + (misses >> 5) : 1;
            continue;
        }
        misses = 0;
        for (unsigned step = 0; step < params.lazy_steps && c.length < params.nice_length && p + 1 + kMinMatch <= end;
             ++step) {
            const Candidate next = best_at(finder, p + 1, end, recent, params);
            if (next.gain <= c.gain + 7) break;
            c = next, ++p;
        }
        commands.push_back({static_cast<std::uint32_t>(p - literal_start), c.length, c.distance});
        recent.use(recent.index_of(c.distance), c.distance);
        p += c.length;
        literal_start = p;
    }
    return commands;
}

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
std::vector<std::uint8_t> bit_region(const std::vector<OffsetCode>& offsets, const std::vector<std::uint32_t>& long_values) {
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

}  // namespace

LzParams lz_params(int level) {
    switch (level) {
        case 1: return {1, 0, 32, true};
        case 2: return {2, 0, 48, true};
        case 3: return {4, 0, 64, false};
        case 4: return {8, 1, 96, false};
        case 5: return {16, 1, 128, false};
        case 6: return {32, 1, 192, false};
        case 7: return {64, 2, 256, false};
        case 8: return {128, 2, 512, false};
        default: return {256, 2, 1024, false};
    }
}

MatchFinder::MatchFinder(std::span<const std::uint8_t> block)
    : block_(block), head_(std::size_t{1} << kHashBits, -1), prev_(block.size(), -1) {}

void MatchFinder::insert_up_to(std::size_t p) {
    const std::size_t last = block_.size() >= 4 ? std::min(p, block_.size() - 3) : 0;
    for (; inserted_ < last; ++inserted_) {
        const std::uint32_t h = hash4(block_.data() + inserted_);
        prev_[inserted_] = head_[h];
        head_[h] = static_cast<std::int32_t>(inserted_);
    }
    inserted_ = std::max(inserted_, p);
}

std::uint32_t MatchFinder::match_length(std::size_t p, std::size_t d, std::size_t limit) const {
    if (d < kMinDistance || d > p) return 0;
    const std::uint8_t* a = block_.data() + p;
    const std::uint8_t* b = a - d;
    const std::size_t max = limit - p;
    std::size_t n = 0;
    while (n + 8 <= max) {
        const std::uint64_t x = load64(a + n) ^ load64(b + n);
        if (x) return static_cast<std::uint32_t>(n + (std::countr_zero(x) >> 3));
        n += 8;
    }
    while (n < max && a[n] == b[n]) ++n;
    return static_cast<std::uint32_t>(n);
}

MatchFinder::Match MatchFinder::find(std::size_t p, std::size_t limit, const LzParams& params) {
    insert_up_to(p);
    Match best;
    if (p + 4 > block_.size() || p + kMinMatch > limit) return best;
    const std::uint32_t head4 = load32(block_.data() + p);
    std::int32_t c = head_[hash4(block_.data() + p)];
    for (unsigned depth = 0; c >= 0 && depth < params.chain_depth; ++depth, c = prev_[c]) {
        const std::size_t d = p - static_cast<std::size_t>(c);
        if (d < kMinDistance || load32(block_.data() + c) != head4) continue;
        // A longer match must also agree at the byte just past the current best.
        if (best.length && (p + best.length >= limit || block_[c + best.length] != block_[p + best.length])) continue;
        const std::uint32_t len = match_length(p, d, limit);
        if (len > best.length) {
            best = {len, static_cast<std::uint32_t>(d)};
            if (len >= params.nice_length) break;
        }
    }
    return best;
}

std::optional<LzChunk> encode_lz_chunk(MatchFinder& finder, std::span<const std::uint8_t> block, std::size_t start,
                                       std::size_t n, const LzParams& params) {
    const bool window_start = start == 0;
    const std::size_t first = start + (window_start ? 8 : 0);
    const std::size_t end = start + n;
    if (n < 16) return std::nullopt;
    const std::vector<Command> commands = parse(finder, first, end, params);

    std::vector<std::uint8_t> raw, delta, command_bytes;
    std::vector<OffsetCode> offsets;
    Lengths lengths;
    raw.reserve(n), delta.reserve(n), command_bytes.reserve(commands.size());
    Recent recent;
    std::size_t p = first;
    auto literals = [&](std::size_t count) {
        for (std::size_t q = p; q < p + count; ++q) {
            raw.push_back(block[q]);
            delta.push_back(static_cast<std::uint8_t>(block[q] - block[q - recent.slot[0]]));
        }
        p += count;
    };
    for (const Command& c : commands) {
        literals(c.literals);
        unsigned lit_field = c.literals;
        if (c.literals >= 3) lit_field = 3, lengths.push(c.literals);
        const unsigned index = recent.index_of(c.distance);
        if (index == 3) offsets.push_back(offset_code(c.distance));
        recent.use(index, c.distance);
        unsigned match_field = c.length - 2;
        if (c.length > 16) match_field = 15, lengths.push(c.length - 14);
        command_bytes.push_back(static_cast<std::uint8_t>(lit_field | match_field << 2 | index << 6));
        p += c.length;
    }
    literals(end - p);

    // Literal mode per chunk (spec 1.4): whichever literal array is estimated smaller.
    const bool use_delta = estimate_array_size(delta) < estimate_array_size(raw);
    LzChunk chunk{{}, use_delta ? 0u : 1u};
    std::vector<std::uint8_t>& z = chunk.payload;
    z.reserve(n);
    if (window_start) z.insert(z.end(), block.begin(), block.begin() + 8);
    encode_array(use_delta ? delta : raw, {.long_header = true}, z);
    encode_array(command_bytes, {}, z);
    std::vector<std::uint8_t> packed_offsets(offsets.size());
    for (std::size_t i = 0; i < offsets.size(); ++i) packed_offsets[i] = offsets[i].packed;
    encode_array(packed_offsets, {.long_header = true}, z);  // no scale byte: must not start >= 0x80
    encode_array(lengths.packed, {}, z);
    append(z, bit_region(offsets, lengths.long_values));
    if (z.size() < 13 || z.size() >= n) return std::nullopt;
    return chunk;
}

}  // namespace navlab::kraken::detail
