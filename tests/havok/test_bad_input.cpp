// Malformed tagfiles: each gets a navlab::Error with an offset and what was expected; none
// crashes or allocates without bound (run under ASan+UBSan).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <vector>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "havok/layout.h"
#include "havok/navmesh_fixture.h"
#include "havok/object.h"
#include "havok/tagfile.h"
#include "havok/type_sets.h"
#include "havok/writer.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;
using namespace navlab::havok;

namespace {

std::string error_of(const std::vector<std::uint8_t>& bytes) {
    try {
        read_tagfile(bytes);
    } catch (const Error& e) {
        EXPECT_NE(e.offset(), kNoOffset) << e.what();
        return e.what();
    }
    return "no error";
}

#define EXPECT_READ_ERROR(bytes, needle)                                                   \
    do {                                                                                   \
        const std::string what_ = error_of(bytes);                                         \
        EXPECT_NE(what_.find(needle), std::string::npos) << "error was: " << what_;        \
    } while (0)

std::size_t section(const std::vector<std::uint8_t>& bytes, const char* tag) {
    for (std::size_t i = 4; i + 4 <= bytes.size(); i += 4)
        if (std::memcmp(bytes.data() + i, tag, 4) == 0) return i - 4;
    ADD_FAILURE() << "no section " << tag;
    return 0;
}
void put_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) { std::memcpy(b.data() + at, &v, 4); }
std::uint32_t get_u32(const std::vector<std::uint8_t>& b, std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}
/// A section header's size word (big-endian, flags in the top two bits).
std::uint32_t get_u32_be(const std::vector<std::uint8_t>& b, std::size_t at) {
    return std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 | std::uint32_t{b[at + 2]} << 8 | b[at + 3];
}
void put_u64(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v) { std::memcpy(b.data() + at, &v, 8); }

/// A small valid navmesh file and its parsed form (for item offsets).
struct Fixture {
    std::vector<std::uint8_t> bytes = test::grid_navmesh(2, 1);
    Tagfile file = read_tagfile(bytes);
    std::size_t data = file.data_offset;
    std::size_t item(ItemIndex i) const { return data + file.items[i].offset; }
    /// File offset of ITEM record i.
    std::size_t item_record(ItemIndex i) { return section(bytes, "ITEM") + 8 + 12 * i; }
};

/// Sets byte k of element e of item i (of `file`, read from `bytes`) to 0x5A, a gap byte, and
/// expects the strict read to refuse it there: the element check's message, the byte's file
/// offset and the item as the field.
void expect_gap_byte_refused(const std::vector<std::uint8_t>& bytes, const Tagfile& file, ItemIndex i, std::uint32_t e,
                             std::uint32_t k) {
    const Item& item = file.items[i];
    const std::size_t at = file.data_offset + item.offset + std::size_t{e} * file.types[item.type].resolved_size + k;
    auto b = bytes;
    b[at] = 0x5A;
    try {
        read_tagfile(b);
        ADD_FAILURE() << "item " << i << " element " << e << " byte " << k << " read";
    } catch (const Error& err) {
        EXPECT_EQ(err.offset(), at) << err.what();
        EXPECT_EQ(err.message(), fmt::format("element {}: byte {} of a gap or non-serialized member is 0x5A; expected 0", e, k));
        EXPECT_EQ(err.field(), fmt::format("DATA item {} ({})", i, file.types.full_name(item.type)));
    }
}

/// Writes the fixture navmesh with a type table changed after resolution (declared values only).
std::vector<std::uint8_t> with_types(void (*change)(TypeTable&)) {
    const auto bytes = test::grid_navmesh(2, 1);
    const Tagfile t = read_tagfile(bytes);
    Graph g = graph_from_tagfile(t);
    change(g.types);
    return write_graph(g);
}

}  // namespace

TEST(HavokBadInput, EveryTruncationIsAnError) {
    const auto bytes = test::grid_navmesh(2, 1);
    for (std::size_t n = 0; n < bytes.size(); n += (n < 64 ? 1 : 13)) {
        std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + n);
        // Exact: the outer TAG0 header (offset 0) names the size the cut file cannot hold.
        const std::string expected =
            n < 8 ? "offset 0x0: TAG0: file of " + std::to_string(n) + " bytes is too small for a TAG0 header"
                  : "offset 0x0: file: section TAG0: size " + hex(bytes.size()) +
                        " runs past the end of file (ends at " + hex(n) + "); truncated?";
        try {
            read_tagfile(cut);
            ADD_FAILURE() << "cut at " << n << " read";
        } catch (const Error& e) {
            EXPECT_EQ(e.offset(), 0u) << n;
            EXPECT_EQ(std::string(e.what()), expected) << n;
        }
    }
}

