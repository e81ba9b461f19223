#include "build/geometry_in.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <string_view>
#include <fmt/format.h>

#include "io/error.h"
#include "io/isolated.h"

namespace navlab::build {
namespace {

std::string mesh_label(const aiMesh& mesh, unsigned index) {
    return mesh.mName.length > 0 ? fmt::format("mesh {} ('{}')", index, mesh.mName.C_Str()) : fmt::format("mesh {}", index);
}

/// Assimp's OBJ reader turns "nan" into 0 without a word: check the vertex lines first.
void check_obj_numbers(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    int vertex = 0;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.size() < 2 || line[0] != 'v' || (line[1] != ' ' && line[1] != '\t')) continue;
        std::istringstream words(line.substr(2));
        std::string word;
        for (int k = 0; k < 3 && words >> word; ++k) {
            char* end = nullptr;
            const double v = std::strtod(word.c_str(), &end);
            if (*end != '\0' || !std::isfinite(v))
                throw Error(fmt::format("coordinate '{}' is not a finite number", word), kNoOffset,
                            fmt::format("{}: line {}: vertex {}", file.string(), number, vertex));
        }
        ++vertex;
    }
}

/// One file read by Assimp into a soup of its own (node transforms applied, polygons
/// triangulated), in navlab's axes and scale.
TriangleSoup read_with_assimp(const std::filesystem::path& file, const GeometryOptions& options) {
    Assimp::Importer importer;
    // The scene validated first (indices in range, counts consistent: a damaged PLY whose face
    // indices run past its vertices crashed the later steps), node transforms baked in,
    // polygons triangulated, exact duplicates joined. Not aiProcess_FindDegenerates: it would
    // turn bad faces into lines silently.
    const aiScene* scene = importer.ReadFile(file.string(), aiProcess_ValidateDataStructure | aiProcess_Triangulate |
                                                                 aiProcess_PreTransformVertices |
                                                                 aiProcess_JoinIdenticalVertices);
    if (!scene || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE)) {
        // Assimp catches std::bad_alloc itself; raised again, the child reports its memory limit.
        if (std::string_view(importer.GetErrorString()).ends_with("bad_alloc")) throw std::bad_alloc();
        throw Error(std::string("cannot read the geometry: ") + importer.GetErrorString(), kNoOffset, file.string());
    }
    TriangleSoup soup;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const aiMesh& mesh = *scene->mMeshes[m];
        const int base = static_cast<int>(soup.verts.size() / 3);
        for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
            const aiVector3D& p = mesh.mVertices[v];
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
                throw Error(fmt::format("coordinate is not finite ({}, {}, {})", p.x, p.y, p.z), kNoOffset,
                            fmt::format("{}: {}: vertex {}", file.string(), mesh_label(mesh, m), v));
            const float x = p.x, y = options.up == 'z' ? p.z : p.y, z = options.up == 'z' ? -p.y : p.z;
            soup.verts.insert(soup.verts.end(), {x * options.scale, y * options.scale, z * options.scale});
        }
        for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
            const aiFace& face = mesh.mFaces[f];
            if (face.mNumIndices != 3)
                throw Error(fmt::format("face has {} corner(s): only polygons can be walked on", face.mNumIndices),
                            kNoOffset, fmt::format("{}: {}: face {}", file.string(), mesh_label(mesh, m), f));
            for (unsigned k = 0; k < 3; ++k) soup.tris.push_back(base + static_cast<int>(face.mIndices[k]));
        }
    }
    return soup;
}

/// The soup as bytes for the trip from the child process: counts, then the arrays as they lie.
std::vector<std::uint8_t> soup_bytes(const TriangleSoup& soup) {
    const std::uint64_t counts[2] = {soup.verts.size(), soup.tris.size()};
    std::vector<std::uint8_t> out(sizeof counts + soup.verts.size() * sizeof(float) + soup.tris.size() * sizeof(int));
    std::uint8_t* p = out.data();
    std::memcpy(p, counts, sizeof counts), p += sizeof counts;
    if (!soup.verts.empty()) std::memcpy(p, soup.verts.data(), soup.verts.size() * sizeof(float));
    p += soup.verts.size() * sizeof(float);
    if (!soup.tris.empty()) std::memcpy(p, soup.tris.data(), soup.tris.size() * sizeof(int));
    return out;
}

