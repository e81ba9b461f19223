// audit_files: the workers share binders (tagfiles are the unit of work) and merge in input
// order: the same report whatever the thread count, a broken tagfile in the middle of a shared
// binder, and a progress callback that throws (a cancel button) ends the run with its
// exception, never a hang, even while a worker waits for a slow file ahead of it.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <future>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "audit/audit_context.h"
#include "audit/audit_files.h"
#include "audit/audit_load.h"
#include "audit/audit_report.h"
#include "audit/audit_rules.h"
#include "codec/dcx.h"
#include "container/bnd4.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "io/file.h"
#include "support/samples.h"
#include "synthetic_navmesh.h"

using namespace navlab;
using namespace std::chrono_literals;

namespace {

/// The options of tagfile `i` of the corpus below: well-formed meshes of a few sizes, repeated
/// (so maxima tie and the merge must keep the first).
test::SyntheticOptions corpus_options(int i) {
    test::SyntheticOptions o;
    o.width = 2 + (i * 7) % 23;
    o.height = 1 + i % 4;
    return o;
}

/// Tagfile `i` of binder `map`, or, where `bad`, its bytes cut short (an R02 exception naming
/// the entry).
bnd4::NewEntry corpus_entry(int map, int i, bool bad) {
    const test::SyntheticOptions o = corpus_options(i);
    const std::string name = fmt::format("n{:02}_00_00_00_{:06}.hkx", map, (i + 1) * 100);
    std::vector<std::uint8_t> bytes = fromsoft::write_nav_tagfile(*test::synthetic_tagfile(o).model);
    if (bad) bytes.assign(bytes.begin(), bytes.begin() + 40 + i);  // cut short
    return {bnd4::er_navmesh_entry_name(fmt::format("{:02}_00_00_00", map), name), (i + 1) * 100, std::move(bytes)};
}

struct Corpus {
    std::vector<std::string> paths;  ///< the binders in input order
    std::int64_t faces = 0;          ///< faces of the well-formed tagfiles
    std::int64_t unreadable = 0;     ///< tagfiles cut short, plus the binder that does not open
};

/// Writes binder `map` of `tagfiles` corpus tagfiles (those listed in `bad` cut short) into
/// `dir` and adds it to `c`: a plain .nvmhktbnd, or a DCX of `variant` (DCX_KRAK at level 1,
/// whose 256 KiB restart blocks decode apart, by the opening worker and any idle one).
void write_corpus_binder(Corpus& c, const std::filesystem::path& dir, int map, int tagfiles, const std::vector<int>& bad,
                         dcx::Variant variant = dcx::Variant::None) {
    std::vector<bnd4::NewEntry> entries;
    for (int i = 0; i < tagfiles; ++i) {
        const bool cut = std::find(bad.begin(), bad.end(), i) != bad.end();
        entries.push_back(corpus_entry(map, i, cut));
        if (cut) ++c.unreadable;
        else c.faces += corpus_options(i).width * corpus_options(i).height;
    }
    const bool dcx = variant != dcx::Variant::None;
    const auto file = dir / fmt::format("m{:02}_00_00_00.nvmhktbnd{}", map, dcx ? ".dcx" : "");
    const std::vector<std::uint8_t> binder = bnd4::write(bnd4::build_navmesh_binder(std::move(entries)));
    write_file_atomic(file, dcx ? dcx::compress(binder, variant, nullptr, 1) : binder);
    c.paths.push_back(file.string());
}

/// One huge binder (`huge_tagfiles` tagfiles, two of them cut short) among 24 small binders of
/// one or two tagfiles, one of them cut short, and a binder file that does not open. Where
/// `krak`, the huge binder is a DCX_KRAK file.
Corpus one_huge_binder_among_small_ones(const std::filesystem::path& dir, int huge_tagfiles, bool krak = false) {
    Corpus c;
    for (int map = 10; map < 22; ++map) write_corpus_binder(c, dir, map, 1 + map % 2, {});
    write_corpus_binder(c, dir, 22, huge_tagfiles, {huge_tagfiles / 3, huge_tagfiles / 2},
                        krak ? dcx::Variant::Krak : dcx::Variant::None);
    const auto broken = dir / "m23_00_00_00.nvmhktbnd";
    write_file_atomic(broken, std::string_view("BND4 but nothing more"));
    c.paths.push_back(broken.string());
    ++c.unreadable;
    for (int map = 24; map < 36; ++map)
        write_corpus_binder(c, dir, map, 1 + map % 2, map == 30 ? std::vector<int>{0} : std::vector<int>{});
    return c;
}

/// The JSON report of `paths` audited with `threads` workers, 2 first examples per rule (so
/// which exceptions come first matters).
std::string report_json(const std::vector<std::string>& paths, unsigned threads) {
    return audit::audit_json(audit::audit_files(paths, {threads, 2, {}}).report).dump();
}

/// The corpus audited with one worker counts its faces and unreadable tagfiles; with 2 and 4
/// workers, three runs each, its JSON report is the same, byte for byte.
void expect_the_one_thread_report_with_any_threads(const Corpus& c) {
    const audit::AuditRun one = audit::audit_files(c.paths, {1, 2, {}});
    EXPECT_EQ(one.report.summary.elden_ring.faces, c.faces);
    EXPECT_EQ(one.report.summary.unreadable, c.unreadable);
    const std::string json = audit::audit_json(one.report).dump();
    for (unsigned threads : {2u, 4u}) {
        SCOPED_TRACE(threads);
        for (int run = 0; run < 3; ++run) EXPECT_EQ(report_json(c.paths, threads), json);
    }
}

/// What the thread running audit_files set `outcome` to (its exception's message, or "no
/// exception"), once it ended: a run still going after 30 s hung, and ends the test program
/// (the thread can never be joined).
std::string outcome_of(std::thread& audit, std::promise<std::string>& outcome) {
    auto result = outcome.get_future();
    if (result.wait_for(30s) != std::future_status::ready) {
        ADD_FAILURE() << "audit_files hung after its progress callback threw";
        std::_Exit(1);
    }
    audit.join();
    return result.get();
}

}  // namespace

