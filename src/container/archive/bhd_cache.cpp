#include "container/archive/bhd_cache.h"

#include <fmt/format.h>

#include <memory>

#include "container/archive/bhd_rsa.h"
#include "container/archive/crypto_lib.h"
#include "io/error.h"
#include "io/file.h"

namespace navlab::archive {

std::string bhd_cache_name(Bytes bhd, const RsaKey& key) {
    const std::string pem = key.public_pem();
    const CryptoLib& lib = crypto();
    std::unique_ptr<EVP_MD_CTX, decltype(&::EVP_MD_CTX_free)> ctx(lib.EVP_MD_CTX_new(), lib.EVP_MD_CTX_free);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (!ctx || lib.EVP_DigestInit_ex(ctx.get(), lib.EVP_sha256(), nullptr) != 1 ||
        lib.EVP_DigestUpdate(ctx.get(), bhd.data(), bhd.size()) != 1 ||
        lib.EVP_DigestUpdate(ctx.get(), pem.data(), pem.size()) != 1 ||
        lib.EVP_DigestFinal_ex(ctx.get(), digest, &size) != 1)
        throw Error("SHA-256 of the .bhd failed: " + openssl_error());
    std::string name;
    for (unsigned i = 0; i < size; ++i) name += fmt::format("{:02x}", digest[i]);
    return name + ".bhd5";
}

CachedPlaintext decrypt_bhd_cached(Bytes bhd, const RsaKey& key, const std::string& name, unsigned threads,
                                   const std::filesystem::path& cacheDir) {
    CachedPlaintext out;
    if (cacheDir.empty()) {
        out.plain = decrypt_bhd(bhd, key, name, threads);
        return out;
    }
    out.cacheFile = cacheDir / bhd_cache_name(bhd, key);
    std::error_code ec;
    if (std::filesystem::is_regular_file(out.cacheFile, ec)) {
        out.plain = read_file(out.cacheFile);
        if (is_plain_bhd5(out.plain)) {
            out.fromCache = true;
            return out;
        }
    }
    out.plain = decrypt_bhd(bhd, key, name, threads);
    std::filesystem::create_directories(cacheDir, ec);
    if (ec) throw Error("cannot create the cache folder: " + ec.message()).set_file(cacheDir.string());
    write_file_atomic(out.cacheFile, out.plain);
    return out;
}

}  // namespace navlab::archive
