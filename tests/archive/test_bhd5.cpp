// The BHD5 parser on plaintexts laid out by hand from the tables of spec bhd5.md §2 (both
// file-header layouts), the writer's canonical layout against them, and the parser's
// refusals, each naming the file, the entry's hash and the field.
#include <gtest/gtest.h>

#include "container/archive/bhd5.h"
#include "io/byte_writer.h"
#include "io/error.h"

using namespace navlab;
using namespace navlab::archive;

namespace {

constexpr std::uint64_t kErHash = 0xAFAE4AE1365DCB8Eull;
constexpr std::uint32_t kSekiroHash = 0xCC85AB64u;

/// §2.1 header + one bucket + one file header + an AES record with ranges [0,16) and (-1,-1).
std::vector<std::uint8_t> hand_built(Game game, std::int64_t aesEnd = 16) {
    ByteWriter w;
    w.u32(0x35444842);  // "BHD5" (bytes() on the empty writer trips a GCC 12 false -Wstringop-overflow)
    w.u8(0xFF), w.u8(1), w.u16(0);
    w.i32(1);
    w.i32(0x84);                   // total size
    w.i32(1);                      // buckets
    w.i32(0x20);                   // bucket table = 0x1C + salt length
    w.i32(4);
    w.bytes(std::string_view(game == Game::Sekiro ? "NTC_" : "GR_x"));
    w.i32(1), w.i32(0x28);         // bucket 0: one header at 0x28
    if (game == Game::Sekiro) {    // §2.3
        w.u32(kSekiroHash), w.i32(32), w.i64(16), w.i64(0), w.i64(0x50), w.i64(20);
    } else {                       // §2.4
        w.u64(kErHash), w.i32(32), w.i32(20), w.i64(16), w.i64(0), w.i64(0x50);
    }
    for (int i = 0; i < 16; ++i) w.u8(static_cast<std::uint8_t>(i));
    w.i32(2), w.i64(0), w.i64(aesEnd), w.i64(-1), w.i64(-1);
    return std::move(w).finish();
}

std::string parse_error(Bytes plain, Game game, std::uint64_t bdtSize) {
    try {
        parse_bhd5(plain, game, bdtSize, "Game/Data2.bhd");
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST(ArchiveBhd5, BothLayoutsByHand) {
    for (Game game : {Game::Sekiro, Game::EldenRing}) {
        SCOPED_TRACE(game_name(game));
        const auto plain = hand_built(game);
        ASSERT_EQ(plain.size(), 0x84u);
        const Bhd5 bhd = parse_bhd5(plain, game, 48, "Data2.bhd");
        EXPECT_EQ(bhd.salt, game == Game::Sekiro ? "NTC_" : "GR_x");
        ASSERT_EQ(bhd.buckets.size(), 1u);
        ASSERT_EQ(bhd.buckets[0].size(), 1u);
        const FileHeader& h = bhd.buckets[0][0];
        EXPECT_EQ(h.hash, game == Game::Sekiro ? kSekiroHash : kErHash);
        EXPECT_EQ(h.paddedSize, 32u);
        EXPECT_EQ(h.unpaddedSize, 20);
        EXPECT_EQ(h.size(), 20u);
        EXPECT_EQ(h.dataOffset, 16u);
        EXPECT_EQ(h.headerOffset, 0x28u);
        EXPECT_FALSE(h.sha);
        ASSERT_TRUE(h.aes);
        EXPECT_EQ(h.aes->key[15], 15);
        ASSERT_EQ(h.aes->ranges.size(), 2u);
        EXPECT_TRUE(h.aes->ranges[1].empty());
        EXPECT_TRUE(h.encrypted());
        EXPECT_EQ(write_bhd5(bhd, game), plain);  // the writer's layout is the hand-built one
        // Bytes past the BHD5 data (RSA rounding) are ignored.
        auto padded = plain;
        padded.resize(255, 0);
        EXPECT_EQ(parse_bhd5(padded, game, 48, "Data2.bhd").buckets[0][0].hash, h.hash);
    }
}

TEST(ArchiveBhd5, UnpaddedZeroMeansPadded) {
    auto plain = hand_built(Game::EldenRing);
    plain[0x28 + 0x0C] = 0;
    EXPECT_EQ(parse_bhd5(plain, Game::EldenRing, 48, "x").buckets[0][0].size(), 32u);
}

TEST(ArchiveBhd5, RefusalsNameFileEntryAndField) {
    const std::string er = "BHD5 entry 0xAFAE4AE1365DCB8E";
    // Truncated .bdt: data offset 16 + padded 32 > 47.
    std::string e = parse_error(hand_built(Game::EldenRing), Game::EldenRing, 47);
    EXPECT_NE(e.find("Game/Data2.bhd"), std::string::npos) << e;
    EXPECT_NE(e.find(er), std::string::npos) << e;
    EXPECT_NE(e.find("data offset"), std::string::npos) << e;
    EXPECT_NE(e.find("past the end of the .bdt"), std::string::npos) << e;
    // A range past the padded size.
    e = parse_error(hand_built(Game::EldenRing, 48), Game::EldenRing, 48);
    EXPECT_NE(e.find(er + ": AES range 0"), std::string::npos) << e;
    EXPECT_NE(e.find("past the padded size"), std::string::npos) << e;
    EXPECT_NE(e.find("Game/Data2.bhd"), std::string::npos) << e;
    // A range that is not whole AES blocks.
    e = parse_error(hand_built(Game::Sekiro, 8), Game::Sekiro, 48);
    EXPECT_NE(e.find("BHD5 entry 0xCC85AB64: AES range 0"), std::string::npos) << e;
    // The AES record offset past the plaintext.
    auto plain = hand_built(Game::EldenRing);
    plain[0x28 + 0x20] = 0x90;
    e = parse_error(plain, Game::EldenRing, 48);
    EXPECT_NE(e.find(er), std::string::npos) << e;
    EXPECT_NE(e.find("AES record offset 0x90 is past the end of the plaintext"), std::string::npos) << e;
    // Range count running past the end.
    plain = hand_built(Game::Sekiro);
    plain[0x60] = 9;
    e = parse_error(plain, Game::Sekiro, 48);
    EXPECT_NE(e.find("BHD5 entry 0xCC85AB64"), std::string::npos) << e;
    EXPECT_NE(e.find("AES record range count 9"), std::string::npos) << e;
    // Bucket pointing past the plaintext, bucket table past the end, header fields.
    plain = hand_built(Game::EldenRing);
    plain[0x24] = 0x80;
    e = parse_error(plain, Game::EldenRing, 48);
    EXPECT_NE(e.find("BHD5 bucket 0"), std::string::npos) << e;
    EXPECT_NE(e.find("run past the end of the plaintext"), std::string::npos) << e;
    plain = hand_built(Game::EldenRing);
    plain[0x10] = 200;
    EXPECT_NE(parse_error(plain, Game::EldenRing, 48).find("bucket table"), std::string::npos);
    plain = hand_built(Game::EldenRing);
    plain[8] = 2;
    EXPECT_NE(parse_error(plain, Game::EldenRing, 48).find("version 2 is not 1"), std::string::npos);
    plain = hand_built(Game::EldenRing);
    plain[4] = 0;
    EXPECT_NE(parse_error(plain, Game::EldenRing, 48).find("big-endian"), std::string::npos);
    plain = hand_built(Game::EldenRing);
    plain[0x28 + 0x0C] = 33;  // unpadded > padded
    EXPECT_NE(parse_error(plain, Game::EldenRing, 48).find("unpadded size 33"), std::string::npos);
    EXPECT_NE(parse_error(Bytes(plain.data(), 10), Game::EldenRing, 48).find("Game/Data2.bhd"), std::string::npos);
}
