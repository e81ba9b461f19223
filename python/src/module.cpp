// The `navlab` Python module (pybind11): FromSoftware binders and tagfiles, IGI graphs, the
// audit and the codecs, with numpy views over navlab's own memory.
//
// Ownership: a Mesh holds its model through a shared_ptr; every array it hands out is a view
// whose numpy base is the Mesh, so the view keeps the model alive on its own. A File caches
// the Mesh of each member it was asked for, so edits through views persist until File.save.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audit_paths.h"
#include "codec/dcx.h"
#include "codec/kraken/kraken.h"
#include "container/archive/game.h"
#include "container/binder_file.h"
#include "container/bnd4.h"
#include "export/fromsoft_export.h"
#include "formats/farcry2/world.h"
#include "formats/fromsoft/aabb_tree6.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "formats/igi/graph.h"
#include "formats/igi/graph_io.h"
#include "formats/igi/routes.h"
#include "io/buffer_pool.h"
#include "io/error.h"
#include "io/file.h"
#include "io/parallel.h"
#include "io/text.h"
#include "io/version.h"
#include "mesh_arrays.h"
#include "query/nav_view.h"
#include "query/navmesh_query.h"
#include "query/query_input.h"

namespace navlab::python {
namespace {

namespace fs = std::filesystem;
using fromsoft::NavTagfile;

/// The query structures of a mesh (src/query), built on first use from the model as it is then.
struct MeshQuery {
    std::unique_ptr<query::FromSoftView> view;
    std::unique_ptr<query::NavMeshQuery> query;
};

/// One navmesh tagfile's model, shared by every view made from it.
struct Mesh {
    static constexpr bool kZup = false;  ///< query points are the mesh's own (y up)
    std::shared_ptr<NavTagfile> model;
    std::string name;
    bool editable = false;
    std::shared_ptr<MeshQuery> queries;  ///< lazily built; edits made after it are not seen
    /// Where a query's refusal says the mesh is, as the commands print it: "FILE | member".
    std::string where;

    const query::NavMeshQuery& query() {
        if (!queries) {
            auto q = std::make_shared<MeshQuery>();
            // An edited model's arrays no longer sit where the file had them: no byte offsets then.
            q->view = std::make_unique<query::FromSoftView>(model->mesh, where, editable ? nullptr : &model->layouts);
            q->query = std::make_unique<query::NavMeshQuery>(*q->view, model->mediator ? &*model->mediator : nullptr);
            queries = std::move(q);
        }
        return *queries->query;
    }
};

/// A query point (or extents) as the commands take one: three numbers, each finite and within
/// ±1e7 m (query::usable_coordinate: past it the meshes' float distances lose every digit).
/// `what` names it in the error ("start", "points[3]").
query::Vec3 checked_point(double x, double y, double z, const std::string& what) {
    for (double v : {x, y, z})
        if (!query::usable_coordinate(v))
            throw py::value_error(what + " must be three finite numbers within ±1e7 m, not " +
                                  py::repr(py::make_tuple(x, y, z)).cast<std::string>());
    return {x, y, z};
}

query::Vec3 vec3_of(py::handle h, const std::string& what) {
    auto a = py::array_t<double, py::array::forcecast>::ensure(h);
    if (!a || a.size() != 3) throw py::value_error(what + " is three numbers (x, y, z) in metres");
    return checked_point(a.at(0), a.at(1), a.at(2), what);
}

/// Extents: half-sizes of the search box, as `--extents` takes them (>= 0).
query::Vec3 extents_of(py::handle h) {
    const query::Vec3 e = vec3_of(h, "extents");
    if (e.x < 0 || e.y < 0 || e.z < 0) throw py::value_error("extents are half-sizes of the search box: three numbers >= 0");
    return e;
}

py::array_t<double> points_array(const std::vector<query::Vec3>& pts) {
    py::array_t<double> out({static_cast<py::ssize_t>(pts.size()), py::ssize_t{3}});
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const auto r = static_cast<py::ssize_t>(i);
        out.mutable_at(r, 0) = pts[i].x, out.mutable_at(r, 1) = pts[i].y, out.mutable_at(r, 2) = pts[i].z;
    }
    return out;
}

/// A path result as the `navlab path --json` object (points as an K×3 array, each put through
/// `out`: the query's frame to the mesh's).
template <class ToMesh>
py::dict path_dict(query::PathResult r, ToMesh out) {
    for (query::Vec3& p : r.points) p = out(p);
    py::dict d;
    const bool found = r.status == query::PathStatus::Found, off = r.status == query::PathStatus::OffMesh;
    d["status"] = std::string(query::status_name(r.status));
    d["length"] = found ? py::object(py::float_(r.length)) : py::object(py::none());
    d["length_xz"] = found ? py::object(py::float_(r.length_xz)) : py::object(py::none());
    d["points"] = points_array(r.points);
    d["faces"] = r.faces;
    d["links"] = r.links;
    d["start_face"] = off ? py::object(py::none()) : py::object(py::int_(r.start_face));
    d["end_face"] = off ? py::object(py::none()) : py::object(py::int_(r.end_face));
    d["mode"] = std::string(query::mode_name(r.mode));
    if (off) d["distance"] = r.off_mesh_distance;
    return d;
}

query::PathMode path_mode(const std::string& mode) {
    if (mode == "exact") return query::PathMode::Exact;
    if (mode == "corridor") return query::PathMode::Corridor;
    throw py::value_error("mode is 'exact' or 'corridor', not '" + mode + "'");
}

/// The Sekiro cluster graph of a mesh (hkaiDirectedGraphExplicitCost).
struct ClusterGraph {
    std::shared_ptr<NavTagfile> model;
    bool editable = false;
};

/// A Far Cry 2 world stitched into one triangle mesh (world coordinates, z up).
struct WorldMesh {
    /// Query points are the world's (z up), y and z swapped into Fc2View's y-up frame and back.
    static constexpr bool kZup = true;
    farcry2::World world;
    farcry2::WorldMesh mesh;
    std::string where;  ///< the world's path, as errors name it
    std::unique_ptr<query::Fc2View> view;
    std::unique_ptr<query::NavMeshQuery> queries;  ///< built on the first query

