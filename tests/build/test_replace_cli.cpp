// navlab replace (library and command) and the navlab build command end to end: output
// audited by `navlab audit`, nothing written on error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "build/pipeline.h"
#include "build/replace.h"
#include "build/scenes.h"
#include "codec/dcx.h"
#include "container/bnd4.h"
#include "havok/type_sets.h"
#include "havok/writer.h"
#include "io/error.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;
using namespace navlab::build;
namespace fs = std::filesystem;

namespace {

std::vector<std::uint8_t> nine_tile_binder() {
    BuildOptions o;
    o.spec.tile_size = 16;
    o.compression = Compression::Dflt;
    o.threads = 1;
    return build_fromsoft(scenes::floor_with_pillar(40), o).binder;
}

std::vector<std::uint8_t> payload(std::span<const std::uint8_t> file) {
    const dcx::Decoded d = dcx::decompress(file);
    return {d.payload.begin(), d.payload.end()};
}

std::vector<std::uint8_t> bytes_of(const bnd4::Entry& e) { return {e.data().begin(), e.data().end()}; }

void write_obj(const fs::path& path, const TriangleSoup& s) {
    std::ofstream out(path);
    for (int v = 0; v < s.vertex_count(); ++v) out << "v " << s.verts[v * 3] << ' ' << s.verts[v * 3 + 1] << ' ' << s.verts[v * 3 + 2] << '\n';
    for (int t = 0; t < s.triangle_count(); ++t)
        out << "f " << s.tris[t * 3] + 1 << ' ' << s.tris[t * 3 + 1] + 1 << ' ' << s.tris[t * 3 + 2] + 1 << '\n';
}

}  // namespace

TEST(Replace, SwapKeepsEveryOtherMemberAndSameBytesGiveTheSameFile) {
    const auto file = nine_tile_binder();
    const auto beforeImage = payload(file);
    const bnd4::Binder before = bnd4::read(beforeImage);
    // The same bytes back: the whole file is identical (headers as the writer makes them).
    const auto same = replace_member(file, "2", bytes_of(before.entries[2]));
    EXPECT_EQ(same.file, file);
    EXPECT_EQ(same.action, "replaced");

    const std::vector<std::uint8_t> other = {'T', 'A', 'G', '0', 1, 2, 3};
    const auto r = replace_member(file, "n10_00_00_00_001200.hkx", other);
    const auto image = payload(r.file);
    const bnd4::Binder after = bnd4::read(image);
    ASSERT_EQ(after.entries.size(), before.entries.size());
    for (std::size_t i = 0; i < after.entries.size(); ++i) {
        EXPECT_EQ(after.entries[i].name, before.entries[i].name);
        EXPECT_EQ(after.entries[i].id, before.entries[i].id);
        EXPECT_EQ(bytes_of(after.entries[i]), i == 2 ? other : bytes_of(before.entries[i])) << i;
    }
    EXPECT_EQ(dcx::read_header(r.file).variant, dcx::read_header(file).variant);
    // bnd4::write of what was read gives the same image: sizes, hash table and alignment as the writer's.
    EXPECT_EQ(bnd4::write(after), image);
}

