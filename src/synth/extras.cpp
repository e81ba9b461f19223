#include "synth/extras.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "build/clusters.h"

namespace navlab::synth {

int assign_clusters(fromsoft::NavMesh& mesh, double mean_size, Rng& rng) {
    // Growth stops early at the mesh's edges and holes, so patches aim at 2.5 x the mean
    // (measured: that gives the page's faces per node over the sekiro preset).
    return build::grow_clusters(mesh, [&] { return static_cast<int>(2.5 * mean_size * rng.range(0.5, 1.5)); });
}

namespace {

bool shares_corner(const fromsoft::NavMesh& mesh, int f, int g) {
    const auto& a = mesh.faces[f];
    const auto& b = mesh.faces[g];
    for (int i = 0; i < a.numEdges; ++i)
        for (int j = 0; j < b.numEdges; ++j)
            if (mesh.edges[a.startEdgeIndex + i].a == mesh.edges[b.startEdgeIndex + j].a) return true;
    return false;
}

/// A user edge before placement: its owner and, for pairs, the index of its partner.
struct PendingUserEdge {
    int owner;
    fromsoft::Edge edge;
    std::uint32_t data;
    int partner;  ///< index into the pending list, or -1
};

std::uint32_t user_edge_data(Rng& rng) {
    static constexpr std::uint32_t kLow[] = {2, 4, 18, 20};
    // 163 distinct second bytes over the corpus: draw from 1..163.
    return kLow[rng.below(4)] | (static_cast<std::uint32_t>(rng.between(1, 163)) << 8);
}

}  // namespace

void add_user_edges(fromsoft::NavMesh& mesh, int count, bool in_face_order, double separate_ends_share, Rng& rng) {
    const int n = static_cast<int>(mesh.faces.size());
    if (n < 2 || count <= 0) return;
    std::vector<PendingUserEdge> pending;
    std::vector<int> per_face(n, 0);
    // Endpoints are new vertices at the far face's corners: never corners of the owner.
    auto fresh = [&](std::int32_t at) {
        const fromsoft::Vec4 v = mesh.vertices[at];
        mesh.vertices.push_back({v.x, v.y, v.z, 1.0f});
        return static_cast<std::int32_t>(mesh.vertices.size() - 1);
    };
    for (int attempts = count * 10; static_cast<int>(pending.size()) < count && attempts > 0; --attempts) {
        const int f = static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
        const int g = static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
        if (f == g || shares_corner(mesh, f, g)) continue;
        const int remaining = count - static_cast<int>(pending.size());
        // Mostly 1-4 links per pair, now and then a long run (faces own up to 56).
        int links = rng.chance(0.02) ? rng.between(5, 20) : rng.between(1, 4);
        const bool one_sided = remaining == 1 || rng.chance(0.001);
        links = std::min({links, 56 - per_face[f], one_sided ? remaining : std::min(56 - per_face[g], remaining / 2)});
        const auto& ff = mesh.faces[f];
        const auto& gf = mesh.faces[g];
        for (int i = 0; i < links; ++i) {
            const auto ge = mesh.edges[gf.startEdgeIndex + i % gf.numEdges];
            const auto fe = mesh.edges[ff.startEdgeIndex + i % ff.numEdges];
            fromsoft::Edge here, there;
            here.a = fresh(ge.b);
            here.b = fresh(ge.a);
            here.flags = one_sided || rng.chance(0.1) ? 52 : 20;
            if (one_sided) {
                pending.push_back({f, here, user_edge_data(rng), -1});
                ++per_face[f];
                continue;
            }
            if (rng.chance(separate_ends_share)) {
                there.a = fresh(fe.b);
                there.b = fresh(fe.a);
            } else {
                there.a = here.b;
                there.b = here.a;
            }
            there.flags = here.flags;
            const int i0 = static_cast<int>(pending.size());
            pending.push_back({f, here, user_edge_data(rng), i0 + 1});
            pending.push_back({g, there, user_edge_data(rng), i0});
            ++per_face[f];
            ++per_face[g];
        }
    }
    // Place each face's user edges as one block; blocks in face order or shuffled.
    std::vector<int> face_order;
    for (int f = 0; f < n; ++f)
        if (per_face[f] > 0) face_order.push_back(f);
    if (!in_face_order)
        for (std::size_t i = face_order.size(); i > 1; --i) std::swap(face_order[i - 1], face_order[rng.below(static_cast<std::uint32_t>(i))]);
    std::vector<std::vector<int>> by_face(n);
    for (int i = 0; i < static_cast<int>(pending.size()); ++i) by_face[pending[i].owner].push_back(i);
    std::vector<std::uint32_t> slot(pending.size());
    std::uint32_t next = static_cast<std::uint32_t>(mesh.edges.size());
    for (int f : face_order) {
        mesh.faces[f].startUserEdgeIndex = static_cast<std::int32_t>(next);
        mesh.faces[f].numUserEdges = static_cast<std::int16_t>(by_face[f].size());
        for (int i : by_face[f]) slot[i] = next++;
    }
    mesh.edges.resize(next);
    mesh.edgeData.resize(next);
    for (std::size_t i = 0; i < pending.size(); ++i) {
        fromsoft::Edge e = pending[i].edge;
        if (pending[i].partner >= 0) {
            e.oppositeEdge = slot[pending[i].partner];
            e.oppositeFace = static_cast<std::uint32_t>(pending[pending[i].partner].owner);
        }
        mesh.edges[slot[i]] = e;
        mesh.edgeData[slot[i]] = static_cast<std::int32_t>(pending[i].data);
    }
}

namespace {

/// Rotation columns of a random orientation: yaw about +y, then a small tilt about x.
std::array<float, 9> random_rotation(Rng& rng) {
    const double yaw = rng.unit() * 6.283185307179586, tilt = rng.range(-0.3, 0.3);
    const double cy = std::cos(yaw), sy = std::sin(yaw), ct = std::cos(tilt), st = std::sin(tilt);
    // R = Ry(yaw) * Rx(tilt); columns of R.
    return {static_cast<float>(cy), 0.0f, static_cast<float>(-sy),
            static_cast<float>(sy * st), static_cast<float>(ct), static_cast<float>(cy * st),
            static_cast<float>(sy * ct), static_cast<float>(-st), static_cast<float>(cy * ct)};
}

fromsoft::Obb random_box(Game game, const fromsoft::Aabb& aabb, Rng& rng) {
    fromsoft::Obb box;
    const auto rot = random_rotation(rng);
    for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) box.transform[c * 4 + r] = rot[c * 3 + r];
        // Sekiro keeps whatever the tool's buffer held; Elden Ring writes 0.
        box.transform[c * 4 + 3] = game == Game::Sekiro ? rng.range(-500, 500) : 0.0f;
    }
    box.transform[12] = rng.range(aabb.min.x, aabb.max.x);
    box.transform[13] = rng.range(aabb.min.y, aabb.max.y);
    box.transform[14] = rng.range(aabb.min.z, aabb.max.z);
    box.transform[15] = game == Game::Sekiro ? 0.0f : 1.0f;
    box.halfExtents = {rng.range(0.3, 3), rng.range(0.5, 2.5), rng.range(0.1, 1.5), 0.0f};
    return box;
}

}  // namespace

std::vector<fromsoft::UserEdgeSetup> make_user_edge_setups(Game game, const fromsoft::Aabb& aabb, int count,
                                                           Rng& rng) {
    std::vector<fromsoft::UserEdgeSetup> setups(count);
    for (auto& s : setups) {
        s.obbA = random_box(game, aabb, rng);
        s.obbB = random_box(game, aabb, rng);
        s.userDataA = rng.below(4);
        s.userDataB = rng.below(4);
        s.costAtoB = rng.range(1, 4);
        s.costBtoA = rng.range(1, 4);
        s.worldUpA = {0, 1, 0, 0};
        s.worldUpB = {0, 1, 0, 0};
        s.direction = rng.chance(0.5) ? 1 : 3;
        s.space = game == Game::Sekiro ? 1 : static_cast<std::uint8_t>(rng.below(2));
        s.forceAlign = 1;
    }
    return setups;
}

}  // namespace navlab::synth
