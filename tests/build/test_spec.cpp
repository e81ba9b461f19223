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
}
