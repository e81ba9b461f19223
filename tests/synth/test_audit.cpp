// The synthetic corpus under the nav audit: the small preset passes every rule the page
// states as universal, and --inject makes exactly the named rule fail where synth says.
#include <gtest/gtest.h>

#include "audit/audit_report.h"
#include "audit/audit_rules.h"
#include "support/samples.h"
#include "audit/audit_files.h"
#include "synth/write.h"

using namespace navlab;
using namespace navlab::synth;

namespace {

CorpusResult make_small(const std::filesystem::path& dir, const std::string& inject = {}) {
    CorpusOptions o;
    o.preset = Preset::Small;
    o.seed = 5;
    o.out = dir;
    o.threads = 2;
    o.inject = inject;
    return generate_corpus(o);
}

/// The audit of the written binders, two at a time, through the library entry point.
audit::AuditRun audit_corpus(const CorpusResult& r) {
    std::vector<std::string> paths;
    for (const auto& f : r.files) paths.push_back(f.string());
    return audit::audit_files(paths, {2, 5, {}});
}

std::vector<std::string> failed_rules(const audit::AuditReport& report) {
    std::vector<std::string> failed;
    const auto rules = audit::all_rules();
    for (std::size_t i = 0; i < rules.size(); ++i)
        if (audit::rule_status(report, i) == "fail") failed.push_back(rules[i].id);
    return failed;
}

}  // namespace

TEST(SynthAudit, SmallPresetPassesTheAudit) {
    const auto dir = navlab::test::scratch_dir("synth_audit_small");
    const CorpusResult r = make_small(dir);
    const auto audit = audit_corpus(r);
    EXPECT_FALSE(audit::audit_failed(audit.report)) << audit::format_audit_text(audit.report);
    EXPECT_EQ(failed_rules(audit.report), std::vector<std::string>{});
    EXPECT_EQ(audit.report.summary.sekiro.faces, r.sekiro.faces);
    EXPECT_EQ(audit.report.summary.elden_ring.user_edges, r.elden_ring.user_edges);
    EXPECT_EQ(audit.report.summary.elden_ring.tree_nodes, r.elden_ring.tree_nodes);
    EXPECT_EQ(audit.report.summary.sekiro.binders + audit.report.summary.elden_ring.binders, 4);
    std::filesystem::remove_all(dir);
}

TEST(SynthAudit, InjectedFaultIsTheOneTheAuditFinds) {
    for (const std::string rule : {"R26", "R36", "R72", "R91"}) {
        SCOPED_TRACE(rule);
        const auto dir = navlab::test::scratch_dir("synth_audit_inject");
        const CorpusResult r = make_small(dir, rule);
        const auto audit = audit_corpus(r);
        const auto failed = failed_rules(audit.report);
        EXPECT_NE(std::find(failed.begin(), failed.end(), rule), failed.end()) << r.injected;
        std::filesystem::remove_all(dir);
    }
}

TEST(SynthAudit, SameReportWhateverTheThreadsAndTheOrderFilesFinishIn) {
    // audit_files merges a tagfile's result as soon as its binder is at the merge point and
    // keeps the others until it gets there: with binders of very different sizes and more
    // threads than cores, files finish out of order. The JSON (every count, extreme, value
    // set and first example) must not depend on it. An injected fault gives examples to keep.
    const auto dir = navlab::test::scratch_dir("synth_audit_threads");
    const CorpusResult r = make_small(dir, "R36");
    std::vector<std::string> paths;
    for (const auto& f : r.files) paths.push_back(f.string());
    const std::string one = audit::audit_json(audit::audit_files(paths, {1, 5, {}}).report).dump();
    for (unsigned threads : {2u, 3u, 4u, 8u}) {
        SCOPED_TRACE(threads);
        for (int run = 0; run < 3; ++run)
            EXPECT_EQ(audit::audit_json(audit::audit_files(paths, {threads, 5, {}}).report).dump(), one);
    }
    std::filesystem::remove_all(dir);
}
