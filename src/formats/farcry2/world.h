// A Far Cry 2 navigation world: the level file and sector satellites found under a folder,
// stitched into one triangle mesh through the cross-sector links, and checked: every link must
// name an existing node of a loaded sector and be answered by a link back.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "formats/farcry2/level_file.h"
#include "formats/farcry2/sector_file.h"
#include "io/report.h"

namespace navlab::farcry2 {

enum class FileKind { Level, Sector };

/// Which reader a file needs: `nv.nvm` is a level file, `nv_<i>.nvm` / `nv<i>_<i>.nvm` a sector;
/// any other name is a sector if it reads as one, else a level if it reads as one, else a sector
/// (so the sector reader's error is the one reported).
FileKind kind_of(std::string_view file_name, Bytes bytes);

/// A finding of the Far Cry 2 checks (navlab::Finding): file, absolute byte offset (kNoOffset
/// when none) and message; finding_text() (io/report.h) prints it.
Finding finding_at(Finding::Severity severity, std::string path, std::uint64_t offset, std::string message);

struct LoadedSector {
    std::string path;
    SectorFile file;
    std::optional<std::uint32_t> name_index;  ///< the index the file name gives, if any
};

struct World {
    std::string source;  ///< the folder or file it was loaded from
    std::optional<LevelFile> level;
    std::string level_path;
    std::vector<LoadedSector> sectors;  ///< sorted by sector id, ids unique
    std::vector<Finding> failures;      ///< files that did not load (malformed, duplicate id)
    /// True when loaded from a folder: links into sectors that are not loaded are then broken.
    /// A single sector file cannot see its neighbours, so its cross-sector links go unchecked.
    bool complete = false;

    /// The loaded sector with this id, or nullptr.
    const LoadedSector* find(std::uint16_t id) const;
    /// True for a folder holding no `.nvm` file at all (not one that failed to load).
    bool found_no_file() const { return complete && sectors.empty() && !level && failures.empty(); }
};

/// Loads a world. For a folder: every `*.nvm` below it (recursively, in sorted path order), read
/// on `threads` threads (0 = all cores); malformed files become `failures`, not exceptions.
/// For a file: that one level or sector file; a malformed file throws navlab::Error.
World load_world(const std::filesystem::path& path, unsigned threads = 0);

/// Throws navlab::Error naming the first of `world.failures` and how many there are, when any
/// file of the world did not load. For queries: a world without one of its sectors could route
/// around it, or find no path, and seem right (a check or an export reports what it skipped).
void require_every_file_read(const World& world);

/// Totals of a world.
struct WorldStats {
    std::size_t sectors = 0, triangles = 0, vertices = 0;
    std::size_t links = 0;              ///< non-empty link entries
    std::size_t cross_sector_links = 0; ///< of which name another sector
    std::size_t unchecked_links = 0;    ///< into sectors not loaded (single-file check only)
    std::size_t broken_links = 0;       ///< dangling, out of range, self or not answered
    std::size_t tail_bytes = 0;         ///< opaque bytes kept across all sector files
};

inline constexpr std::size_t kMaxFindings = 10000;

/// The findings (at most kMaxFindings stored, errors first per file; all counted) and totals.
struct CheckReport : Report {
    CheckReport() { limit = kMaxFindings; }
    WorldStats stats;
};

/// Checks a world: load failures, file-name and level-table consistency, every link entry
/// (target loaded, node in range, not itself, answered by a link back), and as warnings the
/// spec's retail invariants (node ids, centroid = mean of corners, link k shares edge k, box =
/// the id's grid cell). Runs on `threads` threads; the output does not depend on the count.
CheckReport check_world(const World& world, unsigned threads = 0);

/// The world as one triangle mesh in world coordinates.
struct WorldMesh {
    struct SectorRange {
        std::uint16_t sector = 0;
        std::uint32_t first_vertex = 0, vertex_count = 0;
        std::uint32_t first_triangle = 0, triangle_count = 0;
    };
    static constexpr std::int64_t kNoNeighbour = -1;  ///< kNoLink entry
    static constexpr std::int64_t kBroken = -2;       ///< target not loaded or out of range

    std::vector<Vec3> vertices;
    std::vector<std::array<std::uint32_t, 3>> triangles;  ///< indices into vertices
    std::vector<SectorRange> sectors;
    /// Per triangle t, its link entries resolved to global triangle indices (or kNoNeighbour /
    /// kBroken) are neighbours[neighbour_first[t] .. neighbour_first[t + 1]).
    std::vector<std::uint32_t> neighbour_first;
    std::vector<std::int64_t> neighbours;
};

/// Stitches the loaded sectors (or only `sector`, when given) into one mesh; links into sectors
/// outside the selection resolve to kBroken. Throws navlab::Error if `sector` is not loaded.
WorldMesh stitch(const World& world, std::optional<std::uint16_t> sector = std::nullopt);

/// The Far Cry 2 sector id an `--entry` names; nullopt for an empty `entry`. Throws
/// navlab::Error when it is not a number in 0..65535.
std::optional<std::uint16_t> parse_sector_entry(const std::string& entry);

}  // namespace navlab::farcry2
