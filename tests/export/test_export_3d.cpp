// The 3-D exports checked against independent readers: the Khronos glTF validator and
// tinygltf's loader (GLB), a small PLY parser written here from the PLY format (PLY), Detour
// itself (MSET navmesh sets: load, findNearestPoly, findPath), and the model read directly (JSON).
#include <DetourNavMesh.h>
#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <DetourNavMeshQuery.h>
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <tiny_gltf.h>

#include <cstring>
#include <deque>
#include <memory>

#include "export/export_inputs.h"
#include "export/detour_export.h"
#include "export/scene_export.h"
#include "export/fromsoft_export.h"
#include "export/scene.h"
#include "geometry/face_ring.h"
#include "io/byte_reader.h"
#include "support/samples.h"

namespace navlab::test {
namespace {

std::filesystem::path out_dir() {
    static const auto dir = scratch_dir("export-3d");
    return dir;
}

std::string export_to(const std::string& input, const std::string& format, const std::string& name,
                      const std::string& extra = "") {
    const auto path = (out_dir() / name).string();
    run_ok(navlab_binary() + " export " + input + " -f " + format + " -o " + path + extra);
    return path;
}

// ---- JSON ---------------------------------------------------------------------------------

TEST(ExportJson, EveryEdgeWithEndpointsOppositesFlagsAndEdgeData) {
    const auto& in = export_inputs();
    const auto path = export_to(in.er_binder, "json", "er.json");
    const auto j = nlohmann::json::parse(slurp(path));
    EXPECT_EQ(j["format"], "navlab-navmesh/2");
    EXPECT_EQ(j["version"], 2);
    const auto tagfiles = exporter::load_fromsoft_tagfiles(in.er_binder, "");
    ASSERT_EQ(j["tagfiles"].size(), tagfiles.size());
    std::size_t users = 0;
    for (std::size_t t = 0; t < tagfiles.size(); ++t) {
        const auto& m = tagfiles[t].model.mesh;
        const auto& edges = j["tagfiles"][t]["edges"];
        ASSERT_EQ(edges.size(), m.edges.size());
        for (std::size_t f = 0; f < m.faces.size(); ++f)
            for (int k = 0; k < m.faces[f].numEdges; ++k) {
                const auto& e = edges[m.faces[f].startEdgeIndex + k];
                EXPECT_EQ(e["face"], f);
                EXPECT_FALSE(e["user"].get<bool>());
            }
        for (std::size_t e = 0; e < m.edges.size(); ++e) {
            const auto& ej = edges[e];
            const auto& d = m.edges[e];
            EXPECT_EQ(ej["edge"], e);
            EXPECT_EQ(ej["a"], d.a);
            EXPECT_EQ(ej["b"], d.b);
            EXPECT_EQ(ej["flags"], d.flags);
            EXPECT_EQ(ej["edgeData"], static_cast<std::uint32_t>(m.edgeData[e]));
            if (d.oppositeEdge == fromsoft::kNoOpposite) EXPECT_TRUE(ej["opposite_edge"].is_null());
            else EXPECT_EQ(ej["opposite_edge"], d.oppositeEdge);
            if (d.oppositeFace == fromsoft::kNoOpposite) EXPECT_TRUE(ej["opposite_face"].is_null());
            else EXPECT_EQ(ej["opposite_face"], d.oppositeFace);
            users += ej["user"].get<bool>();
        }
        std::size_t user_here = 0;
        for (const auto& e : edges) user_here += e["user"].get<bool>();
        EXPECT_EQ(j["tagfiles"][t]["user_edges"].size(), user_here);
    }
    EXPECT_GT(users, 0u) << "the ER binder chosen should carry user edges";
}

// ---- GLB ----------------------------------------------------------------------------------

/// Runs the Khronos validator on `files`; its output, with the status checked to be 0.
std::string validate(const std::vector<std::string>& files) {
    const auto script = web_tools() / "validate_gltf.js";
    if (!std::filesystem::exists(web_tools() / "node_modules" / "gltf-validator"))
        ADD_FAILURE() << "gltf-validator is not installed: run tools/install-deps.sh (npm ci in tools/web)";
    std::string cmd = "node " + script.string();
    for (const auto& f : files) cmd += " " + f;
    return run_ok(cmd);
}

TEST(ExportGlb, KhronosValidatorFindsNoErrorOrWarningForEveryFamily) {
    const auto& in = export_inputs();
    std::vector<std::string> files = {export_to(in.sekiro_binder, "glb", "sekiro.glb"),
                                      export_to(in.er_binder, "glb", "er.glb"),
                                      export_to(in.fc2_world, "glb", "fc2.glb"),
                                      export_to(in.igi_graph, "glb", "igi.glb"),
                                      export_to(in.er_binder, "glb", "empty.glb", " --entry " + in.empty_entry)};
    const std::string report = validate(files);
    for (const auto& f : files) EXPECT_NE(report.find(f + ": errors 0 warnings 0"), std::string::npos) << report;
}

tinygltf::Model load_glb(const std::string& path) {
    tinygltf::Model model;
    tinygltf::TinyGLTF loader;
    std::string err, warn;
    const std::string bytes = slurp(path);
    EXPECT_TRUE(loader.LoadBinaryFromMemory(&model, &err, &warn, reinterpret_cast<const unsigned char*>(bytes.data()),
                                            static_cast<unsigned>(bytes.size())))
        << err;
    return model;
}

/// Float values of a scalar accessor.
std::vector<float> floats(const tinygltf::Model& m, int accessor) {
    const auto& a = m.accessors[accessor];
    const auto& v = m.bufferViews[a.bufferView];
    std::vector<float> out(a.count);
    std::memcpy(out.data(), m.buffers[v.buffer].data.data() + v.byteOffset + a.byteOffset, a.count * sizeof(float));
    return out;
}

TEST(ExportGlb, NodesAreMembersAndFaceAttributesMatchTheModel) {
    const auto& in = export_inputs();
    const auto tagfiles = exporter::load_fromsoft_tagfiles(in.sekiro_binder, "");
    const auto model = load_glb(export_to(in.sekiro_binder, "glb", "sekiro-read.glb"));
    ASSERT_EQ(model.nodes.size(), tagfiles.size());
    EXPECT_EQ(model.asset.extras.Get("source").Get<std::string>(), in.sekiro_binder);
    EXPECT_TRUE(model.asset.extras.Get("navlab_version").IsString());
    for (std::size_t t = 0; t < tagfiles.size(); ++t) {
        EXPECT_EQ(model.nodes[t].name, tagfiles[t].name);
        const auto& mesh = tagfiles[t].model.mesh;
        if (mesh.faces.empty()) continue;
        const auto& prim = model.meshes[model.nodes[t].mesh].primitives[0];
        ASSERT_EQ(prim.mode, TINYGLTF_MODE_TRIANGLES);
        // Triangles = navlab's triangulation of every face; _FACE/_CLUSTER are the face's.
        std::size_t triangles = 0;
        for (std::size_t f = 0; f < mesh.faces.size(); ++f) triangles += exporter::face_triangles(mesh, f).size();
        EXPECT_EQ(model.accessors[prim.indices].count, 3 * triangles);
        const auto face = floats(model, prim.attributes.at("_FACE"));
        const auto cluster = floats(model, prim.attributes.at("_CLUSTER"));
        const auto flags = floats(model, prim.attributes.at("_EDGE_FLAGS"));
        std::size_t v = 0;
        for (std::size_t f = 0; f < mesh.faces.size(); ++f)
            for (int k = 0; k < mesh.faces[f].numEdges; ++k, ++v) {
                ASSERT_LT(v, face.size());
                EXPECT_EQ(face[v], static_cast<float>(f));
                EXPECT_EQ(cluster[v], static_cast<float>(mesh.faces[f].clusterIndex));
                EXPECT_EQ(flags[v], mesh.edges[mesh.faces[f].startEdgeIndex + k].flags);
            }
    }
}

TEST(ExportGlb, UserEdgesAreLinePrimitives) {
    const auto& in = export_inputs();
    const auto scene = exporter::load_scene(in.er_binder, "");
    const auto model = load_glb(export_to(in.er_binder, "glb", "er-read.glb"));
    std::size_t lines = 0;
    for (const auto& mesh : model.meshes)
        for (const auto& p : mesh.primitives)
            if (p.mode == TINYGLTF_MODE_LINE) lines += model.accessors[p.attributes.at("POSITION")].count / 2;
    EXPECT_EQ(lines, scene.line_count());
    EXPECT_GT(lines, 0u);
}

// ---- PLY ----------------------------------------------------------------------------------

/// A minimal reader of the binary little-endian PLY navlab writes, from the header's own
/// declarations (written here from the PLY format, not from navlab's writer).
struct Ply {
    std::size_t vertices = 0, faces = 0;
    std::vector<std::array<float, 3>> xyz;
    std::vector<std::int32_t> vertex_member;
    std::vector<std::vector<std::int32_t>> rings;
    std::vector<std::int32_t> member, face, face_data;
    std::vector<std::int16_t> cluster;
};

Ply read_ply(const std::string& bytes) {
    Ply p;
    const auto end = bytes.find("end_header\n");
    EXPECT_NE(end, std::string::npos);
    std::istringstream header(bytes.substr(0, end));
    std::string line;
    std::vector<std::string> props;
    while (std::getline(header, line)) {
        std::istringstream w(line);
        std::string word;
        w >> word;
        if (word == "format") {
            w >> word;
            EXPECT_EQ(word, "binary_little_endian");
        } else if (word == "element") {
            std::string name;
            std::size_t n = 0;
            w >> name >> n;
            (name == "vertex" ? p.vertices : p.faces) = n;
        } else if (word == "property") {
            props.push_back(line);
        }
    }
    const std::vector<std::string> expected = {
        "property float x", "property float y", "property float z", "property int member",
        "property list uchar int vertex_indices", "property int member", "property int face",
        "property int face_data", "property short cluster", "property uchar corners"};
    EXPECT_EQ(props, expected);
    ByteReader r(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()) + end + 11, bytes.size() - end - 11));
    for (std::size_t v = 0; v < p.vertices; ++v) {
        p.xyz.push_back({r.f32("field"), r.f32("field"), r.f32("field")});
        p.vertex_member.push_back(r.i32("field"));
    }
    for (std::size_t f = 0; f < p.faces; ++f) {
        std::vector<std::int32_t> ring(r.u8("field"));
        for (auto& v : ring) v = r.i32("field");
        p.rings.push_back(ring);
        p.member.push_back(r.i32("field"));
        p.face.push_back(r.i32("field"));
        p.face_data.push_back(r.i32("field"));
        p.cluster.push_back(r.i16("field"));
        EXPECT_EQ(r.u8("field"), ring.size());
    }
    EXPECT_EQ(r.remaining(), 0u);
    return p;
}

