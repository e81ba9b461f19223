// DCX: real samples against expected.json, compress/decompress round trips of every
// variant, exact header constants, and malformed input (truncation, lying sizes, bombs).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "codec/dcx.h"
#include "support/sha256.h"
#include "io/error.h"
#include "support/expect_error.h"
#include "io/file.h"
#include "io/shared_bytes.h"
#include "support/samples.h"

using namespace navlab;
using nlohmann::json;

namespace {

const char* const kSamples[] = {
    "bb_allmaterialbnd.mtdbnd.dcx",       "des_mtd.mtdbnd.dcx",
    "dsr_MtdPatch.mtdbnd.dcx",            "er_allmaterial_dlc01.matbinbnd.dcx",
    "er_m10_00_00_00.emevd.dcx",          "sekiro_allmaterialbnd.mtdbnd.dcx",
    "sekiro_m00_00_00_00.talkesdbnd.dcx", "sekiro_spaar_item.msgbnd.dcx",
    "er_allmaterial.matbinbnd.dcx",
};

json expected_json() {
    auto path = test::sample("fromsoft/expected.json");
    if (!path) return nullptr;
    std::ifstream in(*path);
    return json::parse(in);
}

std::uint64_t hexval(const json& j) { return std::stoull(j.get<std::string>(), nullptr, 16); }

/// A payload that compresses somewhat and crosses the 64 KiB (EDGE) and 256 KiB (KRAK) steps.
std::vector<std::uint8_t> mixed_payload(std::size_t n, unsigned seed = 1) {
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = (i / 512) % 3 == 0 ? static_cast<std::uint8_t>(rng()) : static_cast<std::uint8_t>(i * 7);
    return v;
}

std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t at) {
    return std::uint32_t(b[at]) << 24 | std::uint32_t(b[at + 1]) << 16 | std::uint32_t(b[at + 2]) << 8 | b[at + 3];
}
void put_be32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

}  // namespace

class DcxSample : public ::testing::TestWithParam<const char*> {};

TEST_P(DcxSample, DecompressesToExpectedSha256AndHeader) {
    const std::string name = GetParam();
    NAVLAB_REQUIRE_SAMPLE(path, "fromsoft/" + name);
    const json all = expected_json();
    ASSERT_FALSE(all.is_null());
    const json& x = all.at(name);
    const SharedBytes in = SharedBytes::map_file(path);
    ASSERT_EQ(test::sha256_hex(in.span()), x.at("sha256").get<std::string>());

    // The header alone is readable without any decoder.
    const dcx::Header h = dcx::read_header(in.span());
    const json& xd = x.at("dcx");
    EXPECT_EQ(std::string(h.codec, 4), xd.at("fmt").get<std::string>());
    EXPECT_EQ(h.version, hexval(xd.at("0x04")));
    EXPECT_EQ(h.field10, hexval(xd.at("0x10")));
    EXPECT_EQ(h.field14, hexval(xd.at("0x14")));
    EXPECT_EQ(h.level(), xd.at("level_0x30").get<int>());
    EXPECT_EQ(h.field34, hexval(xd.at("0x34")));
    EXPECT_EQ(h.field38, hexval(xd.at("0x38")));
    EXPECT_EQ(h.field40, hexval(xd.at("0x40")));
    EXPECT_EQ(h.dca_size, hexval(xd.at("dca_size")));
    EXPECT_EQ(h.uncompressed_size, xd.at("uncompressed_size").get<std::uint32_t>());
    EXPECT_EQ(h.compressed_size, xd.at("compressed_size").get<std::uint32_t>());
    EXPECT_TRUE(dcx::nonstandard_fields(h).empty()) << dcx::nonstandard_fields(h).front();

    const dcx::Decoded d = dcx::decompress(in.span());
    EXPECT_EQ(d.payload.size(), h.uncompressed_size);
    EXPECT_EQ(test::sha256_hex(d.payload), x.at("payload_sha256").get<std::string>());
    if (!xd.at("trailing_zero_pad").is_null()) {
        EXPECT_EQ(d.header.trailing_padding, xd.at("trailing_zero_pad").get<std::uint32_t>());
    }
}

