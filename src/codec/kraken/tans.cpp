// tANS byte arrays, type 1 (spec 2.4): weight tables (Golomb and sparse forms), the
// 4-lane decoding table and the five interleaved states.
#include <array>
#include <cstring>

#include "codec/kraken/bit_reader.h"
#include "codec/kraken/byte_array.h"
#include "codec/kraken/symbol_ranges.h"

namespace navlab::kraken::detail {
namespace {

constexpr unsigned kMaxLog = 11;

struct Weights {
    std::array<std::uint32_t, 256> of{};  ///< weight per symbol, 0 = absent
};

/// Spec 2.4.2.
void read_golomb_weights(const Context& ctx, const std::uint8_t* at, MsbForward& bits, unsigned table_size,
                         Weights& weights) {
    const unsigned q = bits.read(3);
    const unsigned n = bits.read(8) + 1;
    ctx.check(n >= 2, at, "tANS: fewer than 2 symbols");
    std::uint8_t values[256];  // the values have no suffix bits
    std::uint8_t symbols[kSymbolListRoom];
    read_coded_symbols(ctx, at, bits, n, symbols,
                       [&](const std::uint8_t* prefixes, MsbForward&) { std::memcpy(values, prefixes, n); });
    int average = 6;
    std::uint32_t total = 0;
    for (unsigned i = 0; i < n; ++i) {
        const unsigned e = q + values[i];
        ctx.check(e <= 15, at, "tANS: weight code too long");
        int v = static_cast<int>(bits.read(e) + (1u << e) - (1u << q));
        const int a = average >> 2;
        int limit = 2 * a;
        if (v <= limit) v = a + zigzag(static_cast<std::uint32_t>(v));
        limit = std::min(limit, v);
        average += limit - a;
        weights.of[symbols[i]] = static_cast<std::uint32_t>(v + 1);
        total += static_cast<std::uint32_t>(v + 1);
    }
    ctx.check(total == table_size, at, "tANS: weights do not sum to the table size");
}

/// Spec 2.4.3.
void read_sparse_weights(const Context& ctx, const std::uint8_t* at, MsbForward& bits, unsigned log,
                         Weights& weights) {
    const unsigned count = bits.read(3) + 1;
    const unsigned delta_bits = bits.read(4);
    ctx.check(delta_bits >= 1 && delta_bits <= log, at, "tANS: sparse delta width out of range");
    std::uint32_t w = 0, total = 0;
    for (unsigned i = 0; i < count; ++i) {
        const unsigned s = bits.read(8);
        ctx.check(weights.of[s] == 0, at, "tANS: symbol listed twice");
        w += bits.read(delta_bits);
        ctx.check(w >= 1, at, "tANS: zero weight");
        weights.of[s] = w;
        total += w;
    }
    const unsigned last = bits.read(8);
    ctx.check(weights.of[last] == 0, at, "tANS: symbol listed twice");
    const std::uint32_t table_size = 1u << log;
    ctx.check(total < table_size && table_size - total >= w && table_size - total >= 2, at,
              "tANS: invalid last weight");
    weights.of[last] = table_size - total;
}

struct Entry {
    std::uint8_t symbol;
    std::uint8_t nbits;
    std::uint16_t base;
};

/// Spec 2.4.4: the decoding table, weight >= 2 symbols dealt over 4 lanes.
void build_table(const Weights& weights, unsigned log, Entry* table) {
    const unsigned L = 1u << log;
    unsigned singles = 0;
    for (unsigned s = 0; s < 256; ++s) singles += weights.of[s] == 1;
    const unsigned M = L - singles;
    unsigned lane_start[4];
    unsigned start = 0;
    for (unsigned j = 0; j < 4; ++j) {
        lane_start[j] = start;
        start += M > j ? (M - j + 3) / 4 : 0;
    }
    unsigned pos = 0, single = 0;
    for (unsigned s = 0; s < 256; ++s) {
        const unsigned w = weights.of[s];
        if (w == 1) {
            table[M + single++] = Entry{static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(log), 0};
            continue;
        }
        if (w == 0) continue;
        // Positions pos .. pos+w-1 sorted by table index are lane 0's, then lane 1's, ...
        unsigned x = w;
        for (unsigned j = 0; j < 4; ++j) {
            for (unsigned p = pos + ((j - pos) & 3); p < pos + w; p += 4, ++x) {
                const unsigned nbits = log + 1 - static_cast<unsigned>(std::bit_width(x));
                table[lane_start[j] + p / 4] =
                    Entry{static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(nbits),
                          static_cast<std::uint16_t>((x << nbits) - L)};
            }
        }
        pos += w;
    }
}

}  // namespace

void decode_tans(const Context& ctx, const std::uint8_t* src, std::size_t src_size, std::uint8_t* out,
                 std::size_t dst_size) {
    ctx.check(src_size >= 8 && dst_size >= 5, src, "tANS: array too small");
    MsbForward bits(src, src_size);
    ctx.check(bits.read(1) == 0, src, "tANS: reserved bit set");
    const unsigned log = bits.read(2) + 8;
    Weights weights;
    if (bits.read(1)) read_golomb_weights(ctx, src, bits, 1u << log, weights);
    else read_sparse_weights(ctx, src, bits, log, weights);
    const std::uint64_t header = bits.footprint();
    ctx.check(header < src_size, src, "tANS: weight table runs past the payload");

    std::array<Entry, 1u << kMaxLog> table;
    build_table(weights, log, table.data());

    const std::uint8_t* data = src + header;
    const std::size_t size = src_size - header;
    LsbForward fw(data, size);
    LsbBackward bw(data, size);
    fw.refill(), bw.refill();
    std::uint32_t state[5];
    state[0] = fw.read(log), state[1] = bw.read(log), state[2] = fw.read(log);
    fw.refill(), bw.refill();
    state[3] = bw.read(log), state[4] = fw.read(log);

    const std::size_t count = dst_size - 5;
    std::size_t i = 0;
    // Five symbols per reader turn: 5 x 11 bits fit the 56 bits of one refill.
    for (bool forward = true; i < count; forward = !forward) {
        auto step = [&](auto& reader) {
            reader.refill();
            for (int k = 0; k < 5 && i < count; ++k, ++i) {
                const Entry e = table[state[k]];
                out[i] = e.symbol;
                state[k] = e.base + reader.buffered(e.nbits);
                reader.consume(e.nbits);
            }
        };
        if (forward) step(fw);
        else step(bw);
    }
    ctx.check(fw.footprint() + bw.footprint() == size, data, "tANS: forward and backward streams do not meet");
    for (int k = 0; k < 5; ++k) {
        ctx.check(state[k] < 256, data, "tANS: final state is not a byte");
        out[count + k] = static_cast<std::uint8_t>(state[k]);
    }
}

}  // namespace navlab::kraken::detail
