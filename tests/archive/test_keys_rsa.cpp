// The bundled keys (parse, 2048-bit, the exponents bhd5-keys/README.txt lists) and the RSA
// layer: our block decryption against OpenSSL's bare BN_mod_exp on the same block.
#include <gtest/gtest.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>

#include <map>

#include "archive/test_install_fixture.h"
#include "container/archive/bhd_rsa.h"
#include "container/archive/bundled_keys.h"
#include "container/archive/game_install.h"
#include "io/error.h"

using namespace navlab;
using namespace navlab::archive;

TEST(ArchiveKeys, BundledKeysParseAndAre2048Bit) {
    // Exponents from shared/spec/bhd5-keys/README.txt.
    const std::map<std::string, std::uint64_t> exponents = {
        {"eldenring/Data0", 0x4731FC21}, {"eldenring/Data1", 0x35AFF625}, {"eldenring/Data2", 0xFFFFFFFF},
        {"eldenring/Data3", 0x5ECCDE43}, {"eldenring/DLC", 0x5F0FDFDF},   {"eldenring/sd/sd", 0x5F0FDFDF},
        {"eldenring/sd/sd_dlc02", 0x5F0FDFDF}, {"sekiro/Data1", 0x2A48F927}, {"sekiro/Data2", 0xFFF12991},
        {"sekiro/Data3", 0xEA55A14F},    {"sekiro/Data4", 0x18CD8E87},    {"sekiro/Data5", 0xF9514CC7}};
    ASSERT_EQ(bundled_keys().size(), exponents.size());
    for (Game game : {Game::Sekiro, Game::EldenRing}) {
        for (std::string_view stem : archive_stems(game)) {
            const std::string name = std::string(game_name(game)) + "/" + std::string(stem);
            SCOPED_TRACE(name);
            const RsaKey key = archive_key(game, stem, {});
            EXPECT_EQ(key.bits(), 2048u);
            EXPECT_EQ(key.public_exponent(), exponents.at(name));
        }
    }
}

TEST(ArchiveKeys, PemFormsAndBadText) {
    const RsaKey& key = test::test_key();
    EXPECT_NE(key.public_pem(true).find("BEGIN RSA PUBLIC KEY"), std::string::npos);
    EXPECT_NE(key.public_pem(false).find("BEGIN PUBLIC KEY"), std::string::npos);
    for (bool pkcs1 : {true, false}) {
        const RsaKey again = RsaKey::from_public_pem(key.public_pem(pkcs1), "again");
        EXPECT_EQ(again.bits(), 2048u);
        EXPECT_EQ(again.public_exponent(), 0xFFFFFFFFu);
        EXPECT_FALSE(again.has_private());
    }
    EXPECT_THROW(RsaKey::from_public_pem("-----BEGIN RSA PUBLIC KEY-----\nAAAA\n-----END RSA PUBLIC KEY-----\n", "bad.pem"),
                 Error);
}

TEST(ArchiveRsa, RoundTripAndIndependentModExp) {
    const RsaKey& key = test::test_key();
    std::vector<std::uint8_t> plain = test::random_bytes(1000, 3);
    std::copy_n("BHD5", 4, plain.begin());
    const auto cipher = encrypt_bhd(plain, key, 2);
    ASSERT_EQ(cipher.size(), 4 * kRsaCipherBlock);  // ceil(1000 / 255) blocks
    const auto back = decrypt_bhd(cipher, key, "t.bhd", 2);
    ASSERT_EQ(back.size(), 4 * kRsaPlainBlock);
    EXPECT_TRUE(std::equal(plain.begin(), plain.end(), back.begin()));
    EXPECT_TRUE(std::all_of(back.begin() + 1000, back.end(), [](auto b) { return b == 0; }));
    // Block 2 by hand: m = c^e mod n with OpenSSL's bignum arithmetic alone.
    BIGNUM *n = nullptr, *e = nullptr;
    ASSERT_TRUE(EVP_PKEY_get_bn_param(key.get(), OSSL_PKEY_PARAM_RSA_N, &n));
    ASSERT_TRUE(EVP_PKEY_get_bn_param(key.get(), OSSL_PKEY_PARAM_RSA_E, &e));
    BIGNUM* c = BN_bin2bn(cipher.data() + 2 * kRsaCipherBlock, kRsaCipherBlock, nullptr);
    BIGNUM* m = BN_new();
    BN_CTX* ctx = BN_CTX_new();
    ASSERT_TRUE(BN_mod_exp(m, c, e, n, ctx));
    std::uint8_t out[kRsaPlainBlock];
    ASSERT_EQ(BN_bn2binpad(m, out, kRsaPlainBlock), static_cast<int>(kRsaPlainBlock));
    EXPECT_TRUE(std::equal(out, out + kRsaPlainBlock, plain.begin() + 2 * kRsaPlainBlock));
    BN_free(n), BN_free(e), BN_free(c), BN_free(m), BN_CTX_free(ctx);
    EXPECT_TRUE(first_block_opens(cipher, key));
}

TEST(ArchiveRsa, WrongKeyAndBadLength) {
    std::vector<std::uint8_t> plain = test::random_bytes(600, 4);
    std::copy_n("BHD5", 4, plain.begin());
    const auto cipher = encrypt_bhd(plain, test::test_key(), 1);
    const RsaKey other = archive_key(Game::EldenRing, "Data2", {});
    try {
        decrypt_bhd(cipher, other, "Game/Data2.bhd", 1);
        FAIL() << "a wrong key must not decrypt";
    } catch (const Error& err) {
        EXPECT_NE(std::string(err.what()).find("Game/Data2.bhd"), std::string::npos) << err.what();
        EXPECT_NE(std::string(err.what()).find("wrong key or corrupt BHD"), std::string::npos) << err.what();
    }
    EXPECT_FALSE(first_block_opens(cipher, other));
    const std::vector<std::uint8_t> shortened(cipher.begin(), cipher.end() - 10);
    try {
        decrypt_bhd(shortened, test::test_key(), "Game/Data2.bhd", 1);
        FAIL();
    } catch (const Error& err) {
        EXPECT_NE(std::string(err.what()).find("not a positive multiple of 256"), std::string::npos) << err.what();
        EXPECT_NE(std::string(err.what()).find("Game/Data2.bhd"), std::string::npos);
    }
}
