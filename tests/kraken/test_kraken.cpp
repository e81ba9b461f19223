// Kraken decoder tests: every provided sample decodes to its SHA-256, the spec's worked
// example step by step, stored round trips, parallel = serial, and corrupt input always
// fails with navlab::Error (run under ASan/UBSan by ./test.sh --sanitize).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cmath>
#include <map>
#include <numeric>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "codec/kraken/array_encoder.h"
#include "codec/kraken/bit_reader.h"
#include "codec/kraken/byte_array.h"
#include "codec/kraken/kraken.h"
#include "codec/kraken/lz.h"
#include "codec/kraken/symbol_ranges.h"
#include "io/cpu_features.h"
#include "io/error.h"
#include "io/file.h"
#include "kraken/hand_built_streams.h"
#include "support/sha256.h"
#include "support/samples.h"

using namespace navlab;
using Bytes = std::vector<std::uint8_t>;

namespace {

Bytes from_hex(const std::string& hex) {
    Bytes out;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    return out;
}

std::string hex_of(std::span<const std::uint8_t> b) {
    static constexpr char d[] = "0123456789abcdef";
    std::string s;
    for (auto v : b) s += d[v >> 4], s += d[v & 15];
    return s;
}

Bytes decode(std::span<const std::uint8_t> stream, std::size_t size, unsigned threads = 1) {
    Bytes out(size);
    kraken::decode(stream, out, threads);
    return out;
}

/// A raw test stream: 4-byte little-endian output size, then the Kraken stream.
struct RawStream {
    std::size_t size;
    Bytes stream;
};
RawStream split_raw(const Bytes& file) {
    if (file.size() < 4) throw Error("raw stream shorter than its size field");
    const std::size_t size = file[0] | file[1] << 8 | file[2] << 16 | std::size_t{file[3]} << 24;
    return {size, Bytes(file.begin() + 4, file.end())};
}

/// The KRAK stream of a DCX file (spec fromsoft-containers 1.2: 0x4C-byte big-endian header).
RawStream split_dcx(const Bytes& file) {
    auto be32 = [&](std::size_t o) {
        return std::size_t{file.at(o)} << 24 | std::size_t{file.at(o + 1)} << 16 | file.at(o + 2) << 8 | file.at(o + 3);
    };
    EXPECT_EQ(std::string(file.begin() + 0x28, file.begin() + 0x2C), "KRAK");
    const std::size_t compressed = be32(0x20);
    return {be32(0x1C), Bytes(file.begin() + 0x4C, file.begin() + 0x4C + compressed)};
}

// Spec 5.3 hand-built streams (written in the spec; no sample needed).
const char* kT2 = "8c06000026501f3c002282300f9c000141300f9c0001420600800501020102008004080809092c5e00002c90";
const char* kT3 = "8c06000020501f3c001c82300f9c000141300f9c0001420680800581829192002c5e00002c90";
const char* kT4 =
    "8c060000c9300a8800c5007778797a000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c"
    "1d1e1f2021222324252627fb3fa41eb476486f3424725de9933ad523df53ee89a7ec3b906ff0094e6a66f5de"
    "8abf41e67353e5a02b03bca087874b033817976161ff5c35a252e6bd3e24e12fa06ca5b18a26f94f24995f81"
    "2506a246b5a8a51e9bc9c8d9b4cefc4217a4b0bcb49ebf8f3ae200619a49ed978d21f21ecf513007d5668fa3"
    "382592f80a04e9153344ec910a0744b94dbb6db9db07000102020928295c01";

}  // namespace

TEST(Sha256, KnownDigests) {
    EXPECT_EQ(test::sha256_hex({}), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const std::string abc = "abc";
    EXPECT_EQ(test::sha256_hex({reinterpret_cast<const std::uint8_t*>(abc.data()), abc.size()}),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    EXPECT_EQ(test::sha256_hex({reinterpret_cast<const std::uint8_t*>(two.data()), two.size()}),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Kraken, HandBuiltMultiArrayStreams) {
    for (const char* hex : {kT2, kT3}) {
        const Bytes out = decode(from_hex(hex), 2000);
        EXPECT_EQ(test::sha256_hex(out), "970bc48943ddc91ec04ea5eac5cf21d8f7a569b0d5fc7bd93b9626768e5c7325");
        EXPECT_EQ(out[0], 'A');
        EXPECT_EQ(out[300], 'B');
        EXPECT_EQ(out[1999], 'B');
    }
}

TEST(Kraken, HandBuiltRleStream) {
    const Bytes out = decode(from_hex(kT4), 675);
    EXPECT_EQ(test::sha256_hex(out), "0bc2bbdca24cfe09f63599ab7842984cc1efac57e6c73aecd33ed9ba411e91a3");
    EXPECT_EQ(hex_of({out.data(), 8}), "78797a7777777777");
}

struct RawSample {
    const char* name;
    const char* sha256;
};

/// Test name from a sample file name: the part before the first dot, alphanumeric.
std::string sample_test_name(const testing::TestParamInfo<RawSample>& info) {
    std::string n = info.param.name;
    n = n.substr(0, n.find('.'));
    for (auto& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
}

class RawSamples : public testing::TestWithParam<RawSample> {};

TEST_P(RawSamples, DecodesToReadmeDigest) {
    NAVLAB_REQUIRE_SAMPLE(path, std::string("kraken/") + GetParam().name);
    const RawStream raw = split_raw(read_file(path));
    const Bytes out = decode(raw.stream, raw.size, 0);
    EXPECT_EQ(test::sha256_hex(out), GetParam().sha256);
}

INSTANTIATE_TEST_SUITE_P(
    Kraken, RawSamples,
    testing::Values(RawSample{"reymont.kraken", "0eac0114a3dfe6e2ee1f345a0f79d653cb26c3bc9f0ed79238af4933422b7578"},
                    RawSample{"mr.kraken", "68637ed52e3e4860174ed2dc0840ac77d5f1a60abbcb13770d5754e3774d53e6"},
                    RawSample{"ooffice.kraken", "e7ee013880d34dd5208283d0d3d91b07f442e067454276095ded14f322a656eb"},
                    RawSample{"t1.kraken", "aec265f3f8ccb11d1224b12e086b685771fbf03543ad8e0803941ae7a4cebd74"},
                    RawSample{"t2.kraken", "970bc48943ddc91ec04ea5eac5cf21d8f7a569b0d5fc7bd93b9626768e5c7325"},
                    RawSample{"t3.kraken", "970bc48943ddc91ec04ea5eac5cf21d8f7a569b0d5fc7bd93b9626768e5c7325"},
                    RawSample{"t4.kraken", "0bc2bbdca24cfe09f63599ab7842984cc1efac57e6c73aecd33ed9ba411e91a3"}),
    sample_test_name);

class DcxSamples : public testing::TestWithParam<RawSample> {};

TEST_P(DcxSamples, DecodesToExpectedPayloadDigest) {
    NAVLAB_REQUIRE_SAMPLE(path, std::string("fromsoft/") + GetParam().name);
    const RawStream raw = split_dcx(read_file(path));
    const Bytes out = decode(raw.stream, raw.size, 0);
    EXPECT_EQ(test::sha256_hex(out), GetParam().sha256);
    EXPECT_EQ(std::string(out.begin(), out.begin() + 4), "BND4") << "a binder, except the emevd";
}

INSTANTIATE_TEST_SUITE_P(
    Kraken, DcxSamples,
    testing::Values(
        RawSample{"er_allmaterial.matbinbnd.dcx", "28fcad57053acd942d2db1caa9922fd5b89d4c071f8992bb8d0ca406c78513f5"},
        RawSample{"er_allmaterial_dlc01.matbinbnd.dcx", "7d4d928c1d8668266e3428b85f832590d56c30bbdf91343c0312daedcc73bb34"},
        RawSample{"sekiro_allmaterialbnd.mtdbnd.dcx", "1246c9bb834e25a7b90f5db8df5817603daf098ab4c47c778146c141960469df"},
        RawSample{"sekiro_m00_00_00_00.talkesdbnd.dcx", "3dd5c8abe7dd78960f926849079e27f10924fa36424d52eebef1d20cce9f10ad"},
        RawSample{"sekiro_spaar_item.msgbnd.dcx", "6070043d141c418ae6c392aa6580ea9704dbfa3f0c8a11eda9ba4523de4e109d"}),
    sample_test_name);

TEST(Kraken, EldenRingEmevdWithoutBinder) {
    NAVLAB_REQUIRE_SAMPLE(path, "fromsoft/er_m10_00_00_00.emevd.dcx");
    const RawStream raw = split_dcx(read_file(path));
    ASSERT_EQ(raw.size, 97424u);
    ASSERT_EQ(raw.stream.size(), 9932u);
    const Bytes out = decode(raw.stream, raw.size);
    EXPECT_EQ(test::sha256_hex(out), "53480283d6f01d7ae89ca0eb4f3addb3dedb40f9cf0727b4172921cf6b498a2a");
}

// Spec section 4: the first steps of er_m10_00_00_00.emevd.dcx, array by array.
TEST(Kraken, WorkedExampleFirstSteps) {
    NAVLAB_REQUIRE_SAMPLE(path, "fromsoft/er_m10_00_00_00.emevd.dcx");
    const RawStream raw = split_dcx(read_file(path));
    const std::uint8_t* s = raw.stream.data();
    // 4.1 framing.
    EXPECT_EQ(hex_of({s, 8}), "8c060026c68026c4");
    EXPECT_EQ(hex_of({s + 8, 8}), "4556440000ff01ff");

    kraken::detail::Scratch scratch;
    const kraken::detail::Context ctx{s, s + raw.stream.size(), &scratch};
    Bytes buf(0x20000 + 64);
    // 4.2: the Huffman-6 prefix at offset 21 inside the RLE literal array.
    auto prefix = kraken::detail::decode_array(ctx, s + 21, raw.stream.size() - 21, buf.data(), 0x40000, 1, false);
    EXPECT_EQ(prefix.size, 4933u);
    EXPECT_EQ(prefix.used, 5u + 4091u);
    EXPECT_EQ(hex_of({prefix.data, 16}), "ff88aabc00907d00018d70c3071d0ad0");
    // 4.2: the literal array (RLE) at offset 16.
    auto lit = kraken::detail::decode_array(ctx, s + 16, raw.stream.size() - 16, buf.data(), 97424, 0, false);
    EXPECT_EQ(lit.size, 5304u);
    EXPECT_EQ(lit.used, 5u + 4245u);
    EXPECT_EQ(hex_of({lit.data, 16}), "88aabc00907d00018d70c3071d0ad0fb");
    // 4.4: command array (type 5, k = 3) at 4266, packed offsets at 7359, low bits, lengths.
    auto cmd = kraken::detail::decode_array(ctx, s + 4266, raw.stream.size() - 4266, buf.data(), 97424, 0, false);
    EXPECT_EQ(cmd.size, 5184u);
    EXPECT_EQ(16u + lit.used + cmd.used, 7358u);
    EXPECT_EQ(hex_of({cmd.data, 12}), "07c9541212484812f8120fd9");
    EXPECT_EQ(s[7358], 0x9F);  // scale byte: 32
    auto po = kraken::detail::decode_array(ctx, s + 7359, raw.stream.size() - 7359, buf.data(), cmd.size, 0, false);
    EXPECT_EQ(po.size, 1781u);
    EXPECT_EQ(hex_of({po.data, 8}), "0000010100030903");
    auto lo = kraken::detail::decode_array(ctx, s + 8553, raw.stream.size() - 8553, buf.data(), po.size, 0, false);
    EXPECT_EQ(lo.size, 1781u);
    EXPECT_EQ(hex_of({lo.data, 8}), "0c10001008001010");
    auto pl = kraken::detail::decode_array(ctx, s + 8971, raw.stream.size() - 8971, buf.data(), 97424 / 4, 0, false);
    EXPECT_EQ(pl.size, 1927u);
    EXPECT_EQ(hex_of({pl.data, 8}), "0600060d000d0d0d");
    EXPECT_EQ(8971u + pl.used, 9611u);
    // 4.5: the output after the first commands (delta literals, matches at distance 8 / 12).
    const Bytes out = decode(raw.stream, raw.size);
    EXPECT_EQ(hex_of({out.data(), 64}),
              "45564400" "00ff01ff" "cd000000" "907c0100" "5a000000" "00000000" "90000000" "00000000"
              "53070000" "00000000" "70110000" "00000000" "00000000" "00000000" "d0fb0000" "00000000");
}

TEST(Kraken, StoredRoundTrip) {
    std::mt19937 rng(7);
    for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{0x40000}, std::size_t{0x40000 * 3 + 17}}) {
        Bytes data(size);
        for (auto& b : data) b = static_cast<std::uint8_t>(rng());
        const Bytes stream = kraken::encode_stored(data);
        EXPECT_EQ(stream.size(), size + 2 * ((size + 0x3FFFF) / 0x40000));
        if (size) {
            EXPECT_EQ(stream[0], 0xCC);
        }
        EXPECT_EQ(decode(stream, size, 0), data) << size;
        EXPECT_EQ(decode(stream, size, 1), data) << size;
    }
}

TEST(Kraken, ParallelDecodeMatchesSerial) {
    NAVLAB_REQUIRE_SAMPLE(path, "fromsoft/er_allmaterial_dlc01.matbinbnd.dcx");
    const RawStream raw = split_dcx(read_file(path));
    const Bytes serial = decode(raw.stream, raw.size, 1);
    for (unsigned threads : {0u, 2u, 3u, 8u}) EXPECT_EQ(decode(raw.stream, raw.size, threads), serial) << threads;
    // A stream with restart blocks and stored blocks mixed: stored round trip of a decoded file.
    const Bytes stored = kraken::encode_stored(serial);
    EXPECT_EQ(decode(stored, serial.size(), 4), serial);
}

TEST(Kraken, OutputSizeMismatchFails) {
    const Bytes stream = from_hex(kT4);
    Bytes small(674), large(676);
    EXPECT_THROW(kraken::decode(stream, small, 1), Error);
    EXPECT_THROW(kraken::decode(stream, large, 1), Error);
    Bytes empty;
    EXPECT_THROW(kraken::decode(stream, empty, 1), Error);  // stream continues after the last block
}

TEST(Kraken, ErrorNamesBlockAndOffset) {
    // Three stored blocks; corrupt the header of block 2.
    Bytes data(0x40000 * 3, 0x41);
    Bytes stream = kraken::encode_stored(data);
    const std::size_t header2 = 2 * (0x40000 + 2);
    stream[header2] = 0xCD;  // magic nibble D
    try {
        decode(stream, data.size());
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), header2);
        EXPECT_EQ(e.field(), "Kraken block 2");
    }
    stream[header2] = 0xCC;
    stream[header2 + 1] = 0x05;  // LZNA
    EXPECT_THROW(decode(stream, data.size()), Error);
}

