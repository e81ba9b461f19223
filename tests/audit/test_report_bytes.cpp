// Guard: the audit's JSON report is byte-identical to the one the code wrote when this test was
// added (issue 11). Refactoring the layers, the byte ownership or the findings, and rewriting the
// audit engine for speed, must not change one byte of it. The digests were computed by the
// code of that commit; a deliberate change of the report format updates them in the same commit
// and says why.
//
// Inputs: the demo's small synthetic corpus (seed 1, deterministic whatever the thread count),
// the same corpus with one rule broken on purpose (so exceptions and examples are covered too),
// and the real Elden Ring sample when present. The audit runs in the corpus's parent folder on a
// relative path, so the paths inside the report do not depend on the scratch folder.
#include <gtest/gtest.h>

#include <string>

#include "io/file.h"
#include "support/samples.h"
#include "support/sha256.h"

using namespace navlab;

namespace {

int run_in(const std::filesystem::path& dir, const std::string& args, std::string* out) {
    return test::run_command("cd '" + dir.string() + "' && " + test::navlab_binary() + " " + args, out);
}

/// SHA-256 of the audit JSON of a small synthetic corpus, generated with `synth_args` extra.
std::string synth_report_digest(const std::string& name, const std::string& synth_args, int expected_exit) {
    auto dir = test::scratch_dir(name);
    std::string out;
    EXPECT_EQ(run_in(dir, "synth --preset small --seed 1 --threads 2 --out corpus " + synth_args, &out), 0) << out;
    EXPECT_EQ(run_in(dir, "audit corpus --threads 2 --json report.json", &out), expected_exit) << out;
    auto digest = test::sha256_hex(read_file(dir / "report.json"));
    std::filesystem::remove_all(dir);
    return digest;
}

}  // namespace

TEST(AuditReportBytes, SmallSyntheticCorpus) {
    EXPECT_EQ(synth_report_digest("report-bytes-small", "", 0),
              "52ec0e756c27fe38ab956e9e2f437ccaf110f274d6d1ffbd83d9b224e5c7db1b");
}

TEST(AuditReportBytes, SmallSyntheticCorpusWithBrokenRules) {
    EXPECT_EQ(synth_report_digest("report-bytes-r26", "--inject R26", 1),
              "b7bbd367d7161c1f9e2f243e1fbb4fdc8804c38d6afaaf8e880e48417c59b536");
    EXPECT_EQ(synth_report_digest("report-bytes-r72", "--inject R72", 1),
              "3f77af2b729daf40444a8db6d28a2dc4ef99fe105669c8b62d662e4be5f2b7ce");
    EXPECT_EQ(synth_report_digest("report-bytes-r04", "--inject R04", 1),
              "f38b486ab6928ec058675969a87ab1b3c9f2c00d6a2787bc3dc80de0ca2b9045");
}

TEST(AuditReportBytes, EldenRingSample) {
    NAVLAB_REQUIRE_SAMPLE(path, "havok/er/n10_01_00_00_001700.hkx");
    auto dir = test::scratch_dir("report-bytes-sample");
    std::string out;
    ASSERT_EQ(run_in(path.parent_path().parent_path(), "audit er --json '" + (dir / "report.json").string() + "'", &out), 0)
        << out;
    EXPECT_EQ(test::sha256_hex(read_file(dir / "report.json")),
              "8c5fe71c3e438cd5465f45d77b4fd2f34f99a1b52b3558cb9de36a81a9264f51");
    std::filesystem::remove_all(dir);
}
