// Kraken streams built by hand from the spec (tests and fuzz seeds): byte-array headers and
// arrays (spec 2.1), a stored array, an RLE fill, and a one-block stream of one entropy-only
// chunk (spec 1.2-1.4). Independent of navlab's encoder, so a decoder test built on them does
// not check the encoder against itself.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace navlab::test::kraken_streams {

using Bytes = std::vector<std::uint8_t>;

/// Byte-array header, long form (spec 2.1): 40-bit big-endian type / dst_size - 1 / src_size.
inline Bytes long_header(unsigned type, std::size_t src, std::size_t dst) {
    const std::uint64_t x = std::uint64_t{type} << 36 | std::uint64_t{dst - 1} << 18 | src;
    Bytes b;
    for (int i = 4; i >= 0; --i) b.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
    return b;
}
/// Stored array with the 2-byte header.
inline Bytes stored_array(const Bytes& data) {
    Bytes b(2 + data.size());  // sized, then copied, as single_chunk_stream
    b[0] = static_cast<std::uint8_t>(0x80 | data.size() >> 8);
    b[1] = static_cast<std::uint8_t>(data.size());
    std::copy(data.begin(), data.end(), b.begin() + 2);
    return b;
}
/// RLE array whose 1-byte payload fills `size` bytes with `value`.
inline Bytes fill_array(std::size_t size, std::uint8_t value) {
    Bytes b = long_header(3, 1, size);
    b.push_back(value);
    return b;
}
/// A byte array of `type` with the long header, its payload `payload`, decoding to `dst` bytes.
inline Bytes array(unsigned type, const Bytes& payload, std::size_t dst) {
    Bytes b = long_header(type, payload.size(), dst);
    b.insert(b.end(), payload.begin(), payload.end());
    return b;
}
/// One restart block holding one entropy-only chunk made of `chunk_array`.
inline Bytes single_chunk_stream(const Bytes& chunk_array) {
    const std::size_t c = chunk_array.size();
    Bytes s = {0x8C, 0x06, static_cast<std::uint8_t>((c - 1) >> 16), static_cast<std::uint8_t>((c - 1) >> 8),
               static_cast<std::uint8_t>(c - 1)};
    s.resize(5 + c);  // sized, then copied: GCC 12 misreads insert() after a short init (-Warray-bounds)
    std::copy(chunk_array.begin(), chunk_array.end(), s.begin() + 5);
    return s;
}
/// The parts one after the other.
inline Bytes concat(std::initializer_list<Bytes> parts) {
    Bytes out;
    for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

}  // namespace navlab::test::kraken_streams
