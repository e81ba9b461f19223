// Hostile sizes: every declared count or size is checked against what the file can hold
// before anything is allocated; the worst cases of issue 12 each end in a located
// navlab::Error (or, for a legitimately huge output under a memory limit, a clear message
// and exit status 1 from the command — never a kill).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "codec/dcx.h"
#include "container/bnd4.h"
#include "io/error.h"
#include "support/expect_error.h"
#include "reliability/reliability_support.h"
#include "support/samples.h"

using namespace navlab;

namespace {

void put_be32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}
void put_le32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

std::vector<std::uint8_t> small_binder() {
    std::vector<bnd4::NewEntry> files;
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_001000.hkx"), 10000,
                     std::vector<std::uint8_t>(100, 0x41)});
    return bnd4::write(bnd4::build_navmesh_binder(std::move(files)));
}

}  // namespace

TEST(HostileSizes, Bnd4WithTwoToThe31Entries) {
    auto image = small_binder();
    put_le32(image, 0x0C, 0x80000000u);  // 2^31 as the signed count field
    Error e = test::expect_error([&] { bnd4::read(image); });
    EXPECT_EQ(e.offset(), 0x0Cu);
    EXPECT_EQ(e.message(), "file count -2147483648 is negative") << e.what();
    put_le32(image, 0x0C, 0x7FFFFFFFu);  // 2^31 - 1: a count the records cannot fit
    e = test::expect_error([&] { bnd4::read(image); });
    EXPECT_EQ(e.offset(), 0x0Cu);
    EXPECT_TRUE(e.message().starts_with("file count 2147483647 needs ")) << e.what();
}

TEST(HostileSizes, DcxDeclaringFourGiBIsRefusedBeforeAllocating) {
    const std::vector<std::uint8_t> payload(1000, 7);
    for (dcx::Variant v : {dcx::Variant::Dflt_11000_44_9, dcx::Variant::Zstd, dcx::Variant::Krak, dcx::Variant::DcpDflt}) {
        SCOPED_TRACE(std::string(dcx::variant_name(v)));
        auto file = dcx::compress(payload, v);
        const bool dcp = v == dcx::Variant::DcpDflt;
        put_be32(file, dcp ? 0x24 : 0x1C, 0xFFFFFFFFu);
        const Error e = test::expect_error([&] { dcx::decompress(file); });
        EXPECT_EQ(e.offset(), dcp ? 0x24u : 0x1Cu) << e.what();
        EXPECT_TRUE(e.message().starts_with("uncompressed size 4294967295 cannot come from ")) << e.what();
        EXPECT_NE(e.message().find("decompression bomb"), std::string::npos) << e.what();
    }
    // EDGE: the chunk table must describe the size first (16 bytes per 64 KiB), so a 4 GiB
    // claim fails on the table before any ratio check or allocation.
    for (dcx::Variant v : {dcx::Variant::Edge, dcx::Variant::DcpEdge}) {
        SCOPED_TRACE(std::string(dcx::variant_name(v)));
        auto file = dcx::compress(payload, v);
        const bool dcp = v == dcx::Variant::DcpEdge;
        put_be32(file, dcp ? 0x24 : 0x1C, 0xFFFFFFFFu);
        const Error e = test::expect_error([&] { dcx::decompress(file); });
        EXPECT_NE(e.offset(), kNoOffset) << e.what();
        EXPECT_LT(e.offset(), file.size()) << e.what();
        EXPECT_NE(e.message().find("EgdT"), std::string::npos) << e.what();
    }
}

TEST(HostileSizes, KrakenStreamExpandingOver1000TimesDecodes) {
    // 64 memset blocks: 384 stream bytes -> 16 MiB, a 43,690:1 ratio, valid and fast.
    const auto file = test::memset_krak_dcx(64, 0x5A);
    const auto start = std::chrono::steady_clock::now();
    const dcx::Decoded d = dcx::decompress(file);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(d.payload.size(), 64u << 18);
    EXPECT_TRUE(std::all_of(d.payload.begin(), d.payload.end(), [](std::uint8_t b) { return b == 0x5A; }));
    EXPECT_GT(d.payload.size() / d.header.compressed_size, 1000u);
    EXPECT_LT(seconds, 5.0);  // linear in the output, not a hang (loose: shared, sanitized machines)
}

TEST(HostileSizes, KrakenDeclaringMoreThanItsStreamCanHoldIsRefused) {
    // One byte more than 64 memset blocks can make: refused at the size field, unallocated.
    const auto file = test::memset_krak_dcx(64, 0x5A, (64u << 18) + 1);
    Error e = test::expect_error([&] { dcx::decompress(file); });
    EXPECT_EQ(e.offset(), 0x1Cu) << e.what();
    EXPECT_TRUE(e.message().starts_with("uncompressed size 16777217 cannot come from 384 compressed bytes")) << e.what();
    // Within the bound but more than the stream holds: the decoder runs out of blocks.
    const auto short_file = test::memset_krak_dcx(4, 0x5A, 5u << 18);
    e = test::expect_error([&] { dcx::decompress(short_file); });
    EXPECT_NE(e.offset(), kNoOffset) << e.what();
    EXPECT_LE(e.offset(), short_file.size()) << e.what();
}

TEST(HostileSizes, CommandUnderMemoryLimitFailsCleanly) {
    if (test::under_address_sanitizer()) GTEST_SKIP() << "ASan's shadow memory cannot run under ulimit -v";
    // 4,096 memset blocks (24 KiB) legitimately decode to 1 GiB: more than a 512 MiB limit.
    const auto dir = test::scratch_dir("ulimit_v");
    test::put_file(dir / "big.dcx", test::memset_krak_dcx(4096, 1));
    std::string out;
    const int status = test::run_command("ulimit -v 524288; exec " + test::navlab_binary() + " dcx decompress " +
                                             test::quoted(dir / "big.dcx") + " " + test::quoted(dir / "out.bin"),
                                         &out);
    EXPECT_EQ(status, 1) << out;  // exit status 1, not a signal (run_command gives -1 then)
    EXPECT_NE(out.find("navlab: out of memory"), std::string::npos) << out;
    EXPECT_FALSE(std::filesystem::exists(dir / "out.bin"));
    std::filesystem::remove_all(dir);
}
