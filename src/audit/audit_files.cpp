#include "audit/audit_files.h"

#include <mutex>

#include "audit/audit_load.h"
#include "formats/fromsoft/nav_source.h"
#include "io/error.h"
#include "io/parallel.h"

namespace navlab::audit {
namespace {

/// Audits the tagfiles `open()` yields; `name` is the binder's (or loose tagfile's) name.
template <class Open>
std::vector<TagfileAudit> audit_nav(const std::string& name, Open&& open, std::size_t max_examples,
                                    std::uint64_t* tagfile_bytes) {
    std::vector<TagfileAudit> out;
    try {
        const fromsoft::NavFile nav = open();
        for (const fromsoft::NavEntry& e : nav.entries()) {
            const AuditTagfile t = load_audit_tagfile(e.bytes, e.in_binder ? name : std::string(), e.name,
                                                      e.in_binder ? std::optional<std::size_t>(e.index) : std::nullopt);
            if (tagfile_bytes) *tagfile_bytes += t.byte_size;
            out.push_back(audit_tagfile(t, max_examples));
        }
    } catch (const Error& err) {
        // The file as a whole is one unreadable tagfile: a binder (R96 too) unless it is a .hkx.
        const std::filesystem::path file(name);
        AuditTagfile t;
        const bool binder = !fromsoft::is_nav_file_name(file) || file.extension() != ".hkx";
        t.binder = binder ? name : std::string();
        t.entry = binder ? std::string() : file.filename().string();
        t.starts_with_tag0 = false;
        t.read_error = err.what();
        out.push_back(audit_tagfile(t, max_examples));
    }
    return out;
}

/// One binder of one source, in input order.
struct Unit {
    const fromsoft::BinderSource* source = nullptr;
    std::size_t index = 0;
    const fromsoft::BinderRef& ref() const { return source->binders()[index]; }
};

AuditRun audit_units(const std::vector<Unit>& units, const std::vector<std::string>& inputs,
                     const AuditFilesOptions& options, const AuditProgressFn& progress) {
    AuditRun run;
    AuditProgress done;
    done.files_total = units.size();
    for (const Unit& u : units) {
        run.files.push_back(u.ref().name);
        done.bytes_total += u.ref().size;
    }
    // Each file's results are merged as soon as every file before it is merged, then freed:
    // memory holds the files in flight, not the whole corpus's tallies.
    std::vector<std::vector<TagfileAudit>> per_file(units.size());
    std::vector<bool> finished(units.size(), false);
    std::size_t next_to_merge = 0;
    AuditMerger merger(options.max_examples);
    std::mutex mutex;
    parallel_for(units.size(), options.threads, [&](std::size_t i) {
        std::uint64_t bytes = 0;
        const Unit& u = units[i];
        std::vector<TagfileAudit> results =
            audit_nav(u.ref().name, [&] { return u.source->open_nav(u.index); }, options.max_examples, &bytes);
        std::lock_guard lock(mutex);
        per_file[i] = std::move(results);
        finished[i] = true;
        run.tagfile_bytes += bytes;
        for (; next_to_merge < finished.size() && finished[next_to_merge]; ++next_to_merge) {
            for (const TagfileAudit& r : per_file[next_to_merge]) merger.add(r);
            std::vector<TagfileAudit>().swap(per_file[next_to_merge]);
        }
        ++done.files_done;
        done.bytes_done += u.ref().size;
        if (progress) progress(done);
    });
    run.report = merger.finish(inputs);
    return run;
}

std::vector<Unit> units_of(const fromsoft::BinderSource& source) {
    std::vector<Unit> units;
    for (std::size_t i = 0; i < source.binders().size(); ++i) units.push_back({&source, i});
    return units;
}

}  // namespace

std::vector<TagfileAudit> audit_file(const std::filesystem::path& file, std::size_t max_examples,
                                     std::uint64_t* tagfile_bytes) {
    return audit_nav(file.string(), [&] { return fromsoft::NavFile::open(file); }, max_examples, tagfile_bytes);
}

AuditRun audit_files(const std::vector<std::string>& paths, const AuditFilesOptions& options,
                     const AuditProgressFn& progress) {
    // With several paths, each --map must be in one of them (not in all): each source keeps
    // the selectors it holds.
    fromsoft::SourceOptions open = options.source;
    open.maps.clear();
    std::vector<fromsoft::BinderSource> sources;
    for (const auto& p : paths) sources.push_back(fromsoft::BinderSource::open(p, open));
    std::vector<bool> keep(sources.size(), options.source.maps.empty());
    for (const std::string& map : options.source.maps) {
        bool found = false;
        for (std::size_t s = 0; s < sources.size(); ++s)
            if (sources[s].holds(map)) keep[s] = found = true;
        if (!found) sources.front().select({map});  // throws "map X is not in PATH (...)"
    }
    std::vector<Unit> units;
    for (std::size_t s = 0; s < sources.size(); ++s) {
        if (!keep[s]) continue;
        if (!options.source.maps.empty()) {
            std::vector<std::string> held;
            for (const std::string& map : options.source.maps)
                if (sources[s].holds(map)) held.push_back(map);
            sources[s].select(held);
        }
        for (const Unit& u : units_of(sources[s])) units.push_back(u);
    }
    return audit_units(units, paths, options, progress);
}

AuditRun audit_source(const fromsoft::BinderSource& source, const AuditFilesOptions& options,
                      const AuditProgressFn& progress) {
    return audit_units(units_of(source), {source.origin()}, options, progress);
}

}  // namespace navlab::audit
