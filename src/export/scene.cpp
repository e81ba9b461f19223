#include "export/scene.h"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>

#include "container/binder_file.h"
#include "export/export.h"
#include "formats/fromsoft/aabb_tree6.h"
#include "formats/fromsoft/mesh_views.h"
#include "formats/fromsoft/nav_source.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "formats/igi/graph_io.h"
#include "geometry/face_ring.h"
#include "io/error.h"
#include "io/report.h"
#include "io/shared_bytes.h"
#include "io/text.h"

namespace navlab::exporter {
namespace {

Point3 centroid(const SceneMember& m, std::size_t face) {
    Point3 c{};
    const std::size_t n = m.corner_count(face);
    for (std::size_t k = 0; k < n; ++k)
        for (int i = 0; i < 3; ++i) c[i] += m.vertices[m.corners[m.face_start[face] + k]][i];
    for (int i = 0; i < 3 && n > 0; ++i) c[i] /= static_cast<float>(n);
    return c;
}

/// Elden Ring query-tree leaves as boxes; nothing when the tree does not decode.
std::vector<SceneBox> leaf_boxes(const fromsoft::NavTagfile& t) {
    std::vector<SceneBox> out;
    if (!t.mediator) return out;
    const fromsoft::DecodedAabbTree tree = fromsoft::decode_aabb_tree6(t.mediator->nodes, t.mediator->domain);
    if (!tree.valid) return out;
    for (const fromsoft::TreeLeaf& leaf : tree.leaves) {
        const fromsoft::Box3& b = tree.boxes[leaf.node];
        out.push_back({{static_cast<float>(b.min[0]), static_cast<float>(b.min[1]), static_cast<float>(b.min[2])},
                       {static_cast<float>(b.max[0]), static_cast<float>(b.max[1]), static_cast<float>(b.max[2])},
                       leaf.face});
    }
    return out;
}

SceneMember fromsoft_member(const NamedTagfile& t) {
    const fromsoft::NavMesh& m = t.model.mesh;
    SceneMember out;
    out.name = t.name;
    for (const auto& v : m.vertices) out.vertices.push_back({v.x, v.y, v.z});
    const auto F = static_cast<std::int64_t>(m.faces.size());
    geometry::FaceRing ring;
    std::vector<std::int32_t> user_owner(m.edges.size(), -1);
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
        const fromsoft::Face& face = m.faces[f];
        if (geometry::read_face_ring(m, f, ring) == geometry::RingStatus::Ok) {
            for (std::size_t k = 0; k < ring.vertices.size(); ++k) {
                const fromsoft::Edge& e = m.edges[face.startEdgeIndex + k];
                out.corners.push_back(static_cast<std::uint32_t>(ring.vertices[k]));
                out.corner_flags.push_back(e.flags);
                out.corner_opposite.push_back(e.oppositeFace < F ? static_cast<std::int32_t>(e.oppositeFace) : -1);
            }
            for (const auto& tri : face_triangles(m, f)) {
                out.triangles.push_back({static_cast<std::uint32_t>(tri[0]), static_cast<std::uint32_t>(tri[1]),
                                         static_cast<std::uint32_t>(tri[2])});
                out.triangle_face.push_back(static_cast<std::uint32_t>(f));
            }
        }
        out.face_start.push_back(static_cast<std::uint32_t>(out.corners.size()));
        const std::size_t stride = m.faceDataStriding > 0 ? static_cast<std::size_t>(m.faceDataStriding) : 0;
        out.face_data.push_back(stride > 0 && f * stride < m.faceData.size() ? m.faceData[f * stride] : 0);
        out.cluster.push_back(face.clusterIndex);
        for (std::int64_t e = face.startUserEdgeIndex; face.numUserEdges > 0 && e >= 0 &&
                                                        e < std::int64_t{face.startUserEdgeIndex} + face.numUserEdges &&
                                                        e < static_cast<std::int64_t>(m.edges.size());
             ++e)
            user_owner[e] = static_cast<std::int32_t>(f);
    }
    // User edges: from the owning face's centre to the opposite face's centre (the direction a
    // character takes them); an edge whose ends are not both known is drawn as its a -> b.
    const std::size_t V = m.vertices.size();
    for (std::size_t e = fromsoft::regular_edge_count(m); e < m.edges.size(); ++e) {
        const fromsoft::Edge& d = m.edges[e];
        SceneLine line;
        line.face = user_owner[e];
        line.target_face = d.oppositeFace < static_cast<std::uint32_t>(F) ? static_cast<std::int32_t>(d.oppositeFace) : -1;
        line.flags = d.flags;
        line.edge = static_cast<std::int32_t>(e);
        line.directed = true;
        const bool ends_known = d.a >= 0 && d.b >= 0 && static_cast<std::size_t>(d.a) < V && static_cast<std::size_t>(d.b) < V;
        if (line.face >= 0 && line.target_face >= 0 && out.corner_count(line.face) > 0 &&
            out.corner_count(line.target_face) > 0) {
            line.from = centroid(out, line.face);
            line.to = centroid(out, line.target_face);
        } else if (ends_known) {
            line.from = out.vertices[d.a];
            line.to = out.vertices[d.b];
        } else {
            continue;
        }
        out.lines.push_back(line);
    }
    out.leaf_boxes = leaf_boxes(t.model);
    return out;
}

}  // namespace

