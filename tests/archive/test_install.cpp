// Test installs made with navlab's archive writer from the small synthetic corpus: every
// navmesh binder found by the candidate rule and read back byte-identical, game detection,
// the plaintext-BHD bypass, names, and the §7.6 refusals on whole installs.
#include <gtest/gtest.h>

#include <set>

#include "archive/test_install_fixture.h"
#include "container/archive/bhd_rsa.h"
#include "io/error.h"

using namespace navlab;
using namespace navlab::archive;
namespace fs = std::filesystem;

namespace {

std::string open_error(const fs::path& gameDir, const fs::path& keysDir, Game game) {
    try {
        OpenOptions o;
        o.game = game;
        o.keysDir = keysDir;
        GameInstall::open(gameDir, o);
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

/// A copy of a test install's folders to break.
std::pair<fs::path, fs::path> copy_install(Game game, const std::string& name) {
    const auto dir = test::scratch_dir(name);
    fs::copy(test::test_install(game).gameDir, dir / "Game", fs::copy_options::recursive);
    fs::copy(test::test_install(game).keysDir, dir / "keys", fs::copy_options::recursive);
    return {dir / "Game", dir / "keys"};
}

}  // namespace

class ArchiveInstall : public ::testing::TestWithParam<Game> {};

TEST_P(ArchiveInstall, CandidateRuleFindsEveryBinderByteIdentical) {
    const Game game = GetParam();
    const test::TestInstall& t = test::test_install(game);
    const GameInstall install = test::open_test_install(game);
    EXPECT_EQ(install.game(), game);
    const auto binders = find_navmesh_binders(install);
    std::set<std::string> found;
    for (const NamedEntry& b : binders) {
        SCOPED_TRACE(b.path);
        found.insert(b.path);
        ASSERT_TRUE(t.binders.count(b.path));
        EXPECT_EQ(install.read(b.ref), t.binders.at(b.path));  // AES ranges decrypted, unpadded size applied
        EXPECT_EQ(b.path, navmesh_binder_path(game, b.mapId));
    }
    EXPECT_EQ(found.size(), t.binders.size());
    EXPECT_EQ(binders.size(), t.binders.size());
    // At least one binder is stored with AES ranges, one without.
    bool encrypted = false, clear = false;
    for (const NamedEntry& b : binders) (install.header(b.ref).encrypted() ? encrypted : clear) = true;
    EXPECT_TRUE(encrypted && clear);
    // Siblings: stored with unpadded size 0, so read back padded to 16 bytes.
    const auto siblings = find_navmesh_siblings(install, binders);
    EXPECT_EQ(siblings.size(), t.siblings.size());
    for (const NamedEntry& s : siblings) EXPECT_EQ(install.read(s.ref), t.siblings.at(s.path)) << s.path;
    if (game == Game::Sekiro) {
        // The decoy binder path is in Data5 but has no .msb sibling: not a navmesh hit.
        EXPECT_EQ(install.find_path(t.decoyPath).size(), 1u);
        EXPECT_FALSE(found.count(t.decoyPath));
    }
}

TEST_P(ArchiveInstall, DetectsTheGameAndReadsPlainBhd) {
    const Game game = GetParam();
    const GameInstall install = test::open_test_install(game, false);
    EXPECT_EQ(install.game(), game);
    EXPECT_EQ(detect_game(test::test_install(game).gameDir, test::test_install(game).keysDir), game);
    // The install folder above Game/ works too.
    OpenOptions o;
    o.keysDir = test::test_install(game).keysDir;
    EXPECT_EQ(GameInstall::open(test::test_install(game).gameDir.parent_path(), o).archives().size(),
              install.archives().size());
    for (const Archive& a : install.archives()) EXPECT_EQ(a.bhdEncrypted, a.stem != "Data0") << a.stem;
    EXPECT_GT(install.entry_count(), 50u);
}

TEST_P(ArchiveInstall, NamesResolveInAnySpelling) {
    const Game game = GetParam();
    const GameInstall install = test::open_test_install(game);
    const std::string path = test::test_install(game).binders.begin()->first;
    std::string shouted = path.substr(1);
    for (auto& c : shouted) c = c == '/' ? '\\' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const auto dir = test::scratch_dir("archive_names_" + std::string(game_name(game)));
    write_file_atomic(dir / "names.txt", "# a comment\n\n" + shouted + "\r\n/no/such/file.bin\n");
    const auto named = resolve_paths(install, read_name_list(dir / "names.txt"));
    ASSERT_EQ(named.size(), 1u);
    EXPECT_EQ(named[0].path, path);
    EXPECT_EQ(install.read(named[0].ref), test::test_install(game).binders.begin()->second);
}

TEST_P(ArchiveInstall, PrefixReadsMatchWholeReads) {
    // read_prefix decrypts only the AES blocks over the first bytes; it must agree with read.
    const GameInstall install = test::open_test_install(GetParam());
    for (std::size_t a = 0; a < install.archives().size(); ++a)
        for (std::size_t f = 0; f < install.archives()[a].files.size(); ++f) {
            const auto whole = install.read({a, f});
            for (std::size_t n : {0, 1, 4, 15, 16, 17, 40}) {
                const std::vector<std::uint8_t> expected(whole.begin(), whole.begin() + std::min(n, whole.size()));
                EXPECT_EQ(install.read_prefix({a, f}, n), expected) << a << "/" << f << " n=" << n;
            }
        }
}

INSTANTIATE_TEST_SUITE_P(Games, ArchiveInstall, ::testing::Values(Game::Sekiro, Game::EldenRing),
                         [](const auto& info) { return std::string(game_name(info.param)); });

TEST(ArchiveInstallDetect, ByKeyWhenNamesDoNotTell) {
    // Data1 exists in both games: only the key (one RSA block) tells them apart.
    const auto dir = test::scratch_dir("archive_detect_key");
    const auto& t = test::test_install(Game::Sekiro);
    fs::create_directories(dir / "Game");
    fs::copy(t.gameDir / "Data1.bhd", dir / "Game" / "Data1.bhd");
    fs::copy(t.gameDir / "Data1.bdt", dir / "Game" / "Data1.bdt");
    EXPECT_EQ(detect_game(dir / "Game", t.keysDir), Game::Sekiro);
    // A plaintext Data1.bhd: its salt decides ("GR_" Elden Ring, "NTC_" Sekiro).
    const auto plainDir = test::scratch_dir("archive_detect_salt");
    for (const auto& [salt, game] : {std::pair{"GR_x", Game::EldenRing}, std::pair{"NTC_x", Game::Sekiro}}) {
        ArchiveWriteOptions o;
        o.game = game;
        o.salt = salt;
        const WrittenArchive w = write_archive({{"/a.bin", {}, {1, 2, 3}, false, true}}, o);
        fs::create_directories(plainDir / salt);
        write_file_atomic(plainDir / salt / "Data1.bhd", w.bhd);
        write_file_atomic(plainDir / salt / "Data1.bdt", w.bdt);
        EXPECT_EQ(detect_game(plainDir / salt), game) << salt;
    }
    try {
        detect_game(dir / "Game", {});  // the bundled keys open neither game's reading of it
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("--game"), std::string::npos) << e.what();
    }
}

TEST(ArchiveInstallRefusals, WrongKey) {
    const auto [game, keys] = copy_install(Game::EldenRing, "archive_wrong_key");
    // The bundled (real) keys cannot open archives made with the test key.
    const std::string e = open_error(game, {}, Game::EldenRing);
    EXPECT_NE(e.find("wrong key or corrupt BHD"), std::string::npos) << e;
    EXPECT_NE(e.find("Data2.bhd"), std::string::npos) << e;
}

TEST(ArchiveInstallRefusals, BhdLengthNotMultipleOf256) {
    const auto [game, keys] = copy_install(Game::EldenRing, "archive_short_bhd");
    fs::resize_file(game / "Data2.bhd", fs::file_size(game / "Data2.bhd") - 5);
    const std::string e = open_error(game, keys, Game::EldenRing);
    EXPECT_NE(e.find("Data2.bhd"), std::string::npos) << e;
    EXPECT_NE(e.find("not a positive multiple of 256"), std::string::npos) << e;
}

TEST(ArchiveInstallRefusals, TruncatedBdt) {
    const auto [game, keys] = copy_install(Game::Sekiro, "archive_short_bdt");
    fs::resize_file(game / "Data5.bdt", fs::file_size(game / "Data5.bdt") - 1);
    const std::string e = open_error(game, keys, Game::Sekiro);
    EXPECT_NE(e.find("Data5.bhd"), std::string::npos) << e;
    EXPECT_NE(e.find("BHD5 entry 0x"), std::string::npos) << e;
    EXPECT_NE(e.find("data offset"), std::string::npos) << e;
    EXPECT_NE(e.find("truncated .bdt"), std::string::npos) << e;
}

namespace {

/// Writes one encrypted archive whose plaintext `patch` has altered, and returns the error
/// opening it gives.
template <class Patch>
std::string patched_archive_error(const std::string& name, Patch patch) {
    const auto dir = test::scratch_dir(name);
    std::vector<NewArchiveFile> files = {{"/map/m10/m10_00_00_00/m10_00_00_00.nvmhktbnd.dcx", {}, test::random_bytes(200, 1), true, true}};
    ArchiveWriteOptions o;
    o.game = Game::EldenRing;
    const WrittenArchive w = write_archive(files, o);  // plain BHD5
    std::vector<std::uint8_t> plain = w.bhd;
    patch(plain, parse_bhd5(plain, Game::EldenRing, w.bdt.size(), "x").buckets[0][0].headerOffset);
    fs::create_directories(dir / "Game");
    fs::create_directories(dir / "keys" / "eldenring");
    write_file_atomic(dir / "Game" / "Data2.bhd", encrypt_bhd(plain, test::test_key(), 1));
    write_file_atomic(dir / "Game" / "Data2.bdt", w.bdt);
    write_file_atomic(dir / "keys" / "eldenring" / "Data2.pem", test::test_key().public_pem());
    return open_error(dir / "Game", dir / "keys", Game::EldenRing);
}

void put_i64(std::vector<std::uint8_t>& b, std::size_t at, std::int64_t v) { std::memcpy(b.data() + at, &v, 8); }

}  // namespace

TEST(ArchiveInstallRefusals, RangePastPaddedSize) {
    const std::string e = patched_archive_error("archive_bad_range", [](auto& plain, std::size_t header) {
        std::int64_t aes = 0;
        std::memcpy(&aes, plain.data() + header + 0x20, 8);
        ASSERT_LT(static_cast<std::size_t>(aes) + 0x14 + 16, plain.size());
        put_i64(plain, static_cast<std::size_t>(aes) + 0x14 + 8, 0x1000);  // range 0 end
    });
    EXPECT_NE(e.find("Data2.bhd"), std::string::npos) << e;
    EXPECT_NE(e.find("BHD5 entry 0x7175D7979CB05AD1: AES range 0"), std::string::npos) << e;
    EXPECT_NE(e.find("past the padded size"), std::string::npos) << e;
}

TEST(ArchiveInstallRefusals, OffsetPastPlaintext) {
    const std::string e = patched_archive_error("archive_bad_offset", [](auto& plain, std::size_t header) {
        put_i64(plain, header + 0x20, 0x100000);  // AES record offset
    });
    EXPECT_NE(e.find("Data2.bhd"), std::string::npos) << e;
    EXPECT_NE(e.find("BHD5 entry 0x7175D7979CB05AD1"), std::string::npos) << e;
    EXPECT_NE(e.find("AES record offset 0x100000 is past the end of the plaintext"), std::string::npos) << e;
}

TEST(ArchiveInstallRefusals, MissingBdtAndEmptyFolder) {
    const auto [game, keys] = copy_install(Game::Sekiro, "archive_missing_bdt");
    fs::remove(game / "Data1.bdt");
    EXPECT_NE(open_error(game, keys, Game::Sekiro).find("has no Data1.bdt beside it"), std::string::npos);
    const auto empty = test::scratch_dir("archive_empty");
    EXPECT_NE(open_error(empty, keys, Game::Sekiro).find("no .bhd archive"), std::string::npos);
}
