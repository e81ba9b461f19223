// `navlab hkx ...` end to end on files written by our own writer.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "container/bnd4.h"
#include "havok/navmesh_fixture.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;

namespace {

std::string run(const std::string& args, int* status) {
    std::string out;
    *status = test::run_command(test::navlab_binary() + " " + args, &out);
    return out;
}

}  // namespace

TEST(HkxCommand, CheckTypesDumpRewrite) {
    const auto dir = test::scratch_dir("hkx-cli");
    const auto good = (dir / "grid.hkx").string();
    write_file_atomic(good, test::grid_navmesh(4, 3));
    int status = -1;
    std::string out = run("hkx check " + good, &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("ok (SDK 20180100, 126 types"), std::string::npos) << out;

    auto bad_bytes = test::grid_navmesh(4, 3);
    bad_bytes.resize(bad_bytes.size() - 20);
    const auto bad = (dir / "bad.hkx").string();
    write_file_atomic(bad, bad_bytes);
    out = run("hkx check " + good + " " + bad, &status);
    EXPECT_EQ(status, 1) << out;
    EXPECT_NE(out.find(bad + ": offset 0x"), std::string::npos) << out;

    out = run("hkx types " + good, &status);
    EXPECT_EQ(status, 0);
    EXPECT_NE(out.find("hkaiNavMesh [record 208/16, parent hkReferencedObject, v16, hash 4213419433]"), std::string::npos);

    out = run("hkx dump --json --full " + good, &status);
    ASSERT_EQ(status, 0) << out;
    const auto j = nlohmann::json::parse(out);
    EXPECT_EQ(j["class"], "hkRootLevelContainer");
    const auto& mesh = j["fields"]["namedVariants"][0]["variant"];
    EXPECT_EQ(mesh["class"], "hkaiNavMesh");
    EXPECT_EQ(mesh["fields"]["faces"].size(), 12u);
    EXPECT_EQ(j["fields"]["namedVariants"][1]["variant"]["fields"]["navMesh"]["item"], mesh["item"]);

    out = run("hkx dump " + good, &status);
    EXPECT_NE(out.find("count: 12"), std::string::npos) << out;  // summarised without --full

    out = run("hkx rewrite " + good + " " + (dir / "again.hkx").string(), &status);
    EXPECT_EQ(status, 0);
    EXPECT_NE(out.find("byte-identical"), std::string::npos) << out;
}

TEST(HkxCommand, ReadsABinderEntry) {
    const auto dir = test::scratch_dir("hkx-entry");
    std::vector<bnd4::NewEntry> files;
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_001000.hkx"), 1000, test::grid_navmesh(2, 2)});
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_001001.hkx"), 1001, test::grid_navmesh(1, 1)});
    const auto binder = (dir / "m10_00_00_00.nvmhktbnd").string();
    write_file_atomic(binder, bnd4::write(bnd4::build_navmesh_binder(std::move(files))));
    int status = -1;
    std::string out = run("hkx check " + binder + " --entry n10_00_00_00_001001.hkx", &status);
    EXPECT_EQ(status, 0) << out;
    out = run("hkx dump --json " + binder + " --entry 0", &status);
    ASSERT_EQ(status, 0) << out;
    EXPECT_EQ(nlohmann::json::parse(out)["fields"]["namedVariants"][0]["variant"]["fields"]["faces"]["count"], 4);
    out = run("hkx check " + binder + " --entry nothing.hkx", &status);
    EXPECT_EQ(status, 1);
}