TEST(ExportPly, PolygonsAsStoredWithFaceProperties) {
    const auto& in = export_inputs();
    const auto tagfiles = exporter::load_fromsoft_tagfiles(in.sekiro_binder, "");
    const Ply ply = read_ply(slurp(export_to(in.sekiro_binder, "ply", "sekiro.ply")));
    std::size_t face = 0, base = 0;
    for (std::size_t t = 0; t < tagfiles.size(); ++t) {
        const auto& m = tagfiles[t].model.mesh;
        for (std::size_t v = 0; v < m.vertices.size(); ++v) {
            EXPECT_EQ(ply.xyz[base + v][0], m.vertices[v].x);
            EXPECT_EQ(ply.xyz[base + v][1], m.vertices[v].y);
            EXPECT_EQ(ply.xyz[base + v][2], m.vertices[v].z);
        }
        for (std::size_t f = 0; f < m.faces.size(); ++f, ++face) {
            ASSERT_LT(face, ply.faces);
            std::vector<std::int32_t> ring;
            for (int k = 0; k < m.faces[f].numEdges; ++k)
                ring.push_back(static_cast<std::int32_t>(base) + m.edges[m.faces[f].startEdgeIndex + k].a);
            EXPECT_EQ(ply.rings[face], ring);
            EXPECT_EQ(ply.member[face], static_cast<std::int32_t>(t));
            EXPECT_EQ(ply.face[face], static_cast<std::int32_t>(f));
            EXPECT_EQ(ply.face_data[face], m.faceData[f]);
            EXPECT_EQ(ply.cluster[face], m.faces[f].clusterIndex);
        }
        base += m.vertices.size();
    }
    EXPECT_EQ(ply.faces, face);
    EXPECT_EQ(ply.vertices, base);
}

