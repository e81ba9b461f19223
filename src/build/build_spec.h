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
    float yMin = 0, yMax = 0;
    std::int32_t faceData = 0;
};

/// A link: user edges from a face to a face elsewhere (Elden Ring), e.g. a jump or a ladder.
struct LinkSpec {
    std::string name;                ///< for messages ("link 0" when not given)
    std::array<float, 3> from{}, to{};  ///< points on the two faces
    float width = 1;                 ///< length of each user edge, metres, across the link
    bool bothWays = true;            ///< false: one user edge from `from` to `to` only
    std::uint8_t flags = 20;         ///< 20 or 52 (one-way links must use 52: rule R81)
    std::uint32_t edgeData = 0x0102; ///< low byte 2, 4, 18 or 20; second byte free (R78)
    /// When set, the link also gets an hkaiUserEdgeSetup: two boxes of these half extents
    /// (metres, x along the link) at `from` and `to`. Sekiro links must have one: Sekiro
    /// meshes carry setups but no user edges.
    std::optional<std::array<float, 3>> setupHalfExtents;
};

struct BuildSpec {
    float agentRadius = 0.4f, agentHeight = 2.0f, agentClimb = 0.45f, maxSlopeDegrees = 45;
    float cellSize = 0.5f, cellHeight = 0.2f;
    float tileSize = 64;             ///< metres; a multiple of cellSize
    float detailSampleDistance = 2.5f, detailMaxError = 0.2f;
    float mergeOffPlane = 0.1f;      ///< merged faces keep corners within this of their plane, m
    std::string map = "m10_00_00_00";
    float aabbMargin = 2.4f;         ///< Elden Ring: 2, 2.4 or 8 (Sekiro always 1.1)
    std::int32_t faceData = 0;       ///< faceData of faces outside every volume
    std::vector<AreaVolume> volumes;
    std::vector<LinkSpec> links;
};

/// Parses BUILD.json text. Throws navlab::Error naming `source` and the field for malformed
/// JSON, unknown fields, wrong types, values out of range (a margin other than 2/2.4/8, a
/// non-convex outline, more than 62 volumes, overlapping volumes, bad link flags or data).
BuildSpec parse_build_spec(const std::string& text, const std::string& source);

/// Checks a spec made in code the same way parse_build_spec checks a file.
void validate_build_spec(const BuildSpec& spec, const std::string& source);

}  // namespace navlab::build
