// A game install as a source of binders (fromsoft::BinderSource) for every command that reads
// binders: the library lists, reads and selects the install's binders like the unpacked
// folder's, and `export`, `view`, `path`, `islands` and `audit` over the install give what
// they give over the unpacked binders (bytes, or JSON with the binder names mapped).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "archive/test_install_fixture.h"
#include "container/archive/bhd_cache.h"
#include "container/archive/bhd_rsa.h"
#include "export/fromsoft_export.h"
#include "formats/fromsoft/binder_source.h"
#include "io/error.h"

using namespace navlab;
using namespace navlab::archive;
namespace fs = std::filesystem;
using test::install_args;
using test::replace_all;
using test::run_navlab;

namespace {

std::string read_text(const fs::path& p) {
    const auto bytes = read_file(p);
    return {bytes.begin(), bytes.end()};
}

/// EXPECT_EQ for long texts: on a difference, prints where and a little context (gtest's own
/// diff of two large texts takes gigabytes).
void expect_same_text(const std::string& a, const std::string& b, const std::string& what) {
    if (a == b) return;
    std::size_t at = 0;
    while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
    const std::size_t from = at < 80 ? 0 : at - 80;
    ADD_FAILURE() << what << ": texts differ at byte " << at << " (sizes " << a.size() << ", " << b.size() << ")\n"
                  << a.substr(from, 160) << "\n----\n" << b.substr(from, 160);
}

/// The install's binders written at their archive paths under a scratch folder (what
/// `archive extract` writes; made here from the originals, independent of the reader).
fs::path unpacked(Game game) {
    static std::map<Game, fs::path> made;
    if (auto it = made.find(game); it != made.end()) return it->second;
    const fs::path dir = test::scratch_dir("install_sources_unpacked_" + std::string(game_name(game)));
    for (const auto& [path, bytes] : test::test_install(game).binders) {
        const fs::path file = dir / path.substr(1);
        fs::create_directories(file.parent_path());
        write_file_atomic(file, bytes);
    }
    return made.emplace(game, dir).first->second;
}

std::string map_id_of(const std::string& archive_path) {
    const std::string name = fs::path(archive_path).filename().string();
    return name.substr(0, name.find('.'));
}

/// The name an install gives the binder at `path` ("data2:/map/..."), found by listing.
std::string install_name(const fromsoft::BinderSource& s, const std::string& path) {
    for (const auto& b : s.binders())
        if (b.name.ends_with(":" + path)) return b.name;
    return {};
}

fromsoft::SourceOptions test_options(Game game) {
    fromsoft::SourceOptions o;
    o.game = game;
    o.keys = test::test_install(game).keysDir;
    return o;
}

/// Two points on the first tagfile of the binder: centroids of the first triangle of its
/// first and last faces.
std::pair<std::string, std::string> two_points(const fs::path& binder) {
    const auto tagfiles = exporter::load_fromsoft_tagfiles(binder.string(), "");
    const fromsoft::NavMesh& mesh = tagfiles.front().model.mesh;
    auto centroid = [&](std::size_t face) {
        const auto tris = exporter::face_triangles(mesh, face);
        EXPECT_FALSE(tris.empty());
        double x = 0, y = 0, z = 0;
        for (std::int32_t v : tris.front()) x += mesh.vertices[v].x, y += mesh.vertices[v].y, z += mesh.vertices[v].z;
        return fmt::format("{:.4f},{:.4f},{:.4f}", x / 3, y / 3, z / 3);
    };
    return {centroid(0), centroid(mesh.faces.size() - 1)};
}

}  // namespace

class InstallSources : public ::testing::TestWithParam<Game> {};