TEST(ExportPly, EmptyInputGivesAValidEmptyFileAndSaysSo) {
    const auto& in = export_inputs();
    const auto path = (out_dir() / "empty.ply").string();
    const std::string out = run_ok(navlab_binary() + " export " + in.er_binder + " --entry " + in.empty_entry +
                                   " -f ply -o " + path);
    EXPECT_NE(out.find("holds no faces"), std::string::npos) << out;
    const Ply ply = read_ply(slurp(path));
    EXPECT_EQ(ply.faces, 0u);
}

// ---- Assimp reads both back ---------------------------------------------------------------

TEST(ExportAssimp, ReadsThePlyPolygonsAndTheGlbTrianglesLinesAndNodes) {
    const auto& in = export_inputs();
    const auto scene = exporter::load_scene(in.er_binder, "");
    std::size_t faces = 0, vertices = 0, triangles = 0;
    for (const auto& m : scene.members) {
        vertices += m.vertices.size();
        triangles += m.triangles.size();
        for (std::size_t f = 0; f < m.face_count(); ++f) faces += m.corner_count(f) > 0;
    }
    const aiScene* ply = aiImportFile(export_to(in.er_binder, "ply", "assimp.ply").c_str(), 0);
    ASSERT_NE(ply, nullptr) << aiGetErrorString();
    ASSERT_EQ(ply->mNumMeshes, 1u);
    EXPECT_EQ(ply->mMeshes[0]->mNumFaces, faces);
    std::size_t corners = 0, expected_corners = 0;
    for (unsigned f = 0; f < ply->mMeshes[0]->mNumFaces; ++f) corners += ply->mMeshes[0]->mFaces[f].mNumIndices;
    for (const auto& m : scene.members) expected_corners += m.corners.size();
    EXPECT_EQ(corners, expected_corners) << "polygons as stored, not triangulated";
    EXPECT_LE(ply->mMeshes[0]->mNumVertices, std::max(vertices, corners));
    aiReleaseImport(ply);

    const aiScene* glb = aiImportFile(export_to(in.er_binder, "glb", "assimp.glb").c_str(), 0);
    ASSERT_NE(glb, nullptr) << aiGetErrorString();
    std::size_t tris = 0, lines = 0;
    for (unsigned m = 0; m < glb->mNumMeshes; ++m)
        for (unsigned f = 0; f < glb->mMeshes[m]->mNumFaces; ++f) (glb->mMeshes[m]->mFaces[f].mNumIndices == 2 ? lines : tris)++;
    EXPECT_EQ(tris, triangles);
    EXPECT_EQ(lines, scene.line_count());
    EXPECT_EQ(glb->mRootNode->mNumChildren, scene.members.size());
    for (unsigned c = 0; c < glb->mRootNode->mNumChildren && c < scene.members.size(); ++c)
        EXPECT_EQ(std::string(glb->mRootNode->mChildren[c]->mName.C_Str()), scene.members[c].name);
    aiReleaseImport(glb);
}

