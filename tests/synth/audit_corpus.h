// Auditing written binders with the nav audit engine, for the synth tests and the corpus
// benchmark: each binder is decompressed and read in turn (so memory stays near one binder),
// its tagfiles audited, and the per-tagfile results merged in input order.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "codec/dcx.h"
#include "container/bnd4.h"
#include "io/file.h"
#include "io/parallel.h"
#include "nav/audit.h"
#include "nav/audit_load.h"

namespace navlab::synth::checks {

/// Figures of one audit run.
struct CorpusAudit {
    nav::AuditReport report;
    std::uint64_t tagfileBytes = 0;  ///< decompressed tagfile bytes audited
};

inline void add_summary(nav::GameSummary& into, const nav::GameSummary& s) {
    into.binders += s.binders, into.tagfiles += s.tagfiles, into.faces += s.faces, into.edges += s.edges;
    into.user_edges += s.user_edges, into.vertices += s.vertices, into.empty_meshes += s.empty_meshes;
    into.cost_graphs += s.cost_graphs, into.mediators += s.mediators, into.tree_nodes += s.tree_nodes;
    into.setup_arrays += s.setup_arrays, into.setups += s.setups;
    into.sdk.insert(s.sdk.begin(), s.sdk.end());
}

/// Audits every tagfile of `files` (binders), `threads` binders at a time. Each binder is
/// merged on its own and its models dropped, so memory stays near the largest binders in
/// flight; the binders' tallies are then merged in input order by merge_audit itself.
inline CorpusAudit audit_binders(const std::vector<std::filesystem::path>& files, unsigned threads,
                                 std::size_t maxExamples = 5) {
    std::vector<nav::AuditReport> perBinder(files.size());
    std::vector<std::uint64_t> bytes(files.size(), 0);
    parallel_for(files.size(), threads, [&](std::size_t i) {
        const dcx::Decoded d = dcx::decompress(read_file(files[i]));
        const bnd4::Binder binder = bnd4::read(d.payload);
        std::vector<nav::AuditTagfile> inputs;
        std::vector<nav::TagfileAudit> results;
        for (std::size_t e = 0; e < binder.entries.size(); ++e) {
            inputs.push_back(nav::load_audit_tagfile(binder.entries[e].data(), files[i].string(), binder.entries[e].name, e));
            results.push_back(nav::audit_tagfile(inputs.back(), maxExamples));
            bytes[i] += inputs.back().byte_size;
        }
        perBinder[i] = nav::merge_audit(inputs, results, {files[i].string()}, maxExamples);
    });
    // Second level: each binder's tallies as one "tagfile" result (no model, so the summary
    // rows are added here from the binders' summaries).
    CorpusAudit out;
    std::vector<nav::AuditTagfile> stand_ins(files.size());
    std::vector<nav::TagfileAudit> tallies(files.size());
    std::vector<std::string> names;
    nav::Summary summary;
    for (std::size_t i = 0; i < files.size(); ++i) {
        tallies[i].rules = std::move(perBinder[i].rules);
        tallies[i].supplementary = std::move(perBinder[i].supplementary);
        add_summary(summary.sekiro, perBinder[i].summary.sekiro);
        add_summary(summary.elden_ring, perBinder[i].summary.elden_ring);
        summary.other_tagfiles += perBinder[i].summary.other_tagfiles;
        summary.unreadable += perBinder[i].summary.unreadable;
        names.push_back(files[i].string());
        out.tagfileBytes += bytes[i];
    }
    out.report = nav::merge_audit(stand_ins, tallies, names, maxExamples);
    out.report.summary = summary;
    return out;
}

}  // namespace navlab::synth::checks
