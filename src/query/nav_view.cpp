#include "query/nav_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "formats/farcry2/world.h"
#include "formats/fromsoft/navmesh.h"
#include "io/error.h"

namespace navlab::query {
namespace {

using fromsoft::kNoOpposite;

/// Where the records of one array sit in the tagfile, to name the byte of a member.
struct Records {
    std::uint64_t at = kNoOffset;               ///< the first record's offset, or kNoOffset
    const fromsoft::RecordInfo* info = nullptr;  ///< their layout (size, members)

    /// The offset of `member` in record `index` (the record's start for nullptr, or when the
    /// layout has no such member), or kNoOffset when unknown.
    std::uint64_t byte_of(std::int64_t index, const char* member = nullptr) const {
        if (at == kNoOffset || !info || info->size == 0) return kNoOffset;
        const fromsoft::MemberInfo* m = member ? info->find(member) : nullptr;
        return at + static_cast<std::uint64_t>(index) * info->size + (m ? m->offset : 0);
    }
};

[[noreturn]] void refuse(const std::string& file, const std::string& element, std::int64_t index,
                         const std::string& what, std::uint64_t offset = kNoOffset) {
    Error e(what, offset, fmt::format("hkaiNavMesh {} {}", element, index));
    e.set_file(file);
    throw e;
}

bool finite(const fromsoft::Vec4& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

/// The topology checks of FromSoftView (see its comment), in the audit's element names.
void validate(const fromsoft::NavMesh& m, const std::string& file, const fromsoft::LayoutSummary* layouts) {
    Records faces, edges, vertices;
    if (layouts) {
        faces = {layouts->faces_at, &*layouts->face};
        edges = {layouts->edges_at, &*layouts->edge};
        vertices = {layouts->vertices_at, &*layouts->vertex};
    }
    const std::int64_t E = static_cast<std::int64_t>(m.edges.size());
    const std::int64_t F = static_cast<std::int64_t>(m.faces.size());
    const std::int64_t V = static_cast<std::int64_t>(m.vertices.size());
    for (std::int64_t f = 0; f < F; ++f) {
        const fromsoft::Face& face = m.faces[f];
        std::int64_t s = face.startEdgeIndex, n = face.numEdges;
        if (n < 3) refuse(file, "face", f, fmt::format("numEdges {}", n), faces.byte_of(f, "numEdges"));
        if (s < 0 || s + n > E)
            refuse(file, "face", f, fmt::format("edges [{}, +{}) outside the {} edges", s, n, E),
                   faces.byte_of(f, "startEdgeIndex"));
        for (std::int64_t k = 0; k < n; ++k)
            if (m.edges[s + k].b != m.edges[s + (k + 1) % n].a)
                refuse(file, "edge", s + k,
                       fmt::format("ring of face {} does not close: b {} but next a {}", f, m.edges[s + k].b,
                                   m.edges[s + (k + 1) % n].a),
                       edges.byte_of(s + k, "b"));
        std::int64_t us = face.startUserEdgeIndex, un = face.numUserEdges;
        if (un < 0 || (un > 0 && (us < 0 || us + un > E)))
            refuse(file, "face", f, fmt::format("user edges [{}, +{}) outside the {} edges", us, un, E),
                   faces.byte_of(f, un < 0 ? "numUserEdges" : "startUserEdgeIndex"));
    }
    for (std::int64_t e = 0; e < E; ++e) {
        const fromsoft::Edge& d = m.edges[e];
        if (d.a < 0 || d.a >= V || d.b < 0 || d.b >= V)
            refuse(file, "edge", e, fmt::format("a {}, b {}, {} vertices", d.a, d.b, V),
                   edges.byte_of(e, d.a < 0 || d.a >= V ? "a" : "b"));
        if (d.oppositeEdge != kNoOpposite && d.oppositeEdge >= E)
            refuse(file, "edge", e, fmt::format("oppositeEdge {} out of range ({} edges)", d.oppositeEdge, E),
                   edges.byte_of(e, "oppositeEdge"));
        if (d.oppositeFace != kNoOpposite && d.oppositeFace >= F)
            refuse(file, "edge", e, fmt::format("oppositeFace {} out of range ({} faces)", d.oppositeFace, F),
                   edges.byte_of(e, "oppositeFace"));
    }
    for (std::int64_t v = 0; v < V; ++v)
        if (!finite(m.vertices[v])) refuse(file, "vertex", v, "coordinate not finite", vertices.byte_of(v));
}

Vec3 vec(const fromsoft::Vec4& v) { return {v.x, v.y, v.z}; }
Vec3 mid(const Vec3& a, const Vec3& b) { return {(a.x + b.x) / 2, (a.y + b.y) / 2, (a.z + b.z) / 2}; }

}  // namespace

// ---- FromSoftware --------------------------------------------------------------------------

FromSoftView::FromSoftView(const fromsoft::NavMesh& mesh, std::string name, const fromsoft::LayoutSummary* layouts)
    : mesh_(mesh), name_(std::move(name)) {
    validate(mesh_, name_, layouts);
}
std::size_t FromSoftView::vertex_count() const { return mesh_.vertices.size(); }
Vec3 FromSoftView::vertex(std::size_t v) const { return vec(mesh_.vertices[v]); }
std::size_t FromSoftView::face_count() const { return mesh_.faces.size(); }
std::size_t FromSoftView::corner_count(std::size_t face) const { return static_cast<std::size_t>(mesh_.faces[face].numEdges); }
std::uint32_t FromSoftView::corner(std::size_t face, std::size_t k) const {
    return static_cast<std::uint32_t>(mesh_.edges[mesh_.faces[face].startEdgeIndex + k].a);
}
std::int64_t FromSoftView::neighbour(std::size_t face, std::size_t k) const {
    std::uint32_t g = mesh_.edges[mesh_.faces[face].startEdgeIndex + k].oppositeFace;
    return g == kNoOpposite ? kNoFace : static_cast<std::int64_t>(g);
}
std::uint32_t FromSoftView::edge_id(std::size_t face, std::size_t k) const {
    return static_cast<std::uint32_t>(mesh_.faces[face].startEdgeIndex + k);
}
std::uint32_t FromSoftView::face_bits(std::size_t face) const {
    std::size_t stride = static_cast<std::size_t>(std::max(0, mesh_.faceDataStriding));
    std::size_t i = face * stride;
    return stride > 0 && i < mesh_.faceData.size() ? static_cast<std::uint32_t>(mesh_.faceData[i]) : 0;
}
std::vector<ViewLink> FromSoftView::links(std::size_t face) const {
    std::vector<ViewLink> out;
    const fromsoft::Face& f = mesh_.faces[face];
    for (std::int32_t j = 0; j < f.numUserEdges; ++j) {
        std::uint32_t e = static_cast<std::uint32_t>(f.startUserEdgeIndex + j);
        const fromsoft::Edge& d = mesh_.edges[e];
        if (d.oppositeFace == kNoOpposite) continue;
        ViewLink l;
        l.to_face = d.oppositeFace;
        l.edge = e;
        l.start = mid(vec(mesh_.vertices[d.a]), vec(mesh_.vertices[d.b]));
        l.end = l.start;
        if (d.oppositeEdge != kNoOpposite) {
            const fromsoft::Edge& o = mesh_.edges[d.oppositeEdge];
            l.end = mid(vec(mesh_.vertices[o.a]), vec(mesh_.vertices[o.b]));
        }
        out.push_back(l);
    }
    return out;
}

// ---- Far Cry 2 -----------------------------------------------------------------------------

Fc2View::Fc2View(const farcry2::WorldMesh& mesh, std::string name) : mesh_(mesh), name_(std::move(name)) {
    const std::size_t T = mesh_.triangles.size();
    if (mesh_.neighbour_first.size() != T + 1) throw Error("neighbour table does not match the triangles", kNoOffset, name_);
    for (std::size_t t = 0; t < T; ++t)
        for (std::uint32_t v : mesh_.triangles[t])
            if (v >= mesh_.vertices.size())
                throw Error(fmt::format("vertex {} out of range ({} vertices)", v, mesh_.vertices.size()), kNoOffset,
                            fmt::format("{}: triangle {}", name_, t));
    edge_neighbour_.assign(3 * T, kNoFace);
    auto pos = [&](std::uint32_t v) { return to_view({mesh_.vertices[v].x, mesh_.vertices[v].y, mesh_.vertices[v].z}); };
    auto close = [](const Vec3& a, const Vec3& b) { return std::hypot(a.x - b.x, a.y - b.y, a.z - b.z) < 0.01; };
    for (std::size_t t = 0; t < T; ++t) {
        for (std::uint32_t i = mesh_.neighbour_first[t]; i < mesh_.neighbour_first[t + 1]; ++i) {
            std::int64_t u = mesh_.neighbours[i];
            if (u < 0 || static_cast<std::size_t>(u) >= T || static_cast<std::size_t>(u) == t) continue;
            for (int k = 0; k < 3; ++k) {
                Vec3 a = pos(mesh_.triangles[t][k]), b = pos(mesh_.triangles[t][(k + 1) % 3]);
                for (int j = 0; j < 3; ++j) {
                    Vec3 c = pos(mesh_.triangles[u][j]), d = pos(mesh_.triangles[u][(j + 1) % 3]);
                    if (close(a, d) && close(b, c)) edge_neighbour_[3 * t + k] = u;
                }
            }
        }
    }
}
std::size_t Fc2View::vertex_count() const { return mesh_.vertices.size(); }
Vec3 Fc2View::vertex(std::size_t v) const {
    const auto& p = mesh_.vertices[v];
    return to_view({p.x, p.y, p.z});
}
std::size_t Fc2View::face_count() const { return mesh_.triangles.size(); }
std::uint32_t Fc2View::corner(std::size_t face, std::size_t k) const { return mesh_.triangles[face][k]; }
std::int64_t Fc2View::neighbour(std::size_t face, std::size_t k) const { return edge_neighbour_[3 * face + k]; }

// ---- plain polygons ------------------------------------------------------------------------

PolygonView::PolygonView(std::vector<Vec3> vertices, std::vector<std::vector<std::uint32_t>> polygons,
                         std::vector<Link> links, std::vector<std::uint32_t> bits, std::string name)
    : vertices_(std::move(vertices)), polygons_(std::move(polygons)), links_(std::move(links)), bits_(std::move(bits)),
      name_(std::move(name)) {
    for (std::size_t v = 0; v < vertices_.size(); ++v)
        if (!std::isfinite(vertices_[v].x) || !std::isfinite(vertices_[v].y) || !std::isfinite(vertices_[v].z))
            throw Error("coordinate not finite", kNoOffset, fmt::format("{}: vertex {}", name_, v));
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> owner;
    for (std::size_t p = 0; p < polygons_.size(); ++p) {
        if (polygons_[p].size() < 3) throw Error("fewer than 3 corners", kNoOffset, fmt::format("{}: polygon {}", name_, p));
        for (std::size_t k = 0; k < polygons_[p].size(); ++k) {
            if (polygons_[p][k] >= vertices_.size())
                throw Error(fmt::format("corner {} is vertex {} of {}", k, polygons_[p][k], vertices_.size()), kNoOffset,
                            fmt::format("{}: polygon {}", name_, p));
            owner[{polygons_[p][k], polygons_[p][(k + 1) % polygons_[p].size()]}] = static_cast<std::uint32_t>(p);
        }
    }
    if (!bits_.empty() && bits_.size() != polygons_.size()) throw Error("one filter word per polygon expected", kNoOffset, name_);
    for (const Link& l : links_)
        if (l.from_face >= polygons_.size() || l.to_face >= polygons_.size())
            throw Error(fmt::format("link {} -> {} names no polygon", l.from_face, l.to_face), kNoOffset, name_);
    first_.push_back(0);
    for (const auto& ring : polygons_) {
        for (std::size_t k = 0; k < ring.size(); ++k) {
            auto it = owner.find({ring[(k + 1) % ring.size()], ring[k]});
            neighbours_.push_back(it == owner.end() ? kNoFace : it->second);
        }
        first_.push_back(static_cast<std::uint32_t>(neighbours_.size()));
    }
}
std::int64_t PolygonView::neighbour(std::size_t face, std::size_t k) const { return neighbours_[first_[face] + k]; }
std::vector<ViewLink> PolygonView::links(std::size_t face) const {
    std::vector<ViewLink> out;
    for (std::size_t i = 0; i < links_.size(); ++i)
        if (links_[i].from_face == face) out.push_back({links_[i].to_face, links_[i].start, links_[i].end, static_cast<std::uint32_t>(i)});
    return out;
}

}  // namespace navlab::query
