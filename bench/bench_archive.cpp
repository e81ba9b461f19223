// Issue 18's benchmark: a synthetic corpus packed into a test install (BHD5/BDT archives made
// with navlab's writer and an RSA key made here, AES ranges on half the binders, nameless
// filler entries so the .bhd files have a realistic size), then
//   list:  open the install (RSA-decrypt every .bhd, parse, index) + the candidate search,
//          against the same install with plaintext .bhd files (the RSA share of listing);
//   audit: every navmesh binder audited straight from the archives, against the audit of the
//          same binders as files on disk (aim: install / folder <= 1).
//
//   bench_archive [--preset small|sekiro|eldenring] [--seed N] [--dir DIR] [--filler N] [--threads N]
//
// DIR (default /tmp/navlab-bench-<preset>-<seed>) holds the corpus (made when missing, shared
// with bench_corpus); the installs go to DIR-install and DIR-install-plain and are reused.
#include <fmt/format.h>

#include <chrono>
#include <random>
#include <string>

#include "audit/audit_rules.h"
#include "container/archive/archive_writer.h"
#include "container/archive/bhd_rsa.h"
#include "container/archive/navmesh_search.h"
#include "audit/audit_files.h"
#include "audit/audit_load.h"
#include "codec/dcx.h"
#include "container/bnd4.h"
#include "io/file.h"
#include "io/parallel.h"
#include "bench_options.h"
#include "synth_corpus.h"

using namespace navlab;
using bench::cpu_seconds;
using bench::seconds_since;
namespace fs = std::filesystem;

namespace {

/// Packs the corpus's binders of `game` into one archive (Data2 / Data5) with their .msb and
/// .nva siblings and `filler` nameless entries, in DIR/Game, keys in DIR/keys.
void pack(const std::vector<fs::path>& files, archive::Game game, const fs::path& dir, std::size_t filler,
          const archive::RsaKey* key) {
    std::vector<archive::NewArchiveFile> entries;
    std::size_t n = 0;
    for (const fs::path& f : files) {
        const bool sekiro = f.parent_path().parent_path().filename() == "map";
        if (sekiro != (game == archive::Game::Sekiro)) continue;
        const std::string id = f.stem().stem().string();
        entries.push_back({archive::navmesh_binder_path(game, id), {}, read_file(f), n++ % 2 == 0, true});
        entries.push_back({archive::msb_path(id), {}, std::vector<std::uint8_t>(4000, 1), false, false});
        entries.push_back({archive::navmesh_nva_path(game, id), {}, std::vector<std::uint8_t>(900, 2), false, false});
    }
    if (n == 0) return;
    std::mt19937_64 rng(5);
    for (std::size_t i = 0; i < filler; ++i)
        entries.push_back({{}, rng(), std::vector<std::uint8_t>(16 + rng() % 64, 3), i % 4 == 0, i % 2 == 0});
    archive::write_test_install(dir / "Game", dir / "keys", game,
                                {{game == archive::Game::Sekiro ? "Data5" : "Data2", std::move(entries)}}, key,
                                key ? std::vector<std::string>{} : std::vector<std::string>{"Data5", "Data2"});
}

struct Listed {
    double wall = 0, cpu = 0;
    std::size_t binders = 0, entries = 0;
    std::uint64_t bhdBytes = 0;
};

Listed list(const fs::path& dir, archive::Game game, unsigned threads) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_seconds();
    archive::OpenOptions o;
    o.game = game;
    o.keysDir = dir / "keys";
    o.threads = threads;
    const archive::GameInstall install = archive::GameInstall::open(dir / "Game", o);
    Listed l;
    l.binders = archive::find_navmesh_binders(install).size();
    l.wall = seconds_since(t0);
    l.cpu = cpu_seconds() - c0;
    l.entries = install.entry_count();
    for (const auto& a : install.archives()) l.bhdBytes += a.bhdBytes;
    return l;
}

}  // namespace

