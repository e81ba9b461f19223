#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <fmt/format.h>
#include <string>
#include <thread>
#include <vector>

#include "havok/navmesh_fixture.h"
#include "havok/object.h"
#include "havok/tagfile.h"
#include "havok/type_sets.h"
#include "havok/verify.h"
#include "havok/varint.h"
#include "havok/writer.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;
using namespace navlab::havok;

namespace {

const char* kSamples[] = {
    "havok/er/n10_01_00_00_001700.hkx",      "havok/dsr/Skeleton_c2240.HKX",
    "havok/dsr/a00_0000_c2240.hkx",          "havok/dsr/a00_3000_c2240.hkx",
    "havok/dsr/c2240.hkx",                   "havok/dsr/AnimationTemplate_DSR.hkx",
    "havok/dsr/MapCollisionTemplate_DSR.hkx",
};

std::vector<std::uint8_t> small_navmesh() { return test::grid_navmesh(3, 2); }

/// A resolved type added to `types`: `kind` with `format_bits` above it, `size` bytes, `parent`.
TypeIndex add_resolved_type(TypeTable& types, std::string_view name, Kind kind, std::uint32_t size,
                            std::uint32_t format_bits = 0, TypeIndex parent = 0) {
    Type t;
    t.name = name;
    t.resolved_format = static_cast<std::uint32_t>(kind) | format_bits;
    t.resolved_size = size;
    t.parent = parent;
    return types.add(std::move(t));
}

}  // namespace

// ---- varints -----------------------------------------------------------------------------------

// load_le (one memcpy) against the byte loop it replaced, on every length 0..16 and random
// bytes at unaligned starts: a wider value keeps its low 8 bytes.
TEST(HavokObject, LoadLeMatchesByteLoop) {
    std::mt19937 rng(38);
    std::vector<std::uint8_t> buffer(64);
    for (int round = 0; round < 2000; ++round) {
        for (std::uint8_t& byte : buffer) byte = static_cast<std::uint8_t>(rng());
        const std::size_t start = rng() % 8, size = round % 17;
        const Bytes b(buffer.data() + start, size);
        std::uint64_t want = 0;
        for (std::size_t i = b.size(); i-- > 0;) want = (want << 8) | b[i];
        ASSERT_EQ(havok::load_le(b), want) << "size " << size << " start " << start;
    }
    EXPECT_EQ(havok::load_le({}), 0u);
}

// The accessors' failures are formatted out of line (cold): each still throws its message,
// word for word as when it was formatted inline, at the value's file offset in "DATA".
TEST(HavokObject, AccessorsRefuseWrongKindsAndBadReferencesWordForWord) {
    Tagfile file;
    auto add = [&](std::string_view name, Kind kind, std::uint32_t size, std::uint32_t format_bits = 0) {
        return add_resolved_type(file.types, name, kind, size, format_bits);
    };
    const TypeIndex i32 = add("hkInt32", Kind::Int, 4);
    const TypeIndex real = add("hkReal", Kind::Float, 4);
    const TypeIndex record = add("hkRecord", Kind::Record, 8);
    const TypeIndex pointer = add("T*", Kind::Pointer, 8);
    const TypeIndex string = add("char*", Kind::String, 8);
    const TypeIndex array = add("hkArray", Kind::Array, 16);
    const TypeIndex fixed = add("T[N]", Kind::Array, 12, kFormatInlineArray | 3u << 8);
    file.types.at(array).resolved_subtype = i32;
    file.types.at(fixed).resolved_subtype = i32;
    // DATA: item 1 (a record) at 0, a reference at 16 and 24, item 2 (two ints) at 32.
    std::vector<std::uint8_t> data(40, 0);
    data[16] = 7;  // no item 7
    data[24] = 1;  // item 1 is a pointer item, not an array
    file.data = Bytes(data);
    file.data_offset = 0x100;
    file.items = {Item{}, Item{ItemKind::Pointer, record, 0, 1}, Item{ItemKind::Array, i32, 32, 2}};

    auto error = [&](auto&& call, std::uint64_t offset) {
        try {
            call();
        } catch (const Error& e) {
            EXPECT_EQ(e.offset(), file.data_offset + offset) << e.message();
            EXPECT_EQ(e.field(), "DATA") << e.message();
            return e.message();
        }
        return std::string("no error");
    };
    const Value int_value(file, i32, 4);
    EXPECT_EQ(error([&] { (void)Value(file, real, 4).as_uint(); }, 4), "hkReal is not an integer");
    EXPECT_EQ(error([&] { (void)Value(file, real, 4).as_int(); }, 4), "hkReal is not an integer");
    EXPECT_EQ(error([&] { (void)int_value.as_float(); }, 4), "hkInt32 is not a float");
    EXPECT_EQ(error([&] { (void)int_value.item(); }, 4), "hkInt32 is not a pointer, string or hkArray");
    EXPECT_EQ(error([&] { (void)int_value.is_null(); }, 4), "hkInt32 is not a pointer, string or hkArray");
    EXPECT_EQ(error([&] { (void)Value(file, fixed, 4).item(); }, 4), "T[N] is not a pointer, string or hkArray");
    EXPECT_EQ(error([&] { (void)int_value.as_string(); }, 4), "hkInt32 is not a string");
    EXPECT_EQ(error([&] { (void)Value(file, array, 16).as_string(); }, 16), "hkArray is not a string");
    EXPECT_EQ(error([&] { (void)int_value.target(); }, 4), "hkInt32 is not a pointer");
    EXPECT_EQ(error([&] { (void)int_value.as_object(); }, 4), "hkInt32 is not a record");
    EXPECT_EQ(error([&] { (void)int_value.field("x"); }, 4), "hkInt32 is not a record");
    EXPECT_EQ(error([&] { (void)int_value.as_array(); }, 4), "hkInt32 is not an hkArray or inline array");
    EXPECT_EQ(error([&] { (void)Value(file, pointer, 16).item(); }, 16), "reference to item 7 (only 2 items)");
    EXPECT_EQ(error([&] { (void)Value(file, string, 16).as_string(); }, 16), "reference to item 7 (only 2 items)");
    EXPECT_EQ(error([&] { (void)Value(file, pointer, 16).target(); }, 16), "reference to item 7 (only 2 items)");
    EXPECT_EQ(error([&] { (void)Value(file, array, 16).as_array(); }, 16), "reference to item 7 (only 2 items)");
    EXPECT_EQ(error([&] { (void)Value(file, array, 24).as_array(); }, 24),
              "hkArray references item 1, not an array item");
    EXPECT_EQ(error([&] { (void)Value(file, pointer, 36).item(); }, 36),
              "8 bytes at DATA offset 0x24 run past the end of DATA");
    EXPECT_EQ(error([&] { (void)Value(file, i32, 38).as_uint(); }, 38),
              "4 bytes at DATA offset 0x26 run past the end of DATA");
    EXPECT_EQ(error([&] { (void)Value(file, i32, 41).bytes(); }, 41),
              "4 bytes at DATA offset 0x29 run past the end of DATA");
    EXPECT_EQ(error([&] { (void)Value(file, fixed, 4).as_array()[3]; }, 4), "array index 3 out of range (size 3)");
    EXPECT_EQ(error([&] { (void)ArrayView(file, i32, 32, 2)[2]; }, 32), "array index 2 out of range (size 2)");
    // What does not fail reads what the bytes hold.
    EXPECT_EQ(Value(file, fixed, 4).as_array()[2].offset(), 12u);
    EXPECT_EQ(Value(file, pointer, 24).target()->offset(), 0u);
    EXPECT_TRUE(Value(file, pointer, 4).is_null());
    EXPECT_EQ(Value(file, array, 4).as_array().size(), 0u);
}

