// Exports of FromSoftware navmeshes: Wavefront OBJ (one `g` group per tagfile, vertices,
// the page's triangulation of every face, user edges as `l` lines) and JSON (faces with their
// attributes, triangles, user edges).
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "formats/fromsoft/nav_source.h"
#include "formats/fromsoft/navmesh.h"

namespace navlab::exporter {

/// One tagfile to export and the names it is shown under.
struct NamedTagfile {
    std::string name;    ///< entry name without folders ("n10_00_00_00_000700.hkx")
    std::string binder;  ///< binder path, empty for a loose tagfile
    fromsoft::NavTagfile model;
};

/// The triangles of face `face` as vertex indices of the mesh, from the page's ear clipping
/// (nav/triangulate.h); empty when the face's ring is malformed.
std::vector<std::array<std::int32_t, 3>> face_triangles(const fromsoft::NavMesh& mesh, std::size_t face);

/// One line per tagfile with faces whose ring does not read (an edge range outside the edges,
/// a ring that does not close, a corner that is not a vertex or not finite), naming the first
/// and the audit rule that reports it. The geometric exports (OBJ, GLB, PLY, Detour, the viewer)
/// leave those faces out; these lines say so (`navlab: skipped ...`, exit 1) instead of a
/// silent gap. @param source the input path, which names a loose tagfile. Empty when every
/// face reads.
std::vector<std::string> faces_left_out(std::span<const NamedTagfile> tagfiles, const std::string& source);

/// OBJ text in Blender's importer conventions: `g NAME` per tagfile, `v x y z` (Havok's +y up,
/// as the importer expects by default), `f` with 1-based indices counting from the first vertex
/// of the file (triangles wound like their face, so normals point up), `l a b` per user edge.
std::string fromsoft_obj(std::span<const NamedTagfile> tagfiles);

/// JSON ("format": "navlab-navmesh/2", "version": 2; schema in docs/export.md): per tagfile its
/// vertices, faces (ring of vertex indices, edge ranges, cluster, faceData, triangles), every
/// edge (owner face, user or regular, endpoints, opposite edge and face as stored, flags,
/// edgeData) and, as a convenience, the user edges alone.
nlohmann::ordered_json fromsoft_json(std::span<const NamedTagfile> tagfiles);

// Loading (defined in scene.cpp, beside the scene that uses them most).

/// The FromSoftware tagfiles of a binder or loose tagfile (fromsoft::NavFile::open), or the one
/// member `entry` names (index, full name or unique file name, as NavFile::select chooses).
/// Errors name the file and the entry ("entry I (NAME)").
std::vector<NamedTagfile> load_fromsoft_tagfiles(const std::string& input, const std::string& entry);
/// The same for a binder already opened (one of a fromsoft::BinderSource); tagfiles name it
/// by nav.name().
std::vector<NamedTagfile> load_fromsoft_tagfiles(const fromsoft::NavFile& nav, const std::string& entry);

}  // namespace navlab::exporter
