// The navlab command on synthetic worlds: fc2 info|check|rewrite and export.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "farcry2/fixtures.h"
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
}