TEST(HavokBadInput, AnotherKindOfFileIsNamedByItsTag) {
    // An event script's header (EVD\0, then a version): its first word read as a section size
    // would have been refused as running past the end; the tag is checked first.
    std::vector<std::uint8_t> evd = {'E', 'V', 'D', 0, 0, 0, 0xCD, 0, 0x65, 0, 0, 0};
    evd.resize(64, 0);
    try {
        read_tagfile(evd);
        ADD_FAILURE() << "read";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), 4u);
        EXPECT_EQ(std::string(e.what()), "offset 0x4: TAG0: not a Havok tagfile: bytes 4-7 are \"????\" (00 00 CD 00), where a tagfile has the tag TAG0");
    }
}

TEST(HavokBadInput, SectionSizes) {
    Fixture f;
    auto b = f.bytes;
    b[0] |= 0x80;  // bit 31
    EXPECT_READ_ERROR(b, "bit 31");
    b = f.bytes;
    const std::size_t tptr = section(b, "TPTR");
    b[tptr + 3] = 0x06;  // TPTR size 6 (< 8, not a multiple of 4)
    b[tptr + 2] = 0;
    b[tptr + 1] = 0;
    EXPECT_READ_ERROR(b, "below the 8-byte header");
    b = f.bytes;
    const std::size_t data = section(b, "DATA");
    b[data + 1] = 0x7F;  // DATA runs past TAG0
    EXPECT_READ_ERROR(b, "runs past the end of TAG0");
    b = f.bytes;
    std::memcpy(b.data() + section(b, "TYPE") + 4, "TCRF", 4);
    EXPECT_READ_ERROR(b, "compendium (TCRF), and reading with a compendium is not supported");
    b = f.bytes;
    std::memcpy(b.data() + section(b, "FSTR") + 4, "XSTR", 4);
    EXPECT_READ_ERROR(b, "expected section FSTR here, found XSTR");
}

TEST(HavokBadInput, InvalidAndHugeVarints) {
    Fixture f;
    auto b = f.bytes;
    const std::size_t tna1 = section(b, "TNA1") + 8;
    b[tna1] = 0xFF;
    EXPECT_READ_ERROR(b, "invalid packed-integer first byte 0xFF");
    b = f.bytes;
    b[tna1] = 0xF9;  // 64-bit type count: bounded by the payload before anything is allocated
    for (int i = 1; i < 9; ++i) b[tna1 + i] = 0xFF;
    EXPECT_READ_ERROR(b, "does not fit");
}

TEST(HavokBadInput, CyclicParentChain) {
    Fixture f;
    auto b = f.bytes;
    const std::size_t tbdy = section(b, "TBDY") + 8;
    ASSERT_EQ(b[tbdy], 1);  // the first record: type 1, parent 0
    ASSERT_EQ(b[tbdy + 1], 0);
    b[tbdy + 1] = 1;        // its own parent
    EXPECT_READ_ERROR(b, "cyclic parent chain");
}

TEST(HavokBadInput, TypeTooSmallForItsMembers) {
    const auto b = with_types([](TypeTable& t) { t.at(t.find("hkaiNavMesh::Face")).size = 12; });
    EXPECT_READ_ERROR(b, "does not hold member");
}

TEST(HavokBadInput, TypeWithTwoBodiesOrNone) {
    Fixture f;
    auto b = f.bytes;
    // The first TBDY record is type 1's; renaming it to type 2 leaves 1 without and 2 with two.
    const std::size_t tbdy = section(b, "TBDY") + 8;
    b[tbdy] = 0x02;
    const std::string what = error_of(b);
    EXPECT_TRUE(what.find("second body for type 2") != std::string::npos || what.find("has no body") != std::string::npos)
        << what;
}