TEST(HavokVarint, SpecExamplesEncodeAndDecode) {
    const std::pair<std::uint64_t, std::vector<std::uint8_t>> cases[] = {
        {5, {0x05}}, {189, {0x80, 0xBD}}, {0x8204, {0xC0, 0x82, 0x04}}, {0x174605, {0xD7, 0x46, 0x05}},
        {0x30001, {0xC3, 0x00, 0x01}}, {0x200000, {0xE0, 0x20, 0x00, 0x00}}};
    for (const auto& [value, bytes] : cases) {
        ByteWriter w(Endian::Big);
        write_varint(w, value);
        EXPECT_EQ(std::vector<std::uint8_t>(w.data().begin(), w.data().end()), bytes) << value;
        ByteReader r(bytes);
        bool minimal = false;
        EXPECT_EQ(read_varint(r, "v", &minimal), value);
        EXPECT_TRUE(minimal);
        EXPECT_TRUE(r.at_end());
    }
}

TEST(HavokVarint, EveryFormRoundTrips) {
    for (std::uint64_t v : {0ull, 0x7Full, 0x3FFFull, 0x1FFFFFull, 0x7FFFFFFull, 0x7FFFFFFFFull, 0xFFFFFFFFFFull,
                            0x7FFFFFFFFFFFFFFull, ~0ull}) {
        ByteWriter w(Endian::Big);
        write_varint(w, v);
        EXPECT_EQ(w.size(), varint_size(v));
        ByteReader r(w.data());
        EXPECT_EQ(read_varint(r, "v"), v);
    }
}

TEST(HavokVarint, InvalidTruncatedAndOverlongForms) {
    for (std::uint8_t b : {0xFA, 0xFB, 0xFF}) {
        const std::uint8_t bytes[] = {b, 0, 0, 0, 0, 0, 0, 0, 0};
        ByteReader r(bytes, 0x40);
        try {
            read_varint(r, "count");
            ADD_FAILURE();
        } catch (const Error& e) {
            EXPECT_EQ(e.offset(), 0x40u);
            EXPECT_NE(std::string(e.what()).find("invalid packed-integer"), std::string::npos);
        }
    }
    const std::uint8_t truncated[] = {0xF9, 1, 2};
    ByteReader r(truncated);
    EXPECT_THROW(read_varint(r, "count"), Error);
    const std::uint8_t overlong[] = {0xC0, 0x00, 0x05};  // 5 in the 3-byte form
    ByteReader o(overlong);
    bool minimal = true;
    EXPECT_EQ(read_varint(o, "v", &minimal), 5u);
    EXPECT_FALSE(minimal);
}

