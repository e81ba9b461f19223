#include "formats/farcry2/world.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "io/shared_bytes.h"
#include "io/parallel.h"

namespace navlab::farcry2 {
namespace {

namespace fs = std::filesystem;

/// Retail tolerance of "centroid = mean of the corners" (spec §5.6): two quantisation steps.
constexpr double kCentroidToleranceXY = 0.01, kCentroidToleranceZ = 0.07;

/// Whether `read` parses the bytes without an error.
template <class Read>
bool readable(Read read, Bytes bytes) {
    try {
        read(bytes);
        return true;
    } catch (const Error&) {
        return false;
    }
}

Finding finding_of(const Error& e, const std::string& path) {
    return finding_at(Finding::Severity::Error, path, e.offset(), e.field().empty() ? e.message() : e.field() + ": " + e.message());
}

/// What reading one file of a folder produced.
struct FileResult {
    std::optional<FileKind> kind;
    std::optional<LevelFile> level;
    std::optional<SectorFile> sector;
    std::optional<Finding> failure;
};

FileResult read_one(const fs::path& path) {
    FileResult out;
    try {
        const SharedBytes in = SharedBytes::map_file(path);
        out.kind = kind_of(path.filename().string(), in);
        if (*out.kind == FileKind::Level) out.level = read_level(in);
        else out.sector = read_sector(in);
    } catch (const Error& e) {
        out.failure = finding_of(e, path.string());
    }
    return out;
}

void add_sector(World& world, std::string path, SectorFile file) {
    auto name_index = parse_sector_file_name(fs::path(path).filename().string());
    world.sectors.push_back({std::move(path), std::move(file), name_index});
}

/// Sorts sectors by id and moves later duplicates of an id to the failures.
void index_sectors(World& world) {
    std::stable_sort(world.sectors.begin(), world.sectors.end(), [](const auto& a, const auto& b) {
        return a.file.header.sector_id < b.file.header.sector_id;
    });
    std::vector<LoadedSector> unique;
    for (auto& s : world.sectors) {
        if (!unique.empty() && unique.back().file.header.sector_id == s.file.header.sector_id) {
            world.failures.push_back(finding_at(Finding::Severity::Error, s.path, 0x12,
                                      fmt::format("duplicate sector id {} (also in {}); this file is ignored",
                                                  s.file.header.sector_id, unique.back().path)));
            continue;
        }
        unique.push_back(std::move(s));
    }
    world.sectors = std::move(unique);
}

/// Findings and totals of one sector; merged in sector order.
struct SectorCheck {
    WorldStats stats;
    std::vector<Finding> findings;
};

bool same_point(const Vec3& a, const Vec3& b) {
    return std::abs(a.x - b.x) < 1e-6 && std::abs(a.y - b.y) < 1e-6 && std::abs(a.z - b.z) < 1e-6;
}

/// Whether node `n` of sector `s` has a corner at p.
bool has_corner(const SectorFile& s, const Node& n, const Vec3& p) {
    for (auto v : n.vertices)
        if (same_point(s.vertex_position(v), p)) return true;
    return false;
}

class SectorChecker {
public:
    SectorChecker(const World& world, const LoadedSector& sector, SectorCheck& out)
        : world_(world), sector_(sector), file_(sector.file), at_(layout_of(sector.file)), out_(out) {}

    void run() {
        const auto& h = file_.header;
        out_.stats.sectors = 1;
        out_.stats.triangles = file_.nodes.size();
        out_.stats.vertices = file_.vertices.size();
        out_.stats.tail_bytes = file_.tail.size();
        if (sector_.name_index && *sector_.name_index != h.sector_id)
            add(Finding::Severity::Error, 0x12, fmt::format("header sector id {} differs from the file name's {}", h.sector_id,
                                                  *sector_.name_index));
        if (h.box != sector_cell(h.sector_id)) {
            const Box2 c = sector_cell(h.sector_id);
            add(Finding::Severity::Warning, 0x14,
                fmt::format("box ({}, {})-({}, {}) is not the grid cell of sector {} ({}, {})-({}, {})", h.box.min_x,
                            h.box.min_y, h.box.max_x, h.box.max_y, h.sector_id, c.min_x, c.min_y, c.max_x, c.max_y));
        }
        for (std::size_t i = 0; i < file_.nodes.size(); ++i) check_node(i);
    }

private:
    void add(Finding::Severity severity, std::uint64_t offset, std::string message) {
        out_.findings.push_back(finding_at(severity, sector_.path, offset, std::move(message)));
    }

