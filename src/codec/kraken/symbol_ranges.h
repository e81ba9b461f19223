// Building blocks shared by the Huffman form-C and tANS Golomb table readers (spec 2.2):
// the truncated-binary range count, unary value runs and the symbol range list.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "codec/kraken/bit_reader.h"
#include "codec/kraken/context.h"

namespace navlab::kraken::detail {

/// Largest unary value a valid table can contain (spec 2.2.2: larger ones are absurd).
inline constexpr unsigned kMaxUnary = 255;

/// Spec 2.2.1: the number R of extra unary values, for n (1..256) present symbols.
inline unsigned read_range_count(MsbForward& bits, unsigned n) {
    if (n == 256) return 0;
    const unsigned x = 2 * std::min(257 - n, n);
    const unsigned y = static_cast<unsigned>(std::bit_width(x - 1));
    const unsigned z = (1u << y) - x;
    const unsigned v = bits.peek(y);
    if ((v >> 1) < z) {
        bits.consume(y - 1);
        return v >> 1;
    }
    bits.consume(y);
    return v - z;
}

/// Reads `count` unary values into values[]; fails on absurd values (spec 2.2.2).
inline void read_unary_values(const Context& ctx, const std::uint8_t* at, MsbForward& bits, unsigned* values,
                              unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
        values[i] = bits.unary(kMaxUnary);
        ctx.check(values[i] <= kMaxUnary, at, "code-length table: unary value too large");
    }
}

/// Room a symbol list needs: 256 symbols and the 15 bytes past them that a run's last
/// 16-byte store may write.
inline constexpr std::size_t kSymbolListRoom = 256 + 15;

/// Spec 2.2.3: the n present symbols, ascending, from the R extra unary values u[].
/// Writes n symbols to symbols[] (room for kSymbolListRoom: bytes past the n are clobbered).
inline void read_symbol_ranges(const Context& ctx, const std::uint8_t* at, MsbForward& bits, unsigned n,
                               unsigned R, const unsigned* u, std::uint8_t* symbols) {
    unsigned k = 0, pos = 0, used = 0;
    // A run of consecutive symbols 16 at a time (runs average about 5 in the game's tables:
    // a byte loop cost 8 instructions a symbol and a mispredicted exit a run).
    using Block = std::uint8_t __attribute__((vector_size(16)));
    constexpr Block kSteps = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    auto emit_run = [&](unsigned start, unsigned length) {
        for (unsigned i = 0; i < length; i += 16) {
            const Block run = kSteps + static_cast<std::uint8_t>(start + i);
            std::memcpy(symbols + used + i, &run, 16);
        }
        used += length;
    };
    if (R & 1) {
        ctx.check(u[k] < 8, at, "symbol ranges: leading gap code too long");
        pos = bits.read(u[k] + 1) + (1u << (u[k] + 1)) - 1;
        ++k;
        ctx.check(pos < 256, at, "symbol ranges: leading gap past symbol 255");
    }
    for (unsigned r = 0; r < R / 2; ++r) {
        const unsigned a = u[k], b = u[k + 1];
        k += 2;
        ctx.check(a <= 8, at, "symbol ranges: run code too long");
        const unsigned run = bits.read(a) + (1u << a);
        ctx.check(b < 8, at, "symbol ranges: gap code too long");
        const unsigned gap = bits.read(b + 1) + (1u << (b + 1)) - 1;
        ctx.check(pos + run + gap < 256 && used + run < n, at, "symbol ranges: run past symbol 255");
        emit_run(pos, run);
        pos += run + gap;
    }
    ctx.check(pos + (n - used) <= 256, at, "symbol ranges: final run past symbol 255");
    emit_run(pos, n - used);
}

/// The common part of Huffman form C and the tANS Golomb form: n present symbols (n >= 2
/// checked by the caller), one Golomb-Rice value per symbol (a unary prefix, then
/// `suffix_bits` raw bits read after all prefixes) and the symbol range list after them.
/// Writes n values and n ascending symbols (symbols[] has room for kSymbolListRoom).
inline void read_coded_symbols(const Context& ctx, const std::uint8_t* at, MsbForward& bits, unsigned n,
                               unsigned suffix_bits, unsigned* values, std::uint8_t* symbols) {
    // On a copy in local variables, stored back at the end: `bits` is the caller's object, which
    // a failed check's call could reach, so with it GCC reloaded and stored the reader's state
    // around every check and every value stored (as in huffman.cpp's Group::finish).
    MsbForward local = bits;
    const unsigned R = read_range_count(local, n);
    unsigned unary[512];
    read_unary_values(ctx, at, local, unary, n + R);
    for (unsigned i = 0; i < n; ++i) values[i] = (unary[i] << suffix_bits) | local.read(suffix_bits);
    read_symbol_ranges(ctx, at, local, n, R, unary + n, symbols);
    bits = local;
}

}  // namespace navlab::kraken::detail
