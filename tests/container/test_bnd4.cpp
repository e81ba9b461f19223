// BND4: byte-exact round trips of the real samples, every format flag, the §2.6 hash,
// FromSoftware's layout for new binders, and malformed input.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "codec/dcx.h"
#include "container/bnd4.h"
#include "support/sha256.h"
#include "io/error.h"
#include "io/file.h"
#include "io/shared_bytes.h"
#include "support/samples.h"

using namespace navlab;
using nlohmann::json;

namespace {

std::vector<std::uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

/// A small navmesh-style binder: three entries, one of them empty, out of ID order.
bnd4::Binder small_binder() {
    std::vector<bnd4::NewEntry> files;
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "o10_00_00_00_001000.hkx"), 20000,
                     bytes_of("TAG0 lo-res navmesh payload")});
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_001000.hkx"), 10000,
                     bytes_of("TAG0 hi-res navmesh payload, a little longer than the other one")});
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_001100.hkx"), 10001, {}});
    return bnd4::build_navmesh_binder(std::move(files));
}

void expect_same_entries(const bnd4::Binder& a, const bnd4::Binder& b) {
    ASSERT_EQ(a.entries.size(), b.entries.size());
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        EXPECT_EQ(a.entries[i].id, b.entries[i].id) << i;
        EXPECT_EQ(a.entries[i].name, b.entries[i].name) << i;
        EXPECT_EQ(a.entries[i].name_raw, b.entries[i].name_raw) << i;
        EXPECT_EQ(a.entries[i].flags_raw, b.entries[i].flags_raw) << i;
        EXPECT_TRUE(std::ranges::equal(a.entries[i].data(), b.entries[i].data())) << i;
    }
}

/// write -> read -> write must reproduce the first image and the entries.
void expect_round_trip(const bnd4::Binder& b) {
    const auto image = bnd4::write(b);
    const auto back = bnd4::read(image);
    expect_same_entries(b, back);
    EXPECT_EQ(bnd4::write(back), image);
}

template <class T>
void put_le(std::vector<std::uint8_t>& v, std::size_t at, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i) v[at + i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i));
}

std::uint64_t hexval(const json& j) { return std::stoull(j.get<std::string>(), nullptr, 16); }

}  // namespace

// ---- real samples -------------------------------------------------------------------

class Bnd4Sample : public ::testing::TestWithParam<const char*> {};

TEST_P(Bnd4Sample, ReadsExpectedFieldsAndRewritesByteForByte) {
    const std::string name = GetParam();
    NAVLAB_REQUIRE_SAMPLE(path, "fromsoft/" + name);
    NAVLAB_REQUIRE_SAMPLE(expected_path, "fromsoft/expected.json");
    std::ifstream in_json(expected_path);
    const json x = json::parse(in_json).at(name).at("bnd4");
    const SharedBytes in = SharedBytes::map_file(path);
    const dcx::Decoded d = dcx::decompress(in.span());
    const bnd4::Binder b = bnd4::read(d.payload);
    EXPECT_EQ(b.entries.size(), x.at("file_count").get<std::size_t>());
    EXPECT_EQ(b.header.version_string(), x.at("version_0x18").get<std::string>());
    EXPECT_EQ(b.header.format_raw, hexval(x.at("format_raw_0x31")));
    EXPECT_EQ(b.header.format(), hexval(x.at("format_logical")));
    EXPECT_EQ(b.header.extended, x.at("extended_0x32").get<int>());
    EXPECT_EQ(b.header.unicode, x.at("unicode_0x30").get<int>());
    EXPECT_EQ(b.header.bit_big_endian, x.at("byte_0x0A").get<int>());
    auto check_entry = [&](const json& xe, const bnd4::Entry& e) {
        EXPECT_EQ(e.id, xe.at("id").get<int>());
        EXPECT_EQ(e.name, xe.at("name").get<std::string>());
        EXPECT_EQ(e.flags_raw, hexval(xe.at("flags_raw")));
        EXPECT_EQ(e.data().size(), xe.at("size").get<std::size_t>());
        EXPECT_EQ(e.uncompressed_size, xe.at("uncompressed_size").get<std::int64_t>());
        EXPECT_EQ(static_cast<std::uint64_t>(e.data().data() - d.payload.data()), hexval(xe.at("offset")));
        EXPECT_EQ(test::sha256_hex(e.data()), xe.at("sha256").get<std::string>());
    };
    check_entry(x.at("entries_first").at(0), b.entries.at(0));
    check_entry(x.at("entries_first").at(1), b.entries.at(1));
    check_entry(x.at("entry_last"), b.entries.back());

    const auto again = bnd4::write(b);
    ASSERT_EQ(again.size(), d.payload.size());
    EXPECT_TRUE(std::ranges::equal(again, d.payload)) << "first difference at byte "
                                    << (std::mismatch(again.begin(), again.end(), d.payload.begin()).first - again.begin());
}

