// Kraken streams built by hand from the spec (tests and fuzz seeds): byte-array headers and
// arrays (spec 2.1), a stored array, an RLE fill, and a one-block stream of one entropy-only
// chunk (spec 1.2-1.4). Independent of navlab's encoder, so a decoder test built on them does
// not check the encoder against itself.
#pragma once

#include <algorithm>
#include <bit>
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

/// Bits written MSB-first (spec 0.1's MF and MB readers read them back in this order).
struct MsbBitWriter {
    Bytes bytes;
    unsigned used = 0;  ///< bits used in the last byte (0 = a new byte is needed)
    void put(std::uint64_t value, unsigned n) {
        for (unsigned k = n; k-- > 0;) {
            if (used == 0) bytes.push_back(0);
            if (value >> k & 1) bytes.back() = static_cast<std::uint8_t>(bytes.back() | 0x80 >> used);
            used = (used + 1) & 7;
        }
    }
    /// Exp-Golomb of order `order` (spec 3.4 (a) and (c)): zeros, then value + 2^order in
    /// (zeros + order + 1) bits.
    void put_exp_golomb(std::uint64_t value, unsigned order) {
        const std::uint64_t v = value + (std::uint64_t{1} << order);
        const unsigned width = static_cast<unsigned>(std::bit_width(v));
        put(0, width - order - 1);
        put(v, width);
    }
};

/// One LZ command before packing (spec 3.6): a literal run, a match length (>= 2) and the
/// offset slot (0-2 recent, 3 explicit `distance`, >= 8 but for hostile tests: below 8 only
/// with a scale). Legacy distances take the far form (spec 3.5, packed byte >= 0xF0) when the
/// near form cannot code them, or when `far` asks for it (distances 0x7FFF00 and up: either
/// form codes 0x7FFF00 ... 0x7FFF07).
struct LzCommand {
    std::size_t lits;
    std::size_t match;
    unsigned slot;
    std::uint64_t distance;
    bool far = false;
};

/// The legacy near form's largest distance, plus one (spec 3.5: nb <= 18).
inline constexpr std::uint64_t kLegacyNearEnd = 0x7FFF08;

/// Stored array, long header (3 bytes: the form a literal array must take, spec 3.3).
inline Bytes stored_long(const Bytes& data) {
    Bytes b(3 + data.size());  // sized, then copied, as single_chunk_stream
    b[0] = static_cast<std::uint8_t>(data.size() >> 16);
    b[1] = static_cast<std::uint8_t>(data.size() >> 8);
    b[2] = static_cast<std::uint8_t>(data.size());
    std::copy(data.begin(), data.end(), b.begin() + 3);
    return b;
}

