// The four bit readers of the Kraken format (spec 0.1): MSB-first or LSB-first, running
// forwards from a region's first byte or backwards from its last byte. Each keeps a 64-bit
// buffer refilled 8 bytes at a time while 8 bytes remain in its region and byte by byte near
// the end; bits past the region read as 0 and are never loaded from memory, so a reader can
// never touch a byte outside its region whatever the stream says. `consumed()` counts bits
// even past the end, so callers detect over-reads with footprint checks.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace navlab::kraken::detail {

inline std::uint64_t load_le64(const std::uint8_t* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
    return v;
}

/// Region bytes taken in reading order: forward from data[0] or backward from data[size-1].
template <bool Backward>
struct ByteSource {
    const std::uint8_t* data;
    std::size_t size;
    /// The i-th byte in reading order, 0 past the region.
    std::uint64_t byte(std::size_t i) const {
        if (i >= size) return 0;
        return Backward ? data[size - 1 - i] : data[i];
    }
    /// Bytes i .. i+7 in reading order packed little-endian (first byte lowest); needs i+8 <= size.
    std::uint64_t word(std::size_t i) const {
        return Backward ? __builtin_bswap64(load_le64(data + size - i - 8)) : load_le64(data + i);
    }
};

/// One reader template for all four kinds. LSB-first readers (LF, LB) keep bits
/// right-aligned: the first bit read is the least significant bit of the value. MSB-first
/// readers (MF, MB) keep them left-aligned: the first bit read is the most significant.
template <bool Msb, bool Backward>
class BitReader {
public:
    BitReader(const std::uint8_t* data, std::size_t size) : src_{data, size} {}

    /// Guarantees at least 56 buffered bits.
    void refill() {
        if (pos_ + 8 <= src_.size) {
            const std::uint64_t word = src_.word(pos_);
            bits_ |= Msb ? __builtin_bswap64(word) >> count_ : word << count_;
            pos_ += (63 - count_) >> 3;
            count_ |= 56;
        } else {
            for (; count_ <= 56; count_ += 8) bits_ |= src_.byte(pos_++) << (Msb ? 56 - count_ : count_);
        }
    }
    /// The next n (1..32) bits without consuming them.
    std::uint32_t peek(unsigned n) {
        if (count_ < n) refill();
        return buffered(n);
    }
    /// Like peek, for hot loops that refilled already: n must not exceed the buffered bits.
    /// LSB-first readers accept n = 0.
    std::uint32_t buffered(unsigned n) const {
        return static_cast<std::uint32_t>(Msb ? bits_ >> (64 - n) : bits_ & ((std::uint64_t{1} << n) - 1));
    }
    /// The whole buffer, for loops that take several values off a copy and then consume() them
    /// (only the buffered bits are to be used: the ones below are the stream's next bits or 0).
    std::uint64_t buffered_word() const { return bits_; }
    /// Reads n (0..32) bits with no refill check, for loops that refill once per item:
    /// n must not exceed the buffered bits.
    std::uint32_t take(unsigned n) {
        // MSB-first: two shifts, so n = 0 shifts by 63 at most (64 would be undefined).
        const std::uint32_t v = static_cast<std::uint32_t>(Msb ? (bits_ >> 1) >> (63 - n) : bits_ & ((std::uint64_t{1} << n) - 1));
        consume(n);
        return v;
    }
    /// Consumes n buffered bits (n <= 56, at most what a refill guarantees).
    void consume(unsigned n) {
        bits_ = Msb ? bits_ << n : bits_ >> n;
        count_ -= n;
    }
    /// Reads n (0..32) bits; read(0) is 0.
    std::uint32_t read(unsigned n) {
        if (n == 0) return 0;
        const std::uint32_t v = peek(n);
        consume(n);
        return v;
    }
    /// At least n (<= 56) bits buffered after it, for a loop that then reads up to n bits
    /// with take(), consume() and buffered_leading_zeros().
    void ensure(unsigned n) {
        if (count_ < n) refill();
    }
    /// MSB-first only: 0 bits before the next 1, exact below the buffered count (at least the
    /// count otherwise, since a refill leaves only zeros or stream bits beyond it). Peek only.
    unsigned buffered_leading_zeros() const {
        static_assert(Msb);
        return static_cast<unsigned>(std::countl_zero(bits_));
    }
    /// MSB-first only: 0 bits before the next 1 (exact below 56, at least 56 otherwise). Peek only.
    unsigned leading_zeros() {
        static_assert(Msb);
        if (count_ < 56) refill();
        return static_cast<unsigned>(std::countl_zero(bits_));
    }
    /// The reader's state for a hot loop that refills a whole word at a time without the
    /// region-end test, in three values a compiler keeps in registers: `next` is the address
    /// of the next byte to read (forward) or one past it (backward).
    struct Cursor {
        const std::uint8_t* next;
        std::uint64_t bits;
        unsigned count;
    };
    /// Only while word_refills_left() > 0: a byte-wise refill near the end may have moved the
    /// reader past its region, where `next` would point outside it.
    Cursor cursor() const {
        return {Backward ? src_.data + (src_.size - pos_) : src_.data + pos_, bits_, count_};
    }
    /// Takes the state back from a cursor made by cursor() and advanced by refill_word().
    void resume(const Cursor& c) {
        pos_ = static_cast<std::size_t>(Backward ? src_.data + src_.size - c.next : c.next - src_.data);
        bits_ = c.bits;
        count_ = c.count;
    }
    /// How many times refill_word() may run on a cursor of this reader as it stands: each
    /// refill needs 8 bytes left in the region and takes at most 7 of them. (A byte-wise
    /// refill near the end may have moved pos_ past the region.)
    std::size_t word_refills_left() const { return pos_ + 8 <= src_.size ? (src_.size - pos_ - 8) / 7 + 1 : 0; }
    /// refill() without the region-end test (at least 56 bits buffered after it): only as
    /// many times as word_refills_left() allowed.
    static void refill_word(Cursor& c) {
        const std::uint64_t word = Backward ? __builtin_bswap64(load_le64(c.next - 8)) : load_le64(c.next);
        c.bits |= Msb ? __builtin_bswap64(word) >> c.count : word << c.count;
        const unsigned step = (63 - c.count) >> 3;
        c.next = Backward ? c.next - step : c.next + step;
        c.count |= 56;
    }
    /// take() on a cursor: n (0..32) bits, at most the buffered ones.
    static std::uint32_t take(Cursor& c, unsigned n) {
        const std::uint32_t v = static_cast<std::uint32_t>(Msb ? (c.bits >> 1) >> (63 - n) : c.bits & ((std::uint64_t{1} << n) - 1));
        c.bits = Msb ? c.bits << n : c.bits >> n;
        c.count -= n;
        return v;
    }
    /// Bits consumed, counting those past the region (which read as 0).
    std::uint64_t consumed() const { return std::uint64_t{pos_} * 8 - count_; }
    /// Bytes in which at least one bit was consumed.
    std::uint64_t footprint() const { return (consumed() + 7) / 8; }

private:
    ByteSource<Backward> src_;
    std::uint64_t bits_ = 0;
    unsigned count_ = 0;
    std::size_t pos_ = 0;
};

using LsbForward = BitReader<false, false>;
using LsbBackward = BitReader<false, true>;
using MsbForward = BitReader<true, false>;
using MsbBackward = BitReader<true, true>;

}  // namespace navlab::kraken::detail
