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
#include "audit/audit.h"
#include "audit/audit_load.h"

namespace navlab::synth::checks {

/// Figures of one audit run.
struct CorpusAudit {
    audit::AuditReport report;
    std::uint64_t tagfileBytes = 0;  ///< decompressed tagfile bytes audited
};

/// Audits every tagfile of `files` (binders), `threads` binders at a time. Each binder's
/// models are dropped once audited, so memory stays near the largest binders in flight; the
/// per-tagfile tallies are merged in input order by merge_audit.
inline CorpusAudit audit_binders(const std::vector<std::filesystem::path>& files, unsigned threads,
                                 std::size_t maxExamples = 5) {
    std::vector<std::vector<audit::TagfileAudit>> perBinder(files.size());
    std::vector<std::uint64_t> bytes(files.size(), 0);
    parallel_for(files.size(), threads, [&](std::size_t i) {
        const dcx::Decoded d = dcx::decompress(read_file(files[i]));
        const bnd4::Binder binder = bnd4::read(d.payload);
        for (std::size_t e = 0; e < binder.entries.size(); ++e) {
            const audit::AuditTagfile input =
                audit::load_audit_tagfile(binder.entries[e].data(), files[i].string(), binder.entries[e].name, e);
            perBinder[i].push_back(audit::audit_tagfile(input, maxExamples));
            bytes[i] += input.byte_size;
        }
    });
    CorpusAudit out;
    std::vector<audit::TagfileAudit> results;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < files.size(); ++i) {
        for (auto& r : perBinder[i]) results.push_back(std::move(r));
        names.push_back(files[i].string());
        out.tagfileBytes += bytes[i];
    }
    out.report = audit::merge_audit(results, names, maxExamples);
    return out;
}

}  // namespace navlab::synth::checks
