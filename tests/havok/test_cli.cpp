// `navlab hkx ...` end to end on files written by our own writer.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "codec/dcx.h"
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
    // A failure is an error line as every command prints one.
    EXPECT_NE(out.find("navlab: " + bad + ": offset 0x"), std::string::npos) << out;
    // --json: one object per file on stdout, the failure's too (it went to stderr).
    out = run("hkx check --json " + good + " " + bad + " 2>/dev/null", &status);
    EXPECT_EQ(status, 1) << out;
    const auto first_line = nlohmann::json::parse(out.substr(0, out.find('\n')));
    const auto second_line = nlohmann::json::parse(out.substr(out.find('\n') + 1));
    EXPECT_EQ(first_line["ok"], true);
    EXPECT_EQ(second_line["ok"], false);
    EXPECT_EQ(second_line["file"], bad);

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

// A member name with a control byte (a damaged TSTR or FSTR section) is listed as \x1B by
// `hkx types` and `hkx dump`: the raw byte would reach the terminal.
TEST(HkxCommand, NamesWithControlBytesAreShownEscaped) {
    const auto dir = test::scratch_dir("hkx-cli-escape");
    auto bytes = test::grid_navmesh(4, 3);
    const std::string name = "faceDataStriding";
    const auto at = std::search(bytes.begin(), bytes.end(), name.begin(), name.end());
    ASSERT_NE(at, bytes.end());
    at[2] = 0x1B;
    const auto file = (dir / "grid.hkx").string();
    write_file_atomic(file, bytes);
    int status = -1;
    for (const char* command : {"hkx types ", "hkx dump "}) {
        const std::string out = run(command + file, &status);
        EXPECT_EQ(status, 0) << out;
        EXPECT_NE(out.find("fa\\x1BeDataStriding"), std::string::npos) << command << out;
        EXPECT_EQ(out.find('\x1B'), std::string::npos) << command;
    }
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
    // Without --entry a binder is not read as a tagfile ("bytes 4-7 ..."): the option is named.
    for (const char* command : {"hkx check ", "hkx dump ", "hkx types "}) {
        out = run(command + binder, &status);
        EXPECT_EQ(status, 1) << command;
        EXPECT_NE(out.find(binder + ": a binder, not a tagfile: name a member with --entry"), std::string::npos)
            << command << out;
    }
}