INSTANTIATE_TEST_SUITE_P(Samples, Bnd4Sample,
                         ::testing::Values("bb_allmaterialbnd.mtdbnd.dcx", "sekiro_m00_00_00_00.talkesdbnd.dcx",
                                           "sekiro_spaar_item.msgbnd.dcx", "sekiro_allmaterialbnd.mtdbnd.dcx",
                                           "er_allmaterial_dlc01.matbinbnd.dcx", "er_allmaterial.matbinbnd.dcx"),
                         [](const auto& info) {
                             std::string n = info.param;
                             for (char& c : n)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return n;
                         });

// ---- hash ---------------------------------------------------------------------------

TEST(Bnd4Hash, PathHashMatchesTheRealSekiroBinder) {
    EXPECT_EQ(bnd4::path_hash_utf8("N:\\NTC\\data\\Target\\INTERROOT_win64\\script\\talk\\m00_00_00_00\\t000001.esd"),
              0x793B120Cu);
    // Lower-casing and the leading slash do not change the hash.
    EXPECT_EQ(bnd4::path_hash_utf8("/n:/ntc/data/target/interroot_win64/script/talk/m00_00_00_00/t000001.esd"),
              0x793B120Cu);
}

TEST(Bnd4Hash, GroupCountIsTheNextPrimeOfASeventh) {
    const std::pair<std::size_t, std::uint32_t> checked[] = {{0, 2},      {6, 2},      {18, 2},     {28, 5},
                                                             {42, 7},     {2025, 293}, {3129, 449}, {3170, 457},
                                                             {15103, 2161}};
    for (auto [n, g] : checked) EXPECT_EQ(bnd4::hash_group_count(n), g) << n;
}

// ---- writing ------------------------------------------------------------------------

TEST(Bnd4Write, NewNavmeshBinderHasFromSoftwareLayout) {
    const bnd4::Binder b = small_binder();
    ASSERT_EQ(b.entries.size(), 3u);
    EXPECT_EQ(b.entries[0].id, 10000);  // sorted by ID
    EXPECT_EQ(b.entries[1].id, 10001);
    EXPECT_EQ(b.entries[2].id, 20000);
    const auto image = bnd4::write(b);
    ByteReader r(image);
    EXPECT_EQ(r.peek_at<std::uint8_t>(0x31, "format"), 0x74);
    EXPECT_EQ(r.peek_at<std::uint8_t>(0x0A, "bit big-endian"), 1);
    EXPECT_EQ(r.peek_at<std::int64_t>(0x20, "record size"), 0x24);
    const std::size_t names_start = 0x40 + 3 * 0x24;
    EXPECT_EQ(r.peek_at<std::uint32_t>(0x40 + 0x20, "name offset 0"), names_start);  // names right after records
    std::size_t names_end = names_start;
    for (const auto& e : b.entries) names_end += e.name_raw.size() + 2;
    const auto table = r.peek_at<std::int64_t>(0x38, "hash table");
    EXPECT_EQ(table, static_cast<std::int64_t>((names_end + 7) / 8 * 8));
    EXPECT_EQ(r.peek_at<std::int64_t>(table, "records offset"), table + 16 + 8 * 2);  // 2 groups
    const auto headers_end = r.peek_at<std::int64_t>(0x28, "headers end");
    EXPECT_EQ(headers_end, table + 16 + 8 * 2 + 8 * 3);
    const auto first_data = r.peek_at<std::uint32_t>(0x40 + 0x18, "data offset 0");
    EXPECT_EQ(first_data, (headers_end + 15) / 16 * 16);
    const auto last_data = r.peek_at<std::uint32_t>(0x40 + 2 * 0x24 + 0x18, "data offset 2");
    EXPECT_EQ(last_data % 16, 0u);
    EXPECT_EQ(image.size(), last_data + b.entries[2].data().size());  // nothing after the last entry
    EXPECT_EQ(r.peek_at<std::uint8_t>(0x40, "flags"), 0x40);
    expect_round_trip(b);
}

