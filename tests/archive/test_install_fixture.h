// Test installs for the archive tests: the small synthetic corpus's binders packed into
// BHD5/BDT archives with navlab's writer (spec bhd5.md §7) and a key pair made here, made once
// per test process.
#pragma once

#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "container/archive/archive_writer.h"
#include "container/archive/navmesh_search.h"
#include "io/file.h"
#include "support/samples.h"
#include "synth/write.h"

namespace navlab::test {

/// One built install: where it is and what went in.
struct TestInstall {
    std::filesystem::path gameDir, keysDir;
    archive::Game game;
    /// Archive path -> original bytes, for every navmesh binder the candidate rule must find.
    std::map<std::string, std::vector<std::uint8_t>> binders;
    /// Archive path -> original bytes of the siblings (stored with unpadded size 0).
    std::map<std::string, std::vector<std::uint8_t>> siblings;
    std::string decoyPath;  ///< a Sekiro binder path stored without its .msb sibling
};

/// The key pair every test install is encrypted with (2048-bit, e = 0xFFFFFFFF like ER Data2).
inline const archive::RsaKey& test_key() {
    static const archive::RsaKey key = archive::RsaKey::generate(2048, 0xFFFFFFFFu);
    return key;
}

/// The small synthetic corpus (2 Sekiro + 2 Elden Ring binders), generated once.
inline const synth::CorpusResult& small_corpus() {
    static const synth::CorpusResult corpus = [] {
        synth::CorpusOptions o;
        o.preset = synth::Preset::Small;
        o.seed = 11;
        o.out = scratch_dir("archive_corpus");
        o.threads = 2;
        return synth::generate_corpus(o);
    }();
    return corpus;
}

inline std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint8_t> out(n);
    for (auto& b : out) b = static_cast<std::uint8_t>(rng());
    return out;
}

/// Nameless filler entries (random hashes and sizes), some encrypted, some unpadded size 0.
inline void add_filler(std::vector<archive::NewArchiveFile>& files, int count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (int i = 0; i < count; ++i) {
        archive::NewArchiveFile f;
        f.rawHash = rng() & (i % 2 ? ~0ull : 0xFFFFFFFFull);
        f.data = random_bytes(rng() % 3000, seed * 1000 + i);
        f.encrypt = i % 3 == 0;
        f.recordUnpadded = i % 4 != 0;
        files.push_back(std::move(f));
    }
}

/// Elden Ring: Data0 plain BHD5 (filler), Data2 (m10_00_00_00, AES-encrypted, with siblings),
/// DLC (m10_01_00_00, clear, with siblings); Sekiro: Data1 (filler), Data5 (both binders with
/// their .msb siblings, one encrypted) plus a decoy binder path without its .msb sibling.
inline const TestInstall& test_install(archive::Game game) {
    static std::map<archive::Game, TestInstall> built;
    auto it = built.find(game);
    if (it != built.end()) return it->second;
    TestInstall t;
    t.game = game;
    const std::string name = std::string(archive::game_name(game));
    const auto root = scratch_dir("archive_install_" + name);
    t.gameDir = root / "Game";
    t.keysDir = root / "keys";
    std::map<std::string, std::vector<archive::NewArchiveFile>> archives;
    std::uint64_t seed = 100;
    int binderIndex = 0;
    for (const auto& file : small_corpus().files) {
        // Sekiro binders sit at map/<id>/..., Elden Ring ones at map/mAA/<id>/...
        const std::string id = file.stem().stem().string();
        const bool isEr = file.parent_path().parent_path().filename() != "map";
        if (isEr != (game == archive::Game::EldenRing)) continue;
        const std::string path = archive::navmesh_binder_path(game, id);
        const auto bytes = read_file(file);
        const std::string stem = game == archive::Game::EldenRing ? (binderIndex == 0 ? "Data2" : "DLC") : "Data5";
        auto& files = archives[stem];
        files.push_back({path, {}, bytes, binderIndex == 0, true});
        t.binders[path] = bytes;
        for (const std::string& sibling : {archive::msb_path(id), archive::navmesh_nva_path(game, id)}) {
            auto data = random_bytes(100 + 37 * binderIndex, ++seed);  // not a multiple of 16
            files.push_back({sibling, {}, data, binderIndex == 1, false});
            data.resize((data.size() + 15) / 16 * 16, 0);  // unpadded 0: read back padded
            t.siblings[sibling] = data;
        }
        ++binderIndex;
    }
    if (game == archive::Game::Sekiro) {
        t.decoyPath = archive::navmesh_binder_path(game, "m20_00_00_00");
        archives["Data5"].push_back({t.decoyPath, {}, t.binders.begin()->second, false, true});
        add_filler(archives["Data1"], 40, 7);
    } else {
        add_filler(archives["Data0"], 30, 8);
    }
    add_filler(archives[game == archive::Game::Sekiro ? "Data5" : "Data2"], 25, 9);
    const std::vector<std::string> plain = game == archive::Game::EldenRing ? std::vector<std::string>{"Data0"}
                                                                            : std::vector<std::string>{};
    archive::write_test_install(t.gameDir, t.keysDir, game, archives, &test_key(), plain);
    return built.emplace(game, std::move(t)).first->second;
}

inline archive::GameInstall open_test_install(archive::Game game, bool giveGame = true) {
    archive::OpenOptions o;
    if (giveGame) o.game = game;
    o.keysDir = test_install(game).keysDir;
    return archive::GameInstall::open(test_install(game).gameDir, o);
}

/// Runs `navlab ARGS`, capturing stdout+stderr; returns the exit status.
inline int run_navlab(const std::string& args, std::string* out = nullptr) {
    return run_command(navlab_binary() + " " + args, out);
}

/// "GAME_DIR --keys KEYS" of the test install of `game`, for command lines.
inline std::string install_args(archive::Game game) {
    const auto& t = test_install(game);
    return t.gameDir.string() + " --keys " + t.keysDir.string();
}

/// Replaces every occurrence of `from` (not empty) in `text` with `to`.
inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    if (from.empty()) return text;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

}  // namespace navlab::test