int main(int argc, char** argv) {
    std::string preset = "sekiro", dir;
    std::uint64_t seed = 1;
    std::size_t filler = 20000;
    unsigned threads = 0;
    bench::Options("usage: bench_archive [options]\n"
                   "A synth corpus packed into a test install (BHD5/BDT): listing it against plaintext .bhd files,\n"
                   "and auditing from the archives against the same binders as files (see bench/bench_archive.cpp).")
        .value("--preset", "P", "synthetic corpus preset: small, sekiro (default) or eldenring", preset)
        .value("--seed", "N", "synth seed of the corpus (default 1)", seed)
        .value("--dir", "DIR", "corpus folder (default /tmp/navlab-bench-<preset>-<seed>; the installs go beside it)", dir)
        .value("--filler", "N", "filler entries beside the binders in each archive (default 20000)", filler)
        .value("--threads", "N", "workers (default 0: all cores)", threads)
        .parse(argc, argv);
    if (dir.empty()) dir = bench::default_corpus_dir(preset, seed);
    const auto files = bench::corpus_binders(preset, seed, dir, threads);
    const archive::Game game = preset == "sekiro" ? archive::Game::Sekiro : archive::Game::EldenRing;
    const fs::path encrypted = dir + "-install", plain = dir + "-install-plain";
    if (!fs::exists(encrypted / "Game")) {
        const auto t0 = std::chrono::steady_clock::now();
        const archive::RsaKey key = archive::RsaKey::generate(2048, 0xFFFFFFFFu);  // ER Data2's exponent
        pack(files, game, encrypted, filler, &key);
        pack(files, game, plain, filler, nullptr);
        fmt::print("pack       {:>8.1f} s   (RSA private-key encryption of the .bhd, done once)\n", seconds_since(t0));
    }

    const Listed l = list(encrypted, game, threads);
    const Listed p = list(plain, game, threads);
    fmt::print("list       wall {:>6.3f} s  cpu {:>6.3f} s  {} entries, {:.2f} MB of .bhd ({} RSA blocks, {:.0f} "
               "blocks/cpu-s), {} binders found\n",
               l.wall, l.cpu, l.entries, l.bhdBytes / 1e6, l.bhdBytes / archive::kRsaCipherBlock,
               (l.bhdBytes / archive::kRsaCipherBlock) / std::max(1e-9, l.cpu - p.cpu), l.binders);
    fmt::print("list plain wall {:>6.3f} s  cpu {:>6.3f} s  (same install, plaintext .bhd: no RSA)\n", p.wall, p.cpu);
    fmt::print("list / list plain: cpu {:.1f}, wall {:.1f}\n", l.cpu / p.cpu, l.wall / p.wall);

    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpu_seconds();
    std::vector<std::string> paths;
    for (const auto& f : files) paths.push_back(f.string());
    const auto folder = audit::audit_files(paths, {threads, 5, {}});
    const double folderWall = seconds_since(t0), folderCpu = cpu_seconds() - c0;
    t0 = std::chrono::steady_clock::now();
    c0 = cpu_seconds();
    // The install as `navlab audit GAME_DIR` reads it: open (RSA, parse, candidate search), then
    // each binder read from its .bdt (AES ranges decrypted), decompressed and audited.
    fromsoft::SourceOptions o;
    o.game = game;
    o.keys = encrypted / "keys";
    o.threads = threads;
    const fromsoft::BinderSource install = fromsoft::BinderSource::open(encrypted / "Game", o);
    const double openWall = seconds_since(t0), openCpu = cpu_seconds() - c0;
    const auto installed = audit::audit_source(install, {threads, 5, {}}).report;
    const double installWall = seconds_since(t0) - openWall, installCpu = cpu_seconds() - c0 - openCpu;
    const auto& s = installed.summary;
    fmt::print("audit folder  wall {:>7.2f} s  cpu {:>7.2f} s  ({} binders on disk)\n", folderWall, folderCpu,
               files.size());
    fmt::print("audit install wall {:>7.2f} s  cpu {:>7.2f} s  ({} tagfiles from the archives) + opening the "
               "install wall {:.2f} s cpu {:.2f} s\n",
               installWall, installCpu, s.sekiro.tagfiles + s.elden_ring.tagfiles, openWall, openCpu);
    fmt::print("audit install / folder: cpu {:.2f}, wall {:.2f} (aim: at most 1); with the opening cpu {:.2f}\n",
               installCpu / folderCpu, installWall / folderWall, (installCpu + openCpu) / folderCpu);
    return 0;
}