TEST_P(InstallSources, BinderSourceListsReadsAndSelectsLikeTheFolder) {
    const Game game = GetParam();
    const auto& t = test::test_install(game);
    const fromsoft::BinderSource install = fromsoft::BinderSource::open(t.gameDir, test_options(game));
    const fromsoft::BinderSource folder = fromsoft::BinderSource::open(unpacked(game));
    ASSERT_NE(install.install(), nullptr);
    EXPECT_EQ(folder.install(), nullptr);
    ASSERT_EQ(install.binders().size(), t.binders.size());
    ASSERT_EQ(folder.binders().size(), t.binders.size());
    for (std::size_t i = 0; i < install.binders().size(); ++i) {
        const fromsoft::BinderRef& b = install.binders()[i];
        const std::string path = b.name.substr(b.name.find(':') + 1);
        ASSERT_TRUE(t.binders.count(path)) << b.name;
        // Same order and map ids as the unpacked folder's sorted paths; bytes as packed.
        EXPECT_EQ(b.map_id, map_id_of(path));
        EXPECT_EQ(folder.binders()[i].map_id, b.map_id);
        EXPECT_EQ(b.size, t.binders.at(path).size());
        const SharedBytes bytes = install.read(i);
        EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), t.binders.at(path).begin(), t.binders.at(path).end()));
        EXPECT_EQ(install.open_nav(i).name(), b.name);
        EXPECT_EQ(install.open_nav(i).entries().size(), folder.open_nav(i).entries().size());
    }
    // --map by map id, or by archive path in another spelling (upper case, backslashes).
    const std::string path = t.binders.rbegin()->first;
    fromsoft::SourceOptions o = test_options(game);
    o.maps = {map_id_of(path)};
    EXPECT_EQ(fromsoft::BinderSource::open(t.gameDir, o).binders().size(), 1u);
    std::string spelled = path;
    for (auto& c : spelled) c = c == '/' ? '\\' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    o.maps = {spelled};
    const auto bySpelling = fromsoft::BinderSource::open(t.gameDir, o);
    ASSERT_EQ(bySpelling.binders().size(), 1u);
    EXPECT_EQ(bySpelling.binders()[0].map_id, map_id_of(path));
    o.maps = {map_id_of(path)};
    EXPECT_EQ(fromsoft::BinderSource::open(unpacked(game), o).binders().size(), 1u);
    // A map the install lacks: an error naming it and the install.
    o.maps = {"m99_99_99_99"};
    try {
        fromsoft::BinderSource::open(t.gameDir, o);
        FAIL() << "no error for a map the install lacks";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("map m99_99_99_99 is not in " + t.gameDir.string()), std::string::npos)
            << e.what();
    }
    // One binder for the single-input commands: several without --map is an error asking for it.
    try {
        fromsoft::open_one_binder(t.gameDir, test_options(game));
        FAIL() << "no error for an install of several binders without --map";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("choose one with --map"), std::string::npos) << e.what();
    }
}

TEST_P(InstallSources, ExportOverInstallEqualsExportOfUnpackedBinder) {
    const Game game = GetParam();
    const auto& t = test::test_install(game);
    const auto dir = test::scratch_dir("install_sources_export_" + std::string(game_name(game)));
    const fromsoft::BinderSource install = fromsoft::BinderSource::open(t.gameDir, test_options(game));
    std::string text;
    for (const auto& [path, bytes] : t.binders) {
        const std::string id = map_id_of(path);
        const fs::path file = unpacked(game) / path.substr(1);
        for (const char* ext : {"obj", "json"}) {
            const fs::path a = dir / (id + "_install." + ext), b = dir / (id + "_folder." + ext);
            ASSERT_EQ(run_navlab("export " + install_args(game) + " --map " + id + " -o " + a.string(), &text), 0) << text;
            ASSERT_EQ(run_navlab("export " + file.string() + " -o " + b.string(), &text), 0) << text;
            // JSON names the binder: "data2:/map/..." against the file's path.
            const std::string fromInstall = replace_all(read_text(a), install_name(install, path), "BINDER");
            const std::string fromFolder = replace_all(read_text(b), file.string(), "BINDER");
            expect_same_text(fromInstall, fromFolder, path + " " + ext);
            EXPECT_GT(fromInstall.size(), 1000u);
        }
        // The 3-D formats go through the scene model; --map by archive path works too.
        std::string one, two;
        ASSERT_EQ(run_navlab("export " + install_args(game) + " --map " + path + " -o " + (dir / "i.ply").string(), &one), 0) << one;
        ASSERT_EQ(run_navlab("export " + file.string() + " -o " + (dir / "f.ply").string(), &two), 0) << two;
        EXPECT_EQ(replace_all(one, "i.ply", "X"), replace_all(two, "f.ply", "X"));
        expect_same_text(replace_all(read_text(dir / "i.ply"), install_name(install, path), "BINDER"),
                         replace_all(read_text(dir / "f.ply"), file.string(), "BINDER"), path + " ply");
    }
}

