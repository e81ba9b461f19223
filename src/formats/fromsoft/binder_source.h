// BinderSource — the one place navlab turns a user's path into FromSoftware navmesh binders:
// a binder or .hkx tagfile (itself), a folder (searched by find_nav_files), or a Sekiro / Elden
// Ring game install (a `Game/` folder with .bhd archives: its navmesh binders found by the
// candidate rule of spec bhd5.md §6.2 and streamed from the .bdt, nothing written).
//
// Every command that reads binders (audit, export, view, path/nearest/raycast/islands) goes
// through this, so an install is accepted wherever a folder of binders is:
//
//   BinderSource src = BinderSource::open(path, {.maps = {"m60_44_36_00"}});
//   for (std::size_t i = 0; i < src.binders().size(); ++i) {
//       const NavFile nav = src.open_nav(i);   // one binder in memory at a time
//       ...
//   }
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "container/archive/game_install.h"
#include "formats/fromsoft/nav_source.h"
#include "io/shared_bytes.h"

namespace navlab::fromsoft {

/// What the commands' --map, --game and --keys say about their input.
struct SourceOptions {
    /// Keep only these binders: each a map id ("m60_44_36_00"), an install's archive path in any
    /// spelling ("/map/m60/m60_44_36_00/m60_44_36_00.nvmhktbnd.dcx"), or a file's path or name
    /// in a folder. Empty = every binder. Each must match at least one binder.
    std::vector<std::string> maps;
    std::optional<archive::Game> game;  ///< install only; unset = detected
    std::filesystem::path keys;         ///< install only; DIR/<game>/<stem>.pem, empty = bundled keys
    unsigned threads = 0;               ///< install only: RSA threads when opening (0 = one per core)
    std::filesystem::path cache;        ///< install only: decrypted-.bhd cache folder, empty = none
};

/// One binder of a source (nothing read yet).
struct BinderRef {
    /// The name reports and outputs give the binder: the file's path as found, or for an
    /// install "<archive stem, lower case>:<archive path>" ("data2:/map/m10/m10_00_00_00/
    /// m10_00_00_00.nvmhktbnd.dcx", the game's own alias form).
    std::string name;
    std::string map_id;      ///< "m10_00_00_00" (from the binder's file name), "" when none
    std::uint64_t size = 0;  ///< bytes on disk, or stored in the archive (progress lines)
};

class BinderSource {
public:
    /// Opens `path`: an install when archive::is_game_dir(path) (then its navmesh binders in
    /// map-id order, one per archive holding it), else a folder's navmesh files sorted by path,
    /// else the one file. Applies options.maps (select()).
    /// Throws navlab::Error when the path does not exist, a folder holds no navmesh file, the
    /// install does not open (wrong key, corrupt archive: the archive reader's errors), or a
    /// selector matches nothing.
    static BinderSource open(const std::filesystem::path& path, const SourceOptions& options = {});

    BinderSource(BinderSource&&) noexcept;
    BinderSource& operator=(BinderSource&&) noexcept;
    ~BinderSource();

    /// The path as given.
    const std::string& origin() const noexcept { return origin_; }
    /// The opened install, or null when the source is files on disk.
    const archive::GameInstall* install() const noexcept { return install_.get(); }
    const std::vector<BinderRef>& binders() const noexcept { return binders_; }

    /// Keeps the binders `selectors` name (see SourceOptions::maps), in source order. Throws
    /// navlab::Error "map X is not in ORIGIN (...)" naming the first selector that matches none.
    void select(const std::vector<std::string>& selectors);
    /// Whether `selector` (see SourceOptions::maps) names at least one binder.
    bool holds(const std::string& selector) const;

    /// Binder i's bytes as stored (a mapped file; or read from the .bdt, AES ranges decrypted).
    /// Thread-safe. Errors name the file (or the .bdt and the entry's hash).
    SharedBytes read(std::size_t i) const;
    /// Binder i opened (DCX, BND4): its navmesh tagfiles; NavFile::name() is binders()[i].name.
    /// Thread-safe.
    NavFile open_nav(std::size_t i) const;

private:
    BinderSource() = default;
    /// Which binders `selector` names.
    std::vector<bool> matching(const std::string& selector) const;
    std::string origin_;
    std::unique_ptr<archive::GameInstall> install_;
    std::vector<BinderRef> binders_;
    std::vector<std::filesystem::path> files_;  ///< parallel to binders_ (files on disk)
    std::vector<archive::EntryRef> refs_;       ///< parallel to binders_ (install)
};

/// The one binder a single-input command (export, path, nearest, raycast, islands) reads from
/// `path`: BinderSource::open, which must leave one binder (or several copies of one map in
/// different archives of an install: the first in the game's archive order is taken, as
/// `archive extract` does). Throws navlab::Error asking for --map when the source holds
/// several (in a folder: also several files of one map id, naming them).
NavFile open_one_binder(const std::filesystem::path& path, const SourceOptions& options);

/// Whether `path` is read through a BinderSource by the commands that also take other games'
/// folders (Far Cry 2 worlds): a game install, or any path when `options.maps` is given.
bool is_binder_source(const std::filesystem::path& path, const SourceOptions& options);

}  // namespace navlab::fromsoft
