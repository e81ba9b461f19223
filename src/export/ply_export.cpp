#include "export/ply_export.h"

#include <fmt/format.h>

#include "io/byte_writer.h"
#include "io/error.h"
#include "io/version.h"

namespace navlab::exporter {
namespace {

std::string header(const Scene& scene, std::size_t vertices, std::size_t faces) {
    std::string h = "ply\nformat binary_little_endian 1.0\n";
    h += fmt::format("comment navlab {} ({}) source {}\n", kVersion, family_name(scene.family), scene.source);
    h += "comment units metres, +y up\n";
    for (std::size_t i = 0; i < scene.members.size(); ++i) h += fmt::format("comment member {} {}\n", i, scene.members[i].name);
    h += fmt::format("element vertex {}\n", vertices);
    h += "property float x\nproperty float y\nproperty float z\nproperty int member\n";
    h += fmt::format("element face {}\n", faces);
    h += "property list uchar int vertex_indices\nproperty int member\nproperty int face\n"
         "property int face_data\nproperty short cluster\nproperty uchar corners\n";
    h += "end_header\n";
    return h;
}

}  // namespace

std::vector<std::uint8_t> scene_to_ply(const Scene& scene) {
    std::size_t vertices = 0, faces = 0;
    for (const auto& m : scene.members) {
        vertices += m.vertices.size();
        for (std::size_t f = 0; f < m.face_count(); ++f) {
            const std::size_t n = m.corner_count(f);
            if (n > 255) throw Error(fmt::format("{}: face {} has {} corners; PLY lists hold at most 255", m.name, f, n));
            faces += n > 0;
        }
    }
    ByteWriter out;
    const std::string h = header(scene, vertices, faces);
    out.bytes(std::string_view(h));
    for (std::size_t i = 0; i < scene.members.size(); ++i)
        for (const Point3& v : scene.members[i].vertices) {
            for (float c : v) out.f32(c);
            out.u32(static_cast<std::uint32_t>(i));
        }
    std::uint32_t base = 0;
    for (std::size_t i = 0; i < scene.members.size(); ++i) {
        const SceneMember& m = scene.members[i];
        for (std::size_t f = 0; f < m.face_count(); ++f) {
            const std::size_t n = m.corner_count(f);
            if (n == 0) continue;
            out.u8(static_cast<std::uint8_t>(n));
            for (std::size_t k = 0; k < n; ++k) out.u32(base + m.corners[m.face_start[f] + k]);
            out.u32(static_cast<std::uint32_t>(i));
            out.u32(static_cast<std::uint32_t>(f));
            out.u32(static_cast<std::uint32_t>(m.face_data[f]));
            out.u16(static_cast<std::uint16_t>(static_cast<std::int16_t>(m.cluster[f])));
            out.u8(static_cast<std::uint8_t>(n));
        }
        base += static_cast<std::uint32_t>(m.vertices.size());
    }
    return std::move(out).finish();
}

}  // namespace navlab::exporter
