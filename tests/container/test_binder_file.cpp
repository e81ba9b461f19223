// BinderFile: DCX/BND4/raw files by path, entry lookup, error context; and the container
// commands end to end (ls, unpack -> pack, dcx info/decompress/compress).
#include <gtest/gtest.h>

#include <algorithm>

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>

#include "codec/dcx.h"
#include "container/binder_file.h"
#include "container/bnd4.h"
#include "container/manifest.h"
#include "io/error.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;
namespace fs = std::filesystem;

namespace {

std::vector<std::uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

std::vector<std::uint8_t> navmesh_binder_image() {
    std::vector<bnd4::NewEntry> files;
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_001000.hkx"), 10000, bytes_of("hi-res")});
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "o10_00_00_00_001000.hkx"), 20000, bytes_of("lo-res")});
    files.push_back({"N:\\GR\\data\\INTERROOT_win64\\map\\m10_00_00_00\\navimesh\\bind6\\アイテム.hkx", 30000,
                     bytes_of("unicode name")});
    return bnd4::write(bnd4::build_navmesh_binder(std::move(files)));
}

std::string run(const std::string& args, int* status = nullptr) {
    std::string out;
    const int rc = test::run_command(test::navlab_binary() + " " + args, &out);
    if (status) *status = rc;
    else EXPECT_EQ(rc, 0) << args << "\n" << out;
    return out;
}

}  // namespace