// What a thread keeps between tagfiles (the recycled model's arrays, the context's) is sized for
// the largest tagfile it audited; release_kept_storage frees it (bench_corpus calls it before it
// measures a pass's own peak, so that the first worker's kept storage is counted). A large
// tagfile audited, then a small one read and audited on the same thread: without the release
// (checked first, on another thread) the small one gets the large one's arrays, after it arrays
// of its own size.
TEST(AuditFiles, ReleaseKeptStorageFreesALargeTagfilesStorage) {
    test::SyntheticOptions large;
    large.width = large.height = 60;
    const std::vector<std::uint8_t> small = fromsoft::write_nav_tagfile(*test::synthetic_tagfile().model);
    const std::size_t large_edges = test::synthetic_tagfile(large).model->mesh.edges.size();
    // The capacities of a small tagfile's model and context made on this thread now.
    auto small_capacities = [&] {
        const audit::AuditTagfile t = audit::load_audit_tagfile(small, "", "small", std::nullopt);
        const audit::TagfileContext c(t);
        return std::array{t.model->mesh.edges.capacity(), c.owner.capacity()};
    };
    std::thread([&] {  // the large tagfile audited alone: its storage kept
        audit::audit_tagfile(test::synthetic_tagfile(large), 2);
        for (const std::size_t capacity : small_capacities()) EXPECT_GE(capacity, large_edges);
    }).join();
    std::thread([&] {  // the same, then released
        audit::audit_tagfile(test::synthetic_tagfile(large), 2);
        audit::release_kept_storage();
        for (const std::size_t capacity : small_capacities()) EXPECT_LT(capacity, large_edges / 8);
    }).join();
}

// release_large_kept_storage frees only the kept arrays of at least its size: after a large
// tagfile, the edges' bytes as the bound free the recycled edges (the largest array)
// and keeps the faces and the context's edge owners (each fewer bytes), whose next user then
// gets the large tagfile's capacity.
TEST(AuditFiles, ReleaseLargeKeptStorageFreesOnlyTheArraysAboveItsSize) {
    test::SyntheticOptions large;
    large.width = large.height = 60;
    const std::vector<std::uint8_t> small = fromsoft::write_nav_tagfile(*test::synthetic_tagfile().model);
    const audit::AuditTagfile big = test::synthetic_tagfile(large);
    const std::size_t edges = big.model->mesh.edges.size(), faces = big.model->mesh.faces.size();
    ASSERT_GT(sizeof(fromsoft::Edge), sizeof(std::int32_t));  // an edge's owner takes fewer bytes than the edge
    ASSERT_LT(faces * sizeof(fromsoft::Face), edges * sizeof(fromsoft::Edge));
    std::thread([&] {
        audit::audit_tagfile(test::synthetic_tagfile(large), 2);
        audit::release_large_kept_storage(edges * sizeof(fromsoft::Edge));
        const audit::AuditTagfile t = audit::load_audit_tagfile(small, "", "small", std::nullopt);
        const audit::TagfileContext c(t);
        EXPECT_LT(t.model->mesh.edges.capacity(), edges / 8);  // freed
        EXPECT_GE(t.model->mesh.faces.capacity(), faces);      // kept
        EXPECT_GE(c.owner.capacity(), edges);                  // kept
    }).join();
    std::thread([&] {  // a bound above every array frees none
        audit::audit_tagfile(test::synthetic_tagfile(large), 2);
        audit::release_large_kept_storage(edges * sizeof(fromsoft::Edge) * 4);
        const audit::AuditTagfile t = audit::load_audit_tagfile(small, "", "small", std::nullopt);
        EXPECT_GE(t.model->mesh.edges.capacity(), edges);
    }).join();
}

