// The help formatter of the navlab command: `navlab --help-all` prints every command's whole
// help, its footer (inputs, outputs, an example) and its own subcommands included. CLI11's
// expanded form (2.1, Debian 12's) leaves out footers and lists nested subcommands by name
// only, so details such as `path`'s or `dcx compress`'s showed only under their own `--help`.
// It overrides make_help, whose signature CLI11 2.x keeps (make_expanded's changed in later releases).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace navlab::cli {

class HelpFormatter : public CLI::Formatter {
public:
    std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
        if (mode != CLI::AppFormatMode::Sub) return CLI::Formatter::make_help(app, std::move(name), mode);
        return expanded(app);
    }

private:
    /// A command inside `--help-all`: its name, then (indented) its description, positionals,
    /// options, subcommands in full (each through make_help again) and footer.
    std::string expanded(const CLI::App* sub) const {
        std::string body = make_description(sub) + make_positionals(sub) + make_groups(sub, CLI::AppFormatMode::Sub) +
                           make_subcommands(sub, CLI::AppFormatMode::All);
        if (!sub->get_footer().empty()) body += "\n" + sub->get_footer() + "\n";
        // Blank lines dropped and every line under the name indented, as CLI11's own form does.
        body = CLI::detail::find_and_replace(body, "\n\n", "\n");
        if (!body.empty() && body.back() == '\n') body.pop_back();
        return sub->get_display_name(true) + "\n  " + CLI::detail::find_and_replace(body, "\n", "\n  ") + "\n";
    }
};

}  // namespace navlab::cli
