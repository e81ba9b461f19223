// The compressed input given back as the decoder reads it (docs/audit.md, "Forty-sixth
// session"): a mapped file's pages leave and come back unchanged, KRAK and ZSTD decodes tell
// of their whole input in steps and hold few of the file's pages at any time, and the zstd
// frame read in steps decodes and fails exactly as libzstd's one-call decode does.
#include <gtest/gtest.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <numeric>
#include <random>

#include "codec/dcx.h"
#include "codec/stream_codecs.h"
#include "io/error.h"
#include "io/shared_bytes.h"
#include "support/resident_pages.h"

using namespace navlab;

namespace {

/// Random bytes, with runs every few KiB so that zstd makes compressed blocks, not only raw ones.
std::vector<std::uint8_t> payload(std::size_t n, unsigned seed, bool runs = true) {
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = runs && (i / 1024) % 4 == 0 ? static_cast<std::uint8_t>(i / 1024) : static_cast<std::uint8_t>(rng());
    return v;
}

/// `bytes` written to a new file under the test's temporary folder.
std::filesystem::path write_temp(const std::vector<std::uint8_t>& bytes, const std::string& name) {
    const auto path = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
}

std::size_t page_bytes() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

/// What libzstd's one-call decode of `frame` into `n` bytes gives: the bytes, or the error's
/// text as the DCX reader words it (the independent reference for the decode in steps).
std::string one_call_zstd(Bytes src, std::size_t n, std::vector<std::uint8_t>& out) {
    const std::size_t frame = ZSTD_findFrameCompressedSize(src.data(), src.size());
    if (ZSTD_isError(frame)) return std::string("corrupt or truncated zstd frame (") + ZSTD_getErrorName(frame) + ")";
    out.assign(n, 0);
    const std::size_t got = ZSTD_decompress(out.data(), n, src.data(), frame);
    if (ZSTD_getErrorCode(got) == ZSTD_error_dstSize_tooSmall) return "zstd frame decodes past the declared size of " + std::to_string(n) + " bytes";
    if (ZSTD_isError(got)) return std::string("corrupt zstd frame (") + ZSTD_getErrorName(got) + ")";
    if (got != n) return "zstd frame decodes to " + std::to_string(got) + " bytes but the declared size is " + std::to_string(n);
    return {};
}

std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t at) {
    return std::uint32_t(b[at]) << 24 | std::uint32_t(b[at + 1]) << 16 | std::uint32_t(b[at + 2]) << 8 | b[at + 3];
}
void put_be32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

/// A DCX_ZSTD file of `plain` whose frame is made at zstd level 1 (dcx::compress's level 21 is
/// slow on megabytes of random bytes): a small file's header with the sizes set, padded to 16.
std::vector<std::uint8_t> fast_zstd_dcx(const std::vector<std::uint8_t>& plain) {
    auto file = dcx::compress(std::vector<std::uint8_t>(16, 1), dcx::Variant::Zstd);
    const std::size_t start = 0x44 + be32(file, 0x48);
    file.resize(start);
    const auto frame = codec::zstd_compress(plain, 1, 16);
    put_be32(file, 0x1C, static_cast<std::uint32_t>(plain.size()));
    put_be32(file, 0x20, static_cast<std::uint32_t>(frame.size()));
    file.insert(file.end(), frame.begin(), frame.end());
    file.resize((file.size() + 15) / 16 * 16, 0);
    return file;
}

}  // namespace

TEST(InputRelease, AMappedFilesDroppedPagesLeaveAndComeBackUnchanged) {
    const auto bytes = payload(std::size_t(2) << 20, 3, false);
    const auto path = write_temp(bytes, "navlab-drop-pages");
    {
        const SharedBytes file = SharedBytes::map_file(path);
        ASSERT_TRUE(file.mapped());
        EXPECT_TRUE(file.slice(100, 5000).mapped());
        const std::uint64_t sum = std::accumulate(file.begin(), file.end(), std::uint64_t{0});  // touches every page
        const auto before = test::mapped_pages(file.data(), file.size());
        if (!before) GTEST_SKIP() << "/proc/self/pagemap cannot be read";
        const std::size_t pages = file.size() / page_bytes();
        EXPECT_GE(*before, pages);
        file.slice(4096, file.size() - 4096).drop_pages(0, file.size() - 4096);  // a slice's offsets are its own
        EXPECT_LE(*test::mapped_pages(file.data(), file.size()), 2u);              // the first page, at most
        file.drop_pages(file.size(), 1);                                           // outside: nothing, no crash
        EXPECT_EQ(std::accumulate(file.begin(), file.end(), std::uint64_t{0}), sum);
        EXPECT_TRUE(std::equal(file.begin(), file.end(), bytes.begin(), bytes.end()));
    }
    std::filesystem::remove(path);
    // Bytes that are not a mapped file's keep their contents (MADV_DONTNEED would zero them).
    const SharedBytes owned(payload(std::size_t(1) << 20, 4, false));
    EXPECT_FALSE(owned.mapped());
    owned.drop_pages(0, owned.size());
    EXPECT_TRUE(std::equal(owned.begin(), owned.end(), payload(std::size_t(1) << 20, 4, false).begin()));
}

