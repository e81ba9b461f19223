#include "query/navmesh_query.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "query/query_mesh.h"

namespace navlab::query {
namespace {

bool finite(const Vec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

template <class T>
std::size_t bytes_of(const std::vector<T>& v) {
    return v.capacity() * sizeof(T);
}

}  // namespace

NavMeshQuery::NavMeshQuery(const NavView& view, const fromsoft::QueryMediator* mediator) : impl_(std::make_unique<Impl>()) {
    impl_->build(view, mediator);
}
NavMeshQuery::~NavMeshQuery() = default;
NavMeshQuery::NavMeshQuery(NavMeshQuery&&) noexcept = default;
NavMeshQuery& NavMeshQuery::operator=(NavMeshQuery&&) noexcept = default;

std::size_t NavMeshQuery::face_count() const noexcept { return impl_->face_bits.size(); }
bool NavMeshQuery::uses_stored_tree() const noexcept { return impl_->stored_tree; }

std::size_t NavMeshQuery::memory_bytes() const noexcept {
    const Impl& m = *impl_;
    std::size_t b = bytes_of(m.verts) + bytes_of(m.piece_first) + bytes_of(m.piece_vert) + bytes_of(m.piece_nbr) +
                    bytes_of(m.piece_edge) + bytes_of(m.piece_face) + bytes_of(m.face_first_piece) + bytes_of(m.face_bits) +
                    bytes_of(m.links) + bytes_of(m.piece_link_first) + bytes_of(m.tree.nodes);
    for (const IslandIndex* ix : {&m.islands_links, &m.islands_plain}) {
        b += bytes_of(ix->of_face);
        for (const auto& s : ix->successors) b += bytes_of(s) + sizeof(s);
    }
    return b;
}

NearestResult NavMeshQuery::nearest_face(const Vec3& point, const Vec3& extents) const {
    NearestResult r;
    if (!finite(point)) return r;
    Vec3 at;
    std::int64_t p = impl_->nearest_piece(point, extents, at);
    if (p < 0) return r;
    r.found = true;
    r.face = impl_->piece_face[p];
    r.point = at;
    r.distance = dist3(at, point);
    return r;
}

NearestResult NavMeshQuery::nearest_face_anywhere(const Vec3& point) const {
    double big = std::numeric_limits<float>::max();
    return nearest_face(point, {big, big, big});
}

NearestResult NavMeshQuery::nearest_face_linear(const Vec3& point, const Vec3& extents) const {
    NearestResult r;
    if (!finite(point)) return r;
    Vec3 at;
    std::int64_t p = impl_->nearest_piece(point, extents, at, true);
    if (p < 0) return r;
    r.found = true;
    r.face = impl_->piece_face[p];
    r.point = at;
    r.distance = dist3(at, point);
    return r;
}

PathResult NavMeshQuery::find_path(const Vec3& from, const Vec3& to, PathMode mode, const QueryFilter& filter,
                                   const Vec3& extents) const {
    const Impl& m = *impl_;
    PathResult r;
    r.mode = mode;
    Vec3 s, e;
    std::int64_t sp = finite(from) ? m.nearest_piece(from, extents, s) : -1;
    std::int64_t ep = finite(to) ? m.nearest_piece(to, extents, e) : -1;
    for (auto [piece, q] : {std::pair{sp, from}, std::pair{ep, to}}) {
        if (piece >= 0) continue;
        r.status = PathStatus::OffMesh;
        NearestResult n = finite(q) ? nearest_face_anywhere(q) : NearestResult{};
        r.off_mesh_distance = n.found ? n.distance : std::numeric_limits<double>::infinity();
        return r;
    }
    r.start_face = m.piece_face[sp];
    r.end_face = m.piece_face[ep];
    if (!m.reach(r.start_face, r.end_face, filter.use_links) || m.piece_weight(sp, filter) == 0 ||
        m.piece_weight(ep, filter) == 0) {
        r.status = PathStatus::NoPath;
        return r;
    }
    auto sp32 = static_cast<std::uint32_t>(sp), ep32 = static_cast<std::uint32_t>(ep);
    PathResult out = mode == PathMode::Exact ? m.exact_path(sp32, s, ep32, e, filter) : m.corridor_path(sp32, s, ep32, e, filter);
    out.start_face = r.start_face;
    out.end_face = r.end_face;
    return out;
}

std::vector<Island> NavMeshQuery::islands(bool use_links) const {
    const Impl& m = *impl_;
    const IslandIndex& ix = m.islands_for(use_links);
    std::vector<Island> out(ix.count);
    for (Island& i : out) {
        i.min = {1e300, 1e300, 1e300};
        i.max = {-1e300, -1e300, -1e300};
    }
    for (std::uint32_t f = 0; f < ix.of_face.size(); ++f) {
        Island& i = out[ix.of_face[f]];
        i.faces.push_back(f);
        for (std::uint32_t p = m.face_first_piece[f]; p < m.face_first_piece[f + 1]; ++p) {
            for (std::uint32_t k = 0; k < m.corners(p); ++k) {
                const Vec3& c = m.corner(p, k);
                i.min = {std::min(i.min.x, c.x), std::min(i.min.y, c.y), std::min(i.min.z, c.z)};
                i.max = {std::max(i.max.x, c.x), std::max(i.max.y, c.y), std::max(i.max.z, c.z)};
                i.area_xz += cross2(xz(c), xz(m.corner(p, (k + 1) % m.corners(p)))) / 2;
            }
        }
    }
    return out;
}

std::uint32_t NavMeshQuery::island_of(std::uint32_t face, bool use_links) const {
    return impl_->islands_for(use_links).of_face.at(face);
}

bool NavMeshQuery::reachable(std::uint32_t from, std::uint32_t to, bool use_links) const {
    if (from >= face_count() || to >= face_count()) return false;
    return impl_->reach(from, to, use_links);
}

std::string_view mode_name(PathMode mode) { return mode == PathMode::Exact ? "exact" : "corridor"; }
std::string_view status_name(PathStatus status) {
    switch (status) {
        case PathStatus::Found: return "found";
        case PathStatus::NoPath: return "no_path";
        case PathStatus::OffMesh: return "off_mesh";
    }
    return "?";
}

}  // namespace navlab::query