TEST(HavokBadInput, ItemOffsetsAndCounts) {
    Fixture f;
    auto b = f.bytes;
    put_u32(b, f.item_record(3) + 4, 0xFFFFFF00u);
    EXPECT_READ_ERROR(b, "run past the end of DATA");
    b = f.bytes;
    put_u32(b, f.item_record(2) + 8, 0xFFFFFFFFu);  // huge element count
    EXPECT_READ_ERROR(b, "run past the end of DATA");
    b = f.bytes;
    put_u32(b, f.item_record(2) + 4, f.file.items[1].offset);  // two arrays on the same bytes
    try {
        read_tagfile(b);
        ADD_FAILURE() << "overlapping arrays read";
    } catch (const Error& e) {
        // At the second array's start, which is the first array's; "ends at" is DATA-relative.
        EXPECT_EQ(e.offset(), f.item(1));
        EXPECT_EQ(e.field(), "DATA item 2 (hkRootLevelContainer::NamedVariant)");
        EXPECT_EQ(e.message(), "item 2 overlaps the item before it in DATA (which ends at " +
                                   hex(f.file.items[2].offset) + ")");  // where item 2 was
    }
    b = f.bytes;
    put_u32(b, f.item_record(3) + 8, 2);
    EXPECT_READ_ERROR(b, "pointer item count is 2");
    try {
        read_tagfile(b);
        ADD_FAILURE() << "a pointer item of count 2 read";
    } catch (const Error& e) {
        EXPECT_EQ(e.field(), "ITEM 3");  // the item's number is in the path, at its count field
        EXPECT_EQ(e.offset(), f.item_record(3) + 8);
    }
    b = f.bytes;
    b[f.item_record(3) + 3] = 0x30;
    EXPECT_READ_ERROR(b, "kind 0x30");
    b = f.bytes;
    put_u32(b, f.item_record(1), (f.file.items[3].type) | 0x10000000u);  // item 1 is not the root container
    EXPECT_READ_ERROR(b, "expected a pointer item of hkRootLevelContainer");
}

TEST(HavokBadInput, PointerToWrongItemKind) {
    Fixture f;
    auto b = f.bytes;
    put_u64(b, f.item(1), 3);  // namedVariants (hkArray) -> a pointer item
    EXPECT_READ_ERROR(b, "a pointer item; expected an array item");
    b = f.bytes;
    put_u64(b, f.item(2) + 16, 2);  // NamedVariant[0].variant (hkRefVariant) -> the array item
    EXPECT_READ_ERROR(b, "an array item; expected a pointer item");
    b = f.bytes;
    put_u64(b, f.item(2) + 16, 999);
    EXPECT_READ_ERROR(b, "references item 999");
}

TEST(HavokBadInput, ZeroWordsPatchesAndReferences) {
    Fixture f;
    auto b = f.bytes;
    b[f.item(1) + 8] = 1;  // hkArray m_size
    EXPECT_READ_ERROR(b, "size/capacity words");
    b = f.bytes;
    // Edge paddingByte (non-serialized, offset 17) of the first edge.
    const ObjectView mesh = f.file.object(3);
    b[f.data + mesh.field("edges").as_array().offset() + 17] = 0xAA;
    EXPECT_READ_ERROR(b, "gap or non-serialized member");
    b = f.bytes;
    b[f.item(3) + 130] = 1;  // hkaiNavMesh padding after flags
    EXPECT_READ_ERROR(b, "gap or non-serialized member");
    b = f.bytes;
    const std::size_t ptch = section(b, "PTCH") + 8;
    put_u32(b, ptch + 8, 0x4);  // first patch offset moved: the field it named is unlisted
    EXPECT_READ_ERROR(b, "PTCH does not list the");
    // The first group's type given to the second: refused at the second group's offset.
    b = f.bytes;
    const std::size_t second = ptch + 8 + 4 * std::size_t{get_u32(b, ptch + 4)};
    ASSERT_LT(second + 8, section(b, "PTCH") + (get_u32_be(b, section(b, "PTCH")) & 0x3FFFFFFFu));  // a second group
    put_u32(b, second, get_u32(b, ptch));
    try {
        read_tagfile(b);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("two PTCH groups for type"), std::string::npos) << e.what();
        EXPECT_EQ(e.offset(), second);
    }
    b = f.bytes;
    put_u64(b, f.item(2) + 24 + 16, 0);  // NamedVariant[1].variant = null: the mediator is unreferenced
    EXPECT_READ_ERROR(b, "is not referenced by any field");
}