TEST(HavokVarint, MinimalIsTrueExactlyWhenNoShorterFormHoldsTheValue) {
    // Every value at and around each form's limits, encoded by hand in every form that holds it
    // (spec §3: length, value bits, first-byte marker and value mask), against varint_size.
    struct Form {
        int length, bits;
        std::uint8_t marker, mask;
    };
    const Form forms[] = {{1, 7, 0x00, 0x7F},  {2, 14, 0x80, 0x3F}, {3, 21, 0xC0, 0x1F}, {4, 27, 0xE0, 0x07},
                          {5, 35, 0xE8, 0x07}, {6, 40, 0xF8, 0x00}, {8, 59, 0xF0, 0x07}, {9, 64, 0xF9, 0x00}};
    std::vector<std::uint64_t> values = {0, 1, ~0ull};
    for (const Form& f : forms)
        if (f.bits < 64) values.insert(values.end(), {(1ull << f.bits) - 1, 1ull << f.bits, (1ull << f.bits) + 1});
    int checked = 0;
    for (const Form& f : forms)
        for (std::uint64_t v : values) {
            if (f.bits < 64 && v >> f.bits) continue;  // does not fit this form
            std::vector<std::uint8_t> bytes;
            const int tail = f.length - 1;
            bytes.push_back(static_cast<std::uint8_t>(f.marker | (tail >= 8 ? 0 : (v >> (8 * tail)) & f.mask)));
            for (int i = tail - 1; i >= 0; --i) bytes.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
            ByteReader r(bytes);
            bool minimal = !(varint_size(v) == std::size_t(f.length));
            EXPECT_EQ(read_varint(r, "v", &minimal), v) << f.length;
            EXPECT_EQ(minimal, varint_size(v) == std::size_t(f.length)) << "value " << v << " in the " << f.length << "-byte form";
            ++checked;
        }
    EXPECT_GT(checked, 60);
}

// ---- real samples ------------------------------------------------------------------------------

TEST(HavokSamples, StrictReadPassesAndRoundTripsByteForByte) {
    for (const char* name : kSamples) {
        auto path = test::sample_or_report(name);
        if (!path) continue;
        SCOPED_TRACE(name);
        const Tagfile t = load_tagfile(*path);
        EXPECT_TRUE(t.warnings.empty()) << t.warnings.front().message;
        const std::vector<std::uint8_t> out = write_tagfile(t);
        ASSERT_EQ(out.size(), t.file.size());
        EXPECT_TRUE(std::equal(out.begin(), out.end(), t.file.begin())) << "round trip differs";
    }
}

TEST(HavokSamples, EldenRingNavmeshObjects) {
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    const Tagfile t = load_tagfile(path);
    EXPECT_EQ(t.sdk_version, "20180100");
    EXPECT_EQ(t.types.size(), 126u);
    EXPECT_EQ(t.items.size() - 1, 26u);
    const auto variants = t.named_variants();
    ASSERT_EQ(variants.size(), 2u);
    EXPECT_EQ(variants[0].name, "hkaiNavMesh");
    EXPECT_EQ(variants[1].class_name, "hkaiStaticTreeNavMeshQueryMediator");
    const ObjectView mesh = *variants[0].object;
    EXPECT_EQ(mesh.type_name(), "hkaiNavMesh");
    const ArrayView faces = mesh.field("faces").as_array();
    EXPECT_EQ(faces.size(), 60u);
    EXPECT_EQ(faces.element_size(), 16u);
    EXPECT_EQ(faces.bytes().size(), 60u * 16);
    EXPECT_EQ(faces.bytes().data(), t.data.data() + faces.offset());  // in place, not copied
    EXPECT_EQ(faces.object(0).field("startUserEdgeIndex").as_int(), -1);
    EXPECT_EQ(faces.object(0).field("padding").as_uint(), 0xCDCDu);
    EXPECT_EQ(mesh.field("edges").as_array().size(), 261u);
    EXPECT_EQ(mesh.field("vertices").as_array().size(), 141u);
    EXPECT_EQ(mesh.field("edges").as_array().object(0).field("oppositeEdge").as_uint(), 0xFFFFFFFFu);
    EXPECT_FLOAT_EQ(mesh.field("aabb").field("max").as_array()[3].as_float(), 2.3999998569f);
    // Shared target: the mediator's navMesh is the same item as variant 0.
    const ObjectView mediator = *variants[1].object;
    EXPECT_EQ(mediator.field("navMesh").item(), 3u);
    EXPECT_EQ(mediator.field("navMesh").target()->offset(), mesh.offset());
    const ObjectView impl = *mediator.field("tree").target()->field("treePtr").target();
    EXPECT_EQ(impl.field("tree").field("nodes").as_array().size(), 119u);
    EXPECT_TRUE(t.find_variant("hkaiNavMeshQueryMediator").has_value());
    EXPECT_EQ(t.find_variant("hkaiUserEdgeSetupArray"), std::nullopt);
}

