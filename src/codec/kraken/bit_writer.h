// Bit writers for the Kraken encoder: the mirror of bit_reader.h. A writer always appends
// bytes in order; a region that a decoder reads backwards (MB, LB) is written forwards and
// then byte-reversed into place (`append_reversed`), which is exactly how the backward
// readers take bytes from the region's last byte towards its first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace navlab::kraken::detail {

/// MSB-first (Msb = true: the first bit written is the most significant of its byte) or
/// LSB-first bit writer. Values are written with their first-read bit as the decoder's
/// reader of the same order expects: for MSB-first the value's most significant bit first,
/// for LSB-first its least significant bit first.
template <bool Msb>
class BitWriter {
public:
    /// Appends the low `n` (0..32) bits of `value`. Whole 32-bit words go out at once.
    void write(std::uint32_t value, unsigned n) {
        if (n == 0) return;
        const std::uint64_t v = value & (n == 32 ? ~0u : (1u << n) - 1);
        if constexpr (Msb) {
            acc_ = acc_ << n | v;
            count_ += n;
            if (count_ >= 32) {
                count_ -= 32;
                const std::uint32_t word = static_cast<std::uint32_t>(acc_ >> count_);
                bytes_.insert(bytes_.end(), {static_cast<std::uint8_t>(word >> 24), static_cast<std::uint8_t>(word >> 16),
                                             static_cast<std::uint8_t>(word >> 8), static_cast<std::uint8_t>(word)});
            }
        } else {
            acc_ |= v << count_;
            count_ += n;
            if (count_ >= 32) {
                const std::uint32_t word = static_cast<std::uint32_t>(acc_);
                bytes_.insert(bytes_.end(), {static_cast<std::uint8_t>(word), static_cast<std::uint8_t>(word >> 8),
                                             static_cast<std::uint8_t>(word >> 16), static_cast<std::uint8_t>(word >> 24)});
                acc_ >>= 32;
                count_ -= 32;
            }
        }
    }
    /// Reserves room for about `bits` bits.
    void reserve(std::size_t bits) { bytes_.reserve(bits / 8 + 8); }
    /// n zero bits (n may exceed 32).
    void zeros(unsigned n) {
        for (; n > 32; n -= 32) write(0, 32);
        write(0, n);
    }
    /// Bits written so far.
    std::size_t bits() const { return bytes_.size() * 8 + count_; }
    /// Pads the last byte with zero bits and returns all bytes (the footprint of the bits).
    const std::vector<std::uint8_t>& finish() {
        for (; count_ >= 8; count_ -= 8) {
            if constexpr (Msb) {
                bytes_.push_back(static_cast<std::uint8_t>(acc_ >> (count_ - 8)));
            } else {
                bytes_.push_back(static_cast<std::uint8_t>(acc_));
                acc_ >>= 8;
            }
        }
        if (count_ > 0) bytes_.push_back(static_cast<std::uint8_t>(Msb ? acc_ << (8 - count_) : acc_));
        count_ = 0, acc_ = 0;
        return bytes_;
    }

private:
    std::vector<std::uint8_t> bytes_;
    std::uint64_t acc_ = 0;
    unsigned count_ = 0;
};

using MsbWriter = BitWriter<true>;
using LsbWriter = BitWriter<false>;

inline void append(std::vector<std::uint8_t>& out, const std::vector<std::uint8_t>& bytes) {
    out.insert(out.end(), bytes.begin(), bytes.end());
}
/// Appends bytes [begin, end) last-first: a backward reader then meets them in the order
/// written. Eight at a time, each 8-byte load byte-swapped (the reverse-iterator insert went a
/// byte a step: about 1 % of level 1's encode, for the Huffman groups' third streams).
inline void append_reversed(std::vector<std::uint8_t>& out, const std::uint8_t* begin, const std::uint8_t* end) {
    const std::size_t n = static_cast<std::size_t>(end - begin), at = out.size();
    out.resize(at + n);
    std::uint8_t* o = out.data() + at;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {  // bytes end - i - 8 .. end - i - 1, last first
        std::uint64_t x;
        std::memcpy(&x, end - i - 8, 8);
        x = __builtin_bswap64(x);
        std::memcpy(o + i, &x, 8);
    }
    for (; i < n; ++i) o[i] = end[-1 - static_cast<std::ptrdiff_t>(i)];
}
inline void append_reversed(std::vector<std::uint8_t>& out, const std::vector<std::uint8_t>& bytes) {
    out.insert(out.end(), bytes.rbegin(), bytes.rend());
}
inline void put_u24be(std::vector<std::uint8_t>& out, std::uint32_t v) {
    out.insert(out.end(), {static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)});
}

/// An MSB-first bit stream into a buffer with room for it: each value goes into a 64-bit
/// accumulator below the bits before it, and the whole bytes go out as one 8-byte big-endian
/// store, the cursor moving on by them (MsbWriter inserts each 32-bit word into a vector
/// behind a branch: most of the LZ bit region's instructions). The same bytes as MsbWriter;
/// the caller sizes the buffer: each write stores 8 bytes from the cursor.
class MsbStream {
public:
    explicit MsbStream(std::uint8_t* out) : out_(out) {}
    /// The low n (<= 32) bits of value (< 2^n), first the most significant.
    void write(std::uint32_t value, unsigned n) {
        // Left-aligned below the count_ (<= 7) bits pending; two shifts, each below 64 (one
        // of 64 - count_ - n would reach 64 for n = count_ = 0).
        acc_ |= std::uint64_t{value} << 24 << (40 - count_ - n);
        count_ += n;
        const std::uint64_t be = __builtin_bswap64(acc_);
        std::memcpy(out_, &be, 8);
        out_ += count_ >> 3;
        acc_ <<= count_ & ~7u;
        count_ &= 7;
    }
    /// The end of the bytes written; the last one's free bits are zeros (already stored).
    const std::uint8_t* finish() const { return out_ + (count_ > 0); }

private:
    std::uint8_t* out_;
    std::uint64_t acc_ = 0;
    unsigned count_ = 0;
};

}  // namespace navlab::kraken::detail
