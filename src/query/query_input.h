// The meshes of one input file, ready to query: every navmesh tagfile of a FromSoftware binder
// or tagfile (or the one --entry names), or a stitched Far Cry 2 world. Used by the query
// commands and by `navlab view --path`.
#pragma once

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/farcry2/world.h"
#include "formats/fromsoft/binder_source.h"
#include "formats/fromsoft/navmesh.h"
#include "query/cluster_guide.h"
#include "query/navmesh_query.h"

namespace navlab::query {

/// One navmesh of the input with its query structures.
struct QueryMesh {
    std::string name;  ///< the input path, or "binder | member" for a binder member
    std::unique_ptr<NavView> view;
    std::unique_ptr<NavMeshQuery> query;
    bool zup = false;  ///< Far Cry 2: the user's points are z-up
    /// Sekiro: the mesh's cluster graph as a corridor guide (nullopt without a graph that
    /// fits the mesh; see ClusterGuide::from_mesh).
    std::optional<ClusterGuide> guide;
    /// A user point in the view's frame, and back.
    Vec3 in(const Vec3& p) const { return zup ? Fc2View::to_view(p) : p; }
    Vec3 out(const Vec3& p) const { return zup ? Fc2View::from_view(p) : p; }
    /// Half extents of the nearest-face box in the view's frame: the user's, given in the
    /// user's frame (x, y, z of a z-up world for Far Cry 2), or kDefaultExtents (1 m across,
    /// 2 m up, whatever the input's up axis).
    Vec3 extents(const std::optional<Vec3>& user) const { return user ? in(*user) : kDefaultExtents; }
};

/// Everything loaded from one input; the models outlive the views that read them.
struct QueryInput {
    std::vector<std::unique_ptr<fromsoft::NavTagfile>> tagfiles;
    std::unique_ptr<farcry2::World> world;
    std::unique_ptr<farcry2::WorldMesh> world_mesh;
    std::vector<QueryMesh> meshes;  ///< FromSoftware: in binder order; Far Cry 2: one
};

/// The largest coordinate a query point may have, in metres: game levels span kilometres, and
/// past this the float arithmetic of the meshes' distances loses every digit (a point at 1e39
/// was "0.000 m" from a mesh). The Detour export bounds vertices the same way.
inline constexpr double kMaxPointCoordinate = 1e7;

/// Whether `v` can be a query point's coordinate: finite and within ±kMaxPointCoordinate.
inline bool usable_coordinate(double v) { return std::isfinite(v) && std::abs(v) <= kMaxPointCoordinate; }

/// Parses "X,Y,Z" (three numbers, commas, nothing else) as the commands take points; nullopt
/// also when a number is not a usable_coordinate (NaN, infinite, past ±1e7).
std::optional<Vec3> parse_point(const std::string& text);

/// Loads `path`: a Far Cry 2 folder or .nvm (`entry` = a sector id), else a FromSoftware
/// binder or tagfile (`entry` = member name, file name or index; empty = every member). A game
/// install (or any path with `source.maps`) is read as the one binder fromsoft::open_one_binder
/// picks. Throws navlab::Error naming the file (and member) when it does not read or holds no mesh.
QueryInput load_query_input(const std::string& path, const std::string& entry,
                            const fromsoft::SourceOptions& source = {});
/// The FromSoftware part of load_query_input for a binder already opened; meshes are named
/// "<nav.name()> | <member>".
QueryInput load_query_input(const fromsoft::NavFile& nav, const std::string& entry);

/// The mesh a point belongs to: the one whose nearest face is closest to `p` (user frame).
const QueryMesh& mesh_for(const QueryInput& input, const Vec3& p);

}  // namespace navlab::query
