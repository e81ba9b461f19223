// `navlab audit` and `navlab export` (FromSoftware) end to end, on files written with the
// FromSoftware tagfile writer and the BND4 writer, and on the real Elden Ring sample.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "container/bnd4.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "io/file.h"
#include "support/samples.h"
#include "synthetic_navmesh.h"

using namespace navlab;
using navlab::test::SyntheticOptions;

namespace {

std::vector<std::uint8_t> synthetic_bytes(const SyntheticOptions& o) {
    return fromsoft::write_nav_tagfile(*test::synthetic_tagfile(o).model);
}

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// A folder with an Elden Ring binder of two tagfiles and a loose Sekiro tagfile.
std::filesystem::path make_corpus(const std::string& name) {
    auto dir = test::scratch_dir(name);
    std::vector<bnd4::NewEntry> entries;
    SyntheticOptions small;
    SyntheticOptions larger;
    larger.width = 7;
    entries.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_000100.hkx"), 100, synthetic_bytes(small)});
    entries.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_000200.hkx"), 200, synthetic_bytes(larger)});
    write_file_atomic(dir / "m10_00_00_00.nvmhktbnd", bnd4::write(bnd4::build_navmesh_binder(std::move(entries))));
    SyntheticOptions sekiro;
    sekiro.sekiro = true;
    std::filesystem::create_directories(dir / "sekiro");
    write_file_atomic(dir / "sekiro" / "n11_00_00_00_000100.hkx", synthetic_bytes(sekiro));
    return dir;
}

int run(const std::string& args, std::string* out) { return test::run_command(test::navlab_binary() + " " + args, out); }

/// Counts the lines of `text` starting with `prefix` followed by a space.
int count_lines(const std::string& text, const std::string& prefix) {
    std::istringstream in(text);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) n += line.rfind(prefix + " ", 0) == 0;
    return n;
}

}  // namespace

TEST(AuditCli, SyntheticCorpusPassesAndIsThreadCountIndependent) {
    auto dir = make_corpus("audit-corpus");
    std::string out1, out3;
    ASSERT_EQ(run("audit " + dir.string() + " --threads 1 --json " + (dir / "a1.json").string(), &out1), 0) << out1;
    ASSERT_EQ(run("audit " + dir.string() + " --threads 3 --json " + (dir / "a3.json").string(), &out3), 0) << out3;
    EXPECT_EQ(out1, out3);
    std::string j1 = slurp(dir / "a1.json");
    EXPECT_EQ(j1, slurp(dir / "a3.json"));
    auto j = nlohmann::json::parse(j1);
    EXPECT_EQ(j["format"], "navlab-audit/1");
    EXPECT_EQ(j["summary"]["elden_ring"]["binders"], 1);
    EXPECT_EQ(j["summary"]["elden_ring"]["tagfiles"], 2);
    EXPECT_EQ(j["summary"]["elden_ring"]["faces"], 12 + 21);
    EXPECT_EQ(j["summary"]["elden_ring"]["user_edges"], 4);
    EXPECT_EQ(j["summary"]["sekiro"]["tagfiles"], 1);
    EXPECT_EQ(j["summary"]["sekiro"]["cost_graphs"], 1);
    EXPECT_EQ(j["rules"].size(), 97u);
    EXPECT_EQ(j["result"]["invariants"], 67);
    EXPECT_EQ(j["result"]["invariants_failed"], 0);
    EXPECT_EQ(j["result"]["exit_status"], 0);
    // Binder members are checked by R96/R97.
    EXPECT_EQ(j["rules"][95]["id"], "R96");
    EXPECT_EQ(j["rules"][95]["checked"], 2);
    EXPECT_EQ(j["rules"][96]["exceptions"], 0);
}