Point3 scene_point(Family family, double x, double y, double z) {
    // Far Cry 2 and IGI are z-up; glTF (and the viewer) are y-up: (x, y, z) -> (x, z, -y).
    const double scale = family == Family::Igi ? 1.0 / kIgiUnitsPerMetre : 1.0;
    if (family == Family::FromSoft) return {static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)};
    return {static_cast<float>(x * scale), static_cast<float>(z * scale), static_cast<float>(-y * scale)};
}

const char* family_name(Family family) {
    switch (family) {
        case Family::FromSoft: return "fromsoft";
        case Family::FarCry2: return "farcry2";
        case Family::Igi: return "igi";
    }
    return "?";
}

std::size_t Scene::face_count() const {
    std::size_t n = 0;
    for (const auto& m : members) n += m.face_count();
    return n;
}

std::size_t Scene::line_count() const {
    std::size_t n = 0;
    for (const auto& m : members) n += m.lines.size();
    return n;
}

Scene fromsoft_scene(std::span<const NamedTagfile> tagfiles, const std::string& source) {
    Scene scene;
    scene.family = Family::FromSoft;
    scene.source = source;
    for (const auto& t : tagfiles) scene.members.push_back(fromsoft_member(t));
    scene.skipped = faces_left_out(tagfiles, source);
    return scene;
}

Scene farcry2_scene(const farcry2::WorldMesh& mesh, const std::string& source) {
    Scene scene;
    scene.family = Family::FarCry2;
    scene.source = source;
    // Global triangle -> (member, local face), to resolve links.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> where(mesh.triangles.size());
    for (std::size_t s = 0; s < mesh.sectors.size(); ++s)
        for (std::uint32_t t = 0; t < mesh.sectors[s].triangle_count; ++t)
            where[mesh.sectors[s].first_triangle + t] = {static_cast<std::uint32_t>(s), t};
    for (const auto& range : mesh.sectors) {
        SceneMember m;
        m.name = fmt::format("sector_{}", range.sector);
        m.sector = range.sector;
        for (std::uint32_t v = 0; v < range.vertex_count; ++v) {
            const auto& p = mesh.vertices[range.first_vertex + v];
            m.vertices.push_back(scene_point(Family::FarCry2, p.x, p.y, p.z));
        }
        scene.members.push_back(std::move(m));
    }
    for (std::size_t s = 0; s < mesh.sectors.size(); ++s) {
        const auto& range = mesh.sectors[s];
        SceneMember& m = scene.members[s];
        for (std::uint32_t t = 0; t < range.triangle_count; ++t) {
            const std::uint32_t g = range.first_triangle + t;
            const std::uint32_t first = mesh.neighbour_first[g], count = mesh.neighbour_first[g + 1] - first;
            for (int k = 0; k < 3; ++k) {
                m.corners.push_back(mesh.triangles[g][k] - range.first_vertex);
                m.corner_flags.push_back(0);
                // Spec: link k shares edge k in retail files; other layouts give no per-edge opposite.
                const std::int64_t n = count == 3 ? mesh.neighbours[first + k] : farcry2::WorldMesh::kNoNeighbour;
                m.corner_opposite.push_back(n >= 0 && where[n].first == s ? static_cast<std::int32_t>(where[n].second) : -1);
            }
            m.face_start.push_back(static_cast<std::uint32_t>(m.corners.size()));
            m.face_data.push_back(0);
            m.cluster.push_back(-1);
            m.triangles.push_back({m.corners[3 * t], m.corners[3 * t + 1], m.corners[3 * t + 2]});
            m.triangle_face.push_back(t);
        }
    }
    // Cross-sector links, once per pair (from the lower global triangle), centroid to centroid.
    for (std::size_t s = 0; s < mesh.sectors.size(); ++s) {
        const auto& range = mesh.sectors[s];
        for (std::uint32_t t = 0; t < range.triangle_count; ++t) {
            const std::uint32_t g = range.first_triangle + t;
            for (std::uint32_t k = mesh.neighbour_first[g]; k < mesh.neighbour_first[g + 1]; ++k) {
                const std::int64_t n = mesh.neighbours[k];
                if (n < 0 || where[n].first == s || n < g) continue;
                SceneLine line;
                line.from = centroid(scene.members[s], t);
                line.to = centroid(scene.members[where[n].first], where[n].second);
                line.face = static_cast<std::int32_t>(t);
                line.target_face = static_cast<std::int32_t>(where[n].second);
                scene.members[s].lines.push_back(line);
            }
        }
    }
    return scene;
}