TEST_P(InstallSources, EntryChoosesTheSameMemberInAnInstallAsInTheFile) {
    // --entry on an install binder goes through NavFile::select, on a file through the same rule.
    const Game game = GetParam();
    const auto& t = test::test_install(game);
    const auto dir = test::scratch_dir("install_sources_entry_" + std::string(game_name(game)));
    const fromsoft::BinderSource install = fromsoft::BinderSource::open(t.gameDir, test_options(game));
    const auto& [path, bytes] = *t.binders.begin();
    const std::string id = map_id_of(path);
    const fs::path file = unpacked(game) / path.substr(1);
    std::string text;
    ASSERT_EQ(run_navlab("export " + install_args(game) + " --map " + id + " --entry 1 -o " + (dir / "i.json").string(), &text), 0) << text;
    ASSERT_EQ(run_navlab("export " + file.string() + " --entry 1 -o " + (dir / "f.json").string(), &text), 0) << text;
    ASSERT_EQ(run_navlab("export " + file.string() + " -o " + (dir / "all.json").string(), &text), 0) << text;
    const std::string one = replace_all(read_text(dir / "i.json"), install_name(install, path), "BINDER");
    expect_same_text(one, replace_all(read_text(dir / "f.json"), file.string(), "BINDER"), path + " --entry 1");
    EXPECT_LT(one.size(), read_text(dir / "all.json").size()) << "--entry 1 exported every member";
    EXPECT_EQ(run_navlab("export " + install_args(game) + " --map " + id + " --entry no_such.hkx -o " + (dir / "x.json").string(), &text), 1);
    EXPECT_NE(text.find("no entry named \"no_such.hkx\""), std::string::npos) << text;
    EXPECT_NE(text.find(install_name(install, path)), std::string::npos) << "the error names the binder: " << text;
    EXPECT_FALSE(fs::exists(dir / "x.json"));
}

TEST_P(InstallSources, ViewOverInstallEqualsViewOfUnpackedFolder) {
    const Game game = GetParam();
    const auto dir = test::scratch_dir("install_sources_view_" + std::string(game_name(game)));
    std::string a, b;
    ASSERT_EQ(run_navlab("view " + install_args(game) + " --audit --json -o " + (dir / "install.html").string(), &a), 0) << a;
    ASSERT_EQ(run_navlab("view " + unpacked(game).string() + " --audit --json -o " + (dir / "folder.html").string(), &b), 0)
        << b;
    nlohmann::json ja = nlohmann::json::parse(a), jb = nlohmann::json::parse(b);
    EXPECT_EQ(ja["members"], jb["members"]);
    EXPECT_EQ(ja["faces"], jb["faces"]);
    EXPECT_GT(ja["faces"].get<int>(), 0);
    // Several binders: the page is titled "N inputs" and members "<map id>/<member>" either way;
    // the members' sources are the binders' names.
    const fromsoft::BinderSource install = fromsoft::BinderSource::open(test::test_install(game).gameDir, test_options(game));
    std::string page = read_text(dir / "install.html");
    for (const auto& [path, bytes] : test::test_install(game).binders)
        page = replace_all(page, install_name(install, path), (unpacked(game) / path.substr(1)).string());
    expect_same_text(page, read_text(dir / "folder.html"), "view page");
    // One map of the install.
    const std::string path = test::test_install(game).binders.begin()->first;
    ASSERT_EQ(run_navlab("view " + install_args(game) + " --map " + map_id_of(path) + " --json -o " + (dir / "one.html").string(), &a),
              0)
        << a;
    ASSERT_EQ(run_navlab("view " + (unpacked(game) / path.substr(1)).string() + " --json -o " + (dir / "f.html").string(), &b), 0);
    EXPECT_EQ(nlohmann::json::parse(a)["faces"], nlohmann::json::parse(b)["faces"]);
}

