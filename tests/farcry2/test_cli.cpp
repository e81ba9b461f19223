// The navlab command on synthetic worlds: fc2 info|check|rewrite and export.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "farcry2/fixtures.h"
#include "formats/farcry2/world.h"
#include "io/file.h"
#include "support/samples.h"

using namespace navlab;
using namespace navlab::farcry2;

namespace {

int navlab_run(const std::string& args, std::string* output = nullptr) {
    return navlab::test::run_command(navlab::test::navlab_binary() + " " + args, output);
}

std::string text_of(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::size_t lines_starting(const std::string& text, const std::string& prefix) {
    std::size_t n = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) n += line.rfind(prefix, 0) == 0;
    return n;
}

/// A 2 x 2 world; only the JSON part of `output` (stdout lines from the first '{').
nlohmann::json json_of(const std::string& output) { return nlohmann::json::parse(output.substr(output.find('{'))); }

}  // namespace

TEST(Fc2Cli, CheckInfoRewriteExport) {
    auto dir = fixture::write_world(navlab::test::scratch_dir("fc2_cli"), fixture::make_sectors(32, 16, 2, 2));
    const std::string d = dir.string();
    std::string out;
    ASSERT_EQ(navlab_run("fc2 check " + d, &out), 0) << out;
    EXPECT_NE(out.find("OK: "), std::string::npos) << out;

    ASSERT_EQ(navlab_run("fc2 check " + d + " --json", &out), 0) << out;
    auto j = json_of(out);
    EXPECT_TRUE(j["ok"].get<bool>());
    EXPECT_EQ(j["stats"]["triangles"], 32);
    EXPECT_EQ(j["stats"]["cross_sector_links"], 16);

    ASSERT_EQ(navlab_run("fc2 info " + d + " --json", &out), 0) << out;
    j = json_of(out);
    EXPECT_EQ(j["sectors"].size(), 4u);
    EXPECT_EQ(j["level"]["sector_count"], 6400);

    const auto sector = dir / "nv" / "sectors" / "nv_2577.nvm";
    ASSERT_EQ(navlab_run("fc2 info " + sector.string() + " --json", &out), 0) << out;
    j = json_of(out);
    EXPECT_EQ(j["sector_id"], 2577);
    EXPECT_EQ(j["column"], 17);
    EXPECT_EQ(j["version"], "0x14100");

    for (const char* name : {"nv_2577.nvm", "nv.nvm"}) {
        const auto in = dir / "nv" / "sectors" / name;
        const auto copy = navlab::test::scratch_dir("fc2_cli_rewrite") / name;
        ASSERT_EQ(navlab_run("fc2 rewrite " + in.string() + " " + copy.string(), &out), 0) << out;
        EXPECT_EQ(read_file(copy), read_file(in)) << name;
    }

    const auto obj = dir / "world.obj";
    ASSERT_EQ(navlab_run("export " + d + " --format obj -o " + obj.string(), &out), 0) << out;
    const std::string text = text_of(obj);
    EXPECT_EQ(lines_starting(text, "f "), 32u);
    EXPECT_EQ(lines_starting(text, "v "), 36u);
    EXPECT_EQ(lines_starting(text, "g sector_"), 4u);
    EXPECT_NE(text.find("v 1024 2048 28\n"), std::string::npos);  // first corner of sector 2576, world metres

    const auto one = dir / "one.json";
    ASSERT_EQ(navlab_run("export " + d + " --format json --entry 2657 -o " + one.string(), &out), 0) << out;
    j = nlohmann::json::parse(text_of(one));
    ASSERT_EQ(j["sectors"].size(), 1u);
    EXPECT_EQ(j["sectors"][0]["id"], 2657);
    EXPECT_EQ(j["sectors"][0]["triangles"].size(), 8u);
    EXPECT_EQ(j["sectors"][0]["vertices"][0][0], 1088.0);
    EXPECT_EQ(j["sectors"][0]["vertices"][0][1], 2112.0);
}