    /// The queries; a world with an unreadable file is refused here, as the commands refuse it
    /// (check() still reports it).
    const query::NavMeshQuery& query() {
        if (!queries) {
            farcry2::require_every_file_read(world);
            view = std::make_unique<query::Fc2View>(mesh, where);
            queries = std::make_unique<query::NavMeshQuery>(*view);
        }
        return *queries;
    }
};

std::string game_name(std::uint32_t sdk) {
    if (sdk == fromsoft::kSdkSekiro) return "sekiro";
    if (sdk == fromsoft::kSdkEldenRing) return "eldenring";
    return "other";
}

bool is_tagfile_name(const std::string& name) {
    return name.size() >= 4 && fs::path(name).extension().string().size() == 4 &&
           (fs::path(name).extension() == ".hkx" || fs::path(name).extension() == ".HKX");
}

/// An opened FromSoftware file (binder, DCX or loose tagfile) or IGI graph.
class File {
public:
    File(const fs::path& path, bool editable) : path_(path), editable_(editable) {
        std::string ext = path.extension().string();
        if (fs::is_directory(path) || ext == ".nvm" || ext == ".NVM") {
            auto w = std::make_shared<WorldMesh>();
            w->world = farcry2::load_world(path);
            w->mesh = farcry2::stitch(w->world);
            w->where = path.string();
            world_ = std::move(w);
            return;
        }
        if (ext == ".dat" || ext == ".DAT") {
            graph_ = igi::read_graph(read_file(path));
            return;
        }
        binder_ = std::make_unique<container::BinderFile>(container::BinderFile::open(path));
        meshes_.resize(binder_->entries().size());
    }

    std::string kind() const {
        if (graph_) return "igi";
        if (world_) return "farcry2";
        return binder_->is_binder ? "binder" : "tagfile";
    }

    std::vector<std::string> members() const {
        std::vector<std::string> out;
        if (binder_)
            for (const auto& e : binder_->entries()) out.push_back(e.name);
        return out;
    }

    /// The member at `index`, read on first use and cached.
    std::shared_ptr<Mesh> mesh(std::size_t index) {
        require_fromsoft();
        if (index >= meshes_.size())
            throw py::index_error("member " + std::to_string(index) + " out of range (" +
                                  std::to_string(meshes_.size()) + " members)");
        if (!meshes_[index]) {
            const container::Entry& e = binder_->entries()[index];
            if (binder_->is_binder && !is_tagfile_name(e.name))
                throw py::value_error(path_.string() + ": member " + std::to_string(index) + " (" +
                                      escape_non_utf8(e.name) + ") is not a .hkx tagfile");
            auto model = std::make_shared<NavTagfile>(read_member(e));
            const std::string where = binder_->is_binder ? member_location(path_.string(), leaf_name(e.name)) : path_.string();
            meshes_[index] = std::make_shared<Mesh>(Mesh{std::move(model), e.name, editable_, nullptr, where});
        }
        return meshes_[index];
    }

    std::shared_ptr<Mesh> mesh_named(const std::string& name_or_index) {
        require_fromsoft();
        return mesh(binder_->find_entry(name_or_index).index);
    }

    py::bytes member_bytes(std::size_t index) const {
        require_fromsoft();
        if (index >= binder_->entries().size()) throw py::index_error("member out of range");
        auto d = binder_->entries()[index].data;
        return py::bytes(reinterpret_cast<const char*>(d.data()), d.size());
    }

