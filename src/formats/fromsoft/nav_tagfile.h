// Reading and writing a NavTagfile (navmesh.h) as a Havok TAG0 tagfile.
//
// Reading goes through the strict tagfile reader (havok/tagfile.h) and takes every class and
// member from the file's own type table by name, so Sekiro (SDK 20160200) and Elden Ring
// (20180100) files both read. Arrays of records whose file layout equals the model's are
// copied with one memcpy; any other layout is read member by member.
//
// Writing builds the tagfile from scratch with the Havok 2018.1 navmesh type set
// (havok/type_sets.h) and the SDKV of the model: 20180100 for Elden Ring, 20160200 for Sekiro
// (no public Sekiro file exists, so Sekiro output uses the 2018 type records and hashes, whose
// navmesh layouts the page states are the same in both games).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "formats/fromsoft/navmesh.h"

namespace navlab::havok {
struct Tagfile;
}

namespace navlab::fromsoft {

/// Reads the navmesh model of one tagfile.
/// @param tagfile the whole TAG0 file (a binder entry or a loose .hkx).
/// @return the model with the SDK, root variants, record layouts, object counts and the
///         strict reader's warnings. Objects the file lacks stay empty/absent: a file with no
///         hkaiNavMesh variant gives an empty mesh (check `variants`).
/// Throws navlab::Error (absolute offset, field path) when the tagfile is malformed or a
/// modelled class lacks a member the model needs.
NavTagfile read_nav_tagfile(std::span<const std::uint8_t> tagfile);

/// Same as read_nav_tagfile for a tagfile already read with havok::read_tagfile.
NavTagfile nav_from_tagfile(const havok::Tagfile& file);

/// Gives `mesh`'s faces, edges, vertices, faceData and edgeData (emptied, capacity kept) to
/// this thread's next read of a mesh (read_nav_tagfile, nav_from_tagfile), which fills them
/// instead of allocating. A caller reading tagfile after tagfile (the audit) then writes into
/// memory it already has, instead of having arrays above the allocator's mmap threshold mapped,
/// faulted in page by page and unmapped again for every large mesh. The thread keeps at most
/// one set (the last given); `mesh` is left without those arrays.
void recycle_mesh_arrays(NavMesh&& mesh);

/// recycle_mesh_arrays for `nav`'s mesh, and the rest of its storage too: the graph's, tree's
/// and setups' arrays (emptied), the variants and object counts, whose strings and map nodes
/// the next read assigns over instead of allocating. `nav` is left without them.
void recycle_nav_tagfile(NavTagfile&& nav);

/// Frees what recycle_mesh_arrays and recycle_nav_tagfile gave this thread (its next read
/// allocates anew): for a thread about to do something else for a while (the audit's worker
/// that decompresses a binder), since what a thread keeps is sized for the largest model it read.
void release_recycled_storage();
/// release_recycled_storage for the arrays whose capacity takes at least `min_bytes` only: what
/// a thread keeps from a large model, not the small arrays and containers every tagfile reuses.
void release_large_recycled_storage(std::size_t min_bytes);

/// How many record arrays whose layout differs from the model's (Sekiro's UserEdgeSetup) this
/// thread has read in place, by a copy plan, rather than member by member through Values. The
/// two give the same model; tests ask this to know that the fast one ran.
std::uint64_t record_arrays_read_in_place();

/// Writes `nav` as a new tagfile: root variants hkaiNavMesh, then hkaiDirectedGraphExplicitCost
/// (when `graph` is set), hkaiStaticTreeNavMeshQueryMediator (when `mediator` is set, with its
/// hkcdStaticAabbTree; navMesh points at the mesh when nav_mesh_is_file_mesh, else is null), then
/// hkaiUserEdgeSetupArray (when `user_edge_setups` is set). Each variant is named for its class,
/// unless `variants` has exactly one entry per written object: then its name and className
/// are used (an empty string still means the class name), so a read model keeps its names and
/// a test can write a misnamed variant.
/// Clearance-cache seeding is written as an empty CacheDataSet when has_clearance_cache_seeding
/// (the real caches are not modelled). Read-only fields (layouts, object_counts, warnings,
/// sdk_string, variants' type_name and item, nav_mesh_item, clearance_cache_data_count) are ignored.
/// @param nav the model; sdk_version 0 means 20180100.
/// @return the tagfile bytes; read_nav_tagfile of them gives back the same model (same_model).
/// Throws navlab::Error for what the writer cannot express (streaming sets, a mediator whose
/// tree_class/has_tree_impl differ from the defaults).
/// A non-zero byte where the 2018 type set has a gap or a non-serialized member (an Edge's
/// paddingByte) is refused too, unless `allow_gap_bytes` (synth's defects made on purpose).
std::vector<std::uint8_t> write_nav_tagfile(const NavTagfile& nav, bool allow_gap_bytes = false);

/// True when a and b hold the same written content: SDK version, mesh (except
/// clearance_cache_data_count), graph, mediator (nodes, domain, nav_mesh_is_file_mesh) and setups.
/// Floats compare by their bits (file content: a NaN equals itself, 0.0 and -0.0 differ).
bool same_model(const NavTagfile& a, const NavTagfile& b);

}  // namespace navlab::fromsoft