    void check_node(std::size_t i) {
        const Node& n = file_.nodes[i];
        const std::size_t at = at_.node(i);
        if (n.object_size != 60)
            add(Finding::Severity::Warning, at, fmt::format("node {}: object size {} (retail files store 60)", i, n.object_size));
        if (n.sector_id != file_.header.sector_id)
            add(Finding::Severity::Warning, at + 4, fmt::format("node {}: sector id {} is not the file's {}", i, n.sector_id,
                                                      file_.header.sector_id));
        if (n.index != i) add(Finding::Severity::Warning, at + 6, fmt::format("node {}: stored index {}", i, n.index));
        if (n.link_count < 3)
            add(Finding::Severity::Warning, at + 0x0A, fmt::format("node {}: {} links, fewer than its 3 edges", i, n.link_count));
        check_centroid(i);
        auto links = file_.node_links(n);
        for (std::size_t k = 0; k < links.size(); ++k) check_link(i, k, links[k]);
    }

    void check_centroid(std::size_t i) {
        const Node& n = file_.nodes[i];
        Vec3 mean;
        for (auto v : n.vertices) {
            Vec3 p = file_.vertex_position(v);
            mean = {mean.x + p.x / 3, mean.y + p.y / 3, mean.z + p.z / 3};
        }
        const Vec3 c = file_.centroid_position(n);
        if (std::abs(c.x - mean.x) >= kCentroidToleranceXY || std::abs(c.y - mean.y) >= kCentroidToleranceXY ||
            std::abs(c.z - mean.z) >= kCentroidToleranceZ)
            add(Finding::Severity::Warning, at_.node(i) + 0x0F,
                fmt::format("node {}: centroid ({:.3f}, {:.3f}, {:.3f}) is not the mean of its corners "
                            "({:.3f}, {:.3f}, {:.3f})",
                            i, c.x, c.y, c.z, mean.x, mean.y, mean.z));
    }

    void broken(std::size_t offset, std::string message) {
        ++out_.stats.broken_links;
        add(Finding::Severity::Error, offset, std::move(message));
    }

    void check_link(std::size_t i, std::size_t k, std::uint32_t entry) {
        if (entry == kNoLink) return;
        const Node& n = file_.nodes[i];
        const std::size_t at = at_.link_entry(n.link_offset + k);
        const LinkTarget t = decode_link(entry);
        const std::uint16_t own = file_.header.sector_id;
        const auto what = [&] { return fmt::format("node {} link {} (sector {} node {})", i, k, t.sector, t.node); };
        ++out_.stats.links;
        if (t.sector != own) ++out_.stats.cross_sector_links;
        const LoadedSector* target = t.sector == own ? &sector_ : world_.find(t.sector);
        if (!target) {
            if (!world_.complete) ++out_.stats.unchecked_links;
            else broken(at, what() + ": sector is not loaded");
            return;
        }
        const SectorFile& tf = target->file;
        if (t.node >= tf.nodes.size())
            return broken(at, what() + fmt::format(": node out of range (sector has {} nodes)", tf.nodes.size()));
        if (t.sector == own && t.node == i) return broken(at, what() + ": links to itself");
        const Node& other = tf.nodes[t.node];
        auto back = tf.node_links(other);
        if (std::find(back.begin(), back.end(), encode_link({own, static_cast<std::uint16_t>(i)})) == back.end())
            return broken(at, what() + ": the target does not link back");
        if (k < 3 && !(has_corner(tf, other, file_.vertex_position(n.vertices[k])) &&
                       has_corner(tf, other, file_.vertex_position(n.vertices[(k + 1) % 3]))))
            add(Finding::Severity::Warning, at, what() + fmt::format(": does not share edge {} (T-junction?)", k));
    }