TEST(AuditCli, UnreadableTagfileFailsR02) {
    auto dir = make_corpus("audit-bad");
    auto bytes = synthetic_bytes({});
    bytes.resize(bytes.size() / 2);
    write_file_atomic(dir / "sekiro" / "n11_00_00_00_000200.hkx", bytes);
    std::string out;
    EXPECT_EQ(run("audit " + dir.string() + " --json " + (dir / "bad.json").string(), &out), 1) << out;
    auto j = nlohmann::json::parse(slurp(dir / "bad.json"));
    EXPECT_EQ(j["summary"]["unreadable"], 1);
    EXPECT_EQ(j["rules"][1]["id"], "R02");
    EXPECT_EQ(j["rules"][1]["status"], "fail");
    EXPECT_EQ(j["rules"][1]["examples"][0]["entry"], "n11_00_00_00_000200.hkx");
    EXPECT_EQ(j["result"]["exit_status"], 1);
}

// A byte that is not UTF-8 in a type name (a damaged TSTR section): the JSON writer threw
// on it after the whole audit, so no report was written and the error named no file. Now R02
// shows the byte as \x86 in both reports.
TEST(AuditCli, TypeNameThatIsNotUtf8StillWritesTheReports) {
    auto dir = make_corpus("audit-not-utf8");
    auto bytes = synthetic_bytes({});
    const std::string name = "hkRootLevelContainer";
    const auto at = std::search(bytes.begin(), bytes.end(), name.begin(), name.end());
    ASSERT_NE(at, bytes.end());
    at[3] = 0x86;  // hkR\x86otLevelContainer
    write_file_atomic(dir / "sekiro" / "n11_00_00_00_000200.hkx", bytes);
    std::string out;
    EXPECT_EQ(run("audit " + dir.string() + " --json " + (dir / "bad.json").string(), &out), 1) << out;
    EXPECT_NE(out.find("hkR\\x86otLevelContainer"), std::string::npos) << out;
    EXPECT_EQ(out.find("json.exception"), std::string::npos) << out;
    const auto j = nlohmann::json::parse(slurp(dir / "bad.json"));  // valid UTF-8, or parse throws
    EXPECT_EQ(j["rules"][1]["id"], "R02");
    EXPECT_EQ(j["rules"][1]["status"], "fail");
    EXPECT_NE(j["rules"][1]["examples"][0]["detail"].get<std::string>().find("hkR\\x86otLevelContainer"), std::string::npos)
        << j["rules"][1]["examples"][0];
}

// A control byte in a variant's name (data, not a reader error) reaches R07's example: the
// text report shows it as \x1B, never the raw escape character a terminal would act on.
TEST(AuditCli, ControlByteInAVariantNameIsShownEscaped) {
    auto dir = test::scratch_dir("audit-control-byte");
    auto bytes = synthetic_bytes({});
    const std::string name = "hkaiNavMesh";
    const auto at = std::search(bytes.begin(), bytes.end(), name.begin(), name.end());  // the variant's name
    ASSERT_NE(at, bytes.end());
    at[4] = 0x1B;
    write_file_atomic(dir / "n11_00_00_00_000100.hkx", bytes);
    std::string out;
    EXPECT_EQ(run("audit " + (dir / "n11_00_00_00_000100.hkx").string() + " --json " + (dir / "a.json").string(), &out), 1)
        << out;
    EXPECT_NE(out.find("hkai\\x1BavMesh"), std::string::npos) << out;
    EXPECT_EQ(out.find('\x1B'), std::string::npos) << out;
    const auto j = nlohmann::json::parse(slurp(dir / "a.json"));
    EXPECT_EQ(j["rules"][6]["id"], "R07");
    EXPECT_NE(j["rules"][6]["examples"][0]["detail"].get<std::string>().find("hkai\\x1BavMesh"), std::string::npos)
        << j["rules"][6];
}

TEST(AuditCli, SampleAuditPasses) {
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    std::string out;
    ASSERT_EQ(run("audit " + path.string() + " --all", &out), 0) << out;
    EXPECT_NE(out.find("R39  geometry  both  STATISTIC  reported  checked 60 faces  exceptions 4"), std::string::npos) << out;
    EXPECT_NE(out.find("n10_01_00_00_001700.hkx  face 44  5 edges, strongest reflex corner sin 9.8e-4"), std::string::npos);
    EXPECT_NE(out.find("R01  structure"), std::string::npos);
    EXPECT_NE(out.find("supplementary counters"), std::string::npos);
    EXPECT_NE(out.find("97 rules, 0 invariants failed"), std::string::npos);
}

