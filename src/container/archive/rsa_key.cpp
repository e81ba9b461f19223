#include "container/archive/rsa_key.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "io/error.h"

namespace navlab::archive {

std::string openssl_error() {
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0) return "unknown OpenSSL error";
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    return text;
}

RsaKey RsaKey::from_public_pem(std::string_view pem, const std::string& name) {
    EVP_PKEY* pkey = nullptr;
    // A null structure lets the decoder accept both PKCS#1 ("type-specific") and SPKI.
    OSSL_DECODER_CTX* dctx =
        OSSL_DECODER_CTX_new_for_pkey(&pkey, "PEM", nullptr, "RSA", EVP_PKEY_PUBLIC_KEY, nullptr, nullptr);
    if (!dctx) throw Error("cannot set up the PEM decoder: " + openssl_error(), kNoOffset, name);
    auto* data = reinterpret_cast<const unsigned char*>(pem.data());
    std::size_t left = pem.size();
    const int ok = OSSL_DECODER_from_data(dctx, &data, &left);
    OSSL_DECODER_CTX_free(dctx);
    if (!ok || !pkey) {
        ERR_clear_error();
        Error e("not an RSA public key in PEM form (PKCS#1 \"RSA PUBLIC KEY\" or \"PUBLIC KEY\")");
        e.set_file(name);
        throw e;
    }
    RsaKey key;
    key.key_.reset(pkey, EVP_PKEY_free);
    key.name_ = name;
    return key;
}

RsaKey RsaKey::generate(unsigned bits, std::uint64_t exponent) {
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
    BIGNUM* e = BN_new();
    EVP_PKEY* pkey = nullptr;
    const bool ok = ctx && e && BN_set_word(e, exponent) && EVP_PKEY_keygen_init(ctx) > 0 &&
                    EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, static_cast<int>(bits)) > 0 &&
                    EVP_PKEY_CTX_set1_rsa_keygen_pubexp(ctx, e) > 0 && EVP_PKEY_generate(ctx, &pkey) > 0;
    BN_free(e);
    EVP_PKEY_CTX_free(ctx);
    if (!ok) throw Error("RSA key generation failed: " + openssl_error());
    RsaKey key;
    key.key_.reset(pkey, EVP_PKEY_free);
    key.name_ = "generated key";
    key.private_ = true;
    return key;
}

unsigned RsaKey::bits() const { return static_cast<unsigned>(EVP_PKEY_get_bits(key_.get())); }

std::uint64_t RsaKey::public_exponent() const {
    BIGNUM* e = nullptr;
    if (!EVP_PKEY_get_bn_param(key_.get(), OSSL_PKEY_PARAM_RSA_E, &e)) throw Error("RSA key without exponent");
    const std::uint64_t value = BN_get_word(e);
    BN_free(e);
    return value;
}

std::string RsaKey::public_pem(bool pkcs1) const {
    OSSL_ENCODER_CTX* ectx = OSSL_ENCODER_CTX_new_for_pkey(key_.get(), EVP_PKEY_PUBLIC_KEY, "PEM",
                                                           pkcs1 ? "type-specific" : "SubjectPublicKeyInfo", nullptr);
    unsigned char* out = nullptr;
    std::size_t size = 0;
    const bool ok = ectx && OSSL_ENCODER_to_data(ectx, &out, &size) > 0;
    OSSL_ENCODER_CTX_free(ectx);
    if (!ok) throw Error("cannot encode the public key as PEM: " + openssl_error());
    std::string text(reinterpret_cast<const char*>(out), size);
    OPENSSL_free(out);
    return text;
}

}  // namespace navlab::archive
