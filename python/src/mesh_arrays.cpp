#include "mesh_arrays.h"

#include "formats/fromsoft/navmesh.h"

namespace navlab::python {
namespace {

/// A structured dtype with explicit offsets, so its itemsize equals the C++ record's size
/// (padding included) and a view over a vector of records needs no copy.
py::dtype record_dtype(std::initializer_list<std::tuple<const char*, const char*, int>> fields, int itemsize) {
    py::list names, formats, offsets;
    for (const auto& [name, format, offset] : fields) {
        names.append(name);
        formats.append(format);
        offsets.append(offset);
    }
    py::dict spec;
    spec["names"] = names;
    spec["formats"] = formats;
    spec["offsets"] = offsets;
    spec["itemsize"] = itemsize;
    return py::dtype::from_args(spec);
}

}  // namespace

using fromsoft::AabbTreeNode6;
using fromsoft::Edge;
using fromsoft::Face;
using fromsoft::GraphEdge;
using fromsoft::GraphNode;

py::dtype face_dtype() {
    return record_dtype({{"startEdgeIndex", "<i4", offsetof(Face, startEdgeIndex)},
                         {"startUserEdgeIndex", "<i4", offsetof(Face, startUserEdgeIndex)},
                         {"numEdges", "<i2", offsetof(Face, numEdges)},
                         {"numUserEdges", "<i2", offsetof(Face, numUserEdges)},
                         {"clusterIndex", "<i2", offsetof(Face, clusterIndex)},
                         {"padding", "<u2", offsetof(Face, padding)}},
                        sizeof(Face));
}

py::dtype edge_dtype() {
    return record_dtype({{"a", "<i4", offsetof(Edge, a)},
                         {"b", "<i4", offsetof(Edge, b)},
                         {"oppositeEdge", "<u4", offsetof(Edge, oppositeEdge)},
                         {"oppositeFace", "<u4", offsetof(Edge, oppositeFace)},
                         {"flags", "u1", offsetof(Edge, flags)},
                         {"paddingByte", "u1", offsetof(Edge, paddingByte)},
                         {"userEdgeCost", "<u2", offsetof(Edge, userEdgeCost)}},
                        sizeof(Edge));
}

py::dtype graph_node_dtype() {
    return record_dtype({{"startEdgeIndex", "<i4", offsetof(GraphNode, startEdgeIndex)},
                         {"numEdges", "<i4", offsetof(GraphNode, numEdges)}},
                        sizeof(GraphNode));
}

py::dtype graph_edge_dtype() {
    return record_dtype({{"cost", "<u2", offsetof(GraphEdge, cost)},
                         {"flags", "<u2", offsetof(GraphEdge, flags)},
                         {"target", "<u4", offsetof(GraphEdge, target)}},
                        sizeof(GraphEdge));
}

py::dtype tree_node_dtype() {
    return record_dtype({{"xyz", "3u1", offsetof(AabbTreeNode6, xyz)},
                         {"hiData", "u1", offsetof(AabbTreeNode6, hiData)},
                         {"loData", "<u2", offsetof(AabbTreeNode6, loData)}},
                        sizeof(AabbTreeNode6));
}

}  // namespace navlab::python
