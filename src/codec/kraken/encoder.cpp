// Kraken stream encoder, framing part (spec 1): blocks, quanta and chunks. Each 256 KiB block
// restarts the window (header 8C 06), so blocks are encoded independently, in parallel.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "codec/kraken/array_encoder.h"
#include "codec/kraken/bit_writer.h"
#include "codec/kraken/context.h"
#include "codec/kraken/kraken.h"
#include "codec/kraken/lz_encoder.h"
#include "io/error.h"
#include "io/parallel.h"

namespace navlab::kraken {
namespace {

using namespace detail;

/// Chunk headers (spec 1.4): bit 23, literal mode in bits 19-22, payload size.
void put_chunk_header(std::vector<std::uint8_t>& out, unsigned mode, std::size_t size) {
    put_u24be(out, static_cast<std::uint32_t>(0x800000 | mode << 19 | size));
}

/// One 128 KiB chunk: the smallest of an LZ chunk, an entropy-only chunk and a stored chunk
/// (compared by size; only the winner is written, the chunk's bytes are not copied otherwise).
void encode_chunk(MatchFinder& finder, std::span<const std::uint8_t> block, std::size_t start, std::size_t n,
                  const LzParams& params, std::vector<std::uint8_t>& quantum) {
    const std::span<const std::uint8_t> data = block.subspan(start, n);
    std::size_t best = n + 3;  // stored chunk: S = N, mode 0
    std::optional<LzChunk> lz = encode_lz_chunk(finder, block, start, n, params);
    if (lz && lz->payload.size() + 3 < best) best = lz->payload.size() + 3;
    else lz.reset();
    // Without tANS an entropy-only chunk codes at least 1 bit a byte unless the chunk is one
    // repeated byte (an RLE fill): below that the histogram pass over the chunk is skipped.
    // Level 1 skips it below 2 bits a byte: on a one-block file that pass over the whole
    // chunk was a tenth of the encode, and an LZ chunk at 1-2 bits a byte is data with
    // matches, which an order-0 code rarely beats (no sample's size changed).
    const std::size_t lz_floor = params.quick_arrays ? n / 4 : n / 8;
    const bool may_win = params.search_entropy || best > lz_floor ||
                         std::all_of(data.begin(), data.end(), [&](std::uint8_t b) { return b == data[0]; });
    std::vector<std::uint8_t> entropy;
    const ArrayPolicy policy{.long_header = true, .split_depth = params.split_depth, .tans = params.search_entropy,
                              .estimate_rle = params.quick_arrays};
    if (may_win && estimate_array_size(data) < best + 8 && encode_coded_array(data, policy, entropy) && entropy.size() < best) {
        append(quantum, entropy);
    } else if (lz) {
        put_chunk_header(quantum, lz->mode, lz->payload.size());
        append(quantum, lz->payload);
    } else {
        put_chunk_header(quantum, 0, n);
        quantum.insert(quantum.end(), data.begin(), data.end());
    }
}

/// One block of an input of `input_size` bytes (which decides the level's settings).
std::vector<std::uint8_t> encode_block(std::span<const std::uint8_t> block, int level, std::size_t input_size) {
    const std::size_t size = block.size();
    // Memset block (spec 1.3): 6 bytes for the whole block.
    if (size > 4 && std::all_of(block.begin(), block.end(), [&](std::uint8_t b) { return b == block[0]; }))
        return {0x8C, 0x06, 0x07, 0xFF, 0xFF, block[0]};
    // Sized when the winner is known: reserving a whole block up front cost page faults
    // (a fresh mapping per block) for outputs that are mostly a few KiB.
    std::vector<std::uint8_t> out{0x8C, 0x06};
    std::vector<std::uint8_t> quantum;
    if (size > 16) {
        const LzParams params = lz_params(level, input_size);
        MatchFinder finder(block, params.probe_hash_bits);
        for (std::size_t start = 0; start < size; start += kChunkSize)
            encode_chunk(finder, block, start, std::min(kChunkSize, size - start), params, quantum);
    }
    // A quantum must be smaller than its block (C < B), and the stored block is smaller still
    // unless the quantum saves more than its 3-byte header.
    if (!quantum.empty() && quantum.size() + 3 < size) {
        out.reserve(5 + quantum.size());
        put_u24be(out, static_cast<std::uint32_t>(quantum.size() - 1));
        append(out, quantum);
        return out;
    }
    out[0] = 0xCC;  // restart + stored
    out.insert(out.end(), block.begin(), block.end());
    return out;
}

}  // namespace

static_assert(encoded_block_count(kBlockSize) == 1 && encoded_block_count(kBlockSize + 1) == 2,
              "encoded_block_count counts the encoder's blocks");

std::size_t max_encoded_size(std::size_t n) { return n + encoded_block_count(n) * 2; }

std::vector<std::uint8_t> encode(std::span<const std::uint8_t> data, int level, unsigned threads,
                                 const std::function<void(std::size_t)>& block_done) {
    if (level < 0 || level > kMaxLevel)
        throw Error("Kraken level " + std::to_string(level) + " out of range 0..9");
    const std::size_t blocks = encoded_block_count(data.size());
    auto block_size = [&](std::size_t i) { return std::min(kBlockSize, data.size() - i * kBlockSize); };
    if (level == 0) {
        std::vector<std::uint8_t> stored = encode_stored(data);
        if (block_done)
            for (std::size_t i = 0; i < blocks; ++i) block_done(block_size(i));
        return stored;
    }
    std::vector<std::vector<std::uint8_t>> encoded(blocks);
    parallel_for(blocks, threads, [&](std::size_t i) {
        encoded[i] = encode_block(data.subspan(i * kBlockSize, block_size(i)), level, data.size());
        if (block_done) block_done(block_size(i));
    });
    std::vector<std::uint8_t> out;
    std::size_t total = 0;
    for (const auto& b : encoded) total += b.size();
    out.reserve(total);
    for (const auto& b : encoded) append(out, b);
    return out;
}

}  // namespace navlab::kraken