TEST(Replace, AddAndRemove) {
    const auto file = nine_tile_binder();
    const std::vector<std::uint8_t> data = {1, 2, 3, 4, 5};
    const auto added = replace_member(file, "o10_00_00_00_001000.hkx", data);
    EXPECT_EQ(added.action, "added");
    EXPECT_EQ(added.id, 20000);
    EXPECT_EQ(added.name, "N:\\GR\\data\\INTERROOT_win64\\map\\m10_00_00_00\\navimesh\\bind6\\o10_00_00_00_001000.hkx");
    const auto addedImage = payload(added.file);
    const bnd4::Binder b = bnd4::read(addedImage);
    ASSERT_EQ(b.entries.size(), 10u);
    EXPECT_EQ(b.entries.back().id, 20000);
    EXPECT_EQ(bytes_of(b.entries.back()), data);
    // The same binder as a fresh build with that member gives the same image.
    std::vector<bnd4::NewEntry> fresh;
    for (const auto& e : b.entries) fresh.push_back({e.name, e.id, bytes_of(e)});
    EXPECT_EQ(bnd4::write(bnd4::build_navmesh_binder(std::move(fresh))), addedImage);

    const auto removed = replace_member(added.file, "o10_00_00_00_001000.hkx", std::nullopt);
    EXPECT_EQ(removed.file, file);
    EXPECT_THROW(replace_member(file, "nothing.hkx", std::nullopt), Error);
    EXPECT_THROW(replace_member(file, "99", data), Error);
}

// Found by running `navlab replace` with odd member arguments: an index too long for 64 bits
// ended in "navlab: error: stoul", and a name with a folder, a ".." or an escape sequence was
// added as a member (and printed raw to the terminal).
TEST(Replace, MemberArgumentsThatNameNothingAreRefused) {
    const auto file = nine_tile_binder();
    const std::vector<std::uint8_t> data = {1, 2, 3};
    auto refusal = [&](const std::string& entry) {
        try {
            replace_member(file, entry, data);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(refusal("99999999999999999999999"),
              "entry 99999999999999999999999: index 99999999999999999999999 out of range (9 members)");
    for (const std::string bad : {"a/../b.hkx", "..", "sub\\x.hkx", "\x1b[31m.hkx"})
        EXPECT_NE(refusal(bad).find("no member has this name, and it cannot name a new one: give a plain file name"),
                  std::string::npos)
            << refusal(bad);
    EXPECT_EQ(refusal("x.hkx"), "no error");
}

// The command reads a new .hkx member as a navmesh tagfile before writing: a member that no
// reader accepts only showed at the next query. --unchecked puts it in anyway; a member of
// another kind (not .hkx) is not read.
TEST(Replace, CommandRefusesANewHkxMemberThatDoesNotRead) {
    const auto dir = test::scratch_dir("replace-unchecked");
    write_file_atomic(dir / "m.dcx", nine_tile_binder());
    write_file_atomic(dir / "junk.hkx", std::string_view("not a tagfile"));
    const std::string nav = test::navlab_binary() + " replace " + (dir / "m.dcx").string() + " ";
    const std::string junk = (dir / "junk.hkx").string();
    std::string out;
    EXPECT_EQ(test::run_command(nav + "0 " + junk + " -o " + (dir / "a.dcx").string(), &out), 1) << out;
    EXPECT_NE(out.find(junk + ": offset 0x4: the new member, read as a navmesh tagfile (--unchecked puts it in anyway): TAG0"),
              std::string::npos)
        << out;
    EXPECT_FALSE(fs::exists(dir / "a.dcx"));
    EXPECT_EQ(test::run_command(nav + "0 " + junk + " -o " + (dir / "a.dcx").string() + " --unchecked", &out), 0) << out;
    EXPECT_EQ(bytes_of(bnd4::read(payload(read_file(dir / "a.dcx"))).entries[0]),
              std::vector<std::uint8_t>(read_file(dir / "junk.hkx")));
    EXPECT_EQ(test::run_command(nav + "notes.txt " + junk + " -o " + (dir / "b.dcx").string(), &out), 0) << out;
    // A Havok tagfile that reads but holds no hkaiNavMesh (here one clearance cache) is refused too.
    havok::Builder b(havok::navmesh_types_2018(), "20180100");
    b.add_variant(b.object("hkaiNavMeshClearanceCache"));
    write_file_atomic(dir / "cache.hkx", b.finish({}));
    EXPECT_EQ(test::run_command(nav + "0 " + (dir / "cache.hkx").string() + " -o " + (dir / "c.dcx").string(), &out), 1)
        << out;
    EXPECT_NE(out.find("cache.hkx: offset 0x0: the new member, read as a navmesh tagfile (--unchecked puts it in anyway): "
                       "TAG0: a Havok tagfile without an hkaiNavMesh"),
              std::string::npos)
        << out;
    EXPECT_FALSE(fs::exists(dir / "c.dcx"));
}

// An offset in a compressed file that is no binder counts from the payload: said as `ls` says it.
TEST(Replace, AFileThatIsNoBinderIsNamedWithItsOffsetInThePayload) {
    const std::vector<std::uint8_t> evd = {'E', 'V', 'D', 0, 0, 0, 0xCD, 0, 0x65, 0, 0, 0, 0, 0, 0, 0};
    for (const bool compressed : {true, false}) {
        try {
            replace_member(compressed ? dcx::compress(evd, dcx::Variant::Zstd) : evd, "0", evd);
            ADD_FAILURE() << "replaced";
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), compressed ? "DCX payload: BND4 header" : "BND4 header") << e.what();
            EXPECT_EQ(e.offset(), 0u);
        }
    }
}

