// BUILD.json: defaults, every field read, and refused values naming the field.
#include <gtest/gtest.h>

#include "build/build_spec.h"
#include "io/error.h"

using namespace navlab;
using namespace navlab::build;

namespace {
std::string error_of(const std::string& text) {
    try {
        parse_build_spec(text, "BUILD.json");
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST(BuildSpec, EmptyGivesDefaults) {
    const BuildSpec s = parse_build_spec("{}", "BUILD.json");
    EXPECT_EQ(s.map, "m10_00_00_00");
    EXPECT_EQ(s.tile_size, 64);
    EXPECT_EQ(s.aabb_margin, 2.4f);
}

TEST(BuildSpec, FieldsAreRead) {
    const BuildSpec s = parse_build_spec(R"({"agent_radius": 0.6, "tile_size": 32, "map": "m60_42_36_00",
        "aabb_margin": 8, "face_data": 1,
        "area_volumes": [{"name": "w", "box": {"min": [0, 0, 0], "max": [4, 2, 4]}, "face_data": 4096},
                         {"prism": {"xz": [[10, 10], [14, 10], [12, 14]], "y_min": 0, "y_max": 3}, "face_data": 64}],
        "links": [{"from": [1, 0, 1], "to": [9, 0, 1], "both_ways": false, "flags": 52, "edge_data": 516,
                   "setup": {"half_extents": [1, 1, 1]}}]})",
                                         "BUILD.json");
    EXPECT_EQ(s.agent_radius, 0.6f);
    EXPECT_EQ(s.map, "m60_42_36_00");
    ASSERT_EQ(s.volumes.size(), 2u);
    EXPECT_EQ(s.volumes[0].xz.size(), 4u);
    EXPECT_EQ(s.volumes[1].faceData, 64);
    ASSERT_EQ(s.links.size(), 1u);
    EXPECT_FALSE(s.links[0].both_ways);
    EXPECT_EQ(s.links[0].edgeData, 516u);
    EXPECT_TRUE(s.links[0].setup_half_extents);
}

TEST(BuildSpec, BadValuesNameTheField) {
    EXPECT_NE(error_of(R"({"tile_sise": 3})").find("unknown field 'tile_sise'"), std::string::npos);
    EXPECT_NE(error_of(R"({"tile_size": "big"})").find("tile_size"), std::string::npos);
    EXPECT_NE(error_of(R"({"tile_size": 10.25})").find("tile_size"), std::string::npos);
    EXPECT_NE(error_of(R"({"aabb_margin": 3})").find("aabb_margin"), std::string::npos);
    EXPECT_NE(error_of(R"({"map": "m1_0_0_0"})").find("map"), std::string::npos);
    EXPECT_NE(error_of(R"({"area_volumes": [{"box": {"min": [0,0,0], "max": [4,2,4]}},
                                            {"name": "b", "box": {"min": [2,1,2], "max": [6,3,6]}}]})")
                  .find("volume 1 ('b'): overlaps volume 0"),
              std::string::npos)
        << error_of(R"({"area_volumes": [{"box": {"min": [0,0,0], "max": [4,2,4]}}, {"name": "b", "box": {"min": [2,1,2], "max": [6,3,6]}}]})");
    // Side by side (touching) is not an overlap; one above the other neither.
    EXPECT_EQ(error_of(R"({"area_volumes": [{"box": {"min": [0,0,0], "max": [4,2,4]}},
                                            {"box": {"min": [4,0,0], "max": [8,2,4]}},
                                            {"box": {"min": [0,2,0], "max": [4,5,4]}}]})"),
              "");
    EXPECT_NE(error_of(R"({"area_volumes": [{"prism": {"xz": [[0,0],[4,0],[1,1],[0,4]], "y_min": 0, "y_max": 1}}]})")
                  .find("not convex"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"links": [{"from": [0,0,0], "to": [1,0,0], "both_ways": false, "flags": 20}]})").find("52"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"links": [{"from": [0,0,0], "to": [1,0,0], "edge_data": 3}]})").find("edge_data"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"links": [{"from": [0,0,0]}]})").find("links[0]"), std::string::npos);
    EXPECT_NE(error_of("{").find("not valid JSON"), std::string::npos);
    EXPECT_NE(error_of(R"({"cell_size": 1e400})").find("not valid JSON: number overflow"), std::string::npos)
        << error_of(R"({"cell_size": 1e400})");
}

