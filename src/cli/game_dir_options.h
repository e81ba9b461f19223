// The options of the commands that read game installs: `archive ls|extract` (GameDirOptions:
// the install itself) and every command reading binders through fromsoft::BinderSource
// (SourceArgs: --map, --game, --keys; a GAME_DIR is accepted wherever a folder of binders is).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "container/archive/game_install.h"
#include "formats/fromsoft/binder_source.h"

namespace navlab::cli {

struct GameDirOptions {
    std::string dir;     ///< the install's Game/ folder (or the folder holding it)
    std::string game;    ///< "sekiro", "eldenring" or "" (detect)
    std::string keys;    ///< DIR/<game>/<stem>.pem replaces the bundled keys; "" = bundled
    std::string cache;   ///< decrypted-.bhd cache folder; "" = none
    unsigned threads = 0;
};

/// Adds --game, --keys and --cache to `cmd` (the folder and --threads are the caller's).
void add_game_dir_options(CLI::App* cmd, GameDirOptions& o);

/// Opens the install the options describe (throws navlab::Error).
archive::GameInstall open_game_dir(const GameDirOptions& o);

/// --map, --game, --keys and --cache as given on the command line.
struct SourceArgs {
    std::vector<std::string> maps;
    std::string game, keys, cache;
    /// As fromsoft::SourceOptions (--game parsed: navlab::Error for an unknown game).
    fromsoft::SourceOptions options(unsigned threads = 0) const;
};

/// Adds --map (one value, or several when `several`), --game, --keys and --cache to `cmd`.
void add_source_options(CLI::App* cmd, SourceArgs& a, bool several);

}  // namespace navlab::cli