TEST(Replace, RealBinderKeepsItsImage) {
    NAVLAB_REQUIRE_SAMPLE(path, "fromsoft/sekiro_allmaterialbnd.mtdbnd.dcx");
    const auto file = read_file(path);
    const auto image = payload(file);
    const bnd4::Binder b = bnd4::read(image);
    const auto r = replace_member(file, "0", bytes_of(b.entries[0]));
    EXPECT_EQ(payload(r.file), image) << "the BND4 image is rebuilt exactly";
    EXPECT_EQ(dcx::read_header(r.file).variant, dcx::read_header(file).variant);
}

TEST(BuildCli, ObjToBinderPassesTheAudit) {
    const fs::path dir = navlab::test::scratch_dir("build_cli");
    write_obj(dir / "level.obj", scenes::bridge_over_road());
    std::ofstream(dir / "BUILD.json") << R"({"tile_size": 16, "map": "m12_01_00_00", "aabb_margin": 2})";
    const std::string out = (dir / "m12_01_00_00.nvmhktbnd.dcx").string();
    std::string log;
    ASSERT_EQ(navlab::test::run_command(navlab::test::navlab_binary() + " build " + (dir / "level.obj").string() + " --spec " +
                                    (dir / "BUILD.json").string() + " --dcx zstd --threads 2 -o " + out,
                                &log),
              0)
        << log;
    EXPECT_NE(log.find("scene: 52 triangles"), std::string::npos) << log;
    EXPECT_NE(log.find("seams:"), std::string::npos) << log;
    ASSERT_EQ(navlab::test::run_command(navlab::test::navlab_binary() + " audit " + out, &log), 0) << log;
    EXPECT_NE(log.find("0 invariants failed"), std::string::npos) << log;
    const auto outImage = payload(read_file(out));
    const bnd4::Binder b = bnd4::read(outImage);
    EXPECT_NE(b.entries[0].name.find("\\m12_01_00_00\\navimesh\\bind6\\n12_01_00_00_001000.hkx"), std::string::npos);
    // Replace through the command: swap member 0 for member 1's bytes.
    const fs::path hkx = dir / "member1.hkx";
    write_file_atomic(hkx, b.entries[1].data());
    ASSERT_EQ(navlab::test::run_command(navlab::test::navlab_binary() + " replace " + out + " 0 " + hkx.string() + " -o " +
                                    (dir / "swapped.dcx").string(), &log), 0) << log;
    const auto swappedImage = payload(read_file(dir / "swapped.dcx"));
    const bnd4::Binder s = bnd4::read(swappedImage);
    EXPECT_EQ(bytes_of(s.entries[0]), bytes_of(b.entries[1]));
}

