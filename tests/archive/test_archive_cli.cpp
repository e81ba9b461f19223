// `navlab archive ls|extract` and `navlab audit --game-dir` end to end on the test installs:
// the listing finds every binder, extraction writes them byte-identical at their paths, and
// the audit over the install equals the audit over the extracted folder.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "archive/test_install_fixture.h"
#include "container/bnd4.h"
#include "havok/navmesh_fixture.h"
#include "io/file.h"

using namespace navlab;
using namespace navlab::archive;
namespace fs = std::filesystem;
using test::install_args;
using test::replace_all;
using test::run_navlab;

namespace {

nlohmann::json read_json(const fs::path& p) {
    const auto bytes = read_file(p);
    return nlohmann::json::parse(bytes.begin(), bytes.end());
}

}  // namespace

class ArchiveCli : public ::testing::TestWithParam<Game> {};

TEST_P(ArchiveCli, LsListsEveryBinder) {
    const Game game = GetParam();
    const auto dir = test::scratch_dir("archive_cli_ls_" + std::string(game_name(game)));
    std::string out;
    ASSERT_EQ(run_navlab("archive ls " + install_args(game) + " --json " + (dir / "ls.json").string(), &out), 0) << out;
    const auto j = read_json(dir / "ls.json");
    EXPECT_EQ(j["format"], "navlab-archive-ls/1");
    EXPECT_EQ(j["game"], std::string(game_name(game)));
    const auto& t = test::test_install(game);
    ASSERT_EQ(j["files"].size(), t.binders.size()) << out;
    for (const auto& f : j["files"]) {
        EXPECT_TRUE(t.binders.count(f["path"].get<std::string>())) << f.dump();
        EXPECT_EQ(f["size"].get<std::size_t>(), t.binders.at(f["path"].get<std::string>()).size());
        EXPECT_EQ(out.find(f["path"].get<std::string>()) != std::string::npos, true);
    }
    ASSERT_EQ(run_navlab("archive ls " + install_args(game) + " --all --json " + (dir / "all.json").string(), &out), 0) << out;
    const auto all = read_json(dir / "all.json");
    EXPECT_EQ(all["files"].size(), test::open_test_install(game).entry_count());
    std::size_t named = 0;
    for (const auto& f : all["files"]) named += !f["path"].is_null();
    EXPECT_EQ(named, t.binders.size() + t.siblings.size());
}

TEST_P(ArchiveCli, ExtractWritesBindersByteIdentical) {
    const Game game = GetParam();
    const auto out = test::scratch_dir("archive_cli_extract_" + std::string(game_name(game)));
    std::string text;
    ASSERT_EQ(run_navlab("archive extract " + install_args(game) + " " + out.string(), &text), 0) << text;
    const auto& t = test::test_install(game);
    for (const auto& [path, bytes] : t.binders) EXPECT_EQ(read_file(out / path.substr(1)), bytes) << path;
    // --path, in another spelling; a path the install lacks is an error (exit 1).
    const auto& [sibling, padded] = *t.siblings.begin();
    std::string upper = sibling;
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const auto one = test::scratch_dir("archive_cli_extract_one_" + std::string(game_name(game)));
    ASSERT_EQ(run_navlab("archive extract " + install_args(game) + " " + one.string() + " --path '" + upper + "'", &text), 0)
        << text;
    EXPECT_EQ(read_file(one / sibling.substr(1)), padded);
    EXPECT_EQ(run_navlab("archive extract " + install_args(game) + " " + one.string() + " --path /no/such.bin", &text), 1);
    EXPECT_NE(text.find("/no/such.bin"), std::string::npos) << text;
    EXPECT_EQ(run_navlab("archive extract " + install_args(game) + " " + one.string() + " --path /map/../../x", &text), 1);
    EXPECT_NE(text.find("\"..\" component"), std::string::npos) << text;
}

TEST_P(ArchiveCli, AuditOfInstallEqualsAuditOfUnpackedFolder) {
    const Game game = GetParam();
    const auto dir = test::scratch_dir("archive_cli_audit_" + std::string(game_name(game)));
    std::string text;
    ASSERT_EQ(run_navlab("archive extract " + install_args(game) + " " + (dir / "out").string(), &text), 0) << text;
    const int fromInstall =
        run_navlab("audit --game-dir " + install_args(game) + " --json " + (dir / "install.json").string(), &text);
    const int fromFolder = run_navlab("audit " + (dir / "out").string() + " --json " + (dir / "folder.json").string(), &text);
    EXPECT_EQ(fromInstall, fromFolder);
    // A Game/ folder given as the path is recognised and read the same way.
    EXPECT_EQ(run_navlab("audit " + install_args(game) + " --json " + (dir / "as_path.json").string(), &text), fromInstall);
    EXPECT_EQ(read_json(dir / "as_path.json"), read_json(dir / "install.json"));
    nlohmann::json a = read_json(dir / "install.json"), b = read_json(dir / "folder.json");
    a.erase("inputs"), b.erase("inputs");
    // Binder names differ only in their prefix: "data2:/map/..." against "<out>/map/...".
    std::string textA = a.dump(1), textB = b.dump(1);
    for (const char* alias : {"data2:/", "dlc:/", "data5:/"}) textA = replace_all(textA, alias, "");
    textB = replace_all(textB, (dir / "out").string() + "/", "");
    EXPECT_EQ(textA, textB);
    EXPECT_NE(textA.find("map/m1"), std::string::npos);  // the reports do name binders
    EXPECT_GT(textA.size(), 1000u);
}

INSTANTIATE_TEST_SUITE_P(Games, ArchiveCli, ::testing::Values(Game::Sekiro, Game::EldenRing),
                         [](const auto& info) { return std::string(game_name(info.param)); });

TEST(ArchiveCliErrors, WrongKeyUsageAndHelp) {
    std::string text;
    // The bundled keys do not open archives made with the test key.
    EXPECT_EQ(run_navlab("archive ls " + test::test_install(Game::EldenRing).gameDir.string(), &text), 1);
    EXPECT_NE(text.find("wrong key or corrupt BHD"), std::string::npos) << text;
    EXPECT_EQ(run_navlab("audit", &text), 2) << text;
    EXPECT_EQ(run_navlab("archive extract onlyone", &text), 2) << text;
    // --game-dir of a folder without archives names what is missing ("no navmesh binders" before).
    const auto empty = test::scratch_dir("no-install");
    EXPECT_EQ(run_navlab("audit --game-dir " + empty.string(), &text), 1) << text;
    EXPECT_NE(text.find("no .bhd archive in " + empty.string() + " (give the game's Game/ folder)"), std::string::npos)
        << text;
    // A folder of binders given as --game-dir is audited, as it always was.
    write_file_atomic(empty / "m10_00_00_00.nvmhktbnd",
                      bnd4::write(bnd4::build_navmesh_binder({{"N:\\n10_00_00_00_000000.hkx", 1, test::grid_navmesh(3, 2)}})));
    EXPECT_NE(run_navlab("audit --game-dir " + empty.string(), &text), 2) << text;
    EXPECT_NE(text.find("navmesh audit"), std::string::npos) << text;
    EXPECT_EQ(text.find("no .bhd archive"), std::string::npos) << text;
    EXPECT_EQ(run_navlab("archive ls --help", &text), 0);
    EXPECT_NE(text.find("Example:"), std::string::npos);
}
