// Writing BHD5/BDT archive pairs the way the games' build tools do (spec bhd5.md §7), for
// tests and benchmarks: no game archive can be shipped, so test installs are made from
// synthetic files with navlab's own RSA key pair.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "container/archive/bhd5.h"
#include "container/archive/rsa_key.h"

namespace navlab::archive {

/// One file to store.
struct NewArchiveFile {
    std::string path;                    ///< archive path, hashed per §3 (ignored with rawHash)
    std::optional<std::uint64_t> rawHash;  ///< store under this hash instead (nameless files)
    std::vector<std::uint8_t> data;
    bool encrypt = false;                ///< AES-encrypt random 16-aligned ranges
    bool recordUnpadded = true;          ///< false = unpadded size 0 ("not recorded")
};

/// How to write one archive.
struct ArchiveWriteOptions {
    Game game = Game::EldenRing;         ///< file-header layout and path hash
    std::string salt;                    ///< empty = "GR_test" / "NTC_test"
    std::uint32_t buckets = 0;           ///< 0 = about one per 8 files (at least 1)
    std::uint64_t seed = 1;              ///< AES keys and ranges come from it
    const RsaKey* key = nullptr;         ///< private key to encrypt the .bhd; null = plain BHD5
    unsigned threads = 0;                ///< RSA threads (0 = one per core)
};

/// A written pair.
struct WrittenArchive {
    std::vector<std::uint8_t> bhd, bdt;
    Bhd5 index;                          ///< what the .bhd says
};

/// Lays out the .bdt (16-byte placeholder header, each file zero-padded to 16 bytes, the
/// AES ranges encrypted in place) and the BHD5 (each hash in bucket hash mod B, SHA records
/// with zero digests, AES records with a (-1, -1) slot among the ranges), then RSA-encrypts
/// the BHD5 when a key is given. Same files and seed, same bytes.
WrittenArchive write_archive(const std::vector<NewArchiveFile>& files, const ArchiveWriteOptions& options);

/// Writes a whole test install: GAME_DIR/<stem>.bhd/.bdt for each archive, and (when `key`
/// is given) KEYS_DIR/<game>/<stem>.pem with its public half, as --keys expects.
/// @param archives stem ("Data2", "sd/sd") -> files; @param plainStems stems whose .bhd is
/// left unencrypted.
void write_test_install(const std::filesystem::path& gameDir, const std::filesystem::path& keysDir, Game game,
                        const std::map<std::string, std::vector<NewArchiveFile>>& archives, const RsaKey* key,
                        const std::vector<std::string>& plainStems = {}, std::uint64_t seed = 1);

}  // namespace navlab::archive
