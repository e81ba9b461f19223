// Refusing to overwrite a command's input in place unless asked (--force).
#pragma once

#include <string>

namespace navlab::cli {

/// Throws CLI::ValidationError (exit 2, usage) when `output` names the same file as `input`
/// (same path, or another name for the same inode) and `force` is false. The atomic writer
/// would replace the input safely, but a typo must not cost the user their only copy.
/// @param input  the command's input file (may not exist: then nothing is checked).
/// @param output the file the command will write.
/// @param force  the command's --force flag.
void refuse_overwriting_input(const std::string& input, const std::string& output, bool force);


}  // namespace navlab::cli
