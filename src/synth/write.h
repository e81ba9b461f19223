// Writing the synthetic corpus: each binder's tagfiles through the fromsoft tagfile writer,
// packed with the BND4 writer in FromSoftware's navmesh-binder layout, wrapped in DCX, and
// saved under OUT at its archive path (map/mAA/mAA_BB_CC_DD/mAA_BB_CC_DD.nvmhktbnd.dcx).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "build/compression.h"
#include "formats/fromsoft/navmesh.h"
#include "synth/corpus.h"

namespace navlab::synth {

using build::Compression;
using build::parse_compression;

/// The page's table rows, counted on generated tagfiles of one game.
struct GameCounts {
    std::int64_t binders = 0, tagfiles = 0, faces = 0, edges = 0, user_edges = 0, vertices = 0;
    std::int64_t empty_meshes = 0, graphs = 0, graph_nodes = 0, graph_edges = 0, mediators = 0, tree_nodes = 0;
    std::int64_t setup_arrays = 0, setups = 0;

    /// Adds one tagfile's figures.
    void add(const fromsoft::NavTagfile& t);
    /// Adds another count (binders included).
    void add(const GameCounts& other);
};

/// One binder, made and packed.
struct BinderOutput {
    std::vector<std::uint8_t> file;  ///< the .nvmhktbnd.dcx bytes
    std::uint64_t binder_bytes = 0;   ///< size of the BND4 image inside the DCX
    GameCounts counts;
    std::string injected;            ///< where the injected fault went ("" when none)
};

/// Makes every tagfile of `binder`, packs and compresses them.
/// @param inject_rule an audit rule id to break in entry `inject_entry` ("" for none).
BinderOutput make_binder(const BinderPlan& binder, const TileLibrary& library, Compression compression,
                         const std::string& inject_rule = {}, int inject_entry = -1);

/// What `navlab synth` was asked for.
struct CorpusOptions {
    Preset preset = Preset::Small;
    std::uint64_t seed = 1;
    std::filesystem::path out;
    Compression compression = Compression::Dflt;
    unsigned threads = 0;            ///< 0 = all cores
    std::string inject;              ///< audit rule id to break once, "" for none
    std::function<void(std::size_t done, std::size_t total)> progress;  ///< after each binder
};

/// What was made.
struct CorpusResult {
    GameCounts sekiro, elden_ring;
    std::vector<std::filesystem::path> files;  ///< in plan order
    std::uint64_t file_bytes = 0, binder_bytes = 0;
    std::string injected;            ///< "FILE: entry ...: what" (the binder file written) when --inject was used
};

/// Generates the whole corpus into options.out (parallel over binders, results by index, so
/// the bytes do not depend on the thread count). Throws navlab::Error on a bad --inject rule.
CorpusResult generate_corpus(const CorpusOptions& options);

}  // namespace navlab::synth