TEST_P(DcxSample, RewriteKeepsVariantAndHeaderConstants) {
    const std::string name = GetParam();
    NAVLAB_REQUIRE_SAMPLE(path, "fromsoft/" + name);
    const SharedBytes in = SharedBytes::map_file(path);
    const dcx::Decoded d = dcx::decompress(in.span());
    const auto again = dcx::compress(d.payload, d.header.variant, &d.header);
    const dcx::Decoded back = dcx::decompress(again);
    EXPECT_EQ(back.payload, d.payload);
    EXPECT_EQ(back.header.variant, d.header.variant);
    // Every byte of the header except the compressed size is the original's.
    const auto orig = in.span();
    const std::size_t header_bytes = d.header.variant == dcx::Variant::Edge ? 0x4C + 0x24 : 0x4C;
    for (std::size_t i = 0; i < header_bytes; ++i) {
        if (i >= 0x20 && i < 0x24) continue;                                         // compressed size
        if (d.header.variant == dcx::Variant::Edge && i >= 0x4C + 0x20) continue;  // chunk records follow
        EXPECT_EQ(again[i], orig[i]) << "header byte " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Samples, DcxSample, ::testing::ValuesIn(kSamples),
                         [](const auto& info) {
                             std::string n = info.param;
                             for (char& c : n)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return n;
                         });

TEST(Dcx, DsrSampleRecompressesByteForByte) {
    // Spec §1.4: stock zlib level 9 reproduces the small DS1R sample exactly.
    NAVLAB_REQUIRE_SAMPLE(path, "fromsoft/dsr_MtdPatch.mtdbnd.dcx");
    const SharedBytes in = SharedBytes::map_file(path);
    const auto d = dcx::decompress(in.span());
    const auto again = dcx::compress(d.payload, d.header.variant, &d.header);
    EXPECT_TRUE(std::equal(again.begin(), again.end(), in.span().begin(), in.span().end()));
}

class DcxVariant : public ::testing::TestWithParam<dcx::Variant> {};

TEST_P(DcxVariant, CompressDecompressRoundTrips) {
    const dcx::Variant v = GetParam();
    for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{0x10000}, std::size_t{0x40000 + 77},
                             std::size_t{700000}}) {
        const auto payload = mixed_payload(size);
        const auto file = dcx::compress(payload, v);
        if (v != dcx::Variant::None) {
            EXPECT_TRUE(dcx::is_dcx(file));
        }
        const dcx::Decoded d = dcx::decompress(file);
        EXPECT_TRUE(std::ranges::equal(d.payload, payload)) << "size " << size;
        if (v != dcx::Variant::Zlib && v != dcx::Variant::None) {
            EXPECT_EQ(d.header.variant, v);
            EXPECT_TRUE(dcx::nonstandard_fields(d.header).empty()) << dcx::nonstandard_fields(d.header).front();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(All, DcxVariant, ::testing::ValuesIn(dcx::all_variants()),
                         [](const auto& info) { return std::string(dcx::variant_name(info.param)); });

TEST(Dcx, KrakWritesStoredBlocksWithExactHeader) {
    const auto payload = mixed_payload(0x40000 + 5);
    const auto file = dcx::compress(payload, dcx::Variant::Krak, nullptr, 0);  // Kraken level 0: stored
    // §1.2 constants for DCX_KRAK; sizes: 0x40005 payload, 2 blocks of CC 06 + data.
    const std::uint8_t expected[0x4C] = {
        'D', 'C', 'X', 0, 0, 1, 0x10, 0, 0, 0, 0, 0x18, 0, 0, 0, 0x24, 0, 0, 0, 0x44, 0, 0, 0, 0x4C,
        'D', 'C', 'S', 0, 0, 4, 0, 5, 0, 4, 0, 9, 'D', 'C', 'P', 0, 'K', 'R', 'A', 'K', 0, 0, 0, 0x20,
        6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 'D', 'C', 'A', 0, 0, 0, 0, 8};
    ASSERT_GE(file.size(), 0x4Cu);
    EXPECT_TRUE(std::equal(expected, expected + 0x4C, file.begin()));
    EXPECT_EQ(file[0x4C], 0xCC);
    EXPECT_EQ(file[0x4D], 0x06);
    EXPECT_EQ(file[0x4C + 2 + 0x40000], 0xCC);
    EXPECT_EQ(file[0x4C + 2 + 0x40000 + 1], 0x06);
    EXPECT_EQ(file.size() % 16, 0u);                         // zero-padded to 16
    EXPECT_EQ(file.size(), (0x4C + 0x40009 + 15) / 16 * 16);  // and no more
    EXPECT_TRUE(std::equal(payload.begin(), payload.begin() + 0x40000, file.begin() + 0x4E));
}

TEST(Dcx, DfltHeadersFollowTheVariantTable) {
    struct Row {
        dcx::Variant v;
        std::uint32_t version, f10, f14, level_word, f38;
    };
    const Row rows[] = {
        {dcx::Variant::Dflt_10000_24_9, 0x10000, 0x24, 0x2C, 0x09000000, 0},
        {dcx::Variant::Dflt_10000_44_9, 0x10000, 0x44, 0x4C, 0x09000000, 0},
        {dcx::Variant::Dflt_11000_44_8, 0x11000, 0x44, 0x4C, 0x08000000, 0},
        {dcx::Variant::Dflt_11000_44_9, 0x11000, 0x44, 0x4C, 0x09000000, 0},
        {dcx::Variant::Dflt_11000_44_9_15, 0x11000, 0x44, 0x4C, 0x09000000, 0x0F000000},
    };
    const auto payload = mixed_payload(5000);
    for (const auto& r : rows) {
        const auto file = dcx::compress(payload, r.v);
        EXPECT_EQ(be32(file, 0x04), r.version);
        EXPECT_EQ(be32(file, 0x10), r.f10);
        EXPECT_EQ(be32(file, 0x14), r.f14);
        EXPECT_EQ(be32(file, 0x30), r.level_word);
        EXPECT_EQ(be32(file, 0x38), r.f38);
        EXPECT_EQ(be32(file, 0x40), 0x00010100u);
        EXPECT_EQ(file[0x4C], 0x78);
        EXPECT_EQ(file[0x4D], 0xDA);                 // zlib level 9
        EXPECT_EQ(file.size(), 0x4C + be32(file, 0x20));  // DFLT: no padding
        EXPECT_EQ(dcx::decompress(file).header.variant, r.v);
    }
}

TEST(Dcx, ZstdFrameHasNoContentSize) {
    const auto payload = mixed_payload(100000);
    const auto file = dcx::compress(payload, dcx::Variant::Zstd);
    EXPECT_EQ(be32(file, 0x4C), 0x28B52FFDu);
    EXPECT_EQ(file[0x50] & 0xC0, 0);  // frame header: Frame_Content_Size_flag 0
    EXPECT_EQ(file.size() % 16, 0u);
    EXPECT_TRUE(std::ranges::equal(dcx::decompress(file).payload, payload));
}

TEST(Dcx, VariantNamesRoundTrip) {
    for (auto v : dcx::all_variants()) EXPECT_EQ(dcx::parse_variant_name(dcx::variant_name(v)), v);
    EXPECT_EQ(dcx::parse_variant_name("dcx_krak_6"), dcx::Variant::Krak);
    EXPECT_EQ(dcx::parse_variant_name("DCX_KRAK_9"), dcx::Variant::KrakMax);
    EXPECT_EQ(dcx::parse_variant_name("DFLT_11000_44_9_15"), dcx::Variant::Dflt_11000_44_9_15);
    EXPECT_EQ(dcx::parse_variant_name("zstd"), dcx::Variant::Zstd);
    EXPECT_THROW(dcx::parse_variant_name("DCX_LZMA"), Error);
}

// ---- malformed input ----------------------------------------------------------------

/// The offset a DCX/DCP file cut to `n` bytes must be reported at (spec §1 layouts): a cut
/// inside the big-endian header words names the word it cuts; a cut inside the EgdT records
/// names the chunk count; a cut inside the stream names the compressed size field (0x20 in
/// DCX, 0x28 in DCP), which is checked before any decoding starts.
std::uint64_t truncation_offset(const dcx::Header& h, std::size_t n) {
    const bool dcp = h.variant == dcx::Variant::DcpDflt || h.variant == dcx::Variant::DcpEdge;
    auto word = [&](std::size_t start) { return start + (n - start) / 4 * 4; };
    if (!dcp) {
        if (n < 0x4C + (h.variant == dcx::Variant::Edge ? 0x24 : 0)) return word(0);
        if (n < 0x44 + std::size_t{h.dca_size}) return 0x4C + 0x1C;  // EgdT records: the chunk count
        return 0x20;
    }
    const std::size_t data_start = h.variant == dcx::Variant::DcpEdge ? 0x30 : 0x2C;
    if (n < data_start) return word(0);
    const std::size_t dca = data_start + h.compressed_size;
    if (n < dca) return 0x28;
    if (n < dca + 8 + 0x20 || h.variant == dcx::Variant::DcpDflt) return word(dca);
    return dca + 8 + 0x18;  // EgdT records: the chunk count
}

TEST(DcxBadInput, TruncationAtEveryByteFailsAtTheExactField) {
    const auto payload = mixed_payload(3000);
    for (auto v : {dcx::Variant::Dflt_10000_44_9, dcx::Variant::Zstd, dcx::Variant::Edge, dcx::Variant::DcpDflt,
                   dcx::Variant::DcpEdge, dcx::Variant::Krak}) {
        const auto file = dcx::compress(payload, v);
        // KRAK and ZSTD pad the file to 16 after the stream; cutting only padding loses nothing.
        const dcx::Header h = dcx::read_header(file);
        const bool dcx_form = v != dcx::Variant::DcpDflt && v != dcx::Variant::DcpEdge;
        const std::size_t stream_end = dcx_form ? 0x44 + h.dca_size + h.compressed_size : file.size();
        for (std::size_t n = 4; n < file.size(); ++n) {  // shorter is not recognisable as DCX
            const Bytes cut(file.data(), n);
            try {
                dcx::decompress(cut);
                if (n < stream_end)
                    ADD_FAILURE() << dcx::variant_name(v) << " truncated to " << n << " bytes decoded";
            } catch (const Error& e) {
                EXPECT_EQ(e.offset(), truncation_offset(h, n)) << dcx::variant_name(v) << " cut at " << n << ": " << e.what();
            }
        }
    }
}

TEST(DcxBadInput, DeclaredSizeThatLiesIsRejected) {
    const auto payload = mixed_payload(5000);
    for (auto v : {dcx::Variant::Dflt_11000_44_9, dcx::Variant::Zstd, dcx::Variant::Edge}) {
        for (std::int64_t delta : {-1, 1, 4096}) {
            auto file = dcx::compress(payload, v);
            put_be32(file, 0x1C, static_cast<std::uint32_t>(payload.size() + delta));
            const Error e = test::expect_error([&] { dcx::decompress(file); });
            EXPECT_NE(e.offset(), kNoOffset) << e.what();
        }
    }
}

TEST(DcxBadInput, DecompressionBombIsRejectedBeforeAllocating) {
    for (auto v : {dcx::Variant::Dflt_11000_44_9, dcx::Variant::Zstd, dcx::Variant::Krak}) {
        auto file = dcx::compress(mixed_payload(100), v);
        put_be32(file, 0x1C, 0xFFFFFFF0u);  // claims 4 GiB from a few hundred bytes
        const Error e = test::expect_error([&] { dcx::decompress(file); });
        EXPECT_EQ(e.offset(), 0x1Cu) << e.what();
        EXPECT_NE(std::string(e.what()).find("decompression bomb"), std::string::npos) << e.what();
    }
    // EDGE: the chunk table must cover the size, 16 bytes per 64 KiB.
    auto edge = dcx::compress(mixed_payload(100), dcx::Variant::Edge);
    put_be32(edge, 0x1C, 0xFFFFFFF0u);
    EXPECT_NE(test::expect_error([&] { dcx::decompress(edge); }).offset(), kNoOffset);
}

TEST(DcxBadInput, CompressedSizeAndMagicsAreChecked) {
    const auto file = dcx::compress(mixed_payload(5000), dcx::Variant::Dflt_10000_44_9);
    struct Case {
        std::size_t at;
        std::uint32_t value;
        std::uint64_t offset;
    };
    const Case cases[] = {
        {0x20, 0xFFFFFFF0u, 0x20},  // compressed size past the end
        {0x20, 10, 0x4C},           // stream longer than declared: libdeflate stops at the cut
        {0x18, 0x44435358, 0x18},   // "DCSX"
        {0x24, 0x44435058, 0x24},   // "DCPX"
        {0x28, 0x4C5A4D41, 0x28},   // codec "LZMA"
        {0x44, 0x44434158, 0x44},   // "DCAX"
        {0x48, 9, 0x48},            // DCA size
    };
    for (const auto& c : cases) {
        auto bad = file;
        put_be32(bad, c.at, c.value);
        const Error e = test::expect_error([&] { dcx::decompress(bad); });
        EXPECT_EQ(e.offset(), c.offset) << "field at " << c.at << ": " << e.what();
    }
    auto trailing = file;
    trailing.push_back(0x55);
    EXPECT_EQ(test::expect_error([&] { dcx::decompress(trailing); }).offset(), file.size());
    auto corrupt = file;
    for (std::size_t i = 0x60; i < 0x80; ++i) corrupt[i] ^= 0xA5;
    EXPECT_NE(test::expect_error([&] { dcx::decompress(corrupt); }).offset(), kNoOffset);
}

TEST(DcxBadInput, RandomCorruptionNeverCrashes) {
    std::mt19937 rng(7);
    for (auto v : {dcx::Variant::Dflt_10000_24_9, dcx::Variant::Zstd, dcx::Variant::Edge, dcx::Variant::DcpEdge,
                   dcx::Variant::DcpDflt}) {
        const auto file = dcx::compress(mixed_payload(2000), v);
        for (int round = 0; round < 300; ++round) {
            auto bad = file;
            for (int k = 0; k < 3; ++k) bad[rng() % bad.size()] = static_cast<std::uint8_t>(rng());
            try {
                const auto d = dcx::decompress(bad);
                EXPECT_EQ(d.payload.size(), d.header.uncompressed_size);
            } catch (const Error& e) {
                // A located, explained error: an offset inside the file, printed first.
                EXPECT_LE(e.offset(), bad.size()) << e.what();
                EXPECT_TRUE(std::string(e.what()).starts_with("offset " + hex(e.offset()) + ": ")) << e.what();
                EXPECT_GT(e.message().size(), 10u) << e.what();
            }
        }
    }
}

TEST(DcxBadInput, EdgeChunkOutsideTheStreamIsNamedAtItsRecord) {
    // Found by RandomCorruptionNeverCrashes once it checked offsets: a corrupt EgdT chunk
    // offset was reported at the offset it claimed (0x9E000080, far past the file), not at
    // the record that holds it.
    for (auto v : {dcx::Variant::Edge, dcx::Variant::DcpEdge}) {
        SCOPED_TRACE(std::string(dcx::variant_name(v)));
        auto file = dcx::compress(mixed_payload(2000), v);
        const dcx::Header h = dcx::read_header(file);
        // The first chunk record: after the EgdT header (0x24 in DCX at 0x4C; 0x20 in DCP after
        // the stream and the 8-byte DCA chunk); its chunk-offset word follows a zero word.
        const std::size_t egdt = v == dcx::Variant::Edge ? 0x4C : 0x30 + h.compressed_size + 8;
        const std::size_t record = egdt + (v == dcx::Variant::Edge ? 0x24 : 0x20) + 4;
        ASSERT_EQ(be32(file, egdt), 0x45676454u);  // "EgdT"
        put_be32(file, record, 0x9E000000u);
        const Error e = test::expect_error([&] { dcx::decompress(file); });
        EXPECT_EQ(e.offset(), record) << e.what();
        EXPECT_TRUE(e.message().starts_with("EDGE chunk 0 at 0x9E000000 + ")) << e.what();
        EXPECT_NE(e.message().find("runs past the end of the compressed stream"), std::string::npos) << e.what();
    }
}