TEST(HavokBadInput, HashesMustCoverItemAndPatchTypes) {
    EXPECT_THROW(with_types([](TypeTable& t) { t.at(t.find("hkaiNavMesh")).hash.reset(); }), Error);  // writer
    Fixture f;
    auto b = f.bytes;
    const std::size_t thsh = section(b, "THSH") + 8;
    ASSERT_EQ(b[thsh + 1], 1);  // first entry: type 1 (the root container, touched first)
    b[thsh + 1] = 4;            // now hashes a type that is neither an item nor a patch type
    // The first type that differs is named: type 1, whose hash is gone. Read between reads of
    // the good file on one thread, so the verifier's per-table record of the hashed types
    // (kept with the table's layouts) serves each table its own.
    const std::string lost = "THSH has no hash for " + f.file.types.full_name(1) + ", an item or patch type";
    for (int round = 0; round < 2; ++round) {
        EXPECT_NO_THROW(read_tagfile(f.bytes));
        EXPECT_READ_ERROR(b, lost);
    }
}

// The builder (writer) and the strict reader check gap bytes with one helper: both name the
// same element and byte of a record whose second element has a non-zero padding byte, and the
// reader's offset is that byte's place in the file (counted here from the array's start).
TEST(HavokBadInput, ReaderAndBuilderRefuseTheSameGapByte) {
    Fixture f;
    const ArrayView edges = f.file.object(3).field("edges").as_array();
    ASSERT_GE(edges.size(), 2u);
    const std::uint32_t esize = edges.element_size();
    auto b = f.bytes;
    const std::size_t at = f.data + edges.offset() + esize + 17;  // Edge paddingByte of element 1
    b[at] = 0x5A;
    try {
        read_tagfile(b);
        ADD_FAILURE() << "a non-zero paddingByte read";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), at);
        EXPECT_EQ(e.message(), "element 1: byte 17 of a gap or non-serialized member is 0x5A; expected 0");
    }
    std::vector<std::uint8_t> records(edges.bytes().begin(), edges.bytes().end());
    records[esize + 17] = 0x5A;
    Builder builder(f.file.types, "20180100");
    try {
        builder.array(f.file.types.full_name(edges.element_type()), edges.size(), records);
        ADD_FAILURE() << "the builder took a non-zero paddingByte";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("element 1: byte 17 is a gap or non-serialized member of the type set "
                                             "and must be 0, not 0x5A"),
                  std::string::npos)
            << e.what();
    }
}

// The placement check sorts the items by DATA offset only when the ITEM table does not list
// them in that order already: with any two ITEM records swapped (so listed out of order), the
// items are still placed by offset, without an overlap or a gap refused; the file fails later
// (its references now name the wrong items), never at placement.
TEST(HavokBadInput, ItemsListedOutOfDataOrderArePlacedByTheirOffsets) {
    Fixture f;
    const std::size_t n = f.file.items.size();
    ASSERT_GE(n, 5u);
    int swapped = 0;
    for (ItemIndex i = 2; i < n; ++i)
        for (ItemIndex j = i + 1; j < n; ++j) {
            auto b = f.bytes;
            for (int k = 0; k < 12; ++k) std::swap(b[f.item_record(i) + k], b[f.item_record(j) + k]);
            const std::string what = error_of(b);
            EXPECT_EQ(what.find("overlaps the item before it"), std::string::npos) << i << " <-> " << j << ": " << what;
            EXPECT_EQ(what.find("gap between items"), std::string::npos) << i << " <-> " << j << ": " << what;
            ++swapped;
        }
    EXPECT_GE(swapped, 6);
}

