#include "query/query_input.h"

#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>

#include "container/binder_file.h"
#include "formats/fromsoft/nav_source.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "io/error.h"
#include "io/text.h"

namespace navlab::query {
namespace {

bool is_fc2(const std::filesystem::path& p) {
    if (std::filesystem::is_directory(p)) {
        for (const auto& e : std::filesystem::recursive_directory_iterator(p))
            if (e.path().extension() == ".nvm") return true;
        return false;
    }
    return p.extension() == ".nvm";
}

}  // namespace

std::optional<Vec3> parse_point(const std::string& text) {
    Vec3 v;
    char c1 = 0, c2 = 0;
    std::istringstream in(text);
    if (!(in >> v.x >> c1 >> v.y >> c2 >> v.z) || c1 != ',' || c2 != ',') return std::nullopt;
    in >> std::ws;
    if (!in.eof() || !usable_coordinate(v.x) || !usable_coordinate(v.y) || !usable_coordinate(v.z)) return std::nullopt;
    return v;
}

QueryInput load_query_input(const std::string& path, const std::string& entry, const fromsoft::SourceOptions& source) {
    if (fromsoft::is_binder_source(path, source)) return load_query_input(fromsoft::open_one_binder(path, source), entry);
    QueryInput in;
    if (!std::filesystem::exists(path)) throw Error("no such file or folder").set_file(path);
    if (to_lower(std::filesystem::path(path).extension().string()) == ".dat")  // read as a tagfile, it failed on TAG0
        throw Error("an IGI graph has nodes and links, no faces to query (a route runs between node ids)")
            .set_file(path);
    if (is_fc2(path)) {
        in.world = std::make_unique<farcry2::World>(farcry2::load_world(path));
        // The whole world is queried unless one sector is chosen: export and view draw the rest
        // and name what they skipped.
        if (entry.empty()) farcry2::require_every_file_read(*in.world);
        in.world_mesh = std::make_unique<farcry2::WorldMesh>(farcry2::stitch(*in.world, farcry2::parse_sector_entry(entry)));
        QueryMesh m;
        m.name = path;
        m.view = std::make_unique<Fc2View>(*in.world_mesh, path);
        m.query = std::make_unique<NavMeshQuery>(*m.view);
        m.zup = true;
        in.meshes.push_back(std::move(m));
        return in;
    }
    return load_query_input(fromsoft::NavFile::open(path), entry);
}

QueryInput load_query_input(const fromsoft::NavFile& nav, const std::string& entry) {
    QueryInput in;
    const std::string& path = nav.name();
    try {
        const fromsoft::NavFile chosen = nav.select(entry);  // the one entry rule of NavFile::open
        for (const fromsoft::NavEntry& e : chosen.entries()) {
            in.tagfiles.push_back(std::make_unique<fromsoft::NavTagfile>(container::read_entry(
                fromsoft::container_entry(e), [](const SharedBytes& b) { return fromsoft::read_nav_tagfile(b); })));
            const fromsoft::NavTagfile& t = *in.tagfiles.back();
            // A tagfile of another kind (an animation, a collision mesh) reads, without faces:
            // it is no navmesh to query ("0 faces, 0 islands" before), not an empty one.
            if (!fromsoft::holds_navmesh(t)) {
                in.tagfiles.pop_back();
                continue;
            }
            QueryMesh m;
            m.name = e.in_binder ? member_location(path, leaf_name(e.name)) : path;  // printed by the commands
            m.view = std::make_unique<FromSoftView>(t.mesh, m.name, &t.layouts);
            m.query = std::make_unique<NavMeshQuery>(*m.view, t.mediator ? &*t.mediator : nullptr);
            if (t.graph) m.guide = ClusterGuide::from_mesh(t.mesh, *t.graph);
            in.meshes.push_back(std::move(m));
        }
    } catch (Error& e) {
        e.set_file(path);
        throw;
    }
    if (in.meshes.empty()) throw Error("no navmesh in the input (no hkaiNavMesh in its tagfiles)").set_file(path);
    return in;
}

/// The mesh a point belongs to: the one whose nearest face is closest (a binder without --entry).
const QueryMesh& mesh_for(const QueryInput& in, const Vec3& p) {
    if (in.meshes.size() == 1) return in.meshes[0];
    const QueryMesh* best = &in.meshes[0];
    double bd = INFINITY;
    for (const QueryMesh& m : in.meshes) {
        NearestResult r = m.query->nearest_face_anywhere(m.in(p));
        if (r.found && r.distance < bd) bd = r.distance, best = &m;
    }
    return *best;
}


}  // namespace navlab::query