TEST(BinderFile, OpensDcxAroundBnd4) {
    const auto dir = test::scratch_dir("binder_file_dcx");
    const auto path = dir / "m10_00_00_00.nvmhktbnd.dcx";
    write_file_atomic(path, dcx::compress(navmesh_binder_image(), dcx::Variant::Dflt_11000_44_9));
    const auto f = container::BinderFile::open(path);
    ASSERT_TRUE(f.dcx.has_value());
    EXPECT_EQ(f.dcx->variant, dcx::Variant::Dflt_11000_44_9);
    EXPECT_TRUE(f.is_binder);
    ASSERT_EQ(f.entries().size(), 3u);
    EXPECT_EQ(f.entries()[1].id, 20000);
    EXPECT_EQ(f.find_entry("1").name, bnd4::er_navmesh_entry_name("10_00_00_00", "o10_00_00_00_001000.hkx"));
    EXPECT_EQ(f.find_entry("n10_00_00_00_001000.hkx").id, 10000);
    EXPECT_EQ(f.find_entry(bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_001000.hkx")).index, 0u);
    EXPECT_EQ(f.find_entry("アイテム.hkx").id, 30000);
    EXPECT_TRUE(std::ranges::equal(f.find_entry("2").data, bytes_of("unicode name")));
    EXPECT_THROW(f.find_entry("3"), Error);
    EXPECT_THROW(f.find_entry("missing.hkx"), Error);
    fs::remove_all(dir);
}

TEST(BinderFile, RawAndCompressedNonBindersAreOneEntry) {
    const auto dir = test::scratch_dir("binder_file_raw");
    write_file_atomic(dir / "plain.hkx", std::string_view("TAG0 not a binder"));
    const auto raw = container::BinderFile::open(dir / "plain.hkx");
    EXPECT_FALSE(raw.dcx.has_value());
    EXPECT_FALSE(raw.is_binder);
    ASSERT_EQ(raw.entries().size(), 1u);
    EXPECT_EQ(raw.entries()[0].name, "plain.hkx");
    EXPECT_EQ(raw.entries()[0].data.size(), 17u);
    EXPECT_THROW(raw.binder(), Error);

    EXPECT_FALSE(raw.entries()[0].in_dcx);

    const auto packed = container::BinderFile::from_bytes(dcx::compress(bytes_of("payload"), dcx::Variant::Zstd), "x.dcx");
    ASSERT_TRUE(packed.dcx.has_value());
    ASSERT_EQ(packed.entries().size(), 1u);
    EXPECT_EQ(packed.find_entry("x.dcx").data.size(), 7u);
    EXPECT_TRUE(packed.entries()[0].in_dcx);
    fs::remove_all(dir);
}

// A reader's offset in a compressed non-binder counts from the payload, so its error says so;
// a binder member's error names the member, a plain file's nothing more.
TEST(BinderFile, ReadErrorsNameWhereTheirOffsetsCountFrom) {
    auto field_of_read_error = [](const container::Entry& e) {
        try {
            container::read_entry(e, [](const SharedBytes&) -> int { throw Error("bad", 4, "TAG0"); });
        } catch (const Error& err) {
            return err.field();
        }
        return std::string("no error");
    };
    const auto packed = container::BinderFile::from_bytes(dcx::compress(bytes_of("payload"), dcx::Variant::Zstd), "x.dcx");
    EXPECT_EQ(field_of_read_error(packed.entries()[0]), "DCX payload: TAG0");
    const auto plain = container::BinderFile::from_bytes(bytes_of("payload"), "x.hkx");
    EXPECT_EQ(field_of_read_error(plain.entries()[0]), "TAG0");
    const auto binder = container::BinderFile::from_bytes(dcx::compress(navmesh_binder_image(), dcx::Variant::Zstd), "b.dcx");
    EXPECT_FALSE(binder.entries()[1].in_dcx);
    EXPECT_EQ(field_of_read_error(binder.entries()[1]),
              "entry 1 (" + bnd4::er_navmesh_entry_name("10_00_00_00", "o10_00_00_00_001000.hkx") + "): TAG0");
    // open_entry's whole decompressed file (`hkx check` of a .dcx) is a payload too.
    const auto dir = test::scratch_dir("binder_file_payload");
    write_file_atomic(dir / "x.dcx", dcx::compress(bytes_of("payload"), dcx::Variant::Zstd));
    write_file_atomic(dir / "x.hkx", std::string_view("payload"));
    EXPECT_EQ(field_of_read_error(container::open_entry(dir / "x.dcx", "")), "DCX payload: TAG0");
    EXPECT_EQ(field_of_read_error(container::open_entry(dir / "x.hkx", "")), "TAG0");
    fs::remove_all(dir);
}

TEST(BinderFile, ErrorsCarryFileAndContext) {
    auto image = navmesh_binder_image();
    image[0x40 + 0x24 + 0x20] = 0xFF;  // entry 1: name offset far past the end
    image[0x40 + 0x24 + 0x21] = 0xFF;
    try {
        container::BinderFile::from_bytes(dcx::compress(image, dcx::Variant::Dflt_10000_44_9), "broken.dcx");
        FAIL() << "accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.file(), "broken.dcx");
        EXPECT_EQ(e.field(), "DCX payload: BND4 entry 1");
        EXPECT_EQ(e.offset(), 0x40u + 0x24 + 0x20);
        EXPECT_NE(std::string(e.what()).find("broken.dcx: offset 0x84: DCX payload: BND4 entry 1: name offset"),
                  std::string::npos)
            << e.what();
    }
}

// ---- the commands -------------------------------------------------------------------

TEST(ContainerCli, UnpackPackRebuildsTheBinderAndVariant) {
    const auto dir = test::scratch_dir("cli_pack");
    const auto image = navmesh_binder_image();
    for (auto v : {dcx::Variant::Dflt_11000_44_9_15, dcx::Variant::Krak, dcx::Variant::Zstd, dcx::Variant::None}) {
        SCOPED_TRACE(std::string(dcx::variant_name(v)));
        const auto original = dir / "in.nvmhktbnd.dcx";
        write_file_atomic(original, dcx::compress(image, v));
        fs::remove_all(dir / "out");
        int status = 0;
        const std::string out = run("unpack " + original.string() + " " + (dir / "out").string(), &status);
        ASSERT_EQ(status, 0) << out;
        EXPECT_TRUE(fs::exists(dir / "out" / "navlab-manifest.json"));
        EXPECT_EQ(read_file(dir / "out" / "n10_00_00_00_001000.hkx"), bytes_of("hi-res"));
        run("pack " + (dir / "out").string() + " " + (dir / "rebuilt.dcx").string());
        const auto rebuilt = read_file(dir / "rebuilt.dcx");
        // Same variant bytes: the writer is deterministic, so the whole file is identical.
        EXPECT_EQ(rebuilt, read_file(original));
    }
    fs::remove_all(dir);
}

// An entry name longer than a file system takes (a damaged binder's runs to thousands of
// bytes; NAME_MAX is 255) is unpacked as entry_INDEX.bin instead of failing at the output, and
// pack still rebuilds the identical binder from the manifest's name.
TEST(ContainerCli, UnpackWritesAnOverlongNameUnderItsIndex) {
    const auto dir = test::scratch_dir("cli_long_name");
    std::vector<bnd4::NewEntry> files;
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_001000.hkx"), 10000, bytes_of("short")});
    files.push_back({"N:\\GR\\" + std::string(300, 'x') + ".hkx", 20000, bytes_of("long")});
    write_file_atomic(dir / "m.nvmhktbnd", bnd4::write(bnd4::build_navmesh_binder(std::move(files))));
    int status = 0;
    const std::string out = run("unpack " + (dir / "m.nvmhktbnd").string() + " " + (dir / "u").string(), &status);
    ASSERT_EQ(status, 0) << out;
    EXPECT_EQ(read_file(dir / "u" / "entry_1.bin"), bytes_of("long"));
    EXPECT_EQ(read_file(dir / "u" / "n10_00_00_00_001000.hkx"), bytes_of("short"));
    run("pack " + (dir / "u").string() + " " + (dir / "p.nvmhktbnd").string());
    EXPECT_EQ(read_file(dir / "p.nvmhktbnd"), read_file(dir / "m.nvmhktbnd"));
}

// pack()'s progress hooks: for a DCX_KRAK file `encoding` is called once with the payload's
// size (the binder as built, which is the unpacked file's decompressed payload) and
// `block_done` once per Kraken block, their bytes summing to that size; other variants call
// neither. The packed bytes are those of a pack without hooks.
TEST(ContainerPack, ProgressHooksSeeEveryKrakenBlockOnce) {
    const auto dir = test::scratch_dir("pack_progress");
    // Two 256 KiB blocks and a bit (three blocks): an entry of 700 KB in the binder.
    std::vector<std::uint8_t> big(700'000);
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 15);
    std::vector<bnd4::NewEntry> files;
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_001000.hkx"), 10000, big});
    const auto payload = bnd4::write(bnd4::build_navmesh_binder(std::move(files)));
    for (auto v : {dcx::Variant::Krak, dcx::Variant::Dflt_10000_44_9}) {
        SCOPED_TRACE(std::string(dcx::variant_name(v)));
        const auto in = dir / "in.dcx";
        write_file_atomic(in, dcx::compress(payload, v, nullptr, 1));
        container::unpack(container::BinderFile::open(in.string()), "in.dcx", dir / "u");
        std::size_t announced = 0, calls = 0;
        std::atomic<std::size_t> blocks{0}, bytes{0};
        container::PackProgress hooks;
        hooks.encoding = [&](std::size_t n) { announced = n, ++calls; };
        hooks.block_done = [&](std::size_t n) { ++blocks, bytes += n; };
        const container::Packed packed = container::pack(dir / "u", 1, hooks);
        EXPECT_EQ(packed.bytes, container::pack(dir / "u", 1).bytes);
        if (v == dcx::Variant::Krak) {
            EXPECT_EQ(calls, 1u);
            EXPECT_EQ(announced, payload.size());
            EXPECT_EQ(blocks.load(), (payload.size() + 0x3FFFF) / 0x40000);
            EXPECT_EQ(bytes.load(), payload.size());
        } else {
            EXPECT_EQ(calls, 0u);
            EXPECT_EQ(blocks.load(), 0u);
        }
        std::filesystem::remove_all(dir / "u");
    }
    std::filesystem::remove_all(dir);
}

// A hand-edited manifest whose value its field cannot hold is refused naming the field, never
// cast (300 read as a byte was 44; 1e20 as an int was undefined behaviour; "zz" as hex threw
// a std::invalid_argument no command caught as a navlab error).
TEST(ContainerCli, PackRefusesManifestValuesTheFieldCannotHold) {
    const auto dir = test::scratch_dir("cli_pack_bad");
    write_file_atomic(dir / "in.dcx", dcx::compress(navmesh_binder_image(), dcx::Variant::Dflt_10000_44_9));
    int status = 0;
    const std::string out = run("unpack " + (dir / "in.dcx").string() + " " + (dir / "u").string(), &status);
    ASSERT_EQ(status, 0) << out;
    const auto manifest = dir / "u" / "navlab-manifest.json";
    const auto original = read_file(manifest);
    auto refusal = [&](const std::function<void(nlohmann::ordered_json&)>& edit) {
        auto m = nlohmann::ordered_json::parse(original.begin(), original.end());
        edit(m);
        write_file_atomic(manifest, m.dump(1));
        try {
            container::pack(dir / "u");
        } catch (const Error& e) {
            return e.message() + " @ " + e.field();
        }
        return std::string("no error");
    };
    EXPECT_EQ(refusal([](auto& m) { m["bnd4"]["unk04"] = 300; }), "300 is not an integer in 0 .. 255 @ bnd4: unk04");
    EXPECT_EQ(refusal([](auto& m) { m["entries"][1]["id"] = 1e20; }),
              "1e+20 is not an integer in -2147483648 .. 2147483647 @ entries[1]: id");
    EXPECT_EQ(refusal([](auto& m) { m["dcx"]["field10"] = "0x4G"; }),
              "\"0x4G\" is not a number (decimal, or hex with 0x) @ dcx: field10");
    EXPECT_EQ(refusal([](auto& m) { m["dcx"]["field10"] = "-1"; }), "-1 is not an integer in 0 .. 4294967295 @ dcx: field10");
    EXPECT_EQ(refusal([](auto& m) { m["entries"][0]["name_hex"] = "4e7z"; }),
              "hex string \"4e7z\" has a non-hex digit at character 2 @ entries[0]");
    // A value of the wrong JSON type, a missing or misshapen part: the field named, never
    // nlohmann's "[json.exception.type_error.302] type must be string, but is number" alone.
    EXPECT_EQ(refusal([](auto& m) { m["entries"][2]["file"] = 42; }), "42 is not a string @ entries[2]: file");
    EXPECT_EQ(refusal([](auto& m) { m["entries"][2].erase("file"); }), "is missing @ entries[2]: file");
    EXPECT_EQ(refusal([](auto& m) { m["entries"][0]["name"] = true; }), "true is not a string @ entries[0]: name");
    EXPECT_EQ(refusal([](auto& m) { m["entries"][1] = 7; }), "7 is not an object @ entries[1]");
    EXPECT_EQ(refusal([](auto& m) { m["entries"] = "all"; }), "is missing or not an array @ entries");
    EXPECT_EQ(refusal([](auto& m) { m["bnd4"] = 5; }), "5 is not an object or null @ bnd4");
    EXPECT_EQ(refusal([](auto& m) { m.erase("dcx"); }), "is missing @ dcx");
    EXPECT_EQ(refusal([](auto& m) { m["dcx"]["variant"] = nullptr; }), "null is not a string @ dcx: variant");
    EXPECT_EQ(refusal([](auto& m) { m["navlab_manifest"] = "1"; }), "\"1\" is not an integer in -2147483648 .. 2147483647 @ navlab_manifest");
    // An entry's file stays inside the folder: a manifest cannot pack /etc/passwd.
    EXPECT_EQ(refusal([](auto& m) { m["entries"][0]["file"] = "/etc/passwd"; }),
              "\"/etc/passwd\" is not a file inside the folder: give its name, or a path below the folder without "
              "\"..\" @ entries[0]: file");
    EXPECT_EQ(refusal([](auto& m) { m["entries"][0]["file"] = "sub/../../in.dcx"; }).substr(0, 40),
              "\"sub/../../in.dcx\" is not a file inside ");
    // The values unpack wrote read back: hex text, negative decimal numbers.
    EXPECT_EQ(refusal([](auto& m) { m["entries"][0]["field04"] = -1; m["dcx"]["field10"] = "0x44"; }), "no error");

    // Text that is not JSON: the byte where parsing stopped, nlohmann's reason without its tag.
    std::string text(original.begin(), original.end());
    const std::size_t comma = text.find(",\n \"dcx\"");
    ASSERT_NE(comma, std::string::npos);
    text[comma] = ';';
    write_file_atomic(manifest, text);
    try {
        container::pack(dir / "u");
        ADD_FAILURE() << "a manifest that is not JSON was packed";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), comma) << e.what();
        EXPECT_EQ(e.message().rfind("not valid JSON: parse error at line 3, column ", 0), 0u) << e.what();
        EXPECT_EQ(e.file(), manifest.string());
    }
    fs::remove_all(dir);
}

