// tANS encoder: the exact inverse of the decoder of spec 2.4. The decoder's state s (0 <= s < L)
// selects a table entry (symbol, x), then becomes (x << nb) - L + nb bits. Encoding runs
// backwards: from the state after symbol i, X = s + L is shifted right until it falls in
// [w, 2w) of the symbol's weight w; the shifted-out bits are what the decoder reads, and the
// table index of (symbol, x) is the state before. The last five bytes are the final states.
#include "codec/kraken/tans_encoder.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "codec/kraken/bit_writer.h"
#include "codec/kraken/symbol_ranges_writer.h"

namespace navlab::kraken::detail {
namespace {

using Histogram = std::array<std::uint32_t, 256>;

unsigned table_log(std::size_t size) {
    return std::clamp<unsigned>(static_cast<unsigned>(std::bit_width(size)), 8, 11);
}

/// Weights >= 1 for the present symbols, summing to L = 2^log.
Histogram normalise(const Histogram& h, std::size_t size, unsigned log) {
    const std::uint32_t L = 1u << log;
    Histogram w{};
    std::int64_t sum = 0;
    for (unsigned s = 0; s < 256; ++s) {
        if (!h[s]) continue;
        w[s] = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::llround(double(h[s]) * L / double(size))));
        sum += w[s];
    }
    // Fix the total on the heaviest symbols, where a unit changes the cost least.
    while (sum != L) {
        unsigned heaviest = 0;
        for (unsigned s = 1; s < 256; ++s)
            if (w[s] > w[heaviest]) heaviest = s;
        if (sum < L) {
            w[heaviest] += static_cast<std::uint32_t>(L - sum);
            sum = L;
        } else {
            const std::uint32_t take = static_cast<std::uint32_t>(std::min<std::int64_t>(sum - L, w[heaviest] / 2));
            w[heaviest] -= take;
            sum -= take;
            if (take == 0) return {};  // cannot happen with L >= 256 >= present symbols
        }
    }
    return w;
}

/// Spec 2.4.2 inverse for one Q: each weight's unary prefix and raw value, following the
/// decoder's running average.
struct WeightCodes {
    std::vector<unsigned> unary;
    std::vector<std::pair<std::uint32_t, unsigned>> raw;
    std::size_t bits = 0;
    bool ok = true;
};
WeightCodes weight_codes(const Histogram& weights, unsigned q) {
    WeightCodes codes;
    int average = 6;
    for (unsigned s = 0; s < 256; ++s) {
        if (!weights[s]) continue;
        const int v = static_cast<int>(weights[s]) - 1;
        const int a = average >> 2;
        int limit = 2 * a;
        unsigned x;
        if (v <= limit) {
            const int d = v - a;
            x = d >= 0 ? 2u * d : static_cast<unsigned>(-2 * d - 1);
        } else {
            x = static_cast<unsigned>(v);
        }
        limit = std::min(limit, v);
        average += limit - a;
        const unsigned e = static_cast<unsigned>(std::bit_width(x + (1u << q))) - 1;
        if (e > 15) codes.ok = false;
        codes.unary.push_back(e - q);
        codes.raw.push_back({x + (1u << q) - (1u << e), e});
        codes.bits += e - q + 1 + e;
    }
    return codes;
}

}  // namespace

std::size_t tans_estimate(std::size_t size, const Histogram& histogram) {
    const unsigned log = table_log(size);
    const Histogram w = normalise(histogram, size, log);
    double bits = 0;
    unsigned present = 0;
    for (unsigned s = 0; s < 256; ++s)
        if (histogram[s]) bits += histogram[s] * (log - std::log2(double(w[s]))), ++present;
    return static_cast<std::size_t>(bits / 8) + 4 + present;  // table: about a byte a symbol
}

