#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <random>
#include <thread>
#if defined(__linux__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "io/byte_reader.h"
#include "io/byte_writer.h"
#include "io/file.h"
#include "io/heap_policy.h"
#include "io/huge_page_allocator.h"
#include "io/json_text.h"
#include "io/memory_advice.h"
#include "io/parallel.h"
#include "io/shared_bytes.h"
#include "io/text.h"
#include "support/samples.h"

using namespace navlab;

TEST(ByteReader, ReadsBothByteOrders) {
    const std::uint8_t data[] = {0x12, 0x34, 0x56, 0x78};
    ByteReader le(data);
    EXPECT_EQ(le.u32("word"), 0x78563412u);
    ByteReader be(data, 0, Endian::Big);
    EXPECT_EQ(be.u16("half"), 0x1234u);
    EXPECT_EQ(be.u16("half"), 0x5678u);
    EXPECT_TRUE(be.at_end());
}

TEST(ByteReader, TruncationNamesFieldAndAbsoluteOffset) {
    const std::uint8_t data[] = {1, 2, 3};
    ByteReader r(data, 0x100);
    r.set_context("BND4 entry 3");
    r.u16("flags");
    try {
        r.u32("name offset");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), 0x102u);
        EXPECT_EQ(e.field(), "BND4 entry 3");
        EXPECT_NE(std::string(e.what()).find("name offset needs 4 bytes but only 1 remain"), std::string::npos)
            << e.what();
    }
}

TEST(ByteReader, SubReaderKeepsAbsoluteOffsets) {
    std::uint8_t data[16] = {};
    ByteReader r(data, 0x40);
    ByteReader s = r.sub(8, 4, "child");
    EXPECT_EQ(s.absolute(2), 0x4Au);
    EXPECT_THROW(r.sub(8, 9, "child"), Error);
    EXPECT_THROW(r.seek(17, "pos"), Error);
}

TEST(ByteReader, ExpectAndCString) {
    const std::uint8_t data[] = {'B', 'N', 'D', '4', 'a', 'b', 0, 'x'};
    ByteReader r(data);
    r.expect("BND4", "magic");
    EXPECT_EQ(r.cstring_at(4, "name"), "ab");
    EXPECT_THROW(r.cstring_at(7, "name"), Error);  // no NUL before the end
    ByteReader bad(data);
    EXPECT_THROW(bad.expect("DCX\0", "magic"), Error);
}

// A magic with a NUL (the DCX family's "DCS\0") is printed escaped, both what was expected and
// what was found: a raw NUL used to end the message at "expected "DCS".
TEST(ByteReader, ExpectShowsBothMagicsEscaped) {
    const std::uint8_t data[] = {'D', 'C', 'X', 0x01, '"', '\\'};
    ByteReader r(data, 0x18);
    try {
        r.expect(std::string_view("DCS\0\"\\", 6), "DCS magic");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), 0x18u);
        EXPECT_EQ(e.message(), R"(DCS magic: expected "DCS\x00\"\\", found "DCX\x01\"\\")");
    }
}