    const World& world_;
    const LoadedSector& sector_;
    const SectorFile& file_;
    SectorLayout at_;
    SectorCheck& out_;
};

void check_level(const World& world, std::vector<Finding>& out) {
    if (!world.level) return;
    const LevelFile& level = *world.level;
    const std::string& path = world.level_path;
    if (level.mode != kModeSingleFileOld && level.mode != kModeSingleFile && level.mode != kModeSatellites)
        out.push_back(finding_at(Finding::Severity::Warning, path, 0x48, fmt::format("unknown mode flag {}", level.mode)));
    if (level.has_grid_x() && std::uint64_t{level.grid_x} * level.grid_y != level.descriptors.size())
        out.push_back(finding_at(Finding::Severity::Warning, path, kNoOffset,
                       fmt::format("sector count {} is not grid {} x {}", level.descriptors.size(), level.grid_x,
                                   level.grid_y)));
    const std::size_t table = descriptor_table_offset(level);
    for (std::size_t i = 0; i < level.descriptors.size(); ++i) {
        if (level.descriptors[i] == 0) continue;
        if (level.mode != kModeSatellites)
            out.push_back(finding_at(Finding::Severity::Warning, path, table + 4 * i,
                           fmt::format("descriptor {} is set in single-file mode; any inline sector data is kept "
                                       "in the opaque tail",
                                       i)));
        else if (world.complete && (i > 0xFFFF || !world.find(static_cast<std::uint16_t>(i))))
            out.push_back(finding_at(Finding::Severity::Error, path, table + 4 * i,
                           fmt::format("descriptor {} says sector {} has a satellite, but {} is not loaded", i, i,
                                       sector_file_name(static_cast<std::uint32_t>(i), SectorNaming::Satellite))));
    }
}

void merge(CheckReport& report, std::vector<Finding>& findings) {
    for (auto& f : findings) {
        report.add(std::move(f));
    }
}

void add_stats(WorldStats& total, const WorldStats& s) {
    total.sectors += s.sectors;
    total.triangles += s.triangles;
    total.vertices += s.vertices;
    total.links += s.links;
    total.cross_sector_links += s.cross_sector_links;
    total.unchecked_links += s.unchecked_links;
    total.broken_links += s.broken_links;
    total.tail_bytes += s.tail_bytes;
}

}  // namespace

FileKind kind_of(std::string_view file_name, Bytes bytes) {
    if (is_level_file_name(file_name)) return FileKind::Level;
    if (parse_sector_file_name(file_name)) return FileKind::Sector;
    if (readable(read_sector, bytes)) return FileKind::Sector;
    return readable(read_level, bytes) ? FileKind::Level : FileKind::Sector;
}

const LoadedSector* World::find(std::uint16_t id) const {
    auto it = std::lower_bound(sectors.begin(), sectors.end(), id,
                               [](const LoadedSector& s, std::uint16_t v) { return s.file.header.sector_id < v; });
    return it != sectors.end() && it->file.header.sector_id == id ? &*it : nullptr;
}

World load_world(const fs::path& path, unsigned threads) {
    World world;
    world.source = path.string();
    if (!fs::is_directory(path)) {
        const SharedBytes in = SharedBytes::map_file(path);
        try {
            if (kind_of(path.filename().string(), in) == FileKind::Level) {
                world.level = read_level(in);
                world.level_path = path.string();
            } else {
                add_sector(world, path.string(), read_sector(in));
            }
        } catch (Error& e) {
            throw e.set_file(path.string());
        }
        return world;
    }
    world.complete = true;
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(path))
        if (entry.is_regular_file() && entry.path().extension() == ".nvm") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::vector<FileResult> results(files.size());
    parallel_for(files.size(), threads, [&](std::size_t i) { results[i] = read_one(files[i]); });
    for (std::size_t i = 0; i < files.size(); ++i) {
        FileResult& r = results[i];
        if (r.failure) world.failures.push_back(std::move(*r.failure));
        else if (r.sector) add_sector(world, files[i].string(), std::move(*r.sector));
        else if (world.level)
            world.failures.push_back(finding_at(Finding::Severity::Error, files[i].string(), kNoOffset,
                                      "a second level file; using " + world.level_path));
        else {
            world.level = std::move(r.level);
            world.level_path = files[i].string();
        }
    }
    index_sectors(world);
    return world;
}

