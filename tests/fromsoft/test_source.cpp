#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "codec/dcx.h"
#include "container/bnd4.h"
#include "formats/fromsoft/binder_source.h"
#include "formats/fromsoft/nav_source.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "fromsoft/test_meshes.h"
#include "io/error.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;
using namespace navlab::fromsoft;

namespace {

std::vector<std::uint8_t> grid_tagfile(int n) {
    NavTagfile nav;
    nav.mesh = fixture::grid_mesh(n, 1);
    return write_nav_tagfile(nav);
}

}  // namespace

TEST(NavFiles, FileNames) {
    EXPECT_TRUE(is_nav_file_name("a/m10_00_00_00.nvmhktbnd.dcx"));
    EXPECT_TRUE(is_nav_file_name("m10.NVMHKTBND"));
    EXPECT_TRUE(is_nav_file_name("x/n10_01_00_00_001700.HKX"));
    EXPECT_FALSE(is_nav_file_name("m10_00_00_00.nva.dcx"));
    EXPECT_FALSE(is_nav_file_name("readme.txt"));
    EXPECT_THROW(find_nav_files("/nonexistent/navlab/path"), Error);
}

TEST(NavFiles, DirectoryOfBindersAndTagfilesInSortedOrder) {
    const auto dir = navlab::test::scratch_dir("fromsoft_nav_source");
    std::filesystem::create_directories(dir / "b" / "deep");
    write_file_atomic(dir / "b" / "deep" / "z.hkx", grid_tagfile(2));
    write_file_atomic(dir / "a.hkx", grid_tagfile(1));
    write_file_atomic(dir / "m10_00_00_00.nva.dcx", std::string_view("not a navmesh"));
    std::vector<bnd4::NewEntry> files;
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_000100.hkx"), 100, grid_tagfile(3)});
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_000200.hkx"), 200, grid_tagfile(4)});
    files.push_back({"N:\\readme.txt", 300, {'h', 'i'}});
    const std::vector<std::uint8_t> binder = bnd4::write(bnd4::build_navmesh_binder(std::move(files)));
    write_file_atomic(dir / "b" / "m10_00_00_00.nvmhktbnd.dcx", dcx::compress(binder, dcx::Variant::Dflt_11000_44_9));
    write_file_atomic(dir / "b" / "m11.nvmhktbnd", binder);

    const auto found = find_nav_files(dir);
    ASSERT_EQ(found.size(), 4u);
    EXPECT_EQ(found[0].filename(), "a.hkx");
    EXPECT_EQ(found[1].filename(), "z.hkx");  // b/deep/z.hkx sorts before b/m10...
    EXPECT_EQ(found[2].filename(), "m10_00_00_00.nvmhktbnd.dcx");
    EXPECT_EQ(found[3].filename(), "m11.nvmhktbnd");

    const NavFile opened = NavFile::open(found[2]);
    ASSERT_EQ(opened.entries().size(), 2u);  // the .txt member is not a navmesh
    EXPECT_TRUE(opened.entries()[1].in_binder);
    EXPECT_EQ(opened.entries()[1].index, 1u);
    EXPECT_NE(opened.entries()[0].name.find("n10_00_00_00_000100.hkx"), std::string::npos);
    EXPECT_NE(opened.entries()[1].name.find("n10_00_00_00_000200.hkx"), std::string::npos);
    // A member of a compressed binder is no DCX payload: its errors' offsets count from the
    // member, which "entry N (NAME)" says.
    EXPECT_FALSE(opened.entries()[0].in_dcx);
    EXPECT_EQ(read_nav_tagfile(opened.entries()[1].bytes).mesh.faces.size(), 4u);

    for (const auto& [file, name, faces] : {std::tuple{found[0], "a.hkx", 1u}, std::tuple{found[1], "z.hkx", 2u}}) {
        const NavFile loose = NavFile::open(file);  // a loose tagfile is its own one entry
        ASSERT_EQ(loose.entries().size(), 1u);
        EXPECT_FALSE(loose.entries()[0].in_binder);
        EXPECT_EQ(loose.entries()[0].name, name);
        EXPECT_EQ(read_nav_tagfile(loose.entries()[0].bytes).mesh.faces.size(), faces);
    }
    const NavFile plain = NavFile::open(found[3]);  // the same binder, not compressed
    ASSERT_EQ(plain.entries().size(), 2u);
    EXPECT_EQ(plain.entries()[0].name, opened.entries()[0].name);
    EXPECT_EQ(read_nav_tagfile(plain.entries()[0].bytes).mesh.faces.size(), 3u);
    std::filesystem::remove_all(dir);
}

// Two files of one map id in a folder (the synth corpus has map/m10/m10_00_00_00/... and
// map/m10_00_00_00/...): --map by the id was silently the first; now it names both, and
// --map by a path picks one.
TEST(NavFiles, OneBinderOfAFolderWithTwoFilesOfOneMapIdNeedsItsPath) {
    const auto dir = navlab::test::scratch_dir("fromsoft_one_map_twice");
    std::vector<std::filesystem::path> files;
    for (const char* sub : {"a", "b"}) {
        std::vector<bnd4::NewEntry> entries;
        entries.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_000100.hkx"), 100, grid_tagfile(sub[0] == 'a' ? 1 : 2)});
        std::filesystem::create_directories(dir / sub);
        files.push_back(dir / sub / "m10_00_00_00.nvmhktbnd");
        write_file_atomic(files.back(), bnd4::write(bnd4::build_navmesh_binder(std::move(entries))));
    }
    SourceOptions by_id;
    by_id.maps = {"m10_00_00_00"};
    try {
        open_one_binder(dir, by_id);
        ADD_FAILURE() << "one of two binders of m10_00_00_00 taken";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("holds 2 navmesh binders of map m10_00_00_00 (" + files[0].string() + ", " +
                                             files[1].string() + "): choose one with --map PATH"),
                  std::string::npos)
            << e.what();
    }
    SourceOptions by_path;
    by_path.maps = {files[1].string()};
    const NavFile b = open_one_binder(dir, by_path);
    EXPECT_EQ(read_nav_tagfile(b.entries()[0].bytes).mesh.faces.size(), 2u);
}

TEST(NavFiles, SingleSampleFile) {
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    const NavFile nav = NavFile::open(path);
    ASSERT_EQ(nav.entries().size(), 1u);
    EXPECT_EQ(nav.entries()[0].name, "n10_01_00_00_001700.hkx");
    EXPECT_EQ(read_nav_tagfile(nav.entries()[0].bytes).mesh.faces.size(), 60u);
}