TEST(InputRelease, ZstdInStepsDecodesAndFailsAsTheOneCallDecodeDoes) {
    const auto plain = payload(300000, 5);
    const auto frame = codec::zstd_compress(plain, 3, 16);
    ASSERT_GT(frame.size(), 20u * 4096);  // many steps of 4 KiB
    std::mt19937 rng(11);
    int decoded = 0, failed = 0;
    for (int round = 0; round < 400; ++round) {
        auto bad = frame;
        const int kind = round % 4;  // as made, bytes changed, cut short, or a declared size off by one
        if (kind == 1)
            for (int k = 0; k < 2; ++k) bad[rng() % bad.size()] = static_cast<std::uint8_t>(rng());
        if (kind == 2) bad.resize(rng() % bad.size());
        const std::size_t n = kind == 3 ? plain.size() + (round % 8 < 4 ? 1 : -1) : plain.size();
        std::vector<std::uint8_t> want;
        const std::string reference = one_call_zstd(bad, n, want);
        std::vector<std::uint8_t> got(n);
        std::string error;
        std::size_t told = 0;  // the steps tell of [0, told) in order, without gaps
        try {
            const std::size_t size = codec::zstd_frame_size(bad, 0x4C);
            codec::zstd_decompress_frame(Bytes(bad).first(size), got, 0x4C,
                                         [&](std::size_t begin, std::size_t end) {
                                             EXPECT_EQ(begin, told);
                                             EXPECT_GT(end, begin);
                                             told = end;
                                         },
                                         4096);
            EXPECT_EQ(told, size) << "round " << round;
        } catch (const Error& e) {
            EXPECT_EQ(e.offset(), 0x4Cu);
            error = e.message();
        }
        EXPECT_EQ(error, reference) << "round " << round;
        if (reference.empty()) {
            EXPECT_EQ(got, want) << "round " << round;
        }
        (reference.empty() ? decoded : failed)++;
    }
    EXPECT_GT(decoded, 100);  // both sides of the comparison were exercised
    EXPECT_GT(failed, 100);
}

TEST(InputRelease, KrakAndZstdDecodesHoldFewOfTheFilesPages) {
    const std::size_t mib = std::size_t(1) << 20;
    const auto plain = payload(16 * mib, 6, false);  // incompressible: the file is ≈ 16 MiB
    for (const auto v : {dcx::Variant::Zstd, dcx::Variant::Krak}) {
        const auto path = write_temp(v == dcx::Variant::Zstd ? fast_zstd_dcx(plain) : dcx::compress(plain, v, nullptr, 0),
                                     "navlab-input-release");
        const SharedBytes file = SharedBytes::map_file(path);
        file.map_in_small_pages();
        std::mutex mutex;
        std::size_t tellings = 0, most = 0, told = 0;  // the most pages mapped when told (after the first); bytes told of
        const auto decoded = dcx::decompress(file, [&](std::size_t begin, std::size_t end) {
            const std::lock_guard lock(mutex);
            if (const auto now = test::mapped_pages(file.data(), file.size()); now && tellings++ > 0) most = std::max(most, *now);
            told += end - begin;
            file.drop_pages(begin, end - begin);
        });
        std::filesystem::remove(path);
        EXPECT_TRUE(std::equal(decoded.payload.begin(), decoded.payload.end(), plain.begin(), plain.end()));
        if (!test::mapped_pages(file.data(), 1)) GTEST_SKIP() << "/proc/self/pagemap cannot be read";
        EXPECT_GE(told, file.size() - 0x100) << dcx::variant_name(v);  // the whole stream, some of it twice
        // A fault may map a whole folio of the page cache (up to 2 MiB), plus a step of 1 MiB
        // and the windows in flight: well under the file's 16 MiB. The zstd frame's walk before
        // the payload is allocated maps every page, so the first telling is not counted.
        EXPECT_LE(most * page_bytes(), 3 * mib + mib / 2) << dcx::variant_name(v);
        EXPECT_LE(*test::mapped_pages(file.data(), file.size()) * page_bytes(), mib / 4) << dcx::variant_name(v);
    }
}

TEST(InputRelease, TruncatedAndCorruptFilesFailAsWithoutTheRelease) {
    const auto plain = payload(std::size_t(6) << 20, 8);
    for (const auto v : {dcx::Variant::Zstd, dcx::Variant::Krak}) {
        const auto file = v == dcx::Variant::Zstd ? fast_zstd_dcx(plain) : dcx::compress(plain, v, nullptr, 1);
        ASSERT_GT(file.size(), 2 * codec::kZstdInputStep) << dcx::variant_name(v);  // several steps
        std::mt19937 rng(9);
        for (int round = 0; round < 60; ++round) {
            auto bad = file;
            if (round % 2) bad.resize(0x4C + rng() % (bad.size() - 0x4C));
            else
                for (int k = 0; k < 3; ++k) bad[0x4C + rng() % (bad.size() - 0x4C)] ^= static_cast<std::uint8_t>(1 + rng() % 255);
            std::string plain_error, stepped_error;
            try {
                dcx::decompress(bad);
            } catch (const Error& e) {
                plain_error = std::string(e.what()) + " @" + std::to_string(e.offset()) + " " + e.field();
            }
            try {
                dcx::decompress(bad, [](std::size_t, std::size_t) {});
            } catch (const Error& e) {
                stepped_error = std::string(e.what()) + " @" + std::to_string(e.offset()) + " " + e.field();
            }
            EXPECT_EQ(stepped_error, plain_error) << dcx::variant_name(v) << " round " << round;
            if (round % 2) {
                EXPECT_FALSE(plain_error.empty());
            }
        }
    }
}