TEST_P(InstallSources, PathAndIslandsOverInstallEqualThoseOverUnpackedBinder) {
    const Game game = GetParam();
    const auto& t = test::test_install(game);
    const auto dir = test::scratch_dir("install_sources_path_" + std::string(game_name(game)));
    const fromsoft::BinderSource install = fromsoft::BinderSource::open(t.gameDir, test_options(game));
    std::string text;
    for (const auto& [path, bytes] : t.binders) {
        const std::string id = map_id_of(path);
        const fs::path file = unpacked(game) / path.substr(1);
        const auto [from, to] = two_points(file);
        for (const std::string& query : {"path --from " + from + " --to " + to, std::string("islands")}) {
            const fs::path a = dir / (id + "_install.json"), b = dir / (id + "_folder.json");
            ASSERT_EQ(run_navlab(query.substr(0, query.find(' ')) + " " + install_args(game) + " --map " + id +
                              query.substr(std::min(query.size(), query.find(' '))) + " --json " + a.string(),
                          &text),
                      0)
                << text;
            ASSERT_EQ(run_navlab(query.substr(0, query.find(' ')) + " " + file.string() +
                              query.substr(std::min(query.size(), query.find(' '))) + " --json " + b.string(),
                          &text),
                      0)
                << text;
            const std::string fromInstall = replace_all(read_text(a), install_name(install, path), "BINDER");
            const std::string fromFolder = replace_all(read_text(b), file.string(), "BINDER");
            expect_same_text(fromInstall, fromFolder, query);
            if (query.starts_with("path")) {
                EXPECT_NE(fromInstall.find("\"found\""), std::string::npos) << fromInstall;
            }
        }
    }
}

TEST_P(InstallSources, AuditWithMapEqualsAuditOfThatBinder) {
    const Game game = GetParam();
    const auto& t = test::test_install(game);
    const auto dir = test::scratch_dir("install_sources_audit_" + std::string(game_name(game)));
    const fromsoft::BinderSource install = fromsoft::BinderSource::open(t.gameDir, test_options(game));
    const std::string path = t.binders.begin()->first;
    const fs::path file = unpacked(game) / path.substr(1);
    std::string text;
    const int a = run_navlab("audit " + install_args(game) + " --map " + map_id_of(path) + " --json " + (dir / "i.json").string(), &text);
    const int b = run_navlab("audit " + file.string() + " --json " + (dir / "f.json").string(), &text);
    EXPECT_EQ(a, b) << text;
    nlohmann::json ja = nlohmann::json::parse(read_text(dir / "i.json")), jb = nlohmann::json::parse(read_text(dir / "f.json"));
    ja.erase("inputs"), jb.erase("inputs");
    expect_same_text(replace_all(ja.dump(1), install_name(install, path), "BINDER"),
                     replace_all(jb.dump(1), file.string(), "BINDER"), "audit");
    // Several paths: each --map needs to be in one of them only.
    const fs::path other = unpacked(game) / t.binders.rbegin()->first.substr(1);
    ASSERT_NE(other, file);
    EXPECT_EQ(run_navlab("audit " + other.string() + " " + file.string() + " --map " + map_id_of(path) + " --json " +
                             (dir / "two.json").string(),
                         &text),
              b)
        << text;
    nlohmann::json jt = nlohmann::json::parse(read_text(dir / "two.json"));
    jt.erase("inputs");
    EXPECT_EQ(jt, jb);
}

INSTANTIATE_TEST_SUITE_P(Games, InstallSources, ::testing::Values(Game::Sekiro, Game::EldenRing),
                         [](const auto& info) { return std::string(game_name(info.param)); });

TEST(InstallSourcesErrors, MapNotInInstallAndNoMapForOneBinderCommands) {
    const auto& t = test::test_install(Game::EldenRing);
    const auto dir = test::scratch_dir("install_sources_errors");
    std::string text;
    // A map id the install lacks: exit 1, the map and the install named, nothing written.
    for (const std::string& cmd :
         {"export " + install_args(Game::EldenRing) + " --map m99_99_99_99 -o " + (dir / "x.obj").string(),
          "view " + install_args(Game::EldenRing) + " --map m99_99_99_99 -o " + (dir / "x.html").string(),
          "islands " + install_args(Game::EldenRing) + " --map m99_99_99_99",
          "audit " + install_args(Game::EldenRing) + " --map m99_99_99_99"}) {
        EXPECT_EQ(run_navlab(cmd, &text), 1) << cmd << "\n" << text;
        EXPECT_NE(text.find("map m99_99_99_99 is not in " + t.gameDir.string()), std::string::npos) << text;
    }
    EXPECT_FALSE(fs::exists(dir / "x.obj"));
    EXPECT_FALSE(fs::exists(dir / "x.html"));
    // Export and path read one binder: an install of several needs --map.
    EXPECT_EQ(run_navlab("export " + install_args(Game::EldenRing) + " -o " + (dir / "y.obj").string(), &text), 1);
    EXPECT_NE(text.find("choose one with --map"), std::string::npos) << text;
    EXPECT_EQ(run_navlab("path " + install_args(Game::EldenRing) + " --from 0,0,0 --to 1,0,1", &text), 1);
    EXPECT_NE(text.find("choose one with --map"), std::string::npos) << text;
    // --map takes one value for the one-binder commands (usage error).
    EXPECT_EQ(run_navlab("islands " + install_args(Game::EldenRing) + " --map a b", &text), 2) << text;
    EXPECT_EQ(run_navlab("export --help", &text), 0);
    EXPECT_NE(text.find("--map"), std::string::npos);
}