// The bytes between the items and after the last one (their alignment padding) must be zero:
// any one such byte set is refused at its own offset, whichever gap it is in.
TEST(HavokBadInput, EveryByteBetweenAndAfterTheItemsIsRefusedWhereItIs) {
    Fixture f;
    std::vector<bool> in_item(f.file.data.size(), false);
    for (ItemIndex i = 1; i < f.file.items.size(); ++i) {
        const Item& item = f.file.items[i];
        const std::size_t end = item.offset + std::size_t{f.file.types[item.type].resolved_size} * item.count;
        for (std::size_t k = item.offset; k < end; ++k) in_item[k] = true;
    }
    int tried = 0;
    for (std::size_t k = 0; k < in_item.size(); ++k) {
        if (in_item[k]) continue;
        auto b = f.bytes;
        b[f.data + k] = 0x41;
        ++tried;
        try {
            read_tagfile(b);
            ADD_FAILURE() << "DATA byte " << k << " read";
        } catch (const Error& e) {
            EXPECT_EQ(e.offset(), f.data + k) << e.what();
            EXPECT_NE(e.message().find(": byte is 0x41; expected 0"), std::string::npos) << e.what();
        }
    }
    EXPECT_GT(tried, 20);
}

// The walk checks each item's gaps for the whole array first and names an element's first bad
// byte only when that check fails: a single non-zero byte anywhere in any item's gaps (records
// with references, the mesh and the graph, and records without, faces and edges) is still
// refused naming that element, byte and file offset. The size/capacity words of an hkArray
// field are skipped: the reference check names them first, with its own message.
TEST(HavokBadInput, EveryGapByteOfEveryItemIsRefusedWhereItIs) {
    Fixture f;
    Layouts layouts(f.file.types);
    int tried = 0, with_refs = 0;
    for (ItemIndex i = 1; i < f.file.items.size(); ++i) {
        const Item& item = f.file.items[i];
        const Layout& layout = layouts.of(item.type);
        for (std::uint32_t e = 0; e < item.count; ++e)
            for (const ZeroRange& z : layout.zeros)
                for (std::uint32_t k = z.offset; k < z.offset + z.size; ++k) {
                    bool size_word = false;
                    for (const RefLeaf& leaf : layout.refs)
                        size_word |= leaf.kind == Kind::Array && k >= leaf.offset + 8 && k < leaf.offset + 16;
                    if (size_word) continue;
                    ++tried;
                    with_refs += !layout.refs.empty();
                    expect_gap_byte_refused(f.bytes, f.file, i, e, k);
                }
    }
    EXPECT_GT(tried, 100);
    EXPECT_GT(with_refs, 50);  // the records with references were tried too
}

// The whole-array check against the record-by-record one, on random layouts (ranges of 1 to
// 20 bytes, at the record's end too), record sizes, counts and bytes; each array is its own
// allocation of exactly size × count bytes, so ASan sees any read past it.
TEST(HavokLayout, GapBytesAllZeroAgreesWithTheRecordByRecordCheck) {
    std::mt19937 rng(7);
    auto draw = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
    int with_gap_bytes = 0;
    for (int round = 0; round < 3000; ++round) {
        const std::uint32_t size = 1 + draw(40), count = draw(12);
        Layout layout;
        for (std::uint32_t at = draw(4); at < size; at += 1 + draw(6)) {
            const std::uint32_t n = std::min(size - at, 1 + draw(20));
            layout.zeros.push_back({at, n});
            at += n;
        }
        std::vector<std::uint8_t> records(std::size_t{size} * count);
        for (auto& b : records) b = draw(4) == 0 ? static_cast<std::uint8_t>(rng()) : 0;
        for (const ZeroRange& z : layout.zeros)  // mostly zero gaps, one byte set now and then
            for (std::uint32_t e = 0; e < count; ++e)
                for (std::uint32_t k = 0; k < z.size; ++k) records[std::size_t{e} * size + z.offset + k] = draw(150) == 0;
        bool zero = true;
        for (std::uint32_t e = 0; e < count; ++e) zero &= first_nonzero_gap_byte(layout, records.data() + e * size) < 0;
        with_gap_bytes += !zero;
        EXPECT_EQ(gap_bytes_all_zero(layout, records.data(), size, count), zero) << "round " << round;
    }
    EXPECT_GT(with_gap_bytes, 300);  // both answers were asked for
    EXPECT_LT(with_gap_bytes, 2700);
}

