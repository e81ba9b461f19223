// Kraken byte-array encoding (spec 2): each sub-stream of a chunk is written as the cheapest
// of a stored array (type 0), an RLE array (type 3: a single-byte fill, or a command buffer
// stored raw or entropy-coded in a nested array), a Huffman array with 3 or 6 streams (types 2
// and 4, form-B or form-C code-length table), a tANS array (type 1) and a type-5 sequential
// array of parts that each get their own table.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace navlab::kraken::detail {

/// How a byte array may be written.
struct ArrayPolicy {
    /// Long (3/5-byte) headers only. Needed where a header byte >= 0x80 would be misread: the
    /// literal array (flags-byte test, spec 3.3), the packed-offset array without a scale byte
    /// (3.4) and the array of an entropy-only chunk (1.4).
    bool long_header = false;
    /// Use the 6-stream Huffman layout (type 4) for large arrays.
    bool six_streams = true;
    /// Try a type-5 array of up to 2^split_depth parts with their own Huffman tables (spec
    /// 2.6) for large arrays; 0 = never.
    int split_depth = 3;
    /// Try tANS (type 1, spec 2.4) beside Huffman.
    bool tans = true;
    /// Try RLE with a command buffer (type 3, spec 2.5), its buffer raw or in a nested array.
    bool rle = true;
    /// Write RLE only when its estimate (command buffer, nested arrays priced by their
    /// histograms) is below Huffman's, and then skip Huffman: one form written, not both (level 1).
    bool estimate_rle = false;
    /// Entropy-code the array only when that saves at least size/16 + 64 bytes over storing
    /// it: below that, the decoder's table build and symbol decoding cost more time than the
    /// bytes are worth (levels 1-6; Oodle's streams make the same trade, docs/kraken.md).
    bool weigh_decode_time = false;
};

/// Appends `data` as one byte array (header + payload) to `out`; returns the bytes appended.
/// Never fails: a stored array is the fallback. `data.size()` must be at most 0x3FFFF
/// (a chunk holds at most 0x20000 bytes). `histogram`: the counts of `data`'s bytes when the
/// caller has them (else they are counted here).
std::size_t encode_array(std::span<const std::uint8_t> data, const ArrayPolicy& policy, std::vector<std::uint8_t>& out,
                         const std::array<std::uint32_t, 256>* histogram = nullptr);

/// Appends `data` as a *coded* array (any type but stored) if one is smaller than a stored
/// array; returns false (out unchanged) otherwise. For entropy-only chunks, which must not
/// hold a stored array (spec 1.4, 7.3).
bool encode_coded_array(std::span<const std::uint8_t> data, const ArrayPolicy& policy, std::vector<std::uint8_t>& out);

/// About the size encode_array() would write (within a few bytes), from the histogram and
/// Huffman code lengths alone: for choices between alternatives without writing them.
std::size_t estimate_array_size(std::span<const std::uint8_t> data);

/// Order-0 entropy in bits of the bytes counted in `histogram` (a lower bound of their
/// Huffman-coded size, tables aside): a choice between arrays without pricing their tables.
double entropy_bits(const std::array<std::uint32_t, 256>& histogram);

/// The sum of c log2(c) over the counts c of `histogram` (from a table for counts below 1024):
/// of two arrays of the same length, the one with the larger sum has the lower order-0
/// entropy (entropy_bits = total log2(total) - this sum), without a log2 call per symbol.
double count_log2_count(const std::array<std::uint32_t, 256>& histogram);

/// Huffman code lengths (1..11 bits, 0 for an absent symbol) of the symbols counted in
/// `histogram` (at least 2 present; each count below 2^24, their sum below 2^31): an optimal
/// code when one fits in 11 bits (the one with the shortest longest code; equal counts give
/// the lower symbol the longer code), else lengths limited to 11 bits. Exposed for tests
/// against a reference Huffman construction.
std::array<std::uint8_t, 256> huffman_code_lengths(const std::array<std::uint32_t, 256>& histogram);

/// The first k >= from where data[k] == data[k + 1] == data[k + 2], or data.size() if none:
/// where the next run of at least three equal bytes starts (the RLE command buffer writes
/// shorter runs as raw bytes). Exposed for tests against a byte-by-byte search.
std::size_t next_run_of_three(std::span<const std::uint8_t> data, std::size_t from);

/// The RLE command buffer (spec 2.5) that encode_array() writes for `data`: raw and fill bytes
/// in [0, front), then the commands. Exposed for tests of which runs it writes as runs.
std::vector<std::uint8_t> rle_command_buffer(std::span<const std::uint8_t> data, std::size_t& front);

/// The Huffman form-C code-length table (spec 2.3.3) of `lengths` (per symbol, 0 = absent;
/// at least 2 present, 1..11 bits) with `suffix_bits` (0..3) Rice suffix bits, padded to a
/// byte. Exposed for tests against the spec's worked example.
std::vector<std::uint8_t> huffman_form_c_table(const std::array<std::uint8_t, 256>& lengths, unsigned suffix_bits);

/// The code-length table of `lengths` (as huffman_form_c_table) in `form` (1: form B, 2: form
/// C) with `suffix_bits`, as written, and its size in bytes as plan_huffman() prices it without
/// writing it. Form B cannot write every table with every width: then `written` is empty and
/// `priced` SIZE_MAX. `priced` is exact for code lengths of at most 11 bits (the encoder's);
/// lengths well above that (Rice values of 64 or more) price SIZE_MAX. Exposed for tests of
/// the pricing against the writers.
struct PricedTable {
    std::vector<std::uint8_t> written;
    std::size_t priced = 0;
};
PricedTable huffman_table_priced(const std::array<std::uint8_t, 256>& lengths, unsigned form, unsigned suffix_bits);

}  // namespace navlab::kraken::detail