void require_every_file_read(const World& world) {
    if (world.failures.empty()) return;
    throw Error(fmt::format("{} ({} of the world's .nvm files unreadable: a query would ignore them)",
                            finding_text(world.failures.front()), world.failures.size()));
}

CheckReport check_world(const World& world, unsigned threads) {
    CheckReport report;
    std::vector<Finding> head = world.failures;
    if (world.found_no_file())
        head.push_back(finding_at(Finding::Severity::Error, world.source, kNoOffset, "no .nvm files found"));
    check_level(world, head);
    merge(report, head);
    std::vector<SectorCheck> checks(world.sectors.size());
    parallel_for(world.sectors.size(), threads,
                 [&](std::size_t i) { SectorChecker(world, world.sectors[i], checks[i]).run(); });
    for (auto& c : checks) {
        add_stats(report.stats, c.stats);
        merge(report, c.findings);
    }
    return report;
}

WorldMesh stitch(const World& world, std::optional<std::uint16_t> only) {
    std::vector<const LoadedSector*> chosen;
    if (only) {
        const LoadedSector* s = world.find(*only);
        if (!s) throw Error(fmt::format("sector {} is not loaded", *only));
        chosen.push_back(s);
    } else {
        for (const auto& s : world.sectors) chosen.push_back(&s);
    }
    WorldMesh mesh;
    for (const LoadedSector* s : chosen) {
        const SectorFile& f = s->file;
        WorldMesh::SectorRange range{f.header.sector_id, static_cast<std::uint32_t>(mesh.vertices.size()),
                                     static_cast<std::uint32_t>(f.vertices.size()),
                                     static_cast<std::uint32_t>(mesh.triangles.size()),
                                     static_cast<std::uint32_t>(f.nodes.size())};
        for (std::size_t v = 0; v < f.vertices.size(); ++v) mesh.vertices.push_back(f.vertex_position(v));
        for (const Node& n : f.nodes)
            mesh.triangles.push_back({range.first_vertex + n.vertices[0], range.first_vertex + n.vertices[1],
                                      range.first_vertex + n.vertices[2]});
        mesh.sectors.push_back(range);
    }
    auto global = [&](LinkTarget t) -> std::int64_t {
        // mesh.sectors is in world order, i.e. sorted by id.
        auto it = std::lower_bound(mesh.sectors.begin(), mesh.sectors.end(), t.sector,
                                   [](const auto& r, std::uint16_t id) { return r.sector < id; });
        if (it == mesh.sectors.end() || it->sector != t.sector || t.node >= it->triangle_count)
            return WorldMesh::kBroken;
        return std::int64_t{it->first_triangle} + t.node;
    };
    for (const LoadedSector* s : chosen)
        for (const Node& n : s->file.nodes) {
            mesh.neighbour_first.push_back(static_cast<std::uint32_t>(mesh.neighbours.size()));
            for (std::uint32_t entry : s->file.node_links(n))
                mesh.neighbours.push_back(entry == kNoLink ? WorldMesh::kNoNeighbour : global(decode_link(entry)));
        }
    mesh.neighbour_first.push_back(static_cast<std::uint32_t>(mesh.neighbours.size()));
    return mesh;
}

Finding finding_at(Finding::Severity severity, std::string path, std::uint64_t offset, std::string message) {
    Finding f;
    f.severity = severity;
    f.file = std::move(path);
    f.offset = offset;
    f.message = std::move(message);
    return f;
}

std::optional<std::uint16_t> parse_sector_entry(const std::string& entry) {
    if (entry.empty()) return std::nullopt;
    unsigned value = 0;
    auto [end, ec] = std::from_chars(entry.data(), entry.data() + entry.size(), value);
    if (ec != std::errc{} || end != entry.data() + entry.size() || value > 0xFFFF)
        throw Error("--entry must be a Far Cry 2 sector id (0..65535), got '" + entry + "'");
    return static_cast<std::uint16_t>(value);
}

}  // namespace navlab::farcry2