Scene igi_scene(const igi::Graph& graph, const std::string& source) {
    Scene scene;
    scene.family = Family::Igi;
    scene.source = source;
    SceneMember m;
    m.name = std::filesystem::path(source).filename().string();
    std::vector<std::int32_t> vertex_of(static_cast<std::size_t>(std::max(graph.max_nodes, 0)), -1);
    for (const igi::Node& node : graph.nodes) {
        if (node.id >= 0 && node.id < graph.max_nodes) vertex_of[node.id] = static_cast<std::int32_t>(m.vertices.size());
        m.points.push_back(static_cast<std::uint32_t>(m.vertices.size()));
        m.point_ids.push_back(node.id);
        m.vertices.push_back(scene_point(Family::Igi, node.position.x, node.position.y, node.position.z));
    }
    for (std::size_t i = 0; i < graph.links.size(); ++i) {
        const igi::Link& link = graph.links[i];
        if (link.id1 < 0 || link.id2 < 0 || link.id1 >= graph.max_nodes || link.id2 >= graph.max_nodes) continue;
        const std::int32_t a = vertex_of[link.id1], b = vertex_of[link.id2];
        if (a < 0 || b < 0) continue;
        SceneLine line;
        line.from = m.vertices[a];
        line.to = m.vertices[b];
        line.flags = static_cast<std::uint32_t>(link.type);
        line.edge = static_cast<std::int32_t>(i);
        line.face = link.id1;
        line.target_face = link.id2;
        m.lines.push_back(line);
    }
    scene.members.push_back(std::move(m));
    scene.max_nodes = graph.max_nodes;
    if (!graph.routes.empty()) {
        const auto n = static_cast<std::size_t>(graph.max_nodes);
        scene.next_hop.assign(n * n, -1);
        for (std::size_t from = 0; from < n; ++from)
            for (std::size_t to = 0; to < n; ++to)
                scene.next_hop[from * n + to] =
                    graph.routes[graph.route_index(static_cast<std::int32_t>(from), static_cast<std::int32_t>(to))].next;
    }
    return scene;
}

std::vector<NamedTagfile> load_fromsoft_tagfiles(const fromsoft::NavFile& nav, const std::string& entry) {
    std::vector<NamedTagfile> tagfiles;
    try {
        const fromsoft::NavFile chosen = nav.select(entry);
        for (const fromsoft::NavEntry& e : chosen.entries()) {
            tagfiles.push_back({std::string(leaf_name(e.name)), e.in_binder ? nav.name() : std::string(),
                                container::read_entry(fromsoft::container_entry(e),
                                                      [](const SharedBytes& b) { return fromsoft::read_nav_tagfile(b); })});
        }
    } catch (Error& e) {
        throw e.set_file(nav.name());
    }
    return tagfiles;
}

std::vector<NamedTagfile> load_fromsoft_tagfiles(const std::string& input, const std::string& entry) {
    return load_fromsoft_tagfiles(fromsoft::NavFile::open(input), entry);
}

Scene load_scene(const std::string& input, const std::string& entry, const fromsoft::SourceOptions& source) {
    if (fromsoft::is_binder_source(input, source)) {
        const fromsoft::NavFile nav = fromsoft::open_one_binder(input, source);
        return fromsoft_scene(load_fromsoft_tagfiles(nav, entry), nav.name());
    }
    switch (family_of(input)) {
        case Family::FarCry2: {
            farcry2::World world = load_far_cry_2_input(input);
            if (!world.complete && world.sectors.empty() && !world.failures.empty())
                throw Error(world.failures.front().message).set_file(world.failures.front().file);
            Scene scene = farcry2_scene(farcry2::stitch(world, farcry2::parse_sector_entry(entry)), input);
            for (const auto& f : world.failures) scene.skipped.push_back(finding_text(f));
            return scene;
        }
        case Family::Igi: return igi_scene(igi::read_graph_file(input), input);
        case Family::FromSoft: break;
    }
    return fromsoft_scene(load_fromsoft_tagfiles(input, entry), input);
}

}  // namespace navlab::exporter