// The vector pass (whole periods of lcm(size, 32) bytes, the rest word by word) against the
// record-by-record check: record sizes 1 … 130 (periods of 1 to 8 vectors and longer ones,
// which stay word by word), counts around kMinVectorRecords and up to 400, random ranges, and
// arrays whose gaps are zero but for one byte, placed in the first period, the last whole
// period, the records after it, or anywhere (and bytes outside the gaps set). Each array is
// its own allocation of exactly size × count bytes, so ASan sees any read past it.
TEST(HavokLayout, GapBytesAllZeroByVectorsAgreesWithTheRecordByRecordCheck) {
    std::mt19937 rng(42);
    auto draw = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
    int with_gap_bytes = 0, long_arrays = 0;
    for (int round = 0; round < 6000; ++round) {
        const std::uint32_t size = 1 + draw(130);
        const std::uint32_t count = draw(3) == 0 ? kMinVectorRecords - 2 + draw(40) : draw(400);
        Layout layout;
        for (std::uint32_t at = draw(size); at < size; at += 1 + draw(size)) {
            const std::uint32_t n = std::min(size - at, 1 + draw(12));
            layout.zeros.push_back({at, n});
            at += n;
        }
        std::vector<std::uint8_t> records(std::size_t{size} * count);
        std::vector<std::uint8_t> in_gap(size, 0);
        for (const ZeroRange& z : layout.zeros) std::fill(in_gap.begin() + z.offset, in_gap.begin() + z.offset + z.size, 1);
        for (std::size_t k = 0; k < records.size(); ++k)
            if (!in_gap[k % size]) records[k] = static_cast<std::uint8_t>(rng());
        if (count > 0 && !layout.zeros.empty() && draw(2) == 0) {
            // One gap byte set: in the first period, near the end of the whole periods, in the
            // records past them, or anywhere.
            const ZeroRange& z = layout.zeros[draw(static_cast<std::uint32_t>(layout.zeros.size()))];
            const std::uint32_t where = draw(4);
            const std::uint32_t e = where == 0   ? draw(std::min(count, 8u))
                                    : where == 1 ? count - 1 - draw(std::min(count, 40u))
                                    : where == 2 ? count - 1 - draw(std::min(count, 8u))
                                                 : draw(count);
            records[std::size_t{e} * size + z.offset + draw(z.size)] = static_cast<std::uint8_t>(1 + draw(255));
        }
        bool zero = true;
        for (std::uint32_t e = 0; e < count; ++e) zero &= first_nonzero_gap_byte(layout, records.data() + std::size_t{e} * size) < 0;
        with_gap_bytes += !zero;
        long_arrays += count >= kMinVectorRecords;
        ASSERT_EQ(gap_bytes_all_zero(layout, records.data(), size, count), zero)
            << "round " << round << ": size " << size << ", count " << count;
    }
    EXPECT_GT(with_gap_bytes, 1500);  // both answers were asked for
    EXPECT_LT(with_gap_bytes, 4500);
    EXPECT_GT(long_arrays, 3000);
}

// The strict read of a navmesh whose edge, face and vertex arrays are long enough for the
// vector pass (140 edges, 35 faces, 48 vertices): a non-zero byte in any gap of any element of
// any item (sampled: element 0's first gap byte, a random one of every other element) is refused with the
// same message, DATA item, element, byte and file offset as the element-by-element check gave.
TEST(HavokBadInput, GapBytesOfLongArraysAreRefusedWhereTheyAre) {
    const std::vector<std::uint8_t> bytes = test::grid_navmesh(7, 5);
    const Tagfile file = read_tagfile(bytes);
    Layouts layouts(file.types);
    std::mt19937 rng(13);
    int tried = 0, in_long_arrays = 0;
    for (ItemIndex i = 1; i < file.items.size(); ++i) {
        const Item& item = file.items[i];
        const Layout& layout = layouts.of(item.type);
        if (layout.zeros.empty()) continue;
        for (std::uint32_t e = 0; e < item.count; ++e) {
            const ZeroRange& z = layout.zeros[e == 0 ? 0 : rng() % layout.zeros.size()];
            const std::uint32_t k = z.offset + (e == 0 ? 0 : static_cast<std::uint32_t>(rng() % z.size));
            bool size_word = false;  // an hkArray's size/capacity: the reference check names it first
            for (const RefLeaf& leaf : layout.refs)
                size_word |= leaf.kind == Kind::Array && k >= leaf.offset + 8 && k < leaf.offset + 16;
            if (size_word) continue;
            ++tried;
            in_long_arrays += item.count >= kMinVectorRecords;
            expect_gap_byte_refused(bytes, file, i, e, k);
        }
    }
    EXPECT_GT(in_long_arrays, 100);
    EXPECT_GT(tried, in_long_arrays);
}

