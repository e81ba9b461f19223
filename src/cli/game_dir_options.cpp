#include "cli/game_dir_options.h"

namespace navlab::cli {
namespace {

constexpr const char* kCacheHelp =
    "decrypted .bhd files kept in DIR and reused (no RSA on later runs; nothing is written without it)";

/// --game as archive::parse_game reads it: a name it refuses is a usage error (exit 2).
CLI::Validator game_name() {
    return CLI::Validator(
        [](std::string& name) -> std::string {
            try {
                archive::parse_game(name);
                return {};
            } catch (const Error& e) {
                return e.what();
            }
        },
        "");
}

}  // namespace

void add_game_dir_options(CLI::App* cmd, GameDirOptions& o) {
    cmd->add_option("--game", o.game, "sekiro or eldenring (default: detected from the archive names, keys and salt)")
        ->check(game_name());
    cmd->add_option("--keys", o.keys, "Folder of public keys DIR/<game>/<stem>.pem (PKCS#1 or SPKI PEM) instead of the bundled ones");
    cmd->add_option("--cache", o.cache, std::string("Cache folder: ") + kCacheHelp);
}

archive::GameInstall open_game_dir(const GameDirOptions& o) {
    archive::OpenOptions options;
    if (!o.game.empty()) options.game = archive::parse_game(o.game);
    options.keysDir = o.keys;
    options.threads = o.threads;
    options.cacheDir = o.cache;
    return archive::GameInstall::open(o.dir, options);
}

fromsoft::SourceOptions SourceArgs::options(unsigned threads) const {
    fromsoft::SourceOptions o;
    o.maps = maps;
    if (!game.empty()) o.game = archive::parse_game(game);
    o.keys = keys;
    o.cache = cache;
    o.threads = threads;
    return o;
}

void add_source_options(CLI::App* cmd, SourceArgs& a, bool several) {
    const char* help = several ? "Only these binders: map ids (m60_44_36_00) or archive paths of a game install, or "
                                 "file names of a folder (repeatable)"
                               : "The binder to read from a game install or folder: its map id (m60_44_36_00) or "
                                 "archive path";
    auto* map = cmd->add_option("--map", a.maps, help);
    if (!several) map->expected(1);
    cmd->add_option("--game", a.game, "Game install: sekiro or eldenring (default: detected)")->check(game_name());
    cmd->add_option("--keys", a.keys, "Game install: folder of public keys DIR/<game>/<stem>.pem instead of the bundled ones");
    cmd->add_option("--cache", a.cache, std::string("Game install: ") + kCacheHelp);
}

}  // namespace navlab::cli
