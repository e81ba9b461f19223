// `navlab build` for FromSoftware games: level geometry -> Recast per tile -> merged convex
// faces -> stitched seams -> one hkaiNavMesh tagfile per tile -> BND4 binder -> DCX.
//
// Same input, same bytes, whatever the thread count: tiles are built in parallel and stored by
// index, seams are stitched in one fixed order, and nothing depends on hash order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "build/binder_names.h"
#include "build/build_spec.h"
#include "build/compression.h"
#include "build/seams.h"
#include "build/triangle_soup.h"
#include "formats/fromsoft/navmesh.h"

namespace navlab::build {

/// Hooks for a progress line over the Recast stage, the long one (each may be empty):
/// `started` once with the number of tiles that hold triangles, then `tile_done` from any
/// worker thread as each of them is built.
struct TileProgress {
    std::function<void(std::size_t tiles)> started;
    std::function<void()> tile_done;
};

struct BuildOptions {
    FromGame game = FromGame::EldenRing;
    BuildSpec spec;
    Compression compression = Compression::Krak;
    unsigned threads = 0;  ///< 0 = all cores
    TileProgress progress;
};

/// One tagfile of the binder.
struct BuiltTile {
    int tx = 0, tz = 0;
    std::string name;  ///< member name (build path)
    std::int32_t id = 0;
    fromsoft::NavTagfile tagfile;
    std::vector<std::uint8_t> bytes;  ///< the written tagfile
};

/// Time spent in one stage, for the report and the benchmark.
struct StageTime {
    std::string stage;
    double seconds = 0;
};

struct BuildStats {
    int tiles_in_grid = 0, cols = 0, rows = 0;
    std::int64_t faces = 0, edges = 0, user_edges = 0, vertices = 0, recast_polygons = 0;
    double recast_area = 0;  ///< Recast polygon mesh area seen from above, m²
    double face_area = 0;    ///< area of the built faces seen from above, m²
    int max_corners = 0;
    SeamReport seams;
};

struct BuildResult {
    std::vector<BuiltTile> tiles;     ///< non-empty tiles, by grid row then column
    std::vector<std::uint8_t> binder; ///< the .nvmhktbnd.dcx file
    BuildStats stats;
    std::vector<StageTime> stages;
};

/// Most tiles in the grid over the scene's bounds (empty ones included: each costs a list).
inline constexpr int kMaxGridTiles = 1 << 20;
/// Most tiles with faces in one FromSoftware binder: the k-th is model 1000 + 100·k, which
/// must stay six digits (navmesh_member_name), with member id 10000 + k.
inline constexpr std::size_t kMaxBinderMeshes = 9990;

/// The scene cut into tiles, each with its merged faces, seams stitched.
struct TiledFaces {
    TileGrid grid;
    std::vector<TileFaces> tiles;  ///< indexed by grid.index(tx, tz), empty tiles included
    SeamReport seams;
};

/// Recast per tile (parallel), faces merged (up to `max_corners - 4` corners, so seam
/// stitching has room; 3 keeps Recast's detail triangles), border vertices snapped and seams
/// stitched. Appends stage times to `stages`; reports the Recast stage to `progress`. Throws
/// navlab::Error naming the tile when Recast fails.
TiledFaces build_tiles(const TriangleSoup& scene, const BuildSpec& spec, unsigned threads, int max_corners,
                       std::vector<StageTime>& stages, const TileProgress& progress = {});

/// Builds the binder. Throws navlab::Error for a Recast failure, a link whose end is off
/// the mesh or crosses tiles, and a tile beyond a field's limit (with a tile size to try).
BuildResult build_fromsoft(const TriangleSoup& scene, const BuildOptions& options);

}  // namespace navlab::build