TEST(Bnd4Write, EveryFormatFlagRoundTrips) {
    struct Case {
        const char* what;
        std::uint8_t format;
        std::uint8_t unicode, big_endian, bit_big_endian, extended;
    };
    const Case cases[] = {
        {"PC navmesh", bnd4::kIds | bnd4::kNames1 | bnd4::kNames2 | bnd4::kCompression, 1, 0, 1, 4},
        {"long offsets", bnd4::kIds | bnd4::kNames2 | bnd4::kLongOffsets, 1, 0, 1, 4},
        {"big-endian header", bnd4::kIds | bnd4::kNames2 | bnd4::kCompression, 1, 1, 0, 0},
        {"big-endian format bit", bnd4::kBigEndian | bnd4::kIds | bnd4::kNames2, 1, 0, 1, 0},
        {"Shift-JIS names", bnd4::kIds | bnd4::kNames1 | bnd4::kNames2, 0, 0, 1, 4},
        {"no names", bnd4::kIds | bnd4::kCompression, 1, 0, 1, 0},
        {"no IDs", bnd4::kNames2, 1, 0, 1, 4},
        {"Names1 only", bnd4::kNames1, 0, 0, 1, 0},
        {"flags unreversed", bnd4::kIds | bnd4::kNames1 | bnd4::kNames2, 1, 0, 0, 4},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.what);
        bnd4::Binder b;
        b.header.unicode = c.unicode;
        b.header.big_endian = c.big_endian;
        b.header.bit_big_endian = c.bit_big_endian;
        b.header.extended = c.extended;
        b.header.set_version("10G29R1");
        b.header.set_format(c.format);
        EXPECT_EQ(b.header.format(), c.format);
        const char* names[] = {"N:\\FRPG\\data\\a.mtd", "アイテム名.fmg", "", "b.mtd"};
        for (int i = 0; i < 4; ++i) {
            bnd4::Entry e;
            if (b.has_ids()) e.id = 100 + i * 3;
            if (b.has_names()) {
                e.name = names[i];
                e.name_raw = bnd4::encode_name(e.name, c.unicode);
            }
            e.names1_extra = c.format == bnd4::kNames1 ? 7 * i : 0;
            e.set_data(i == 2 ? std::vector<std::uint8_t>{} : bytes_of(std::string(37 * i + 5, static_cast<char>('a' + i))));
            b.entries.push_back(std::move(e));
        }
        expect_round_trip(b);
        const auto back = bnd4::read(bnd4::write(b));
        EXPECT_EQ(back.entries[3].names1_extra, b.entries[3].names1_extra);
        if (b.has_names()) {
            EXPECT_EQ(back.entries[1].name, "アイテム名.fmg");
        }
    }
}

TEST(Bnd4Write, ShiftJisNamesAreCodePage932) {
    const auto raw = bnd4::encode_name("アイテム", false);
    EXPECT_EQ(raw, (std::vector<std::uint8_t>{0x83, 0x41, 0x83, 0x43, 0x83, 0x65, 0x83, 0x80}));
    EXPECT_EQ(bnd4::decode_name(raw, false), "アイテム");
    const std::uint8_t bad[] = {0x83};  // a lead byte alone keeps a replacement character
    EXPECT_EQ(bnd4::decode_name(bad, false), "\xEF\xBF\xBD");
}

TEST(Bnd4Write, ZeroLengthEntriesAreNotAligned) {
    bnd4::Binder b = small_binder();
    const auto image = bnd4::write(b);
    const auto back = bnd4::read(image);
    // Entry 1 (10001) is empty: it sits right after entry 0's data, unaligned.
    const auto end0 = back.entries[0].data().data() + back.entries[0].data().size() - image.data();
    EXPECT_EQ(back.entries[1].data().data() - image.data(), end0);
}

// ---- malformed input ----------------------------------------------------------------

TEST(Bnd4BadInput, TruncationAtEveryByteFailsWithOffset) {
    const auto image = bnd4::write(small_binder());
    ASSERT_NO_THROW(bnd4::read(image));
    for (std::size_t n = 0; n < image.size(); ++n) {
        try {
            bnd4::read(Bytes(image.data(), n));
            ADD_FAILURE() << "binder truncated to " << n << " of " << image.size() << " bytes was accepted";
        } catch (const Error& e) {
            EXPECT_NE(e.offset(), kNoOffset) << n << ": " << e.what();
            EXPECT_LE(e.offset(), image.size()) << n << ": " << e.what();
        }
    }
}