TEST(ContainerCli, UnpackPackRoundTripsRealSamples) {
    for (const char* name : {"bb_allmaterialbnd.mtdbnd.dcx", "sekiro_spaar_item.msgbnd.dcx", "dsr_MtdPatch.mtdbnd.dcx"}) {
        SCOPED_TRACE(name);
        auto path = test::sample_or_report(std::string("fromsoft/") + name);
        if (!path) continue;
        const auto dir = test::scratch_dir("cli_sample");
        int status = 0;
        const std::string out = run("unpack " + path->string() + " " + (dir / "u").string(), &status);
        ASSERT_EQ(status, 0) << out;
        run("pack " + (dir / "u").string() + " " + (dir / "p.dcx").string());
        const auto original = dcx::decompress(read_file(*path));
        const auto rebuilt = dcx::decompress(read_file(dir / "p.dcx"));
        EXPECT_EQ(rebuilt.payload, original.payload);  // identical decompressed binder
        EXPECT_EQ(rebuilt.header.variant, original.header.variant);
        EXPECT_EQ(rebuilt.header.level_word, original.header.level_word);
        EXPECT_EQ(rebuilt.header.field10, original.header.field10);
        fs::remove_all(dir);
    }
}

// An entry name holding a control character (UTF-16 0x001B) is listed as \x1B, never raw.
TEST(ContainerCli, LsShowsAControlCharacterInANameEscaped) {
    const auto dir = test::scratch_dir("cli_ls_escape");
    auto image = navmesh_binder_image();
    const std::u16string name = u"o10_00_00_00_001000";
    const auto* first = reinterpret_cast<const std::uint8_t*>(name.data());
    const auto at = std::search(image.begin(), image.end(), first, first + 2 * name.size());
    ASSERT_NE(at, image.end());
    at[0] = 0x1B;  // u"\x1B10_00_00_00_001000"
    write_file_atomic(dir / "m.nvmhktbnd", image);
    const std::string out = run("ls " + (dir / "m.nvmhktbnd").string());
    EXPECT_NE(out.find("\\x1B10_00_00_00_001000.hkx"), std::string::npos) << out;
    EXPECT_EQ(out.find('\x1B'), std::string::npos);
}

