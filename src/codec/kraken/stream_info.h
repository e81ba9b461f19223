// What a Kraken stream is made of, as the decoder reads it: blocks, chunks, the byte arrays
// of each chunk with their types and sizes, and each LZ chunk's command counts. For
// comparing two encoders' streams of the same bytes (`navlab kraken info`): size alone does
// not say why one decodes slower than the other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace navlab::kraken {

/// One byte array (spec 2), at any nesting depth.
struct ArrayInfo {
    std::size_t offset = 0;   ///< of its header, in the stream
    int depth = 0;            ///< 0 for a chunk's own arrays; 1 and more inside RLE and split arrays
    unsigned type = 0;        ///< spec 2.1: 0 stored, 1 tANS, 2 Huffman, 3 RLE, 4 Huffman-6, 5 split
    std::size_t header = 0;   ///< header bytes
    std::size_t payload = 0;  ///< payload bytes after the header
    std::size_t decoded = 0;  ///< bytes it decodes to
};

/// One 128 KiB chunk of a compressed quantum (spec 1.4).
struct ChunkInfo {
    enum class Kind { Lz, EntropyOnly, Stored } kind = Kind::Lz;
    std::size_t offset = 0;      ///< of its header, in the stream
    std::size_t compressed = 0;  ///< bytes, header included
    std::size_t decoded = 0;
    unsigned literal_mode = 0;   ///< LZ: 0 delta literals, 1 raw
    /// LZ: commands, literal bytes, explicit (new) distances and long lengths (spec 3).
    std::size_t commands = 0, literals = 0, new_distances = 0, long_lengths = 0;
    std::vector<ArrayInfo> arrays;  ///< in stream order
};

/// One block (spec 1.2).
struct BlockInfo {
    enum class Kind { Stored, Memset, StoredQuantum, Compressed } kind = Kind::Compressed;
    std::size_t offset = 0;      ///< of its header, in the stream
    std::size_t compressed = 0;  ///< bytes, headers included
    std::size_t decoded = 0;
    bool restart = false;        ///< the window restarts here (header bit 0x80)
    std::vector<ChunkInfo> chunks;  ///< Compressed only
};

struct StreamInfo {
    std::size_t compressed = 0, decoded = 0;
    std::vector<BlockInfo> blocks;
};

/// Decodes `src` (into a buffer of `decoded_size` bytes, one thread) and describes it. Throws
/// navlab::Error as decode() does on a corrupt stream.
StreamInfo inspect(std::span<const std::uint8_t> src, std::size_t decoded_size);

/// "stored", "tANS", "Huffman", "RLE", "Huffman-6", "split" (spec 2.1's types 0-5).
std::string_view array_type_name(unsigned type);

}  // namespace navlab::kraken