// Sizes whose cell counts Recast could not hold (or would allocate without bound) are refused
// by the spec check, naming the field, before any tile is built.
TEST(BuildSpec, HostileSizesAreRefusedBeforeRecast) {
    // 4096 / 0.5 = 8192 cells, plus 2 x (ceil(0.4 / 0.5) + 3) = 8 border cells: 8200 > 4096.
    EXPECT_EQ(error_of(R"({"tile_size": 4096, "cell_size": 0.5})"),
              "BUILD.json: tile_size: a tile's heightfield would be 8200 cells wide (tile_size / cell_size, plus an "
              "agent_radius border on each side); navlab builds at most 4096");
    // The widest accepted: 4088 / 1 + 2 x (1 + 3) = 4096.
    EXPECT_EQ(error_of(R"({"tile_size": 4088, "cell_size": 1})"), "");
    EXPECT_NE(error_of(R"({"tile_size": 4089, "cell_size": 1})").find("4097 cells"), std::string::npos);
    // An agent wide enough to need the whole budget as border.
    EXPECT_NE(error_of(R"({"agent_radius": 1000})").find("tile_size"), std::string::npos);
    // tile_size / cell_size overflows to infinity: still refused.
    EXPECT_NE(error_of(R"({"tile_size": 1e38, "cell_size": 1e-38})").find("heightfield would be inf"), std::string::npos)
        << error_of(R"({"tile_size": 1e38, "cell_size": 1e-38})");
    // 1639 m / 0.2 m = 8195 cells of height > 8191 (Recast's 13-bit span heights).
    EXPECT_EQ(error_of(R"({"agent_height": 1639})"),
              "BUILD.json: agent_height: 1639 m is more than 8191 cells of cell_height 0.2 m (Recast's span height limit)");
    EXPECT_EQ(error_of(R"({"agent_height": 1638})"), "");
    EXPECT_NE(error_of(R"({"agent_climb": 1e30})").find("agent_climb"), std::string::npos);
    // Recast's detail sampling grid is (extent / spacing)²: spacing below 0.9 cells is refused
    // (0.001 m over a 20 m floor took 2 GB and crashed inside Recast).
    EXPECT_EQ(error_of(R"({"detail_sample_distance": 0.001})"),
              "BUILD.json: detail_sample_distance: 0.001 m is below 0.9 cells of cell_size 0.5 m (Recast's limit for "
              "the detail mesh)");
    EXPECT_EQ(error_of(R"({"detail_sample_distance": 0.46})"), "");
}

// Numbers a field's type cannot hold are refused with the field's name (nlohmann's own get
// casts 1e20 to int with undefined behaviour; fuzz_build_inputs found it).
TEST(BuildSpec, NumbersTheFieldCannotHoldAreRefused) {
    EXPECT_EQ(error_of(R"({"face_data": 1e20})"),
              "BUILD.json: top level.face_data: 1e+20 is not an integer in -2147483648 .. 2147483647");
    EXPECT_EQ(error_of(R"({"links": [{"from": [0,0,0], "to": [1,0,0], "flags": 1e20}]})"),
              "BUILD.json: links[0].flags: 1e+20 is not an integer in -2147483648 .. 2147483647");
    EXPECT_EQ(error_of(R"({"links": [{"from": [0,0,0], "to": [1,0,0], "edge_data": -2}]})"),
              "BUILD.json: links[0].edge_data: -2 is not an integer in 0 .. 4294967295");
    EXPECT_EQ(error_of(R"({"area_volumes": [{"box": {"min": [0,0,0], "max": [4,2,1e39]}}]})"),
              "BUILD.json: area_volumes[0].box.max: 1e+39 is outside the range of a 4-byte float");
    EXPECT_EQ(error_of(R"({"face_data": 2.5})"),
              "BUILD.json: top level.face_data: 2.5 is not an integer in -2147483648 .. 2147483647");
}
