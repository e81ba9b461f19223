// kraken::inspect and `navlab kraken info`: the blocks, chunks and byte arrays of a stream,
// checked against the spec's worked example (section 4: the Elden Ring emevd's arrays, offsets
// and sizes), against the framing the spec fixes for stored blocks, and against the sizes that
// must add up (blocks to the stream, chunks to their quantum).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "codec/dcx.h"
#include "codec/kraken/kraken.h"
#include "codec/kraken/stream_info.h"
#include "io/error.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;
using kraken::ArrayInfo;
using kraken::BlockInfo;
using kraken::ChunkInfo;
using ByteVec = std::vector<std::uint8_t>;

namespace {

ByteVec text(std::size_t n) {
    const std::string words[] = {"navmesh ", "face ", "edge ", "vertex ", "cluster ", "0.25 ", "1.5 ", "\n"};
    ByteVec out;
    for (std::uint32_t s = 1; out.size() < n; s = s * 1103515245 + 12345)
        for (char c : words[(s >> 16) % 8]) out.push_back(static_cast<std::uint8_t>(c));
    out.resize(n);
    return out;
}

const ArrayInfo* array_at(const ChunkInfo& c, std::size_t offset) {
    for (const ArrayInfo& a : c.arrays)
        if (a.offset == offset) return &a;
    return nullptr;
}

}  // namespace

// Spec 1.2: a stored block is its 2-byte header and the raw bytes; 256 KiB each, the last shorter.
TEST(KrakenStreamInfo, StoredBlocksAsTheSpecFramesThem) {
    const ByteVec data = text(0x40000 * 2 + 1000);
    const ByteVec stream = kraken::encode_stored(data);
    const kraken::StreamInfo info = kraken::inspect(stream, data.size());
    ASSERT_EQ(info.blocks.size(), 3u);
    std::size_t offset = 0;
    for (const BlockInfo& b : info.blocks) {
        EXPECT_EQ(b.kind, BlockInfo::Kind::Stored);
        EXPECT_TRUE(b.restart);
        EXPECT_EQ(b.offset, offset);
        EXPECT_EQ(b.compressed, 2 + b.decoded);
        EXPECT_TRUE(b.chunks.empty());
        offset += b.compressed;
    }
    EXPECT_EQ(info.blocks[2].decoded, 1000u);
    EXPECT_EQ(offset, stream.size());
}

// Sizes that must add up on a compressed stream: blocks tile the stream and the output; the
// chunks of a compressed block tile its quantum (after the 2-byte block and 3-byte quantum
// headers) and its 256 KiB in 128 KiB chunks; an LZ chunk's top-level arrays lie inside it.
TEST(KrakenStreamInfo, SizesAddUpOnAnEncodedStream) {
    const ByteVec data = text(0x40000 + 0x30000);
    const ByteVec stream = kraken::encode(data, 6, 1);
    const kraken::StreamInfo info = kraken::inspect(stream, data.size());
    ASSERT_EQ(info.blocks.size(), 2u);
    std::size_t offset = 0, decoded = 0;
    for (const BlockInfo& b : info.blocks) {
        EXPECT_EQ(b.offset, offset);
        offset += b.compressed, decoded += b.decoded;
        ASSERT_EQ(b.kind, BlockInfo::Kind::Compressed);
        std::size_t chunk_bytes = 0, chunk_out = 0;
        for (const ChunkInfo& c : b.chunks) {
            EXPECT_EQ(c.offset, b.offset + 5 + chunk_bytes);
            EXPECT_LE(c.decoded, 0x20000u);
            chunk_bytes += c.compressed, chunk_out += c.decoded;
            if (c.kind != ChunkInfo::Kind::Lz) continue;
            EXPECT_GT(c.commands, 0u);
            EXPECT_LE(c.literals, c.decoded);
            for (const ArrayInfo& a : c.arrays) {
                EXPECT_GE(a.offset, c.offset + 3);
                EXPECT_LE(a.offset + a.header + a.payload, c.offset + c.compressed);
            }
        }
        EXPECT_EQ(chunk_bytes + 5, b.compressed);
        EXPECT_EQ(chunk_out, b.decoded);
        EXPECT_EQ(b.chunks.size(), (b.decoded + 0x1FFFF) / 0x20000);
    }
    EXPECT_EQ(offset, stream.size());
    EXPECT_EQ(decoded, data.size());
    // A corrupt stream fails as decode() does, at the same offset. The corruption is the LZ
    // chunk header's payload size set to 0x7FFFF (more than any quantum holds): flipping a
    // byte just after the header would land in the 8 raw bytes that open a window's first
    // chunk, which decode accepts, so the check would never run.
    const ChunkInfo& first = info.blocks[0].chunks[0];
    ASSERT_EQ(first.kind, ChunkInfo::Kind::Lz);
    ByteVec broken = stream;
    broken[first.offset] |= 0x07;
    broken[first.offset + 1] = broken[first.offset + 2] = 0xFF;
    ByteVec out(data.size());
    std::uint64_t decode_at = kNoOffset, inspect_at = kNoOffset;
    try {
        kraken::decode(broken, out, 1);
    } catch (const Error& e) {
        decode_at = e.offset();
    }
    try {
        kraken::inspect(broken, data.size());
    } catch (const Error& e) {
        inspect_at = e.offset();
    }
    EXPECT_EQ(decode_at, first.offset);
    EXPECT_EQ(inspect_at, decode_at);
}

