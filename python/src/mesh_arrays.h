// numpy views over navlab's own memory. A view's base is the Python object that owns the
// memory (a Mesh, a ClusterGraph, ...), so the view keeps it alive after the caller drops it
// and no array is ever copied. Structured dtypes spell the page's field names so
// `mesh.faces["numEdges"]` reads like the reference documents.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <vector>

namespace navlab::python {

namespace py = pybind11;

/// Marks `array` read-only unless `writable`.
inline py::array finish_view(py::array array, bool writable) {
    if (!writable) array.attr("setflags")(py::arg("write") = false);
    return array;
}

/// A 1-D or 2-D view of a std::vector's elements, reinterpreted as `dtype` rows.
/// @param data      the vector (owned by `owner`); may be empty.
/// @param dtype     element dtype (plain or structured); its itemsize must divide the
///                  element size × columns.
/// @param columns   0 for a 1-D view of records, else the row width of a 2-D view.
/// @param owner     the Python object that keeps `data` alive; becomes the array's base.
template <class T, class A>
py::array vector_view(std::vector<T, A>& data, const py::dtype& dtype, py::ssize_t columns, py::handle owner,
                      bool writable) {
    void* ptr = data.empty() ? nullptr : static_cast<void*>(data.data());
    const py::ssize_t item = dtype.itemsize();
    py::array out;
    if (columns == 0) {
        out = py::array(dtype, {static_cast<py::ssize_t>(data.size())}, {item}, ptr, owner);
    } else {
        const auto rows = static_cast<py::ssize_t>(data.size() * sizeof(T) / (item * columns));
        out = py::array(dtype, {rows, columns}, {item * columns, item}, ptr, owner);
    }
    return finish_view(out, writable);
}

/// dtype of hkaiNavMesh::Face (16 bytes).
py::dtype face_dtype();
/// dtype of hkaiNavMesh::Edge (20 bytes).
py::dtype edge_dtype();
/// dtype of hkaiDirectedGraphExplicitCost::Node and ::Edge (8 bytes each).
py::dtype graph_node_dtype();
py::dtype graph_edge_dtype();
/// dtype of an Aabb6BytesCodec tree node (6 bytes).
py::dtype tree_node_dtype();

}  // namespace navlab::python