// Layouts::of answers a type already computed inline and leaves everything else to compute:
// a type index outside the table and a type that contains itself throw on every call, not
// only the first, and a computed layout is the same object each time.
TEST(HavokLayout, OfReturnsComputedLayoutsAndStillRefusesBadTypes) {
    TypeTable types;
    Type i32;
    i32.name = "hkInt32";
    i32.resolved_size = 4;
    const TypeIndex word = types.add(i32);
    Type self;
    self.name = "hkSelf";
    self.resolved_size = 4;
    self.resolved_format = static_cast<std::uint32_t>(Kind::Record);
    const TypeIndex loop = types.add(self);
    types.at(loop).members.push_back({"me", 0, 0, loop});
    Layouts layouts(types);
    const Layout& first = layouts.of(word);
    EXPECT_EQ(&layouts.of(word), &first);
    for (int round = 0; round < 3; ++round) {
        EXPECT_THROW((void)layouts.of(loop), Error) << round;
        EXPECT_THROW((void)layouts.of(0), Error) << round;
        EXPECT_THROW((void)layouts.of(3), Error) << round;
        EXPECT_THROW((void)layouts.of(0xFFFFFFFF), Error) << round;
    }
}

TEST(HavokLayout, FirstNonZeroGapByteIsTheLowestOffsetInAZeroRange) {
    Layout layout;
    layout.zeros = {{2, 3}, {8, 1}};
    std::array<std::uint8_t, 12> record{};
    EXPECT_EQ(first_nonzero_gap_byte(layout, record.data()), -1);
    record[5] = 1;  // between the ranges: data, not a gap
    record[11] = 1;
    EXPECT_EQ(first_nonzero_gap_byte(layout, record.data()), -1);
    record[8] = 1;
    EXPECT_EQ(first_nonzero_gap_byte(layout, record.data()), 8);
    record[4] = 7;
    EXPECT_EQ(first_nonzero_gap_byte(layout, record.data()), 4);
    record[2] = 7;
    EXPECT_EQ(first_nonzero_gap_byte(layout, record.data()), 2);
}

namespace {

/// Every field of a parsed tagfile that a read fills, as text.
std::string describe(const Tagfile& t) {
    std::string out = fmt::format("read: SDK {}, {} types, TBDY order {}, DATA at {} ({} of {} bytes), style {}{}{}",
                                  t.sdk_version, t.types.size(), fmt::join(t.types.body_order, " "), t.data_offset,
                                  t.data.size(), t.file.size(), t.style.tna1, t.style.thsh, t.style.tpad);
    for (const Item& i : t.items)
        out += fmt::format("\nitem {} type {} at {} x {}", static_cast<int>(i.kind), i.type, i.offset, i.count);
    for (const PatchGroup& g : t.patches) out += fmt::format("\npatch type {}: {}", g.type, fmt::join(g.offsets, " "));
    for (const TypeHash& h : t.hashes) out += fmt::format("\nhash {} {}", h.type, h.hash);
    for (const Finding& w : t.warnings) out += fmt::format("\nwarning at {}: {}", w.offset, w.message);
    return out;
}

/// What reading `bytes` gives: the error (message and offset), or describe() of the result;
/// into `storage` when given.
std::string read_outcome(const std::vector<std::uint8_t>& bytes, TagfileStorage* storage = nullptr) {
    try {
        if (!storage) return describe(read_tagfile(bytes));
        Tagfile t = read_tagfile(bytes, {}, *storage);
        std::string out = describe(t);
        storage->keep(std::move(t));
        return out;
    } catch (const Error& e) {
        return fmt::format("error at {}: {}", e.offset(), e.what());
    }
}

/// read_outcome on a new thread: its per-thread caches and the verifier's storage start empty.
std::string read_outcome_fresh(const std::vector<std::uint8_t>& bytes) {
    std::string out;
    std::thread([&] { out = read_outcome(bytes); }).join();
    return out;
}

}  // namespace