// ---- Detour -------------------------------------------------------------------------------

struct NavMeshDeleter {
    void operator()(dtNavMesh* m) const { dtFreeNavMesh(m); }
    void operator()(dtNavMeshQuery* q) const { dtFreeNavMeshQuery(q); }
};

/// Loads an MSET file the way RecastDemo's Sample_TileMesh::loadAll does.
std::unique_ptr<dtNavMesh, NavMeshDeleter> load_mset(const std::string& bytes, int* tiles) {
    ByteReader r(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
    EXPECT_EQ(r.i32("field"), 'M' << 24 | 'S' << 16 | 'E' << 8 | 'T');
    EXPECT_EQ(r.i32("field"), 1);
    *tiles = r.i32("field");
    dtNavMeshParams params{};
    for (float& o : params.orig) o = r.f32("field");
    params.tileWidth = r.f32("field");
    params.tileHeight = r.f32("field");
    params.maxTiles = r.i32("field");
    params.maxPolys = r.i32("field");
    std::unique_ptr<dtNavMesh, NavMeshDeleter> nav(dtAllocNavMesh());
    EXPECT_FALSE(dtStatusFailed(nav->init(&params)));
    for (int i = 0; i < *tiles; ++i) {
        const dtTileRef ref = r.u32("field");
        const auto size = r.i32("field");
        auto* data = static_cast<unsigned char*>(dtAlloc(size, DT_ALLOC_PERM));
        auto bytes_of_tile = r.bytes(size, "tile");
        std::memcpy(data, bytes_of_tile.data(), size);
        EXPECT_FALSE(dtStatusFailed(nav->addTile(data, size, DT_TILE_FREE_DATA, ref, nullptr)));
    }
    EXPECT_EQ(r.remaining(), 0u);
    return nav;
}

exporter::Point3 face_centre(const exporter::SceneMember& m, std::size_t f) {
    exporter::Point3 c{};
    for (std::size_t k = 0; k < m.corner_count(f); ++k)
        for (int i = 0; i < 3; ++i) c[i] += m.vertices[m.corners[m.face_start[f] + k]][i] / m.corner_count(f);
    return c;
}

/// Faces reachable from `start` through regular-edge opposites, with their hop counts.
std::vector<int> hops_from(const exporter::SceneMember& m, std::size_t start) {
    std::vector<int> hops(m.face_count(), -1);
    std::deque<std::size_t> queue = {start};
    hops[start] = 0;
    while (!queue.empty()) {
        const std::size_t f = queue.front();
        queue.pop_front();
        for (std::size_t k = m.face_start[f]; k < m.face_start[f + 1]; ++k) {
            const std::int32_t n = m.corner_opposite[k];
            if (n >= 0 && hops[n] < 0) hops[n] = hops[f] + 1, queue.push_back(n);
        }
    }
    return hops;
}

TEST(ExportDetour, DetourLoadsTheSetAndFindsPathsBetweenFaceCentres) {
    const auto& in = export_inputs();
    const auto scene = exporter::load_scene(in.sekiro_binder, "");
    int tiles = 0;
    auto nav = load_mset(slurp(export_to(in.sekiro_binder, "detour", "sekiro.navmesh")), &tiles);
    EXPECT_GE(tiles, 1);
    std::unique_ptr<dtNavMeshQuery, NavMeshDeleter> query(dtAllocNavMeshQuery());
    ASSERT_FALSE(dtStatusFailed(query->init(nav.get(), 4096)));
    dtQueryFilter filter;
    const float extents[3] = {0.5f, 2.0f, 0.5f};
    int paths = 0;
    for (const auto& m : scene.members) {
        if (m.face_count() < 2) continue;
        // From face 0 to the reachable face farthest in hops (the stored adjacency says a walk
        // exists; Detour must find one that ends on the goal polygon).
        const auto hops = hops_from(m, 0);
        const std::size_t goal = std::max_element(hops.begin(), hops.end()) - hops.begin();
        if (hops[goal] < 2) continue;
        const auto a = face_centre(m, 0), b = face_centre(m, goal);
        dtPolyRef start = 0, end = 0;
        float pa[3], pb[3];
        ASSERT_FALSE(dtStatusFailed(query->findNearestPoly(a.data(), extents, &filter, &start, pa)));
        ASSERT_FALSE(dtStatusFailed(query->findNearestPoly(b.data(), extents, &filter, &end, pb)));
        ASSERT_NE(start, 0u) << m.name;
        ASSERT_NE(end, 0u) << m.name;
        dtPolyRef path[4096];
        int count = 0;
        const dtStatus s = query->findPath(start, end, pa, pb, &filter, path, &count, 4096);
        ASSERT_FALSE(dtStatusFailed(s)) << m.name;
        EXPECT_FALSE(s & DT_PARTIAL_RESULT) << m.name << ": partial path from face 0 to face " << goal;
        EXPECT_EQ(path[count - 1], end) << m.name;
        ++paths;
    }
    EXPECT_GT(paths, 0);
}

/// Three unit squares in an L (x, z): A [0,1]², B [1,2]×[0,1], C [0,1]×[1,2], each wound as
/// stored (`clockwise` flips every ring), triangulated in two.
exporter::Scene l_shape(bool clockwise) {
    exporter::Scene s;
    exporter::SceneMember m;
    m.name = "L";
    m.vertices = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 0, 1}, {1, 0, 1}, {2, 0, 1}, {0, 0, 2}, {1, 0, 2}};
    // Counter-clockwise seen from +y (Newell N_y > 0), as Havok stores faces.
    std::vector<std::vector<std::uint32_t>> faces = {{3, 4, 1, 0}, {4, 5, 2, 1}, {6, 7, 4, 3}};
    for (std::size_t f = 0; f < faces.size(); ++f) {
        auto ring = faces[f];
        if (clockwise) std::reverse(ring.begin(), ring.end());
        for (auto v : ring) m.corners.push_back(v), m.corner_flags.push_back(4), m.corner_opposite.push_back(-1);
        m.face_start.push_back(static_cast<std::uint32_t>(m.corners.size()));
        m.face_data.push_back(0);
        m.cluster.push_back(-1);
        m.triangles.push_back({ring[0], ring[1], ring[2]});
        m.triangles.push_back({ring[0], ring[2], ring[3]});
        m.triangle_face.insert(m.triangle_face.end(), 2, static_cast<std::uint32_t>(f));
    }
    s.members.push_back(m);
    return s;
}

