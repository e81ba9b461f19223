// libnavlab_assimp_reader.so: one geometry file through Assimp into a triangle soup in
// navlab's axes and scale (reader_abi.h). Loaded by build/geometry_in.cpp with dlopen inside
// its child process; no other part of the library links Assimp (two test programs do, to write
// and read files independently).
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
#include <type_traits>
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

/// The file's triangles: coordinates (x, y, z per vertex, navlab's axes and scale) and corners.
struct Soup {
    std::vector<float> verts;
    std::vector<std::int32_t> tris;
};

Soup read_with_assimp(const char* path, char up, float scale) {
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
    Soup soup;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const aiMesh& mesh = *scene->mMeshes[m];
        const auto base = static_cast<std::int32_t>(soup.verts.size() / 3);
        for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
            const aiVector3D& p = mesh.mVertices[v];
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
                throw Refusal{fmt::format("coordinate is not finite ({}, {}, {})", p.x, p.y, p.z),
                              fmt::format("{}: {}: vertex {}", path, mesh_label(mesh, m), v)};
            const float x = p.x, y = up == 'z' ? p.z : p.y, z = up == 'z' ? -p.y : p.z;
            soup.verts.insert(soup.verts.end(), {x * scale, y * scale, z * scale});
        }
        for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
            const aiFace& face = mesh.mFaces[f];
            if (face.mNumIndices != 3)
                throw Refusal{fmt::format("face has {} corner(s): only polygons can be walked on", face.mNumIndices),
                              fmt::format("{}: {}: face {}", path, mesh_label(mesh, m), f)};
            for (unsigned k = 0; k < 3; ++k) soup.tris.push_back(base + static_cast<std::int32_t>(face.mIndices[k]));
        }
    }
    return soup;  // the importer frees the scene here, before the answer is allocated
}

/// The answer's bytes as reader_abi.h lays them out, in memory from malloc.
void answer_bytes(const Soup& soup, NavlabReadAnswer* answer) {
    const std::uint64_t counts[2] = {soup.verts.size(), soup.tris.size()};
    const std::size_t size =
        sizeof counts + soup.verts.size() * sizeof(float) + soup.tris.size() * sizeof(std::int32_t);
    auto* p = static_cast<unsigned char*>(std::malloc(size));
    if (!p) throw std::bad_alloc();
    answer->bytes = p;
    answer->size = size;
    std::memcpy(p, counts, sizeof counts), p += sizeof counts;
    if (!soup.verts.empty()) std::memcpy(p, soup.verts.data(), soup.verts.size() * sizeof(float));
    p += soup.verts.size() * sizeof(float);
    if (!soup.tris.empty()) std::memcpy(p, soup.tris.data(), soup.tris.size() * sizeof(std::int32_t));
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
        answer_bytes(read_with_assimp(path, up, scale), answer);
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

// The entry point has the type the caller casts dlsym's answer to.
static_assert(std::is_same_v<decltype(&navlab_assimp_read_v1), NavlabAssimpRead>);
