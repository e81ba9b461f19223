// The RSA layer of a .bhd file (spec bhd5.md §1): "textbook" RSA without padding, applied
// block by block. A 2048-bit key turns each 256-byte cipher block c into m = c^e mod n,
// written as exactly 255 big-endian bytes (leading zeros kept); the plaintext is the
// concatenation, 255 × (file size / 256) bytes, and begins with "BHD5".
// The blocks are independent, so both directions run in parallel (io/parallel.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "container/archive/rsa_key.h"
#include "io/byte_reader.h"

namespace navlab::archive {

/// Cipher and plain block sizes for the 2048-bit keys every known archive uses.
inline constexpr std::size_t kRsaCipherBlock = 256;
inline constexpr std::size_t kRsaPlainBlock = 255;

/// True when a .bhd is already plaintext (starts with "BHD5"): it is used as is.
bool is_plain_bhd5(Bytes bhd);

/// Decrypts a whole .bhd with the archive's public key.
/// @param bhd     the encrypted file; its size must be a multiple of 256.
/// @param key     a 2048-bit public key.
/// @param name    the file, for errors.
/// @param threads worker threads (0 = one per core).
/// @return the plaintext (255 bytes per block). Throws navlab::Error naming `name` when the
///         size is not a multiple of 256, or with "wrong key or corrupt BHD" when a block is
///         not below the modulus, decrypts to more than 255 bytes, or the result does not
///         start with "BHD5".
std::vector<std::uint8_t> decrypt_bhd(Bytes bhd, const RsaKey& key, const std::string& name, unsigned threads = 0);

/// Whether the first block of `bhd` decrypts to "BHD5" with `key` (cheap game detection).
bool first_block_opens(Bytes bhd, const RsaKey& key);

/// The inverse, as the games' build tools do it (spec §7 step 4): the plaintext is split into
/// 255-byte chunks (the last one zero-filled), each raised to the private exponent and
/// written as 256 big-endian bytes. `key` must hold a private key.
std::vector<std::uint8_t> encrypt_bhd(Bytes plaintext, const RsaKey& key, unsigned threads = 0);

}  // namespace navlab::archive
