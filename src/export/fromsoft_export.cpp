#include "export/fromsoft_export.h"

#include <fmt/format.h>

#include <set>

#include "geometry/face_plane.h"
#include "geometry/face_ring.h"
#include "geometry/triangulate.h"

namespace navlab::exporter {
namespace {

/// Owner face of each user edge (−1 when no face claims it).
std::vector<std::int32_t> user_edge_owners(const fromsoft::NavMesh& m, std::size_t first_user) {
    std::vector<std::int32_t> owner(m.edges.size() > first_user ? m.edges.size() - first_user : 0, -1);
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
        const auto& face = m.faces[f];
        for (std::int64_t e = face.startUserEdgeIndex; face.numUserEdges > 0 && e < face.startUserEdgeIndex + face.numUserEdges; ++e)
            if (e >= static_cast<std::int64_t>(first_user) && e < static_cast<std::int64_t>(m.edges.size()))
                owner[e - first_user] = static_cast<std::int32_t>(f);
    }
    return owner;
}

std::size_t regular_edges(const fromsoft::NavMesh& m) {
    std::size_t r = 0;
    for (const auto& f : m.faces) r += f.numEdges > 0 ? static_cast<std::size_t>(f.numEdges) : 0;
    return std::min(r, m.edges.size());
}

/// OBJ group names must be unique and free of spaces.
std::vector<std::string> group_names(std::span<const NamedTagfile> tagfiles) {
    std::vector<std::string> names;
    std::set<std::string> used;
    for (const auto& t : tagfiles) {
        std::string base = t.name;
        if (auto dot = base.rfind('.'); dot != std::string::npos && dot > 0) base = base.substr(0, dot);
        for (char& c : base)
            if (c == ' ' || c == '\t') c = '_';
        std::string name = base;
        for (int k = 2; !used.insert(name).second; ++k) name = fmt::format("{}_{}", base, k);
        names.push_back(name);
    }
    return names;
}

}  // namespace

std::vector<std::array<std::int32_t, 3>> face_triangles(const fromsoft::NavMesh& mesh, std::size_t face) {
    geometry::FaceRing ring;
    if (geometry::read_face_ring(mesh, face, ring) != geometry::RingStatus::Ok) return {};
    geometry::FacePlane plane(ring.corners);
    geometry::Triangulation t = geometry::triangulate_newell(plane);
    std::vector<std::array<std::int32_t, 3>> out;
    for (const geometry::Cut& c : t.triangles) out.push_back({ring.vertices[c[0]], ring.vertices[c[1]], ring.vertices[c[2]]});
    return out;
}

std::string fromsoft_obj(std::span<const NamedTagfile> tagfiles) {
    std::string out = "# navlab export: FromSoftware navmesh (Havok units: metres, +y up)\n";
    std::vector<std::string> names = group_names(tagfiles);
    std::size_t base = 1;  // OBJ indices are 1-based over the whole file
    for (std::size_t t = 0; t < tagfiles.size(); ++t) {
        const auto& m = tagfiles[t].model.mesh;
        out += fmt::format("g {}\n", names[t]);
        for (const auto& v : m.vertices) out += fmt::format("v {} {} {}\n", v.x, v.y, v.z);
        for (std::size_t f = 0; f < m.faces.size(); ++f)
            for (const auto& tri : face_triangles(m, f))
                out += fmt::format("f {} {} {}\n", base + tri[0], base + tri[1], base + tri[2]);
        std::size_t R = regular_edges(m);
        for (std::size_t e = R; e < m.edges.size(); ++e) {
            const auto& d = m.edges[e];
            if (d.a < 0 || d.b < 0 || static_cast<std::size_t>(d.a) >= m.vertices.size() ||
                static_cast<std::size_t>(d.b) >= m.vertices.size())
                continue;
            out += fmt::format("l {} {}\n", base + d.a, base + d.b);
        }
        base += m.vertices.size();
    }
    return out;
}

nlohmann::ordered_json fromsoft_json(std::span<const NamedTagfile> tagfiles) {
    using json = nlohmann::ordered_json;
    json j;
    j["format"] = "navlab-navmesh/1";
    json list = json::array();
    for (const auto& t : tagfiles) {
        const auto& m = t.model.mesh;
        json tj;
        tj["name"] = t.name;
        tj["binder"] = t.binder.empty() ? json(nullptr) : json(t.binder);
        tj["sdk"] = t.model.sdk_version;
        json vertices = json::array();
        for (const auto& v : m.vertices) vertices.push_back({v.x, v.y, v.z});
        tj["vertices"] = vertices;
        json faces = json::array();
        for (std::size_t f = 0; f < m.faces.size(); ++f) {
            geometry::FaceRing ring;
            geometry::read_face_ring(m, f, ring);
            json fj;
            fj["index"] = f;
            fj["vertices"] = ring.vertices;
            fj["cluster"] = m.faces[f].clusterIndex;
            fj["faceData"] = f * m.faceDataStriding < m.faceData.size() && m.faceDataStriding > 0
                                 ? json(static_cast<std::uint32_t>(m.faceData[f * m.faceDataStriding]))
                                 : json(nullptr);
            fj["triangles"] = face_triangles(m, f);
            faces.push_back(fj);
        }
        tj["faces"] = faces;
        std::size_t R = regular_edges(m);
        std::vector<std::int32_t> owner = user_edge_owners(m, R);
        json users = json::array();
        for (std::size_t e = R; e < m.edges.size(); ++e) {
            const auto& d = m.edges[e];
            json uj;
            uj["edge"] = e;
            uj["face"] = owner[e - R];
            uj["a"] = d.a;
            uj["b"] = d.b;
            uj["flags"] = d.flags;
            uj["edgeData"] = e < m.edgeData.size() && m.edgeDataStriding == 1 ? json(static_cast<std::uint32_t>(m.edgeData[e]))
                                                                              : json(nullptr);
            uj["opposite_edge"] = d.oppositeEdge == fromsoft::kNoOpposite ? json(nullptr) : json(d.oppositeEdge);
            uj["opposite_face"] = d.oppositeFace == fromsoft::kNoOpposite ? json(nullptr) : json(d.oppositeFace);
            users.push_back(uj);
        }
        tj["user_edges"] = users;
        list.push_back(tj);
    }
    j["tagfiles"] = list;
    return j;
}

}  // namespace navlab::exporter
