// The options every command that reads a game install shares (--game, --keys, --threads),
// and opening the install from them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "container/archive/game_install.h"

namespace navlab::cli {

struct GameDirOptions {
    std::string dir;     ///< the install's Game/ folder (or the folder holding it)
    std::string game;    ///< "sekiro", "eldenring" or "" (detect)
    std::string keys;    ///< DIR/<game>/<stem>.pem replaces the bundled keys; "" = bundled
    unsigned threads = 0;
};

/// Adds --game and --keys to `cmd` (the folder and --threads are the caller's).
void add_game_dir_options(CLI::App* cmd, GameDirOptions& o);

/// Opens the install the options describe (throws navlab::Error).
archive::GameInstall open_game_dir(const GameDirOptions& o);

}  // namespace navlab::cli