TEST(Kraken, ErrorInsideChunkNamesTheArray) {
    Bytes stream = from_hex(kT4);
    // T4: one entropy-only chunk whose RLE array ends with the command bytes; drop a fill command.
    stream.back() = 0x05;
    try {
        decode(stream, 675);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(e.field().find("Kraken block 0: chunk 0"), std::string::npos) << e.what();
        EXPECT_NE(e.offset(), kNoOffset);
        EXPECT_LT(e.offset(), stream.size());
    }
}

TEST(Kraken, TruncationAlwaysFails) {
    for (const char* hex : {kT2, kT3, kT4}) {
        const Bytes stream = from_hex(hex);
        const std::size_t size = hex == kT4 ? 675 : 2000;
        for (std::size_t n = 0; n < stream.size(); ++n) {
            Bytes out(size);
            // One block each (spec 1.2/1.3): 2-byte block header, 3-byte quantum header, data.
            const auto [at, what] = n < 2 ? std::pair{0u, "block header"} : n < 5 ? std::pair{2u, "quantum header"}
                                                                                 : std::pair{5u, "block data"};
            try {
                kraken::decode({stream.data(), n}, out, 1);
                ADD_FAILURE() << "cut at " << n << " decoded";
            } catch (const Error& e) {
                EXPECT_EQ(e.offset(), at) << n << ": " << e.what();
                EXPECT_EQ(std::string(e.what()), "offset " + navlab::hex(at) + ": Kraken block 0: " + what + " truncated");
            }
        }
    }
    auto path = test::sample_or_report("fromsoft/sekiro_m00_00_00_00.talkesdbnd.dcx");
    if (!path) return;
    const RawStream raw = split_dcx(read_file(*path));
    for (std::size_t n = 0; n < raw.stream.size(); n += 37) {
        Bytes out(raw.size);
        try {
            kraken::decode({raw.stream.data(), n}, out, 1);
            ADD_FAILURE() << "cut at " << n << " decoded";
        } catch (const Error& e) {
            EXPECT_LE(e.offset(), n) << e.what();  // inside what was given, at the cut block
            EXPECT_NE(std::string(e.what()).find(" truncated"), std::string::npos) << e.what();
        }
    }
}

TEST(Kraken, RandomCorruptionNeverCrashes) {
    std::vector<RawStream> inputs{{2000, from_hex(kT2)}, {2000, from_hex(kT3)}, {675, from_hex(kT4)}};
    for (const char* name : {"fromsoft/er_m10_00_00_00.emevd.dcx", "fromsoft/sekiro_spaar_item.msgbnd.dcx"})
        if (auto path = test::sample_or_report(name)) inputs.push_back(split_dcx(read_file(*path)));
    std::mt19937 rng(1234);
    int failures = 0, runs = 0;
    for (const RawStream& input : inputs) {
        for (int trial = 0; trial < 600; ++trial) {
            Bytes stream = input.stream;
            const int flips = 1 + trial % 4;
            for (int f = 0; f < flips; ++f) stream[rng() % stream.size()] ^= static_cast<std::uint8_t>(1 + rng() % 255);
            Bytes out(input.size);
            ++runs;
            try {
                kraken::decode(stream, out, 1);
            } catch (const Error&) {
                ++failures;
            }
        }
    }
    // Almost every flip is caught by the strict checks; the few that survive hit raw bytes.
    EXPECT_GT(failures, runs / 2);
}

TEST(KrakenCli, DecodeWithAndWithoutSizePrefix) {
    const auto dir = test::scratch_dir("kraken_cli");
    const Bytes stream = from_hex(kT4);
    Bytes prefixed{0xA3, 0x02, 0x00, 0x00};  // 675
    prefixed.insert(prefixed.end(), stream.begin(), stream.end());
    write_file_atomic(dir / "t4.kraken", prefixed);
    write_file_atomic(dir / "t4.raw", stream);
    const std::string bin = test::navlab_binary();
    std::string log;
    ASSERT_EQ(test::run_command(bin + " kraken decode " + (dir / "t4.kraken").string() + " " + (dir / "a.out").string(), &log), 0) << log;
    ASSERT_EQ(test::run_command(bin + " kraken decode --size 675 " + (dir / "t4.raw").string() + " " + (dir / "b.out").string(), &log), 0) << log;
    EXPECT_EQ(test::sha256_hex(read_file(dir / "a.out")), "0bc2bbdca24cfe09f63599ab7842984cc1efac57e6c73aecd33ed9ba411e91a3");
    EXPECT_EQ(read_file(dir / "a.out"), read_file(dir / "b.out"));
    // A wrong size fails with exit 1 and names the block.
    EXPECT_EQ(test::run_command(bin + " kraken decode --size 600 " + (dir / "t4.raw").string() + " " + (dir / "c.out").string(), &log), 1);
    EXPECT_NE(log.find("Kraken"), std::string::npos) << log;
    EXPECT_FALSE(std::filesystem::exists(dir / "c.out"));
}