TEST(Bnd4BadInput, CorruptedFieldsNameTheirOffset) {
    const auto image = bnd4::write(small_binder());
    const std::size_t rec1 = 0x40 + 0x24;
    const std::int64_t table = ByteReader(image).peek_at<std::int64_t>(0x38, "table");
    struct Case {
        const char* what;
        std::size_t at;
        std::uint64_t value;
        int width;
        std::uint64_t offset;
        const char* field;
    };
    const Case cases[] = {
        {"magic", 0, 0x33444E42, 4, 0, "BND4 header"},
        {"file count", 0x0C, 0x7FFFFFFF, 4, 0x0C, "BND4 header"},
        {"negative file count", 0x0C, 0xFFFFFFFF, 4, 0x0C, "BND4 header"},
        {"header size", 0x10, 0x50, 8, 0x10, "BND4 header"},
        {"record size", 0x20, 0x28, 8, 0x20, "BND4 header"},
        {"headers end", 0x28, 0xFFFFFF, 8, 0x28, "BND4 header"},
        {"stored size", rec1 + 0x08, 0xFFFFFF, 8, rec1 + 0x18, "BND4 entry 1"},
        {"negative size", rec1 + 0x08, ~0ull, 8, rec1 + 0x08, "BND4 entry 1"},
        {"data offset", rec1 + 0x18, 0xFFFFFF, 4, rec1 + 0x18, "BND4 entry 1"},
        {"name offset", rec1 + 0x20, 0xFFFFFF, 4, rec1 + 0x20, "BND4 entry 1"},
        {"name without terminator", rec1 + 0x20, image.size() - 2, 4, rec1 + 0x20, "BND4 entry 1"},
        {"record padding", rec1 + 1, 1, 1, rec1 + 1, "BND4 entry 1"},
        {"hash-table offset", 0x38, 0xFFFFFF, 8, 0x38, "BND4 hash table"},
        {"hash records offset", static_cast<std::size_t>(table), 0xFFFFFF, 8, static_cast<std::uint64_t>(table),
         "BND4 hash table"},
        {"group count", static_cast<std::size_t>(table) + 8, 0x10000000, 4, static_cast<std::uint64_t>(table) + 8,
         "BND4 hash table"},
        {"hash table sizes", static_cast<std::size_t>(table) + 12, 0x20, 1, static_cast<std::uint64_t>(table) + 12,
         "BND4 hash table"},
        {"group record count", static_cast<std::size_t>(table) + 16, 50, 4, static_cast<std::uint64_t>(table) + 16,
         "BND4 hash table"},
        {"hash entry index", static_cast<std::size_t>(table) + 32 + 4, 3, 4, static_cast<std::uint64_t>(table) + 32 + 4,
         "BND4 hash table"},
    };
    for (const auto& c : cases) {
        auto bad = image;
        if (c.width == 1) put_le<std::uint8_t>(bad, c.at, static_cast<std::uint8_t>(c.value));
        if (c.width == 4) put_le<std::uint32_t>(bad, c.at, static_cast<std::uint32_t>(c.value));
        if (c.width == 8) put_le<std::uint64_t>(bad, c.at, c.value);
        try {
            bnd4::read(bad);
            ADD_FAILURE() << c.what << ": accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.offset(), c.offset) << c.what << ": " << e.what();
            EXPECT_EQ(e.field(), c.field) << c.what << ": " << e.what();
        }
    }
}

TEST(Bnd4BadInput, RandomCorruptionNeverCrashes) {
    const auto image = bnd4::write(small_binder());
    std::mt19937 rng(11);
    for (int round = 0; round < 3000; ++round) {
        auto bad = image;
        const int flips = 1 + round % 4;
        for (int k = 0; k < flips; ++k) bad[rng() % std::min<std::size_t>(bad.size(), 0x200)] = static_cast<std::uint8_t>(rng());
        try {
            const auto b = bnd4::read(bad);
            for (const auto& e : b.entries) {
                EXPECT_GE(e.data().data(), bad.data());
                EXPECT_LE(e.data().data() + e.data().size(), bad.data() + bad.size());
            }
            bnd4::write(b);
        } catch (const Error& e) {
            // Located and named: an offset inside the image, printed first, and a field path.
            EXPECT_LE(e.offset(), bad.size()) << e.what();
            EXPECT_TRUE(std::string(e.what()).starts_with("offset " + hex(e.offset()) + ": ")) << e.what();
            EXPECT_FALSE(e.field().empty()) << e.what();
        }
    }
}
