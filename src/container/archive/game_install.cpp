#include "container/archive/game_install.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "container/archive/aes_ranges.h"
#include "container/archive/bhd_cache.h"
#include "container/archive/bhd_rsa.h"
#include "container/archive/bundled_keys.h"
#include "container/archive/path_hash.h"
#include "io/error.h"
#include "io/file.h"

namespace navlab::archive {
namespace fs = std::filesystem;

namespace {

fs::path archive_file(const fs::path& gameDir, std::string_view stem, const char* extension) {
    return gameDir / (std::string(stem) + extension);
}

bool has_bhd(const fs::path& dir) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::string ext = it->path().extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
        if (ext == ".bhd" && it->is_regular_file()) return true;
    }
    return false;
}

/// The game a plaintext BHD5's salt hints at (spec §2.1: S4's prefixes), if any.
std::optional<Game> game_from_salt(Bytes plain) {
    if (plain.size() < 0x1C) return std::nullopt;
    std::int32_t length = 0;
    std::memcpy(&length, plain.data() + 0x18, 4);
    if (length < 4 || static_cast<std::size_t>(length) > plain.size() - 0x1C) return std::nullopt;
    const std::string_view salt(reinterpret_cast<const char*>(plain.data()) + 0x1C, static_cast<std::size_t>(length));
    if (salt.starts_with("GR_")) return Game::EldenRing;
    if (salt.starts_with("NTC_")) return Game::Sekiro;
    return std::nullopt;
}

std::string entry_field(Game game, std::uint64_t hash) { return "BHD5 entry " + format_hash(game, hash); }

}  // namespace

GameInstall::GameInstall(GameInstall&&) noexcept = default;
GameInstall& GameInstall::operator=(GameInstall&&) noexcept = default;
GameInstall::~GameInstall() = default;

bool is_game_dir(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return false;
    return has_bhd(dir) || (fs::is_directory(dir / "Game", ec) && has_bhd(dir / "Game"));
}

fs::path locate_game_dir(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw Error("not a folder: " + dir.string());
    if (has_bhd(dir)) return dir;
    if (fs::is_directory(dir / "Game", ec) && has_bhd(dir / "Game")) return dir / "Game";
    throw Error("no .bhd archive in " + dir.string() + " (give the game's Game/ folder)");
}

RsaKey archive_key(Game game, std::string_view stem, const fs::path& keysDir) {
    const std::string relative = std::string(game_name(game)) + "/" + std::string(stem) + ".pem";
    if (!keysDir.empty()) {
        const fs::path file = keysDir / relative;
        const std::vector<std::uint8_t> text = read_file(file);
        return RsaKey::from_public_pem(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()),
                                       file.string());
    }
    for (const BundledKey& k : bundled_keys())
        if (k.game == game_name(game) && k.stem == stem) return RsaKey::from_public_pem(k.pem, relative + " (bundled)");
    throw Error("no bundled key for " + relative);
}

Game detect_game(const fs::path& gameDir, const fs::path& keysDir) {
    auto has = [&](std::string_view stem) { return fs::exists(archive_file(gameDir, stem, ".bhd")); };
    const bool elden_ring = has("Data0") || has("DLC") || has("sd/sd") || has("sd/sd_dlc02");
    const bool sekiro = has("Data4") || has("Data5");
    if (elden_ring != sekiro) return elden_ring ? Game::EldenRing : Game::Sekiro;
    // Data1-3 exist in both games: ask the keys (one RSA block each), then the salt.
    bool opens[2] = {false, false};
    for (Game game : {Game::Sekiro, Game::EldenRing}) {
        for (std::string_view stem : archive_stems(game)) {
            if (!has(stem)) continue;
            const SharedBytes bhd = SharedBytes::map_file(archive_file(gameDir, stem, ".bhd"));
            bool match = false;
            if (is_plain_bhd5(bhd)) {
                match = game_from_salt(bhd) == game;
            } else {
                try {
                    match = first_block_opens(bhd, archive_key(game, stem, keysDir));
                } catch (const Error&) {  // no key for this game: it cannot be this game's archive
                }
            }
            opens[game == Game::EldenRing] = opens[game == Game::EldenRing] || match;
        }
    }
    if (opens[0] != opens[1]) return opens[1] ? Game::EldenRing : Game::Sekiro;
    throw Error("cannot tell whether " + gameDir.string() + " holds Sekiro or Elden Ring archives: give --game sekiro|eldenring");
}