TEST(Fc2Cli, CheckFailsOnBrokenLinksAndMalformedFiles) {
    auto sectors = fixture::make_sectors(32, 16, 1, 2);
    auto dir = fixture::write_world(navlab::test::scratch_dir("fc2_cli_bad"), {sectors[0]});
    std::string out;
    EXPECT_EQ(navlab_run("fc2 check " + dir.string(), &out), 1) << out;
    EXPECT_NE(out.find("sector is not loaded"), std::string::npos) << out;

    auto bytes = fixture::sector_bytes(sectors[1]);
    bytes[4] = 'x';
    const auto bad = dir / "nv_2577.nvm";
    write_file_atomic(bad, bytes);
    EXPECT_EQ(navlab_run("fc2 check " + bad.string(), &out), 1) << out;
    EXPECT_NE(out.find("offset 0x4: sector file: tag"), std::string::npos) << out;
    EXPECT_EQ(navlab_run("fc2 rewrite " + bad.string() + " " + (dir / "out.nvm").string(), &out), 1) << out;
    EXPECT_FALSE(std::filesystem::exists(dir / "out.nvm"));
    EXPECT_EQ(navlab_run("export " + bad.string() + " --format obj -o " + (dir / "x.obj").string(), &out), 1);
    EXPECT_EQ(navlab_run("export " + dir.string() + " --format ply -o " + (dir / "x.ply").string(), &out), 1);
    const auto level = dir / "nv" / "sectors" / "nv.nvm";
    EXPECT_EQ(navlab_run("export " + level.string() + " --format obj -o " + (dir / "x.obj").string(), &out), 1);
    EXPECT_NE(out.find("no sector files"), std::string::npos) << out;
    const auto empty = navlab::test::scratch_dir("fc2_cli_empty");
    EXPECT_EQ(navlab_run("fc2 check " + empty.string(), &out), 1) << out;
    EXPECT_NE(out.find("no .nvm files found"), std::string::npos) << out;
    EXPECT_EQ(navlab_run("fc2 info " + empty.string(), &out), 1) << out;  // it printed "0 sectors", exit 0
    EXPECT_NE(out.find(empty.string() + ": no .nvm files found"), std::string::npos) << out;
    // The queries refuse a world with an unreadable sector (they answered over the others, exit 0).
    for (const std::string& query : {"islands " + dir.string(), "nearest " + dir.string() + " 0,0,0",
                                     "path " + dir.string() + " --from 0,0,0 --to 1,1,0",
                                     "raycast " + dir.string() + " --from 0,0,0 --to 1,1,0"}) {
        SCOPED_TRACE(query);
        EXPECT_EQ(navlab_run(query, &out), 1) << out;
        EXPECT_NE(out.find("nv_2577.nvm: offset 0x4: sector file: tag"), std::string::npos) << out;
        EXPECT_NE(out.find("1 of the world's .nvm files unreadable"), std::string::npos) << out;
    }
    // One sector chosen (--entry) is queried: the unreadable one is not part of it.
    EXPECT_EQ(navlab_run("islands " + dir.string() + " --entry " + std::to_string(sectors[0].header.sector_id), &out), 0) << out;
}

// `nearest` and `path` read --extents in the world's z-up frame (x, y across, z up) and by
// default search 1 m across and 2 m up, as on FromSoftware meshes. Before, `nearest` turned its
// default too (1 m up: a point 1.5 m above the ground was off the mesh) and `path` did not turn
// a given --extents (its z was taken as a depth). Whether a point is on the mesh is checked
// against a brute force over every triangle's bounds.
TEST(Fc2Cli, QueriesReadExtentsInTheWorldsZUpFrame) {
    const auto dir = navlab::test::scratch_dir("fc2_query_extents");
    const std::string world = fixture::write_world(dir / "world", fixture::make_sectors(32, 16, 2, 2)).string();
    const WorldMesh mesh = stitch(load_world(world));
    // Brute force: some triangle's bounds meet the box p ± e (world frame), as nearest_face asks.
    auto coordinate = [](const Vec3& p, int axis) { return axis == 0 ? p.x : axis == 1 ? p.y : p.z; };
    auto any_in_box = [&](const Vec3& p, const Vec3& e) {
        for (const auto& t : mesh.triangles) {
            bool meets = true;
            for (int axis = 0; axis < 3; ++axis) {
                const double a = coordinate(mesh.vertices[t[0]], axis), b = coordinate(mesh.vertices[t[1]], axis),
                             c = coordinate(mesh.vertices[t[2]], axis);
                meets &= std::min({a, b, c}) <= coordinate(p, axis) + coordinate(e, axis) &&
                         std::max({a, b, c}) >= coordinate(p, axis) - coordinate(e, axis);
            }
            if (meets) return true;
        }
        return false;
    };
    auto centre = [&](std::size_t t, double up) {
        Vec3 c{};
        for (std::uint32_t v : mesh.triangles[t])
            c.x += mesh.vertices[v].x / 3, c.y += mesh.vertices[v].y / 3, c.z += mesh.vertices[v].z / 3;
        c.z += up;
        return c;
    };
    auto text = [](const Vec3& p) { return fmt::format("{},{},{}", p.x, p.y, p.z); };
    const std::string end = text(centre(mesh.triangles.size() - 1, 0));
    // The highest corner of triangle 0 sets the heights: above it by 1.5 m (in the default box's
    // 2 m, not in 1 m), 0.8 m (not in a given 0.5 m, in 1 m) and 0.4 m (in 0.5 m).
    double top = 0;
    for (std::uint32_t v : mesh.triangles[0]) top = std::max(top, mesh.vertices[v].z - centre(0, 0).z);
    struct Case {
        double up;
        std::string extents;
        Vec3 box;  ///< the half extents meant, z-up
        bool on_mesh;
    };
    for (const Case& c : {Case{top + 1.5, "", {1, 1, 2}, true},  // in the default 2 m up, not in 1 m
                          Case{top + 0.8, " --extents 1,1,0.5", {1, 1, 0.5}, false},
                          Case{0.4, " --extents 1,1,0.5", {1, 1, 0.5}, true}}) {
        const Vec3 p = centre(0, c.up);
        const bool on_mesh = any_in_box(p, c.box);
        ASSERT_EQ(on_mesh, c.on_mesh) << "the fixture no longer tells the cases apart: " << c.up << c.extents;
        const std::string start = text(p), answer = (dir / "answer.json").string();
        std::string out;
        ASSERT_EQ(navlab_run("nearest " + world + " " + start + c.extents + " --json " + answer, &out), 0) << out;
        EXPECT_EQ(json_of(text_of(answer))["found"], on_mesh) << c.up << c.extents;
        const std::string path_args = "path " + world + " --from " + start + " --to " + end + c.extents;
        ASSERT_EQ(navlab_run(path_args + " --json " + answer, &out), 0) << out;
        EXPECT_EQ(json_of(text_of(answer))["status"], on_mesh ? "found" : "off_mesh") << c.up << c.extents;
    }
}
