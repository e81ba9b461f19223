// Kraken byte arrays (spec 2): the entropy-coded sub-streams every chunk is made of.
#pragma once

#include <cstddef>
#include <cstdint>

#include "codec/kraken/bit_reader.h"
#include "codec/kraken/context.h"

namespace navlab::kraken::detail {

/// A decoded byte array.
struct ArrayResult {
    const std::uint8_t* data;  ///< the bytes: `out`, or inside the input for an aliased stored array
    std::size_t size;          ///< dst_size
    std::size_t used;          ///< input bytes consumed: header + payload
};

/// Decodes the byte array starting at `in` (header first).
/// @param in        first header byte; `avail` bytes are readable from it.
/// @param out       where the bytes go; room for `capacity` bytes.
/// @param capacity  upper bound on dst_size given by the context (spec 2.1 table).
/// @param depth     nesting depth below the top-level array (0 for the top level).
/// @param alias     when true a stored array is returned in place (data points into `in`)
///                  instead of being copied to `out`.
ArrayResult decode_array(const Context& ctx, const std::uint8_t* in, std::size_t avail, std::uint8_t* out,
                         std::size_t capacity, int depth, bool alias);

/// Type 2 / 4 payloads (spec 2.3): `src` payload bytes to exactly `dst_size` bytes at out.
void decode_huffman(const Context& ctx, const std::uint8_t* src, std::size_t src_size, std::uint8_t* out,
                    std::size_t dst_size, bool six_streams);

/// Huffman form C's code lengths (spec 2.3.3) from the n unary prefixes at `prefixes` and
/// the `suffix_bits` (0..3) raw bits a length read off `bits`, into length[0..n); whether
/// any is out of 1..11. 16 lengths a step under AVX-512F where the processor has it (and
/// allow_avx512_huffman_tables), one a step otherwise: same lengths, same bits consumed. Reads
/// prefixes[0..n) only.
bool form_c_code_lengths(unsigned suffix_bits, const std::uint8_t* prefixes, MsbForward& bits, unsigned n,
                         std::uint8_t* length);

/// Room for sort_by_code_length's output: 256 symbols and the 64 bytes past them its last
/// 64-byte store may write (a store may start right after the 256th symbol).
inline constexpr std::size_t kSortedRoom = 256 + 64;

/// The n (<= 256) symbols with code lengths 1..11 stably sorted by length into sorted[] (room
/// for kSortedRoom; bytes past n clobbered), count[len] the symbols of each length (count[0]
/// = 0). 64 symbols a step under AVX-512 BW and VBMI2 where the processor has them (and
/// allow_avx512_huffman_tables), a histogram and a scatter otherwise: the same order and counts.
void sort_by_code_length(const std::uint8_t* symbols, const std::uint8_t* lengths, unsigned n, unsigned* count,
                         std::uint8_t* sorted);

/// For tests: whether form_c_code_lengths may take its AVX-512 loop (default true); returns
/// whether it will (false where the processor lacks it, whatever `allowed` is).
bool allow_avx512_huffman_tables(bool allowed);

/// Type 1 payload (spec 2.4).
void decode_tans(const Context& ctx, const std::uint8_t* src, std::size_t src_size, std::uint8_t* out,
                 std::size_t dst_size);

}  // namespace navlab::kraken::detail
