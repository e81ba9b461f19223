// GameInstall — a Sekiro or Elden Ring `Game/` folder opened for reading without unpacking:
// every .bhd is decrypted (or taken as is when already plaintext), parsed strictly and
// indexed by path hash; one file's bytes are read from the .bdt only when asked for
// (the .bdt stays memory-mapped; AES ranges decrypted, unpadded size applied).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "container/archive/bhd5.h"
#include "container/archive/game.h"
#include "container/archive/rsa_key.h"
#include "io/shared_bytes.h"

namespace navlab::archive {

/// One opened archive (a .bhd + .bdt pair).
struct Archive {
    std::string stem;                  ///< "Data2", "DLC", "sd/sd"
    std::filesystem::path bhdPath, bdtPath;
    bool bhdEncrypted = true;          ///< false when the .bhd was plaintext BHD5
    bool bhdFromCache = false;         ///< the plaintext came from OpenOptions::cacheDir (no RSA)
    std::uint64_t bhdBytes = 0;        ///< size of the .bhd on disk
    Bhd5 index;                        ///< the parsed plaintext
    std::vector<const FileHeader*> files;  ///< every header of index, bucket order
    SharedBytes bdt;                   ///< mapped lazily-read data
};

/// Where a file lives: archive index and position in that archive's `files`.
struct EntryRef {
    std::size_t archive = 0;
    std::size_t file = 0;
    bool operator==(const EntryRef&) const = default;
};

/// How to open an install.
struct OpenOptions {
    std::optional<Game> game;          ///< unset = detect (archive names, then keys, then salt)
    std::filesystem::path keysDir;     ///< empty = bundled keys; else DIR/<game>/<stem>.pem
    unsigned threads = 0;              ///< RSA decryption threads (0 = one per core)
    /// Decrypted-.bhd cache folder (bhd_cache.h); empty = decrypt every time, write nothing.
    std::filesystem::path cacheDir;
};

class GameInstall {
public:
    /// Opens `dir`: the `Game/` folder itself, or an install folder holding `Game/`.
    /// Every archive stem of the game whose .bhd and .bdt both exist is opened.
    /// Throws navlab::Error naming the archive, the plaintext offset, the entry's hash and
    /// the field for any inconsistency ("wrong key or corrupt BHD" for a wrong key).
    static GameInstall open(const std::filesystem::path& dir, const OpenOptions& options = {});

    GameInstall(GameInstall&&) noexcept;
    GameInstall& operator=(GameInstall&&) noexcept;
    ~GameInstall();

    Game game() const noexcept { return game_; }
    /// The folder holding the archives.
    const std::filesystem::path& gameDir() const noexcept { return dir_; }
    const std::vector<Archive>& archives() const noexcept { return archives_; }
    const FileHeader& header(EntryRef ref) const { return *archives_.at(ref.archive).files.at(ref.file); }
    /// Every entry with `hash`, in archive order (several when archives share a path).
    std::vector<EntryRef> find(std::uint64_t hash) const;
    /// find() of a path hashed for this game.
    std::vector<EntryRef> find_path(std::string_view path) const;
    /// Whether archive `archive` holds `hash`.
    bool contains(std::size_t archive, std::uint64_t hash) const;
    /// Total number of file headers over all archives.
    std::size_t entry_count() const noexcept;

    /// Reads one file: padded size from the .bdt, AES ranges decrypted, cut to the unpadded
    /// size when recorded. Thread-safe. Errors name the .bdt and the entry's hash.
    std::vector<std::uint8_t> read(EntryRef ref) const;
    /// The first min(n, padded size) bytes of a file, decrypted (n <= 16 decrypts one block at
    /// most): enough to check a "DCX\0" magic without reading the file.
    std::vector<std::uint8_t> read_prefix(EntryRef ref, std::size_t n) const;

private:
    GameInstall() = default;
    Game game_ = Game::EldenRing;
    std::filesystem::path dir_;
    std::vector<Archive> archives_;
    std::unordered_map<std::uint64_t, std::vector<EntryRef>> byHash_;
};

/// The key that opens archive `stem` of `game`: DIR/<game>/<stem>.pem when keysDir is set,
/// else the bundled one. Throws navlab::Error when there is none.
RsaKey archive_key(Game game, std::string_view stem, const std::filesystem::path& keysDir);

/// The game of an install folder (the `Game/` folder) without opening it: archive names
/// (Data0/DLC/sd => Elden Ring, Data4/Data5 => Sekiro), else the first RSA block of each
/// .bhd against each game's key, else a plaintext BHD5's salt ("GR_" Elden Ring, "NTC_"
/// Sekiro). Throws navlab::Error asking for --game when nothing decides.
Game detect_game(const std::filesystem::path& gameDir, const std::filesystem::path& keysDir = {});

/// The folder holding the archives: `dir` when it has .bhd files, else `dir/Game` when that
/// has. Throws navlab::Error when neither does.
std::filesystem::path locate_game_dir(const std::filesystem::path& dir);

/// True when `dir` looks like an install (`dir` or `dir/Game` holds a .bhd file).
bool is_game_dir(const std::filesystem::path& dir);

}  // namespace navlab::archive