// The default report: the summary table, only the rules with exceptions (R39, R41, R53 on the
// sample), then one line for the rest.
TEST(AuditCli, DefaultReportShowsOnlyRulesWithExceptions) {
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    std::string out;
    ASSERT_EQ(run("audit " + path.string(), &out), 0) << out;
    EXPECT_NE(out.find("  Faces "), std::string::npos) << out;
    EXPECT_NE(out.find("R39  geometry  both  STATISTIC  reported  checked 60 faces  exceptions 4"), std::string::npos);
    EXPECT_NE(out.find("R41  geometry"), std::string::npos);
    EXPECT_NE(out.find("R53  aabb"), std::string::npos);
    EXPECT_EQ(out.find("R01  structure"), std::string::npos);  // passed: not printed
    EXPECT_EQ(out.find("supplementary counters"), std::string::npos);
    EXPECT_NE(out.find("77 rules passed, 17 not applicable, 0 invariants failed"), std::string::npos);
}

TEST(AuditCli, FolderWithoutNavmeshFilesFails) {
    auto dir = test::scratch_dir("audit-empty");
    write_file_atomic(dir / "readme.txt", std::string("not a navmesh"));
    std::string out;
    EXPECT_EQ(run("audit " + dir.string(), &out), 1) << out;
    EXPECT_NE(out.find("no navmesh binders or tagfiles found under " + dir.string()), std::string::npos) << out;
}

// A binder named by the user that opens but holds no tagfile (a message binder, say) is the
// same error as a folder without binders: exit 1, not a report of rules not applicable.
TEST(AuditCli, BinderWithoutTagfilesFails) {
    auto dir = test::scratch_dir("audit-no-tagfile");
    std::vector<bnd4::NewEntry> entries;
    entries.push_back({"N:\\NTC\\data\\Target\\INTERROOT_win64\\msg\\item.fmg", 10, std::vector<std::uint8_t>(64, 7)});
    const auto binder = dir / "item.msgbnd";
    write_file_atomic(binder, bnd4::write(bnd4::build_navmesh_binder(std::move(entries))));
    std::string out;
    EXPECT_EQ(run("audit " + binder.string() + " --json " + (dir / "r.json").string(), &out), 1) << out;
    EXPECT_NE(out.find("no navmesh tagfile in " + binder.string() + ": 1 file(s) read, none holds a .hkx member"),
              std::string::npos)
        << out;
    EXPECT_EQ(out.find("not applicable"), std::string::npos) << out;
    EXPECT_FALSE(std::filesystem::exists(dir / "r.json"));
}

// The progress line is drawn only on a terminal: with stderr a pipe nothing of it appears.
TEST(AuditCli, NoProgressLineWhenNotATerminal) {
    auto dir = make_corpus("audit-progress");
    std::string out;
    ASSERT_EQ(run("audit " + dir.string() + " --threads 1", &out), 0) << out;
    EXPECT_EQ(out.find('\r'), std::string::npos);
    EXPECT_EQ(out.find("MB/s"), std::string::npos);
    EXPECT_EQ(out.find("audit ["), std::string::npos);
}

// A face whose ring does not close is left out of the geometric exports, which now say so
// (one "skipped" line naming the face, exit 1) instead of leaving a silent gap; JSON keeps
// every face as stored and exits 0.
TEST(ExportFromsoft, FacesWhoseRingsDoNotReadAreLeftOutAndNamed) {
    auto dir = test::scratch_dir("export-open-ring");
    fromsoft::NavTagfile nav = *test::synthetic_tagfile({}).model;
    ASSERT_EQ(nav.mesh.faces.size(), 12u);
    nav.mesh.edges[4 * 5 + 1].b = nav.mesh.edges[4 * 5 + 1].a;  // face 5: no longer the next edge's a
    const auto file = (dir / "n10_00_00_00_000100.hkx").string();
    write_file_atomic(file, fromsoft::write_nav_tagfile(nav));
    for (const char* ext : {"obj", "glb", "ply"}) {
        std::string out;
        EXPECT_EQ(run("export " + file + " -o " + (dir / "x.").string() + ext, &out), 1) << out;
        EXPECT_NE(out.find("navlab: skipped"), std::string::npos) << ext << out;
        EXPECT_NE(out.find("navlab: skipped " + file +
                           ": 1 of 12 faces left out, their rings do not read (face 5: its ring does not close, audit "
                           "rule R33)"),
                  std::string::npos)
            << ext << out;
    }
    EXPECT_EQ(count_lines(slurp(dir / "x.obj"), "f"), 11 * 2);  // the other faces, two triangles each
    std::string out;
    EXPECT_EQ(run("export " + file + " -o " + (dir / "x.json").string(), &out), 0) << out;
    EXPECT_EQ(nlohmann::json::parse(slurp(dir / "x.json"))["tagfiles"][0]["faces"].size(), 12u);
}

