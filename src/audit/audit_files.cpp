#include "audit/audit_files.h"

#include <mutex>

#include "audit/audit_load.h"
#include "formats/fromsoft/nav_source.h"
#include "io/error.h"
#include "io/parallel.h"

namespace navlab::audit {

std::vector<TagfileAudit> audit_file(const std::filesystem::path& file, std::size_t max_examples,
                                     std::uint64_t* tagfile_bytes) {
    std::vector<TagfileAudit> out;
    const std::string path = file.string();
    try {
        const fromsoft::NavFile nav = fromsoft::NavFile::open(file);
        for (const fromsoft::NavEntry& e : nav.entries()) {
            const AuditTagfile t = load_audit_tagfile(e.bytes, e.inBinder ? path : std::string(), e.name,
                                                      e.inBinder ? std::optional<std::size_t>(e.index) : std::nullopt);
            if (tagfile_bytes) *tagfile_bytes += t.byte_size;
            out.push_back(audit_tagfile(t, max_examples));
        }
    } catch (const Error& err) {
        // The file as a whole is one unreadable tagfile: a binder (R96 too) unless it is a .hkx.
        AuditTagfile t;
        const bool binder = !fromsoft::is_nav_file_name(file) || file.extension() != ".hkx";
        t.binder = binder ? path : std::string();
        t.entry = binder ? std::string() : file.filename().string();
        t.starts_with_tag0 = false;
        t.read_error = err.what();
        out.push_back(audit_tagfile(t, max_examples));
    }
    return out;
}

AuditRun audit_files(const std::vector<std::string>& paths, const AuditFilesOptions& options,
                     const AuditProgressFn& progress) {
    AuditRun run;
    for (const auto& p : paths) {
        auto found = fromsoft::find_nav_files(p);
        if (found.empty()) throw Error("no navmesh binders or tagfiles found under " + p);
        run.files.insert(run.files.end(), found.begin(), found.end());
    }
    AuditProgress done;
    done.files_total = run.files.size();
    std::vector<std::uint64_t> sizes(run.files.size());
    for (std::size_t i = 0; i < run.files.size(); ++i) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(run.files[i], ec);
        sizes[i] = ec ? 0 : size;
        done.bytes_total += sizes[i];
    }
    // Each file's results are merged as soon as every file before it is merged, then freed:
    // memory holds the files in flight, not the whole corpus's tallies.
    std::vector<std::vector<TagfileAudit>> per_file(run.files.size());
    std::vector<bool> finished(run.files.size(), false);
    std::size_t next_to_merge = 0;
    AuditMerger merger(options.max_examples);
    std::mutex mutex;
    parallel_for(run.files.size(), options.threads, [&](std::size_t i) {
        std::uint64_t bytes = 0;
        std::vector<TagfileAudit> results = audit_file(run.files[i], options.max_examples, &bytes);
        std::lock_guard lock(mutex);
        per_file[i] = std::move(results);
        finished[i] = true;
        run.tagfile_bytes += bytes;
        for (; next_to_merge < finished.size() && finished[next_to_merge]; ++next_to_merge) {
            for (const TagfileAudit& r : per_file[next_to_merge]) merger.add(r);
            std::vector<TagfileAudit>().swap(per_file[next_to_merge]);
        }
        ++done.files_done;
        done.bytes_done += sizes[i];
        if (progress) progress(done);
    });
    run.report = merger.finish(paths);
    return run;
}

}  // namespace navlab::audit
