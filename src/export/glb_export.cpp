#include "export/glb_export.h"

// tinygltf compiled into this file from Debian's header (its primary form), not linked as
// libtinygltf.so: that library and the stb one it needs cost every navlab process about
// 1.5 ms of its start (docs/export.md, "GLB"). Images are never written, so stb is left out.
// The namespace is renamed so that a program that also links Debian's libtinygltf (the export
// tests read the GLB back with it, as an independent reader) keeps the two apart.
#ifdef TINY_GLTF_H_
#error "tiny_gltf.h was included before glb_export.cpp renamed its namespace"
#endif
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#define tinygltf navlab_tinygltf
#include <tiny_gltf.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <sstream>

#include "io/error.h"
#include "io/text.h"
#include "io/version.h"

namespace navlab::exporter {
namespace {

/// Builds the one binary buffer and its views/accessors while the model grows.
class GltfBuilder {
public:
    explicit GltfBuilder(tinygltf::Model& model) : model_(model) {}

    /// A tightly packed accessor over `values` (each element `components` values of T).
    template <typename T>
    int add_accessor(const std::vector<T>& values, int component_type, int type, int target,
                     std::size_t components) {
        auto& bytes = buffer_();
        while (bytes.size() % 4 != 0) bytes.push_back(0);  // views and attributes 4-aligned
        tinygltf::BufferView view;
        view.buffer = 0;
        view.byteOffset = bytes.size();
        view.byteLength = values.size() * sizeof(T);
        view.target = target;
        const auto* p = reinterpret_cast<const std::uint8_t*>(values.data());
        bytes.insert(bytes.end(), p, p + view.byteLength);
        model_.bufferViews.push_back(view);
        tinygltf::Accessor a;
        a.bufferView = static_cast<int>(model_.bufferViews.size() - 1);
        a.byteOffset = 0;
        a.componentType = component_type;
        a.type = type;
        a.count = values.size() / components;
        model_.accessors.push_back(a);
        return static_cast<int>(model_.accessors.size() - 1);
    }

    /// POSITION accessor with the min/max the specification requires.
    int add_positions(const std::vector<float>& xyz) {
        int a = add_accessor(xyz, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, TINYGLTF_TARGET_ARRAY_BUFFER, 3);
        std::vector<double> lo(3, std::numeric_limits<double>::infinity()), hi(3, -std::numeric_limits<double>::infinity());
        for (std::size_t i = 0; i < xyz.size(); ++i) {
            lo[i % 3] = std::min<double>(lo[i % 3], xyz[i]);
            hi[i % 3] = std::max<double>(hi[i % 3], xyz[i]);
        }
        model_.accessors[a].minValues = lo;
        model_.accessors[a].maxValues = hi;
        return a;
    }

    /// A scalar float vertex attribute (custom attributes are floats: every glTF tool reads
    /// them, and the values navlab writes are integers below 2^24, exact in float32).
    int add_scalar(const std::vector<float>& values) {
        return add_accessor(values, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR, TINYGLTF_TARGET_ARRAY_BUFFER, 1);
    }

