// Synthetic navmesh tagfiles for tests and benchmarks, written with the from-scratch Builder:
// a grid of quads (hkaiNavMesh with faces, edges, vertices, face/edge data, a clearance cache
// seeding set) and its hkaiStaticTreeNavMeshQueryMediator with an AABB tree.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "havok/type_sets.h"
#include "havok/writer.h"

namespace navlab::test {

template <class T>
navlab::Bytes raw_bytes(const std::vector<T>& v) {
    return navlab::Bytes(reinterpret_cast<const std::uint8_t*>(v.data()), v.size() * sizeof(T));
}

/// A columns × rows grid of unit quads as an SDK `sdk` navmesh tagfile.
inline std::vector<std::uint8_t> grid_navmesh(std::uint32_t columns, std::uint32_t rows, const std::string& sdk = "20180100",
                                              const havok::WriteOptions& options = {}) {
    struct Face { std::int32_t start_edge, start_user_edge; std::int16_t edges, user_edges, cluster; std::uint16_t padding; };
    struct Edge { std::int32_t a, b; std::uint32_t opposite_edge, opposite_face; std::uint8_t flags, pad; std::uint16_t cost; };
    static_assert(sizeof(Face) == 16 && sizeof(Edge) == 20);
    const std::uint32_t nfaces = columns * rows, nverts = (columns + 1) * (rows + 1);
    std::vector<float> verts;
    for (std::uint32_t z = 0; z <= rows; ++z)
        for (std::uint32_t x = 0; x <= columns; ++x) verts.insert(verts.end(), {float(x), 0.0f, float(z), 1.0f});
    auto vid = [&](std::uint32_t x, std::uint32_t z) { return std::int32_t(z * (columns + 1) + x); };
    std::vector<Face> faces;
    std::vector<Edge> edges;
    for (std::uint32_t z = 0; z < rows; ++z)
        for (std::uint32_t x = 0; x < columns; ++x) {
            const std::uint32_t f = z * columns + x;
            faces.push_back({std::int32_t(edges.size()), -1, 4, 0, -1, 0xCDCD});
            // Counter-clockwise seen from +y: (x,z) -> (x,z+1) -> (x+1,z+1) -> (x+1,z).
            const std::int32_t c[4] = {vid(x, z), vid(x, z + 1), vid(x + 1, z + 1), vid(x + 1, z)};
            const std::int64_t neighbour[4] = {x ? std::int64_t(f) - 1 : -1, z + 1 < rows ? std::int64_t(f + columns) : -1,
                                               x + 1 < columns ? std::int64_t(f) + 1 : -1, z ? std::int64_t(f) - columns : -1};
            const std::uint32_t back[4] = {2, 3, 0, 1};  // the neighbour's edge index of the shared side
            for (int k = 0; k < 4; ++k) {
                const bool open = neighbour[k] >= 0;
                edges.push_back({c[k], c[(k + 1) % 4], open ? std::uint32_t(neighbour[k] * 4 + back[k]) : 0xFFFFFFFFu,
                                 open ? std::uint32_t(neighbour[k]) : 0xFFFFFFFFu, 4, 0, 0});
            }
        }
    havok::Builder b(havok::navmesh_types_2018(), sdk);
    const havok::NodeId mesh = b.object("hkaiNavMesh");
    b.set_array(b.at(mesh, "faces"), b.array("hkaiNavMesh::Face", nfaces, raw_bytes(faces)));
    b.set_array(b.at(mesh, "edges"), b.array("hkaiNavMesh::Edge", std::uint32_t(edges.size()), raw_bytes(edges)));
    b.set_array(b.at(mesh, "vertices"), b.array("hkVector4", nverts, raw_bytes(verts)));
    b.set_array(b.at(mesh, "faceData"), b.array("hkInt32", nfaces));
    b.set_array(b.at(mesh, "edgeData"), b.array("hkInt32", std::uint32_t(edges.size())));
    b.set_int(b.at(mesh, "faceDataStriding"), 1);
    b.set_int(b.at(mesh, "edgeDataStriding"), 1);
    const std::vector<float> aabb = {-1, -1, -1, -2.4f, float(columns) + 1, 1, float(rows) + 1, 2.4f};
    b.set_bytes(b.at(mesh, "aabb"), raw_bytes(aabb));

    const havok::NodeId cache = b.object("hkaiNavMeshClearanceCache");
    b.set_float(b.at(cache, "clearanceCeiling"), 2.0);
    b.set_array(b.at(cache, "faceOffsets"), b.array("hkUint32", nfaces));
    b.set_array(b.at(cache, "vertexClearances"), b.array("hkUint8", nverts));
    const havok::NodeId datas = b.array("hkaiNavMeshClearanceCacheSeeding::CacheData", 1);
    b.set_pointer(b.at(datas, "initialCache"), cache);
    const havok::NodeId seeding = b.object("hkaiNavMeshClearanceCacheSeeding::CacheDataSet");
    b.set_array(b.at(seeding, "cacheDatas"), datas);
    b.set_pointer(b.at(mesh, "clearanceCacheSeedingDataSet"), seeding);

    const havok::NodeId impl = b.object("hkcdStaticAabbTree::Impl");
    b.set_array(b.at(impl, "tree.nodes"), b.array("hkcdCompressedAabbCodecs::Aabb6BytesCodec", 2 * nfaces - 1));
    b.set_bytes(b.at(impl, "tree.domain"), raw_bytes(aabb));
    const havok::NodeId tree = b.object("hkcdStaticAabbTree");
    b.set_pointer(b.at(tree, "treePtr"), impl);
    const havok::NodeId mediator = b.object("hkaiStaticTreeNavMeshQueryMediator");
    b.set_pointer(b.at(mediator, "tree"), tree);
    b.set_pointer(b.at(mediator, "navMesh"), mesh);

    b.add_variant(mesh);
    b.add_variant(mediator);
    return b.finish(options);
}

}  // namespace navlab::test