// RFC 3629's well-formed sequences pass; every other byte, and control characters but tab and
// newline, become \xNN. Backslashes stay (FromSoftware paths).
TEST(Text, EscapeNonUtf8) {
    EXPECT_EQ(escape_non_utf8("N:\\GR\\n10.hkx"), "N:\\GR\\n10.hkx");
    EXPECT_EQ(escape_non_utf8("a\tb\nc"), "a\tb\nc");
    EXPECT_EQ(escape_non_utf8("\xC3\xA9 \xE6\xBC\xA2 \xF0\x9F\x98\x80"), "\xC3\xA9 \xE6\xBC\xA2 \xF0\x9F\x98\x80");  // é 漢 😀
    EXPECT_EQ(escape_non_utf8("hkR\x86ot"), "hkR\\x86ot");               // a lone continuation byte
    EXPECT_EQ(escape_non_utf8("\xC0\x80"), "\\xC0\\x80");                // overlong NUL
    EXPECT_EQ(escape_non_utf8("\xED\xA0\x80"), "\\xED\\xA0\\x80");      // a surrogate
    EXPECT_EQ(escape_non_utf8("\xF4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // past U+10FFFF
    EXPECT_EQ(escape_non_utf8("ab\xE6\xBC"), "ab\\xE6\\xBC");            // cut short at the end
    EXPECT_EQ(escape_non_utf8(std::string_view("\x1B[2J\0\x7F", 6)), "\\x1B[2J\\x00\\x7F");
    EXPECT_EQ(escape_non_utf8("\xC2\x9B" "2J \xC2\xA0"), "\\xC2\\x9B" "2J \xC2\xA0");  // C1 CSI escaped, U+00A0 kept
    // navlab::Error escapes its message, field and file.
    const Error e = Error("type hkR\x86ot", 4, "TSTR \xFF").set_file("m\xFE.hkx");
    EXPECT_STREQ(e.what(), "m\\xFE.hkx: offset 0x4: TSTR \\xFF: type hkR\\x86ot");
}

// escape_non_utf8 takes 8 plain bytes at a time: random texts (mostly printable ASCII, with
// tabs, newlines, controls, DEL, 0x7E/0x20 edges, bytes from 0x80 up and well-formed sequences at
// every alignment) against a byte-by-byte escape written from RFC 3629 here (each sequence
// decoded, then its code point's range checked).
TEST(Text, EscapeNonUtf8EqualsADecodingLoop) {
    auto reference = [](std::string_view t) {
        std::string out;
        for (std::size_t i = 0; i < t.size();) {
            const auto b = [&](std::size_t k) { return static_cast<unsigned>(static_cast<std::uint8_t>(t[k])); };
            const unsigned c = b(i);
            std::size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
            bool ok = n != 0 && i + n <= t.size();
            std::uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
            for (std::size_t k = 1; ok && k < n; ++k) {
                ok = (b(i + k) & 0xC0) == 0x80;
                cp = cp << 6 | (b(i + k) & 0x3F);
            }
            const std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
            ok = ok && cp >= least[n] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
            ok = ok && !(cp < 0x20 && cp != '\t' && cp != '\n') && !(cp >= 0x7F && cp <= 0x9F);
            if (ok) {
                out.append(t.substr(i, n));
                i += n;
            } else {
                out += fmt::format("\\x{:02X}", c);
                ++i;
            }
        }
        return out;
    };
    const std::string specials[] = {"\t", "\n", std::string(1, '\0'), "\x1F", "\x7F", "\x7E", " ", "\x80", "\xFF",
                                    "\xC2\x9B", "\xC2\xA0", "\xC3\xA9", "\xE6\xBC\xA2", "\xF0\x9F\x98\x80", "\xED\xA0\x80",
                                    "\xE6\xBC", "\xC0\x80", "\\"};
    std::mt19937 rng(45);
    for (int round = 0; round < 5000; ++round) {
        std::string text;
        const std::size_t length = rng() % 48;
        while (text.size() < length) {
            if (rng() % 16 == 0) text += specials[rng() % std::size(specials)];
            else text += static_cast<char>(0x20 + rng() % 0x5F);
        }
        ASSERT_EQ(escape_non_utf8(text), reference(text)) << "round " << round;
    }
}

// The JSON net: a name that is not UTF-8 is written as U+FFFD instead of making dump() throw.
TEST(Text, JsonTextReplacesBytesThatAreNotUtf8) {
    const nlohmann::json j = {{"type", "hkR\x86ot"}};
    EXPECT_THROW((void)j.dump(), nlohmann::json::exception);
    EXPECT_EQ(json_text(j), "{\"type\":\"hkR\xEF\xBF\xBDot\"}");
}

TEST(ByteWriter, ReserveAndFillByName) {
    ByteWriter w(Endian::Big);
    w.reserve_u32("data offset");
    w.u16(0xABCD);
    w.align(8);
    w.fill_u32("data offset", static_cast<std::uint32_t>(w.size()));
    auto bytes = std::move(w).finish();
    ASSERT_EQ(bytes.size(), 8u);
    EXPECT_EQ(bytes[3], 8);
    EXPECT_EQ(bytes[4], 0xAB);
}

TEST(ByteWriter, UnfilledReservationFails) {
    ByteWriter w;
    w.reserve_u64("x");
    EXPECT_THROW(std::move(w).finish(), Error);
}

TEST(Error, FormatsFileOffsetField) {
    Error e("name offset 0x1F00 past end of file (0x1E00)", 0x1F00, "BND4 entry 3");
    e.set_file("a.bnd");
    EXPECT_STREQ(e.what(), "a.bnd: offset 0x1F00: BND4 entry 3: name offset 0x1F00 past end of file (0x1E00)");
    e.in("DCX payload");
    EXPECT_EQ(e.field(), "DCX payload: BND4 entry 3");
}

TEST(File, AtomicWriteThenMapRead) {
    auto dir = test::scratch_dir("io");
    auto path = dir / "out.bin";
    const std::uint8_t data[] = {9, 8, 7};
    write_file_atomic(path, data);
    const SharedBytes f = SharedBytes::map_file(path);
    ASSERT_EQ(f.span().size(), 3u);
    EXPECT_EQ(f.span()[2], 7);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);  // no temp left
    EXPECT_THROW(SharedBytes::map_file(dir / "missing"), Error);
    std::filesystem::remove_all(dir);
}

// A pipe's size is 0 to fstat: it is read to its end (3 MiB, past the first buffer's
// growth), not taken for an empty file. A device has no end to read to: refused, named.
TEST(File, APipeIsReadToItsEndAndADeviceIsRefused) {
    auto dir = test::scratch_dir("io-pipe");
    const auto fifo = dir / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::vector<std::uint8_t> data(3u << 20);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 7 + (i >> 12));
    std::thread writer([&] {
        std::ofstream out(fifo, std::ios::binary);
        out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
    });
    const SharedBytes f = SharedBytes::map_file(fifo);
    writer.join();
    EXPECT_TRUE(std::equal(f.span().begin(), f.span().end(), data.begin(), data.end()));
    for (const char* device : {"/dev/zero", "/dev/null"}) {
        try {
            SharedBytes::map_file(device);
            ADD_FAILURE() << device << " was read";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(std::string(device) + ": is a device"), std::string::npos) << e.what();
        }
    }
    std::filesystem::remove_all(dir);
}