GameInstall GameInstall::open(const fs::path& dir, const OpenOptions& options) {
    GameInstall g;
    g.dir_ = locate_game_dir(dir);
    g.game_ = options.game ? *options.game : detect_game(g.dir_, options.keysDir);
    for (std::string_view stem : archive_stems(g.game_)) {
        Archive a;
        a.stem = stem;
        a.bhdPath = archive_file(g.dir_, stem, ".bhd");
        a.bdtPath = archive_file(g.dir_, stem, ".bdt");
        if (!fs::exists(a.bhdPath)) continue;
        if (!fs::exists(a.bdtPath)) {
            Error e("has no " + a.bdtPath.filename().string() + " beside it");
            e.set_file(a.bhdPath.string());
            throw e;
        }
        std::vector<std::uint8_t> plain;
        std::string plain_name = a.bhdPath.string();  // what parse errors name
        {
            const SharedBytes bhd = SharedBytes::map_file(a.bhdPath);
            a.bhdBytes = bhd.size();
            a.bhdEncrypted = !is_plain_bhd5(bhd);
            if (a.bhdEncrypted) {
                CachedPlaintext c = decrypt_bhd_cached(bhd, archive_key(g.game_, stem, options.keysDir),
                                                       a.bhdPath.string(), options.threads, options.cacheDir);
                plain = std::move(c.plain);
                a.bhdFromCache = c.fromCache;
                if (c.fromCache) plain_name += " (plaintext cached in " + c.cacheFile.string() + ")";
            } else {
                plain.assign(bhd.begin(), bhd.end());
            }
        }
        a.bdt = SharedBytes::map_file(a.bdtPath);
        a.index = parse_bhd5(plain, g.game_, a.bdt.size(), plain_name);
        for (const auto& bucket : a.index.buckets)
            for (const FileHeader& h : bucket) a.files.push_back(&h);
        g.archives_.push_back(std::move(a));
    }
    if (g.archives_.empty())
        throw Error(fmt::format("no {} archive (.bhd + .bdt) in {}", game_name(g.game_), g.dir_.string()));
    for (std::size_t a = 0; a < g.archives_.size(); ++a)
        for (std::size_t f = 0; f < g.archives_[a].files.size(); ++f)
            g.byHash_[g.archives_[a].files[f]->hash].push_back({a, f});
    return g;
}

std::vector<EntryRef> GameInstall::find(std::uint64_t hash) const {
    const auto it = byHash_.find(hash);
    return it == byHash_.end() ? std::vector<EntryRef>{} : it->second;
}

std::vector<EntryRef> GameInstall::find_path(std::string_view path) const { return find(path_hash(game_, path)); }

bool GameInstall::contains(std::size_t archive, std::uint64_t hash) const {
    const auto it = byHash_.find(hash);
    if (it == byHash_.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(), [&](const EntryRef& r) { return r.archive == archive; });
}

std::size_t GameInstall::entry_count() const noexcept {
    std::size_t n = 0;
    for (const Archive& a : archives_) n += a.files.size();
    return n;
}

std::vector<std::uint8_t> GameInstall::read(EntryRef ref) const {
    const Archive& a = archives_.at(ref.archive);
    const FileHeader& h = *a.files.at(ref.file);
    try {
        const Bytes bdt = a.bdt;  // offsets were checked against its size at open
        std::vector<std::uint8_t> out(bdt.begin() + static_cast<std::ptrdiff_t>(h.dataOffset),
                                      bdt.begin() + static_cast<std::ptrdiff_t>(h.dataOffset + h.paddedSize));
        if (h.aes) apply_aes_ranges(out, *h.aes, false);
        out.resize(h.size());
        return out;
    } catch (Error& e) {
        e.in(entry_field(game_, h.hash)).set_file(a.bdtPath.string());
        throw;
    }
}

std::vector<std::uint8_t> GameInstall::read_prefix(EntryRef ref, std::size_t n) const {
    const Archive& a = archives_.at(ref.archive);
    const FileHeader& h = *a.files.at(ref.file);
    // Only the AES blocks that overlap [0, n) are copied and decrypted.
    std::size_t need = std::min<std::size_t>(n, h.paddedSize);
    AesRecord clipped;
    if (h.aes) {
        clipped.key = h.aes->key;
        for (const Range& r : h.aes->ranges) {
            if (r.empty() || static_cast<std::size_t>(r.start) >= n) continue;
            const std::int64_t blocks = (static_cast<std::int64_t>(n) - r.start + 15) / 16;
            const Range c{r.start, std::min(r.end, r.start + blocks * 16)};
            clipped.ranges.push_back(c);
            need = std::max(need, static_cast<std::size_t>(c.end));
        }
    }
    const Bytes bdt = a.bdt;
    std::vector<std::uint8_t> out(bdt.begin() + static_cast<std::ptrdiff_t>(h.dataOffset),
                                  bdt.begin() + static_cast<std::ptrdiff_t>(h.dataOffset + need));
    try {
        if (!clipped.ranges.empty()) apply_aes_ranges(out, clipped, false);
    } catch (Error& e) {
        e.in(entry_field(game_, h.hash)).set_file(a.bdtPath.string());
        throw;
    }
    out.resize(std::min<std::size_t>({n, h.paddedSize, static_cast<std::size_t>(h.size())}));
    return out;
}

}  // namespace navlab::archive
