// `navlab path | nearest | raycast | islands`: queries on FromSoftware, Far Cry 2 and IGI
// navigation data (src/query, docs/query.md).
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli/commands.h"
#include "cli/game_dir_options.h"
#include "cli/number_options.h"
#include "cli/output_guard.h"
#include "export/export.h"
#include "formats/farcry2/world.h"
#include "formats/fromsoft/nav_source.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "formats/igi/graph_io.h"
#include "io/error.h"
#include "io/file.h"
#include "io/json_text.h"
#include "io/parallel.h"
#include "io/shared_bytes.h"
#include "query/igi_path.h"
#include "query/navmesh_query.h"
#include "query/query_input.h"

namespace navlab::cli {
namespace {

using query::Vec3;
using query::QueryInput;
using query::QueryMesh;
using query::mesh_for;
using query::parse_point;
using json = nlohmann::ordered_json;

/// A command-line mistake (exit 2).
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

Vec3 point_option(const std::string& text, const char* name) {
    auto p = parse_point(text);
    if (!p) throw UsageError(fmt::format("{} wants X,Y,Z (three numbers within ±1e7 m), not '{}'", name, text));
    return *p;
}

/// --extents as given (in the input's frame), or nullopt for QueryMesh::extents' default.
std::optional<Vec3> extents_option(const std::string& text) {
    if (text.empty()) return std::nullopt;
    const Vec3 e = point_option(text, "--extents");
    if (e.x < 0 || e.y < 0 || e.z < 0)
        throw UsageError(fmt::format("--extents are half-sizes of the search box: three numbers >= 0, not '{}'", text));
    return e;
}

bool is_igi(const std::filesystem::path& p) { return exporter::family_of(p.string()) == exporter::Family::Igi; }

/// The faces a query runs over (query::load_query_input), with the command that routes over an
/// IGI graph named when one is given.
QueryInput load_query_input(const std::string& input, const std::string& entry, const fromsoft::SourceOptions& source) {
    if (is_igi(input))
        throw Error("an IGI graph has no faces to query: `navlab path FILE --from-node A --to-node B` routes over it")
            .set_file(input);
    return query::load_query_input(input, entry, source);
}

json point_json(const Vec3& p) { return json::array({p.x, p.y, p.z}); }

json path_json(const QueryMesh& m, const query::PathResult& r, bool named) {
    json j;
    j["status"] = query::status_name(r.status);
    bool found = r.status == query::PathStatus::Found;
    j["length"] = found ? json(r.length) : json(nullptr);
    j["length_xz"] = found ? json(r.length_xz) : json(nullptr);
    json pts = json::array();
    for (const Vec3& p : r.points) pts.push_back(point_json(m.out(p)));
    j["points"] = pts;
    j["faces"] = r.faces;
    j["links"] = r.links;
    j["start_face"] = r.status == query::PathStatus::OffMesh ? json(nullptr) : json(r.start_face);
    j["end_face"] = r.status == query::PathStatus::OffMesh ? json(nullptr) : json(r.end_face);
    j["mode"] = query::mode_name(r.mode);
    if (r.status == query::PathStatus::OffMesh) j["distance"] = r.off_mesh_distance;
    if (named) j["mesh"] = m.name;
    return j;
}

std::string path_text(const QueryMesh& m, const query::PathResult& r) {
    if (r.status == query::PathStatus::OffMesh)
        return fmt::format("off_mesh: a point is {:.3f} m from the nearest face\n", r.off_mesh_distance);
    if (r.status == query::PathStatus::NoPath)
        return fmt::format("no_path from face {} to face {} [{}]\n", r.start_face, r.end_face, query::mode_name(r.mode));
    std::string s = fmt::format("found: {:.3f} m (xz {:.3f} m), face {} -> face {}, {} faces, {} user edges [{}]\n", r.length,
                                r.length_xz, r.start_face, r.end_face, r.faces.size(), r.links.size(), query::mode_name(r.mode));
    for (const Vec3& p : r.points) {
        Vec3 q = m.out(p);
        s += fmt::format("  {:.3f}, {:.3f}, {:.3f}\n", q.x, q.y, q.z);
    }
    return s;
}

/// PAIRS.csv: sx,sy,sz,ex,ey,ez per line; a first line starting with a letter is a header.
std::vector<std::pair<Vec3, Vec3>> read_pairs(const std::string& path) {
    const SharedBytes file = SharedBytes::map_file(path);
    std::string text(reinterpret_cast<const char*>(file.data()), file.size());
    std::vector<std::pair<Vec3, Vec3>> out;
    std::istringstream lines(text);
    std::string line;
    for (std::size_t n = 1; std::getline(lines, line); ++n) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        if (n == 1 && std::isalpha(static_cast<unsigned char>(line[line.find_first_not_of(" \t")]))) continue;
        std::vector<double> v;
        std::istringstream in(line);
        std::string cell;
        bool ok = true;
        while (std::getline(in, cell, ',')) {
            try {
                std::size_t used = 0;
                v.push_back(std::stod(cell, &used));
                ok = ok && cell.find_first_not_of(" \t", used) == std::string::npos && query::usable_coordinate(v.back());
            } catch (const std::exception&) {
                ok = false;
            }
        }
        if (!ok || v.size() != 6)
            throw Error(fmt::format("line {}: expected sx,sy,sz,ex,ey,ez (six numbers within ±1e7 m), got '{}'", n, line),
                        kNoOffset, "pairs")
                .set_file(path);
        out.push_back({{v[0], v[1], v[2]}, {v[3], v[4], v[5]}});
    }
    // An empty list would write "[]" and exit 0: a wrong file given looks like a run with no paths.
    if (out.empty()) throw Error("no pairs: expected lines sx,sy,sz,ex,ey,ez", kNoOffset, "pairs").set_file(path);
    return out;
}

struct PathOptions {
    std::string input, entry, from, to, mode = "exact", json, pairs, extents, guide;
    bool no_user_edges = false;
    unsigned threads = 1;
    std::int64_t exclude = 0;
    std::vector<std::string> costs;
    std::optional<std::int32_t> from_node, to_node;
    SourceArgs source;  ///< --map, --game, --keys
};

query::QueryFilter filter_of(const PathOptions& o) {
    query::QueryFilter f;
    f.use_links = !o.no_user_edges;
    f.exclude_bits = static_cast<std::uint32_t>(o.exclude);
    for (const std::string& c : o.costs) {
        auto eq = c.find('=');
        try {
            if (eq == std::string::npos) throw std::invalid_argument(c);
            int bit = std::stoi(c.substr(0, eq));
            double m = std::stod(c.substr(eq + 1));
            if (bit < 0 || bit > 31 || !(m >= 1)) throw std::invalid_argument(c);
            f.cost_multipliers.push_back({bit, m});
        } catch (const std::exception&) {
            throw UsageError(fmt::format("--cost wants BIT=MULTIPLIER (bit 0-31, multiplier >= 1), not '{}'", c));
        }
    }
    return f;
}

void write_or_print(const std::string& json_path, const json& j, const std::string& text) {
    if (!json_path.empty()) write_file_atomic(json_path, json_text(j, 1) + "\n");
    else fmt::print("{}", text);
}

int run_igi_path(const PathOptions& o) {
    if (!o.from_node || !o.to_node) throw UsageError("an IGI graph needs --from-node A --to-node B");
    const igi::Graph g = igi::read_graph_file(o.input);
    query::IgiPathReport r;
    try {
        r = query::igi_path(g, *o.from_node, *o.to_node);
    } catch (Error& e) {
        throw e.set_file(o.input);  // "graph1.dat: node: 7 is not a node of the graph"
    }
    auto route = [](const query::IgiRoute& x) {
        return json{{"reached", x.reached}, {"nodes", x.nodes}, {"length", x.length}, {"problem", x.problem}};
    };
    json j{{"from", *o.from_node}, {"to", *o.to_node}, {"table", route(r.table)}, {"stored_cost", r.stored_cost},
           {"dijkstra", route(r.shortest)}, {"match", r.match}};
    auto line = [](const char* what, const query::IgiRoute& x) {
        std::string nodes;
        for (std::int32_t n : x.nodes) nodes += (nodes.empty() ? "" : " ") + std::to_string(n);
        return fmt::format("{}: {} ({:.3f}){}\n", what, nodes, x.length, x.reached ? "" : "  stopped: " + x.problem);
    };
    std::string text = line("route table", r.table) + line("dijkstra   ", r.shortest) +
                       fmt::format("stored cost {:.3f}; {}\n", r.stored_cost, r.match ? "match" : "MISMATCH");
    write_or_print(o.json, j, text);
    return r.match ? kOk : kFailed;
}

int run_path(const PathOptions& o) {
    if (is_igi(o.input)) return run_igi_path(o);
    if (o.mode != "exact" && o.mode != "corridor") throw UsageError("--mode is exact or corridor, not " + o.mode);
    query::PathMode mode = o.mode == "exact" ? query::PathMode::Exact : query::PathMode::Corridor;
    query::QueryFilter filter = filter_of(o);
    if (!o.guide.empty() && o.guide != "clusters") throw UsageError("--guide is clusters, not " + o.guide);
    const std::optional<Vec3> ext = extents_option(o.extents);
    if (o.pairs.empty() == (o.from.empty() || o.to.empty()))
        throw UsageError("give either --from X,Y,Z --to X,Y,Z or --pairs PAIRS.csv");
    if (!o.pairs.empty() && o.json.empty()) throw UsageError("--pairs needs --json FILE");
    std::vector<std::pair<Vec3, Vec3>> pairs;
    if (!o.pairs.empty()) pairs = read_pairs(o.pairs);
    else pairs.push_back({point_option(o.from, "--from"), point_option(o.to, "--to")});
    QueryInput in = load_query_input(o.input, o.entry, o.source.options());
    bool named = in.meshes.size() > 1;
    std::vector<json> results(pairs.size());
    std::vector<std::string> texts(pairs.size());
    parallel_for(pairs.size(), std::max(1u, o.threads), [&](std::size_t i) {
        const QueryMesh& m = mesh_for(in, pairs[i].first);
        query::QueryFilter f = filter;
        if (!o.guide.empty() && m.guide) f.cluster_guide = &*m.guide;
        query::PathResult r = m.query->find_path(m.in(pairs[i].first), m.in(pairs[i].second), mode, f, m.extents(ext));
        results[i] = path_json(m, r, named);
        texts[i] = named ? m.name + ": " + path_text(m, r) : path_text(m, r);
    });
    if (!o.pairs.empty()) write_file_atomic(o.json, json_text(json(results), 1) + "\n");
    else write_or_print(o.json, results[0], texts[0]);
    return kOk;
}

struct PointOptions {
    std::string input, entry, point, from, to, extents, json;
    SourceArgs source;  ///< --map, --game, --keys
};

/// Prints or writes one answer on mesh m, naming the mesh (in the JSON and the text) when the
/// input holds several: a face index means nothing without its mesh.
int answer(const PointOptions& o, const QueryInput& in, const QueryMesh& m, json j, const std::string& text) {
    const bool named = in.meshes.size() > 1;
    if (named) j["mesh"] = m.name;
    write_or_print(o.json, j, named ? m.name + ": " + text : text);
    return kOk;
}

int run_nearest(const PointOptions& o) {
    Vec3 p = point_option(o.point, "X,Y,Z");
    const std::optional<Vec3> ext = extents_option(o.extents);
    QueryInput in = load_query_input(o.input, o.entry, o.source.options());
    const QueryMesh& m = mesh_for(in, p);
    query::NearestResult r = m.query->nearest_face(m.in(p), m.extents(ext));
    if (m.zup) r.point = m.out(r.point);
    json j{{"found", r.found}};
    if (r.found) j.update(json{{"face", r.face}, {"point", point_json(r.point)}, {"distance", r.distance}});
    else j["distance_to_mesh"] = m.query->nearest_face_anywhere(m.in(p)).distance;
    std::string text = r.found ? fmt::format("face {}: {:.3f}, {:.3f}, {:.3f} ({:.3f} m away)\n", r.face, r.point.x, r.point.y,
                                             r.point.z, r.distance)
                               : fmt::format("off_mesh: no face within the extents; the mesh is {:.3f} m away\n",
                                             j["distance_to_mesh"].get<double>());
    return answer(o, in, m, j, text);
}

int run_raycast(const PointOptions& o) {
    Vec3 a = point_option(o.from, "--from"), b = point_option(o.to, "--to");
    QueryInput in = load_query_input(o.input, o.entry, o.source.options());
    const QueryMesh& m = mesh_for(in, a);
    query::RaycastResult r = m.query->raycast(m.in(a), m.in(b));
    json j{{"status", r.off_mesh ? "off_mesh" : (r.hit ? "hit" : "clear")}, {"t", r.t}};
    if (!r.off_mesh) {
        j["point"] = point_json(m.out(r.hit_point));
        j["faces"] = r.faces;
        if (r.hit) j.update(json{{"wall_face", r.wall_face}, {"wall_edge", r.wall_edge}, {"normal", point_json(m.out(r.normal))}});
    }
    std::string text = r.off_mesh ? "off_mesh: the start point is on no face\n"
                       : r.hit    ? fmt::format("hit at t = {:.6f}: wall edge {} of face {}, normal {:.3f}, {:.3f}, {:.3f}; {} faces crossed\n",
                                                r.t, r.wall_edge, r.wall_face, m.out(r.normal).x, m.out(r.normal).y, m.out(r.normal).z, r.faces.size())
                                  : fmt::format("clear: the target is reached; {} faces crossed\n", r.faces.size());
    return answer(o, in, m, j, text);
}

int run_islands(const PointOptions& o) {
    QueryInput in = load_query_input(o.input, o.entry, o.source.options());
    json all = json::array();
    std::string text;
    for (const QueryMesh& m : in.meshes) {
        auto islands = m.query->islands(true);
        json list = json::array();
        text += fmt::format("{}: {} faces, {} islands (user edges included, one way)\n", m.name, m.query->face_count(), islands.size());
        for (std::size_t i = 0; i < islands.size(); ++i) {
            const query::Island& s = islands[i];
            Vec3 lo = m.out(s.min), hi = m.out(s.max);
            list.push_back({{"island", i}, {"face_count", s.faces.size()}, {"area_xz", s.area_xz}, {"min", point_json(lo)},
                            {"max", point_json(hi)}, {"faces", s.faces}});
            text += fmt::format("  island {}: {} faces, {:.1f} m2, box {:.1f},{:.1f},{:.1f} .. {:.1f},{:.1f},{:.1f}\n", i, s.faces.size(),
                                s.area_xz, lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
        }
        all.push_back({{"mesh", m.name}, {"faces", m.query->face_count()}, {"islands", list}});
    }
    write_or_print(o.json, all, text);
    return kOk;
}

/// Runs a command body, mapping usage mistakes to exit 2.
template <class F>
void guarded(F&& f) {
    try {
        set_exit(f());
    } catch (const UsageError& e) {
        fmt::print(stderr, "navlab: usage: {}\n", e.what());
        set_exit(kUsage);
    }
}

/// A subcommand on one navmesh input (nearest, raycast, islands): INPUT, --entry, --map/--game/
/// --keys/--cache and --json, running `run` on its options; the caller adds the rest.
/// `summary` is the command's line in `navlab --help`; `details` its help's footer.
std::pair<CLI::App*, std::shared_ptr<PointOptions>> add_mesh_command(CLI::App& app, const char* name, const std::string& summary,
                                                                     const std::string& details, int (*run)(const PointOptions&)) {
    auto o = std::make_shared<PointOptions>();
    auto* cmd = app.add_subcommand(name, summary);
    cmd->footer(details);
    cmd->add_option("input", o->input, "Navmesh file or folder")->required();
    cmd->add_option("--entry", o->entry, "Binder entry (name or index) or Far Cry 2 sector");
    add_source_options(cmd, o->source, false);
    cmd->add_option("--json", o->json, "Write the result as JSON to FILE")->check(json_report_file());
    cmd->callback([o, run] { guarded([&] { return run(*o); }); });
    return {cmd, o};
}

}  // namespace

void add_query_commands(CLI::App& app) {
    auto inputs = "INPUT: a FromSoftware binder (.nvmhktbnd.dcx) or .hkx tagfile (every navmesh in it, or --entry NAME|INDEX),\n"
                  "a Sekiro / Elden Ring install's Game/ folder read in place with --map MAP_ID (m60_44_36_00) or the\n"
                  "binder's archive path (docs/archives.md), a Far Cry 2 world folder or .nvm file (points in its\n"
                  "z-up world coordinates; --entry SECTOR), or for `path` an IGI graph<id>.dat.\n";
    {
        auto o = std::make_shared<PathOptions>();
        auto* cmd = app.add_subcommand("path", "Shortest path between two points over a navmesh (or an IGI route)");
        cmd->footer(std::string(inputs) +
                "Modes: exact (default; the true shortest path seen from above, any angle, Polyanya) or corridor\n"
                "(Detour-style A* over faces + funnel). User edges are one-way links unless --no-user-edges.\n"
                "--guide clusters (corridor mode): search Sekiro's cluster graph first, then the faces of the clusters\n"
                "on that path and their neighbours only (unguided when that finds none; meshes without a graph and\n"
                "exact mode are unguided). Faster on long queries; the path may differ (docs/query.md).\n"
                "Output: status found|no_path|off_mesh, 3-D and xz length, points, faces, user edges taken; --json FILE\n"
                "writes {status, length, length_xz, points, faces, links, start_face, end_face, mode} (an array with --pairs).\n"
                "PAIRS.csv: sx,sy,sz,ex,ey,ez per line (a first line starting with a letter is a header).\n\n"
                "Examples: navlab path m10.nvmhktbnd.dcx --from 10,2,5 --to 80,4,60\n"
                "          navlab path n10.hkx --pairs pairs.csv --json out.json --mode corridor --threads 2\n"
                "          navlab path graph1.dat --from-node 3 --to-node 17\n"
                "          navlab path ~/ELDEN\\ RING/Game --map m60_44_36_00 --from 10,2,5 --to 80,4,60");
        cmd->add_option("input", o->input, "Navmesh file or folder, or IGI graph .dat")->required();
        cmd->add_option("--entry", o->entry, "Binder entry (name or index) or Far Cry 2 sector");
        add_source_options(cmd, o->source, false);
        cmd->add_option("--from", o->from, "Start point X,Y,Z");
        cmd->add_option("--to", o->to, "End point X,Y,Z");
        cmd->add_option("--pairs", o->pairs, "CSV of queries (needs --json)");
        cmd->add_option("--mode", o->mode, "exact (default) or corridor");
        cmd->add_option("--guide", o->guide, "clusters: corridor mode guided by the Sekiro cluster graph");
        cmd->add_flag("--no-user-edges", o->no_user_edges, "Do not take user edges (jumps, drops, ladders)");
        cmd->add_option("--exclude", o->exclude, "Avoid faces whose faceData has any of these bits (mask)")
            ->transform(whole_number(UINT32_MAX, true));
        cmd->add_option("--cost", o->costs, "BIT=MULTIPLIER: scale the cost inside faces with that faceData bit (corridor)");
        cmd->add_option("--extents", o->extents,
                        "Half extents X,Y,Z of the search box around each point, in the input's frame "
                        "(default 1 m across, 2 m up)");
        cmd->add_option("--threads", o->threads, "Worker threads for --pairs (default 1)");
        cmd->add_option("--from-node", o->from_node, "IGI: start node id");
        cmd->add_option("--to-node", o->to_node, "IGI: end node id");
        cmd->add_option("--json", o->json, "Write the result as JSON to FILE")->check(json_report_file());
        cmd->callback([o] { guarded([&] { return run_path(*o); }); });
    }
    {
        auto [cmd, o] = add_mesh_command(app, "nearest",
                                         "The face nearest to a point and the closest point on it",
                                         std::string(inputs) + "Example: navlab nearest n10.hkx 12.5,3,40 --extents 2,4,2",
                                         run_nearest);
        cmd->add_option("point", o->point, "X,Y,Z")->required();
        cmd->add_option("--extents", o->extents,
                        "Half extents X,Y,Z of the search box, in the input's frame (default 1 m across, 2 m up)");
    }
    {
        auto [cmd, o] = add_mesh_command(app, "raycast",
                                         "Walk a straight line (seen from above) along the surface until a wall",
                                         std::string(inputs) + "Output: hit fraction t, wall edge and normal, faces crossed.\n"
                                                      "Example: navlab raycast n10.hkx --from 10,2,5 --to 30,2,5",
                                         run_raycast);
        cmd->add_option("--from", o->from, "Start point X,Y,Z")->required();
        cmd->add_option("--to", o->to, "Target point X,Y,Z")->required();
    }
    add_mesh_command(app, "islands",
                     "Islands: sets of faces that reach each other (user edges one way)",
                     std::string(inputs) + "Output per island: faces, area seen from above, bounding box.\n"
                         "Example: navlab islands m10.nvmhktbnd.dcx --json islands.json",
                     run_islands);
}

}  // namespace navlab::cli