TEST(BuildCli, BadInputWritesNothing) {
    const fs::path dir = navlab::test::scratch_dir("build_cli_bad");
    std::ofstream(dir / "bad.obj") << "v 0 0 0\nv 1 0 0\nv 0 inf 1\nf 1 2 3\n";
    std::string log;
    EXPECT_EQ(navlab::test::run_command(navlab::test::navlab_binary() + " build " + (dir / "bad.obj").string() + " -o " +
                                    (dir / "out.dcx").string(), &log), 1) << log;
    EXPECT_NE(log.find("bad.obj: line 3: vertex 2"), std::string::npos) << log;
    EXPECT_FALSE(fs::exists(dir / "out.dcx"));
    write_obj(dir / "ok.obj", scenes::two_platforms());
    std::ofstream(dir / "links.json") << R"({"links": [{"from": [5, 0, 5], "to": [13, 0, 5]}]})";
    EXPECT_EQ(navlab::test::run_command(navlab::test::navlab_binary() + " build " + (dir / "ok.obj").string() + " --spec " +
                                    (dir / "links.json").string() + " -o " + (dir / "out.dcx").string(), &log), 1) << log;
    EXPECT_NE(log.find("link 0"), std::string::npos) << log;
    EXPECT_FALSE(fs::exists(dir / "out.dcx"));
    std::ofstream(dir / "typo.json") << R"({"tile_sise": 16})";
    EXPECT_EQ(navlab::test::run_command(navlab::test::navlab_binary() + " build " + (dir / "ok.obj").string() + " --spec " +
                                    (dir / "typo.json").string() + " -o " + (dir / "out.dcx").string(), &log), 1) << log;
    EXPECT_NE(log.find("unknown field 'tile_sise'"), std::string::npos) << log;
}

// `cmake --install` puts the command in BINDIR and the geometry reader in LIBDIR/navlab; the
// installed command loads the installed reader (the dynamic loader's list of its child says
// so), not the one the build folder still holds. The install runs with the CMake that
// configured the build, and leaves its install_manifest.txt in the build folder (no other
// test installs, so parallel runs do not meet there).
TEST(BuildCli, InstalledCommandLoadsTheInstalledReader) {
    const fs::path dir = navlab::test::scratch_dir("build_cli_install");
    const fs::path build = fs::path(navlab::test::navlab_binary()).parent_path();
    if (!fs::exists(build / "cmake_install.cmake")) GTEST_SKIP() << build << " is not a CMake build folder";
    const fs::path prefix = dir / "prefix";
    auto q = [](const fs::path& p) { return "'" + p.string() + "'"; };  // scratch paths hold no quote
    std::string log;
    ASSERT_EQ(navlab::test::run_command(q(NAVLAB_CMAKE_COMMAND) + " --install " + q(build) + " --prefix " + q(prefix), &log),
              0)
        << log;
    fs::path reader;
    for (const auto& e : fs::recursive_directory_iterator(prefix))
        if (e.path().filename() == "libnavlab_assimp_reader.so") reader = fs::canonical(e.path());
    ASSERT_FALSE(reader.empty()) << log;
    EXPECT_EQ(reader.parent_path().filename(), "navlab") << reader;
    write_obj(dir / "level.obj", scenes::two_platforms());
    // The loader names files by their resolved paths (/proc/self/exe is resolved), hence canonical.
    ASSERT_EQ(navlab::test::run_command("env -u NAVLAB_ASSIMP_READER LD_DEBUG=files " + q(prefix / "bin" / "navlab") +
                                            " build " + q(dir / "level.obj") + " -o " + q(dir / "out.dcx"),
                                        &log),
              0)
        << log;
    EXPECT_NE(log.find("calling init: " + reader.string()), std::string::npos) << log;
    EXPECT_EQ(log.find("calling init: " + fs::canonical(build).string() + "/libnavlab_assimp_reader.so"), std::string::npos)
        << log;
    EXPECT_TRUE(fs::exists(dir / "out.dcx"));
}