// Errors in the size field (before any stream byte is read) name the file, the offset and the
// field, as the stream's own errors do; nothing is written.
TEST(KrakenCli, DecodeSizeFieldErrorsNameTheFile) {
    const auto dir = test::scratch_dir("kraken_cli_size");
    write_file_atomic(dir / "short.kraken", Bytes{0xA3, 0x02});
    Bytes too_large{0xFF, 0xFF, 0xFF, 0x7F};  // 2 GiB from the 675-byte stream of t4
    const Bytes stream = from_hex(kT4);
    too_large.insert(too_large.end(), stream.begin(), stream.end());
    write_file_atomic(dir / "large.kraken", too_large);
    const std::string bin = test::navlab_binary();
    for (const auto& [name, says] : {std::pair{"short.kraken", "shorter than its 4-byte size field"},
                                     std::pair{"large.kraken", "declared output size 2147483647"}}) {
        std::string log;
        EXPECT_EQ(test::run_command(bin + " kraken decode " + (dir / name).string() + " " + (dir / "x.out").string(), &log), 1);
        EXPECT_NE(log.find((dir / name).string()), std::string::npos) << log;
        EXPECT_NE(log.find("offset 0x0"), std::string::npos) << log;
        EXPECT_NE(log.find("output size"), std::string::npos) << log;
        EXPECT_NE(log.find(says), std::string::npos) << log;
        EXPECT_FALSE(std::filesystem::exists(dir / "x.out"));
    }
}
// `kraken encode`, `dcx compress` and `pack` (of a DCX_KRAK file) draw a progress line (blocks,
// MB/s, time left) on a terminal only: under a pseudo-terminal (util-linux `script`) it
// appears, with stderr a pipe the command prints its summary line alone.
TEST(KrakenCli, EncodeProgressLineOnlyOnATerminal) {
    const auto dir = test::scratch_dir("kraken_cli_progress");
    Bytes data(3 * 0x40000 + 77);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13);
    write_file_atomic(dir / "in.bin", data);
    // Each command in a script of its own, run in `dir`: no path is quoted twice (script -c
    // takes one shell string), and the binary's path is single-quoted once.
    auto quote = [](const std::string& s) {
        std::string q = "'";
        for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return q + "'";
    };
    const std::string bin = quote(test::navlab_binary());
    auto write_text = [](const std::filesystem::path& path, const std::string& text) {
        write_file_atomic(path, std::vector<std::uint8_t>(text.begin(), text.end()));
    };
    write_text(dir / "encode.sh", bin + " kraken encode --level 1 in.bin a.kraken\n");
    write_text(dir / "compress.sh", bin + " dcx compress --level 1 in.bin a.dcx\n");
    write_text(dir / "pack.sh", bin + " pack u c.dcx --level 1\n");
    const std::string in_dir = "cd " + quote(dir.string()) + " && ";
    std::string log;
    ASSERT_EQ(test::run_command(in_dir + "sh encode.sh", &log), 0) << log;
    EXPECT_EQ(log.find("kraken encode ["), std::string::npos) << log;
    EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << log;
    ASSERT_EQ(test::run_command(in_dir + "sh compress.sh", &log), 0) << log;
    EXPECT_EQ(log.find("dcx compress ["), std::string::npos) << log;
    EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << log;
    // The streams decode to the input.
    ASSERT_EQ(test::run_command(in_dir + bin + " kraken decode a.kraken a.out", &log), 0) << log;
    EXPECT_EQ(read_file(dir / "a.out"), data);
    ASSERT_EQ(test::run_command(in_dir + bin + " dcx decompress a.dcx b.out", &log), 0) << log;
    EXPECT_EQ(read_file(dir / "b.out"), data);
    // pack: the unpacked DCX_KRAK file packs back to the same bytes (same level, same encoder).
    ASSERT_EQ(test::run_command(in_dir + bin + " unpack a.dcx u", &log), 0) << log;
    ASSERT_EQ(test::run_command(in_dir + "sh pack.sh", &log), 0) << log;
    EXPECT_EQ(log.find("pack ["), std::string::npos) << log;
    EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << log;
    EXPECT_EQ(read_file(dir / "c.dcx"), read_file(dir / "a.dcx"));
    // stdin from /dev/null: a terminal as stdin could stop `script` (SIGTTOU) in a background job.
    if (test::run_command("script -qec true /dev/null </dev/null") != 0)
        GTEST_SKIP() << "no `script` (util-linux) for a pseudo-terminal";
    ASSERT_EQ(test::run_command(in_dir + "script -qec 'sh encode.sh' /dev/null </dev/null", &log), 0) << log;
    EXPECT_NE(log.find("kraken encode [##############################] 4/4"), std::string::npos) << log;
    ASSERT_EQ(test::run_command(in_dir + "script -qec 'sh compress.sh' /dev/null </dev/null", &log), 0) << log;
    EXPECT_NE(log.find("dcx compress [##############################] 4/4"), std::string::npos) << log;
    ASSERT_EQ(test::run_command(in_dir + "script -qec 'sh pack.sh' /dev/null </dev/null", &log), 0) << log;
    EXPECT_NE(log.find("pack [##############################] 4/4"), std::string::npos) << log;
    std::filesystem::remove_all(dir);
}

using namespace navlab::test::kraken_streams;

// Spec 2.6: multi-array sub-forms no sample contains (K = 0 and K = 1 via 0xC0 / 0xC1).
TEST(Kraken, MultiArraySingleSourceForms) {
    const Bytes k0 = single_chunk_stream(array(5, concat({{0xC0}, fill_array(2000, 'A')}), 2000));
    EXPECT_EQ(decode(k0, 2000), Bytes(2000, 'A'));
    // K = 1: one source, indexes 1 0, one length 2^10 + 976 (10 bits 1111010000, MSB-first).
    const Bytes k1 = single_chunk_stream(array(
        5, concat({{0xC1}, fill_array(2000, 'A'), {0x02, 0x00}, stored_array({1, 0}), stored_array({10}), {0xF4, 0x00}}),
        2000));
    EXPECT_EQ(decode(k1, 2000), Bytes(2000, 'A'));
    // 0x80 / 0x81: k = h & 0x7F < 2 is checked before the form split (spec 7.4 point 12).
    for (std::uint8_t h : {0x80, 0x81}) {
        Bytes bad = single_chunk_stream(array(5, concat({{h}, fill_array(2000, 'A')}), 2000));
        EXPECT_THROW(decode(bad, 2000), Error);
    }
}

// Spec 2.1: nesting is capped at 16 levels below the top-level array.
TEST(Kraken, RecursiveNestingDepthIsCapped) {
    auto nested = [](int levels) {
        Bytes a = fill_array(1000, 'A');
        std::size_t size = 1000;
        for (int i = 0; i < levels; ++i) {
            a = array(5, concat({{0x02}, a, stored_array({'B'})}), size + 1);
            ++size;
        }
        return std::pair{single_chunk_stream(a), size};
    };
    auto [ok, ok_size] = nested(16);
    Bytes expected(1016, 'B');  // 1000 'A' then 16 'B' (no growth: GCC 12's -Warray-bounds misfires on it)
    std::fill_n(expected.begin(), 1000, 'A');
    EXPECT_EQ(decode(ok, ok_size), expected);
    auto [deep, deep_size] = nested(40);
    try {
        decode(deep, deep_size);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("nested too deeply"), std::string::npos) << e.what();
    }
}

// Regression (UBSan "shift exponent 64" in BitReader::consume via unary()): a 10-byte
// Huffman form-C payload whose first unary value is 63 zeros ending on the payload's last
// bit. After the 16 table-header bits the byte-wise refill near the region end leaves 64
// bits buffered, so unary() saw z = 63 and consumed 64 bits in one shift. Hand-built from
// spec 2.3.3: payload 8F A8 = form C, F 0, n 251, range count 8 (R 4); then 00 x7, 01.
TEST(Kraken, UnaryValueEndingOnTheLastBufferedBit) {
    const Bytes stream = from_hex("8c0600000e20018c000a8fa80000000000000001");
    Bytes out(100);
    try {
        kraken::decode(stream, out, 1);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("unary value too large"), std::string::npos) << e.what();
    }
    // The reader itself: 8 bits, then a unary value of 63 that fills the whole 64-bit buffer.
    const std::uint8_t bytes[] = {0xFF, 0, 0, 0, 0, 0, 0, 0, 0x01};
    kraken::detail::MsbForward bits(bytes, sizeof bytes);
    EXPECT_EQ(bits.read(8), 0xFFu);
    std::uint8_t value[1 + kraken::detail::kUnaryRoomPast];
    const kraken::detail::Context ctx{bytes, bytes + sizeof bytes, nullptr};
    kraken::detail::read_unary_values(ctx, bytes, bits, value, 1);
    EXPECT_EQ(value[0], 63u);
    EXPECT_EQ(bits.consumed(), 72u);
}

// Spec 2.5, every command kind: random RLE command buffers built from a list of operations,
// decoded against the output the operations describe. Short copies and runs (the decoder's
// 16-byte path) mix with long ones over the whole range of their command bytes, the one-byte
// command 0 (copy 15) and fill changes; many buffers end with short commands within 32 bytes
// of the output's end (the exact path). The buffer is stored raw after a 0 byte, or as a
// stored nested array holding a part of it (the decoder's assembled buffer). The output lies
// inside a larger buffer whose bytes past it must stay untouched.
TEST(Kraken, RleCommandsOfEveryKindMatchTheirOperations) {
    std::mt19937 rng(25);
    auto pick = [&](unsigned lo, unsigned hi) { return std::uniform_int_distribution<unsigned>(lo, hi)(rng); };
    auto two_bytes = [](unsigned x) { return Bytes{static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(x >> 8)}; };
    int decoded = 0;
    for (int round = 0; round < 400; ++round) {
        Bytes front, back, expected;  // back: the commands in stream order, the last command first
        std::vector<Bytes> commands;
        std::uint8_t fill = 0;
        const unsigned ops = pick(1, 60);
        for (unsigned k = 0; k < ops; ++k) {
            unsigned copy = 0, run = 0;
            Bytes command;
            switch (pick(0, 10)) {
                case 0:  // new fill byte
                    fill = static_cast<std::uint8_t>(pick(0, 255));
                    front.push_back(fill);
                    commands.push_back({1});
                    continue;
                case 1: {  // long run: x = run / 128 + 0x8FF, command byte (x >> 8) 9 .. 15;
                    // bytes 9 to 11 (128 bytes to 65 KiB: 12 and up pass a chunk's output)
                    const unsigned x = (pick(9, 11) << 8) + pick(0, 7);
                    run = 128 * (x - 0x8FF);
                    command = two_bytes(x);
                    break;
                }
                case 2: {  // long copy: x = copy / 64 + 0x1FF, command byte 2 .. 8; bytes 2
                    // and, rarely (16 KiB of raw bytes a command), 3
                    const unsigned x = ((pick(0, 9) < 9 ? 2 : 3) << 8) + pick(0, 7);
                    copy = 64 * (x - 0x1FF);
                    command = two_bytes(x);
                    break;
                }
                case 3:
                case 4: {  // two-byte command: x - 0x1000 = copy | run << 6
                    copy = pick(0, 63), run = pick(0, 127);
                    command = two_bytes(0x1000 + (copy | run << 6));
                    break;
                }
                case 5:  // command 0: copy 15, run 0
                    copy = 15;
                    command = {0};
                    break;
                default:  // one-byte command: run = c >> 4 (3 .. 15), copy = 15 - (c & 15)
                    run = pick(3, 15), copy = pick(0, 15);
                    command = {static_cast<std::uint8_t>(run << 4 | (15 - copy))};
                    break;
            }
            if (expected.size() + copy + run > 0x20000) continue;  // an entropy-only chunk's output (spec 1.4)
            for (unsigned i = 0; i < copy; ++i) {
                const auto b = static_cast<std::uint8_t>(pick(0, 255));
                front.push_back(b), expected.push_back(b);
            }
            expected.insert(expected.end(), run, fill);
            commands.push_back(command);
        }
        if (expected.size() < 2) continue;
        for (auto c = commands.rbegin(); c != commands.rend(); ++c) back.insert(back.end(), c->begin(), c->end());
        const Bytes buffer = concat({front, back});
        // Odd rounds: the first part of the buffer in a stored nested array (spec 2.5: the
        // buffer is that array's bytes, then the payload's bytes after it).
        const std::size_t nested = round % 2 ? std::min<std::size_t>(buffer.size(), pick(1, 300)) : 0;
        const Bytes payload = nested ? concat({stored_array(Bytes(buffer.begin(), buffer.begin() + nested)),
                                               Bytes(buffer.begin() + nested, buffer.end())})
                                     : concat({{0x00}, buffer});
        if (payload.size() + 5 >= expected.size()) continue;  // a chunk must be smaller than its output (spec 1.4)
        const Bytes stream = single_chunk_stream(array(3, payload, expected.size()));
        Bytes out(expected.size() + 64, 0xEE);
        kraken::decode(stream, std::span(out).first(expected.size()), 1);
        ASSERT_TRUE(std::equal(expected.begin(), expected.end(), out.begin())) << "round " << round;
        ASSERT_EQ(std::count(out.begin() + static_cast<std::ptrdiff_t>(expected.size()), out.end(), 0xEE), 64) << "round " << round;
        ++decoded;
    }
    EXPECT_GT(decoded, 300);
}

