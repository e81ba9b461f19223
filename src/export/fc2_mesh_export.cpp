#include "export/fc2_mesh_export.h"

#include <fmt/format.h>

namespace navlab::farcry2 {

std::string to_obj(const WorldMesh& mesh) {
    std::string out = fmt::format("# navlab: Far Cry 2 navmesh, {} sectors, {} triangles, world metres, z up\n",
                                  mesh.sectors.size(), mesh.triangles.size());
    out.reserve(out.size() + mesh.vertices.size() * 32 + mesh.triangles.size() * 24);
    for (const Vec3& v : mesh.vertices) fmt::format_to(std::back_inserter(out), "v {} {} {}\n", v.x, v.y, v.z);
    for (const auto& range : mesh.sectors) {
        fmt::format_to(std::back_inserter(out), "g sector_{}\n", range.sector);
        for (std::uint32_t t = range.first_triangle; t < range.first_triangle + range.triangle_count; ++t) {
            const auto& tri = mesh.triangles[t];
            fmt::format_to(std::back_inserter(out), "f {} {} {}\n", tri[0] + 1, tri[1] + 1, tri[2] + 1);
        }
    }
    return out;
}

nlohmann::json to_json(const WorldMesh& mesh) {
    using nlohmann::json;
    json sectors = json::array();
    for (const auto& range : mesh.sectors) {
        json vertices = json::array(), triangles = json::array();
        for (std::uint32_t v = range.first_vertex; v < range.first_vertex + range.vertex_count; ++v)
            vertices.push_back({mesh.vertices[v].x, mesh.vertices[v].y, mesh.vertices[v].z});
        for (std::uint32_t t = range.first_triangle; t < range.first_triangle + range.triangle_count; ++t) {
            json corners = json::array(), neighbours = json::array();
            for (auto v : mesh.triangles[t]) corners.push_back(v - range.first_vertex);
            for (std::uint32_t k = mesh.neighbour_first[t]; k < mesh.neighbour_first[t + 1]; ++k) {
                const std::int64_t n = mesh.neighbours[k];
                if (n == WorldMesh::kNoNeighbour) neighbours.push_back(nullptr);
                else if (n == WorldMesh::kBroken) neighbours.push_back("broken");
                else neighbours.push_back(n);
            }
            triangles.push_back({{"corners", corners}, {"neighbours", neighbours}});
        }
        sectors.push_back({{"id", range.sector},
                           {"row", sector_row(range.sector)},
                           {"column", sector_column(range.sector)},
                           {"first_triangle", range.first_triangle},
                           {"vertices", vertices},
                           {"triangles", triangles}});
    }
    return {{"format", "farcry2-nvm"},
            {"units", "world metres, x east, y north, z up"},
            {"triangle_count", mesh.triangles.size()},
            {"sectors", sectors}};
}

}  // namespace navlab::farcry2