TEST(HavokSamples, EmbeddedTypeSetMatchesEldenRingRecords) {
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    const Tagfile t = load_tagfile(path);
    const TypeTable set = navmesh_types_2018();
    EXPECT_EQ(set.size(), 149u);
    for (TypeIndex i = 1; i <= t.types.size(); ++i) {
        const std::string name = t.types.full_name(i);
        SCOPED_TRACE(name);
        const TypeIndex j = set.find(name);
        ASSERT_NE(j, 0u);
        const Type &a = t.types[i], &b = set[j];
        EXPECT_EQ(a.optionals, b.optionals);
        // The table also lists inherited values; compare what the record declares, and the resolution.
        if (a.optionals & kOptFormat) { EXPECT_EQ(a.format, b.format); }
        if (a.optionals & kOptVersion) { EXPECT_EQ(a.version, b.version); }
        if (a.optionals & kOptSizeAlign) { EXPECT_EQ(a.size, b.size); EXPECT_EQ(a.alignment, b.alignment); }
        if (a.optionals & kOptFlags) { EXPECT_EQ(a.flags, b.flags); }
        EXPECT_EQ(a.resolved_format, b.resolved_format);
        EXPECT_EQ(a.resolved_size, b.resolved_size);
        EXPECT_EQ(a.resolved_alignment, b.resolved_alignment);
        EXPECT_EQ(t.types.full_name(a.resolved_subtype), set.full_name(b.resolved_subtype));
        EXPECT_EQ(a.property_count, b.property_count);
        EXPECT_EQ(t.types.full_name(a.parent), set.full_name(b.parent));
        ASSERT_EQ(a.members.size(), b.members.size());
        for (std::size_t m = 0; m < a.members.size(); ++m) {
            EXPECT_EQ(a.members[m].name, b.members[m].name);
            EXPECT_EQ(a.members[m].flags, b.members[m].flags);
            EXPECT_EQ(a.members[m].offset, b.members[m].offset);
            EXPECT_EQ(t.types.full_name(a.members[m].type), set.full_name(b.members[m].type));
        }
        if (a.hash) { EXPECT_EQ(*a.hash, *b.hash); }
    }
}

TEST(HavokSamples, EldenRingRebuiltFromEmbeddedTypesIsByteIdentical) {
    // The from-scratch path: the ER objects, typed by the embedded 2018 set instead of the
    // file's own table, written by the same writer, give back the game's bytes.
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    const Tagfile t = load_tagfile(path);
    Graph g = graph_from_tagfile(t);
    TypeTable set = navmesh_types_2018();
    for (Node& n : g.nodes) n.type = set.find(t.types.full_name(n.type));
    for (TypeIndex& s : g.string_types) s = set.find(t.types.full_name(s));  // char: one in each table
    g.types = std::move(set);
    const auto out = write_graph(g);
    ASSERT_EQ(out.size(), t.file.size());
    EXPECT_TRUE(std::equal(out.begin(), out.end(), t.file.begin()));
}

// ---- from scratch ------------------------------------------------------------------------------

TEST(HavokBuilder, GridNavmeshReadsBackCleanly) {
    const auto bytes = small_navmesh();
    const Tagfile t = read_tagfile(bytes);
    EXPECT_TRUE(t.warnings.empty());
    EXPECT_EQ(t.sdk_version, "20180100");
    EXPECT_TRUE(t.style.tna1);
    const ObjectView mesh = *t.find_variant("hkaiNavMesh");
    EXPECT_EQ(mesh.field("faces").as_array().size(), 6u);
    EXPECT_EQ(mesh.field("edges").as_array().size(), 24u);
    EXPECT_EQ(mesh.field("vertices").as_array().size(), 12u);
    EXPECT_EQ(mesh.field("edges").as_array().object(1).field("oppositeFace").as_uint(), 3u);
    const ObjectView mediator = *t.find_variant("hkaiStaticTreeNavMeshQueryMediator");
    EXPECT_EQ(mediator.field("navMesh").target()->offset(), mesh.offset());
    EXPECT_FLOAT_EQ(mesh.field("clearanceCacheSeedingDataSet").target()->field("cacheDatas").as_array().object(0)
                        .field("initialCache").target()->field("clearanceCeiling").as_float(), 2.0f);
    // Round trip of our own output is exact too.
    const auto again = write_tagfile(t);
    EXPECT_EQ(again, bytes);
}

TEST(HavokBuilder, OlderSdkStylesUseTheirTags) {
    const auto sekiro = test::grid_navmesh(2, 2, "20160200");
    const Tagfile s = read_tagfile(sekiro);
    EXPECT_TRUE(s.style.tna1);
    EXPECT_TRUE(s.warnings.empty());
    const auto dsr = test::grid_navmesh(2, 2, "20150100");
    const Tagfile d = read_tagfile(dsr);
    EXPECT_FALSE(d.style.tna1);
    EXPECT_EQ(d.sdk_version, "20150100");
    EXPECT_EQ(write_tagfile(d), dsr);
}

TEST(HavokBuilder, RejectsMisuse) {
    Builder b(navmesh_types_2018());
    const NodeId mesh = b.object("hkaiNavMesh");
    EXPECT_THROW(b.object("noSuchType"), Error);
    EXPECT_THROW(b.at(mesh, "noSuchField"), Error);
    EXPECT_THROW(b.set_array(b.at(mesh, "faces"), b.array("hkaiNavMesh::Edge", 1)), Error);  // wrong element type
    EXPECT_THROW(b.set_int(b.at(mesh, "faces"), 1), Error);                                     // not an integer
    EXPECT_THROW(b.set_pointer(b.at(mesh, "clearanceCacheSeedingDataSet"), mesh), Error);      // wrong target class
    const std::vector<std::uint8_t> three(3);
    EXPECT_THROW(b.array("hkaiNavMesh::Face", 2, three), Error);  // 3 bytes for 2 x 16
    EXPECT_THROW(b.finish(), Error);                               // no root variant
}