// The verifier keeps its working storage (references found per type, reference counts, item
// order) per thread between tagfiles, and a reader may pass the vectors of its last tagfile
// back (TagfileStorage). A read after other tagfiles (of another table, another size, or one
// whose PTCH comparison failed after the walk) must see exactly what a first read on a fresh thread
// sees: hostile bytes in DATA and PTCH of two grids, each read right after the other grid and
// after a read that failed, with and without storage.
TEST(HavokBadInput, StorageKeptBetweenReadsServesEachReadAsAFreshOne) {
    TagfileStorage storage;
    const std::vector<std::uint8_t> grids[] = {test::grid_navmesh(2, 1), test::grid_navmesh(5, 3)};
    std::mt19937 rng(36);
    int errors = 0, reads = 0;
    for (int which = 0; which < 2; ++which) {
        const std::vector<std::uint8_t>& good = grids[which];
        const std::vector<std::uint8_t>& other = grids[1 - which];
        const Tagfile parsed = read_tagfile(good);
        const std::size_t data = parsed.data_offset, ptch = section(good, "PTCH");
        std::vector<std::size_t> places;
        for (std::size_t at = data; at < data + parsed.data.size(); at += 1 + rng() % 5) places.push_back(at);
        for (std::size_t at = ptch + 8; at < good.size(); ++at) places.push_back(at);
        for (const std::size_t at : places) {
            std::vector<std::uint8_t> bad = good;
            const std::uint8_t values[] = {0, 1, 0xFF, static_cast<std::uint8_t>(good[at] ^ (1u << (rng() % 8)))};
            bad[at] = values[rng() % 4];
            // Dirty this thread's storage: the other grid's read (kept in `storage`), then a
            // read that throws after the walk filled the scratch (PTCH names an offset no
            // field holds). Many of the hostile reads below throw inside the walk.
            EXPECT_EQ(read_outcome(other, &storage).substr(0, 4), "read");
            std::vector<std::uint8_t> failing = other;
            failing[section(other, "PTCH") + 16] ^= 0x40;
            EXPECT_EQ(read_outcome(failing).substr(0, 5), "error");
            const std::string reused = read_outcome(bad);
            const std::string fresh = read_outcome_fresh(bad);
            EXPECT_EQ(reused, fresh) << "grid " << which << ", byte " << at;
            EXPECT_EQ(read_outcome(bad, &storage), fresh) << "grid " << which << ", byte " << at << ", with storage";
            errors += reused.rfind("error", 0) == 0;
            ++reads;
        }
        EXPECT_EQ(read_outcome(good), read_outcome_fresh(good));
        EXPECT_EQ(read_outcome(good, &storage), read_outcome_fresh(good));
    }
    EXPECT_GT(errors, reads / 10);  // errors of the walk and PTCH were made
    EXPECT_LT(errors, reads);       // and reads that pass
}

// ITEM's records are loaded 12 bytes at a time (no bounds-checked read a word): every item of
// the fixture, of a larger grid navmesh and of the Elden Ring sample must be the
// record's bytes decoded one by one, little-endian (kind in the top byte of the first word).
TEST(HavokBadInput, ItemRecordsAreTheirBytesDecodedOneByOne) {
    std::vector<std::vector<std::uint8_t>> files = {Fixture{}.bytes, test::grid_navmesh(7, 5)};
    if (const auto path = test::sample("havok/er/n10_01_00_00_001700.hkx")) files.push_back(read_file(*path));
    for (const std::vector<std::uint8_t>& bytes : files) {
        const Tagfile file = read_tagfile(bytes);
        const std::size_t records = section(bytes, "ITEM") + 8;
        auto word = [&](std::size_t at) {
            std::uint32_t v = 0;
            for (int k = 3; k >= 0; --k) v = v << 8 | bytes[at + static_cast<std::size_t>(k)];
            return v;
        };
        ASSERT_EQ(file.items.size(), ((get_u32_be(bytes, records - 8) & 0x3FFFFFFF) - 8) / 12) << "one item a record";
        for (std::size_t i = 0; i < file.items.size(); ++i) {
            const std::size_t at = records + 12 * i;
            EXPECT_EQ(static_cast<std::uint32_t>(file.items[i].kind), word(at) >> 24) << i;
            EXPECT_EQ(file.items[i].type, word(at) & 0xFFFFFF) << i;
            EXPECT_EQ(file.items[i].offset, word(at + 4)) << i;
            EXPECT_EQ(file.items[i].count, word(at + 8)) << i;
        }
    }
}
