// A neutral, read-only view of a navmesh: polygons over vertices, portals (an edge with a face
// on its other side) and links (user edges: one-way jumps from a face to another face). The
// path queries (navmesh_query.h) run on this view, whatever the game.
//
// Views read the format models in place: FromSoftView reads hkaiNavMesh's faces, edges and
// vertices through the model's own arrays (no copy), Fc2View reads a stitched Far Cry 2
// WorldMesh. Coordinates are y-up metres (the FromSoftware convention); Fc2View swaps its z-up
// world into y-up and back (to_view / from_view).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace navlab::fromsoft {
struct NavMesh;
struct LayoutSummary;
}
namespace navlab::farcry2 {
struct WorldMesh;
}

namespace navlab::query {

/// A point in metres (y up).
struct Vec3 {
    double x = 0, y = 0, z = 0;
    friend bool operator==(const Vec3&, const Vec3&) = default;
};

/// Value of neighbour() on the boundary.
inline constexpr std::int64_t kNoFace = -1;

/// One traversable user edge: an agent in `from_face` at `start` may jump to `end` in
/// `to_face`, in that direction only.
struct ViewLink {
    std::uint32_t to_face = 0;
    Vec3 start, end;        ///< jump start (in from_face) and landing point (in to_face)
    std::uint32_t edge = 0; ///< the format's own index of the user edge (for reports)
};

/// The read-only navmesh interface. Implementations must be cheap to query (called once per
/// face and edge when a NavMeshQuery is built) and must have been validated on construction:
/// every index they return is in range.
class NavView {
public:
    virtual ~NavView() = default;
    /// Names the mesh in errors and reports ("file | entry").
    virtual std::string name() const = 0;
    virtual std::size_t vertex_count() const = 0;
    /// Vertex `v` (< vertex_count()) in y-up metres.
    virtual Vec3 vertex(std::size_t v) const = 0;
    virtual std::size_t face_count() const = 0;
    /// Number of corners of `face` (>= 3).
    virtual std::size_t corner_count(std::size_t face) const = 0;
    /// Vertex index of corner `k` of `face`, in ring order.
    virtual std::uint32_t corner(std::size_t face, std::size_t k) const = 0;
    /// The face across edge k (corner k to corner k+1), or kNoFace on the boundary.
    virtual std::int64_t neighbour(std::size_t face, std::size_t k) const = 0;
    /// The format's own index of edge k of `face` (hkaiNavMesh edge index; k for others).
    virtual std::uint32_t edge_id(std::size_t face, std::size_t k) const { return static_cast<std::uint32_t>(k); }
    /// Filter bits of a face (hkaiNavMesh faceData word 0; 0 for other formats).
    virtual std::uint32_t face_bits(std::size_t face) const { return 0; }
    /// The links leaving `face` (empty for formats without user edges).
    virtual std::vector<ViewLink> links(std::size_t face) const { return {}; }
};

/// View of an hkaiNavMesh, reading the model's arrays in place (the mesh must outlive the
/// view). The constructor checks the topology the queries rely on and throws navlab::Error
/// naming the file, the object (hkaiNavMesh) and the face or edge, as the audit names them
/// (and the byte of the offending member in the tagfile, when the layouts say where it is):
/// face edge ranges inside the edges, at least 3 edges, rings that close (b of an edge = a of
/// the next), vertex indices in range, opposites NONE or in range, finite coordinates, user
/// edge ranges inside the edges.
///
/// User edges (Elden Ring, flags 20 or 52): a user edge owned by face F whose oppositeFace is
/// G is a link F -> G; it starts at the midpoint of the user edge (a, b) and lands at the
/// midpoint of its opposite user edge (at the user edge's own midpoint when it has none).
/// A user edge without an opposite face (all have flags 52) is not traversable.
class FromSoftView final : public NavView {
public:
    /// @param mesh    the model (not copied; must outlive the view).
    /// @param name    names the mesh in errors ("file | entry").
    /// @param layouts the tagfile's layouts as read (NavTagfile::layouts), read only by the
    ///                constructor: its errors then give the tagfile byte offset of the member
    ///                at fault. nullptr (a mesh built or edited in memory): no offsets.
    FromSoftView(const fromsoft::NavMesh& mesh, std::string name, const fromsoft::LayoutSummary* layouts = nullptr);
    std::string name() const override { return name_; }
    std::size_t vertex_count() const override;
    Vec3 vertex(std::size_t v) const override;
    std::size_t face_count() const override;
    std::size_t corner_count(std::size_t face) const override;
    std::uint32_t corner(std::size_t face, std::size_t k) const override;
    std::int64_t neighbour(std::size_t face, std::size_t k) const override;
    std::uint32_t edge_id(std::size_t face, std::size_t k) const override;
    std::uint32_t face_bits(std::size_t face) const override;
    std::vector<ViewLink> links(std::size_t face) const override;

private:
    const fromsoft::NavMesh& mesh_;
    std::string name_;
};

/// View of a stitched Far Cry 2 world (farcry2::stitch). Triangles are faces; a triangle's
/// link entries are matched to its edges by geometry (the linked triangle that has an edge
/// lying on edge k, reversed, within 1 cm); links that share no edge (T-junctions) are
/// dropped, which can only make paths longer or missing, never cross a wall. Broken links are
/// boundaries. Coordinates: the view's (x, y, z) is the world's (x, z, y).
class Fc2View final : public NavView {
public:
    /// @param mesh the stitched world (not copied; must outlive the view).
    Fc2View(const farcry2::WorldMesh& mesh, std::string name);
    std::string name() const override { return name_; }
    std::size_t vertex_count() const override;
    Vec3 vertex(std::size_t v) const override;
    std::size_t face_count() const override;
    std::size_t corner_count(std::size_t) const override { return 3; }
    std::uint32_t corner(std::size_t face, std::size_t k) const override;
    std::int64_t neighbour(std::size_t face, std::size_t k) const override;

