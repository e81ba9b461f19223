// The four bit readers of the Kraken format (spec 0.1): MSB-first or LSB-first, running
// forwards from a region's first byte or backwards from its last byte. Each keeps a 64-bit
// buffer refilled 8 bytes at a time while 8 bytes remain in its region and byte by byte near
// the end; bits past the region read as 0 and are never loaded from memory, so a reader can
// never touch a byte outside its region whatever the stream says. `consumed()` counts bits
// even past the end, so callers detect over-reads with footprint checks.
#pragma once

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

/// LSB-first reader (LF when Backward is false, LB when true): the first bit read is the
/// least significant bit of the value.
template <bool Backward>
class LsbReader {
public:
    LsbReader(const std::uint8_t* data, std::size_t size) : src_{data, size} {}

    /// Guarantees at least 56 buffered bits.
    void refill() {
        if (pos_ + 8 <= src_.size) {
            bits_ |= src_.word(pos_) << count_;
            pos_ += (63 - count_) >> 3;
            count_ |= 56;
        } else {
            while (count_ <= 56) {
                bits_ |= src_.byte(pos_++) << count_;
                count_ += 8;
            }
        }
    }
    /// The next n (<= 56) bits without consuming them; needs a refill first.
    std::uint32_t peek(unsigned n) const { return static_cast<std::uint32_t>(bits_ & ((std::uint64_t{1} << n) - 1)); }
    void consume(unsigned n) {
        bits_ >>= n;
        count_ -= n;
    }
    /// Reads n (<= 32) bits, refilling when needed.
    std::uint32_t read(unsigned n) {
        if (count_ < n) refill();
        std::uint32_t v = peek(n);
        consume(n);
        return v;
    }
    std::uint64_t consumed() const { return std::uint64_t{pos_} * 8 - count_; }
    /// Bytes in which at least one bit was consumed.
    std::uint64_t footprint() const { return (consumed() + 7) / 8; }

private:
    ByteSource<Backward> src_;
    std::uint64_t bits_ = 0;
    unsigned count_ = 0;
    std::size_t pos_ = 0;
};

/// MSB-first reader (MF when Backward is false, MB when true): the first bit read is the most
/// significant bit of the value. Bits are kept left-aligned in the buffer.
template <bool Backward>
class MsbReader {
public:
    MsbReader(const std::uint8_t* data, std::size_t size) : src_{data, size} {}

    /// Guarantees at least 56 buffered bits.
    void refill() {
        if (pos_ + 8 <= src_.size) {
            bits_ |= __builtin_bswap64(src_.word(pos_)) >> count_;
            pos_ += (63 - count_) >> 3;
            count_ |= 56;
        } else {
            while (count_ <= 56) {
                bits_ |= src_.byte(pos_++) << (56 - count_);
                count_ += 8;
            }
        }
    }
    /// Reads n (<= 32) bits; read(0) is 0.
    std::uint32_t read(unsigned n) {
        if (n == 0) return 0;
        if (count_ < n) refill();
        std::uint32_t v = static_cast<std::uint32_t>(bits_ >> (64 - n));
        consume(n);
        return v;
    }
    /// The next n (1..32) bits without consuming them.
    std::uint32_t peek(unsigned n) {
        if (count_ < n) refill();
        return static_cast<std::uint32_t>(bits_ >> (64 - n));
    }
    void consume(unsigned n) {
        bits_ <<= n;
        count_ -= n;
    }
    /// Number of 0 bits before the next 1 (exact below 56; at least 56 otherwise). Peek only.
    unsigned leading_zeros() {
        if (count_ < 56) refill();
        return static_cast<unsigned>(std::countl_zero(bits_));
    }
    /// Reads a unary value (zeros then a 1) of at most `max` zeros; returns max+1 when longer.
    unsigned unary(unsigned max) {
        unsigned n = 0;
        for (;;) {
            unsigned z = leading_zeros();
            if (z < count_) {
                consume(z + 1);
                return n + z;
            }
            n += count_;
            consume(count_ - 1), consume(1);
            if (n > max) return max + 1;
        }
    }
    std::uint64_t consumed() const { return std::uint64_t{pos_} * 8 - count_; }
    std::uint64_t footprint() const { return (consumed() + 7) / 8; }

private:
    ByteSource<Backward> src_;
    std::uint64_t bits_ = 0;
    unsigned count_ = 0;
    std::size_t pos_ = 0;
};

using LsbForward = LsbReader<false>;
using LsbBackward = LsbReader<true>;
using MsbForward = MsbReader<false>;
using MsbBackward = MsbReader<true>;

}  // namespace navlab::kraken::detail