TEST(ExportDetour, StraightPathsAndRaycastsAreRightWhateverTheStoredWinding) {
    for (bool clockwise : {false, true}) {
        const auto set = exporter::scene_to_detour_set(l_shape(clockwise));
        EXPECT_EQ(set.polygons, 3) << "each square merges into one convex polygon";
        int tiles = 0;
        auto nav = load_mset(std::string(set.bytes.begin(), set.bytes.end()), &tiles);
        std::unique_ptr<dtNavMeshQuery, NavMeshDeleter> query(dtAllocNavMeshQuery());
        ASSERT_FALSE(dtStatusFailed(query->init(nav.get(), 64)));
        dtQueryFilter filter;
        const float a[3] = {1.8f, 0, 0.5f}, b[3] = {0.5f, 0, 1.8f}, extents[3] = {0.1f, 1, 0.1f};
        dtPolyRef start = 0, end = 0, path[8];
        float pa[3], pb[3], straight[3 * 8], hit = 0, normal[3];
        ASSERT_FALSE(dtStatusFailed(query->findNearestPoly(a, extents, &filter, &start, pa)));
        ASSERT_FALSE(dtStatusFailed(query->findNearestPoly(b, extents, &filter, &end, pb)));
        int count = 0, corners = 0, visited = 0;
        ASSERT_FALSE(dtStatusFailed(query->findPath(start, end, pa, pb, &filter, path, &count, 8)));
        EXPECT_EQ(count, 3);  // B -> A -> C
        ASSERT_FALSE(dtStatusFailed(query->findStraightPath(pa, pb, path, count, straight, nullptr, nullptr, &corners, 8)));
        // Around the L's inner corner (1, 1): the only bend a shortest path can have.
        ASSERT_EQ(corners, 3) << "clockwise " << clockwise;
        EXPECT_NEAR(straight[3], 1.0f, 1e-3) << "clockwise " << clockwise;
        EXPECT_NEAR(straight[5], 1.0f, 1e-3) << "clockwise " << clockwise;
        // The straight segment leaves B into the missing square at z = 1: t = 0.5 / 1.3.
        ASSERT_FALSE(dtStatusFailed(query->raycast(start, pa, pb, &filter, &hit, normal, path, &visited, 8)));
        EXPECT_NEAR(hit, 0.5f / 1.3f, 1e-3) << "clockwise " << clockwise;
    }
}

