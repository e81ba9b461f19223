// The audit of a list of paths as its JSON report text (the `navlab audit --json` bytes).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "formats/fromsoft/binder_source.h"

namespace navlab::python {

/// @param paths    binders, tagfiles or folders, as `navlab audit` takes them.
/// @param threads  0 = all cores.
/// @param examples first exceptions kept per rule.
/// @param source   `--map` selectors and, for game installs, `--game/--keys/--cache`.
std::string audit_paths_json(const std::vector<std::filesystem::path>& paths, unsigned threads, std::size_t examples,
                             const fromsoft::SourceOptions& source);

}  // namespace navlab::python