// `--json /dev/null` renamed a file over /dev/null (as root: the machine's /dev/null became a
// regular file). A device, FIFO or terminal is written in place; checked on a FIFO (a broken
// build must not replace this machine's /dev/null), through both writers.
TEST(File, AnOutputThatIsADeviceOrFifoIsWrittenInPlaceNotReplaced) {
    auto dir = test::scratch_dir("io-write-fifo");
    const auto fifo = dir / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string text(100000, 'x');
    for (auto write : {+[](const std::filesystem::path& p, std::string_view t) { write_file_atomic(p, t); },
                       +[](const std::filesystem::path& p, std::string_view t) {
                           write_file_atomic_named(p, std::span(reinterpret_cast<const std::uint8_t*>(t.data()), t.size()));
                       }}) {
        // Held open for writing too, so the reader's open returns at once and it sees the end
        // when this is closed, even if a broken writer renamed a file over the FIFO (no hang).
        const int keep = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);
        ASSERT_GE(keep, 0);
        std::string got;
        std::thread reader([&] {
            std::ifstream in(fifo, std::ios::binary);
            got.assign(std::istreambuf_iterator<char>(in), {});
        });
        write(fifo, text);
        ::close(keep);
        reader.join();
        EXPECT_EQ(got, text);
        struct stat st {};
        ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
        EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
        EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1) << "no temporary is left";
    }
    std::filesystem::remove_all(dir);
}

TEST(Parallel, EveryIndexOnceAndErrorsPropagate) {
    std::vector<int> seen(1000, 0);
    parallel_for(seen.size(), 4, [&](std::size_t i) { seen[i] += 1; });
    for (int v : seen) EXPECT_EQ(v, 1);
    EXPECT_THROW(parallel_for(10, 2, [](std::size_t i) { if (i == 5) throw Error("boom"); }), Error);
}

