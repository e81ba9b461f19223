// Kraken stream framing (spec 1): blocks, quanta and chunks, and the parallel decode of
// independent windows. A sequential walk over the block and quantum headers finds every
// block's input range first; the blocks are then decoded window by window, each window (a
// restart block and the non-restart blocks after it) on its own thread.
#include "codec/kraken/kraken.h"

#include <cstring>
#include <exception>
#include <string>

#include "codec/kraken/byte_array.h"
#include "codec/kraken/context.h"
#include "codec/kraken/lz.h"
#include "codec/kraken/stream_info.h"
#include "io/error.h"
#include "io/parallel.h"

namespace navlab::kraken {
namespace {

using namespace detail;

using BlockKind = BlockInfo::Kind;

/// One block as found by the header walk.
struct Block {
    std::size_t header;  ///< offset of the block header in the stream
    std::size_t body;    ///< offset of the first byte after the block and quantum headers
    std::size_t size;    ///< compressed bytes at body (the memset byte for Memset)
    std::size_t out;     ///< output position
    std::size_t out_size;
    BlockKind kind;
    bool restart;
};

[[noreturn]] void fail_block(std::size_t index, std::size_t offset, const std::string& message) {
    throw Error(message, offset, "Kraken block " + std::to_string(index));
}

/// Spec 1.2, 1.3, 1.6: validates the framing and returns every block.
std::vector<Block> walk_blocks(std::span<const std::uint8_t> src, std::size_t out_size) {
    std::vector<Block> blocks;
    std::size_t ip = 0;
    for (std::size_t op = 0; op < out_size; op += kBlockSize) {
        const std::size_t index = blocks.size();
        Block b{ip, 0, 0, op, std::min(kBlockSize, out_size - op), BlockKind::Compressed, false};
        if (src.size() - ip < 2) fail_block(index, ip, "block header truncated");
        const unsigned h0 = src[ip], h1 = src[ip + 1];
        if ((h0 & 0x0F) != 0x0C || (h0 & 0x30) != 0) fail_block(index, ip, "bad block header magic");
        if ((h1 & 0x7F) != 6) fail_block(index, ip + 1, "decoder id " + std::to_string(h1 & 0x7F) + " is not Kraken (6)");
        b.restart = (h0 & 0x80) != 0;
        ip += 2;
        if (h0 & 0x40) {
            b.kind = BlockKind::Stored;
            b.size = b.out_size;
        } else {
            if (src.size() - ip < 3) fail_block(index, ip, "quantum header truncated");
            const std::uint32_t v = u24be(&src[ip]);
            if ((v & 0x3FFFF) == 0x3FFFF) {
                if ((v >> 18) != 1) fail_block(index, ip, "bad memset quantum header");
                ip += 3;
                b.kind = BlockKind::Memset;
                b.size = 1;
            } else {
                b.size = (v & 0x3FFFF) + 1;
                ip += 3;
                if (h1 & 0x80) {
                    if (src.size() - ip < 3) fail_block(index, ip, "quantum checksum truncated");
                    ip += 3;  // the checksum algorithm is unknown (spec 7.3): skipped
                }
                if (b.size > b.out_size) fail_block(index, ip - 3, "quantum larger than its block");
                b.kind = b.size == b.out_size ? BlockKind::StoredQuantum : BlockKind::Compressed;
            }
        }
        if (src.size() - ip < b.size) fail_block(index, ip, "block data truncated");
        b.body = ip;
        ip += b.size;
        blocks.push_back(b);
    }
    if (ip != src.size())
        throw Error("stream continues after the last block (" + std::to_string(src.size() - ip) + " bytes)", ip,
                    "Kraken stream");
    return blocks;
}

/// Spec 1.4: the chunks of one compressed quantum.
void decode_quantum(const Context& ctx, const std::uint8_t* q, std::size_t size, std::uint8_t* out,
                    std::size_t pos, std::size_t end, std::size_t base, std::size_t write_limit) {
    std::size_t qp = 0;
    for (unsigned chunk = 0; pos < end; ++chunk) {
        try {
            const std::size_t n = std::min(kChunkSize, end - pos);
            ctx.check(size - qp >= 4, q + qp, "chunk header truncated");
            const std::uint32_t h = u24be(q + qp);
            ChunkInfo* info = nullptr;
            if (ctx.info) [[unlikely]] {
                info = &ctx.info->blocks.back().chunks.emplace_back();
                info->offset = static_cast<std::size_t>(q + qp - ctx.begin);
                info->decoded = n;
            }
            const std::size_t chunk_start = qp;
            if ((h & 0x800000) == 0) {
                if (info) info->kind = ChunkInfo::Kind::EntropyOnly;
                const ArrayResult r = decode_array(ctx, q + qp, size - qp, out + pos, n, 0, false);
                ctx.check(r.size == n, q + qp, "entropy-only chunk: array size differs from the chunk size");
                qp += r.used;
            } else {
                qp += 3;
                const std::size_t s = h & 0x7FFFF;
                const unsigned mode = (h >> 19) & 0xF;
                ctx.check(s <= size - qp, q + qp - 3, "chunk payload truncated");
                if (info) info->literal_mode = mode;
                if (s < n) {
                    decode_lz_chunk(ctx, q + qp, s, mode, ChunkTarget{out, pos, n, base, write_limit});
                } else {
                    ctx.check(s == n && mode == 0, q + qp - 3, "chunk payload larger than the chunk");
                    std::memcpy(out + pos, q + qp, n);
                    if (info) info->kind = ChunkInfo::Kind::Stored;
                }
                qp += s;
            }
            if (info) info->compressed = qp - chunk_start;
            pos += n;
        } catch (Error& e) {
            throw e.in("chunk " + std::to_string(chunk));
        }
    }
    ctx.check(qp == size, q + qp, "quantum not fully consumed");
}

/// Decodes blocks [first, last) (one window or more) into dst.
/// @param info when set, what each block, chunk and array holds is recorded there.
void decode_blocks(std::span<const std::uint8_t> src, std::span<std::uint8_t> dst, const std::vector<Block>& blocks,
                   std::size_t first, std::size_t last, StreamInfo* info = nullptr) {
    thread_local Scratch scratch;
    const Context ctx{src.data(), src.data() + src.size(), &scratch, info};
    const std::size_t write_limit = blocks[last - 1].out + blocks[last - 1].out_size;
    std::size_t base = blocks[first].out;
    for (std::size_t i = first; i < last; ++i) {
        const Block& b = blocks[i];
        if (b.restart) base = b.out;
        const std::uint8_t* body = src.data() + b.body;
        std::uint8_t* out = dst.data() + b.out;
        if (info) {
            const std::size_t next = i + 1 < blocks.size() ? blocks[i + 1].header : src.size();
            info->blocks.push_back({b.kind, b.header, next - b.header, b.out_size, b.restart, {}});
        }
        try {
            switch (b.kind) {
                case BlockKind::Stored:
                case BlockKind::StoredQuantum: std::memcpy(out, body, b.out_size); break;
                case BlockKind::Memset: std::memset(out, body[0], b.out_size); break;
                case BlockKind::Compressed:
                    decode_quantum(ctx, body, b.size, dst.data(), b.out, b.out + b.out_size, base, write_limit);
                    break;
            }
        } catch (Error& e) {
            throw e.in("Kraken block " + std::to_string(i));
        }
    }
}

}  // namespace

void decode(std::span<const std::uint8_t> src, std::span<std::uint8_t> dst, unsigned threads) {
    const std::vector<Block> blocks = walk_blocks(src, dst.size());
    // Windows: each restart block starts one; the first block starts one whatever its flag.
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < blocks.size(); ++i)
        if (i == 0 || blocks[i].restart) starts.push_back(i);
    starts.push_back(blocks.size());
    const std::size_t windows = starts.size() - 1;
    if (windows == 0) return;
    std::vector<std::exception_ptr> errors(windows);
    parallel_for(windows, threads, [&](std::size_t w) {
        try {
            decode_blocks(src, dst, blocks, starts[w], starts[w + 1]);
        } catch (...) {
            errors[w] = std::current_exception();
        }
    });
    // The first failing window in stream order, whatever the thread timing.
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

StreamInfo inspect(std::span<const std::uint8_t> src, std::size_t decoded_size) {
    const std::vector<Block> blocks = walk_blocks(src, decoded_size);
    StreamInfo info;
    info.compressed = src.size();
    info.decoded = decoded_size;
    std::vector<std::uint8_t> out(decoded_size);
    if (!blocks.empty()) decode_blocks(src, out, blocks, 0, blocks.size(), &info);
    return info;
}

std::string_view array_type_name(unsigned type) {
    constexpr std::string_view kNames[] = {"stored", "tANS", "Huffman", "RLE", "Huffman-6", "split"};
    return type < std::size(kNames) ? kNames[type] : "invalid";
}

std::size_t max_decoded_size(std::size_t stream_size) {
    constexpr std::size_t kMinFullBlockBytes = 6;  // memset block: header 2 + quantum 3 + value 1
    return (stream_size + kMinFullBlockBytes - 1) / kMinFullBlockBytes * kBlockSize;
}

std::vector<std::uint8_t> encode_stored(std::span<const std::uint8_t> data) {
    std::vector<std::uint8_t> out;
    out.reserve(data.size() + (data.size() / kBlockSize + 1) * 2);
    for (std::size_t pos = 0; pos < data.size(); pos += kBlockSize) {
        out.push_back(0xCC);  // restart + stored, magic C
        out.push_back(0x06);  // Kraken, no checksums
        const std::size_t n = std::min(kBlockSize, data.size() - pos);
        out.insert(out.end(), data.begin() + pos, data.begin() + pos + n);
    }
    return out;
}

}  // namespace navlab::kraken
