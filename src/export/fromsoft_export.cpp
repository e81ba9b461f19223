#include "export/fromsoft_export.h"

#include <fmt/format.h>

#include <set>

#include "formats/fromsoft/half.h"
#include "geometry/face_plane.h"
#include "geometry/face_ring.h"
#include "geometry/triangulate.h"
#include "io/text.h"

namespace navlab::exporter {
namespace {

/// Owner face of each user edge (−1 when no face claims it).
std::vector<std::int32_t> user_edge_owners(const fromsoft::NavMesh& m, std::size_t first_user) {
    std::vector<std::int32_t> owner(m.edges.size() > first_user ? m.edges.size() - first_user : 0, -1);
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
        const auto& face = m.faces[f];
        for (std::int64_t e = face.startUserEdgeIndex; face.numUserEdges > 0 && e < std::int64_t{face.startUserEdgeIndex} + face.numUserEdges; ++e)
            if (e >= static_cast<std::int64_t>(first_user) && e < static_cast<std::int64_t>(m.edges.size()))
                owner[e - first_user] = static_cast<std::int32_t>(f);
    }
    return owner;
}

/// Owner face of each regular edge: the face whose [startEdgeIndex, +numEdges) holds it (−1 when none).
std::vector<std::int32_t> regular_edge_owners(const fromsoft::NavMesh& m, std::size_t regular) {
    std::vector<std::int32_t> owner(regular, -1);
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
        const auto& face = m.faces[f];
        for (std::int64_t e = face.startEdgeIndex; e < std::int64_t{face.startEdgeIndex} + face.numEdges; ++e)
            if (e >= 0 && e < static_cast<std::int64_t>(regular)) owner[e] = static_cast<std::int32_t>(f);
    }
    return owner;
}

/// edgeData of edge `e`: one word as a number (striding 1), several as an array, null for none.
nlohmann::ordered_json edge_data_json(const fromsoft::NavMesh& m, std::size_t e) {
    const std::size_t stride = m.edgeDataStriding > 0 ? static_cast<std::size_t>(m.edgeDataStriding) : 0;
    if (stride == 0 || (e + 1) * stride > m.edgeData.size()) return nullptr;
    if (stride == 1) return static_cast<std::uint32_t>(m.edgeData[e]);
    nlohmann::ordered_json words = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < stride; ++k) words.push_back(static_cast<std::uint32_t>(m.edgeData[e * stride + k]));
    return words;
}

/// One edge as the JSON schema states it (docs/export.md).
nlohmann::ordered_json edge_json(const fromsoft::NavMesh& m, std::size_t e, std::int32_t face, bool user) {
    using json = nlohmann::ordered_json;
    const auto& d = m.edges[e];
    json j;
    j["edge"] = e;
    j["face"] = face < 0 ? json(nullptr) : json(face);
    j["user"] = user;
    j["a"] = d.a;
    j["b"] = d.b;
    j["opposite_edge"] = d.oppositeEdge == fromsoft::kNoOpposite ? json(nullptr) : json(d.oppositeEdge);
    j["opposite_face"] = d.oppositeFace == fromsoft::kNoOpposite ? json(nullptr) : json(d.oppositeFace);
    j["flags"] = d.flags;
    j["edgeData"] = edge_data_json(m, e);
    if (user) j["cost"] = fromsoft::half16_to_float(d.userEdgeCost);
    return j;
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

/// Why a face's ring does not read, with the audit rule that reports it (none checks that
/// coordinates are finite).
std::string ring_reason(geometry::RingStatus status, const fromsoft::Face& face) {
    switch (status) {
        case geometry::RingStatus::RangeOutside:
            return face.numEdges < 3 ? fmt::format("numEdges {}, audit rule R23", face.numEdges)
                                     : "its edge range leaves the edges, audit rule R21";
        case geometry::RingStatus::Open: return "its ring does not close, audit rule R33";
        case geometry::RingStatus::VertexOutOfRange: return "a corner is not a vertex, audit rule R27";
        case geometry::RingStatus::NotFinite: return "a corner coordinate is not finite";
        case geometry::RingStatus::Ok: break;
    }
    return "it reads";
}

}  // namespace

std::vector<std::string> faces_left_out(std::span<const NamedTagfile> tagfiles, const std::string& source) {
    std::vector<std::string> lines;
    geometry::FaceRing ring;
    for (const NamedTagfile& t : tagfiles) {
        const fromsoft::NavMesh& m = t.model.mesh;
        std::size_t n = 0, first = 0;
        geometry::RingStatus why = geometry::RingStatus::Ok;
        for (std::size_t f = 0; f < m.faces.size(); ++f) {
            const geometry::RingStatus s = geometry::read_face_ring(m, f, ring);
            if (s == geometry::RingStatus::Ok) continue;
            if (n++ == 0) first = f, why = s;
        }
        if (n == 0) continue;
        lines.push_back(fmt::format("{}: {} of {} faces left out, their rings do not read (face {}: {})",
                                    t.binder.empty() ? source : member_location(t.binder, t.name), n,
                                    m.faces.size(), first, ring_reason(why, m.faces[first])));
    }
    return lines;
}

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
    j["format"] = "navlab-navmesh/2";
    j["version"] = 2;
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
            fj["edges"] = {m.faces[f].startEdgeIndex, m.faces[f].numEdges};
            fj["user_edges"] = {m.faces[f].startUserEdgeIndex, m.faces[f].numUserEdges};
            fj["cluster"] = m.faces[f].clusterIndex;
            fj["faceData"] = f * m.faceDataStriding < m.faceData.size() && m.faceDataStriding > 0
                                 ? json(static_cast<std::uint32_t>(m.faceData[f * m.faceDataStriding]))
                                 : json(nullptr);
            fj["triangles"] = face_triangles(m, f);
            faces.push_back(fj);
        }
        tj["faces"] = faces;
        const std::size_t R = regular_edges(m);
        const std::vector<std::int32_t> owner = regular_edge_owners(m, R);
        const std::vector<std::int32_t> user_owner = user_edge_owners(m, R);
        json edges = json::array(), users = json::array();
        for (std::size_t e = 0; e < m.edges.size(); ++e) {
            const bool user = e >= R;
            json ej = edge_json(m, e, user ? user_owner[e - R] : owner[e], user);
            if (user) users.push_back(ej);
            edges.push_back(std::move(ej));
        }
        tj["edges"] = std::move(edges);
        tj["user_edges"] = users;
        list.push_back(tj);
    }
    j["tagfiles"] = list;
    return j;
}

}  // namespace navlab::exporter
