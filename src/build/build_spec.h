// BUILD.json: what `navlab build` makes of the geometry (docs/build.md shows every field).
// Every field is optional; unknown fields are refused so a misspelt one is never ignored.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace navlab::build {

/// A volume whose faces get `faceData`: a box, or a convex outline on x/z extruded between
/// two heights (a "prism"). Faces are cut on the volume's border (Recast areas).
struct AreaVolume {
    std::string name;                      ///< for messages ("volume 2" when not given)
    std::vector<std::array<float, 2>> xz;  ///< convex outline (a box gives its 4 corners)
    float y_min = 0, y_max = 0;
    std::int32_t faceData = 0;
};

/// A link: user edges from a face to a face elsewhere (Elden Ring), e.g. a jump or a ladder.
struct LinkSpec {
    std::string name;                ///< for messages ("link 0" when not given)
    std::array<float, 3> from{}, to{};  ///< points on the two faces
    float width = 1;                 ///< length of each user edge, metres, across the link
    bool both_ways = true;            ///< false: one user edge from `from` to `to` only
    std::uint8_t flags = 20;         ///< 20 or 52 (one-way links must use 52: rule R81)
    std::uint32_t edgeData = 0x0102; ///< low byte 2, 4, 18 or 20; second byte free (R78)
    /// When set, the link also gets an hkaiUserEdgeSetup: two boxes of these half extents
    /// (metres, x along the link) at `from` and `to`. Sekiro links must have one: Sekiro
    /// meshes carry setups but no user edges.
    std::optional<std::array<float, 3>> setup_half_extents;
};

/// Widest tile heightfield navlab builds, in cells: tile_size / cell_size plus the
/// agent_radius border on both sides. Recast allocates one column pointer per cell, so this
/// keeps a tile under ~140 MB however the spec's sizes are chosen.
inline constexpr int kMaxTileCells = 4096;
/// Tallest agent_height or agent_climb in cells of cell_height: Recast stores span heights in
/// 13 bits (RC_SPAN_MAX_HEIGHT).
inline constexpr int kMaxSpanCells = 8191;

struct BuildSpec {
    float agent_radius = 0.4f, agent_height = 2.0f, agent_climb = 0.45f, max_slope_degrees = 45;
    float cell_size = 0.5f, cell_height = 0.2f;
    float tile_size = 64;             ///< metres; a multiple of cell_size
    float detail_sample_distance = 2.5f, detail_max_error = 0.2f;
    float merge_off_plane = 0.1f;      ///< merged faces keep corners within this of their plane, m
    std::string map = "m10_00_00_00";
    float aabb_margin = 2.4f;         ///< Elden Ring: 2, 2.4 or 8 (Sekiro always 1.1)
    std::int32_t faceData = 0;       ///< faceData of faces outside every volume
    std::vector<AreaVolume> volumes;
    std::vector<LinkSpec> links;
};

/// Parses BUILD.json text. Throws navlab::Error naming `source` and the field for malformed
/// JSON, unknown fields, wrong types, values out of range (a margin other than 2/2.4/8, a
/// non-convex outline, more than 62 volumes, overlapping volumes, bad link flags or data, a
/// tile wider than kMaxTileCells or an agent taller than kMaxSpanCells).
BuildSpec parse_build_spec(const std::string& text, const std::string& source);

/// Checks a spec made in code the same way parse_build_spec checks a file.
void validate_build_spec(const BuildSpec& spec, const std::string& source);

}  // namespace navlab::build
