// RSA keys for the BHD5 layer, held as OpenSSL EVP_PKEY: the public keys that open the games'
// .bhd files (PEM, PKCS#1 or SubjectPublicKeyInfo), and key pairs the test-archive writer
// generates to encrypt its own .bhd files the way the games' build tools do.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

typedef struct evp_pkey_st EVP_PKEY;

namespace navlab::archive {

/// A shared, immutable OpenSSL key (public, or public + private). Copies share the key;
/// concurrent use from several threads is safe (each operation makes its own context).
class RsaKey {
public:
    /// Parses a PEM public key: PKCS#1 ("BEGIN RSA PUBLIC KEY") or SubjectPublicKeyInfo
    /// ("BEGIN PUBLIC KEY"). @param name names the key in errors (e.g. its file).
    /// Throws navlab::Error when the text holds no RSA public key.
    static RsaKey from_public_pem(std::string_view pem, const std::string& name);
    /// Generates a key pair. @param bits modulus size (2048 for BHD5); @param exponent the
    /// public exponent (the games use odd 32-bit values such as 0xFFFFFFFF).
    static RsaKey generate(unsigned bits, std::uint64_t exponent);

    /// Modulus size in bits.
    unsigned bits() const;
    /// The public exponent.
    std::uint64_t public_exponent() const;
    /// Whether the private half is present (generated keys only).
    bool has_private() const noexcept { return private_; }
    /// The public key as PEM: PKCS#1 ("RSA PUBLIC KEY", the form the games' keys are
    /// published in) or SubjectPublicKeyInfo ("PUBLIC KEY").
    std::string public_pem(bool pkcs1 = true) const;
    /// What errors call the key ("eldenring/Data2.pem (bundled)").
    const std::string& name() const noexcept { return name_; }
    EVP_PKEY* get() const noexcept { return key_.get(); }

private:
    std::shared_ptr<EVP_PKEY> key_;
    std::string name_;
    bool private_ = false;
};

/// The text of OpenSSL's most recent error (for messages), clearing the error queue.
std::string openssl_error();

}  // namespace navlab::archive