TEST(ExportFromsoft, SampleObjParsesBack) {
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    auto dir = test::scratch_dir("export-sample");
    std::string out;
    ASSERT_EQ(run("export " + path.string() + " --format obj -o " + (dir / "s.obj").string(), &out), 0) << out;
    std::string obj = slurp(dir / "s.obj");
    EXPECT_EQ(count_lines(obj, "g"), 1);
    EXPECT_EQ(count_lines(obj, "v"), 141);
    EXPECT_EQ(count_lines(obj, "f"), 141);  // the page's triangulation: Σ (numEdges − 2)
    EXPECT_EQ(count_lines(obj, "l"), 0);
    // Every face index is 1-based and refers to a vertex.
    std::istringstream in(obj);
    std::string tag;
    while (in >> tag) {
        if (tag == "f") {
            long a, b, c;
            in >> a >> b >> c;
            EXPECT_GE(std::min({a, b, c}), 1);
            EXPECT_LE(std::max({a, b, c}), 141);
        }
        std::getline(in, tag);
    }
    ASSERT_EQ(run("export " + path.string() + " -o " + (dir / "s.json").string(), &out), 0) << out;
    auto j = nlohmann::json::parse(slurp(dir / "s.json"));
    ASSERT_EQ(j["tagfiles"].size(), 1u);
    EXPECT_EQ(j["tagfiles"][0]["faces"].size(), 60u);
    EXPECT_EQ(j["tagfiles"][0]["faces"][57]["cluster"], -1);
    EXPECT_EQ(j["tagfiles"][0]["faces"][57]["triangles"].size(), 12u);
}

TEST(ExportFromsoft, BinderObjHasOneGroupPerTagfileAndUserEdgeLines) {
    auto dir = make_corpus("export-binder");
    auto binder = (dir / "m10_00_00_00.nvmhktbnd").string();
    std::string out;
    ASSERT_EQ(run("export " + binder + " --format obj -o " + (dir / "b.obj").string(), &out), 0) << out;
    std::string obj = slurp(dir / "b.obj");
    EXPECT_EQ(count_lines(obj, "g"), 2);
    EXPECT_EQ(count_lines(obj, "v"), (5 * 4 + 4) + (8 * 4 + 4));
    EXPECT_EQ(count_lines(obj, "f"), 2 * (12 + 21));
    EXPECT_EQ(count_lines(obj, "l"), 4);
    EXPECT_NE(obj.find("g n10_00_00_00_000100\n"), std::string::npos);
    // One entry alone, by its short name.
    ASSERT_EQ(run("export " + binder + " --entry n10_00_00_00_000200.hkx -f json -o " + (dir / "e.json").string(), &out), 0) << out;
    auto j = nlohmann::json::parse(slurp(dir / "e.json"));
    ASSERT_EQ(j["tagfiles"].size(), 1u);
    EXPECT_EQ(j["tagfiles"][0]["faces"].size(), 21u);
    ASSERT_EQ(j["tagfiles"][0]["user_edges"].size(), 2u);
    EXPECT_EQ(j["tagfiles"][0]["user_edges"][0]["face"], 0);
    EXPECT_EQ(j["tagfiles"][0]["user_edges"][0]["flags"], 20);
    EXPECT_EQ(j["tagfiles"][0]["user_edges"][0]["edgeData"], 0x0102);
}
