// tools/fuzz-campaign.sh's goal mode decides which target each campaign slice fuzzes. These
// tests give it hand-made ledgers (CORPUS/ledger.tsv: time, target, executions, edges, corpus,
// status, seconds) and check its pick against the rule worked out by hand: the most estimated
// seconds left to the goal, where carried executions count toward the goal but not toward
// the rate, and targets at the goal, with an open finding, or locked by a worker are skipped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "reliability/reliability_support.h"
#include "support/samples.h"

using namespace navlab;
namespace fs = std::filesystem;

namespace {

/// The fuzz targets, as the script finds them (fuzz/fuzz_*.cpp).
std::vector<std::string> all_targets() {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(fs::path(NAVLAB_SOURCE_DIR) / "fuzz"))
        if (e.path().filename().string().starts_with("fuzz_") && e.path().extension() == ".cpp")
            out.push_back(e.path().stem().string());
    return out;
}

/// A ledger where every target already has 10 M carried executions, plus `extra` lines.
fs::path ledger_with(const std::string& name, const std::string& extra) {
    const auto dir = test::scratch_dir(name);
    std::ofstream out(dir / "ledger.tsv");
    for (const auto& t : all_targets()) out << "2026-12-02T10:00:00Z\t" << t << "\t10000000\t?\t?\tcarried\t0\n";
    out << extra;
    return dir;
}

/// The script under test, quoted for run_command.
std::string campaign_script() {
    return test::quoted(fs::path(NAVLAB_SOURCE_DIR) / "tools" / "fuzz-campaign.sh");
}

/// Runs `--next 10000000` (or ARGS) on the corpus folder; returns stdout without the newline.
std::string run_campaign(const fs::path& dir, const std::string& args = "--next 10000000") {
    std::string out;
    EXPECT_EQ(test::run_command("bash " + campaign_script() + " " + test::quoted(dir) + " " + args, &out), 0) << out;
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

/// Runs one goal campaign (goal 10 M, one worker, 20 s slices) with NAVLAB_FUZZ_BUILD=BUILD,
/// under `timeout` so a worker that spins cannot hang the test; returns the exit status.
int run_goal(const fs::path& dir, const fs::path& build, std::string* out) {
    return test::run_command("NAVLAB_FUZZ_BUILD=" + test::quoted(build) + " timeout 30 bash " + campaign_script() + " " +
                                 test::quoted(dir) + " --goal 10000000 --workers 1 --slice 20",
                             out);
}

/// The ledger lines of `target` that are not `carried`.
std::vector<std::string> run_lines(const fs::path& dir, const std::string& target) {
    std::vector<std::string> lines;
    std::ifstream in(dir / "ledger.tsv");
    for (std::string line; std::getline(in, line);)
        if (line.find("\t" + target + "\t") != std::string::npos && line.find("\tcarried\t") == std::string::npos)
            lines.push_back(line);
    return lines;
}

}  // namespace

TEST(FuzzCampaign, EveryTargetAtTheGoalLeavesNothingToRun) {
    EXPECT_EQ(run_campaign(ledger_with("campaign-done", "")), "");
}

TEST(FuzzCampaign, PicksTheMostSecondsLeftNotTheMostExecutionsLeft) {
    // fuzz_query: 9 M carried + 0.5 M run in 1,000 s (500/s): 0.5 M left = 1,000 s.
    // fuzz_audit: 6 M carried + 2.2 M run in 1,100 s (2,000/s): 1.8 M left = 900 s.
    // fuzz_query wins although fuzz_audit has more executions left.
    const std::string extra =
        "t\tfuzz_query\t-1000000\t?\t?\tcarried\t0\n"    // down to 9 M
        "t\tfuzz_query\t500000\t10\t1/1b\tok\t1000\n"     // 500/s
        "t\tfuzz_audit\t-4000000\t?\t?\tcarried\t0\n"     // down to 6 M
        "t\tfuzz_audit\t2200000\t10\t1/1b\tok\t1100\n";  // 8.2 M, 2,000/s
    EXPECT_EQ(run_campaign(ledger_with("campaign-seconds", extra)), "fuzz_query");
}

TEST(FuzzCampaign, SkipsOpenFindingsAndLockedTargetsButNotFixedFindings) {
    const std::string extra =
        "t\tfuzz_query\t-5000000\t?\t?\tcarried\t0\n"
        "t\tfuzz_query\t1000\t10\t1/1b\tfinding\t1\n"  // open finding: never picked
        "t\tfuzz_tagfile\t-4000000\t?\t?\tcarried\t0\n"
        "t\tfuzz_tagfile\t1000\t10\t1/1b\tfinding-fixed\t1\n"  // fixed: picked (rate 1,000/s)
        "t\tfuzz_audit\t-3000000\t?\t?\tcarried\t0\n";        // no rate yet: 1,000/s assumed
    const auto dir = ledger_with("campaign-skips", extra);
    EXPECT_EQ(run_campaign(dir), "fuzz_tagfile");
    fs::create_directories(dir / "running" / "fuzz_tagfile");  // another worker runs it
    EXPECT_EQ(run_campaign(dir), "fuzz_audit");
}

TEST(FuzzCampaign, SummaryCountsCarriedExecutionsButNotInTheRate) {
    const auto dir = ledger_with("campaign-summary", "t\tfuzz_igi\t3000\t1348\t5/9b\tok\t3\n");
    const std::string summary = run_campaign(dir, "--summary");
    const auto line_start = summary.find("fuzz_igi ");
    ASSERT_NE(line_start, std::string::npos) << summary;
    const std::string line = summary.substr(line_start, summary.find('\n', line_start) - line_start);
    EXPECT_NE(line.find(" 10003000 "), std::string::npos) << line;
    EXPECT_NE(line.find(" 1348 "), std::string::npos) << line;
    EXPECT_NE(line.find("(3 s, 1000/s)"), std::string::npos) << line;
}

TEST(FuzzCampaign, AMissingFuzzerIsNotRecordedAsAFinding) {
    // Before the targets are built (or while a rebuild relinks them) the fuzzer cannot start:
    // that is no finding, and must not keep the target out of later campaigns.
    const auto dir = ledger_with("campaign-missing", "t\tfuzz_igi\t-10\t?\t?\tcarried\t0\n");
    std::string out;
    EXPECT_NE(run_goal(dir, dir / "no-build", &out), 0) << out;
    EXPECT_TRUE(run_lines(dir, "fuzz_igi").empty()) << out;
    EXPECT_EQ(run_campaign(dir), "fuzz_igi");
}

TEST(FuzzCampaign, AFuzzerThatEndsAtOnceIsRunOnceNotInALoop) {
    // A fuzzer that exits 0 at once with a few executions: one `error` line, then the worker
    // moves on (here: nothing left) instead of giving it slice after slice.
    const auto dir = ledger_with("campaign-instant", "t\tfuzz_igi\t-10\t?\t?\tcarried\t0\n");
    const auto build = dir / "build";
    fs::create_directories(build / "fuzz");
    for (const auto& t : all_targets()) {
        std::ofstream(build / "fuzz" / t) << "#!/bin/sh\necho 'stat::number_of_executed_units: 5'\n";
        fs::permissions(build / "fuzz" / t, fs::perms::owner_all);
    }
    std::string out;
    EXPECT_EQ(run_goal(dir, build, &out), 0) << out;
    const auto lines = run_lines(dir, "fuzz_igi");
    ASSERT_EQ(lines.size(), 1u) << out;
    EXPECT_NE(lines[0].find("\terror\t"), std::string::npos) << lines[0];
}