namespace {

/// What decoding an LZ chunk should give: its output, or the error of the first bad command.
struct LzOutcome {
    Bytes out;
    std::string error;  ///< empty when the chunk decodes
};

/// Spec 3.7, byte by byte, with the decoder's order of checks per command (literals left,
/// literals and match inside the chunk, then the distance, >= 8 and inside the window).
/// `out` holds the 8 raw bytes and is the window (base 0); the chunk ends at `end`.
LzOutcome run_lz_reference(Bytes out, std::size_t end, const Bytes& literals,
                           const std::vector<test::kraken_streams::LzCommand>& commands, unsigned mode) {
    std::size_t p = 8, lit = 0;
    std::uint64_t recent[3] = {8, 8, 8};
    out.resize(end);
    auto copy_literals = [&](std::size_t n, std::uint64_t last) {
        for (std::size_t k = 0; k < n; ++k, ++p)
            out[p] = static_cast<std::uint8_t>(literals[lit++] + (mode == 0 ? out[p - last] : 0));
    };
    for (std::size_t i = 0; i < commands.size(); ++i) {
        const auto& c = commands[i];
        const std::string at = "LZ command " + std::to_string(i) + ": ";
        const std::uint64_t d = c.slot == 3 ? c.distance : recent[c.slot];
        if (c.lits > literals.size() - lit || c.lits > end - p) return {{}, at + "literal run past the literals or the chunk"};
        if (c.lits + c.match > end - p) return {{}, at + "match runs past the chunk"};
        if (d < 8 || d > p + c.lits) return {{}, at + "match distance outside the window"};
        copy_literals(c.lits, recent[0]);
        if (c.slot >= 2) recent[2] = recent[1];
        if (c.slot >= 1) recent[1] = recent[0];
        recent[0] = d;
        for (std::size_t k = 0; k < c.match; ++k, ++p) out[p] = out[p - d];
    }
    if (literals.size() - lit != end - p) return {{}, "trailing literals do not fill the chunk"};
    copy_literals(end - p, recent[0]);
    return {out, {}};
}

/// The scale of one of the distances' three forms (spec 3.5): legacy (form 0, scale 0), scaled
/// by 1, scaled by 2-128 with low bytes (form 2, the scale drawn from rng).
unsigned distance_scale(std::size_t form, std::mt19937& rng) {
    return form == 0 ? 0 : form == 1 ? 1 : static_cast<unsigned>(std::uniform_int_distribution<std::size_t>(2, 128)(rng));
}

Bytes random_bytes(std::size_t n, std::mt19937& rng) {
    Bytes b(n);
    for (auto& x : b) x = static_cast<std::uint8_t>(std::uniform_int_distribution<std::size_t>(0, 255)(rng));
    return b;
}

enum class LzTrial { skipped, decoded, failed };

/// Decodes one hand-built LZ chunk of `end` bytes (raw8, literals and commands; distances in
/// the form of `scale`) and checks it against run_lz_reference: the same bytes, or an error
/// naming the reference's. With tail > 0 a fill chunk of tail bytes follows, so the LZ chunk
/// ends before the write limit; else it ends the output. Skipped when the payload would not
/// be smaller than its output (a stored chunk).
LzTrial check_lz_chunk(const Bytes& raw8, std::size_t end, const Bytes& literals,
                       const std::vector<test::kraken_streams::LzCommand>& commands, unsigned mode, unsigned scale,
                       std::size_t tail, int trial) {
    const Bytes payload = test::kraken_streams::lz_chunk_payload(raw8, literals, commands, scale);
    if (payload.size() + 3 >= end) return LzTrial::skipped;
    Bytes chunks = test::kraken_streams::lz_chunk(payload, mode);
    if (tail) chunks = test::kraken_streams::concat({chunks, test::kraken_streams::fill_array(tail, 0x5A)});
    if (chunks.size() >= end + tail) return LzTrial::skipped;
    const Bytes stream = test::kraken_streams::one_quantum_stream(chunks);

    LzOutcome expected = run_lz_reference(raw8, end, literals, commands, mode);
    if (expected.error.empty()) expected.out.resize(end + tail, 0x5A);
    Bytes out(end + tail);
    try {
        kraken::decode(stream, out, 1);
        EXPECT_TRUE(expected.error.empty()) << "trial " << trial << " decoded; expected: " << expected.error;
        EXPECT_TRUE(out == expected.out) << "trial " << trial << ": bytes differ";
        return LzTrial::decoded;
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(expected.error.empty() ? "(no error)" : expected.error), std::string::npos)
            << "trial " << trial << ": " << e.what() << "; expected: " << (expected.error.empty() ? "no error" : expected.error);
        return LzTrial::failed;
    }
}

/// A hand-built LZ chunk for the long-match tests: its commands in order after 8 random raw
/// bytes, raw literals on odd trials and delta on even ones, a full 128 KiB chunk (followed by
/// a fill) on half of them, the distances in the form of `scale`.
struct LzChunkPlan {
    unsigned mode;
    bool full_chunk;
    unsigned scale;
    Bytes raw8;
    std::vector<test::kraken_streams::LzCommand> commands;
    std::size_t p = 8, lits_total = 0;  ///< the output's length so far, the literals taken

    LzChunkPlan(int trial, std::mt19937& rng)
        : mode(trial & 1), full_chunk(trial % 4 >= 2), scale(distance_scale((trial / 4) % 3, rng)), raw8(random_bytes(8, rng)) {}
    void add(std::size_t lits, std::size_t match, unsigned slot, std::uint64_t distance) {
        commands.push_back({lits, match, slot, distance});
        p += lits + match, lits_total += lits;
    }
    /// add() with the distance brought into 8 .. the window (p + lits).
    void add_within(std::size_t lits, std::size_t match, unsigned slot, std::uint64_t distance) {
        add(lits, match, slot, std::clamp<std::uint64_t>(distance, 8, p + lits));
    }
    /// Before the last match of n bytes: in a full chunk, a first match of distance 8 that
    /// fills the chunk up to it, so that it ends exactly at the chunk's end.
    void fill_before_last(std::size_t n) {
        if (!full_chunk) return;
        const std::size_t first_match = 0x20000 - p - n;
        commands.insert(commands.begin(), {0, first_match, 3, 8});
        p += first_match;
    }
    /// The random literals of a chunk ending at `end` (>= p; the ones past p trail the last match).
    Bytes literals(std::size_t end, std::mt19937& rng) const {
        Bytes out(lits_total + end - p);
        for (auto& b : out) b = static_cast<std::uint8_t>(std::uniform_int_distribution<std::size_t>(0, 255)(rng));
        return out;
    }
    /// check_lz_chunk of the chunk ending at `end`, with a fill of 2-200 bytes after a full chunk.
    LzTrial check(std::size_t end, int trial, std::mt19937& rng) const {
        const Bytes lits = literals(end, rng);
        const std::size_t tail = full_chunk ? std::uniform_int_distribution<std::size_t>(2, 200)(rng) : 0;
        return check_lz_chunk(raw8, end, lits, commands, mode, scale, tail, trial);
    }
};

}  // namespace

// The command loop's fast path (wide copies, its bounds folded into two comparisons) against
// a byte-wise reference of spec 3.7, on hand-built LZ chunks (independent of the encoder):
// literal runs of 0-257 and matches of 2-271 bytes at distances from 8 to the window (each
// distance form of spec 3.5; up to 200 commands a chunk, so the distances' pairs on word
// cursors, read_distances, run, then the checked readers' pairs), raw and delta literals,
// and hostile commands near the ends of the literals, the chunk and the
// window (runs and matches past them, distances one past the window or below 8). Half the streams are a
// small chunk that ends the output (the chunk's end is the write limit, literals little more
// than 16 bytes from the end of the stream), half a full 128 KiB chunk followed by a filled one
// (the chunk ends before the write limit). Each decodes to the reference's bytes or fails with
// its error at the same command.
TEST(Kraken, HandBuiltLzCommandsMatchAByteReference) {
    using test::kraken_streams::LzCommand;
    std::mt19937 rng(37);
    auto pick = [&](std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(rng); };
    int errors = 0, decoded = 0;
    for (int trial = 0; trial < 1500; ++trial) {
        const unsigned mode = trial & 1;
        const bool full_chunk = trial % 4 >= 2;
        // What is wrong with the stream, if anything: 0-5 nothing, 6 one distance past the
        // window, 7 the chunk ends early (or the last match runs past it), 8 literals missing,
        // 9 one distance below 8 (the scaled forms; the legacy form cannot code one, so it
        // gets one past the window).
        const std::size_t hostile = pick(0, 9);
        const unsigned scale = distance_scale((trial / 8) % 3, rng);
        const Bytes raw8 = random_bytes(8, rng);
        std::vector<LzCommand> commands;
        std::size_t p = 8, lits_total = 0;
        if (full_chunk) {  // most of the chunk from one long match, the rest random
            const std::size_t first_match = 0x20000 - 8 - pick(600, 4000);
            commands.push_back({0, first_match, 3, 8});
            p += first_match;
        }
        const std::size_t count = pick(1, trial % 8 == 1 ? 200 : 24);
        const std::size_t bad_distance_at = hostile == 6 || hostile == 9 ? pick(0, count - 1) : count;
        for (std::size_t n = 0; n < count && (!full_chunk || p + 600 < 0x20000); ++n) {
            const std::size_t r = pick(0, 99);
            const std::size_t lits = r < 50 ? pick(0, 2) : r < 85 ? pick(3, 20) : pick(21, 257);
            const std::size_t q = pick(0, 99);
            const std::size_t match = q < 55 ? pick(2, 16) : q < 80 ? pick(17, 48) : pick(49, 271);
            const std::size_t window = p + lits;  // the largest distance allowed
            const std::size_t h = pick(0, 99);
            const std::uint64_t distance = n == bad_distance_at ? (hostile == 9 && scale > 0 ? pick(0, 7) : window + pick(1, 4))
                                           : h < 5              ? window
                                                                : pick(8, std::min<std::size_t>(window, h < 60 ? 64 : 1 << 20));
            const unsigned slot = n == bad_distance_at ? 3 : static_cast<unsigned>(pick(0, 5) < 3 ? pick(0, 2) : 3);
            commands.push_back({lits, match, slot, distance});
            p += lits + match, lits_total += lits;
        }
        std::size_t end = p + pick(0, 40);
        if (full_chunk) {  // a last command up to 0-40 bytes before the chunk's end
            end = 0x20000;
            const std::size_t lits = pick(0, 20), match = end - p - lits - pick(0, 40);
            commands.push_back({lits, match + (hostile == 7 ? pick(1, 60) : 0), 0, 0});
            p += lits + match, lits_total += lits;
        } else if (hostile == 7) {
            end -= std::min(end - 9, pick(1, 80));
        }
        Bytes literals(lits_total + (end > p ? end - p : 0));
        for (auto& b : literals) b = static_cast<std::uint8_t>(pick(0, 255));
        if (hostile == 8) literals.resize(literals.size() - std::min(literals.size(), pick(1, 30)));
        const LzTrial result = check_lz_chunk(raw8, end, literals, commands, mode, scale, full_chunk ? pick(2, 200) : 0, trial);
        decoded += result == LzTrial::decoded, errors += result == LzTrial::failed;
    }
    EXPECT_GT(decoded, 400);
    EXPECT_GT(errors, 150);
}