// --cache DIR: the decrypted .bhd files are kept and reused; nothing is written without it.
TEST(BhdCache, SecondOpenReadsThePlaintextFromTheCache) {
    const auto& t = test::test_install(Game::EldenRing);
    const auto cache = test::scratch_dir("bhd_cache") / "cache";
    OpenOptions o;
    o.game = Game::EldenRing;
    o.keysDir = t.keysDir;
    const GameInstall plain = GameInstall::open(t.gameDir, o);  // no cache: nothing written
    EXPECT_FALSE(fs::exists(cache));
    o.cacheDir = cache;
    const GameInstall first = GameInstall::open(t.gameDir, o);
    std::size_t encrypted = 0;
    for (const Archive& a : first.archives()) {
        encrypted += a.bhdEncrypted;
        EXPECT_FALSE(a.bhdFromCache) << a.stem;
        if (!a.bhdEncrypted) continue;
        const auto bhd = read_file(a.bhdPath);
        EXPECT_TRUE(fs::exists(cache / bhd_cache_name(bhd, archive_key(Game::EldenRing, a.stem, t.keysDir)))) << a.stem;
    }
    ASSERT_GT(encrypted, 0u);
    EXPECT_EQ(static_cast<std::size_t>(std::distance(fs::directory_iterator(cache), fs::directory_iterator())), encrypted);
    const GameInstall second = GameInstall::open(t.gameDir, o);
    ASSERT_EQ(second.archives().size(), plain.archives().size());
    for (std::size_t i = 0; i < second.archives().size(); ++i) {
        const Archive &a = second.archives()[i], &b = plain.archives()[i];
        EXPECT_EQ(a.bhdFromCache, a.bhdEncrypted) << a.stem;
        ASSERT_EQ(a.files.size(), b.files.size());
        for (std::size_t f = 0; f < a.files.size(); ++f) {
            EXPECT_EQ(a.files[f]->hash, b.files[f]->hash);
            EXPECT_EQ(second.read({i, f}), plain.read({i, f}));
        }
    }
    // An entry that is not BHD5 is ignored and rewritten; a damaged BHD5 entry is an error
    // naming the cache file.
    const fs::path entry = fs::directory_iterator(cache)->path();
    write_file_atomic(entry, std::string_view("not a plaintext"));
    const GameInstall rewritten = GameInstall::open(t.gameDir, o);
    EXPECT_EQ(read_file(entry).size() % kRsaPlainBlock, 0u);
    auto damaged = read_file(entry);
    damaged.resize(40);
    write_file_atomic(entry, damaged);
    try {
        GameInstall::open(t.gameDir, o);
        FAIL() << "a damaged cache entry opened";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("plaintext cached in " + entry.string()), std::string::npos) << e.what();
    }
    fs::remove(entry);
    // The command line: `archive ls --cache` says where the plaintext came from.
    std::string text;
    const auto dir = test::scratch_dir("bhd_cache_cli");
    const std::string ls = "archive ls " + install_args(Game::EldenRing) + " --cache " + (dir / "c").string() + " --json ";
    ASSERT_EQ(run_navlab(ls + (dir / "1.json").string(), &text), 0) << text;
    ASSERT_EQ(run_navlab(ls + (dir / "2.json").string(), &text), 0) << text;
    EXPECT_NE(text.find("read from the cache"), std::string::npos) << text;
    auto one = nlohmann::json::parse(read_text(dir / "1.json")), two = nlohmann::json::parse(read_text(dir / "2.json"));
    EXPECT_EQ(one["files"], two["files"]);
    for (auto& a : two["archives"]) EXPECT_EQ(a["bhd_cached"], a["bhd_encrypted"]);
    // The other commands take it too.
    ASSERT_EQ(run_navlab("islands " + install_args(Game::EldenRing) + " --cache " + (dir / "c").string() + " --map " +
                             map_id_of(t.binders.begin()->first),
                         &text),
              0)
        << text;
}
