#include "container/archive/archive_writer.h"

#include <algorithm>
#include <random>

#include "container/archive/aes_ranges.h"
#include "container/archive/bhd_rsa.h"
#include "container/archive/path_hash.h"
#include "io/error.h"
#include "io/file.h"

namespace navlab::archive {
namespace {

constexpr std::size_t kBdtHeaderSize = 16;

/// Random 16-aligned ranges inside [0, padded): one from the start, an empty (-1, -1) slot,
/// and when there is room a second range further on.
std::vector<Range> random_ranges(std::uint32_t padded, std::mt19937_64& rng) {
    const std::int64_t blocks = padded / 16;
    std::vector<Range> ranges;
    if (blocks == 0) return {{-1, -1}};
    const std::int64_t first = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(std::min<std::int64_t>(blocks, 64)));
    ranges.push_back({0, first * 16});
    ranges.push_back({-1, -1});
    if (blocks > first + 1) {
        const std::int64_t start = first + 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(blocks - first - 1));
        const std::int64_t length = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(blocks - start));
        ranges.push_back({start * 16, (start + length) * 16});
    }
    return ranges;
}

}  // namespace

WrittenArchive write_archive(const std::vector<NewArchiveFile>& files, const ArchiveWriteOptions& options) {
    std::mt19937_64 rng(options.seed);
    WrittenArchive out;
    Bhd5& bhd = out.index;
    bhd.salt = !options.salt.empty() ? options.salt : options.game == Game::Sekiro ? "NTC_test" : "GR_test";
    const std::uint32_t bucketCount =
        options.buckets ? options.buckets : std::max<std::uint32_t>(1, static_cast<std::uint32_t>(files.size() / 8));
    bhd.buckets.resize(bucketCount);
    out.bdt.assign(kBdtHeaderSize, 0);
    std::copy_n("BDF307D7R6", 10, out.bdt.begin());  // any placeholder: readers ignore it (§5)
    for (const NewArchiveFile& f : files) {
        FileHeader h;
        h.hash = f.rawHash ? *f.rawHash : path_hash(options.game, f.path);
        h.dataOffset = out.bdt.size();
        std::vector<std::uint8_t> data = f.data;
        data.resize((data.size() + 15) / 16 * 16, 0);
        if (data.size() > 0x7FFFFFFF) throw Error("file too large for a BHD5 entry: " + f.path);
        h.paddedSize = static_cast<std::uint32_t>(data.size());
        h.unpaddedSize = f.recordUnpadded ? static_cast<std::int64_t>(f.data.size()) : 0;
        h.sha = ShaRecord{{}, {{0, static_cast<std::int64_t>(h.paddedSize)}}};
        if (f.encrypt) {
            AesRecord aes;
            for (auto& b : aes.key) b = static_cast<std::uint8_t>(rng());
            aes.ranges = random_ranges(h.paddedSize, rng);
            apply_aes_ranges(data, aes, true);
            h.aes = std::move(aes);
        }
        out.bdt.insert(out.bdt.end(), data.begin(), data.end());
        bhd.buckets[h.hash % bucketCount].push_back(std::move(h));
    }
    std::vector<std::uint8_t> plain = write_bhd5(bhd, options.game);
    out.bhd = options.key ? encrypt_bhd(plain, *options.key, options.threads) : std::move(plain);
    return out;
}

void write_test_install(const std::filesystem::path& gameDir, const std::filesystem::path& keysDir, Game game,
                        const std::map<std::string, std::vector<NewArchiveFile>>& archives, const RsaKey* key,
                        const std::vector<std::string>& plainStems, std::uint64_t seed) {
    for (const auto& [stem, files] : archives) {
        const bool plain = std::find(plainStems.begin(), plainStems.end(), stem) != plainStems.end();
        ArchiveWriteOptions o;
        o.game = game;
        o.seed = seed++;
        o.key = plain ? nullptr : key;
        const WrittenArchive written = write_archive(files, o);
        const std::filesystem::path bhd = gameDir / (stem + ".bhd");
        std::filesystem::create_directories(bhd.parent_path());
        write_file_atomic(bhd, written.bhd);
        write_file_atomic(gameDir / (stem + ".bdt"), written.bdt);
        if (key && !keysDir.empty()) {
            const std::filesystem::path pem = keysDir / std::string(game_name(game)) / (stem + ".pem");
            std::filesystem::create_directories(pem.parent_path());
            write_file_atomic(pem, key->public_pem());
        }
    }
}

}  // namespace navlab::archive