// A damaged vertex far outside any level (1e35, or NaN) is refused by name: Detour's integer
// casts of such a coordinate were undefined and addTile() crashed (found by a CLI sweep over
// damaged binders). ±1e7 m is still taken.
TEST(ExportDetour, CoordinatesDetourCannotQuantiseAreRefusedByVertex) {
    EXPECT_NO_THROW(exporter::scene_to_detour_set(l_shape(false)));
    for (const float bad : {-5.9e35f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
        exporter::Scene s = l_shape(false);
        s.source = "m.nvmhktbnd";
        s.members[0].vertices[5][0] = bad;  // a corner of face 1
        try {
            exporter::scene_to_detour_set(s);
            ADD_FAILURE() << bad << " accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.file(), "m.nvmhktbnd");
            EXPECT_EQ(e.field(), "L: face 1: vertex 5") << e.what();
            EXPECT_NE(e.message().find("Detour needs finite coordinates"), std::string::npos) << e.what();
        }
    }
    exporter::Scene far = l_shape(false);
    for (auto& v : far.members[0].vertices) v[0] += 9.9e6f;
    EXPECT_NO_THROW(exporter::scene_to_detour_set(far));
}

// A damaged vertex within ±10⁷ m is accepted, but it widens Detour's cells for the whole scene
// (corners closer than a cell merge): the summary now says so, which it did not.
TEST(ExportDetour, AFarVertexMakesTheCellsCoarseAndTheSummarySaysSo) {
    const exporter::DetourSet clean = exporter::scene_to_detour_set(l_shape(false));
    EXPECT_LE(clean.cell_size, exporter::kCoarseDetourCell);
    EXPECT_EQ(exporter::detour_cell_note(clean.cell_size).find("coarse"), std::string::npos);
    exporter::Scene damaged = l_shape(false);
    damaged.members[0].vertices[5][0] = 6e6f;  // one corner of face 1, 6,000 km out
    const exporter::DetourSet set = exporter::scene_to_detour_set(damaged);
    EXPECT_GT(set.cell_size, 99.0f);  // 6e6 m over 60,000 steps
    const std::string note = exporter::detour_cell_note(set.cell_size);
    EXPECT_EQ(note.rfind(", Detour cells 100 m (coarse: the scene spans 6000000 m", 0), 0u) << note;
}

TEST(ExportDetour, UserEdgesBecomeOffMeshConnections) {
    const auto& in = export_inputs();
    const auto scene = exporter::load_scene(in.er_binder, "");
    const auto set = exporter::scene_to_detour_set(scene);
    std::size_t face_to_face = 0;
    for (const auto& m : scene.members)
        for (const auto& l : m.lines) face_to_face += l.face >= 0 && l.target_face >= 0;
    EXPECT_EQ(static_cast<std::size_t>(set.off_mesh), face_to_face);
    EXPECT_GT(face_to_face, 0u);
    int tiles = 0;
    auto nav = load_mset(std::string(set.bytes.begin(), set.bytes.end()), &tiles);
    int off_mesh = 0;
    for (int i = 0; i < nav->getMaxTiles(); ++i) {
        const dtMeshTile* tile = static_cast<const dtNavMesh&>(*nav).getTile(i);
        if (!tile || !tile->header) continue;
        off_mesh += tile->header->offMeshConCount;
        for (int p = 0; p < tile->header->polyCount; ++p) EXPECT_LE(tile->polys[p].vertCount, 6);
    }
    EXPECT_EQ(off_mesh, set.off_mesh);
}

TEST(ExportDetour, EveryFamilyAndEmptyInput) {
    const auto& in = export_inputs();
    int tiles = -1;
    load_mset(slurp(export_to(in.fc2_world, "detour", "fc2.navmesh")), &tiles);
    EXPECT_EQ(tiles, 1);
    load_mset(slurp(export_to(in.igi_graph, "detour", "igi.navmesh")), &tiles);
    EXPECT_EQ(tiles, 0);  // a waypoint graph has no polygons
    load_mset(slurp(export_to(in.er_binder, "detour", "empty.navmesh", " --entry " + in.empty_entry)), &tiles);
    EXPECT_EQ(tiles, 0);
}

}  // namespace
}  // namespace navlab::test
