#include "container/archive/aes_ranges.h"

#include <fmt/format.h>

#include <memory>

#include "container/archive/crypto_lib.h"
#include "container/archive/rsa_key.h"
#include "io/error.h"

namespace navlab::archive {

void apply_aes_ranges(std::span<std::uint8_t> data, const AesRecord& aes, bool encrypt) {
    const CryptoLib& lib = crypto();
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&::EVP_CIPHER_CTX_free)> ctx(lib.EVP_CIPHER_CTX_new(),
                                                                          lib.EVP_CIPHER_CTX_free);
    if (!ctx ||
        lib.EVP_CipherInit_ex(ctx.get(), lib.EVP_aes_128_ecb(), nullptr, aes.key.data(), nullptr, encrypt ? 1 : 0) <= 0 ||
        lib.EVP_CIPHER_CTX_set_padding(ctx.get(), 0) <= 0)
        throw Error("cannot set up AES-128-ECB: " + openssl_error());
    for (const Range& range : aes.ranges) {
        if (range.empty()) continue;
        const auto start = static_cast<std::size_t>(range.start), end = static_cast<std::size_t>(range.end);
        if (range.start < 0 || end > data.size() || end < start || (end - start) % 16 != 0)
            throw Error(fmt::format("AES range [{}, {}) does not fit {} bytes in whole blocks", range.start, range.end,
                                    data.size()));
        int written = 0;
        // ECB without padding works in place: each 16-byte block maps to itself.
        if (lib.EVP_CipherUpdate(ctx.get(), data.data() + start, &written, data.data() + start,
                                 static_cast<int>(end - start)) <= 0 ||
            static_cast<std::size_t>(written) != end - start)
            throw Error("AES-128-ECB failed: " + openssl_error());
    }
}

}  // namespace navlab::archive