    /// World (z-up) to view (y-up) coordinates and back.
    static Vec3 to_view(const Vec3& world) { return {world.x, world.z, world.y}; }
    static Vec3 from_view(const Vec3& view) { return {view.x, view.z, view.y}; }

private:
    const farcry2::WorldMesh& mesh_;
    std::string name_;
    std::vector<std::int64_t> edge_neighbour_;  ///< 3 per triangle
};

/// A mesh given as plain arrays (tests, benchmarks, bindings): polygons are rings of vertex
/// indices; neighbours are found by shared edges (vertex pairs in reverse order). Validates
/// indices and finiteness on construction (throws navlab::Error naming "polygon N").
class PolygonView final : public NavView {
public:
    struct Link {
        std::uint32_t from_face = 0, to_face = 0;
        Vec3 start, end;
    };
    PolygonView(std::vector<Vec3> vertices, std::vector<std::vector<std::uint32_t>> polygons,
                std::vector<Link> links = {}, std::vector<std::uint32_t> bits = {}, std::string name = "mesh");
    std::string name() const override { return name_; }
    std::size_t vertex_count() const override { return vertices_.size(); }
    Vec3 vertex(std::size_t v) const override { return vertices_[v]; }
    std::size_t face_count() const override { return polygons_.size(); }
    std::size_t corner_count(std::size_t face) const override { return polygons_[face].size(); }
    std::uint32_t corner(std::size_t face, std::size_t k) const override { return polygons_[face][k]; }
    std::int64_t neighbour(std::size_t face, std::size_t k) const override;
    std::uint32_t face_bits(std::size_t face) const override { return bits_.empty() ? 0 : bits_[face]; }
    std::vector<ViewLink> links(std::size_t face) const override;

private:
    std::vector<Vec3> vertices_;
    std::vector<std::vector<std::uint32_t>> polygons_;
    std::vector<Link> links_;
    std::vector<std::uint32_t> bits_;
    std::string name_;
    std::vector<std::uint32_t> first_;           ///< CSR offsets of neighbours_ per polygon
    std::vector<std::int64_t> neighbours_;
};

}  // namespace navlab::query