    /// Writes the file back: members whose model differs from their stored bytes are
    /// rewritten through the tagfile writer; every other member keeps its bytes; the binder
    /// and DCX headers keep their constants.
    void save(const fs::path& out) {
        require_fromsoft();
        if (!editable_) throw py::value_error("opened read-only: use navlab.open(path, edit=True) to save");
        std::vector<std::vector<std::uint8_t>> rewritten(meshes_.size());
        for (std::size_t i = 0; i < meshes_.size(); ++i) {
            if (!meshes_[i]) continue;
            const NavTagfile original = read_member(binder_->entries()[i]);
            if (!fromsoft::same_model(original, *meshes_[i]->model))
                rewritten[i] = fromsoft::write_nav_tagfile(*meshes_[i]->model);
        }
        std::vector<std::uint8_t> payload;
        if (binder_->is_binder) {
            bnd4::Binder b = binder_->binder();
            for (std::size_t i = 0; i < rewritten.size(); ++i)
                if (!rewritten[i].empty()) b.entries[i].set_data(std::move(rewritten[i]));
            payload = bnd4::write(b);
        } else {
            auto d = binder_->entries()[0].data;
            payload = rewritten[0].empty() ? std::vector<std::uint8_t>(d.begin(), d.end()) : std::move(rewritten[0]);
        }
        if (binder_->dcx) payload = dcx::compress(payload, binder_->dcx->variant, &*binder_->dcx);
        write_file_atomic(out, payload);
    }

    const igi::Graph& graph() const {
        if (!graph_) throw py::value_error(path_.string() + " is not an IGI graph");
        return *graph_;
    }

    std::shared_ptr<WorldMesh> world() const {
        if (!world_) throw py::value_error(path_.string() + " is not a Far Cry 2 world");
        return world_;
    }

    const fs::path& path() const { return path_; }
    std::size_t size() const { return binder_ ? binder_->entries().size() : 0; }

private:
    void require_fromsoft() const {
        if (graph_) throw py::value_error(path_.string() + " is an IGI graph: use .graph");
        if (world_) throw py::value_error(path_.string() + " is a Far Cry 2 world: use .world");
    }
    /// The member's model; errors name the file and the entry as the CLI's do (read_entry).
    NavTagfile read_member(const container::Entry& e) const {
        try {
            return container::read_entry(e, [](const SharedBytes& bytes) { return fromsoft::read_nav_tagfile(bytes); });
        } catch (Error& err) {
            throw err.set_file(path_.string());
        }
    }