// Spec section 4, the worked example: the emevd's one LZ chunk, its arrays at the offsets and
// with the sizes the spec gives, and the command counts its arrays decode to.
TEST(KrakenStreamInfo, WorkedExampleArrays) {
    NAVLAB_REQUIRE_SAMPLE(path, "fromsoft/er_m10_00_00_00.emevd.dcx");
    const ByteVec file = read_file(path);
    const std::span<const std::uint8_t> stream = dcx::compressed_stream(file);
    EXPECT_EQ(stream.data() - file.data(), 0x4C);
    const kraken::StreamInfo info = kraken::inspect(stream, 97424);
    ASSERT_EQ(info.blocks.size(), 1u);
    ASSERT_EQ(info.blocks[0].chunks.size(), 1u);
    const ChunkInfo& c = info.blocks[0].chunks[0];
    EXPECT_EQ(c.kind, ChunkInfo::Kind::Lz);
    EXPECT_EQ(c.offset, 5u);         // after 8C 06 and the quantum header (spec 4.1)
    EXPECT_EQ(c.literal_mode, 0u);   // delta literals
    EXPECT_EQ(c.commands, 5184u);    // 4.4
    EXPECT_EQ(c.literals, 5304u);    // 4.2
    EXPECT_EQ(c.new_distances, 1781u);
    EXPECT_EQ(c.long_lengths, 1927u);
    const ArrayInfo* literals = array_at(c, 16);
    ASSERT_NE(literals, nullptr);
    EXPECT_EQ(literals->type, 3u);  // RLE
    EXPECT_EQ(literals->depth, 0);
    EXPECT_EQ(literals->header + literals->payload, 5u + 4245u);
    EXPECT_EQ(literals->decoded, 5304u);
    const ArrayInfo* prefix = array_at(c, 21);
    ASSERT_NE(prefix, nullptr);
    EXPECT_EQ(prefix->type, 4u);  // Huffman-6 inside the RLE array
    EXPECT_EQ(prefix->depth, 1);
    EXPECT_EQ(prefix->header + prefix->payload, 5u + 4091u);
    EXPECT_EQ(prefix->decoded, 4933u);
    const ArrayInfo* commands = array_at(c, 4266);
    ASSERT_NE(commands, nullptr);
    EXPECT_EQ(commands->type, 5u);
    EXPECT_EQ(commands->decoded, 5184u);
    for (std::size_t at : {std::size_t{7359}, std::size_t{8553}}) {
        const ArrayInfo* a = array_at(c, at);
        ASSERT_NE(a, nullptr) << at;
        EXPECT_EQ(a->decoded, 1781u) << at;
    }
    const ArrayInfo* lengths = array_at(c, 8971);
    ASSERT_NE(lengths, nullptr);
    EXPECT_EQ(lengths->decoded, 1927u);
    EXPECT_EQ(lengths->offset + lengths->header + lengths->payload, 9611u);
}