// ---- the TYPE-section cache --------------------------------------------------------------------

TEST(HavokTypeCache, ByteIdenticalTypeSectionsShareOneTable) {
    // Different meshes, so DATA differs and TYPE starts at another offset; the types are equal.
    const auto small = test::grid_navmesh(2, 2), large = test::grid_navmesh(5, 3);
    const Tagfile a = read_tagfile(small), b = read_tagfile(large);
    EXPECT_NE(a.data.size(), b.data.size());
    EXPECT_EQ(&a.types[1], &b.types[1]);  // one parse served both
    EXPECT_TRUE(b.warnings.empty());
    EXPECT_EQ(b.find_variant("hkaiNavMesh")->field("faces").as_array().size(), 15u);
    EXPECT_EQ(write_tagfile(b), large);
}

TEST(HavokTypeCache, ChangingACopyLeavesTheSharedTableAlone) {
    const auto bytes = small_navmesh();
    const Tagfile a = read_tagfile(bytes);
    TypeTable copy = a.types;
    const std::string name(a.types[1].name);
    copy.at(1).name = "changed";
    EXPECT_EQ(copy[1].name, "changed");
    EXPECT_EQ(a.types[1].name, name);
    EXPECT_EQ(read_tagfile(bytes).types[1].name, name);
}

TEST(HavokTypeCache, NamesAreHeldByTheTableNotTheFileOrTheCache) {
    // Names view the reader's copy of the TYPE section, which the table holds (types.h): they
    // stay valid after the file's bytes are gone and the cache has dropped the section.
    auto bytes = std::make_unique<std::vector<std::uint8_t>>(small_navmesh());
    TypeTable types = read_tagfile(*bytes).types;
    std::vector<std::string> names;
    for (TypeIndex t = 1; t <= types.size(); ++t) {
        const std::string_view name = types[t].name;
        EXPECT_FALSE(name.data() >= reinterpret_cast<const char*>(bytes->data()) &&
                     name.data() < reinterpret_cast<const char*>(bytes->data() + bytes->size()));
        names.emplace_back(name);
        for (const Member& m : types[t].members) names.emplace_back(m.name);
    }
    // kTypeTablesKept other TYPE sections (another hash each) push this one out of the
    // thread's cache.
    for (std::uint32_t i = 1; i <= kTypeTablesKept; ++i) {
        Tagfile other = read_tagfile(*bytes);
        const TypeIndex root = other.items[1].type;  // hashed: an item's type
        other.types.at(root).hash = *other.types[root].hash + i;
        const auto image = write_tagfile(other);
        const Tagfile again = read_tagfile(image);
        EXPECT_TRUE(again.warnings.empty());
        EXPECT_EQ(again.types[root].hash, *types[root].hash + i);
    }
    std::fill(bytes->begin(), bytes->end(), std::uint8_t{'x'});
    bytes.reset();
    std::size_t i = 0;
    for (TypeIndex t = 1; t <= types.size(); ++t) {
        EXPECT_EQ(types[t].name, names[i++]);
        for (const Member& m : types[t].members) EXPECT_EQ(m.name, names[i++]);
    }
    EXPECT_EQ(types.full_name(types.find("hkRootLevelContainer")), "hkRootLevelContainer");
}

TEST(HavokTypeCache, WarningsOfTheTypeSectionRepeatOnEveryRead) {
    const auto original = small_navmesh();  // the tagfile views these bytes
    Tagfile t = read_tagfile(original);
    t.style.thsh = false;  // a file without THSH: a warning from the TYPE section
    const auto bytes = write_tagfile(t);
    for (int i = 0; i < 2; ++i) {
        const Tagfile r = read_tagfile(bytes);
        ASSERT_EQ(r.warnings.size(), 1u) << "read " << i;
        EXPECT_NE(r.warnings[0].message.find("no THSH"), std::string::npos);
    }
}

TEST(HavokTypeCache, CachedLayoutsVerifyAsFreshOnes) {
    // verify_objects keeps the layouts of the thread's last kTypeTablesKept type tables. Two
    // more tables than that in turn (so entries are evicted and found again), each tagfile
    // also with a nonzero byte in its DATA tail: every read on one thread reports what a read
    // on a new thread reports.
    std::vector<std::vector<std::uint8_t>> files;
    const std::vector<std::uint8_t> sources[2] = {small_navmesh(), test::grid_navmesh(4, 3)};  // tagfiles view them
    for (std::uint32_t i = 0; i < kTypeTablesKept + 2; ++i) {
        Tagfile t = read_tagfile(sources[i % 2]);
        const TypeIndex root = t.items[1].type;
        t.types.at(root).hash = *t.types[root].hash + i;
        files.push_back(write_tagfile(t));
    }
    const std::size_t good = files.size();
    for (std::size_t i = 0; i < good; ++i) {
        std::vector<std::uint8_t> bad = files[i];
        const Tagfile t = read_tagfile(files[i]);
        bad[t.data_offset + t.data.size() - 1] = 0x5A;  // DATA after the last item, or its padding
        files.push_back(bad);
    }
    auto outcome = [&](const std::vector<std::uint8_t>& bytes) {
        try {
            const Tagfile t = read_tagfile(bytes);
            std::string s = std::to_string(t.items.size()) + " items";
            for (const auto& w : t.warnings) s += "; " + w.message;
            return s;
        } catch (const Error& e) {
            return std::string("error: ") + e.what();
        }
    };
    std::vector<std::string> fresh(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) std::thread([&] { fresh[i] = outcome(files[i]); }).join();
    std::thread([&] {
        for (int round = 0; round < 3; ++round)
            for (std::size_t i = 0; i < files.size(); ++i) {
                const std::size_t k = round == 1 ? files.size() - 1 - i : i;
                EXPECT_EQ(outcome(files[k]), fresh[k]) << "round " << round << ", file " << k;
            }
    }).join();
    for (std::size_t i = good; i < files.size(); ++i) EXPECT_EQ(fresh[i].rfind("error: ", 0), 0u) << fresh[i];
}

