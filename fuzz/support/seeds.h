// Seed corpora for the fuzz targets, made by navlab's own writers (never game files), and
// the hook that writes them: tools/fuzz.sh runs each target once with
// NAVLAB_FUZZ_WRITE_SEEDS=DIR before fuzzing it.
#pragma once

#include <cstdint>
#include <vector>

namespace navlab::fuzz {

using Seed = std::vector<std::uint8_t>;
using Seeds = std::vector<Seed>;

/// A small navmesh binder and a plain BND4 in every DCX variant (DCX and DCP forms).
Seeds dcx_seeds();
/// BND4 images: the Elden Ring navmesh layout and a few entries with real tagfiles.
Seeds bnd4_seeds();
/// 4-byte little-endian output size + raw Kraken stream: the spec §5.3 hand-built streams
/// (multi-array, RLE) and stored blocks from navlab's encoder.
Seeds kraken_seeds();
/// TAG0 tagfiles: Havok fixture grids (2016 and 2018 SDK) and navlab's navmesh model writer.
Seeds tagfile_seeds();
/// The 6-byte AABB-tree decoder's input: a 32-byte domain (min, max as 8 floats) then the
/// nodes of trees navlab's encoder built.
Seeds aabb_tree_seeds();
/// IGI graph files from the spec's worked example and retail-shaped graphs.
Seeds igi_seeds();
/// Far Cry 2 sector files and a level file from navlab's writer.
Seeds fc2_seeds();
/// One game byte (even: Sekiro layout, odd: Elden Ring) then a BHD5 plaintext written by
/// navlab's archive writer (plain, with SHA and AES records).
Seeds bhd5_seeds();
/// One selector byte (even: BUILD.json, odd: GRAPH.json) then the JSON text: the examples of
/// docs/build.md and the build tests.
Seeds build_input_seeds();

/// When NAVLAB_FUZZ_WRITE_SEEDS names a folder, writes `make()`'s seeds into it as
/// seed-000, seed-001, ... and exits with status 0; otherwise does nothing. Call from
/// LLVMFuzzerInitialize.
void write_seeds_if_asked(Seeds (*make)());

}  // namespace navlab::fuzz
