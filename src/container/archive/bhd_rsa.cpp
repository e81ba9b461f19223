#include "container/archive/bhd_rsa.h"

#include <fmt/format.h>

#include <cstring>
#include <memory>

#include "container/archive/crypto_lib.h"
#include "io/error.h"
#include "io/parallel.h"

namespace navlab::archive {
namespace {

/// Blocks per parallel work item: large enough that making one OpenSSL context per item
/// costs nothing, small enough to spread a 2 MB .bhd over every core.
constexpr std::size_t kBlocksPerTask = 64;

using CtxPtr = std::unique_ptr<EVP_PKEY_CTX, decltype(&::EVP_PKEY_CTX_free)>;

/// A context for one raw (unpadded) RSA operation: the public one (c^e mod n, OpenSSL's
/// "verify recover") or the private one (m^d mod n, OpenSSL's "decrypt").
CtxPtr raw_rsa_context(const RsaKey& key, bool publicOp) {
    const CryptoLib& lib = crypto();
    CtxPtr ctx(lib.EVP_PKEY_CTX_new(key.get(), nullptr), lib.EVP_PKEY_CTX_free);
    const bool ok = ctx &&
                    (publicOp ? lib.EVP_PKEY_verify_recover_init(ctx.get()) : lib.EVP_PKEY_decrypt_init(ctx.get())) > 0 &&
                    lib.EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_NO_PADDING) > 0;
    if (!ok) throw Error("cannot set up raw RSA with " + key.name() + ": " + openssl_error());
    return ctx;
}

/// Raises one 256-byte block to the key's exponent; false when OpenSSL refuses it (a block
/// not below the modulus).
bool raw_rsa_block(EVP_PKEY_CTX* ctx, bool publicOp, const std::uint8_t* in, std::uint8_t* out256) {
    std::size_t outSize = kRsaCipherBlock;
    const int ok = publicOp ? crypto().EVP_PKEY_verify_recover(ctx, out256, &outSize, in, kRsaCipherBlock)
                            : crypto().EVP_PKEY_decrypt(ctx, out256, &outSize, in, kRsaCipherBlock);
    if (ok <= 0 || outSize != kRsaCipherBlock) {
        openssl_error();  // clears the queue; the caller words the error
        return false;
    }
    return true;
}

void require_2048(const RsaKey& key, const std::string& name) {
    if (key.bits() != 2048)
        throw Error(fmt::format("key {} has {} bits; BHD5 blocks need a 2048-bit key", key.name(), key.bits()), kNoOffset,
                    name);
}

[[noreturn]] void wrong_key(const std::string& name, const RsaKey& key, std::uint64_t offset, const std::string& why) {
    Error e("wrong key or corrupt BHD (" + why + "; key " + key.name() + ")", offset);
    e.set_file(name);
    throw e;
}

}  // namespace

bool is_plain_bhd5(Bytes bhd) { return bhd.size() >= 4 && std::memcmp(bhd.data(), "BHD5", 4) == 0; }

std::vector<std::uint8_t> decrypt_bhd(Bytes bhd, const RsaKey& key, const std::string& name, unsigned threads) {
    require_2048(key, name);
    if (bhd.empty() || bhd.size() % kRsaCipherBlock != 0) {
        Error e(fmt::format("encrypted BHD size {} is not a positive multiple of {} (RSA block size): truncated or "
                            "corrupt",
                            bhd.size(), kRsaCipherBlock));
        e.set_file(name);
        throw e;
    }
    const std::size_t blocks = bhd.size() / kRsaCipherBlock;
    std::vector<std::uint8_t> plain(blocks * kRsaPlainBlock);
    // Per block: 0 = fine, 1 = refused by OpenSSL, 2 = wider than 255 bytes.
    std::vector<std::uint8_t> status(blocks, 0);
    const std::size_t tasks = (blocks + kBlocksPerTask - 1) / kBlocksPerTask;
    parallel_for(tasks, threads, [&](std::size_t t) {
        CtxPtr ctx = raw_rsa_context(key, true);
        std::uint8_t out[kRsaCipherBlock];
        for (std::size_t b = t * kBlocksPerTask; b < std::min(blocks, (t + 1) * kBlocksPerTask); ++b) {
            if (!raw_rsa_block(ctx.get(), true, bhd.data() + b * kRsaCipherBlock, out)) status[b] = 1;
            else if (out[0] != 0) status[b] = 2;
            else std::memcpy(plain.data() + b * kRsaPlainBlock, out + 1, kRsaPlainBlock);
        }
    });
    for (std::size_t b = 0; b < blocks; ++b) {
        if (status[b] == 1) wrong_key(name, key, b * kRsaCipherBlock, fmt::format("block {} is not below the modulus", b));
        if (status[b] == 2)
            wrong_key(name, key, b * kRsaCipherBlock, fmt::format("block {} decrypts to more than 255 bytes", b));
    }
    if (!is_plain_bhd5(plain)) wrong_key(name, key, 0, "the decrypted data does not start with BHD5");
    return plain;
}

bool first_block_opens(Bytes bhd, const RsaKey& key) {
    if (bhd.size() < kRsaCipherBlock || key.bits() != 2048) return false;
    CtxPtr ctx = raw_rsa_context(key, true);
    std::uint8_t out[kRsaCipherBlock];
    return raw_rsa_block(ctx.get(), true, bhd.data(), out) && out[0] == 0 && std::memcmp(out + 1, "BHD5", 4) == 0;
}

std::vector<std::uint8_t> encrypt_bhd(Bytes plaintext, const RsaKey& key, unsigned threads) {
    if (!key.has_private()) throw Error("encrypting a BHD needs a private key, " + key.name() + " has none");
    require_2048(key, key.name());
    const std::size_t blocks = (plaintext.size() + kRsaPlainBlock - 1) / kRsaPlainBlock;
    std::vector<std::uint8_t> cipher(blocks * kRsaCipherBlock);
    const std::size_t tasks = (blocks + kBlocksPerTask - 1) / kBlocksPerTask;
    parallel_for(tasks, threads, [&](std::size_t t) {
        CtxPtr ctx = raw_rsa_context(key, false);
        for (std::size_t b = t * kBlocksPerTask; b < std::min(blocks, (t + 1) * kBlocksPerTask); ++b) {
            // A leading zero byte keeps m below any 2048-bit modulus.
            std::uint8_t in[kRsaCipherBlock] = {};
            const std::size_t take = std::min(kRsaPlainBlock, plaintext.size() - b * kRsaPlainBlock);
            std::memcpy(in + 1, plaintext.data() + b * kRsaPlainBlock, take);
            if (!raw_rsa_block(ctx.get(), false, in, cipher.data() + b * kRsaCipherBlock))
                throw Error(fmt::format("raw RSA private operation failed on block {}", b));
        }
    });
    return cipher;
}

}  // namespace navlab::archive