TEST(HavokTypeCache, OnlyTablesReadWithoutWarningsAreKept) {
    // What callers cache per table (layouts, record summaries) follows type_table_is_kept: a
    // table read from a clean TYPE section is kept, one whose section warned is not (each read
    // parses it anew), nor a table changed or made by hand. Each still verifies.
    const auto clean = small_navmesh();
    const Tagfile a = read_tagfile(clean);
    EXPECT_TRUE(type_table_is_kept(a.types));
    Tagfile warned = a;
    warned.style.thsh = false;  // no THSH: a warning from the TYPE section
    const auto bytes = write_tagfile(warned);
    const Tagfile w1 = read_tagfile(bytes), w2 = read_tagfile(bytes);
    ASSERT_EQ(w1.warnings.size(), 1u);
    EXPECT_FALSE(type_table_is_kept(w1.types));
    EXPECT_FALSE(w1.types.shares_records_with(w2.types));
    TypeTable changed = a.types;
    changed.at(1).version += 1;
    EXPECT_FALSE(type_table_is_kept(changed));
    EXPECT_FALSE(type_table_is_kept(TypeTable{}));
    // Verified again after the unkept tables took the verifier's spare slot: same outcome.
    Tagfile again = read_tagfile(clean);
    EXPECT_NO_THROW(verify_objects(again, kNoOffset));
    EXPECT_EQ(read_tagfile(bytes).warnings.size(), 1u);
}

// ---- fuzz finding: two types named char ----------------------------------------------------------

// fuzz_tagfile found a file (navlab's seed, mutated) whose table holds two types named char: the
// 1-byte one of its string items and a 40-byte one of a pointer item. The writer took the first
// "char" by name as the string items' type; in the written file's type order that was the
// 40-byte one, so write(read(write(x))) wrote 35 × 40-byte string items past the end of DATA.
// The spec allows several types of one name (§4.3): the graph now keeps each string's own type.
TEST(HavokWriter, StringItemsKeepTheirOwnCharTypeWhenTwoTypesAreNamedChar) {
    const auto bytes = read_file(std::filesystem::path(NAVLAB_SOURCE_DIR) /
                                 "tests/havok/fuzz_reproducers/tagfile-two-char-types.hkx");
    const Tagfile t = read_tagfile(bytes);
    int chars = 0, wide = 0;
    for (TypeIndex i = 1; i <= t.types.size(); ++i)
        if (t.types.full_name(i) == "char") ++chars, wide += t.types[i].resolved_size != 1;
    ASSERT_EQ(chars, 2);
    ASSERT_EQ(wide, 1);
    const auto once = write_tagfile(t);
    const Tagfile again = read_tagfile(once);
    const auto twice = write_tagfile(again);
    EXPECT_EQ(twice, once);  // the writer's layout is a fixed point
    // Every string item of both writes is an array of the 1-byte char.
    for (const Tagfile* f : {&t, &again}) {
        int strings = 0;
        for (const Graph g = graph_from_tagfile(*f); TypeIndex s : g.string_types) {
            EXPECT_EQ(f->types[s].resolved_size, 1u);
            ++strings;
        }
        EXPECT_EQ(strings, static_cast<int>(graph_from_tagfile(*f).strings.size()));
        EXPECT_GT(strings, 0);
    }
}

TEST(HavokWriter, AStringTypedByAWideTypeIsRefused) {
    const auto bytes = read_file(std::filesystem::path(NAVLAB_SOURCE_DIR) /
                                 "tests/havok/fuzz_reproducers/tagfile-two-char-types.hkx");
    const Tagfile t = read_tagfile(bytes);
    Graph g = graph_from_tagfile(t);
    TypeIndex wide = 0;
    for (TypeIndex i = 1; i <= t.types.size(); ++i)
        if (t.types.full_name(i) == "char" && t.types[i].resolved_size != 1) wide = i;
    ASSERT_NE(wide, 0u);
    ASSERT_FALSE(g.string_types.empty());
    g.string_types[0] = wide;
    try {
        write_graph(g);
        ADD_FAILURE() << "a string item of a 40-byte type written";
    } catch (const Error& e) {
        EXPECT_EQ(e.message(), fmt::format("writer: string 0 has element type {}, not a 1-byte type", wide));
    }
}

// ---- ObjectView::is_a --------------------------------------------------------------------------

