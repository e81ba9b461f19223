// One neutral picture of a navigation input, whatever game it comes from, for the 3-D exports
// (GLB, PLY, Detour) and the viewer page: members (a FromSoftware tagfile, a Far Cry 2 sector,
// an IGI graph) holding polygons as stored, navlab's triangulation of them, per-face
// attributes and lines (user edges, links).
//
// Coordinates are converted once, here, into glTF's frame: metres, +y up, right-handed.
//   FromSoftware (Havok: metres, +y up)      -> unchanged
//   Far Cry 2    (metres, x east, z up)      -> (x, z, -y)
//   IGI          (4096 units = 1 m, z up)    -> (x, z, -y) / 4096
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "export/fromsoft_export.h"
#include "formats/fromsoft/binder_source.h"
#include "formats/farcry2/world.h"
#include "formats/igi/graph.h"

namespace navlab::exporter {

enum class Family { FromSoft, FarCry2, Igi };

/// "fromsoft", "farcry2" or "igi".
const char* family_name(Family family);

using Point3 = std::array<float, 3>;

/// IGI's world units in a metre (formats/igi/stream.h).
inline constexpr double kIgiUnitsPerMetre = 4096.0;

/// A point of `family`'s own frame (the comment at the top) in the scene's frame.
Point3 scene_point(Family family, double x, double y, double z);

/// A segment drawn beside the faces: a FromSoftware user edge (directed, from its owning
/// face towards its opposite face), an IGI link, or a Far Cry 2 cross-sector link.
struct SceneLine {
    Point3 from{}, to{};
    std::int32_t face = -1;         ///< face the line starts from in its member, -1 none
    std::int32_t target_face = -1;  ///< face it leads to (user edge's oppositeFace), -1 none
    std::uint32_t flags = 0;        ///< user-edge flags; IGI link type
    std::int32_t edge = -1;         ///< FromSoftware edge index; IGI link index
    bool directed = false;
};

/// One axis-aligned box (Elden Ring query-tree leaf), min then max.
struct SceneBox {
    Point3 min{}, max{};
    std::uint32_t face = 0;
};

/// One member: the faces of one tagfile, one sector or one graph.
struct SceneMember {
    std::string name;
    std::vector<Point3> vertices;
    /// Face f's corners are corners[face_start[f] .. face_start[f + 1]) (vertex indices).
    std::vector<std::uint32_t> face_start{0};
    std::vector<std::uint32_t> corners;
    std::vector<std::uint8_t> corner_flags;     ///< flags of the edge leaving each corner
    std::vector<std::int32_t> corner_opposite;  ///< face across that edge in this member, -1 none
    std::vector<std::int32_t> face_data;        ///< first faceData word per face (0 when none)
    std::vector<std::int32_t> cluster;          ///< Sekiro cluster per face, -1 none
    /// navlab's triangulation (the audit page's Algorithm T for FromSoftware faces).
    std::vector<std::array<std::uint32_t, 3>> triangles;
    std::vector<std::uint32_t> triangle_face;
    std::vector<SceneLine> lines;
    std::vector<SceneBox> leaf_boxes;   ///< Elden Ring query-tree leaves (valid trees only)
    std::vector<std::uint32_t> points;  ///< IGI nodes: vertex indices
    std::vector<std::int32_t> point_ids;  ///< IGI node ids, parallel to points
    std::int32_t sector = -1;  ///< Far Cry 2 sector id, -1 otherwise

    std::size_t face_count() const { return face_start.size() - 1; }
    std::size_t corner_count(std::size_t face) const { return face_start[face + 1] - face_start[face]; }
};

/// A whole input.
struct Scene {
    Family family = Family::FromSoft;
    std::string source;  ///< the input path as given
    std::vector<SceneMember> members;
    /// IGI only: route-table next hops, next_hop[from_slot * n + to_slot], -1 none (slots are
    /// node ids; n = max_nodes). Empty when the graph has no table.
    std::vector<std::int32_t> next_hop;
    std::int32_t max_nodes = 0;
    /// Files of the input that did not load and are not shown ("path: offset 0x..: message";
    /// Far Cry 2 folders keep going past a malformed sector file), and FromSoftware faces left
    /// out because their rings do not read (faces_left_out, one line per tagfile).
    std::vector<std::string> skipped;

    std::size_t face_count() const;
    std::size_t line_count() const;
};

/// FromSoftware tagfiles as a scene, one member per tagfile named by its entry name.
Scene fromsoft_scene(std::span<const NamedTagfile> tagfiles, const std::string& source);

/// A stitched Far Cry 2 world as a scene, one member per sector ("sector_<id>"); cross-sector
/// links become lines between triangle centroids (on the member of the link's source).
Scene farcry2_scene(const farcry2::WorldMesh& mesh, const std::string& source);

/// An IGI graph as a scene: one member named after the file, nodes as points, links as lines.
Scene igi_scene(const igi::Graph& graph, const std::string& source);

/// Loads any input as a scene: a Far Cry 2 folder or .nvm, an IGI .dat, else a FromSoftware
/// binder or tagfile. `entry` selects one binder member (name or index) or one Far Cry 2 sector
/// id; empty = everything. A game install (or any input with `source.maps`) is read through
/// fromsoft::open_one_binder: one binder, the scene's source then being its name
/// ("data2:/map/..."). Throws navlab::Error naming the file for unreadable input and for
/// an entry that matches nothing.
Scene load_scene(const std::string& input, const std::string& entry, const fromsoft::SourceOptions& source = {});

}  // namespace navlab::exporter
