// Refusing to overwrite a command's input in place unless asked (--force).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace navlab::cli {

/// Throws CLI::ValidationError (exit 2, usage) when `output` names the same file as `input`
/// (same path, or another name for the same inode) and `force` is false. The atomic writer
/// would replace the input safely, but a typo must not cost the user their only copy.
/// @param input  the command's input file (may not exist: then nothing is checked).
/// @param output the file the command will write.
/// @param force  the command's --force flag.
void refuse_overwriting_input(const std::string& input, const std::string& output, bool force);

/// A CLI11 check for a report option (`--json FILE`): refuses an existing, non-empty FILE whose
/// first non-blank byte is not `{` or `[`, so a report never replaces data. The case it guards:
/// `navlab audit --json a.nvmhktbnd.dcx b.nvmhktbnd.dcx` takes the first binder as the report
/// file and would overwrite it with JSON. A missing, empty or JSON file passes, and so does
/// anything that is not a regular file (a FIFO or terminal is not read: it could block).
CLI::Validator json_report_file();

/// Throws CLI::ValidationError (exit 2) when the folder `path` would be written into does not
/// exist or is not writable: for a command that writes other outputs before this one (`build`'s
/// binder before its --json report, `synth`'s corpus), so that it fails before its work rather
/// than after. Call it once the folders the command makes itself exist. Nothing is checked for
/// an empty `path`.
void require_output_folder(const std::string& option, const std::string& path);

/// Throws CLI::ValidationError (exit 2) when `output` names the same file as one of `inputs`
/// (same path, or another name for the same inode): for an output of another kind than the
/// inputs (a binder built from OBJ, a page of a binder, a report), which no --force can make
/// right. Nothing is checked when `output` is empty; inputs that do not exist are skipped.
/// @param option the output's option or argument name, for the message ("-o", "out").
/// @param what   the output in words ("the binder", "the report").
void refuse_output_over_inputs(const std::string& option, const std::string& what, const std::string& output,
                               const std::vector<std::string>& inputs);

/// refuse_output_over_inputs for a `--json FILE` report: an input that is itself JSON (a glTF
/// scene, BUILD.json) passes json_report_file() but must not be replaced by the report either.
void refuse_report_over_inputs(const std::string& report, const std::vector<std::string>& inputs);

}  // namespace navlab::cli