/// The payload of an LZ chunk (spec 3.1): the 8 raw bytes (none past the window's start: an
/// empty `raw8`), literals, commands,
/// packed distances (spec 3.5: legacy when `scale` is 0, else scaled, with the scale byte,
/// and for scale 2-128 the low-bits array) and packed lengths as stored arrays, then the
/// bit region with the distances and long lengths. A `long_count_bias` of -1 leaves the last
/// long length out of the bit region and its count, +1 adds one (value 0) that no command
/// uses (hostile: spec 3.4's count must match the 255s of the packed lengths).
inline Bytes lz_chunk_payload(const Bytes& raw8, const Bytes& literals, const std::vector<LzCommand>& commands,
                              unsigned scale = 0, int long_count_bias = 0) {
    Bytes cmd, packed_offsets, low_bits, packed_lengths;
    std::vector<std::uint64_t> distance_bits, distance_widths, long_lengths;
    auto length_entry = [&](std::size_t value) {  // LEN[] entry >= 3
        if (value - 3 < 255) {
            packed_lengths.push_back(static_cast<std::uint8_t>(value - 3));
        } else {
            packed_lengths.push_back(255);
            long_lengths.push_back(value - 258);
        }
    };
    for (const LzCommand& c : commands) {
        const unsigned lit_field = c.lits < 3 ? static_cast<unsigned>(c.lits) : 3;
        const unsigned match_field = c.match <= 16 ? static_cast<unsigned>(c.match - 2) : 15;
        cmd.push_back(static_cast<std::uint8_t>(lit_field | match_field << 2 | c.slot << 6));
        if (lit_field == 3) length_entry(c.lits);
        if (match_field == 15) length_entry(c.match - 14);
        if (c.slot == 3 && scale == 0 && (c.far || c.distance >= kLegacyNearEnd)) {
            // dist = 0x7EFF00 + ((2^nb + t) << 12) + u: t (nb bits) then u (12 bits) from the
            // same reader, MSB-first, so one value of nb + 12 bits
            const std::uint64_t q = (c.distance - 0x7EFF00) >> 12;
            const unsigned nb = static_cast<unsigned>(std::bit_width(q)) - 1;
            packed_offsets.push_back(static_cast<std::uint8_t>(0xF0 | (nb - 4)));
            distance_bits.push_back((q - (std::uint64_t{1} << nb)) << 12 | ((c.distance - 0x7EFF00) & 0xFFF));
            distance_widths.push_back(nb + 12);
        } else if (c.slot == 3 && scale == 0) {  // dist = ((2^nb + t) << 4) + (v & 15) - 248
            const std::uint64_t q = (c.distance + 248) >> 4;
            const unsigned nb = static_cast<unsigned>(std::bit_width(q)) - 1;
            packed_offsets.push_back(static_cast<std::uint8_t>((nb - 4) << 4 | ((c.distance + 248) & 15)));
            distance_bits.push_back(q - (std::uint64_t{1} << nb));
            distance_widths.push_back(nb);
        } else if (c.slot == 3) {  // dist = scale * d0 + low (scale >= 2), d0 + 8 = (8 + (v & 7)) << k + t
            const std::uint64_t v = c.distance / scale + 8;
            const unsigned k = static_cast<unsigned>(std::bit_width(v)) - 4;
            packed_offsets.push_back(static_cast<std::uint8_t>(k << 3 | ((v >> k) & 7)));
            if (scale >= 2) low_bits.push_back(static_cast<std::uint8_t>(c.distance % scale));
            distance_bits.push_back(v & ((std::uint64_t{1} << k) - 1));
            distance_widths.push_back(k);
        }
    }
    if (long_count_bias < 0 && !long_lengths.empty()) long_lengths.pop_back();
    if (long_count_bias > 0) long_lengths.push_back(0);
    MsbBitWriter forward, backward;
    backward.put_exp_golomb(long_lengths.size(), 0);
    for (std::size_t i = 0; i < distance_bits.size(); ++i)
        (i & 1 ? backward : forward).put(distance_bits[i], static_cast<unsigned>(distance_widths[i]));
    for (std::size_t i = 0; i < long_lengths.size(); ++i) (i & 1 ? backward : forward).put_exp_golomb(long_lengths[i], 6);
    Bytes region = forward.bytes;
    region.insert(region.end(), backward.bytes.rbegin(), backward.bytes.rend());
    const Bytes scale_byte = scale == 0 ? Bytes{} : Bytes{static_cast<std::uint8_t>(127 + scale)};
    return concat({raw8, stored_long(literals), stored_long(cmd), scale_byte, stored_long(packed_offsets),
                   scale >= 2 ? stored_long(low_bits) : Bytes{}, stored_long(packed_lengths), region});
}

/// A one-block stream (restart, Kraken) of one compressed quantum holding `chunks`, each
/// with its own 3-byte header already in place (LZ) or none (entropy-only).
inline Bytes one_quantum_stream(const Bytes& chunks) {
    const std::size_t c = chunks.size();
    return concat({{0x8C, 0x06, static_cast<std::uint8_t>((c - 1) >> 16), static_cast<std::uint8_t>((c - 1) >> 8),
                    static_cast<std::uint8_t>(c - 1)},
                   chunks});
}

/// The 3-byte header of an LZ chunk (spec 1.4) before its payload.
inline Bytes lz_chunk(const Bytes& payload, unsigned mode) {
    const std::size_t h = 0x800000 | std::size_t{mode} << 19 | payload.size();
    return concat({{static_cast<std::uint8_t>(h >> 16), static_cast<std::uint8_t>(h >> 8), static_cast<std::uint8_t>(h)},
                   payload});
}

}  // namespace navlab::test::kraken_streams
