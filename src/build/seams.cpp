#include "build/seams.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace navlab::build {
namespace {

/// One inner grid line between tiles a (lower side) and b.
struct Line {
    std::size_t a = 0, b = 0;
    int axis = 0;   ///< coordinate held constant: 0 (x) or 2 (z)
    float value = 0;
    int param = 2;  ///< coordinate along the line
};

std::vector<Line> inner_lines(const TileGrid& g) {
    std::vector<Line> lines;
    for (int tz = 0; tz < g.rows; ++tz)
        for (int k = 1; k < g.cols; ++k) lines.push_back({g.index(k - 1, tz), g.index(k, tz), 0, g.line_x(k), 2});
    for (int k = 1; k < g.rows; ++k)
        for (int tx = 0; tx < g.cols; ++tx) lines.push_back({g.index(tx, k - 1), g.index(tx, k), 2, g.line_z(k), 0});
    return lines;
}

struct BorderEdge {
    int ring = 0;
    int at = 0;  ///< corner index of the edge's start in the ring
    int u = 0, v = 0;
};

/// Directed edges of `t` with no reverse edge in the tile and both ends on the line.
std::vector<BorderEdge> border_edges(const TileFaces& t, const Line& line) {
    std::set<std::pair<int, int>> directed;
    for (const auto& r : t.rings)
        for (std::size_t k = 0; k < r.size(); ++k) directed.insert({r[k], r[(k + 1) % r.size()]});
    std::vector<BorderEdge> out;
    for (std::size_t f = 0; f < t.rings.size(); ++f) {
        const auto& r = t.rings[f];
        for (std::size_t k = 0; k < r.size(); ++k) {
            const int u = r[k], v = r[(k + 1) % r.size()];
            if (t.verts[u][line.axis] != line.value || t.verts[v][line.axis] != line.value) continue;
            if (directed.count({v, u})) continue;
            out.push_back({static_cast<int>(f), static_cast<int>(k), u, v});
        }
    }
    return out;
}

std::vector<int> border_points(const std::vector<BorderEdge>& edges) {
    std::set<int> ids;
    for (const auto& e : edges) ids.insert(e.u), ids.insert(e.v);
    return {ids.begin(), ids.end()};
}

constexpr float kSameSpot = 1e-3f;  // metres along the line

/// Gives b's border vertices the coordinates of a's matching ones; returns how many moved.
int unify(const TileFaces& a, TileFaces& b, const Line& line, float tol_y) {
    const auto pa = border_points(border_edges(a, line));
    int moved = 0;
    for (int vb : border_points(border_edges(b, line))) {
        auto& q = b.verts[vb];
        for (int va : pa) {
            const auto& p = a.verts[va];
            if (std::abs(p[line.param] - q[line.param]) > kSameSpot || std::abs(p[1] - q[1]) > tol_y) continue;
            if (p != q) {
                q = p;
                ++moved;
            }
            break;
        }
    }
    return moved;
}

/// Splits t's border edges at the points `others` (coordinates from the other side) that lie
/// inside them; returns the corners added.
int split_at(TileFaces& t, const Line& line, const std::vector<std::array<float, 3>>& others, float tol_y) {
    const auto edges = border_edges(t, line);
    std::map<std::pair<int, int>, std::vector<int>> inserts;  // (ring, corner) -> new vertices
    int added = 0;
    for (const auto& e : edges) {
        const auto p0 = t.verts[e.u], p1 = t.verts[e.v];
        const float lo = std::min(p0[line.param], p1[line.param]), hi = std::max(p0[line.param], p1[line.param]);
        std::vector<std::pair<float, std::array<float, 3>>> inside;
        for (const auto& q : others) {
            if (q[line.param] <= lo + kSameSpot || q[line.param] >= hi - kSameSpot) continue;
            const double s = (static_cast<double>(q[line.param]) - p0[line.param]) /
                             (static_cast<double>(p1[line.param]) - p0[line.param]);
            if (std::abs(p0[1] + s * (p1[1] - p0[1]) - q[1]) > tol_y) continue;
            inside.push_back({static_cast<float>(s), q});
        }
        if (inside.empty()) continue;
        std::sort(inside.begin(), inside.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        auto& list = inserts[{e.ring, e.at}];
        for (const auto& [s, q] : inside) {
            list.push_back(static_cast<int>(t.verts.size()));
            t.verts.push_back(q);
            ++added;
        }
    }
    // Insert from the back of each ring so earlier corner indices stay valid.
    for (auto it = inserts.rbegin(); it != inserts.rend(); ++it) {
        auto& ring = t.rings[it->first.first];
        ring.insert(ring.begin() + it->first.second + 1, it->second.begin(), it->second.end());
    }
    return added;
}

std::vector<std::array<float, 3>> coordinates(const TileFaces& t, const std::vector<int>& ids) {
    std::vector<std::array<float, 3>> out;
    for (int v : ids) out.push_back(t.verts[v]);
    return out;
}

}  // namespace

void snap_to_tile_lines(TileFaces& tile, const TileGrid& grid, float tolerance) {
    const float xs[2] = {grid.line_x(tile.tx), grid.line_x(tile.tx + 1)};
    const float zs[2] = {grid.line_z(tile.tz), grid.line_z(tile.tz + 1)};
    for (auto& v : tile.verts)
        for (int i = 0; i < 2; ++i) {
            if (std::abs(v[0] - xs[i]) <= tolerance) v[0] = xs[i];
            if (std::abs(v[2] - zs[i]) <= tolerance) v[2] = zs[i];
        }
}

SeamReport stitch_seams(std::vector<TileFaces>& tiles, const TileGrid& grid, float height_tolerance) {
    SeamReport report;
    const auto lines = inner_lines(grid);
    // A corner where four tiles meet is on two lines: repeat until no vertex moves.
    for (int pass = 0; pass < 8; ++pass) {
        int moved = 0;
        for (const Line& line : lines) moved += unify(tiles[line.a], tiles[line.b], line, height_tolerance);
        report.moved_vertices += moved;
        if (moved == 0) break;
    }
    for (const Line& line : lines) {
        TileFaces& a = tiles[line.a];
        TileFaces& b = tiles[line.b];
        const auto from_a = coordinates(a, border_points(border_edges(a, line)));
        const auto from_b = coordinates(b, border_points(border_edges(b, line)));
        report.inserted_vertices += split_at(a, line, from_b, height_tolerance);
        report.inserted_vertices += split_at(b, line, from_a, height_tolerance);
    }
    const SeamReport counted = count_seam_edges(tiles, grid);
    report.seam_edges = counted.seam_edges;
    report.unmatched_edges = counted.unmatched_edges;
    return report;
}

SeamReport count_seam_edges(const std::vector<TileFaces>& tiles, const TileGrid& grid) {
    SeamReport report;
    for (const Line& line : inner_lines(grid)) {
        const TileFaces& a = tiles[line.a];
        const TileFaces& b = tiles[line.b];
        std::set<std::pair<std::array<float, 3>, std::array<float, 3>>> in_b;
        const auto eb = border_edges(b, line);
        for (const auto& e : eb) in_b.insert({b.verts[e.u], b.verts[e.v]});
        const auto ea = border_edges(a, line);
        int matched = 0;
        for (const auto& e : ea) matched += in_b.count({a.verts[e.v], a.verts[e.u]}) > 0;
        report.seam_edges += matched;
        report.unmatched_edges += static_cast<int>(ea.size() + eb.size()) - 2 * matched;
    }
    return report;
}

}  // namespace navlab::build
