// `navlab view`: the page's limits and messages, and the end-to-end browser test: Debian's
// chromium, headless, driven by playwright-core (tools/web/test_viewer.js) on pages of every
// input family. Screenshots land in <build>/viewer-screenshots.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "export/export_inputs.h"
#include "formats/farcry2/world.h"
#include "formats/igi/graph_io.h"
#include "io/file.h"
#include "query/igi_path.h"
#include "query/query_input.h"
#include "support/samples.h"

namespace navlab::test {
namespace {

std::filesystem::path pages_dir() {
    static const auto dir = scratch_dir("viewer-pages");
    return dir;
}

std::string write_page(const std::string& inputs, const std::string& name, const std::string& extra = "") {
    const auto page = (pages_dir() / (name + ".html")).string();
    run_ok(navlab_binary() + " view " + inputs + " -o " + page + extra);
    return page;
}

TEST(View, PageIsOneOfflineFileWithThreeInlined) {
    const auto& in = export_inputs();
    const std::string html = slurp(write_page(in.er_binder, "er-offline"));
    EXPECT_NE(html.find("id=\"navlab-meta\""), std::string::npos);
    EXPECT_NE(html.find("id=\"navlab-data\""), std::string::npos);
    EXPECT_NE(html.find("Three.js Authors"), std::string::npos) << "three.js (with its licence) is inlined";
    // Nothing is fetched at view time: no external script, stylesheet or URL to load.
    EXPECT_FALSE(std::regex_search(html, std::regex(R"(<script[^>]+src=|<link[^>]+href=|https?://[a-z0-9.-]+/[^"' ]*\.(js|css)\b)")));
}

TEST(View, HugeInputIsRefusedWithTheSizeAndAHint) {
    const auto& in = export_inputs();
    std::string out;
    const auto page = (pages_dir() / "refused.html").string();
    EXPECT_EQ(run_command(navlab_binary() + " view " + in.er_binder + " --max-faces 100 -o " + page, &out), 1) << out;
    EXPECT_NE(out.find("MB"), std::string::npos) << out;
    EXPECT_NE(out.find("--entry"), std::string::npos) << out;
    EXPECT_FALSE(std::filesystem::exists(page));
}

TEST(View, EmptyInputGivesAPageAndSaysSo) {
    const auto& in = export_inputs();
    const auto page = (pages_dir() / "empty.html").string();
    const std::string out = run_ok(navlab_binary() + " view " + in.er_binder + " --entry " + in.empty_entry + " -o " + page);
    EXPECT_NE(out.find("holds no faces"), std::string::npos) << out;
    EXPECT_TRUE(std::filesystem::exists(page));
}

// A folder with no binder, tagfile or .nvm file was read as an empty Far Cry 2 world: an empty
// page, exit 0. It is refused as `fc2 info` and `audit` refuse such a folder.
TEST(View, AFolderWithoutNavmeshFilesIsRefused) {
    const auto dir = scratch_dir("view-no-navmesh");
    write_file_atomic(dir / "readme.txt", std::string("not a navmesh"));
    const auto page = (pages_dir() / "no-navmesh.html").string();
    std::string out;
    EXPECT_EQ(run_command(navlab_binary() + " view " + dir.string() + " -o " + page, &out), 1) << out;
    EXPECT_NE(out.find(dir.string() + ": no navmesh binders, tagfiles or Far Cry 2 .nvm files found"), std::string::npos)
        << out;
    EXPECT_FALSE(std::filesystem::exists(page));
    for (const char* format : {"x.glb", "x.obj"}) {
        EXPECT_EQ(run_command(navlab_binary() + " export " + dir.string() + " -o " + (dir / format).string(), &out), 1) << out;
        EXPECT_NE(out.find("no navmesh binders, tagfiles or Far Cry 2 .nvm files found"), std::string::npos) << out;
    }
    // A folder of FromSoftware binders is read by view, and named as such by the exports (which
    // write one file at a time): not as a folder without navmesh files, nor an empty file.
    const auto binders = scratch_dir("view-binders");
    std::filesystem::copy_file(export_inputs().er_binder, binders / "m10_00_00_00.nvmhktbnd.dcx");
    EXPECT_NE(run_ok(navlab_binary() + " view " + binders.string() + " -o " + page).find(" faces"), std::string::npos);
    for (const char* format : {"x.glb", "x.obj"}) {
        EXPECT_EQ(run_command(navlab_binary() + " export " + binders.string() + " -o " + (binders / format).string(), &out), 1)
            << out;
        EXPECT_NE(out.find("a folder of FromSoftware navmesh files: export one binder or tagfile at a time"), std::string::npos)
            << out;
        EXPECT_FALSE(std::filesystem::exists(binders / format));
    }
}

TEST(View, PathOffTheMeshIsReportedNotDrawn) {
    const auto& in = export_inputs();
    const auto page = pages_dir() / "path-off.html";
    std::string out;
    EXPECT_EQ(run_command(navlab_binary() + " view " + in.er_binder + " --path 1e6,0,1e6 1e6,0,1e6 -o " + page.string(),
                          &out),
              1);
    EXPECT_NE(out.find("off_mesh"), std::string::npos) << out;
    EXPECT_FALSE(std::filesystem::exists(page));
}

TEST(View, PathBetweenTwoPointsOfAFaceIsDrawnOverItsCorridor) {
    // Two points inside one face of the binder (its centroid, and half way to its first corner),
    // found with the query library itself: the page's path is that face's corridor.
    const auto& in = export_inputs();
    const query::QueryInput q = query::load_query_input(in.er_binder, "");
    std::size_t member = 0;
    while (member < q.meshes.size() && q.meshes[member].view->face_count() == 0) ++member;
    ASSERT_LT(member, q.meshes.size());
    const query::NavView& v = *q.meshes[member].view;
    query::Vec3 c{}, corner = v.vertex(v.corner(0, 0));
    const std::size_t n = v.corner_count(0);
    for (std::size_t k = 0; k < n; ++k) {
        const query::Vec3 p = v.vertex(v.corner(0, k));
        c.x += p.x / n, c.y += p.y / n, c.z += p.z / n;
    }
    const query::Vec3 mid{(c.x + corner.x) / 2, (c.y + corner.y) / 2, (c.z + corner.z) / 2};
    const auto page = pages_dir() / "path.html";
    const std::string out = run_ok(navlab_binary() + " view " + in.er_binder + " --path " +
                                   fmt::format("{},{},{} {},{},{}", c.x, c.y, c.z, mid.x, mid.y, mid.z) + " -o " +
                                   page.string());
    EXPECT_NE(out.find("path: "), std::string::npos) << out;
    const nlohmann::json summary = nlohmann::json::parse(run_ok(
        navlab_binary() + " view " + in.er_binder + " --path " +
        fmt::format("{},{},{} {},{},{}", c.x, c.y, c.z, mid.x, mid.y, mid.z) + " -o " + page.string() + " --json"));
    ASSERT_TRUE(summary.contains("path")) << summary;
    EXPECT_EQ(summary.at("path").at("faces"), 1) << summary;
    EXPECT_EQ(summary.at("path").at("point_count"), 2) << summary;
    EXPECT_EQ(summary.at("path").at("of"), q.meshes[member].name) << summary;
    EXPECT_FALSE(summary.at("path").contains("route_table")) << summary;
    const auto bytes = read_file(page);
    const std::string html(bytes.begin(), bytes.end());
    EXPECT_NE(html.find(fmt::format("\"corridor\":[[{},0]]", member)), std::string::npos);
}

/// The page's meta JSON (its `navlab-meta` script).
nlohmann::json page_meta(const std::filesystem::path& page) {
    const auto bytes = read_file(page);
    const std::string html(bytes.begin(), bytes.end());
    const std::string open = "<script id=\"navlab-meta\" type=\"application/json\">";
    const std::size_t from = html.find(open) + open.size();
    return nlohmann::json::parse(html.substr(from, html.find("</script>", from) - from));
}

TEST(View, FarCry2PathIsTheCommandsPathTurnedYUpOverItsSectorsFaces) {
    // From the centre of the world's first triangle to that of its last (another sector): the page
    // shows what `navlab path` answers for the same z-up points, each point (x, y, z) drawn at
    // (x, z, -y) as the faces are, each stitched triangle as (sector, triangle of the sector).
    const auto& in = export_inputs();
    const query::QueryInput q = query::load_query_input(in.fc2_world, "");
    ASSERT_EQ(q.meshes.size(), 1u);
    const farcry2::WorldMesh& world = *q.world_mesh;
    ASSERT_GE(world.sectors.size(), 2u);
    auto centre = [&](std::size_t t) {
        query::Vec3 c{};
        for (std::uint32_t v : world.triangles[t])
            c.x += world.vertices[v].x / 3, c.y += world.vertices[v].y / 3, c.z += world.vertices[v].z / 3;
        return fmt::format("{},{},{}", c.x, c.y, c.z);
    };
    const std::string from = centre(0), to = centre(world.triangles.size() - 1);
    const auto json_out = pages_dir() / "fc2-path.json";
    run_ok(navlab_binary() + " path " + in.fc2_world + " --from " + from + " --to " + to + " --json " +
           json_out.string());
    const nlohmann::json expected = nlohmann::json::parse(slurp(json_out.string()));
    ASSERT_EQ(expected["status"], "found") << expected.dump();

    const auto page = pages_dir() / "fc2-path.html";
    const std::string out =
        run_ok(navlab_binary() + " view " + in.fc2_world + " --path " + from + " " + to + " -o " + page.string());
    const std::string summary =
        fmt::format("path: {:.3f} m over {} faces", expected["length"].get<double>(), expected["faces"].size());
    EXPECT_NE(out.find(summary), std::string::npos) << out;
    const nlohmann::json meta = page_meta(page), path = meta["path"];
    ASSERT_EQ(meta["members"].size(), world.sectors.size());
    for (std::size_t s = 0; s < world.sectors.size(); ++s) {  // the page's members are the sectors, in order
        EXPECT_EQ(meta["members"][s]["name"], fmt::format("sector_{}", world.sectors[s].sector)) << s;
        EXPECT_EQ(meta["members"][s]["faces"], world.sectors[s].triangle_count) << s;
    }
    ASSERT_EQ(path["points"].size(), expected["points"].size());
    for (std::size_t i = 0; i < path["points"].size(); ++i) {
        const auto& p = expected["points"][i];
        EXPECT_FLOAT_EQ(path["points"][i][0].get<float>(), p[0].get<float>()) << i;
        EXPECT_FLOAT_EQ(path["points"][i][1].get<float>(), p[2].get<float>()) << i;
        EXPECT_FLOAT_EQ(path["points"][i][2].get<float>(), -p[1].get<float>()) << i;
    }
    ASSERT_EQ(path["corridor"].size(), expected["faces"].size());
    std::set<std::uint32_t> sectors;
    for (std::size_t i = 0; i < path["corridor"].size(); ++i) {
        const auto member = path["corridor"][i][0].get<std::uint32_t>();
        const auto face = path["corridor"][i][1].get<std::uint32_t>();
        ASSERT_LT(member, world.sectors.size());
        EXPECT_EQ(world.sectors[member].first_triangle + face, expected["faces"][i].get<std::uint32_t>()) << i;
        EXPECT_LT(face, world.sectors[member].triangle_count) << i;
        sectors.insert(member);
    }
    EXPECT_GE(sectors.size(), 2u) << "the path crosses a sector border";
}

TEST(View, IgiPathIsTheShortestRouteThroughItsNodesInMetres) {
    // Between the two nodes whose route passes the most nodes (the fixture's routes are one
    // link long): the page's polyline is `navlab path`'s Dijkstra route (its JSON), each node at
    // (x, z, -y) / 4096 of its stored position; no corridor.
    const auto& in = export_inputs();
    const igi::Graph graph = igi::read_graph_file(in.igi_graph);
    std::int32_t from = 0, to = 0;
    std::size_t longest = 0;
    for (const igi::Node& a : graph.nodes)
        for (const igi::Node& b : graph.nodes)
            if (const query::IgiRoute r = query::igi_path(graph, a.id, b.id).shortest;
                r.reached && r.nodes.size() > longest)
                longest = r.nodes.size(), from = a.id, to = b.id;
    ASSERT_GE(longest, 2u) << "a route over at least one link";
    const auto json_out = pages_dir() / "igi-path.json";
    run_ok(navlab_binary() + fmt::format(" path {} --from-node {} --to-node {} --json {}", in.igi_graph, from, to,
                                         json_out.string()));
    const nlohmann::json expected = nlohmann::json::parse(slurp(json_out.string()))["dijkstra"];
    ASSERT_TRUE(expected["reached"].get<bool>()) << expected.dump();
    const auto page = pages_dir() / "igi-path.html";
    const std::string out =
        run_ok(navlab_binary() + fmt::format(" view {} --path {} {} -o {}", in.igi_graph, from, to, page.string()));
    EXPECT_NE(out.find(fmt::format("path: {:.3f} m over {} nodes", expected["length"].get<double>() / 4096,
                                   expected["nodes"].size())),
              std::string::npos)
        << out;
    // --json carries the same summary (it had left the path out).
    const nlohmann::json summary = nlohmann::json::parse(
        run_ok(navlab_binary() + fmt::format(" view {} --path {} {} -o {} --json", in.igi_graph, from, to, page.string())));
    ASSERT_TRUE(summary.contains("path") && summary.contains("nodes")) << summary;
    EXPECT_DOUBLE_EQ(summary.at("path").at("length").get<double>(), expected["length"].get<double>() / 4096) << summary;
    EXPECT_EQ(summary.at("path").at("nodes"), expected["nodes"].size()) << summary;
    EXPECT_EQ(summary.at("path").at("route_table"), "the route table walks the same") << summary;
    // A graph's page shows its nodes: not "the input holds no faces: ... an empty scene".
    EXPECT_EQ(summary.at("nodes"), graph.nodes.size()) << summary;
    EXPECT_NE(out.find(fmt::format("0 faces, {} nodes", graph.nodes.size())), std::string::npos) << out;
    EXPECT_EQ(out.find("empty scene"), std::string::npos) << out;
    const nlohmann::json path = page_meta(page)["path"];
    EXPECT_TRUE(path["corridor"].empty());
    ASSERT_EQ(path["points"].size(), expected["nodes"].size());
    for (std::size_t i = 0; i < expected["nodes"].size(); ++i) {
        const auto id = expected["nodes"][i].get<std::int32_t>();
        const auto node =
            std::find_if(graph.nodes.begin(), graph.nodes.end(), [&](const igi::Node& n) { return n.id == id; });
        ASSERT_NE(node, graph.nodes.end()) << id;
        EXPECT_FLOAT_EQ(path["points"][i][0].get<float>(), static_cast<float>(node->position.x / 4096)) << i;
        EXPECT_FLOAT_EQ(path["points"][i][1].get<float>(), static_cast<float>(node->position.z / 4096)) << i;
        EXPECT_FLOAT_EQ(path["points"][i][2].get<float>(), static_cast<float>(-node->position.y / 4096)) << i;
    }
}

TEST(View, PathOverSeveralInputsOrUnknownNodesIsRefused) {
    const auto& in = export_inputs();
    const std::string page = (pages_dir() / "no.html").string();
    struct Case {
        std::string args, message;
        int status = 1;
    };
    // A value that is neither a point nor a node id is a usage error (exit 2), whatever the input.
    for (const Case& c : {Case{in.er_binder + " " + in.fc2_world + " --path 0,0,0 1,0,1",
                               "--path needs exactly one input"},
                          Case{in.igi_graph + " --path 1 9999", "9999 is not a node of the graph"},
                          Case{in.igi_graph + " --path 1 1.5", "or two IGI node ids, not '1.5'", 2},
                          Case{in.igi_graph + " --path 1 0,0,0", "wants two node ids, not '0,0,0'"}}) {
        std::string out;
        EXPECT_EQ(run_command(navlab_binary() + " view " + c.args + " -o " + page, &out), c.status) << c.args;
        EXPECT_NE(out.find(c.message), std::string::npos) << c.args << "\n" << out;
        EXPECT_FALSE(std::filesystem::exists(page)) << c.args;
    }
}

TEST(ViewBrowser, ChromiumShowsPicksAndRecoloursEveryFamily) {
    const auto& in = export_inputs();
    const std::vector<std::string> pages = {
        write_page((in.dir / "corpus").string(), "demo-corpus", " --audit"),
        write_page(in.er_binder, "elden-ring-binder", " --audit"),
        write_page(in.fc2_world, "far-cry-2-world"),
        write_page(in.igi_graph, "igi-graph"),
    };
    const auto shots = std::filesystem::path(navlab_binary()).parent_path() / "viewer-screenshots";
    if (!std::filesystem::exists(web_tools() / "node_modules" / "playwright-core"))
        FAIL() << "playwright-core is not installed: run tools/install-deps.sh (npm ci in tools/web)";
    std::string cmd = "node " + (web_tools() / "test_viewer.js").string() + " " + shots.string();
    for (const auto& p : pages) cmd += " " + p;
    std::string out;
    const int status = run_command(cmd, &out);
    if (status == 77) GTEST_SKIP() << out;
    EXPECT_EQ(status, 0) << out;
    std::cout << out;
    for (const char* name : {"demo-corpus", "elden-ring-binder", "far-cry-2-world", "igi-graph"})
        EXPECT_TRUE(std::filesystem::exists(shots / (std::string(name) + "-initial.png"))) << name;
    EXPECT_TRUE(std::filesystem::exists(shots / "demo-corpus-audit.png"));
}

}  // namespace
}  // namespace navlab::test
