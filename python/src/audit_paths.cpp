#include "audit_paths.h"

#include "audit/audit_files.h"
#include "audit/audit_report.h"
#include "io/json_text.h"

namespace navlab::python {

std::string audit_paths_json(const std::vector<std::filesystem::path>& paths, unsigned threads, std::size_t examples,
                             const fromsoft::SourceOptions& source) {
    std::vector<std::string> inputs;
    for (const auto& p : paths) inputs.push_back(p.string());
    // The same library call as `navlab audit`, so the dict equals the command's --json file.
    const audit::AuditRun run = audit::audit_files(inputs, {threads, examples, source});
    return json_text(audit::audit_json(run.report), 2) + "\n";
}

}  // namespace navlab::python
