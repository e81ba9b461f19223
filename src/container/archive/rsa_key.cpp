#include "container/archive/rsa_key.h"

#include "container/archive/crypto_lib.h"
#include "io/error.h"

namespace navlab::archive {

std::string openssl_error() {
    const unsigned long code = crypto().ERR_get_error();
    crypto().ERR_clear_error();
    if (code == 0) return "unknown OpenSSL error";
    char text[256];
    crypto().ERR_error_string_n(code, text, sizeof text);
    return text;
}

RsaKey RsaKey::from_public_pem(std::string_view pem, const std::string& name) {
    EVP_PKEY* pkey = nullptr;
    // A null structure lets the decoder accept both PKCS#1 ("type-specific") and SPKI.
    OSSL_DECODER_CTX* dctx =
        crypto().OSSL_DECODER_CTX_new_for_pkey(&pkey, "PEM", nullptr, "RSA", EVP_PKEY_PUBLIC_KEY, nullptr, nullptr);
    if (!dctx) throw Error("cannot set up the PEM decoder: " + openssl_error(), kNoOffset, name);
    auto* data = reinterpret_cast<const unsigned char*>(pem.data());
    std::size_t left = pem.size();
    const int ok = crypto().OSSL_DECODER_from_data(dctx, &data, &left);
    crypto().OSSL_DECODER_CTX_free(dctx);
    if (!ok || !pkey) {
        crypto().ERR_clear_error();
        Error e("not an RSA public key in PEM form (PKCS#1 \"RSA PUBLIC KEY\" or \"PUBLIC KEY\")");
        e.set_file(name);
        throw e;
    }
    RsaKey key;
    key.key_.reset(pkey, crypto().EVP_PKEY_free);
    key.name_ = name;
    return key;
}

RsaKey RsaKey::generate(unsigned bits, std::uint64_t exponent) {
    const CryptoLib& lib = crypto();
    EVP_PKEY_CTX* ctx = lib.EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
    BIGNUM* e = lib.BN_new();
    EVP_PKEY* pkey = nullptr;
    const bool ok = ctx && e && lib.BN_set_word(e, exponent) && lib.EVP_PKEY_keygen_init(ctx) > 0 &&
                    lib.EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, static_cast<int>(bits)) > 0 &&
                    lib.EVP_PKEY_CTX_set1_rsa_keygen_pubexp(ctx, e) > 0 && lib.EVP_PKEY_generate(ctx, &pkey) > 0;
    lib.BN_free(e);
    lib.EVP_PKEY_CTX_free(ctx);
    if (!ok) throw Error("RSA key generation failed: " + openssl_error());
    RsaKey key;
    key.key_.reset(pkey, crypto().EVP_PKEY_free);
    key.name_ = "generated key";
    key.private_ = true;
    return key;
}

unsigned RsaKey::bits() const { return static_cast<unsigned>(crypto().EVP_PKEY_get_bits(key_.get())); }

std::uint64_t RsaKey::public_exponent() const {
    BIGNUM* e = nullptr;
    if (!crypto().EVP_PKEY_get_bn_param(key_.get(), OSSL_PKEY_PARAM_RSA_E, &e)) throw Error("RSA key without exponent");
    const std::uint64_t value = crypto().BN_get_word(e);
    crypto().BN_free(e);
    return value;
}

std::string RsaKey::public_pem(bool pkcs1) const {
    OSSL_ENCODER_CTX* ectx = crypto().OSSL_ENCODER_CTX_new_for_pkey(
        key_.get(), EVP_PKEY_PUBLIC_KEY, "PEM", pkcs1 ? "type-specific" : "SubjectPublicKeyInfo", nullptr);
    unsigned char* out = nullptr;
    std::size_t size = 0;
    const bool ok = ectx && crypto().OSSL_ENCODER_to_data(ectx, &out, &size) > 0;
    crypto().OSSL_ENCODER_CTX_free(ectx);
    if (!ok) throw Error("cannot encode the public key as PEM: " + openssl_error());
    std::string text(reinterpret_cast<const char*>(out), size);
    crypto().CRYPTO_free(out, OPENSSL_FILE, OPENSSL_LINE);
    return text;
}

}  // namespace navlab::archive