// Nested loops share the outer loop's threads: an item of a loop whose every asked thread
// runs an item gets one thread (its inner loop runs where the item runs); a loop with fewer
// items than threads passes the rest down; the limit is gone once the loop returns.
TEST(Parallel, NestedLoopsShareTheOuterThreads) {
    EXPECT_EQ(detail::nested_thread_limit, 0u);
    std::vector<int> on_own_thread(4, 0);
    parallel_for(4, 2, [&](std::size_t i) {
        const std::thread::id outer = std::this_thread::get_id();
        std::atomic<int> elsewhere{0};
        parallel_for(64, 0, [&](std::size_t) { elsewhere += std::this_thread::get_id() != outer; });
        on_own_thread[i] = detail::nested_thread_limit == 1 && elsewhere == 0;
    });
    for (int v : on_own_thread) EXPECT_EQ(v, 1);
    unsigned seen = 0;
    parallel_for(1, 6, [&](std::size_t) { seen = detail::nested_thread_limit; });
    EXPECT_EQ(seen, 6u);
    parallel_for(3, 6, [&](std::size_t i) { if (i == 0) seen = detail::nested_thread_limit; });
    EXPECT_EQ(seen, 2u);
    parallel_for(5, 1, [&](std::size_t) { seen = detail::nested_thread_limit; });
    EXPECT_EQ(seen, 1u);
    EXPECT_EQ(detail::nested_thread_limit, 0u);
}

// A HelpBoard lends an idle outer thread to a busy one's nested loop: worker 0 runs a loop
// of slow items left one thread; worker 1, with nothing of its own, helps once it is posted.
// Every item runs once, some on the helper; an item's exception reaches the poster after
// every helper has left the loop; with no board, the same loop stays on its own thread.
TEST(Parallel, IdleThreadsHelpANestedLoopPostedOnTheirBoard) {
    for (bool throws : {false, true}) {
        SCOPED_TRACE(throws);
        std::atomic<bool> posted_done{false};
        HelpBoard board;
        std::vector<std::atomic<int>> runs(64);
        std::vector<std::thread::id> ran_on(runs.size());
        std::atomic<bool> helper_ready{false}, helped_any{false};
        std::atomic<int> in_flight{0};
        int in_flight_after = -1;
        std::thread::id poster;
        bool rethrown = false;
        parallel_for(2, 2, [&](std::size_t w) {
            const HelpBoard::Scope scope(&board);
            if (w == 0) {
                poster = std::this_thread::get_id();
                while (!helper_ready) std::this_thread::yield();
                try {
                    parallel_for(runs.size(), 0, [&](std::size_t i) {
                        ++in_flight;
                        if (std::this_thread::get_id() != poster) helped_any = true;
                        // The poster's first item waits (10 s at most) for the helper to take
                        // one: on a loaded machine the helper may otherwise not run before
                        // the poster has done every item alone.
                        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                        while (i == 0 && !helped_any && std::chrono::steady_clock::now() < give_up)
                            std::this_thread::sleep_for(std::chrono::milliseconds(1));
                        std::this_thread::sleep_for(std::chrono::microseconds(500));
                        ++runs[i];
                        ran_on[i] = std::this_thread::get_id();
                        --in_flight;
                        if (throws && i == 40) throw Error("item 40");
                    });
                } catch (const Error&) {
                    rethrown = true;
                }
                in_flight_after = in_flight;  // the loop returned only once its helpers left
                posted_done = true;
                return;
            }
            helper_ready = true;
            while (!posted_done)
                if (!board.help()) std::this_thread::yield();
        });
        EXPECT_EQ(in_flight_after, 0);
        EXPECT_EQ(rethrown, throws);
        int helped = 0, total = 0;
        for (std::size_t i = 0; i < runs.size(); ++i) {
            EXPECT_LE(runs[i], 1) << i;
            total += runs[i];
            if (runs[i] == 1) helped += ran_on[i] != poster;
        }
        // Items after the throw are skipped (all but those already taken).
        EXPECT_EQ(total < 64, throws) << total;
        EXPECT_GT(helped, 0);
        EXPECT_FALSE(board.has_work());
        // The board's own counts: one loop posted, and the items the helper ran.
        EXPECT_EQ(board.loops_posted(), 1u);
        EXPECT_EQ(board.items_helped(), static_cast<std::size_t>(helped));
    }
    // An explicit 1 means inline even with a board and an idle helper.
    {
        HelpBoard board;
        std::atomic<bool> done{false};
        std::atomic<int> elsewhere{0};
        parallel_for(2, 2, [&](std::size_t w) {
            const HelpBoard::Scope scope(&board);
            if (w == 0) {
                const std::thread::id me = std::this_thread::get_id();
                parallel_for(64, 1, [&](std::size_t) {
                    std::this_thread::sleep_for(std::chrono::microseconds(100));
                    elsewhere += std::this_thread::get_id() != me;
                });
                done = true;
                return;
            }
            while (!done)
                if (!board.help()) std::this_thread::yield();
        });
        EXPECT_EQ(elsewhere, 0);
        EXPECT_EQ(board.loops_posted(), 0u);
    }
    // No board: one thread all the way down, as before.
    std::atomic<int> elsewhere{0};
    parallel_for(2, 2, [&](std::size_t) {
        const std::thread::id outer = std::this_thread::get_id();
        parallel_for(32, 0, [&](std::size_t) { elsewhere += std::this_thread::get_id() != outer; });
    });
    EXPECT_EQ(elsewhere, 0);
}