/// soup_bytes read back, every count checked against the bytes there are (errors name `file`).
TriangleSoup soup_from_bytes(const std::vector<std::uint8_t>& in, const std::filesystem::path& file) {
    std::uint64_t counts[2] = {0, 0};
    if (in.size() < sizeof counts) throw Error("the geometry reader's answer is cut short", kNoOffset, file.string());
    std::memcpy(counts, in.data(), sizeof counts);
    const std::uint64_t room = (in.size() - sizeof counts);
    if (counts[0] > room / sizeof(float) || counts[1] > room / sizeof(int) ||
        counts[0] * sizeof(float) + counts[1] * sizeof(int) != room || counts[0] % 3 || counts[1] % 3)
        throw Error("the geometry reader's answer does not add up", kNoOffset, file.string());
    TriangleSoup soup;
    soup.verts.resize(counts[0]);
    soup.tris.resize(counts[1]);
    const std::uint8_t* p = in.data() + sizeof counts;
    if (counts[0]) std::memcpy(soup.verts.data(), p, counts[0] * sizeof(float));
    if (counts[1]) std::memcpy(soup.tris.data(), p + counts[0] * sizeof(float), counts[1] * sizeof(int));
    return soup;
}

/// Appends one file's triangles to `out`; returns how many. Assimp runs in a child process:
/// some of its readers crash or spin forever on damaged files (docs/build.md, "Damaged
/// geometry"), which then ends as an error naming the file, not as navlab's own crash or hang.
int append_file(const std::filesystem::path& file, const GeometryOptions& options, TriangleSoup& out) {
    std::string ext = file.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".obj") check_obj_numbers(file);
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    const std::uint64_t megabytes = ec ? 0 : size >> 20;
    IsolationLimits limits;
    limits.cpu_seconds = options.reader_cpu_seconds ? options.reader_cpu_seconds : 30 + 5 * megabytes;
    limits.extra_memory = (std::uint64_t{2} << 30) + 64 * (ec ? 0 : static_cast<std::uint64_t>(size));
    const TriangleSoup part = soup_from_bytes(run_isolated([&] { return soup_bytes(read_with_assimp(file, options)); },
                                                           limits, file.string() + ": the geometry reader (Assimp)"),
                                              file);
    const int base = out.vertex_count();
    const int vertices = static_cast<int>(part.verts.size() / 3);
    for (int index : part.tris)
        if (index < 0 || index >= vertices)
            throw Error("the geometry reader's answer has a corner out of range", kNoOffset, file.string());
    out.verts.insert(out.verts.end(), part.verts.begin(), part.verts.end());
    for (int index : part.tris) out.tris.push_back(base + index);
    return part.triangle_count();
}

}  // namespace

LoadedGeometry load_geometry(const std::vector<std::filesystem::path>& files, const GeometryOptions& options) {
    if (options.up != 'y' && options.up != 'z') throw Error("--up must be y or z");
    if (!(options.scale > 0) || !std::isfinite(options.scale)) throw Error("--scale must be a positive number");
    if (files.empty()) throw Error("no geometry file given");
    LoadedGeometry g;
    for (const auto& file : files) g.triangles_per_file.push_back(append_file(file, options, g.soup));
    if (g.soup.triangle_count() == 0) {
        std::string names;
        for (const auto& f : files) names += (names.empty() ? "" : ", ") + f.string();
        throw Error("the scene has no triangle", kNoOffset, names);
    }
    g.min = g.max = {g.soup.verts[0], g.soup.verts[1], g.soup.verts[2]};
    for (std::size_t i = 0; i < g.soup.verts.size(); ++i) {
        const float v = g.soup.verts[i];
        // A scaled coordinate can overflow to infinity even when the file's was finite.
        if (!std::isfinite(v))
            throw Error("coordinate is not finite after --scale", kNoOffset, fmt::format("merged vertex {}", i / 3));
        g.min[i % 3] = std::min(g.min[i % 3], v);
        g.max[i % 3] = std::max(g.max[i % 3], v);
    }
    return g;
}

}  // namespace navlab::build