    fs::path path_;
    bool editable_ = false;
    std::unique_ptr<container::BinderFile> binder_;
    std::vector<std::shared_ptr<Mesh>> meshes_;
    std::optional<igi::Graph> graph_;
    std::shared_ptr<WorldMesh> world_;
};

/// The audit's ear-clipped triangles of every face: (T×3 vertex indices, T face indices).
py::tuple triangulate(const Mesh& m) {
    std::vector<std::int32_t> corners, faces;
    const auto& mesh = m.model->mesh;
    for (std::size_t f = 0; f < mesh.faces.size(); ++f)
        for (const auto& t : exporter::face_triangles(mesh, f)) {
            corners.insert(corners.end(), t.begin(), t.end());
            faces.push_back(static_cast<std::int32_t>(f));
        }
    py::array_t<std::int32_t> tri({static_cast<py::ssize_t>(faces.size()), py::ssize_t{3}});
    std::copy(corners.begin(), corners.end(), tri.mutable_data());
    py::array_t<std::int32_t> owner(static_cast<py::ssize_t>(faces.size()));
    std::copy(faces.begin(), faces.end(), owner.mutable_data());
    return py::make_tuple(tri, owner);
}

/// The decoded Elden Ring AABB tree: (leaf face indices, leaf boxes L×2×3 float64), or None.
py::object tree_leaves(const Mesh& m) {
    if (!m.model->mediator) return py::none();
    const auto& med = *m.model->mediator;
    fromsoft::DecodedAabbTree tree = fromsoft::decode_aabb_tree6(med.nodes, med.domain);
    if (!tree.valid)
        throw Error("AABB tree does not decode: " + tree.problem, kNoOffset,
                    "hkcdStaticAabbTree node " + std::to_string(tree.problem_node));
    py::array_t<std::uint32_t> faces(static_cast<py::ssize_t>(tree.leaves.size()));
    py::array_t<double> boxes({static_cast<py::ssize_t>(tree.leaves.size()), py::ssize_t{2}, py::ssize_t{3}});
    auto f = faces.mutable_unchecked<1>();
    auto b = boxes.mutable_unchecked<3>();
    for (std::size_t i = 0; i < tree.leaves.size(); ++i) {
        const auto idx = static_cast<py::ssize_t>(i);
        f(idx) = tree.leaves[i].face;
        const fromsoft::Box3& box = tree.boxes[tree.leaves[i].node];
        for (py::ssize_t k = 0; k < 3; ++k) b(idx, 0, k) = box.min[k], b(idx, 1, k) = box.max[k];
    }
    return py::make_tuple(faces, boxes);
}

/// The mesh's vertices (RecordVector) or the graph's positions (std::vector).
template <class A>
py::array float32_rows(std::vector<fromsoft::Vec4, A>& v, py::handle owner, bool writable) {
    return vector_view(v, py::dtype::of<float>(), 4, owner, writable);
}

py::dict igi_graph_dict(const igi::Graph& g) {
    const auto n = static_cast<py::ssize_t>(g.nodes.size());
    py::array_t<std::int32_t> ids(n);
    py::array_t<float> positions({n, py::ssize_t{3}});
    py::array_t<float> radius(n);
    for (py::ssize_t i = 0; i < n; ++i) {
        const igi::Node& node = g.nodes[static_cast<std::size_t>(i)];
        ids.mutable_at(i) = node.id;
        positions.mutable_at(i, 0) = node.position.x;
        positions.mutable_at(i, 1) = node.position.y;
        positions.mutable_at(i, 2) = node.position.z;
        radius.mutable_at(i) = node.radius;
    }
    py::array_t<std::int32_t> links({static_cast<py::ssize_t>(g.links.size()), py::ssize_t{3}});
    for (std::size_t i = 0; i < g.links.size(); ++i) {
        const auto r = static_cast<py::ssize_t>(i);
        links.mutable_at(r, 0) = g.links[i].id1;
        links.mutable_at(r, 1) = g.links[i].id2;
        links.mutable_at(r, 2) = g.links[i].type;
    }
    const py::ssize_t side = g.routes.empty() ? 0 : g.max_nodes;
    py::array_t<std::int32_t> next({side, side});
    py::array_t<float> cost({side, side});
    // routes[from + to·N]: row = to, column = from; transposed so next[from, to] reads naturally.
    for (py::ssize_t from = 0; from < side; ++from)
        for (py::ssize_t to = 0; to < side; ++to) {
            const auto& e = g.routes[g.route_index(static_cast<std::int32_t>(from), static_cast<std::int32_t>(to))];
            next.mutable_at(from, to) = e.next;
            cost.mutable_at(from, to) = e.cost;
        }
    py::dict d;
    d["variant"] = g.variant == igi::Variant::Named ? "named" : "positional";
    d["max_nodes"] = g.max_nodes;
    d["node_ids"] = ids;
    d["positions"] = positions;
    d["radius"] = radius;
    d["links"] = links;
    d["route_next"] = next;
    d["route_cost"] = cost;
    return d;
}

/// A point (or extents, or a direction) from the mesh's frame into the query's, and back: a
/// swap of y and z for Far Cry 2 worlds (z up), nothing for FromSoftware meshes.
template <class M>
query::Vec3 query_frame(const query::Vec3& p) {
    return M::kZup ? query::Fc2View::to_view(p) : p;
}
template <class M>
query::Vec3 mesh_frame(const query::Vec3& p) {
    return M::kZup ? query::Fc2View::from_view(p) : p;
}

/// The query methods of Mesh and WorldMesh (src/query through NavMeshQuery), in the mesh's own
/// frame: a Far Cry 2 world's points, extents and answers are z-up, y and z swapped into the
/// query's y-up frame and back (Fc2View), as the commands do; the default extents are 1 m across, 2 m up.
template <class M>
void def_queries(py::class_<M, std::shared_ptr<M>>& cls) {
    cls
        .def("nearest", [](M& s, py::array_t<double, py::array::c_style | py::array::forcecast> points,
                           py::object extents) {
            if (points.ndim() != 2 || points.shape(1) != 3) throw py::value_error("points must be N×3 (metres)");
            const query::Vec3 ext = extents.is_none() ? query::kDefaultExtents : query_frame<M>(extents_of(extents));
            const query::NavMeshQuery& q = s.query();
            const auto n = static_cast<std::size_t>(points.shape(0));
            std::vector<query::NearestResult> found(n);
            const double* p = points.data();
            for (std::size_t i = 0; i < n; ++i) checked_point(p[3 * i], p[3 * i + 1], p[3 * i + 2], "points[" + std::to_string(i) + "]");
            {
                py::gil_scoped_release release;
                for (std::size_t i = 0; i < n; ++i)
                    found[i] = q.nearest_face(query_frame<M>({p[3 * i], p[3 * i + 1], p[3 * i + 2]}), ext);
            }
            py::array_t<std::int64_t> faces(static_cast<py::ssize_t>(n));
            py::array_t<double> dist(static_cast<py::ssize_t>(n));
            std::vector<query::Vec3> closest(n);
            for (std::size_t i = 0; i < n; ++i) {
                const auto r = static_cast<py::ssize_t>(i);
                faces.mutable_at(r) = found[i].found ? static_cast<std::int64_t>(found[i].face) : -1;
                dist.mutable_at(r) = found[i].found ? found[i].distance : std::numeric_limits<double>::infinity();
                closest[i] = found[i].found ? mesh_frame<M>(found[i].point) : query::Vec3{NAN, NAN, NAN};
            }
            return py::make_tuple(faces, points_array(closest), dist);
        }, py::arg("points"), py::arg("extents") = py::none(),
           "Nearest face of each of N×3 points within ±extents (default 1 m across, 2 m up): (faces, -1 when "
           "none; closest points N×3; distances, inf when none). Elden Ring meshes use their stored AABB tree.")
        .def("find_path", [](M& s, py::object start, py::object end, const std::string& mode, bool user_edges) {
            const query::NavMeshQuery& q = s.query();
            query::QueryFilter filter;
            filter.use_links = user_edges;
            const query::Vec3 a = query_frame<M>(vec3_of(start, "start")), b = query_frame<M>(vec3_of(end, "end"));
            query::PathResult r;
            {
                py::gil_scoped_release release;
                r = q.find_path(a, b, path_mode(mode), filter);
            }
            return path_dict(std::move(r), mesh_frame<M>);
        }, py::arg("start"), py::arg("end"), py::arg("mode") = "exact", py::arg("user_edges") = true,
           "Shortest path as `navlab path --json` gives it: status found/no_path/off_mesh, length and length_xz "
           "(metres), points (K×3), faces, links, start_face, end_face, mode ('exact' any-angle or 'corridor').")
        .def("find_paths", [](M& s, py::array_t<double, py::array::c_style | py::array::forcecast> starts,
                              py::array_t<double, py::array::c_style | py::array::forcecast> ends,
                              const std::string& mode, bool user_edges, unsigned threads) {
            if (starts.ndim() != 2 || starts.shape(1) != 3 || ends.ndim() != 2 || ends.shape(1) != 3 ||
                starts.shape(0) != ends.shape(0))
                throw py::value_error("starts and ends must both be N×3 (metres)");
            const query::NavMeshQuery& q = s.query();
            const query::PathMode m = path_mode(mode);
            query::QueryFilter filter;
            filter.use_links = user_edges;
            const auto n = static_cast<std::size_t>(starts.shape(0));
            std::vector<query::PathResult> results(n);
            const double *a = starts.data(), *b = ends.data();
            for (std::size_t i = 0; i < n; ++i) {
                checked_point(a[3 * i], a[3 * i + 1], a[3 * i + 2], "starts[" + std::to_string(i) + "]");
                checked_point(b[3 * i], b[3 * i + 1], b[3 * i + 2], "ends[" + std::to_string(i) + "]");
            }
            {
                py::gil_scoped_release release;
                parallel_for(n, threads, [&](std::size_t i) {
                    results[i] = q.find_path(query_frame<M>({a[3 * i], a[3 * i + 1], a[3 * i + 2]}),
                                             query_frame<M>({b[3 * i], b[3 * i + 1], b[3 * i + 2]}), m, filter);
                });
            }
            py::list list;
            for (auto& r : results) list.append(path_dict(std::move(r), mesh_frame<M>));
            return list;
        }, py::arg("starts"), py::arg("ends"), py::arg("mode") = "exact", py::arg("user_edges") = true,
           py::arg("threads") = 0,
           "find_path for N pairs (N×3 arrays), on `threads` threads (0 = all cores), GIL released.")
        .def("raycast", [](M& s, py::object start, py::object end) {
            const query::NavMeshQuery& q = s.query();
            const query::RaycastResult r = q.raycast(query_frame<M>(vec3_of(start, "start")), query_frame<M>(vec3_of(end, "end")));
            py::dict d;
            d["hit"] = r.hit;
            d["t"] = r.t;
            d["hit_point"] = points_array({mesh_frame<M>(r.hit_point)});
            d["wall_face"] = r.hit ? py::object(py::int_(r.wall_face)) : py::object(py::none());
            d["normal"] = points_array({mesh_frame<M>(r.normal)});
            d["faces"] = r.faces;
            d["off_mesh"] = r.off_mesh;
            return d;
        }, py::arg("start"), py::arg("end"),
           "Detour-style raycast along the surface: hit, t (fraction of the way seen from above), hit_point, "
           "wall_face, normal, faces crossed.")
        .def("islands", [](M& s, bool user_edges) {
            py::list list;
            for (const auto& i : s.query().islands(user_edges)) {
                py::dict d;
                d["faces"] = i.faces;
                d["area_xz"] = i.area_xz;
                // A swap of axes keeps min <= max.
                const query::Vec3 lo = mesh_frame<M>(i.min), hi = mesh_frame<M>(i.max);
                d["min"] = py::make_tuple(lo.x, lo.y, lo.z);
                d["max"] = py::make_tuple(hi.x, hi.y, hi.z);
                list.append(d);
            }
            return list;
        }, py::arg("user_edges") = true, "Reachability islands: faces, area seen from above (m²), bounds.");
}

}  // namespace