// `hkx check` prints the reader's warnings through the shared report printer (io/report.h) in
// the shape it always had: "FILE: warning: offset 0x..: MESSAGE" after the "ok" line, and
// {"offset", "message"} objects in that key order in --json.
TEST(HkxCommand, CheckWarningShapes) {
    const auto dir = test::scratch_dir("hkx-cli-warnings");
    auto bytes = test::grid_navmesh(4, 3);
    // Swap the first two offsets of the first PTCH group with two or more: a warning, not an
    // error (PTCH is compared as a set).
    const std::string tag = "PTCH";
    auto at = std::search(bytes.begin(), bytes.end(), tag.begin(), tag.end());
    ASSERT_NE(at, bytes.end());
    std::size_t pos = static_cast<std::size_t>(at - bytes.begin()) + 4;
    auto u32 = [&](std::size_t p) {
        return std::uint32_t{bytes[p]} | std::uint32_t{bytes[p + 1]} << 8 | std::uint32_t{bytes[p + 2]} << 16 |
               std::uint32_t{bytes[p + 3]} << 24;
    };
    while (u32(pos + 4) < 2) pos += 8 + 4 * std::size_t{u32(pos + 4)};
    const std::uint32_t type = u32(pos);
    std::swap_ranges(bytes.begin() + static_cast<std::ptrdiff_t>(pos + 8), bytes.begin() + static_cast<std::ptrdiff_t>(pos + 12),
                     bytes.begin() + static_cast<std::ptrdiff_t>(pos + 12));
    const auto file = (dir / "swapped.hkx").string();
    write_file_atomic(file, bytes);

    int status = -1;
    const std::string out = run("hkx check " + file, &status);
    ASSERT_EQ(status, 0) << out;
    const std::string warning = fmt::format("{}: warning: offset 0x{:X}: PTCH offsets of type {} are not ascending\n",
                                            file, pos + 12, type);
    EXPECT_EQ(out.rfind(file + ": ok (SDK 20180100, 126 types, ", 0), 0u) << out;
    EXPECT_NE(out.find(" items, 1 warnings)\n"), std::string::npos) << out;
    EXPECT_EQ(out.substr(out.find('\n') + 1), warning);

    const std::string json = run("hkx check --json " + file, &status);
    ASSERT_EQ(status, 0) << json;
    EXPECT_NE(json.find(fmt::format("\"warnings\":[{{\"offset\":{},\"message\":\"PTCH offsets of type {} are not ascending\"}}]",
                                    pos + 12, type)),
              std::string::npos)
        << json;

    // Inside a binder (entry 1) or a DCX, the offsets count from the entry's or the payload's
    // first byte: each warning names the entry or "DCX payload" where errors name it (the field
    // path after the offset), the "ok" line names the entry, and the JSON says both.
    std::vector<bnd4::NewEntry> files;
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_001000.hkx"), 1000, std::vector<std::uint8_t>(64, 0)});
    files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_001001.hkx"), 1001, bytes});
    const std::string entry_name = files[1].name;
    const auto binder = (dir / "m10_00_00_00.nvmhktbnd").string();
    write_file_atomic(binder, bnd4::write(bnd4::build_navmesh_binder(std::move(files))));
    const std::string in_binder = run("hkx check " + binder + " --entry 1", &status);
    ASSERT_EQ(status, 0) << in_binder;
    const std::string entry = "entry 1 (" + entry_name + ")";
    EXPECT_EQ(in_binder.rfind(binder + ": " + entry + ": ok (SDK 20180100, 126 types, ", 0), 0u) << in_binder;
    EXPECT_EQ(in_binder.substr(in_binder.find('\n') + 1),
              fmt::format("{}: warning: offset 0x{:X}: {}: PTCH offsets of type {} are not ascending\n", binder, pos + 12,
                          entry, type));
    const auto entry_json = nlohmann::json::parse(run("hkx check --json " + binder + " --entry 1", &status));
    EXPECT_EQ(entry_json["entry"]["index"], 1);
    EXPECT_EQ(entry_json["entry"]["name"], entry_name);
    EXPECT_EQ(entry_json["warnings"][0]["offset"], pos + 12);
    EXPECT_FALSE(entry_json.contains("dcx_payload"));
    // Entry 0 is no tagfile: the error names the entry after the offset, and the JSON says it too.
    const std::string broken = run("hkx check " + binder + " --entry 0", &status);
    EXPECT_EQ(status, 1);
    EXPECT_NE(broken.find(binder + ": offset 0x4: entry 0 ("), std::string::npos) << broken;
    const auto broken_json = nlohmann::json::parse(run("hkx check --json " + binder + " --entry 0", &status));
    EXPECT_EQ(broken_json["ok"], false);
    EXPECT_EQ(broken_json["entry"]["index"], 0);

    const auto dcx_file = (dir / "swapped.hkx.dcx").string();
    write_file_atomic(dcx_file, dcx::compress(bytes, dcx::Variant::Krak));
    const std::string in_dcx = run("hkx check " + dcx_file, &status);
    ASSERT_EQ(status, 0) << in_dcx;
    EXPECT_EQ(in_dcx.rfind(dcx_file + ": ok (SDK 20180100, ", 0), 0u) << in_dcx;
    EXPECT_EQ(in_dcx.substr(in_dcx.find('\n') + 1),
              fmt::format("{}: warning: offset 0x{:X}: DCX payload: PTCH offsets of type {} are not ascending\n", dcx_file,
                          pos + 12, type));
    const auto dcx_json = nlohmann::json::parse(run("hkx check --json " + dcx_file, &status));
    EXPECT_EQ(dcx_json["dcx_payload"], true);
    EXPECT_FALSE(dcx_json.contains("entry"));
    EXPECT_FALSE(nlohmann::json::parse(json).contains("dcx_payload"));
    std::filesystem::remove_all(dir);
}
