// libcrypto (OpenSSL 3), loaded on first use. The BHD5 layer (RSA headers, AES ranges, the
// header cache's SHA-256) is its only user, yet linking it made every navlab process load it
// at start, also for commands that never open an archive (an empty program linked with it
// starts 3.4 ms slower; docs/archives.md, "libcrypto on first use"). The headers still give
// the types and constants.
#pragma once

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/rsa.h>

namespace navlab::archive {

// The soname below and the functions' types are OpenSSL 3's.
static_assert(OPENSSL_VERSION_MAJOR == 3, "navlab loads libcrypto.so.3: build against OpenSSL 3's headers");

/// Every libcrypto function navlab calls. OPENSSL_free is a macro over CRYPTO_free.
#define NAVLAB_CRYPTO_FUNCTIONS(X)                                                                              \
    X(BN_free) X(BN_get_word) X(BN_new) X(BN_set_word) X(CRYPTO_free) X(ERR_clear_error) X(ERR_error_string_n)   \
    X(ERR_get_error) X(EVP_CIPHER_CTX_free) X(EVP_CIPHER_CTX_new) X(EVP_CIPHER_CTX_set_padding)                  \
    X(EVP_CipherInit_ex) X(EVP_CipherUpdate) X(EVP_DigestFinal_ex) X(EVP_DigestInit_ex) X(EVP_DigestUpdate)      \
    X(EVP_MD_CTX_free) X(EVP_MD_CTX_new) X(EVP_PKEY_CTX_free) X(EVP_PKEY_CTX_new) X(EVP_PKEY_CTX_new_from_name)  \
    X(EVP_PKEY_CTX_set1_rsa_keygen_pubexp) X(EVP_PKEY_CTX_set_rsa_keygen_bits) X(EVP_PKEY_CTX_set_rsa_padding)   \
    X(EVP_PKEY_decrypt) X(EVP_PKEY_decrypt_init) X(EVP_PKEY_free) X(EVP_PKEY_generate) X(EVP_PKEY_get_bits)      \
    X(EVP_PKEY_get_bn_param) X(EVP_PKEY_keygen_init) X(EVP_PKEY_verify_recover) X(EVP_PKEY_verify_recover_init) \
    X(EVP_aes_128_ecb) X(EVP_sha256) X(OSSL_DECODER_CTX_free) X(OSSL_DECODER_CTX_new_for_pkey)                  \
    X(OSSL_DECODER_from_data) X(OSSL_ENCODER_CTX_free) X(OSSL_ENCODER_CTX_new_for_pkey) X(OSSL_ENCODER_to_data)

/// The functions as pointers of their own declared types.
struct CryptoLib {
#define NAVLAB_CRYPTO_POINTER(name) decltype(&::name) name = nullptr;
    NAVLAB_CRYPTO_FUNCTIONS(NAVLAB_CRYPTO_POINTER)
#undef NAVLAB_CRYPTO_POINTER
};

/// The library's soname, as dlopen looks it up.
inline constexpr const char* kCryptoLibrary = "libcrypto.so.3";

/// libcrypto's functions, resolved from kCryptoLibrary on the first call (thread-safe; the
/// library stays loaded). Throws navlab::Error naming the library and the missing function or
/// dlopen's reason when it cannot be loaded.
const CryptoLib& crypto();

}  // namespace navlab::archive