// The huge-page advice covers exactly the whole 2 MiB pages inside the buffer, and nothing
// when there is none; a buffer advised before its first touch keeps what is written to it.
TEST(MemoryAdvice, HugePageRangeIsTheAlignedInside) {
    map_large_blocks_on_their_own();  // `big` below on a mapping of its own, not an advised heap range
    constexpr std::size_t M2 = std::size_t(2) << 20;
    const auto at = [](std::uintptr_t a) { return reinterpret_cast<const void*>(a); };
    EXPECT_EQ(huge_page_range(at(0x40000000), 3 * M2).begin, 0u);
    EXPECT_EQ(huge_page_range(at(0x40000000), 3 * M2).end, 3 * M2);
    EXPECT_EQ(huge_page_range(at(0x40000010), 3 * M2).begin, M2 - 0x10);
    EXPECT_EQ(huge_page_range(at(0x40000010), 3 * M2).end, 3 * M2 - 0x10);  // the last page is cut
    EXPECT_EQ(huge_page_range(at(0x40000010), M2).end, 0u);                 // no whole page inside
    EXPECT_EQ(huge_page_range(at(0x40000000), M2 - 1).end, 0u);
    EXPECT_EQ(huge_page_range(nullptr, 4 * M2).end, 0u);
    EXPECT_EQ(huge_page_range(at(UINTPTR_MAX - 100), 4 * M2).end, 0u);  // would wrap
    // Any page size (give_back_pages uses the system's): 4 and 64 KiB.
    EXPECT_EQ(whole_pages_inside(at(0x10001), 0x3000, 0x1000).begin, 0xFFFu);
    EXPECT_EQ(whole_pages_inside(at(0x10001), 0x3000, 0x1000).end, 0x2FFFu);
    EXPECT_EQ(whole_pages_inside(at(0x10000), 0x1FFFF, 0x10000).end, 0x10000u);  // only the first 64 KiB page is whole
    EXPECT_EQ(whole_pages_inside(at(0x10001), 0x1FFFE, 0x10000).end, 0u);  // no whole 64 KiB page inside
    EXPECT_EQ(whole_pages_inside(at(0x10000), 0x1000, 0).end, 0u);
    std::vector<std::uint8_t> big;
    big.reserve(5 * M2 + 123);
    advise_huge_pages(big.data(), 5 * M2 + 123);
    big.resize(5 * M2 + 123);
    for (std::size_t i = 0; i < big.size(); i += 4093) big[i] = static_cast<std::uint8_t>(i);
    for (std::size_t i = 0; i < big.size(); i += 4093) ASSERT_EQ(big[i], static_cast<std::uint8_t>(i));
    advise_huge_pages(nullptr, 0);  // nothing to do, no fault
}

