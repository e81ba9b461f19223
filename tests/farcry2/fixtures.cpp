#include "farcry2/fixtures.h"

#include <cmath>
#include <map>
#include <tuple>

#include "formats/farcry2/grid.h"
#include "io/file.h"

namespace navlab::farcry2::fixture {
namespace {

/// A directed edge in world quanta (1/256 m), to match edges across sectors exactly.
using EdgeKey = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>;

std::pair<std::int64_t, std::int64_t> quanta(const Vec3& p) {
    return {std::llround(p.x * 256), std::llround(p.y * 256)};
}

EdgeKey edge_key(const Vec3& a, const Vec3& b) {
    auto [ax, ay] = quanta(a);
    auto [bx, by] = quanta(b);
    return {ax, ay, bx, by};
}

/// Grid of (quads+1)^2 vertices over the cell; height rises 1 m per 128 m east, the same function
/// in every sector so that corners on a shared border coincide.
void add_geometry(SectorFile& s, const FixtureOptions& o) {
    const Box2 cell = s.header.box;
    const Packing pack = s.packing();
    const std::uint32_t q = o.quads, row = q + 1;
    for (std::uint32_t j = 0; j <= q; ++j)
        for (std::uint32_t i = 0; i <= q; ++i) {
            const double x = cell.min_x + 64.0 * i / q;
            Vec3 p{x, cell.min_y + 64.0 * j / q, 20.0 + x / 128};
            pack.encode(p, s.vertices.emplace_back());
        }
    for (std::uint32_t j = 0; j < q; ++j)
        for (std::uint32_t i = 0; i < q; ++i) {
            const std::uint32_t a = j * row + i, b = a + 1, c = a + row, d = c + 1;
            for (auto tri : {std::array{a, b, d}, std::array{a, d, c}}) {
                Node& n = s.nodes.emplace_back();
                n.sector_id = s.header.sector_id;
                n.index = static_cast<std::uint16_t>(s.nodes.size() - 1);
                n.vertices = tri;
                n.flags = {1, 0};
                for (std::size_t k = 0; k < n.unknown_tail.size(); ++k)
                    n.unknown_tail[k] = static_cast<std::uint8_t>(n.index + k);
            }
        }
}

/// Centroid (in the version's form) and the normal of each node from its corners.
void finish_nodes(SectorFile& s) {
    for (Node& n : s.nodes) {
        Vec3 p[3], c;
        for (int k = 0; k < 3; ++k) {
            p[k] = s.vertex_position(n.vertices[k]);
            c = {c.x + p[k].x / 3, c.y + p[k].y / 3, c.z + p[k].z / 3};
        }
        s.packing().encode(c, n.centroid);
        n.centroid_f32 = {float(c.x), float(c.y), float(c.z)};
        const Vec3 u{p[1].x - p[0].x, p[1].y - p[0].y, p[1].z - p[0].z};
        const Vec3 v{p[2].x - p[0].x, p[2].y - p[0].y, p[2].z - p[0].z};
        Vec3 nrm{u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
        const double len = std::sqrt(nrm.x * nrm.x + nrm.y * nrm.y + nrm.z * nrm.z);
        n.normal = {std::int8_t(std::lround(nrm.x / len * 127)), std::int8_t(std::lround(nrm.y / len * 127)),
                    std::int8_t(std::lround(nrm.z / len * 127))};
    }
}

/// Edge slots name same-sector neighbours; a neighbour across a sector border is an extra entry.
void add_links(std::vector<SectorFile>& sectors) {
    std::map<EdgeKey, LinkTarget> owner;
    for (const auto& s : sectors)
        for (const Node& n : s.nodes)
            for (int k = 0; k < 3; ++k)
                owner[edge_key(s.vertex_position(n.vertices[k]), s.vertex_position(n.vertices[(k + 1) % 3]))] = {
                    s.header.sector_id, n.index};
    for (auto& s : sectors) {
        for (Node& n : s.nodes) {
            n.link_offset = static_cast<std::uint32_t>(s.links.size());
            std::vector<std::uint32_t> extra;
            for (int k = 0; k < 3; ++k) {
                auto it = owner.find(edge_key(s.vertex_position(n.vertices[(k + 1) % 3]), s.vertex_position(n.vertices[k])));
                std::uint32_t entry = kNoLink;
                if (it != owner.end() && it->second.sector == s.header.sector_id) entry = encode_link(it->second);
                else if (it != owner.end()) extra.push_back(encode_link(it->second));
                s.links.push_back(entry);
            }
            s.links.insert(s.links.end(), extra.begin(), extra.end());
            n.link_count = static_cast<std::uint8_t>(3 + extra.size());
        }
        s.header.reload_size = static_cast<std::uint32_t>(s.nodes.size() * 60);  // the spec's hypothesis
    }
}

std::vector<std::uint8_t> made_up_tail(std::uint16_t id) {
    std::vector<std::uint8_t> tail = {0, 0, 0, 0, 0, 0, 0, 0};  // "zero covers, zero dynamic covers"
    for (int i = 0; i < 21; ++i) tail.push_back(static_cast<std::uint8_t>(0xA5 ^ (id + i)));
    return tail;
}

}  // namespace

std::vector<SectorFile> make_sectors(std::uint32_t row0, std::uint32_t column0, std::uint32_t rows,
                                     std::uint32_t columns, const FixtureOptions& options) {
    std::vector<SectorFile> sectors;
    for (std::uint32_t r = row0; r < row0 + rows; ++r)
        for (std::uint32_t c = column0; c < column0 + columns; ++c) {
            SectorFile& s = sectors.emplace_back();
            s.header.version = options.version;
            s.header.sector_id = static_cast<std::uint16_t>(sector_id(r, c));
            s.header.box = sector_cell(s.header.sector_id);
            add_geometry(s, options);
            finish_nodes(s);
            if (options.tail) s.tail = made_up_tail(s.header.sector_id);
        }
    add_links(sectors);
    return sectors;
}

std::vector<std::uint8_t> sector_bytes(const SectorFile& sector) { return write_sector(sector).bytes; }

std::filesystem::path write_world(const std::filesystem::path& dir, const std::vector<SectorFile>& sectors,
                                  bool mixed_naming) {
    std::filesystem::create_directories(dir / "nv" / "sectors");
    write_file_atomic(dir / "nv" / "sectors" / "nv.nvm", write_level(header_only_level(80, 80)));
    for (const auto& s : sectors) {
        const std::uint32_t id = s.header.sector_id;
        const bool doubled = mixed_naming && id % 2;
        const auto name = sector_file_name(id, doubled ? SectorNaming::Doubled : SectorNaming::Satellite);
        write_file_atomic(dir / "nv" / (doubled ? "" : "sectors") / name, sector_bytes(s));
    }
    return dir;
}

SectorFile spec_example_sector() {
    SectorFile s;
    s.header.sector_id = 2576;
    s.header.box = {1024, 2048, 1088, 2112};
    s.links = {kNoLink, kNoLink, kNoLink};
    Node& n = s.nodes.emplace_back();
    n.sector_id = 2576;
    n.centroid = {85, 85, 640};
    n.normal = {0, 0, 127};
    n.vertices = {0, 1, 2};
    s.vertices = {{0, 0, 640}, {256, 0, 640}, {0, 256, 640}};
    return s;
}

}  // namespace navlab::farcry2::fixture
