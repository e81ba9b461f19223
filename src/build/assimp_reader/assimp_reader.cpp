// libnavlab_assimp_reader.so: one geometry file through Assimp into a triangle soup in
// navlab's axes and scale (reader_abi.h). Loaded by build/geometry_in.cpp with dlopen inside
// its child process; nothing else in navlab links Assimp.
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>
#include <fmt/format.h>

#include "build/assimp_reader/reader_abi.h"

namespace {

/// A refusal: what, and the element it names (empty: the file).
struct Refusal {
    std::string message, where;
};

std::string mesh_label(const aiMesh& mesh, unsigned index) {
    return mesh.mName.length > 0 ? fmt::format("mesh {} ('{}')", index, mesh.mName.C_Str()) : fmt::format("mesh {}", index);
}

/// The file's triangles as reader_abi.h lays them out: counts, coordinates, corners.
std::vector<unsigned char> read_with_assimp(const char* path, char up, float scale) {
    Assimp::Importer importer;
    // The scene validated first (indices in range, counts consistent: a damaged PLY whose face
    // indices run past its vertices crashed the later steps), node transforms baked in,
    // polygons triangulated, exact duplicates joined. Not aiProcess_FindDegenerates: it would
    // turn bad faces into lines silently.
    const aiScene* scene = importer.ReadFile(path, aiProcess_ValidateDataStructure | aiProcess_Triangulate |
                                                       aiProcess_PreTransformVertices | aiProcess_JoinIdenticalVertices);
    if (!scene || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE)) {
        // Assimp catches std::bad_alloc itself; raised again, the caller reports its memory limit.
        if (std::string_view(importer.GetErrorString()).ends_with("bad_alloc")) throw std::bad_alloc();
        throw Refusal{std::string("cannot read the geometry: ") + importer.GetErrorString(), ""};
    }
    std::vector<float> verts;
    std::vector<std::int32_t> tris;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const aiMesh& mesh = *scene->mMeshes[m];
        const auto base = static_cast<std::int32_t>(verts.size() / 3);
        for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
            const aiVector3D& p = mesh.mVertices[v];
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
                throw Refusal{fmt::format("coordinate is not finite ({}, {}, {})", p.x, p.y, p.z),
                              fmt::format("{}: {}: vertex {}", path, mesh_label(mesh, m), v)};
            const float x = p.x, y = up == 'z' ? p.z : p.y, z = up == 'z' ? -p.y : p.z;
            verts.insert(verts.end(), {x * scale, y * scale, z * scale});
        }
        for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
            const aiFace& face = mesh.mFaces[f];
            if (face.mNumIndices != 3)
                throw Refusal{fmt::format("face has {} corner(s): only polygons can be walked on", face.mNumIndices),
                              fmt::format("{}: {}: face {}", path, mesh_label(mesh, m), f)};
            for (unsigned k = 0; k < 3; ++k) tris.push_back(base + static_cast<std::int32_t>(face.mIndices[k]));
        }
    }
    const std::uint64_t counts[2] = {verts.size(), tris.size()};
    std::vector<unsigned char> out(sizeof counts + verts.size() * sizeof(float) + tris.size() * sizeof(std::int32_t));
    unsigned char* p = out.data();
    std::memcpy(p, counts, sizeof counts), p += sizeof counts;
    if (!verts.empty()) std::memcpy(p, verts.data(), verts.size() * sizeof(float));
    p += verts.size() * sizeof(float);
    if (!tris.empty()) std::memcpy(p, tris.data(), tris.size() * sizeof(std::int32_t));
    return out;
}

/// A malloc'd copy of `text` (null when it is empty or there is no memory).
char* c_copy(const std::string& text) {
    if (text.empty()) return nullptr;
    char* out = static_cast<char*>(std::malloc(text.size() + 1));
    if (out) std::memcpy(out, text.c_str(), text.size() + 1);
    return out;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void navlab_assimp_read_v1(const char* path, char up, float scale,
                                                                              NavlabReadAnswer* answer) {
    *answer = NavlabReadAnswer{kNavlabReadFailed, nullptr, 0, nullptr, nullptr};
    try {
        const std::vector<unsigned char> bytes = read_with_assimp(path, up, scale);
        answer->bytes = static_cast<unsigned char*>(std::malloc(bytes.empty() ? 1 : bytes.size()));
        if (!answer->bytes) throw std::bad_alloc();
        std::memcpy(answer->bytes, bytes.data(), bytes.size());
        answer->size = bytes.size();
        answer->status = kNavlabReadOk;
    } catch (const Refusal& r) {
        answer->message = c_copy(r.message);
        answer->where = c_copy(r.where);
    } catch (const std::bad_alloc&) {
        answer->status = kNavlabReadOutOfMemory;
    } catch (const std::exception& e) {
        answer->message = c_copy(std::string("the geometry reader failed: ") + e.what());
    } catch (...) {
        answer->message = c_copy("the geometry reader failed");
    }
}
