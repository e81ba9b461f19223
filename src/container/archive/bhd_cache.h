// The decrypted-.bhd cache `--cache DIR` asks for (spec bhd5.md §8 advises caching the
// plaintext keyed by a hash of the encrypted file; the format here is navlab's own). Opening a
// real install costs about a second of RSA per open; with a cache, a later open reads the
// plaintext instead. Nothing is written unless a cache folder is given.
//
// DIR/<hex SHA-256 of the encrypted .bhd followed by the key's public PEM>.bhd5 holds the
// plaintext as decrypt_bhd returns it. The name changes with the file and with the key, so a
// patched archive or another key never meets a stale entry; the plaintext read back is parsed
// as strictly as a fresh one (a damaged entry is an error naming the cache file: delete it).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "container/archive/rsa_key.h"
#include "io/byte_reader.h"

namespace navlab::archive {

/// The plaintext of an encrypted .bhd and where it came from.
struct CachedPlaintext {
    std::vector<std::uint8_t> plain;
    bool fromCache = false;          ///< read from the cache (no RSA done)
    std::filesystem::path cacheFile;  ///< the cache entry read or written; empty without a cache
};

/// decrypt_bhd through the cache folder `cacheDir` (created when missing; empty = no cache).
/// A hit is a cache file that starts with "BHD5"; a miss decrypts and writes the entry
/// atomically. Errors are decrypt_bhd's, or name the cache file when it cannot be read/written.
CachedPlaintext decrypt_bhd_cached(Bytes bhd, const RsaKey& key, const std::string& name, unsigned threads,
                                   const std::filesystem::path& cacheDir);

/// The cache file name of an encrypted .bhd opened with `key` ("<64 hex digits>.bhd5").
std::string bhd_cache_name(Bytes bhd, const RsaKey& key);

}  // namespace navlab::archive