// is_a makes a type's full name only when its base name and template arguments could spell the
// name asked; a brute-force reading makes every full name of the chain. Types with and without
// parameters, names that only share a prefix, a '<' after a shorter name, a type parameter that
// names a type and a value parameter, empty names, and a parent chain with a self-parent.
namespace {

/// Tagfile::named_variants as it was, with a lookup of each member for each element: the
/// reference for the one that looks the members up once.
std::vector<NamedVariant> named_variants_looked_up_per_element(const Tagfile& file) {
    std::vector<NamedVariant> out;
    const ArrayView variants = file.root().field("namedVariants").as_array();
    for (std::uint32_t i = 0; i < variants.size(); ++i) {
        const ObjectView v = variants.object(i);
        out.push_back({v.field("name").as_string(), v.field("className").as_string(), v.field("variant").target()});
    }
    return out;
}

/// The variants as text, or the error with its offset and field.
template <class Read>
std::string variants_or_error(const Tagfile& file, Read read) {
    try {
        std::string text;
        for (const NamedVariant& v : read(file))
            text += fmt::format("[{}|{}|{}]", v.name, v.class_name,
                                v.object ? fmt::format("{}@{}", v.object->type_index(), v.object->offset()) : "null");
        return text;
    } catch (const Error& e) {
        return fmt::format("error {} at {} in {}", e.message(), e.offset(), e.field());
    }
}

}  // namespace

// named_variants looks the element type's three members up once for the array: on hand-built
// roots whose NamedVariant type lacks a member, has it renamed, of another kind or inherited, an
// element type that is no record, and elements with null, bad or wrong-kind references, it
// returns (or refuses with the same message, offset and field) what a lookup per element did.
TEST(HavokObjects, NamedVariantsLookedUpOnceEqualALookupPerElement) {
    std::mt19937 rng(39);
    const std::string_view names[] = {"name", "className", "variant", "nam", "Name", "variants", ""};
    int refused = 0, read = 0, missing = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        Tagfile file;
        auto add = [&](std::string_view name, Kind kind, std::uint32_t size, TypeIndex parent = 0) {
            return add_resolved_type(file.types, name, kind, size, 0, parent);
        };
        const TypeIndex chr = add("char", Kind::Int, 1);
        const TypeIndex string = add("char*", Kind::String, 8);
        const TypeIndex pointer = add("T*", Kind::Pointer, 8);
        const TypeIndex integer = add("hkUint64", Kind::Int, 8);
        const TypeIndex target = add("hkaiNavMesh", Kind::Record, 8);
        const TypeIndex base = add("hkBase", Kind::Record, 24);
        const TypeIndex element = add("hkRootLevelContainer::NamedVariant", rng() % 20 ? Kind::Record : Kind::Int, 24,
                                      rng() % 2 ? base : 0);
        const TypeIndex array = add("hkArray", Kind::Array, 16);
        const TypeIndex root = add("hkRootLevelContainer", Kind::Record, 16);
        file.types.at(array).resolved_subtype = element;
        file.types.at(root).members.push_back(Member{"namedVariants", 0, 0, array});
        // Three 8-byte slots; each mostly the member it should be, sometimes renamed, missing,
        // of another kind or declared by the parent.
        const TypeIndex right_kinds[] = {string, string, pointer};
        for (std::uint32_t slot = 0; slot < 3; ++slot) {
            if (rng() % 12 == 0) continue;
            const std::string_view name = rng() % 8 ? names[slot] : names[rng() % std::size(names)];
            const TypeIndex kind = rng() % 12 ? right_kinds[slot] : (rng() % 2 ? integer : right_kinds[2 - slot]);
            const TypeIndex owner = rng() % 4 == 0 && file.types[element].parent ? base : element;
            file.types.at(owner).members.push_back(Member{name, 0, 8 * slot, kind});
        }
        std::vector<Member>& own = file.types.at(element).members;
        if (rng() % 3 == 0 && !own.empty()) std::swap(own.front(), own.back());
        // DATA: the root at 0, up to four elements from 16, the strings "first" and "x" at 112 and
        // 118, the target object at 120.
        const std::uint32_t count = rng() % 5;
        std::vector<std::uint8_t> data(128, 0);
        data[0] = 2;
        std::memcpy(data.data() + 112, "first\0x", 8);
        const std::uint8_t references[] = {0, 3, 4, 5, 2, 1, 9};
        for (std::uint32_t i = 0; i < count; ++i)
            for (std::uint32_t slot = 0; slot < 3; ++slot) {
                const bool right = rng() % 6 != 0;
                data[16 + 24 * i + 8 * slot] = right ? (slot < 2 ? 3 + rng() % 2 : 5 * (rng() % 2)) : references[rng() % 7];
            }
        file.data = Bytes(data);
        file.data_offset = 0x40;
        file.items = {Item{},
                      Item{ItemKind::Pointer, root, 0, 1},
                      Item{ItemKind::Array, element, 16, count},
                      Item{ItemKind::Array, chr, 112, 6},
                      Item{ItemKind::Array, chr, 118, 2},
                      Item{ItemKind::Pointer, target, 120, 1}};
        const std::string want = variants_or_error(file, named_variants_looked_up_per_element);
        const std::string got = variants_or_error(file, [](const Tagfile& f) { return f.named_variants(); });
        ASSERT_EQ(got, want) << "trial " << trial;
        (want.starts_with("error") ? refused : read) += 1;
        missing += want.find("has no field") != std::string::npos;
    }
    // Both outcomes, and the missing members' refusal among them, were met often.
    EXPECT_GT(refused, 500);
    EXPECT_GT(read, 500);
    EXPECT_GT(missing, 200);
}

