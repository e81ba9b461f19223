// The synthetic corpus: presets (the page's Sekiro and Elden Ring totals, and a small one for
// tests), the plan that splits a preset's totals over binders and tagfiles, the Recast tile
// library the meshes are cut from, and the generation of each tagfile's model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/fromsoft/navmesh.h"
#include "synth/shape.h"
#include "synth/style.h"

namespace navlab::synth {

enum class Preset { Small, Sekiro, EldenRing };

/// Parses "small", "sekiro" or "eldenring"; throws navlab::Error otherwise.
Preset parse_preset(const std::string& name);

/// What one game's part of a preset adds up to (the page's table for the big presets).
struct GameTotals {
    Game game;
    int binders = 0;
    int tagfiles = 0;
    int empty_meshes = 0;            ///< tagfiles whose mesh has no face
    int empty_with_tree = 0;          ///< Elden Ring: empty meshes that also hold an empty tree
    std::int64_t faces = 0;
    std::int64_t user_edges = 0;     ///< Elden Ring
    int meshes_with_user_edges = 0;
    int user_edges_in_face_order = 0;   ///< meshes whose user edges follow face order
    int setup_arrays = 0;
    int setups = 0;
    int user_data_one = 0;            ///< meshes with userData 1
    int seeding_on_empty = 0;         ///< empty meshes with clearance-cache seeding data
    double faces_per_cluster = 0;     ///< Sekiro
    int library_tiles = 0;           ///< Recast tiles built for this game
    float tile_size = 0;             ///< metres
};

/// The totals of a preset, one entry per game it holds.
std::vector<GameTotals> preset_totals(Preset preset);

/// One tagfile to make.
struct EntryPlan {
    std::string name;               ///< full member name (build path)
    std::int32_t id = 0;
    int faces = 0;                  ///< 0 = empty mesh
    bool empty_tree = false;         ///< Elden Ring empty mesh with an empty tree
    int user_edges = 0;
    bool user_edges_in_face_order = false;
    int setups = 0;                 ///< 0 = no setup array
    bool user_data_one = false;
    bool seeding = false;           ///< clearance-cache seeding data present
    int tile = 0;                   ///< library tile the mesh is cut from
    std::uint64_t seed = 0;
};

/// One binder to make.
struct BinderPlan {
    Game game;
    std::string map;                ///< "m10_00_00_00"
    std::string archive_path;        ///< "/map/m10/m10_00_00_00/m10_00_00_00.nvmhktbnd.dcx" (ER)
    std::vector<EntryPlan> entries; ///< sorted by id
};

/// Splits the totals of `preset` over binders and tagfiles for `seed`. Same inputs, same plan.
std::vector<BinderPlan> plan_corpus(Preset preset, std::uint64_t seed);

/// The Recast tiles of one preset, per game, built once and shared by every mesh.
struct TileLibrary {
    std::vector<LibraryTile> sekiro, elden_ring;
    const std::vector<LibraryTile>& of(Game g) const { return g == Game::Sekiro ? sekiro : elden_ring; }
};

/// Builds the tile library of `preset` (Recast on procedural scenes), `threads` at a time.
TileLibrary build_tile_library(Preset preset, std::uint64_t seed, unsigned threads);

/// Makes the model of one tagfile: the shaped mesh with its clusters or user edges, the Sekiro
/// cluster graph or the Elden Ring query mediator (from the fromsoft builders), and the
/// user-edge setups. Same plan and library, same model.
fromsoft::NavTagfile make_tagfile(const BinderPlan& binder, const EntryPlan& entry, const TileLibrary& library);

}  // namespace navlab::synth