    int add_indices(const std::vector<std::uint32_t>& indices) {
        return add_accessor(indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR,
                            TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER, 1);
    }

private:
    std::vector<unsigned char>& buffer_() {
        if (model_.buffers.empty()) model_.buffers.emplace_back();
        return model_.buffers[0].data;
    }
    tinygltf::Model& model_;
};

void push_point(std::vector<float>& xyz, const Point3& p) { xyz.insert(xyz.end(), p.begin(), p.end()); }

/// faceData words are bit patterns: the low 24 bits go into _FACE_DATA exactly; the high
/// byte into _FACE_DATA_HI (float32 holds integers up to 2^24 exactly).
float low24(std::int32_t word) { return static_cast<float>(static_cast<std::uint32_t>(word) & 0xFFFFFFu); }
float high8(std::int32_t word) { return static_cast<float>(static_cast<std::uint32_t>(word) >> 24); }

/// The TRIANGLES primitive of a member: one vertex per face corner.
tinygltf::Primitive triangle_primitive(GltfBuilder& b, const SceneMember& m) {
    std::vector<float> xyz, face, data, data_hi, cluster, flags;
    std::vector<std::uint32_t> indices;
    std::size_t t = 0;
    for (std::size_t f = 0; f < m.face_count(); ++f) {
        const std::uint32_t first = m.face_start[f], n = m.face_start[f + 1] - first;
        const auto base = static_cast<std::uint32_t>(face.size());
        for (std::uint32_t k = 0; k < n; ++k) {
            push_point(xyz, m.vertices[m.corners[first + k]]);
            face.push_back(static_cast<float>(f));
            data.push_back(low24(m.face_data[f]));
            data_hi.push_back(high8(m.face_data[f]));
            cluster.push_back(static_cast<float>(m.cluster[f]));
            flags.push_back(static_cast<float>(m.corner_flags[first + k]));
        }
        for (; t < m.triangles.size() && m.triangle_face[t] == f; ++t)
            for (std::uint32_t v : m.triangles[t]) {
                // The triangle names vertices; find the corner of this face that holds each.
                std::uint32_t k = 0;
                while (k < n && m.corners[first + k] != v) ++k;
                if (k == n) throw Error("internal: triangle vertex not a corner of its face");
                indices.push_back(base + k);
            }
    }
    tinygltf::Primitive p;
    p.mode = TINYGLTF_MODE_TRIANGLES;
    p.material = 0;
    p.attributes["POSITION"] = b.add_positions(xyz);
    p.attributes["_FACE"] = b.add_scalar(face);
    p.attributes["_FACE_DATA"] = b.add_scalar(data);
    p.attributes["_FACE_DATA_HI"] = b.add_scalar(data_hi);
    p.attributes["_CLUSTER"] = b.add_scalar(cluster);
    p.attributes["_EDGE_FLAGS"] = b.add_scalar(flags);
    p.indices = b.add_indices(indices);
    return p;
}

tinygltf::Primitive line_primitive(GltfBuilder& b, const SceneMember& m) {
    std::vector<float> xyz, edge, flags;
    for (const SceneLine& l : m.lines) {
        push_point(xyz, l.from);
        push_point(xyz, l.to);
        for (int k = 0; k < 2; ++k) {
            edge.push_back(static_cast<float>(l.edge));
            flags.push_back(static_cast<float>(l.flags));
        }
    }
    tinygltf::Primitive p;
    p.mode = TINYGLTF_MODE_LINE;
    p.material = 1;
    p.attributes["POSITION"] = b.add_positions(xyz);
    p.attributes["_EDGE"] = b.add_scalar(edge);
    p.attributes["_FLAGS"] = b.add_scalar(flags);
    return p;
}

tinygltf::Primitive point_primitive(GltfBuilder& b, const SceneMember& m) {
    std::vector<float> xyz, ids;
    for (std::size_t i = 0; i < m.points.size(); ++i) {
        push_point(xyz, m.vertices[m.points[i]]);
        ids.push_back(static_cast<float>(m.point_ids[i]));
    }
    tinygltf::Primitive p;
    p.mode = TINYGLTF_MODE_POINTS;
    p.material = 2;
    p.attributes["POSITION"] = b.add_positions(xyz);
    p.attributes["_NODE_ID"] = b.add_scalar(ids);
    return p;
}

tinygltf::Material material(const std::string& name, std::array<double, 4> rgba) {
    tinygltf::Material m;
    m.name = name;
    m.doubleSided = true;  // navmesh faces are seen from above and below
    m.pbrMetallicRoughness.baseColorFactor = {rgba[0], rgba[1], rgba[2], rgba[3]};
    m.pbrMetallicRoughness.metallicFactor = 0.0;
    return m;
}

}  // namespace

std::vector<std::uint8_t> scene_to_glb(const Scene& scene) {
    tinygltf::Model model;
    model.asset.version = "2.0";
    model.asset.generator = std::string("navlab ") + kVersion;
    tinygltf::Value::Object extras;
    // Names may be file bytes; tinygltf's JSON writer throws on any that are not UTF-8.
    extras["source"] = tinygltf::Value(escape_non_utf8(scene.source));
    extras["navlab_version"] = tinygltf::Value(std::string(kVersion));
    extras["family"] = tinygltf::Value(std::string(family_name(scene.family)));
    extras["units"] = tinygltf::Value(std::string("metres, +y up"));
    model.asset.extras = tinygltf::Value(extras);
    GltfBuilder builder(model);
    tinygltf::Scene root;
    root.name = escape_non_utf8(scene.source);
    bool any_faces = false, any_lines = false, any_points = false;
    for (const SceneMember& m : scene.members) {
        tinygltf::Mesh mesh;
        mesh.name = escape_non_utf8(m.name);
        if (!m.triangles.empty()) mesh.primitives.push_back(triangle_primitive(builder, m)), any_faces = true;
        if (!m.lines.empty()) mesh.primitives.push_back(line_primitive(builder, m)), any_lines = true;
        if (!m.points.empty()) mesh.primitives.push_back(point_primitive(builder, m)), any_points = true;
        tinygltf::Node node;
        node.name = mesh.name;
        tinygltf::Value::Object node_extras;
        node_extras["faces"] = tinygltf::Value(static_cast<int>(m.face_count()));
        if (m.sector >= 0) node_extras["sector"] = tinygltf::Value(m.sector);
        node.extras = tinygltf::Value(node_extras);
        if (!mesh.primitives.empty()) {
            model.meshes.push_back(std::move(mesh));
            node.mesh = static_cast<int>(model.meshes.size() - 1);
        }
        model.nodes.push_back(std::move(node));
        root.nodes.push_back(static_cast<int>(model.nodes.size() - 1));
    }
    // Only the materials some primitive uses (the validator reports unused objects).
    const std::array<std::pair<bool, tinygltf::Material>, 3> kinds = {
        std::pair{any_faces, material("faces", {0.55, 0.7, 0.85, 1})},
        std::pair{any_lines, material("lines", {1, 0.45, 0.1, 1})},
        std::pair{any_points, material("points", {0.9, 0.2, 0.2, 1})}};
    std::array<int, 3> index{};
    for (std::size_t k = 0; k < kinds.size(); ++k)
        if (kinds[k].first) index[k] = static_cast<int>(model.materials.size()), model.materials.push_back(kinds[k].second);
    for (auto& mesh : model.meshes)
        for (auto& p : mesh.primitives) p.material = index[p.material];
    model.scenes.push_back(root);
    model.defaultScene = 0;
    if (!model.buffers.empty()) model.buffers[0].name = "navlab";
    std::ostringstream out;
    tinygltf::TinyGLTF gltf;
    if (!gltf.WriteGltfSceneToStream(&model, out, false, true)) throw Error("tinygltf could not write the GLB");
    const std::string s = out.str();
    return {s.begin(), s.end()};
}

}  // namespace navlab::exporter