// Long matches near their own length in distance against the byte reference of spec 3.7:
// matches of 48-300 bytes at d = n - 1, n, n + 1 (the overlapping and non-overlapping sides
// of copy_long_match's test), d = n +- 2, 16-63 (overlapping, 16-byte steps) and anywhere
// in the window, after a run of random literals (so that a block copied from the wrong place
// shows). Half the chunks end the output (the last match 0-40 bytes before it: the fast path
// up to 32, the byte loop within), half end a full 128 KiB chunk with a fill chunk of 2-200
// bytes after it (the last match ends exactly at the chunk's end, on the fast path when the
// fill leaves it 32 bytes of room). Each decodes to the
// reference's bytes.
TEST(Kraken, LongMatchesAroundTheirLengthMatchAByteReference) {
    std::mt19937 rng(40);
    auto pick = [&](std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(rng); };
    int decoded = 0;
    for (int trial = 0; trial < 600; ++trial) {
        LzChunkPlan chunk(trial, rng);
        chunk.add(pick(300, 400), 2, 3, 8);  // random bytes to copy from
        const std::size_t count = pick(1, 16);
        for (std::size_t k = 0; k < count; ++k) {
            const std::size_t lits = pick(0, 3) == 0 ? pick(1, 20) : 0;
            const std::size_t n = pick(0, 3) == 0 ? pick(48, 70) : pick(48, 300);
            const std::size_t kind = pick(0, 5);
            chunk.add_within(lits, n, 3,
                             kind == 0   ? n - 1
                             : kind == 1 ? n
                             : kind == 2 ? n + 1
                             : kind == 3 ? pick(n - 2, n + 2)
                             : kind == 4 ? pick(16, 63)
                                         : pick(8, chunk.p + lits));
        }
        // The last long match: at the chunk's end after a fill of the chunk (one match of
        // distance 8 first), or 0-40 bytes before the output's end.
        const std::size_t n = pick(48, 300);
        const std::size_t gap = chunk.full_chunk ? 0 : pick(0, 40);
        chunk.fill_before_last(n);
        chunk.add(0, n, 3, pick(0, 1) ? n : pick(n - 2, n + 2));
        decoded += chunk.check(chunk.p + gap, trial, rng) == LzTrial::decoded;
    }
    EXPECT_GT(decoded, 550);
}

// The command loop's wide-first match copies (copy_match_fast<true>: bytes 16-47 copied
// whatever the length at d >= 48, in chunks where two fifths or more of the commands have
// matches above 16 bytes) and the branch-free unpacking of the packed lengths
// (unpack_lengths) against the byte reference of spec 3.7: chunks with 10 %, 50 % or 90 % of
// such matches (so both copy paths run), distances of 8-15, 16-47, 47-49, 48-64, anywhere in
// the window or a recent one, matches of 2-16, 17-48, 49-64, 65-271 and 272-1,000 bytes and
// literal runs of 258-400 (the last two through long lengths, many a chunk), raw and delta
// literals, chunks that end the output or a full 128 KiB chunk before a fill. Every tenth
// chunk codes one long length fewer or more than its packed lengths use: it fails with the
// count's error.
TEST(Kraken, WideMatchCopiesAndLongLengthsMatchAByteReference) {
    namespace ks = test::kraken_streams;
    std::mt19937 rng(41);
    auto pick = [&](std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(rng); };
    int decoded = 0, count_errors = 0;
    for (int trial = 0; trial < 600; ++trial) {
        const std::size_t long_share = trial / 12 % 3 == 0 ? 10 : trial / 12 % 3 == 1 ? 50 : 90;  // per cent
        const int bias = trial % 10 != 9 ? 0 : trial / 10 % 2 ? 1 : -1;
        LzChunkPlan chunk(trial, rng);
        chunk.add(pick(64, 100), 2, 3, 8);  // random bytes to copy from
        const std::size_t count = pick(20, 150);
        for (std::size_t k = 0; k < count && chunk.p + 3000 < 0x20000; ++k) {
            const std::size_t r = pick(0, 99), q = pick(0, 99);
            const std::size_t lits = r < 60 ? pick(0, 2) : r < 90 ? pick(3, 20) : pick(258, 400);
            const std::size_t match = pick(0, 99) >= long_share ? pick(2, 16)
                                      : q < 50                  ? pick(17, 48)
                                      : q < 70                  ? pick(49, 64)
                                      : q < 90                  ? pick(65, 271)
                                                                : pick(272, 1000);
            const std::size_t kind = pick(0, 5);
            const std::uint64_t d = kind == 0 ? pick(8, 15) : kind == 1 ? pick(16, 47) : kind == 2 ? pick(47, 49)
                                    : kind == 3 ? pick(48, 64) : pick(8, chunk.p + lits);
            chunk.add_within(lits, match, kind == 5 ? static_cast<unsigned>(pick(0, 2)) : 3, d);
        }
        const std::size_t n = pick(2, 300);  // the last match, at the chunk's end or 0-40 bytes before it
        const std::size_t gap = chunk.full_chunk ? 0 : pick(0, 40);
        chunk.fill_before_last(n);
        chunk.add(0, n, 3, std::min<std::uint64_t>(pick(8, 600), chunk.p));
        const std::size_t end = chunk.p + gap;
        if (bias == 0) {
            decoded += chunk.check(end, trial, rng) == LzTrial::decoded;
            continue;
        }
        const Bytes literals = chunk.literals(end, rng);
        const std::size_t tail = chunk.full_chunk ? pick(2, 200) : 0;
        const Bytes payload = ks::lz_chunk_payload(chunk.raw8, literals, chunk.commands, chunk.scale, bias);
        ASSERT_LT(payload.size() + 3, end) << "trial " << trial;
        Bytes chunks = ks::lz_chunk(payload, chunk.mode);
        if (tail) chunks = ks::concat({chunks, ks::fill_array(tail, 0x5A)});
        Bytes out(end + tail);
        try {
            kraken::decode(ks::one_quantum_stream(chunks), out, 1);
            ADD_FAILURE() << "trial " << trial << " decoded with a long-length count off by " << bias;
        } catch (const Error& e) {
            const char* expected = bias < 0 ? "more long lengths used than coded" : "long lengths left unused";
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << "trial " << trial << ": " << e.what();
            ++count_errors;
        }
    }
    EXPECT_GT(decoded, 500);
    EXPECT_EQ(count_errors, 60);
}

// unpack_lengths (spec 3.4: a packed length is its byte + 3, a 255 adds the next long
// length) against a plain reading, on its AVX-512 loop (where the processor has it) and on
// the scalar one: 0-300 lengths (whole 16-length steps and the rest), none to all of them 255,
// long lengths up to 2^20 - 1, in vectors of exactly `count` slots (so ASan sees any read
// past them); also the number of long lengths used.
TEST(Kraken, UnpackedLengthsEqualAPlainReading) {
    std::mt19937 rng(46);
    auto pick = [&](unsigned lo, unsigned hi) { return std::uniform_int_distribution<unsigned>(lo, hi)(rng); };
    // Whatever way this test leaves (an ASSERT returns early), later tests get the AVX-512
    // loop back where the processor has it.
    struct Restore {
        ~Restore() { kraken::detail::allow_avx512_lengths(true); }
    } restore;
    for (const bool avx512 : {true, false}) {
        const bool on = kraken::detail::allow_avx512_lengths(avx512);
        if (avx512 && !on) std::printf("note: no AVX-512F here; both passes run the scalar loop\n");
        SCOPED_TRACE(on ? "AVX-512 loop" : "scalar loop");
        for (int trial = 0; trial < 600; ++trial) {
            const unsigned count = trial % 7 == 0 ? pick(0, 20) : pick(0, 300);
            const unsigned share = std::array<unsigned, 5>{0, 10, 50, 90, 100}[trial % 5];  // per cent of 255s
            std::vector<std::uint8_t> packed(count);
            std::vector<std::uint32_t> long_lengths(count), lengths(count), expected(count);
            for (auto& v : packed) v = static_cast<std::uint8_t>(pick(1, 100) <= share ? 255 : pick(0, 254));
            for (auto& v : long_lengths) v = pick(0, (1u << 20) - 1);
            std::size_t next = 0;
            for (unsigned i = 0; i < count; ++i) expected[i] = packed[i] + 3u + (packed[i] == 255 ? long_lengths[next++] : 0);
            const std::size_t used = kraken::detail::unpack_lengths(packed.data(), count, long_lengths.data(), lengths.data());
            ASSERT_EQ(lengths, expected) << "trial " << trial << ", " << count << " lengths";
            ASSERT_EQ(used, next) << "trial " << trial;
        }
    }
}