void bind_all(py::module_& m) {
    static py::exception<Error> format_error(m, "FormatError", PyExc_ValueError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const Error& e) {
            py::object exc = py::handle(format_error.ptr())(e.what());
            exc.attr("file") = e.file();
            exc.attr("offset") = e.offset() == kNoOffset ? py::object(py::none()) : py::int_(e.offset());
            exc.attr("field") = e.field();
            exc.attr("message") = e.message();
            PyErr_SetObject(format_error.ptr(), exc.ptr());
        }
    });

    py::class_<Mesh, std::shared_ptr<Mesh>> mesh_class(m, "Mesh",
                                                       "One navmesh tagfile (hkaiNavMesh and its companions).");
    mesh_class.def_readonly("name", &Mesh::name, "Member name (binder) or file name.")
        .def_readonly("editable", &Mesh::editable, "Whether the arrays are writable views.")
        .def_property_readonly("sdk_version", [](const Mesh& s) { return s.model->sdk_version; },
                               "SDKV as a number: 20160200 (Sekiro) or 20180100 (Elden Ring).")
        .def_property_readonly("game", [](const Mesh& s) { return game_name(s.model->sdk_version); },
                               "'sekiro', 'eldenring' or 'other', from the SDK version.")
        .def_property_readonly("variants", [](const Mesh& s) {
            py::list out;
            for (const auto& v : s.model->variants) out.append(py::make_tuple(v.name, v.className));
            return out;
        }, "Root variants (name, class) in file order.")
        .def_property_readonly("vertices", [](py::object self) {
            auto& s = self.cast<Mesh&>();
            return float32_rows(s.model->mesh.vertices, self, s.editable);
        }, "Vertices, N×4 float32 (x, y, z, w) in metres; y is up. A view: no copy.")
        .def_property_readonly("faces", [](py::object self) {
            auto& s = self.cast<Mesh&>();
            return vector_view(s.model->mesh.faces, face_dtype(), 0, self, s.editable);
        }, "Faces, structured (startEdgeIndex, startUserEdgeIndex, numEdges, numUserEdges, clusterIndex, padding).")
        .def_property_readonly("edges", [](py::object self) {
            auto& s = self.cast<Mesh&>();
            return vector_view(s.model->mesh.edges, edge_dtype(), 0, self, s.editable);
        }, "Edges, structured (a, b, oppositeEdge, oppositeFace, flags, paddingByte, userEdgeCost): regular edges in face order, then user edges.")
        .def_property_readonly("face_data", [](py::object self) {
            auto& s = self.cast<Mesh&>();
            const auto stride = std::max<std::int32_t>(s.model->mesh.faceDataStriding, 1);
            return vector_view(s.model->mesh.faceData, py::dtype::of<std::int32_t>(), stride, self, s.editable);
        }, "faceData words, faces × faceDataStriding int32.")
        .def_property_readonly("edge_data", [](py::object self) {
            auto& s = self.cast<Mesh&>();
            const auto stride = std::max<std::int32_t>(s.model->mesh.edgeDataStriding, 1);
            return vector_view(s.model->mesh.edgeData, py::dtype::of<std::int32_t>(), stride, self, s.editable);
        }, "edgeData words, edges × edgeDataStriding int32.")
        .def_property_readonly("aabb", [](const Mesh& s) {
            const auto& a = s.model->mesh.aabb;
            py::array_t<float> out({2, 4});
            const float v[8] = {a.min.x, a.min.y, a.min.z, a.min.w, a.max.x, a.max.y, a.max.z, a.max.w};
            std::copy(v, v + 8, out.mutable_data());
            return out;
        }, "The mesh's stored hkAabb as 2×4 float32 (min, max; w holds the margin). A copy.")
        .def_property_readonly("tree_nodes", [](py::object self) -> py::object {
            auto& s = self.cast<Mesh&>();
            if (!s.model->mediator) return py::none();
            return vector_view(s.model->mediator->nodes, tree_node_dtype(), 0, self, s.editable);
        }, "Elden Ring: the 6-byte AABB-tree nodes in pre-order (xyz, hiData, loData); None otherwise.")
        .def("tree_leaves", &tree_leaves,
             "Elden Ring: the decoded tree as (leaf face indices, boxes L×2×3 float64 min/max); None without a tree.")
        .def_property_readonly("cluster_graph", [](const Mesh& s) -> py::object {
            if (!s.model->graph) return py::none();
            return py::cast(std::make_shared<ClusterGraph>(ClusterGraph{s.model, s.editable}));
        }, "Sekiro: the cluster graph (hkaiDirectedGraphExplicitCost); None otherwise.")
        .def("triangulate", &triangulate,
             "The page's ear-clipped triangles: (T×3 int32 vertex indices, T int32 face index per triangle).")
        .def("save", [](const Mesh& s, const fs::path& out) {
            write_file_atomic(out, fromsoft::write_nav_tagfile(*s.model));
        }, py::arg("path"), "Writes this mesh as a new tagfile (atomic; strict writer checks apply).");
    def_queries(mesh_class);

    py::class_<ClusterGraph, std::shared_ptr<ClusterGraph>>(m, "ClusterGraph", "Sekiro's cluster graph.")
        .def_property_readonly("positions", [](py::object self) {
            auto& g = self.cast<ClusterGraph&>();
            return float32_rows(g.model->graph->positions, self, g.editable);
        }, "Node positions, N×4 float32 (metres).")
        .def_property_readonly("nodes", [](py::object self) {
            auto& g = self.cast<ClusterGraph&>();
            return vector_view(g.model->graph->nodes, graph_node_dtype(), 0, self, g.editable);
        }, "Nodes, structured (startEdgeIndex, numEdges).")
        .def_property_readonly("edges", [](py::object self) {
            auto& g = self.cast<ClusterGraph&>();
            return vector_view(g.model->graph->edges, graph_edge_dtype(), 0, self, g.editable);
        }, "Edges, structured (cost as hkHalf16 bits, flags, target node).");

    py::class_<WorldMesh, std::shared_ptr<WorldMesh>> world_class(
        m, "WorldMesh", "A Far Cry 2 world stitched across its sectors (z up, metres).");
    def_queries(world_class);
    world_class
        .def_property_readonly("vertices", [](py::object self) {
            auto& w = self.cast<WorldMesh&>();
            return vector_view(w.mesh.vertices, py::dtype::of<double>(), 3, self, false);
        }, "Vertices, V×3 float64 world coordinates (a view).")
        .def_property_readonly("triangles", [](py::object self) {
            auto& w = self.cast<WorldMesh&>();
            return vector_view(w.mesh.triangles, py::dtype::of<std::uint32_t>(), 3, self, false);
        }, "Triangles, T×3 uint32 vertex indices (a view).")
        .def_property_readonly("sectors", [](const WorldMesh& w) {
            py::list out;
            for (const auto& r : w.mesh.sectors)
                out.append(py::dict(py::arg("sector") = r.sector, py::arg("first_vertex") = r.first_vertex,
                                    py::arg("vertex_count") = r.vertex_count, py::arg("first_triangle") = r.first_triangle,
                                    py::arg("triangle_count") = r.triangle_count));
            return out;
        }, "Per loaded sector: its id and its ranges of vertices and triangles.")
        .def("neighbours", [](const WorldMesh& w, std::size_t t) {
            if (t + 1 >= w.mesh.neighbour_first.size()) throw py::index_error("triangle out of range");
            return std::vector<std::int64_t>(w.mesh.neighbours.begin() + w.mesh.neighbour_first[t],
                                             w.mesh.neighbours.begin() + w.mesh.neighbour_first[t + 1]);
        }, py::arg("triangle"), "Link entries of a triangle as global triangle indices (-1 none, -2 broken).")
        .def("check", [](const WorldMesh& w) {
            const farcry2::CheckReport r = farcry2::check_world(w.world);
            py::dict d;
            d["ok"] = r.ok();
            d["errors"] = r.errors;
            d["warnings"] = r.warnings;
            d["sectors"] = r.stats.sectors;
            d["triangles"] = r.stats.triangles;
            d["cross_sector_links"] = r.stats.cross_sector_links;
            d["broken_links"] = r.stats.broken_links;
            return d;
        }, "The `navlab fc2 check` verdict and totals.");

    py::class_<File>(m, "File", "An opened binder, tagfile or IGI graph (navlab.open).")
        .def_property_readonly("path", &File::path)
        .def_property_readonly("kind", &File::kind, "'binder', 'tagfile', 'igi' or 'farcry2'.")
        .def_property_readonly("world", &File::world, "Far Cry 2: the stitched WorldMesh.")
        .def_property_readonly("members", &File::members, "Member names (a loose tagfile has one).")
        .def("__len__", &File::size)
        .def("mesh", &File::mesh, py::arg("index"), "The navmesh of member `index` (cached: the same object each call).")
        .def("mesh", &File::mesh_named, py::arg("name"), "The navmesh of the member named `name` (full name, file name or index text).")
        .def("member_bytes", &File::member_bytes, py::arg("index"), "The stored bytes of member `index` (a copy).")
        .def_property_readonly("graph", [](const File& f) { return igi_graph_dict(f.graph()); },
                               "IGI: node ids, positions (N×3 graph-local), radius, links (id1, id2, type), "
                               "route_next/route_cost [from, to].")
        .def("check_routes", [](const File& f) {
            igi::RouteReport r = igi::check_routes(f.graph());
            py::dict d;
            d["ok"] = r.ok();
            d["entries"] = r.entries;
            d["reachable_pairs"] = r.reachable_pairs;
            d["routes_walked"] = r.routes_walked;
            d["problems"] = r.problem_total();
            d["max_cost_difference"] = r.max_cost_difference;
            return d;
        }, "IGI: verifies the stored route table against the links (as `navlab igi check`).")
        .def("save", &File::save, py::arg("path"),
             "Writes the file back (opened with edit=True): changed members re-serialized, others byte for byte.");

    m.def("open", [](const fs::path& path, bool edit) { return std::make_unique<File>(path, edit); },
          py::arg("path"), py::arg("edit") = false,
          "Opens a binder (.nvmhktbnd.dcx / .nvmhktbnd), a .hkx tagfile, an IGI graph .dat, or a Far Cry 2\n"
          "folder / .nvm file.\n"
          "With edit=True mesh arrays are writable views and File.save writes changes back.");

    m.def("audit", [](const std::vector<fs::path>& paths, unsigned threads, std::size_t examples,
                      const std::vector<std::string>& maps, const std::string& game, const fs::path& keys,
                      const fs::path& cache) {
        fromsoft::SourceOptions source;  // what `navlab audit --map/--game/--keys/--cache` fill
        source.maps = maps;
        if (!game.empty()) source.game = archive::parse_game(game);
        source.keys = keys;
        source.cache = cache;
        source.threads = threads;
        std::string text;
        {
            py::gil_scoped_release release;
            text = audit_paths_json(paths, threads, examples, source);
        }
        return py::module_::import("json").attr("loads")(text);
    }, py::arg("paths"), py::arg("threads") = 0, py::arg("examples") = 5, py::kw_only(),
       py::arg("maps") = std::vector<std::string>{}, py::arg("game") = "", py::arg("keys") = fs::path(),
       py::arg("cache") = fs::path(),
       "Audits binders/tagfiles/folders/game installs against rules R01-R97; returns the JSON report as a\n"
       "dict (the bytes of `navlab audit --json`). maps keeps only those binders (map ids, archive paths or\n"
       "file names: `--map`); game ('sekiro' or 'eldenring', default detected), keys and cache apply to game\n"
       "installs as `--game/--keys/--cache` do.");

    m.def("decompress", [](const fs::path& path) {
        PayloadBuffer payload;  // moved out of the Decoded, so it is freed here, not pooled
        {
            py::gil_scoped_release release;
            std::vector<std::uint8_t> file = read_file(path);
            try {
                payload = std::move(dcx::decompress(file).payload);
            } catch (Error& e) {
                e.set_file(path.string());
                throw;
            }
        }
        return py::bytes(reinterpret_cast<const char*>(payload.data()), payload.size());
    }, py::arg("path"), "The payload of a DCX file (any variant) as bytes.");

    m.def("release_memory", [] { return release_pooled_buffer(); },
          "Frees the one payload buffer navlab keeps between binders (up to 64 MiB, io/buffer_pool.h) and\n"
          "returns its size in bytes (0 when none was kept): for a long-running program between jobs.");

    m.def("kraken_decode", [](py::buffer data, std::size_t size) {
        py::buffer_info info = data.request();
        if (info.ndim != 1 || info.itemsize != 1) throw py::value_error("data must be a bytes-like object");
        const std::span<const std::uint8_t> src(static_cast<const std::uint8_t*>(info.ptr), static_cast<std::size_t>(info.size));
        if (size > kraken::max_decoded_size(src.size()))
            throw Error("declared size " + std::to_string(size) + " larger than " + std::to_string(src.size()) +
                        " stream bytes can produce", kNoOffset, "size");
        std::string out(size, '\0');
        {
            py::gil_scoped_release release;
            kraken::decode(src, std::span(reinterpret_cast<std::uint8_t*>(out.data()), out.size()));
        }
        return py::bytes(out);
    }, py::arg("data"), py::arg("size"), "Decodes a raw Oodle Kraken stream into exactly `size` bytes.");
}

}  // namespace navlab::python

PYBIND11_MODULE(_navlab, m) {
    m.doc() = "navlab: FromSoftware, Far Cry 2 and Project IGI navigation data (C++ core).";
    m.attr("__version__") = navlab::kVersion;
    navlab::python::bind_all(m);
}