std::optional<std::vector<std::uint8_t>> tans_payload(std::span<const std::uint8_t> data, const Histogram& histogram) {
    const std::size_t n = data.size();
    const unsigned log = table_log(n);
    const std::uint32_t L = 1u << log;
    const Histogram weights = normalise(histogram, n, log);
    unsigned present = 0;
    for (auto w : weights) present += w > 0;
    if (present < 2) return std::nullopt;

    // Header (spec 2.4.1, 2.4.2), Golomb form with the best Q.
    const RangeList ranges = range_list(SymbolSet::of(weights));
    unsigned best_q = 8;
    WeightCodes codes;
    for (unsigned q = 0; q < 8; ++q) {
        WeightCodes c = weight_codes(weights, q);
        if (c.ok && (best_q == 8 || c.bits < codes.bits)) codes = std::move(c), best_q = q;
    }
    if (best_q == 8) return std::nullopt;
    MsbWriter header;
    header.write(0, 1);
    header.write(log - 8, 2);
    header.write(1, 1);  // Golomb form
    header.write(best_q, 3);
    header.write(present - 1, 8);
    write_range_count(header, present, static_cast<unsigned>(ranges.unary.size()));
    for (unsigned u : codes.unary) write_unary(header, u);
    for (unsigned u : ranges.unary) write_unary(header, u);
    for (auto [value, bits] : ranges.raw) header.write(value, bits);
    for (auto [value, bits] : codes.raw) header.write(value, bits);

    // Table index of every (symbol, x): the decoder's table of spec 2.4.4, inverted.
    std::array<std::uint32_t, 257> first{};  // first[s]: where symbol s's states start in `index`
    for (unsigned s = 0; s < 256; ++s) first[s + 1] = first[s] + weights[s];
    std::vector<std::uint16_t> index(L);
    unsigned singles = 0;
    for (auto w : weights) singles += w == 1;
    const unsigned M = L - singles;
    unsigned lane_start[4], start = 0;
    for (unsigned j = 0; j < 4; ++j) lane_start[j] = start, start += M > j ? (M - j + 3) / 4 : 0;
    unsigned pos = 0, single = 0;
    for (unsigned s = 0; s < 256; ++s) {
        const unsigned w = weights[s];
        if (w == 1) index[first[s]] = static_cast<std::uint16_t>(M + single++);
        if (w < 2) continue;
        unsigned x = w;
        for (unsigned j = 0; j < 4; ++j)
            for (unsigned p = pos + ((j - pos) & 3); p < pos + w; p += 4, ++x)
                index[first[s] + x - w] = static_cast<std::uint16_t>(lane_start[j] + p / 4);
        pos += w;
    }

    // States backwards from the final ones (the last five bytes).
    std::uint32_t state[5];
    for (int k = 0; k < 5; ++k) state[k] = data[n - 5 + k];
    std::vector<std::uint16_t> value(n - 5);
    std::vector<std::uint8_t> nbits(n - 5);
    for (std::size_t i = n - 5; i-- > 0;) {
        const unsigned k = i % 5;
        const std::uint8_t sym = data[i];
        const std::uint32_t w = weights[sym];
        const std::uint32_t big = state[k] + L;
        unsigned nb = 0;
        while ((big >> nb) >= 2 * w) ++nb;
        value[i] = static_cast<std::uint16_t>(big & ((1u << nb) - 1));
        nbits[i] = static_cast<std::uint8_t>(nb);
        state[k] = index[first[sym] + (big >> nb) - w];
    }
    LsbWriter fw, bw;
    fw.write(state[0], log), bw.write(state[1], log), fw.write(state[2], log), bw.write(state[3], log), fw.write(state[4], log);
    for (std::size_t i = 0; i + 5 < n; ++i) ((i / 5) % 2 == 0 ? fw : bw).write(value[i], nbits[i]);

    std::vector<std::uint8_t> out = header.finish();
    append(out, fw.finish());
    append_reversed(out, bw.finish());
    if (out.size() < 8) return std::nullopt;
    return out;
}

}  // namespace navlab::kraken::detail
