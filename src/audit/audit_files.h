// The audit of files on disk or game installs in one call: find the navmesh binders and
// tagfiles under the paths (fromsoft::BinderSource: files, folders, installs' archives), open
// each (DCX, BND4), read and audit its tagfiles, and merge in input order. What `navlab audit`,
// the synth tests, bench_corpus and bench_archive share.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "audit/audit.h"
#include "formats/fromsoft/binder_source.h"

namespace navlab::audit {

struct AuditFilesOptions {
    unsigned threads = 0;           ///< workers (tagfiles audited at once); 0 = one per core
    std::size_t max_examples = 5;   ///< first exceptions kept per rule
    /// --map (binders kept; with several paths each map must be in one of them), and
    /// --game/--keys/--cache for paths that are game installs.
    fromsoft::SourceOptions source;
};

/// Where a run is, for a progress line: called once per file, after its last tagfile's audit,
/// from any worker thread (calls are serialised). A callback that throws ends the run with
/// its exception (the workers stop after the tagfile in hand).
struct AuditProgress {
    std::size_t files_done = 0, files_total = 0;
    std::uint64_t bytes_done = 0, bytes_total = 0;  ///< binder sizes on disk (or in the archive)
};
using AuditProgressFn = std::function<void(const AuditProgress&)>;

struct AuditRun {
    AuditReport report;
    /// The binders and tagfiles audited, in order (BinderRef::name: an install's binders are
    /// "data2:/map/...").
    std::vector<std::filesystem::path> files;
    std::uint64_t tagfile_bytes = 0;           ///< decompressed tagfile bytes read
    /// Seconds the workers spent waiting for work, summed over workers (wall time: the binder
    /// ahead not yet opened, the payload budget, the merge's runs, and from a worker's exit to
    /// the run's end). Its share of threads × the run's wall time says how well the run was
    /// shared, even on a machine whose cores are also taken by others.
    double idle_seconds = 0;
    /// Nested loops the workers posted for idle workers to help with (the restart blocks of
    /// a DCX_KRAK binder one worker opens alone), and the items of them that other workers
    /// ran: what the help was, whatever the machine's timing made of it.
    std::size_t decode_loops_shared = 0, decode_items_helped = 0;
    /// Binders opened before an earlier one: it did not fit the payload budget while another
    /// worker decompressed the binder before it (the report stays in input order).
    std::size_t binders_opened_ahead = 0;
    /// CPU seconds spent opening binders (reading, decompressing, the BND4 index) and letting
    /// their payloads go, each timed on its worker's own clock. With one thread the run's CPU time minus this is the
    /// audit's own work, both measured in the same pass (bench_corpus prints it beside the
    /// difference from a separate decompress pass, which moves with the machine between
    /// passes). With more threads, the blocks of a DCX_KRAK decode that idle workers ran for
    /// the opener (decode_items_helped) count on their clocks, not here.
    double open_cpu_seconds = 0;
};

/// Audits every navmesh file under `paths` (binders, .hkx tagfiles, directories searched
/// recursively by fromsoft::find_nav_files, game installs: fromsoft::BinderSource). The workers
/// share binders: a binder is opened (decompressed) once, by one worker, and its tagfiles are
/// then read and audited by whichever worker is free; its decompressed bytes go as soon as its
/// last tagfile's model is read. A worker opens the next binder only when every tagfile of the
/// opened ones is taken and the binders whose bytes are held, plus the new one, stay within the
/// largest binder's size on disk (a binder alone always opens); while another worker
/// decompresses a binder the next one does not fit beside, it opens a later one that fits, at
/// most 8 places ahead. With large blocks mapped on
/// their own (map_large_blocks_on_their_own(), which the navlab command calls at start; the
/// library leaves the allocator alone) a freed binder leaves memory at once, and the audit's
/// own peak stays near 1.4× the largest decompressed binder with one thread and 1.8× with two
/// (docs/audit.md).
/// A file that does not open is one unreadable tagfile (R02).
/// The report is identical for any thread count.
/// @param paths    as given by the user; the report's `inputs`.
/// @param progress optional; called after each file.
/// @throws navlab::Error when a path does not exist or no navmesh file is found under a
///         directory ("no navmesh binders or tagfiles found under DIR"), when an install does
///         not open, or when a --map selector matches nothing.
AuditRun audit_files(const std::vector<std::string>& paths, const AuditFilesOptions& options,
                     const AuditProgressFn& progress = {});

/// audit_files over a source already opened (bench_archive times the opening apart); the
/// report's `inputs` is the source's origin. options.source is not used.
AuditRun audit_source(const fromsoft::BinderSource& source, const AuditFilesOptions& options,
                      const AuditProgressFn& progress = {});

/// Audits one binder or loose tagfile: every navmesh tagfile in it, in binder order.
/// @param file a binder (.nvmhktbnd.dcx, .nvmhktbnd) or a tagfile.
/// @param tagfile_bytes increased by the decompressed tagfile bytes read.
std::vector<TagfileAudit> audit_file(const std::filesystem::path& file, std::size_t max_examples,
                                     std::uint64_t* tagfile_bytes = nullptr);

}  // namespace navlab::audit