// Huffman form C's code lengths (spec 2.3.3: length = delta + sum / 4 + 1 over a running sum
// of zigzag deltas from 30, each delta's value a unary prefix then suffix_bits raw bits, all
// suffixes after all prefixes) against a plain reading bit by bit, on the AVX-512 loop (where
// the processor has it) and on the scalar one: 2-256 lengths (whole 16-length steps and the
// rest), every suffix width, prefixes small (lengths in range) or anywhere (out of range,
// sums far below 0), suffix streams long or cut short (bits past the end read as 0). Checks
// the lengths, the out-of-range answer, the bits consumed and the next bits after them;
// prefixes and streams in vectors of exactly their size, so ASan sees any read past them.
TEST(Kraken, FormCLengthsEqualAPlainReading) {
    std::mt19937 rng(47);
    auto pick = [&](unsigned lo, unsigned hi) { return std::uniform_int_distribution<unsigned>(lo, hi)(rng); };
    struct Restore {
        ~Restore() { kraken::detail::allow_avx512_huffman_tables(true); }
    } restore;
    int out_of_range_seen = 0;
    for (const bool avx512 : {true, false}) {
        const bool on = kraken::detail::allow_avx512_huffman_tables(avx512);
        if (avx512 && !on) std::printf("note: no AVX-512F here; both passes run the scalar loop\n");
        SCOPED_TRACE(on ? "AVX-512 loop" : "scalar loop");
        for (int trial = 0; trial < 3000; ++trial) {
            const unsigned n = trial % 5 == 0 ? pick(2, 40) : pick(2, 256), suffix_bits = trial % 4;
            const unsigned stream_bytes = trial % 7 == 0 ? pick(0, n * suffix_bits / 8 + 1) : n * suffix_bits / 8 + pick(1, 12);
            Bytes stream(stream_bytes);
            for (auto& b : stream) b = static_cast<std::uint8_t>(pick(0, 255));
            std::vector<std::uint8_t> prefixes(n);
            if (trial % 2 == 0) {
                // A valid table: lengths 1-11 chosen, each delta's value split into its prefix and
                // its suffix bits, which are written MSB first over the random stream.
                int s = 30;
                for (unsigned i = 0, at = 0; i < n; ++i) {
                    const int delta = static_cast<int>(pick(1, 11)) - 1 - static_cast<int>(std::floor(s / 4.0));
                    s += delta;
                    const unsigned v = delta < 0 ? 2u * static_cast<unsigned>(-delta) - 1 : 2u * static_cast<unsigned>(delta);
                    prefixes[i] = static_cast<std::uint8_t>(v >> suffix_bits);
                    for (unsigned b = suffix_bits; b-- > 0; ++at)
                        if (at / 8 < stream.size()) stream[at / 8] = static_cast<std::uint8_t>((stream[at / 8] & ~(0x80u >> at % 8)) | (v >> b & 1u) << (7 - at % 8));
                }
            } else {
                const unsigned spread = std::array<unsigned, 4>{1, 3, 8, 255}[trial / 4 % 4];
                for (auto& p : prefixes) p = static_cast<std::uint8_t>(pick(0, spread));
            }
            // The plain reading: bit k of the stream is bit 7 - k % 8 of byte k / 8 (MSB first), 0 past the end.
            auto bit = [&](std::size_t k) { return k / 8 < stream.size() ? stream[k / 8] >> (7 - k % 8) & 1u : 0u; };
            std::vector<std::uint8_t> expected(n);
            bool expected_bad = false;
            std::size_t at = 0;
            int sum = 30;
            for (unsigned i = 0; i < n; ++i) {
                unsigned v = prefixes[i];
                for (unsigned b = 0; b < suffix_bits; ++b) v = v << 1 | bit(at++);
                const int delta = (v & 1) ? -static_cast<int>((v + 1) / 2) : static_cast<int>(v / 2);
                const int len = delta + static_cast<int>(std::floor(sum / 4.0)) + 1;
                sum += delta;
                expected_bad |= len < 1 || len > 11;
                expected[i] = static_cast<std::uint8_t>(len & 0xFF);
            }
            kraken::detail::MsbForward bits(stream.data(), stream.size());
            std::vector<std::uint8_t> lengths(n);
            const bool bad = kraken::detail::form_c_code_lengths(suffix_bits, prefixes.data(), bits, n, lengths.data());
            ASSERT_EQ(lengths, expected) << "trial " << trial << ", " << n << " lengths, " << suffix_bits << " suffix bits";
            ASSERT_EQ(bad, expected_bad) << "trial " << trial;
            ASSERT_EQ(bits.consumed(), at) << "trial " << trial;
            unsigned next = 0;
            for (unsigned b = 0; b < 13; ++b) next = next << 1 | bit(at + b);
            ASSERT_EQ(bits.read(13), next) << "trial " << trial;
            out_of_range_seen += bad;
        }
    }
    EXPECT_GT(out_of_range_seen, 1000);
    EXPECT_LT(out_of_range_seen, 4000);  // the valid tables (half) pass unless their stream was cut short
}

// The Huffman table build's sort of the symbols by code length (spec 2.3.5: canonical order
// is by length, then by the table's order) against std::stable_sort, on the VBMI2 loop (where
// the processor has it) and on the scalar one: 2-256 symbols (whole 64-symbol blocks and the
// rest), repeated or distinct, lengths 1-11 spread over all, a few, or one length; the counts
// per length too. Inputs in vectors of exactly n bytes (the loop's masked loads read no more).
TEST(Kraken, CodeLengthSortEqualsAStableSort) {
    std::mt19937 rng(4747);
    auto pick = [&](unsigned lo, unsigned hi) { return std::uniform_int_distribution<unsigned>(lo, hi)(rng); };
    struct Restore {
        ~Restore() { kraken::detail::allow_avx512_huffman_tables(true); }
    } restore;
    if (!cpu_has_avx512_vbmi2()) std::printf("note: no AVX-512 VBMI2 here; both passes run the scalar sort\n");
    for (const bool avx512 : {true, false}) {
        kraken::detail::allow_avx512_huffman_tables(avx512);
        SCOPED_TRACE(avx512 ? "VBMI2 loop if the processor has it" : "scalar loop");
        for (int trial = 0; trial < 3000; ++trial) {
            const unsigned n = trial % 5 == 0 ? pick(2, 70) : pick(2, 256);
            const unsigned lo = pick(1, 11), hi = trial % 3 == 0 ? lo : pick(lo, 11);
            Bytes symbols(n), lengths(n);
            for (unsigned i = 0; i < n; ++i) {
                symbols[i] = static_cast<std::uint8_t>(trial % 2 ? i : pick(0, 255));
                lengths[i] = static_cast<std::uint8_t>(pick(lo, hi));
            }
            std::vector<std::pair<std::uint8_t, std::uint8_t>> pairs;  // (length, symbol)
            for (unsigned i = 0; i < n; ++i) pairs.emplace_back(lengths[i], symbols[i]);
            std::stable_sort(pairs.begin(), pairs.end(), [](auto& a, auto& b) { return a.first < b.first; });
            std::array<unsigned, 12> expected_count{};
            Bytes expected;
            for (auto& [len, sym] : pairs) ++expected_count[len], expected.push_back(sym);
            std::array<unsigned, 12> count;
            count.fill(999);
            Bytes sorted(kraken::detail::kSortedRoom);
            kraken::detail::sort_by_code_length(symbols.data(), lengths.data(), n, count.data(), sorted.data());
            ASSERT_EQ(count, expected_count) << "trial " << trial << ", " << n << " symbols";
            ASSERT_EQ(Bytes(sorted.begin(), sorted.begin() + n), expected) << "trial " << trial;
        }
    }
}

// The wide chunks' 64-byte block copies (copy_match_wide at d >= 64: the first 64 bytes
// whatever the length, then 64 bytes a step past n, so up to 63 bytes beyond the match) and
// the command loop's bounds on the pointers a command advances to, against the byte
// reference of spec 3.7: chunks where nine matches in ten are above 16 bytes, lengths at and
// around the block edges (63-65, 127-129, 191-193, up to 1,100 bytes), distances 62-66, n - 1,
// n, n + 1 (overlapping matches at d >= 64 take the blocks too), 48-63 and anywhere, each of the
// three recent slots; the chunk ending the output 0-70 bytes after the last match (inside and
// outside the 63 bytes of room) or a full 128 KiB chunk before a fill. Each decodes to the
// reference's bytes.
TEST(Kraken, WideBlockCopiesMatchAByteReference) {
    std::mt19937 rng(42);
    auto pick = [&](std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(rng); };
    auto length = [&] {
        const std::size_t r = pick(0, 9);
        if (r == 0) return pick(2, 16);
        if (r <= 6) return 64 * pick(1, 3) + pick(0, 2) - 1;  // 63-65, 127-129, 191-193
        return pick(r == 7 ? 17 : 66, r == 9 ? 1100 : 300);
    };
    int decoded = 0;
    for (int trial = 0; trial < 600; ++trial) {
        LzChunkPlan chunk(trial, rng);
        chunk.add(pick(130, 200), 2, 3, 8);  // random bytes to copy from
        const std::size_t count = pick(10, 80);
        for (std::size_t k = 0; k < count && chunk.p + 3000 < 0x20000; ++k) {
            const std::size_t lits = pick(0, 2) == 0 ? pick(1, 20) : 0, n = length(), kind = pick(0, 6);
            const std::uint64_t d = kind == 0 ? pick(62, 66) : kind == 1 ? n - 1 : kind == 2 ? n : kind == 3 ? n + 1
                                    : kind == 4 ? pick(48, 63) : pick(8, chunk.p + lits);
            chunk.add_within(lits, n, kind == 6 ? static_cast<unsigned>(pick(0, 2)) : 3, d);
        }
        const std::size_t n = length();  // the last match, at the chunk's end or 0-70 bytes before it
        const std::size_t gap = chunk.full_chunk ? 0 : pick(0, 70);
        chunk.fill_before_last(n);
        chunk.add(0, n, 3, std::min<std::uint64_t>(pick(64, 600), chunk.p));
        decoded += chunk.check(chunk.p + gap, trial, rng) == LzTrial::decoded;
    }
    EXPECT_GT(decoded, 550);
}

// The wide chunks' near matches (copy_match_wide at d = 16-63: the first 64 bytes as four
// 16-byte steps in order whatever the length, each step reading bytes the steps before it
// wrote; then 16 bytes a step past 64) against the byte reference of spec 3.7: chunks where
// nine matches in ten are above 16 bytes, every distance of 16-63 and 64-66, lengths at the
// steps' edges (2-16, 47-49, 63-65, 79-81, 127-129, up to 400 bytes), recent slots, literal
// runs of 0-3 and some of 4-40 (raw and delta literals); the chunk ending the output 0-70
// bytes after the last near match (inside and outside the 63 bytes of room) or a full 128 KiB
// chunk before a fill. Each decodes to the reference's bytes.
TEST(Kraken, WideNearMatchesMatchAByteReference) {
    std::mt19937 rng(44);
    auto pick = [&](std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(rng); };
    auto length = [&] {
        const std::size_t r = pick(0, 9);
        if (r == 0) return pick(2, 16);
        if (r <= 5) return std::size_t{16} * std::array<std::size_t, 4>{3, 4, 5, 8}[pick(0, 3)] + pick(0, 2) - 1;
        return pick(17, r == 9 ? 400 : 128);
    };
    int decoded = 0;
    for (int trial = 0; trial < 600; ++trial) {
        LzChunkPlan chunk(trial, rng);
        chunk.add(pick(64, 100), 2, 3, 8);  // random bytes to copy from
        const std::size_t count = pick(10, 100);
        for (std::size_t k = 0; k < count && chunk.p + 3000 < 0x20000; ++k) {
            const std::size_t lits = pick(0, 4) == 0 ? pick(4, 40) : pick(0, 3), n = length(), kind = pick(0, 9);
            const std::uint64_t d = kind <= 6 ? pick(16, 63) : kind == 7 ? pick(64, 66) : pick(8, chunk.p + lits);
            chunk.add_within(lits, n, kind == 9 ? static_cast<unsigned>(pick(0, 2)) : 3, d);
        }
        const std::size_t n = length();  // the last match, at the chunk's end or 0-70 bytes before it
        const std::size_t gap = chunk.full_chunk ? 0 : pick(0, 70);
        chunk.fill_before_last(n);
        chunk.add(0, n, 3, pick(16, 63));
        decoded += chunk.check(chunk.p + gap, trial, rng) == LzTrial::decoded;
    }
    EXPECT_GT(decoded, 550);
}

