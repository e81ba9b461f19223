// Building blocks shared by the Huffman form-C and tANS Golomb table readers (spec 2.2):
// the truncated-binary range count, unary value runs and the symbol range list.
#pragma once

#include <array>
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

/// What one byte of an MSB-first stream holds of a run of unary values (spec 2.2.2): lane k
/// (byte k, little-endian) of `zeros` counts the 0 bits before the byte's k-th 1 bit, from the
/// byte's first bit for k = 0 (8 in a zero byte) and from the previous 1 bit after that;
/// `ones` counts its 1 bits (the values it ends) and `trailing` the 0 bits after the last one.
struct UnaryByte {
    std::uint64_t zeros;
    std::uint8_t ones, trailing;
};

constexpr std::array<UnaryByte, 256> make_unary_bytes() {
    std::array<UnaryByte, 256> table{};
    for (unsigned byte = 0; byte < 256; ++byte) {
        UnaryByte& entry = table[byte];
        unsigned run = 0;
        for (unsigned bit = 0; bit < 8; ++bit) {
            if ((byte << bit & 0x80) == 0) {
                ++run;
                continue;
            }
            entry.zeros |= std::uint64_t{run} << 8 * entry.ones++;
            run = 0;
        }
        if (entry.ones == 0) entry.zeros = 8;
        entry.trailing = static_cast<std::uint8_t>(run);
    }
    return table;
}
inline constexpr std::array<UnaryByte, 256> kUnaryBytes = make_unary_bytes();

/// Room for `count` values of read_unary_values: the 8 bytes its last byte's lanes may write.
inline constexpr std::size_t kUnaryRoomPast = 8;

/// Reads `count` unary values (each at most kMaxUnary, so a byte) into values[], which has
/// room for count + kUnaryRoomPast; fails on absurd values (spec 2.2.2). A stream byte a step
/// rather than a value: the game's tables average 2 bits a value, and a value at a time was a
/// chain of a bit scan and a shift (about 7 cycles) for each. Each byte's lanes are stored
/// at once, the first adding the zeros carried from earlier bytes.
inline void read_unary_values(const Context& ctx, const std::uint8_t* at, MsbForward& bits, std::uint8_t* values,
                              unsigned count) {
    if (count == 0) return;
    unsigned i = 0, carried = 0;
    for (;;) {
        bits.ensure(8);
        const UnaryByte& byte = kUnaryBytes[bits.buffered(8)];
        // Value i's zeros so far: all of them if the byte ends it, a lower bound otherwise
        // (and at most 255 after the check, so the lane sum below stays within its byte).
        const unsigned first = carried + static_cast<unsigned>(byte.zeros & 0xFF);
        ctx.check(first <= kMaxUnary, at, "code-length table: unary value too large");
        const std::uint64_t lanes = byte.zeros + carried;
        std::memcpy(values + i, &lanes, 8);
        if (count - i <= byte.ones) {
            // The byte ends the last value: consume up to its (count - i)-th 1 bit.
            const unsigned ends = count - i;
            const std::uint64_t zeros = ends == 8 ? byte.zeros : byte.zeros & ((std::uint64_t{1} << 8 * ends) - 1);
            bits.consume(static_cast<unsigned>((zeros * 0x0101010101010101u) >> 56) + ends);  // the lanes' sum
            return;
        }
        i += byte.ones;
        carried = byte.ones != 0 ? byte.trailing : first;
        bits.consume(8);
    }
}

/// Room a symbol list needs: 256 symbols and the 15 bytes past them that a run's last
/// 16-byte store may write.
inline constexpr std::size_t kSymbolListRoom = 256 + 15;

/// Spec 2.2.3: the n present symbols, ascending, from the R extra unary values u[].
/// Writes n symbols to symbols[] (room for kSymbolListRoom: bytes past the n are clobbered).
inline void read_symbol_ranges(const Context& ctx, const std::uint8_t* at, MsbForward& bits, unsigned n,
                               unsigned R, const std::uint8_t* u, std::uint8_t* symbols) {
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
/// checked by the caller), one Golomb-Rice value per symbol (a unary prefix, then raw suffix
/// bits read after all prefixes) and the symbol range list after them. Calls
/// `read_values(prefixes, bits)` to read the n values' suffixes (prefixes[i] the i-th unary
/// prefix) and writes the n ascending symbols to symbols[] (room for kSymbolListRoom).
template <class ReadValues>
inline void read_coded_symbols(const Context& ctx, const std::uint8_t* at, MsbForward& bits, unsigned n,
                               std::uint8_t* symbols, ReadValues read_values) {
    // On a copy in local variables, stored back at the end: `bits` is the caller's object, which
    // a failed check's call could reach, so with it GCC reloaded and stored the reader's state
    // around every check and every value stored (as in huffman.cpp's Group::finish).
    MsbForward local = bits;
    const unsigned R = read_range_count(local, n);
    std::uint8_t unary[2 * 256 + kUnaryRoomPast];  // n + R < 512 values
    read_unary_values(ctx, at, local, unary, n + R);
    read_values(static_cast<const std::uint8_t*>(unary), local);
    read_symbol_ranges(ctx, at, local, n, R, unary + n, symbols);
    bits = local;
}

}  // namespace navlab::kraken::detail