TEST(ContainerCli, LsJsonAndDcxCommands) {
    const auto dir = test::scratch_dir("cli_dcx");
    const auto bnd = dir / "m.nvmhktbnd";
    write_file_atomic(bnd, navmesh_binder_image());
    run("dcx compress " + bnd.string() + " " + (dir / "m.dcx").string() + " --variant DCX_DFLT_10000_44_9");
    const auto j = nlohmann::json::parse(run("ls --json " + (dir / "m.dcx").string()));
    EXPECT_EQ(j.at("dcx").at("variant"), "DCX_DFLT_10000_44_9");
    EXPECT_EQ(j.at("bnd4").at("version"), "07D7R6");
    EXPECT_EQ(j.at("bnd4").at("format_raw"), "0x74");
    ASSERT_EQ(j.at("entries").size(), 3u);
    EXPECT_EQ(j.at("entries").at(1).at("id"), 20000);
    EXPECT_EQ(j.at("entries").at(1).at("flags_raw"), "0x40");
    EXPECT_NE(run("ls " + (dir / "m.dcx").string()).find("o10_00_00_00_001000.hkx"), std::string::npos);

    const auto info = nlohmann::json::parse(run("dcx info --json " + (dir / "m.dcx").string()));
    EXPECT_EQ(info.at("field10"), "0x44");
    EXPECT_EQ(info.at("uncompressed_size"), navmesh_binder_image().size());

    // Rewriting keeps the variant unless told otherwise.
    run("dcx compress " + (dir / "m.dcx").string() + " " + (dir / "same.dcx").string());
    EXPECT_EQ(dcx::read_header(read_file(dir / "same.dcx")).variant, dcx::Variant::Dflt_10000_44_9);
    run("dcx compress " + (dir / "m.dcx").string() + " " + (dir / "k.dcx").string() + " --variant DCX_KRAK");
    EXPECT_EQ(dcx::read_header(read_file(dir / "k.dcx")).variant, dcx::Variant::Krak);
    run("dcx decompress " + (dir / "same.dcx").string() + " " + (dir / "back").string());
    EXPECT_EQ(read_file(dir / "back"), navmesh_binder_image());

    int status = 0;
    write_file_atomic(dir / "bad.dcx", std::string_view("DCX\0garbage", 11));
    const std::string err = run("ls " + (dir / "bad.dcx").string(), &status);
    EXPECT_EQ(status, 1);
    EXPECT_NE(err.find("bad.dcx: offset 0x"), std::string::npos) << err;
    for (const char* cmd : {"ls", "unpack", "pack", "dcx info", "dcx decompress", "dcx compress"}) {
        const std::string help = run(std::string(cmd) + " --help");
        EXPECT_NE(help.find("Example: navlab"), std::string::npos) << cmd;
        EXPECT_NE(help.find("Input"), std::string::npos) << cmd;
        EXPECT_NE(help.find("Output"), std::string::npos) << cmd;
    }
    fs::remove_all(dir);
}