TEST(AuditFiles, OneHugeBinderAmongSmallOnesGivesTheSameReportWithAnyThreads) {
    // The workers share the huge binder's tagfiles and finish them out of order while the small
    // binders around it are opened: the merge must still take every result in input order.
    const auto dir = test::scratch_dir("audit-files-huge");
    const Corpus c = one_huge_binder_among_small_ones(dir, 120);
    expect_the_one_thread_report_with_any_threads(c);
    for (unsigned threads : {2u, 4u}) {
        SCOPED_TRACE(threads);
        // Progress: once per binder, after its last tagfile, counting up to the total.
        std::vector<std::size_t> done;
        std::uint64_t bytes = 0, total = 0;
        audit::audit_files(c.paths, {threads, 2, {}}, [&](const audit::AuditProgress& p) {
            done.push_back(p.files_done);
            EXPECT_EQ(p.files_total, c.paths.size());
            bytes = p.bytes_done;
            total = p.bytes_total;
        });
        std::vector<std::size_t> expected(c.paths.size());
        std::iota(expected.begin(), expected.end(), std::size_t(1));
        EXPECT_EQ(done, expected);
        EXPECT_EQ(bytes, total);
    }
    std::filesystem::remove_all(dir);
}

TEST(AuditFiles, AHugeKrakBinderDecodedWithHelpGivesTheSameReport) {
    // The huge binder is DCX_KRAK: while one worker opens it, the others (nothing else may
    // open beside it) decode some of its restart blocks. The payload, hence the report, is the
    // same with any thread count.
    const auto dir = test::scratch_dir("audit-files-huge-krak");
    const Corpus c = one_huge_binder_among_small_ones(dir, 160, true);
    ASSERT_GT(std::filesystem::file_size(dir / "m22_00_00_00.nvmhktbnd.dcx"), 64u * 1024);
    const std::size_t payload = dcx::decompress(read_file(dir / "m22_00_00_00.nvmhktbnd.dcx")).payload.size();
    ASSERT_GT(payload, 3u * 256 * 1024);  // several restart blocks to share
    expect_the_one_thread_report_with_any_threads(c);
    // The huge binder's block decode went to the workers' board (the io tests prove that an
    // idle thread runs a posted loop; whether one did here is the machine's timing).
    const audit::AuditRun two = audit::audit_files(c.paths, {2, 2, {}});
    EXPECT_GE(two.decode_loops_shared, 1u);
    EXPECT_LE(two.decode_items_helped, (payload + 0x3FFFF) / 0x40000);
    // The binder opens' CPU time (bench_corpus's same-pass split): some, for a decode of
    // several MB, and within the process's CPU time for the whole run.
    auto process_cpu = [] {
        timespec t{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
    };
    const double before = process_cpu();
    const audit::AuditRun one = audit::audit_files(c.paths, {1, 2, {}});
    const double run_cpu = process_cpu() - before;
    EXPECT_GT(one.open_cpu_seconds, 0.0);
    EXPECT_LE(one.open_cpu_seconds, run_cpu);
    std::filesystem::remove_all(dir);
}

/// A well-formed synthetic model with the start of `breaks` shared edges (every fifth) moved
/// to a copy of its vertex: each such edge and the one before it in the ring are no longer
/// the reverses of their opposites (two R37 exceptions per break).
fromsoft::NavTagfile model_with_broken_reverses(int width, int breaks) {
    test::SyntheticOptions o;
    o.width = width, o.height = 3;
    fromsoft::NavTagfile model = *test::synthetic_tagfile(o).model;
    auto& m = model.mesh;
    const auto R = static_cast<std::int64_t>(4 * m.faces.size());
    for (std::int64_t e = 0, seen = 0; e < R && breaks > 0; ++e) {
        if (m.edges[e].oppositeEdge == fromsoft::kNoOpposite || seen++ % 5 != 0) continue;
        --breaks;
        m.vertices.push_back(m.vertices[m.edges[e].a]);
        m.edges[e].a = static_cast<std::int32_t>(m.vertices.size() - 1);
    }
    return model;
}

TEST(AuditFiles, BindersThatFitBesideADecompressionOpenAheadWithTheSameReport) {
    // m10 and m11 are large DCX_ZSTD binders that do not fit the payload budget together (the
    // budget is m20, the largest); the small binders after them do. While one worker
    // decompresses m10, the other opens m12, m13, ... ahead of m11 instead of waiting, and their
    // results wait in the merge: the report, and the progress count, are those of one thread.
    const auto dir = test::scratch_dir("audit-files-ahead");
    Corpus c;
    write_corpus_binder(c, dir, 10, 200, {7}, dcx::Variant::Zstd);
    write_corpus_binder(c, dir, 11, 200, {}, dcx::Variant::Zstd);
    for (int map = 12; map < 20; ++map)
        write_corpus_binder(c, dir, map, 1 + map % 2, map == 15 ? std::vector<int>{0} : std::vector<int>{});
    write_corpus_binder(c, dir, 20, 320, {}, dcx::Variant::Zstd);
    const auto size = [&](std::size_t i) { return std::filesystem::file_size(c.paths[i]); };
    ASSERT_GT(size(0) + size(1), size(10));  // m11 does not fit beside m10
    ASSERT_LE(size(0) + size(2) + size(3), size(10));  // m12 and m13 do
    expect_the_one_thread_report_with_any_threads(c);
    // Whether the second worker asks for work while m10 is being decompressed (about a
    // millisecond) is the machine's timing: runs go on, up to 50, until one opens ahead.
    std::size_t ahead = 0;
    for (int run = 0; run < 50 && (run < 3 || ahead == 0); ++run) {
        std::vector<std::size_t> done;
        const audit::AuditRun two = audit::audit_files(c.paths, {2, 2, {}}, [&](const audit::AuditProgress& p) {
            done.push_back(p.files_done);
        });
        std::vector<std::size_t> expected(c.paths.size());
        std::iota(expected.begin(), expected.end(), std::size_t(1));
        EXPECT_EQ(done, expected);
        EXPECT_LE(two.binders_opened_ahead, 8u);  // only the small binders may go ahead
        ahead = std::max(ahead, two.binders_opened_ahead);
    }
    EXPECT_GE(ahead, 1u);
    EXPECT_EQ(audit::audit_files(c.paths, {1, 2, {}}).binders_opened_ahead, 0u);
    std::filesystem::remove_all(dir);
}

TEST(AuditFiles, TagfilesAfterARuleHasItsExamplesOnlyCountIt) {
    // Once the merged results hold a rule's examples, later tagfiles count that rule's
    // exceptions without naming them (ExamplesTaken). The reference: each tagfile audited on
    // its own, each with its first 5 examples (audit_file), merged in order. The first tagfiles
    // have none or one break (two exceptions), fewer than the 5 examples kept, so a rule
    // marked full too early would lose examples.
    const auto dir = test::scratch_dir("audit-files-taken");
    std::vector<std::string> paths;
    for (int map = 10; map < 16; ++map) {
        std::vector<bnd4::NewEntry> entries;
        for (int i = 0; i < 3; ++i) {
            const std::string name = fmt::format("n{:02}_00_00_00_{:06}.hkx", map, (i + 1) * 100);
            entries.push_back({bnd4::er_navmesh_entry_name(fmt::format("{:02}_00_00_00", map), name), (i + 1) * 100,
                               fromsoft::write_nav_tagfile(model_with_broken_reverses(4 + map % 3 + i, (map - 10) * 3 + i))});
        }
        const auto file = dir / fmt::format("m{:02}_00_00_00.nvmhktbnd", map);
        write_file_atomic(file, bnd4::write(bnd4::build_navmesh_binder(std::move(entries))));
        paths.push_back(file.string());
    }
    std::vector<audit::TagfileAudit> alone;
    for (const auto& p : paths)
        for (auto& r : audit::audit_file(p, 5)) alone.push_back(std::move(r));
    const audit::AuditReport reference = audit::merge_audit(alone, paths, 5);
    const std::size_t r37 = 36;
    ASSERT_STREQ(audit::all_rules()[r37].id, "R37");
    ASSERT_EQ(reference.rules[r37].examples.size(), 5u);
    EXPECT_EQ(reference.rules[r37].examples[2].member, alone[2].rules[r37].examples[0].member);  // from the third tagfile
    EXPECT_GT(reference.rules[r37].by_game[static_cast<int>(audit::Game::EldenRing)].exceptions, 100);
    const std::string json = audit::audit_json(reference).dump();
    for (unsigned threads : {1u, 2u, 3u})
        EXPECT_EQ(audit::audit_json(audit::audit_files(paths, {threads, 5, {}}).report).dump(), json) << threads << " threads";

    // On one tagfile: a rule marked full keeps no example and the same counts.
    const fromsoft::NavTagfile model = model_with_broken_reverses(5, 4);
    audit::AuditTagfile f;
    f.model = model;
    audit::ExamplesTaken taken(audit::all_rules().size());
    const audit::TagfileAudit named = audit::audit_tagfile(f, 2, &taken);
    audit::AuditMerger merger(2);
    merger.add(named, &taken);
    for (std::size_t i = 0; i < named.rules.size(); ++i) EXPECT_EQ(taken.full(i), named.rules[i].examples.size() >= 2) << i;
    const audit::TagfileAudit counted = audit::audit_tagfile(f, 2, &taken);
    EXPECT_TRUE(counted.rules[r37].examples.empty());
    for (std::size_t i = 0; i < named.rules.size(); ++i) {
        for (std::size_t g = 0; g < 3; ++g) {
            EXPECT_EQ(counted.rules[i].by_game[g].checked, named.rules[i].by_game[g].checked) << i;
            EXPECT_EQ(counted.rules[i].by_game[g].exceptions, named.rules[i].by_game[g].exceptions) << i;
        }
        if (!taken.full(i)) {
            EXPECT_EQ(counted.rules[i].examples.size(), named.rules[i].examples.size()) << i;
        }
    }
    std::filesystem::remove_all(dir);
}

TEST(AuditFiles, ProgressThatThrowsEndsTheRunWithoutAHang) {
    const auto dir = test::scratch_dir("audit-files-progress");
    // File 0 is a FIFO: its worker blocks opening it until the test writes, while the other
    // worker runs ahead through the small files until 32 results wait for file 0, then sleeps
    // until file 0 is merged. The callback throws on the first call after the FIFO is released
    // (file 0's own): its worker must still wake the sleeper, or parallel_for never joins.
    const auto fifo = dir / "slow.hkx";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::vector<std::string> paths{fifo.string()};
    for (int i = 0; i < 40; ++i) {
        const auto p = dir / fmt::format("f{}.hkx", i);
        write_file_atomic(p, std::string_view("not a tagfile"));
        paths.push_back(p.string());
    }
    std::atomic<int> calls{0};
    std::atomic<bool> released{false};
    std::promise<std::string> outcome;
    std::thread audit([&] {
        try {
            audit::audit_files(paths, {2, 5, {}}, [&](const audit::AuditProgress&) {
                ++calls;
                if (released) throw std::runtime_error("cancelled");
            });
            outcome.set_value("no exception");
        } catch (const std::exception& e) {
            outcome.set_value(e.what());
        }
    });
    // Wait until the running-ahead worker has stopped reporting (it waits for file 0).
    int last = -1;
    for (int stable = 0; stable < 3;) {
        std::this_thread::sleep_for(100ms);
        stable = calls == last ? stable + 1 : 0;
        last = calls;
    }
    EXPECT_GE(last, 30);
    released = true;
    // Opening the FIFO for writing unblocks file 0's worker, which reads an empty file. Nothing
    // is written: that worker may already have closed its end (a write would raise SIGPIPE).
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ::close(fd);
    EXPECT_EQ(outcome_of(audit, outcome), "cancelled");
}

TEST(AuditFiles, BadTagfileInTheMiddleOfASharedBinderIsNamedInOrder) {
    // One binder only, so every worker takes tagfiles of it: the two cut short are R02's
    // exceptions, named by entry in binder order whichever worker read them first.
    const auto dir = test::scratch_dir("audit-files-shared-bad");
    std::vector<bnd4::NewEntry> entries;
    std::int64_t faces = 0;
    for (int i = 0; i < 60; ++i) {
        const bool cut = i == 20 || i == 37;
        entries.push_back(corpus_entry(40, i, cut));
        if (!cut) faces += corpus_options(i).width * corpus_options(i).height;
    }
    const auto file = dir / "m40_00_00_00.nvmhktbnd";
    write_file_atomic(file, bnd4::write(bnd4::build_navmesh_binder(std::move(entries))));
    const auto rules = audit::all_rules();
    const auto r02 = static_cast<std::size_t>(
        std::find_if(rules.begin(), rules.end(), [](const audit::RuleDef& r) { return std::string(r.id) == "R02"; }) - rules.begin());
    std::string one;
    for (unsigned threads : {1u, 2u, 4u}) {
        SCOPED_TRACE(threads);
        for (int run = 0; run < (threads == 1 ? 1 : 3); ++run) {
            const audit::AuditRun r = audit::audit_files({file.string()}, {threads, 2, {}});
            const audit::RuleResult& t = r.report.rules[r02];
            EXPECT_EQ(t.by_game[0].exceptions + t.by_game[1].exceptions + t.by_game[2].exceptions, 2);
            ASSERT_EQ(t.examples.size(), 2u);
            EXPECT_EQ(t.examples[0].member_index, 20);
            EXPECT_EQ(t.examples[1].member_index, 37);
            EXPECT_EQ(r.report.summary.elden_ring.faces, faces);
            const std::string json = audit::audit_json(r.report).dump();
            if (one.empty()) one = json;
            EXPECT_EQ(json, one);
        }
    }
    std::filesystem::remove_all(dir);
}

TEST(AuditFiles, AFileThatIsNoTagfileIsNamedWithItsOffsetInThePayload) {
    // An event script given by name: a compressed file of another kind is one unreadable
    // tagfile, and R02's message says that its offset counts from the DCX payload (a plain
    // file's from the file itself).
    const auto dir = test::scratch_dir("audit-files-not-a-tagfile");
    const std::vector<std::uint8_t> evd = {'E', 'V', 'D', 0, 0, 0, 0xCD, 0, 0x65, 0, 0, 0, 0, 0, 0, 0};
    write_file_atomic(dir / "m10.emevd.dcx", dcx::compress(evd, dcx::Variant::Zstd));
    write_file_atomic(dir / "m10.emevd", evd);
    const auto rules = audit::all_rules();
    const auto r02 = static_cast<std::size_t>(
        std::find_if(rules.begin(), rules.end(), [](const audit::RuleDef& r) { return std::string(r.id) == "R02"; }) - rules.begin());
    const std::string not_tagfile = "TAG0: not a Havok tagfile: bytes 4-7 are \"????\" (00 00 CD 00), where a tagfile has the tag TAG0";
    for (const auto& [name, expected] : {std::pair{"m10.emevd.dcx", "offset 0x4: DCX payload: " + not_tagfile},
                                         std::pair{"m10.emevd", "offset 0x4: " + not_tagfile}}) {
        const audit::AuditRun r = audit::audit_files({(dir / name).string()}, {1, 5, {}});
        EXPECT_EQ(r.report.summary.unreadable, 1) << name;
        ASSERT_EQ(r.report.rules[r02].examples.size(), 1u) << name;
        EXPECT_EQ(r.report.rules[r02].examples[0].message, expected);
    }
    std::filesystem::remove_all(dir);
}

TEST(AuditFiles, CancelWhileABinderIsSharedEndsTheRun) {
    // The callback throws on its n-th call, some while workers hold tagfiles of the huge binder
    // or wait for room to open the next one: the run ends with the exception, never a hang.
    const auto dir = test::scratch_dir("audit-files-cancel");
    const Corpus c = one_huge_binder_among_small_ones(dir, 200);
    for (unsigned threads : {2u, 4u}) {
        for (int n : {1, 12, 13, 20}) {
            SCOPED_TRACE(fmt::format("{} threads, cancelled at call {}", threads, n));
            std::promise<std::string> outcome;
            std::thread audit([&] {
                int calls = 0;
                try {
                    audit::audit_files(c.paths, {threads, 5, {}}, [&](const audit::AuditProgress& p) {
                        EXPECT_LE(p.files_done, p.files_total);
                        if (++calls == n) throw std::runtime_error("cancelled");
                    });
                    outcome.set_value("no exception");
                } catch (const std::exception& e) {
                    outcome.set_value(e.what());
                }
            });
            EXPECT_EQ(outcome_of(audit, outcome), "cancelled");
        }
    }
    std::filesystem::remove_all(dir);
}
