// The audit of a list of paths as its JSON report text (the `navlab audit --json` bytes).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace navlab::python {

/// @param paths    binders, tagfiles or folders, as `navlab audit` takes them.
/// @param threads  0 = all cores.
/// @param examples first exceptions kept per rule.
std::string audit_paths_json(const std::vector<std::filesystem::path>& paths, unsigned threads, std::size_t examples);

}  // namespace navlab::python