#if defined(__linux__)
// prefault_pages maps exactly the whole pages inside the range, before any touch, and they
// read as zero; the pages the range only partly covers stay unmapped. Residency is read back
// with mincore(2), independently of the call under test.
TEST(MemoryAdvice, PrefaultMapsTheWholePagesInside) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    constexpr std::size_t kPages = 16;
    void* map = mmap(nullptr, kPages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(map, MAP_FAILED);
    // No huge pages of any size here: with multi-size THP a fault may map a 16-64 KiB block
    // around the page, and the residency below would not be page-exact.
#if defined(MADV_NOHUGEPAGE)
    madvise(map, kPages * page, MADV_NOHUGEPAGE);
#endif
    auto* base = static_cast<std::uint8_t*>(map);
    auto resident = [&] {
        std::vector<unsigned char> v(kPages);
        EXPECT_EQ(mincore(map, kPages * page, v.data()), 0);
        std::string s;
        for (unsigned char c : v) s += (c & 1) ? '1' : '0';
        return s;
    };
    ASSERT_EQ(resident(), std::string(kPages, '0'));
    // From 100 bytes into page 2 to 100 bytes into page 13: pages 3..12 are whole.
    prefault_pages(base + 2 * page + 100, 11 * page);
    const std::string after = resident();
    bool zero = true;
    for (std::size_t i = 3 * page; i < 13 * page; ++i) zero &= base[i] == 0;
    // Whether this kernel populates at all (5.14 and later), asked of the last page directly.
    bool kernel_populates = false;
#if defined(MADV_POPULATE_WRITE)
    kernel_populates = madvise(base + (kPages - 1) * page, page, MADV_POPULATE_WRITE) == 0;
#endif
    munmap(map, kPages * page);
    EXPECT_TRUE(zero);
    if (!kernel_populates) {
        EXPECT_EQ(after, std::string(kPages, '0'));
        GTEST_SKIP() << "this system has no MADV_POPULATE_WRITE (Linux before 5.14): prefault_pages does nothing";
    }
    EXPECT_EQ(after, "0001111111111000");
    prefault_pages(nullptr, 0);  // nothing to do, no fault
}
#endif

namespace {

/// The VmFlags line of the mapping of this process that holds address a ("" when none).
std::string vm_flags_at(const void* a) {
    std::ifstream smaps("/proc/self/smaps");
    const auto x = reinterpret_cast<std::uintptr_t>(a);
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t begin = 0, end = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> begin >> dash >> end && dash == '-') {  // a mapping's header line
            inside = begin <= x && x < end;
        } else if (inside && line.rfind("VmFlags:", 0) == 0) {
            return line;
        }
    }
    return "";
}

}  // namespace

// Small arrays come from the heap as usual; an array of kHugePageArrayBytes or more starts on
// a 2 MiB boundary and its mapping carries the kernel's huge-page advice (VmFlags "hg" in
// /proc/self/smaps, whether or not the kernel then grants a huge page), except for a tail of
// a few bytes past a whole page; values survive growth from one kind to the other.
TEST(HugePageAllocator, LargeArraysStartOnHugePagesAndKeepTheirValues) {
    // Large blocks on mappings of their own, as in navlab's programs: after another test of
    // this process frees a large block, glibc would serve them from a heap range that an
    // earlier test advised, whose pages keep the advice.
    map_large_blocks_on_their_own();
    HugePageVector<std::uint32_t> v(1000);
    for (std::uint32_t i = 0; i < v.size(); ++i) v[i] = i * 7;
    const std::size_t large = kHugePageArrayBytes / sizeof(std::uint32_t);
    v.resize(large);  // from the heap to a huge-page array
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % kHugePageBytes, 0u);
    for (std::uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(v[i], i * 7);
    for (std::size_t i = 1000; i < v.size(); ++i) v[i] = static_cast<std::uint32_t>(i);
    v.push_back(1);  // grows again, to a second huge-page array
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % kHugePageBytes, 0u);
    EXPECT_EQ(v[999], 999u * 7);
    EXPECT_EQ(v[large - 1], large - 1);
    EXPECT_EQ(v.back(), 1u);
    // One whole page and 16 bytes: the page advised, the 16 bytes not.
    HugePageVector<std::uint8_t> spill(kHugePageBytes + 16, 3);
    EXPECT_EQ(spill[kHugePageBytes + 15], 3);
    if (std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled") && std::filesystem::exists("/proc/self/smaps")) {
        EXPECT_NE(vm_flags_at(v.data()).find(" hg"), std::string::npos) << vm_flags_at(v.data());
        EXPECT_NE(vm_flags_at(spill.data()).find(" hg"), std::string::npos);
        EXPECT_EQ(vm_flags_at(spill.data() + kHugePageBytes).find(" hg"), std::string::npos);
    }
    // Sizes whose rounding would wrap are refused before anything is allocated.
    EXPECT_THROW(HugePageAllocator<std::uint8_t>().allocate(static_cast<std::size_t>(-1) - 1), std::bad_alloc);
    EXPECT_THROW(HugePageAllocator<std::uint64_t>().allocate(static_cast<std::size_t>(-1) / 8), std::bad_alloc);
}