TEST(KrakenCli, InfoOnADcxAndOnARawStream) {
    const auto dir = test::scratch_dir("kraken_info");
    const ByteVec data = text(300000);
    const std::string bin = test::navlab_binary();
    write_file_atomic(dir / "data.bin", data);
    std::string log;
    ASSERT_EQ(test::run_command(bin + " kraken encode " + (dir / "data.bin").string() + " " + (dir / "data.kraken").string() +
                                    " --level 6",
                                &log),
              0)
        << log;
    // The summary gives the stream and the file ("encoded to 0" read as an empty file).
    EXPECT_NE(log.find(" bytes with its size (level 6, "), std::string::npos) << log;
    write_file_atomic(dir / "empty.bin", ByteVec{});
    ASSERT_EQ(test::run_command(bin + " kraken encode " + (dir / "empty.bin").string() + " " + (dir / "empty.kraken").string(),
                                &log),
              0)
        << log;
    EXPECT_NE(log.find("0 bytes encoded to a 0-byte stream, 4 bytes with its size"), std::string::npos) << log;
    EXPECT_EQ(std::filesystem::file_size(dir / "empty.kraken"), 4u);
    ASSERT_EQ(test::run_command(bin + " kraken info " + (dir / "data.kraken").string() + " --json --arrays", &log), 0) << log;
    const nlohmann::json j = nlohmann::json::parse(log);
    EXPECT_EQ(j["decoded"], data.size());
    EXPECT_EQ(j["stream_offset"], 4);
    EXPECT_EQ(j["compressed"].get<std::size_t>() + 4, std::filesystem::file_size(dir / "data.kraken"));
    ASSERT_EQ(j["blocks"].size(), 2u);
    EXPECT_EQ(j["blocks"][0]["offset"], 4);  // file offsets
    EXPECT_TRUE(j["blocks"][0]["chunks"][0]["arrays"].is_array());
    ASSERT_EQ(test::run_command(bin + " kraken info " + (dir / "data.kraken").string(), &log), 0) << log;
    EXPECT_NE(log.find("commands"), std::string::npos) << log;
    // A DCX_KRAK file: its stream after the 0x4C-byte header, the payload size from 0x1C.
    ASSERT_EQ(test::run_command(bin + " dcx compress " + (dir / "data.bin").string() + " " + (dir / "krak.dcx").string() +
                                    " --variant DCX_KRAK --level 1",
                                &log),
              0)
        << log;
    ASSERT_EQ(test::run_command(bin + " kraken info " + (dir / "krak.dcx").string() + " --json", &log), 0) << log;
    const nlohmann::json k = nlohmann::json::parse(log);
    EXPECT_EQ(k["stream_offset"], 0x4C);
    EXPECT_EQ(k["decoded"], data.size());
    EXPECT_EQ(k["blocks"][0]["offset"], 0x4C);
    // A stream cut short fails with exit 1 and a file offset inside the stream.
    const ByteVec whole = read_file(dir / "data.kraken");
    write_file_atomic(dir / "cut.kraken", std::span<const std::uint8_t>(whole.data(), whole.size() - 100));
    EXPECT_EQ(test::run_command(bin + " kraken info " + (dir / "cut.kraken").string(), &log), 1);
    EXPECT_NE(log.find("cut.kraken: offset 0x"), std::string::npos) << log;
    EXPECT_NE(log.find("Kraken block 1"), std::string::npos) << log;
    // A DCX of another codec is refused by name, exit 1.
    ASSERT_EQ(test::run_command(bin + " dcx compress " + (dir / "data.bin").string() + " " + (dir / "data.dcx").string() +
                                    " --variant DCX_DFLT_10000_44_9",
                                &log),
              0)
        << log;
    EXPECT_EQ(test::run_command(bin + " kraken info " + (dir / "data.dcx").string(), &log), 1);
    EXPECT_NE(log.find("DFLT"), std::string::npos) << log;
}
