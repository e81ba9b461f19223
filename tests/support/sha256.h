// SHA-256 of bytes as lowercase hex, test-only: compares decoded payloads and reports with the
// samples' expected hashes and fixed digests. OpenSSL's (already a dependency of the archive
// layer), so the digest is computed by code independent of navlab.
#pragma once

#include <openssl/evp.h>

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

namespace navlab::test {

inline std::string sha256_hex(std::span<const std::uint8_t> data) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(data.data(), data.size(), md, &size, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("EVP_Digest(SHA-256) failed");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < size; ++i) {
        out += kHex[md[i] >> 4];
        out += kHex[md[i] & 15];
    }
    return out;
}

}  // namespace navlab::test
