// Everything the rules share about one tagfile, computed once: the game, R (regular edges),
// edge owners, each face's ring and its geometry (winding, convexity, planarity, the page's
// triangulation and its checks).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/fromsoft/aabb_tree6.h"
#include "audit/audit.h"
#include "audit/audit_edge_scan.h"
#include "audit/audit_face_fields.h"
#include "audit/audit_face_geometry.h"
#include "geometry/face_ring.h"
#include "io/default_init_vector.h"

namespace navlab::audit {

inline constexpr std::int32_t kNoOwner = -1;
inline constexpr std::int32_t kManyOwners = -2;

struct DecidedTallies;  // audit_face_batch.h

/// R40's limit on a corner's distance from its face's mean plane, in metres (Sekiro 0.655,
/// otherwise Elden Ring's 1.385; R40 skips other games).
inline double off_plane_limit(Game game) { return game == Game::Sekiro ? 0.655 : 1.385; }

/// The largest of a sequence of values as MaximumCursor::offer keeps it, gathered once per
/// tagfile so a rule offers two values instead of one per face: `first` is the first value
/// offered (a cursor with nothing set takes it, even NaN), `best` the largest non-NaN value
/// at its first face. Offering first, then best, leaves any cursor (set or not) as offering
/// every value in order would: NaN never replaces a set value, and ties keep the earlier face.
struct FirstAndBest {
    bool any = false, any_number = false;
    double first = 0, best = 0;
    std::int32_t first_face = -1, best_face = -1;
    void offer(double v, std::int32_t face) {
        if (!any) any = true, first = v, first_face = face;
        // v > best first: once a number is kept, that alone decides (NaN is never greater).
        if (v > best || (!any_number && v == v)) any_number = true, best = v, best_face = face;
    }
    /// Offers first, then best, to `cursor`; `at(face)` names a face (called only when kept).
    template <class At>
    void offer_to(MaximumCursor& cursor, At&& at) const {
        if (any) cursor.offer(first, [&] { return at(first_face); });
        if (any_number) cursor.offer(best, [&] { return at(best_face); });
    }
};

/// A face whose geometry is not the common case (FaceTallies::unusual), with that geometry.
struct UnusualFace {
    std::int32_t face;
    FaceGeometry geometry;
};

/// R44's and R45's tolerances: the triangles' projected area equals the face's within this
/// relative difference, their area vectors add up to the face's within this absolute one.
inline constexpr double kR44ProjectedRelativeMost = 1e-9;
inline constexpr double kR45AreaDifferenceMost = 2e-11;

/// What rules R38–R48 and X08 need of the faces' geometry, gathered by read_faces while each
/// FaceGeometry is fresh: totals, the four maxima, and the faces where any of them may hold
/// an exception or a skip, kept with their geometry. The rules walk only those faces (a few
/// per cent on the game presets), in face order, so counts and examples are those of a walk
/// over every face; the other faces' ~190-byte records are not kept at all.
struct FaceTallies {
    std::int64_t faces = 0;        ///< faces with geometry (ring Ok)
    std::int64_t zero_normal = 0;  ///< of those, N = 0
    std::int64_t no_ear = 0;
    std::int64_t zero_normal_or_no_ear = 0;
    std::int64_t not_convex_in_newell_plane = 0;  ///< X08
    std::int64_t triangles = 0, dropped = 0, fallbacks = 0, turned = 0;  ///< R42, R43
    std::int64_t edges_minus_2 = 0;  ///< Σ (numEdges − 2), R42
    FirstAndBest off_plane;            ///< R40, faces with N != 0
    FirstAndBest projected_relative;   ///< R44, N != 0 and a complete triangulation
    FirstAndBest area_difference;      ///< R45, complete triangulation
    FirstAndBest area_difference_relative;  ///< R45, complete and projected face area > 0
    /// Faces whose geometry is not the common case: not counter-clockwise, not convex, N = 0,
    /// a bad fan, a turned or lost triangle, no ear, a corner beyond `off_plane_limit`, or an
    /// area check beyond its tolerance. A superset of every failing and skipped face of R38–R48
    /// (faces without geometry aside), in face order.
    std::vector<UnusualFace> unusual;