// The whole-word refills of the Huffman loops and of the LZ distances (BitReader::Cursor,
// refill_word, take on a cursor): on regions of 0-40 bytes, LSB- and MSB-first, forward and
// backward, a cursor refilled as often as word_refills_left() allows and
// consuming 0-11 bits at a time five times a refill reads the same bits as the checked
// reader, never loads a byte outside its region, and hands back the same position.
template <class Reader>
void check_word_refills(std::mt19937& rng, bool backward) {
    for (std::size_t size = 0; size <= 40; ++size) {
        for (int trial = 0; trial < 30; ++trial) {
            Bytes region(size);
            for (auto& b : region) b = static_cast<std::uint8_t>(rng());
            Reader fast(region.data(), size), slow(region.data(), size);
            // Read a few bits with the checked reader first, so cursors start mid-word.
            for (unsigned n = static_cast<unsigned>(rng() % 20); n > 0; --n) {
                const unsigned k = static_cast<unsigned>(rng() % 12);
                fast.refill(), slow.refill();
                ASSERT_EQ(fast.take(k), slow.take(k));
            }
            // The decoder takes a cursor only when a refill is allowed (a byte-wise refill near
            // the end may have moved the reader past the region, where no address is valid).
            const std::size_t refills = fast.word_refills_left();
            if (refills == 0) {
                fast.refill(), slow.refill();
                ASSERT_EQ(fast.take(24), slow.take(24)) << size;
                continue;
            }
            typename Reader::Cursor c = fast.cursor();
            for (std::size_t r = 0; r < refills; ++r) {
                const std::uint8_t* lowest = backward ? c.next - 8 : c.next;
                ASSERT_GE(lowest, region.data()) << size;
                ASSERT_LE(lowest + 8, region.data() + size) << size;
                Reader::refill_word(c);
                ASSERT_GE(c.count, 56u);
                slow.refill();
                for (int s = 0; s < 5; ++s) {
                    const unsigned k = static_cast<unsigned>(rng() % 12);
                    ASSERT_EQ(Reader::take(c, k), slow.take(k)) << size;
                }
            }
            fast.resume(c);
            ASSERT_EQ(fast.consumed(), slow.consumed()) << size;
            fast.refill(), slow.refill();
            ASSERT_EQ(fast.take(24), slow.take(24)) << size;
        }
    }
}

TEST(Kraken, WholeWordRefillsReadTheCheckedReadersBits) {
    std::mt19937 rng(37);
    check_word_refills<kraken::detail::LsbForward>(rng, false);
    check_word_refills<kraken::detail::LsbBackward>(rng, true);
    check_word_refills<kraken::detail::MsbForward>(rng, false);
    check_word_refills<kraken::detail::MsbBackward>(rng, true);
}

// Hand-built Huffman-3 arrays (spec 2.3.5, 2.3.6) with form-B code-length tables written bit
// by bit here (spec 2.3.2) or form-C tables (2.3.3, the encoder's writer): random complete
// codes of every shape (two 1-bit codes, chains down to 11-bit codes, 2-256 symbols) over
// random symbol sets (scattered, one run, every other symbol: form C's range lists), every
// suffix width 0-3 (form-B length codes of up to 20 bits: a complete code cannot make the 21
// bits the table reader's one refill test covers, which only a damaged table's code one bit
// too long needs) and 1-400 symbols, each decoded and compared with the symbols written.
namespace {

/// Bits into bytes: MSB-first (the first bit in a byte's top bit) or LSB-first.
struct TestBitWriter {
    bool msb;
    Bytes bytes{};
    unsigned used = 0;
    /// v's low n bits, its highest first.
    void put(unsigned v, unsigned n) {
        for (unsigned k = n; k-- > 0;) {
            if (used % 8 == 0) bytes.push_back(0);
            if (v >> k & 1) bytes.back() |= static_cast<std::uint8_t>(msb ? 0x80u >> used % 8 : 1u << used % 8);
            ++used;
        }
    }
};

/// n (2..256) code lengths of a complete prefix code of at most 11 bits, by splitting leaves:
/// the longest one below 11 bits (a chain) or one at random.
std::vector<unsigned> random_complete_code(std::mt19937& rng, unsigned n, bool chain) {
    std::vector<unsigned> length{1, 1};
    while (length.size() < n) {
        std::size_t leaf = 0;
        if (chain) {
            for (std::size_t i = 0; i < length.size(); ++i)
                if (length[i] < 11 && (length[leaf] >= 11 || length[i] > length[leaf])) leaf = i;
        } else {
            do leaf = rng() % length.size();
            while (length[leaf] >= 11);
        }
        ++length[leaf];
        length.push_back(length[leaf]);
    }
    std::shuffle(length.begin(), length.end(), rng);
    return length;
}

/// The form-B table (spec 2.3.2) of `length` (per symbol, 0 = absent), padded to a byte.
Bytes form_b_table(const std::array<unsigned, 256>& length, unsigned suffix_bits) {
    TestBitWriter w{true};
    auto gamma2 = [&](unsigned g) {  // g >= 1: z zeros, then g + 1 in z + 2 bits
        const unsigned x = g + 1, z = static_cast<unsigned>(std::bit_width(x)) - 2;
        w.put(x, 2 * z + 2);
    };
    w.put(1, 2), w.put(suffix_bits, 2);
    bool skip_gap = length[0] != 0;
    w.put(skip_gap, 1);
    int average = 32;
    for (unsigned sym = 0;;) {
        if (!skip_gap) {
            unsigned next = sym;
            while (next < 256 && length[next] == 0) ++next;
            gamma2(next - sym);
            if ((sym = next) == 256) break;
        }
        skip_gap = false;
        unsigned end = sym;
        while (end < 256 && length[end] != 0) ++end;
        gamma2(end - sym);
        for (; sym < end; ++sym) {
            const int d = static_cast<int>(length[sym]) - ((average + 2) >> 2);
            const unsigned v = d >= 0 ? 2u * d : 2u * -d - 1;  // zigzag's inverse
            w.put(1, (v >> suffix_bits) + 1);                   // the zeros, then the 1
            w.put(v & ((1u << suffix_bits) - 1), suffix_bits);
            average = static_cast<int>(length[sym]) + ((3 * average + 2) >> 2);
        }
        if (sym == 256) break;
    }
    return w.bytes;
}

/// Appends a Huffman-3 payload (spec 2.3.6) to `array` (a code-length table of the complete
/// code `length`, per symbol, 0 = absent, in ascending symbol order): 1-400 random symbols
/// under canonical codes (spec 2.3.5), which it returns.
Bytes append_huffman3_streams(Bytes& array, const std::array<unsigned, 256>& length, std::mt19937& rng) {
    std::vector<unsigned> present;
    for (unsigned sym = 0; sym < 256; ++sym)
        if (length[sym] != 0) present.push_back(sym);
    // Canonical codes: by length, then table order, counting up MSB-first.
    std::vector<unsigned> order = present;
    std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return length[a] < length[b]; });
    std::array<unsigned, 256> codeword{};
    for (unsigned i = 0, c = 0; i < order.size(); ++i) {
        if (i > 0) c = (c + 1) << (length[order[i]] - length[order[i - 1]]);
        codeword[order[i]] = c;
    }
    // Symbol j goes to stream A, C, B for j mod 3 = 0, 1, 2 (spec 2.3.6); C runs backward.
    const std::size_t count = 1 + rng() % 400;
    Bytes symbols(count);
    TestBitWriter stream[3] = {{false}, {false}, {false}};  // A, B, C
    for (std::size_t j = 0; j < count; ++j) {
        symbols[j] = static_cast<std::uint8_t>(present[rng() % present.size()]);
        stream[j % 3 == 0 ? 0 : j % 3 == 1 ? 2 : 1].put(codeword[symbols[j]], length[symbols[j]]);
    }
    const std::size_t a_size = stream[0].bytes.size();
    array.push_back(static_cast<std::uint8_t>(a_size)), array.push_back(static_cast<std::uint8_t>(a_size >> 8));
    array.insert(array.end(), stream[0].bytes.begin(), stream[0].bytes.end());
    array.insert(array.end(), stream[1].bytes.begin(), stream[1].bytes.end());
    array.insert(array.end(), stream[2].bytes.rbegin(), stream[2].bytes.rend());
    return symbols;
}

}  // namespace

TEST(Kraken, HandBuiltHuffmanArraysDecodeToTheirSymbols) {
    std::mt19937 rng(40);
    for (int trial = 0; trial < 1500; ++trial) {
        const unsigned pick = rng() % 10;
        const unsigned n = pick == 0 ? 2 : pick == 1 ? 256 : 2 + rng() % 255;
        const std::vector<unsigned> code = random_complete_code(rng, n, trial % 3 == 0);
        // n present symbols in ascending order (the table's order), holding code[] in turn:
        // scattered, one run, or every other symbol.
        std::vector<unsigned> present(256);
        std::iota(present.begin(), present.end(), 0u);
        if (trial % 5 == 2) {
            present.erase(present.begin(), present.begin() + rng() % (257 - n));
        } else if (trial % 5 == 3 && n <= 128) {
            for (unsigned i = 0; i < 128; ++i) present[i] = 2 * i + trial % 2;
        } else {
            std::shuffle(present.begin(), present.end(), rng);
        }
        present.resize(n);
        std::sort(present.begin(), present.end());
        std::array<unsigned, 256> length{};
        for (unsigned i = 0; i < n; ++i) length[present[i]] = code[i];
        const unsigned suffix_bits = static_cast<unsigned>(trial / 2) % 4;
        Bytes array;
        if (trial % 2 == 0) {
            array = form_b_table(length, suffix_bits);
        } else {
            std::array<std::uint8_t, 256> lengths8{};
            for (unsigned i = 0; i < 256; ++i) lengths8[i] = static_cast<std::uint8_t>(length[i]);
            array = kraken::detail::huffman_form_c_table(lengths8, suffix_bits);
        }
        const Bytes symbols = append_huffman3_streams(array, length, rng);

        const kraken::detail::Context ctx{array.data(), array.data() + array.size(), nullptr};
        Bytes out(symbols.size() + 64);
        kraken::detail::decode_huffman(ctx, array.data(), array.size(), out.data(), symbols.size(), false);
        ASSERT_TRUE(std::equal(symbols.begin(), symbols.end(), out.begin())) << "trial " << trial;
    }
}