TEST(HavokObjects, IsAMatchesEveryFullNameOfTheChain) {
    Tagfile file;
    TypeTable& types = file.types;
    auto add = [&](std::string_view name, std::vector<TemplateParam> params, TypeIndex parent) {
        Type t;
        t.name = name;
        t.params = std::move(params);
        t.parent = parent;
        return types.add(std::move(t));
    };
    const TypeIndex i32 = add("hkInt32", {}, 0);
    const TypeIndex base = add("hkReferencedObject", {}, 0);
    const TypeIndex arr = add("hkArray", {{"tT", i32}, {"tAllocator", base}}, base);
    const TypeIndex mesh = add("hkaiNavMesh", {}, arr);
    const TypeIndex fixed = add("T[N]", {{"tT", i32}, {"vN", 3}}, mesh);
    const TypeIndex shortname = add("hk", {{"tT", fixed}}, fixed);
    const TypeIndex empty = add("", {{"vN", 0}}, shortname);
    const TypeIndex self = add("hkSelf", {{"tT", i32}}, 0);
    types.at(self).parent = self;
    const std::string names[] = {"", "hk", "hk<", "hkInt32", "hkInt3", "hkReferencedObject", "hkArray",
                                 "hkArray<hkInt32, hkReferencedObject>", "hkArray<hkInt32, hkReferencedObject",
                                 "hkArray<hkInt32>", "hkArray<", "hkaiNavMesh", "hkaiNavMesh<", "T[N]",
                                 "T[N]<hkInt32, 3>", "T[N]<hkInt32, 4>", "hk<T[N]<hkInt32, 3>>", "hk<T[N]>",
                                 "<0>", "<", "hkSelf", "hkSelf<hkInt32>", "hkSelf<hkInt32>x"};
    for (TypeIndex start : {i32, base, arr, mesh, fixed, shortname, empty, self}) {
        for (const std::string& name : names) {
            bool expected = false;
            for (TypeIndex t = start; types.valid(t); t = types[t].parent) {
                if (types[t].name == name || types.full_name(t) == name) {
                    expected = true;
                    break;
                }
                if (t == types[t].parent) break;
            }
            EXPECT_EQ(ObjectView(file, start, 0).is_a(name), expected) << types.full_name(start) << " is a " << name;
        }
    }
    // The full names are taken (not only the base names): the test would pass otherwise.
    EXPECT_TRUE(ObjectView(file, empty, 0).is_a("hk<T[N]<hkInt32, 3>>"));
    EXPECT_TRUE(ObjectView(file, empty, 0).is_a("<0>"));
}

// operator[] is inline with its failure out of line: an index outside 1..N still throws, with
// the same message.
TEST(HavokTypes, IndexOutsideTheTableThrowsNamingTheRange) {
    TypeTable types;
    for (std::string_view name : {"a", "b"}) {
        Type t;
        t.name = name;
        types.add(std::move(t));
    }
    EXPECT_EQ(types[2].name, "b");
    for (TypeIndex bad : {TypeIndex{0}, TypeIndex{3}, TypeIndex{0xFFFFFFFF}}) {
        try {
            (void)types[bad];
            ADD_FAILURE() << bad;
        } catch (const Error& e) {
            EXPECT_EQ(e.message(), fmt::format("type index {} out of range 1..2", bad));
        }
    }
    EXPECT_THROW((void)TypeTable{}[1], Error);
}

// find_member tests each member's length and first byte before comparing the names: over a
// chain of types whose members share lengths, first bytes, prefixes and suffixes (an empty name
// too, and a name declared by both a type and its parent), it finds what a plain comparison of
// whole names finds, in the same order (the type's own members, then its parents').
TEST(HavokTypes, FindMemberAgreesWithAPlainComparisonOfWholeNames) {
    const std::vector<std::string> names = {"faces", "edges", "fades", "facet", "faced", "f", "e", "",
                                            "vertices", "verticez", "xertices", "userData", "userEdge",
                                            "flags", "flag", "flagss", "aabb", "aabc", "babb"};
    std::mt19937 rng(38);
    TypeTable types;
    TypeIndex parent = 0;
    for (int level = 0; level < 4; ++level) {
        Type t;
        t.name = "hkLevel";
        t.parent = parent;
        for (const std::string& name : names)
            if (rng() % 3 == 0) t.members.push_back({name, 0, static_cast<std::uint32_t>(t.members.size()), 0});
        parent = types.add(std::move(t));
    }
    std::vector<std::string> asked = names;
    for (const std::string& name : names) {
        asked.push_back(name + "s");
        if (!name.empty()) asked.push_back(name.substr(1)), asked.push_back("x" + name.substr(1));
    }
    int found = 0;
    for (TypeIndex t = 1; t <= types.size(); ++t)
        for (const std::string& name : asked) {
            const Member* expected = nullptr;
            for (TypeIndex c = t; types.valid(c) && !expected; c = types[c].parent)
                for (const Member& m : types[c].members)
                    if (std::string(m.name) == name) {
                        expected = &m;
                        break;
                    }
            EXPECT_EQ(types.find_member(t, name), expected) << "type " << t << " member \"" << name << "\"";
            found += expected != nullptr;
        }
    EXPECT_GT(found, 40);  // both answers were asked for
    EXPECT_EQ(types.find_member(0, "faces"), nullptr);
}