    /// Adds face `face` (with `edges` = its numEdges); `off_plane_limit` is R40's for the game.
    void add(std::int32_t face, const FaceGeometry& g, int edges, double off_plane_limit);
    /// add for every face a FaceBatch decided (`decided.both_fans`), summed by the batch from
    /// their figures (DecidedTallies): what add takes of the geometry analyse_face would give
    /// them (its both-fans outcome), without building one, and in any order (the maxima keep
    /// the smaller face between equal values, as offering in face order does). The caller
    /// appends the decided faces that are not FaceBatch::common to `unusual` itself, in face
    /// order. Most faces are such faces (90 % of Sekiro `krak`'s, 93 % of eldenring `m31`'s).
    void add_decided(const DecidedTallies& t);
};

/// The smallest and largest vertex coordinate per lane x, y, z, w (±infinity without vertices),
/// taken with std::min/std::max in vertex order.
struct VertexBounds {
    float min[4], max[4];
    std::int64_t w_equal_1 = 0;  ///< vertices whose w is 1 (X01)
};

/// Sets `bounds` from one pass over the vertices (std::min and std::max in vertex order, so a
/// NaN never enters and the first of equal values, -0 or +0, is kept; w_equal_1 in the same
/// pass, X01 walked the vertices again for it) and returns whether every x, y and z is finite.
bool bound_vertices(std::span<const fromsoft::Vec4> vertices, VertexBounds& bounds);
/// bound_vertices without AVX2 (what it runs where the processor lacks it), for tests.
bool bound_vertices_without_avx2(std::span<const fromsoft::Vec4> vertices, VertexBounds& bounds);

/// R64's sums, gathered by read_faces on a tagfile with a cluster graph while each face's
/// corners are at hand (R64 gathered every ring's vertices again: 1.7 % of the Sekiro audit's
/// time). Per graph node k (one entry per node; empty without a graph): the sum of the corner
/// means (geometry::centroid_of) of the faces whose ring is Ok and whose clusterIndex is k,
/// added in face order, and how many faces that is.
struct ClusterCentres {
    std::vector<Point> centroid_sum;
    std::vector<std::int64_t> faces;
};

/// A face's ring as read_face_ring left it (partial for a broken ring), viewing the
/// context's flat ring storage.
struct RingView {
    RingStatus status = RingStatus::Ok;
    int break_at = -1;
    std::span<const std::int32_t> vertices;  ///< the ring's vertex indices (all of them when status is Ok)
};

struct TagfileContext {
    const AuditTagfile& file;
    const fromsoft::NavTagfile& tagfile;
    const fromsoft::NavMesh& mesh;
    Game game;
    std::int64_t F = 0, E = 0, V = 0;
    std::int64_t R = 0;            ///< Σ numEdges (negative counts as 0)
    bool regular_tiled = false;    ///< R21 holds and R ≤ E
    DefaultInitVector<std::int32_t> owner;  ///< edge → owning face, kNoOwner or kManyOwners
    VertexBounds vertex_bounds;  ///< one pass over the vertices, for R50–R53, X01 (w lane) and X02
    /// Every edge's ends are vertices (R27) and every vertex's x, y, z finite, known from the
    /// passes over the edges and the vertices: read_faces then tests only each ring's closure
    /// per corner (write_sound_ring).
    bool sound_vertices = false;
    EdgeScan edge_scan;  ///< the per-edge statements over all edges, in one pass after the owners
    FaceFieldBounds face_fields;  ///< the face records' fields bounded, for R22, R24–R26, R34, R35, R74
    std::vector<RingView> rings;  ///< per face, viewing ring_vertices
    /// per face, valid when its ring is Ok; empty without a mediator (no tree to compare with)
    std::vector<CornerBounds> corner_bounds;
    FaceTallies face_tallies;  ///< R38–R48 and X08's figures, gathered by read_faces
    ClusterCentres cluster_centres;  ///< R64's figures, gathered by read_faces
    std::optional<fromsoft::DecodedTreeLeaves> tree;  ///< Decoding D of the mediator's tree (leaves' boxes only), for meshes with faces

    /// Every face's ring vertices, one after another: one allocation per tagfile instead of
    /// one per face. The corners are not kept (24 bytes each, more than the edge records:
    /// with two workers they took the audit's peak to the 2× line); corners_of rebuilds a
    /// face's from its vertices.
    /// Not filled when it grows: read_faces writes each entry before any view reaches it.
    DefaultInitVector<std::int32_t> ring_vertices;
    /// where()'s name of the tagfile, made once and shared by its places: rules ask for tens
    /// of places a tagfile.
    std::shared_ptr<const std::string> where_prefix;

    /// @param file a readable tagfile (file.model present).
    explicit TagfileContext(const AuditTagfile& file);
    /// Hands the per-tagfile arrays back to this thread's spare storage (see the .cpp).
    ~TagfileContext();
    TagfileContext(const TagfileContext&) = delete;  // rings view the context's own storage
    TagfileContext& operator=(const TagfileContext&) = delete;

    /// One pass over the F faces: reads each ring into rings and ring_vertices and, when it
    /// is well formed, its geometry into face_tallies (and its centre into cluster_centres).
    void read_faces();
    /// The corners of face `face`, whose ring is Ok, in ring order: the same values
    /// read_faces analysed. @param scratch storage reused by the caller; the span views it.
    std::span<const Point> corners_of(std::int64_t face, std::vector<Point>& scratch) const;
    /// "entry face 12" ("binder | entry face 12" in a binder; the name alone when index < 0),
    /// then `suffix`, for Extreme::at: kept as pieces, formatted when a report prints it.
    /// @param element, suffix literals (Location keeps the views).
    Location where(std::string_view element, std::int64_t index, std::string_view suffix = {}) const {
        return Location(where_prefix, element, index, suffix);
    }
    bool has_class(const std::string& cls) const;
};

/// Whether `cls` is among the tagfile's root-variant classes.
bool has_root_class(const fromsoft::NavTagfile& t, std::string_view cls);

/// Frees the arrays the last TagfileContext this thread destroyed left for the next one whose
/// capacity takes at least `min_bytes` (all of them by default; see release_kept_storage and
/// release_large_kept_storage, audit_load.h).
void release_spare_context_storage(std::size_t min_bytes = 0);

}  // namespace navlab::audit