// Hostile code-length tables: the byte-at-a-time unary reader and form C's lengths against a
// reader taking the spec's fields a bit at a time (spec 2.2, 2.3.3). Form-C tables of random
// complete codes, damaged (bits flipped, runs of zeros written over them, cut short) or left
// whole, under random payload bytes; the decoder must give the slow reader's first error, or
// when the table is good, the symbols of a payload written under its code.
namespace {

/// MSB-first bits of a byte span, one at a time, 0 past its end (spec 0.1).
struct SlowBits {
    std::span<const std::uint8_t> bytes;
    std::size_t pos = 0;
    unsigned bit() {
        const unsigned v = pos / 8 < bytes.size() ? bytes[pos / 8] >> (7 - pos % 8) & 1 : 0;
        ++pos;
        return v;
    }
    unsigned read(unsigned n) {
        unsigned v = 0;
        while (n-- > 0) v = v << 1 | bit();
        return v;
    }
    /// A unary value (zeros, then a 1), or 256 for one of more than 255 zeros.
    unsigned unary() {
        unsigned v = 0;
        while (bit() == 0)
            if (++v > 255) return 256;
        return v;
    }
};

/// Form C's code lengths (per symbol, 0 = absent) read from the start of a Huffman array a bit
/// at a time; the error the decoder must report ("" for none) and the table's bits.
std::string slow_form_c(std::span<const std::uint8_t> array, std::array<unsigned, 256>& length, std::size_t& bits) {
    SlowBits in{array};
    in.read(2);
    const unsigned suffix_bits = in.read(2), n = in.read(8) + 1;
    if (n < 2) return "single-symbol table";
    unsigned R = 0;  // spec 2.2.1: truncated binary below x
    if (n < 256) {
        const unsigned x = 2 * std::min(257 - n, n), y = static_cast<unsigned>(std::bit_width(x - 1)), z = (1u << y) - x;
        const unsigned v = in.read(y - 1);
        R = v < z ? v : (v << 1 | in.bit()) - z;
    }
    std::vector<unsigned> u(n + R);
    for (unsigned& v : u)
        if ((v = in.unary()) > 255) return "unary value too large";
    std::vector<unsigned> value(n);
    for (unsigned i = 0; i < n; ++i) value[i] = u[i] << suffix_bits | in.read(suffix_bits);
    std::vector<unsigned> symbols;  // spec 2.2.3
    unsigned pos = 0, k = n;
    if (R % 2 == 1) {
        if (u[k] >= 8) return "leading gap code too long";
        pos = in.read(u[k] + 1) + (1u << (u[k] + 1)) - 1;
        ++k;
        if (pos >= 256) return "leading gap past symbol 255";
    }
    for (unsigned r = 0; r < R / 2; ++r, k += 2) {
        if (u[k] > 8) return "run code too long";
        const unsigned run = in.read(u[k]) + (1u << u[k]);
        if (u[k + 1] >= 8) return "gap code too long";
        const unsigned gap = in.read(u[k + 1] + 1) + (1u << (u[k + 1] + 1)) - 1;
        if (pos + run + gap >= 256 || symbols.size() + run >= n) return "run past symbol 255";
        for (unsigned j = 0; j < run; ++j) symbols.push_back(pos + j);
        pos += run + gap;
    }
    if (pos + (n - symbols.size()) > 256) return "final run past symbol 255";
    while (symbols.size() < n) symbols.push_back(pos++);
    length.fill(0);
    int average = 30;
    for (unsigned i = 0; i < n; ++i) {
        const int d = value[i] % 2 == 1 ? -static_cast<int>((value[i] + 1) / 2) : static_cast<int>(value[i] / 2);
        const int len = d + static_cast<int>(std::floor(average / 4.0)) + 1;
        if (len < 1 || len > 11) return "code length out of 1..11";
        length[symbols[i]] = static_cast<unsigned>(len);
        average += d;
    }
    bits = in.pos;
    if (bits > array.size() * 8) return "code-length table runs past the payload";
    unsigned kraft = 0;
    for (unsigned len : length) kraft += len != 0 ? 2048u >> len : 0;
    return kraft == 2048 ? "" : "do not form a complete prefix code";
}

}  // namespace

TEST(Kraken, HostileFormCTablesFailAsABitByBitReaderDoes) {
    std::mt19937 rng(41);
    std::map<std::string, int> seen;
    for (int trial = 0; trial < 6000; ++trial) {
        const unsigned pick = rng() % 10;
        const unsigned n = pick == 0 ? 2 : pick == 1 ? 256 : 2 + rng() % 255;
        const std::vector<unsigned> code = random_complete_code(rng, n, trial % 3 == 0);
        std::vector<unsigned> present(256);
        std::iota(present.begin(), present.end(), 0u);
        std::shuffle(present.begin(), present.end(), rng);
        std::array<std::uint8_t, 256> lengths8{};
        for (unsigned i = 0; i < n; ++i) lengths8[present[i]] = static_cast<std::uint8_t>(code[i]);
        Bytes table = kraken::detail::huffman_form_c_table(lengths8, rng() % 4);
        // The damage: bits flipped, a run of zeros (long unary values), or the table cut short.
        switch (trial % 4) {
            case 0: break;
            case 1:
                for (unsigned f = 1 + rng() % 3; f-- > 0;) table[rng() % table.size()] ^= static_cast<std::uint8_t>(1u << rng() % 8);
                table[0] = static_cast<std::uint8_t>((table[0] & 0x3F) | 0x80);  // still form C
                break;
            case 2: {
                const std::size_t at = 1 + rng() % table.size(), run = 1 + rng() % 40;
                table.resize(std::max(table.size(), at + run));
                std::fill_n(table.begin() + static_cast<std::ptrdiff_t>(at), run, std::uint8_t{0});
                break;
            }
            default: table.resize(1 + rng() % table.size()); break;
        }
        Bytes array = table;
        for (unsigned junk = rng() % 48; junk-- > 0;) array.push_back(static_cast<std::uint8_t>(rng() % 3 == 0 ? 0 : rng()));
        std::array<unsigned, 256> length{};
        std::size_t bits = 0;
        std::string expected = slow_form_c(array, length, bits);
        Bytes symbols;
        if (expected.empty()) {  // a good table (maybe another code): a payload under it
            array.resize((bits + 7) / 8);
            symbols = append_huffman3_streams(array, length, rng);
            ASSERT_EQ(slow_form_c(array, length, bits), "") << trial;
        }
        ++seen[expected];
        const kraken::detail::Context ctx{array.data(), array.data() + array.size(), nullptr};
        Bytes out(symbols.size() + 64);
        try {
            kraken::detail::decode_huffman(ctx, array.data(), array.size(), out.data(), symbols.size(), false);
            ASSERT_EQ(expected, "") << "trial " << trial;
            ASSERT_TRUE(std::equal(symbols.begin(), symbols.end(), out.begin())) << "trial " << trial;
        } catch (const Error& e) {
            ASSERT_NE(expected, "") << "trial " << trial << ": " << e.what();
            ASSERT_NE(std::string(e.what()).find(expected), std::string::npos) << "trial " << trial << ": " << e.what();
            ASSERT_EQ(e.offset(), 0u) << "trial " << trial;
        }
    }
    // Every outcome is met (the test's reach, not the decoder's behaviour).
    for (const char* outcome : {"", "unary value too large", "run code too long", "gap code too long",
                                "run past symbol 255", "final run past symbol 255", "code length out of 1..11",
                                "code-length table runs past the payload", "do not form a complete prefix code"})
        EXPECT_GT(seen[outcome], 0) << '"' << outcome << '"';
}

// read_unary_values, a stream byte at a time, against SlowBits on values of every size (most
// of 0-3 bits as in the game's tables; runs of 250-300 zeros, over the 255 limit or not;
// byte-aligned or not; values running past the region's end, which reads as zeros): the
// same values and bits consumed, or the error exactly when a value is above 255.
TEST(Kraken, UnaryValuesReadAByteAtATimeMatchABitByBitReader) {
    std::mt19937 rng(16);
    const std::uint8_t* none = nullptr;
    for (int trial = 0; trial < 20000; ++trial) {
        TestBitWriter w{true};
        const unsigned skip = rng() % 14;
        w.put(rng(), skip);
        const unsigned count = 1 + rng() % (trial % 3 == 0 ? 12 : 511);
        for (unsigned i = 0; i < count; ++i) {
            const unsigned kind = rng() % 64;
            const unsigned v = kind < 56 ? rng() % 4 : kind < 62 ? rng() % 20 : 250 + rng() % 10 * (trial % 7 == 0);
            for (unsigned z = v; z > 0; z -= std::min(z, 16u)) w.put(0, std::min(z, 16u));
            w.put(1, 1);
        }
        w.put(rng(), 16);
        Bytes bytes = w.bytes;
        if (trial % 5 == 0) bytes.resize(rng() % (bytes.size() + 1));  // values past the end
        SlowBits slow{bytes, skip};
        std::vector<unsigned> expected(count);
        unsigned first_bad = count;
        for (unsigned i = 0; i < count && first_bad == count; ++i)
            if ((expected[i] = slow.unary()) > 255) first_bad = i;
        kraken::detail::MsbForward fast(bytes.data(), bytes.size());
        fast.read(skip);
        std::uint8_t values[511 + kraken::detail::kUnaryRoomPast];
        const kraken::detail::Context ctx{bytes.data(), bytes.data() + bytes.size(), nullptr};
        try {
            kraken::detail::read_unary_values(ctx, none, fast, values, count);
            ASSERT_EQ(first_bad, count) << "trial " << trial;
            for (unsigned i = 0; i < count; ++i) ASSERT_EQ(values[i], expected[i]) << "trial " << trial << " value " << i;
            ASSERT_EQ(fast.consumed(), slow.pos) << "trial " << trial;
        } catch (const Error& e) {
            ASSERT_LT(first_bad, count) << "trial " << trial << ": " << e.what();
            ASSERT_NE(std::string(e.what()).find("unary value too large"), std::string::npos) << e.what();
        }
    }
}

// Form B's length codes (spec 2.3.2): a code of max_zeros = 20 >> suffix_bits zeros is the
// longest allowed, one more fails "length code too long", also when the zeros run past the
// table's end (which reads as zeros). Table: form B, the suffix width, symbol 0 present
// (skip_gap), a run of 2 symbols, then the first symbol's length code.
TEST(Kraken, FormBLengthCodesOfTooManyZerosFail) {
    for (unsigned suffix_bits = 0; suffix_bits < 4; ++suffix_bits) {
        const unsigned max_zeros = 20u >> suffix_bits;
        for (unsigned zeros : {max_zeros - 1, max_zeros, max_zeros + 1, max_zeros + 9}) {
            for (bool cut : {false, true}) {
                TestBitWriter w{true};
                w.put(1, 2), w.put(suffix_bits, 2), w.put(1, 1);
                w.put(3, 2);  // gamma2: no zeros, "11" = 3, a run of 2
                w.put(0, zeros);
                if (!cut) w.put(1, 1), w.put(0, suffix_bits), w.put(0xFFFF, 16);
                const Bytes table = w.bytes;
                const kraken::detail::Context ctx{table.data(), table.data() + table.size(), nullptr};
                Bytes out(64);
                try {
                    kraken::detail::decode_huffman(ctx, table.data(), table.size(), out.data(), 3, false);
                    FAIL() << "expected an error";
                } catch (const Error& e) {
                    const bool too_long = zeros > max_zeros || cut;
                    EXPECT_EQ(std::string(e.what()).find("length code too long") != std::string::npos, too_long)
                        << "suffix bits " << suffix_bits << ", zeros " << zeros << ", cut " << cut << ": " << e.what();
                }
            }
        }
    }
}
