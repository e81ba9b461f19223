#include "build/build_spec.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "build/binder_names.h"
#include "io/error.h"
#include "io/json_as.h"

namespace navlab::build {
namespace {

using nlohmann::json;

void only_keys(const json& object, const std::set<std::string>& allowed, const std::string& where,
               const std::string& source) {
    if (!object.is_object()) throw Error("must be a JSON object", kNoOffset, source + ": " + where);
    for (const auto& [key, value] : object.items())
        if (!allowed.count(key)) throw Error("unknown field '" + key + "'", kNoOffset, source + ": " + where);
}

template <class T>
void read(const json& object, const char* key, T& out, const std::string& where, const std::string& source) {
    if (!object.contains(key)) return;
    try {
        out = json_as<T>(object.at(key));
    } catch (const Error& e) {
        throw Error(e.message(), kNoOffset, source + ": " + where + "." + key);
    }
}

double cross_xz(const std::array<float, 2>& a, const std::array<float, 2>& b, const std::array<float, 2>& c) {
    return (static_cast<double>(b[0]) - a[0]) * (static_cast<double>(c[1]) - b[1]) -
           (static_cast<double>(b[1]) - a[1]) * (static_cast<double>(c[0]) - b[0]);
}

/// Separating-axis test of two convex outlines on x/z (touching counts as apart).
bool outlines_overlap(const AreaVolume& a, const AreaVolume& b) {
    auto separated = [](const AreaVolume& p, const AreaVolume& q) {
        for (std::size_t i = 0; i < p.xz.size(); ++i) {
            const auto& u = p.xz[i];
            const auto& v = p.xz[(i + 1) % p.xz.size()];
            const double nx = -(static_cast<double>(v[1]) - u[1]), nz = static_cast<double>(v[0]) - u[0];
            double pmin = INFINITY, pmax = -INFINITY, qmin = INFINITY, qmax = -INFINITY;
            for (const auto& c : p.xz) {
                const double d = c[0] * nx + c[1] * nz;
                pmin = std::min(pmin, d), pmax = std::max(pmax, d);
            }
            for (const auto& c : q.xz) {
                const double d = c[0] * nx + c[1] * nz;
                qmin = std::min(qmin, d), qmax = std::max(qmax, d);
            }
            if (pmax <= qmin || qmax <= pmin) return true;
        }
        return false;
    };
    return !separated(a, b) && !separated(b, a);
}

std::string label(const std::string& name, const char* kind, std::size_t i) {
    return name.empty() ? fmt::format("{} {}", kind, i) : fmt::format("{} {} ('{}')", kind, i, name);
}

}  // namespace

void validate_build_spec(const BuildSpec& s, const std::string& source) {
    auto positive = [&](float v, const char* field) {
        if (!(v > 0) || !std::isfinite(v)) throw Error("must be a positive number", kNoOffset, source + ": " + field);
    };
    positive(s.agent_radius, "agent_radius"), positive(s.agent_height, "agent_height");
    positive(s.cell_size, "cell_size"), positive(s.cell_height, "cell_height"), positive(s.tile_size, "tile_size");
    positive(s.detail_sample_distance, "detail_sample_distance"), positive(s.detail_max_error, "detail_max_error");
    // Recast samples the detail mesh on a grid of this spacing over each polygon and casts
    // coordinates divided by it to int: below its documented limit (0.9 cells) the grid is
    // unbounded (0.001 m over a 20 m floor took 2 GB and crashed inside Recast).
    if (!(s.detail_sample_distance >= 0.9 * static_cast<double>(s.cell_size)))
        throw Error(fmt::format("{} m is below 0.9 cells of cell_size {} m (Recast's limit for the detail mesh)",
                                s.detail_sample_distance, s.cell_size),
                    kNoOffset, source + ": detail_sample_distance");
    if (!(s.agent_climb >= 0)) throw Error("must be 0 or more", kNoOffset, source + ": agent_climb");
    if (!(s.max_slope_degrees > 0 && s.max_slope_degrees < 90)) throw Error("must be in (0, 90)", kNoOffset, source + ": max_slope");
    if (!(s.merge_off_plane >= 0)) throw Error("must be 0 or more", kNoOffset, source + ": merge_off_plane");
    const double cells = s.tile_size / s.cell_size;
    if (std::abs(cells - std::round(cells)) > 1e-3 || cells < 8)
        throw Error(fmt::format("{} m is not a multiple (at least 8) of the cell size {} m", s.tile_size, s.cell_size),
                    kNoOffset, source + ": tile_size");
    // Recast counts in cells: refuse sizes whose counts would overflow its int fields or
    // allocate without bound here, with the field's name, not mid-build. (An infinite ratio
    // passes the multiple test above, as inf - round(inf) is NaN, and is caught here.)
    const double side = cells + 2 * (std::ceil(static_cast<double>(s.agent_radius) / s.cell_size) + 3);
    if (!(side <= kMaxTileCells))
        throw Error(fmt::format("a tile's heightfield would be {:.0f} cells wide (tile_size / cell_size, plus an agent_radius "
                                "border on each side); navlab builds at most {}",
                                side, kMaxTileCells),
                    kNoOffset, source + ": tile_size");
    for (const auto& [value, field] : {std::pair{s.agent_height, "agent_height"}, std::pair{s.agent_climb, "agent_climb"}})
        if (!(static_cast<double>(value) / s.cell_height <= kMaxSpanCells))
            throw Error(fmt::format("{} m is more than {} cells of cell_height {} m (Recast's span height limit)", value,
                                    kMaxSpanCells, s.cell_height),
                        kNoOffset, source + ": " + field);
    if (!is_map_name(s.map)) throw Error("'" + s.map + "' is not a map name like m10_00_00_00", kNoOffset, source + ": map");
    if (s.aabb_margin != 2.0f && s.aabb_margin != 2.4f && s.aabb_margin != 8.0f)
        throw Error(fmt::format("{} is not an Elden Ring margin (2, 2.4 or 8)", s.aabb_margin), kNoOffset,
                    source + ": aabb_margin");
    if (s.volumes.size() > 62) throw Error("more than 62 volumes (Recast area ids 1..62)", kNoOffset, source + ": area_volumes");
    for (std::size_t i = 0; i < s.volumes.size(); ++i) {
        const AreaVolume& v = s.volumes[i];
        const std::string where = source + ": area_volumes: " + label(v.name, "volume", i);
        if (v.xz.size() < 3) throw Error("outline needs 3 or more corners", kNoOffset, where);
        if (!(v.y_max > v.y_min)) throw Error("y_max must be above y_min", kNoOffset, where);
        int sign = 0;
        for (std::size_t k = 0; k < v.xz.size(); ++k) {
            const double c = cross_xz(v.xz[k], v.xz[(k + 1) % v.xz.size()], v.xz[(k + 2) % v.xz.size()]);
            const int sk = c > 0 ? 1 : c < 0 ? -1 : 0;
            if (sk != 0 && sign != 0 && sk != sign) throw Error(fmt::format("outline is not convex at corner {}", (k + 1) % v.xz.size()), kNoOffset, where);
            if (sk != 0) sign = sk;
        }
        if (sign == 0) throw Error("outline has no area", kNoOffset, where);
        for (std::size_t j = 0; j < i; ++j) {
            const AreaVolume& u = s.volumes[j];
            if (u.y_max > v.y_min && v.y_max > u.y_min && outlines_overlap(u, v))
                throw Error("overlaps " + label(u.name, "volume", j) + " (a face can carry one faceData only)", kNoOffset, where);
        }
    }
    for (std::size_t i = 0; i < s.links.size(); ++i) {
        const LinkSpec& l = s.links[i];
        const std::string where = source + ": links: " + label(l.name, "link", i);
        for (float c : {l.from[0], l.from[1], l.from[2], l.to[0], l.to[1], l.to[2]})
            if (!std::isfinite(c)) throw Error("coordinate is not finite", kNoOffset, where);
        if (l.flags != 20 && l.flags != 52) throw Error(fmt::format("flags {} (user edges use 20 or 52)", l.flags), kNoOffset, where);
        if (!l.both_ways && l.flags != 52)
            throw Error("a one-way link needs flags 52 (user edges without an opposite have flags 52)", kNoOffset, where);
        const std::uint32_t low = l.edgeData & 0xFF;
        if ((low != 2 && low != 4 && low != 18 && low != 20) || l.edgeData > 0xFFFF)
            throw Error(fmt::format("edge_data {:#x}: low byte must be 2, 4, 18 or 20, nothing above the second byte", l.edgeData),
                        kNoOffset, where);
        if (!(l.width > 0)) throw Error("width must be positive", kNoOffset, where);
        if (l.setup_half_extents)
            for (float h : *l.setup_half_extents)
                if (!(h > 0) || !std::isfinite(h)) throw Error("setup half_extents must be positive", kNoOffset, where);
    }
}

BuildSpec parse_build_spec(const std::string& text, const std::string& source) {
    json j;
    try {
        j = json_parse<json>(text);
    } catch (Error& e) {
        throw e.set_file(source);
    }
    only_keys(j, {"agent_radius", "agent_height", "agent_climb", "max_slope", "cell_size", "cell_height", "tile_size",
                  "detail_sample_distance", "detail_max_error", "merge_off_plane", "map", "aabb_margin", "face_data",
                  "area_volumes", "links"},
              "top level", source);
    BuildSpec s;
    const std::string top = "top level";
    read(j, "agent_radius", s.agent_radius, top, source), read(j, "agent_height", s.agent_height, top, source);
    read(j, "agent_climb", s.agent_climb, top, source), read(j, "max_slope", s.max_slope_degrees, top, source);
    read(j, "cell_size", s.cell_size, top, source), read(j, "cell_height", s.cell_height, top, source);
    read(j, "tile_size", s.tile_size, top, source);
    read(j, "detail_sample_distance", s.detail_sample_distance, top, source);
    read(j, "detail_max_error", s.detail_max_error, top, source);
    read(j, "merge_off_plane", s.merge_off_plane, top, source);
    read(j, "map", s.map, top, source), read(j, "aabb_margin", s.aabb_margin, top, source);
    read(j, "face_data", s.faceData, top, source);
    if (j.contains("area_volumes")) {
        if (!j["area_volumes"].is_array()) throw Error("must be an array", kNoOffset, source + ": area_volumes");
        for (std::size_t i = 0; i < j["area_volumes"].size(); ++i) {
            const json& v = j["area_volumes"][i];
            const std::string where = fmt::format("area_volumes[{}]", i);
            only_keys(v, {"name", "box", "prism", "face_data"}, where, source);
            AreaVolume a;
            read(v, "name", a.name, where, source), read(v, "face_data", a.faceData, where, source);
            if (v.contains("box") == v.contains("prism")) throw Error("needs exactly one of box, prism", kNoOffset, source + ": " + where);
            if (v.contains("box")) {
                only_keys(v["box"], {"min", "max"}, where + ".box", source);
                std::array<float, 3> lo{}, hi{};
                read(v["box"], "min", lo, where + ".box", source), read(v["box"], "max", hi, where + ".box", source);
                a.xz = {{lo[0], lo[2]}, {hi[0], lo[2]}, {hi[0], hi[2]}, {lo[0], hi[2]}};
                a.y_min = lo[1], a.y_max = hi[1];
            } else {
                only_keys(v["prism"], {"xz", "y_min", "y_max"}, where + ".prism", source);
                read(v["prism"], "xz", a.xz, where + ".prism", source);
                read(v["prism"], "y_min", a.y_min, where + ".prism", source);
                read(v["prism"], "y_max", a.y_max, where + ".prism", source);
            }
            s.volumes.push_back(std::move(a));
        }
    }
    if (j.contains("links")) {
        if (!j["links"].is_array()) throw Error("must be an array", kNoOffset, source + ": links");
        for (std::size_t i = 0; i < j["links"].size(); ++i) {
            const json& v = j["links"][i];
            const std::string where = fmt::format("links[{}]", i);
            only_keys(v, {"name", "from", "to", "width", "both_ways", "flags", "edge_data", "setup"}, where, source);
            if (!v.contains("from") || !v.contains("to")) throw Error("needs from and to", kNoOffset, source + ": " + where);
            LinkSpec l;
            read(v, "name", l.name, where, source), read(v, "from", l.from, where, source), read(v, "to", l.to, where, source);
            read(v, "width", l.width, where, source), read(v, "both_ways", l.both_ways, where, source);
            int flags = l.flags;
            read(v, "flags", flags, where, source);
            if (flags < 0 || flags > 255) throw Error("flags out of range", kNoOffset, source + ": " + where);
            l.flags = static_cast<std::uint8_t>(flags);
            read(v, "edge_data", l.edgeData, where, source);
            if (v.contains("setup")) {
                only_keys(v["setup"], {"half_extents"}, where + ".setup", source);
                std::array<float, 3> h{1, 1, 1};
                read(v["setup"], "half_extents", h, where + ".setup", source);
                l.setup_half_extents = h;
            }
            s.links.push_back(std::move(l));
        }
    }
    validate_build_spec(s, source);
    return s;
}

}  // namespace navlab::build
