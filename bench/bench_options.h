// Command-line options of the benchmarks, declared once per bench: `--help` prints them and
// exits 0; an unknown option, a missing value or a value that does not parse names itself and
// exits 2. (Benches used to run for minutes on a misspelt option, or end in an uncaught throw
// on a bad number.) A value is given as `--name V` or `--name=V`.
//
//   bench::Options opts("usage: bench_x [--rounds N]\nWhat bench_x measures.");
//   opts.value("--rounds", "N", "alternating rounds (default 3)", rounds);
//   opts.parse(argc, argv);
#pragma once

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

namespace navlab::bench {

class Options {
public:
    /// @param usage the first lines of --help: the command line and what the bench measures.
    explicit Options(std::string usage) : usage_(std::move(usage)) {}

    /// A switch without a value; `set` runs when it is given.
    Options& flag(std::string name, std::string help, std::function<void()> set) {
        options_.push_back({std::move(name), "", std::move(help), [set = std::move(set)](std::string_view) {
                                set();
                                return true;
                            }});
        return *this;
    }
    /// A switch that sets `target` to `value`.
    Options& flag(std::string name, std::string help, bool& target, bool value = true) {
        return flag(std::move(name), std::move(help), [&target, value] { target = value; });
    }
    /// An option with a value handled by `set`, which returns false for a bad value.
    Options& value(std::string name, std::string meta, std::string help, std::function<bool(std::string_view)> set) {
        options_.push_back({std::move(name), std::move(meta), std::move(help), std::move(set)});
        return *this;
    }
    /// An option whose value is parsed whole as T (an integer, a floating-point number or a string).
    template <class T>
    Options& value(std::string name, std::string meta, std::string help, T& target) {
        return value(std::move(name), std::move(meta), std::move(help), [&target](std::string_view v) {
            if constexpr (std::is_same_v<T, std::string>) {
                target = std::string(v);
                return true;
            } else {
                return parse_whole(v, target);
            }
        });
    }
    /// A number parsed whole that must be at least `least` (a count of runs, say).
    template <class T>
    Options& value(std::string name, std::string meta, std::string help, T& target, T least) {
        return value(std::move(name), std::move(meta), std::move(help),
                     [&target, least](std::string_view v) { return parse_whole(v, target) && target >= least; });
    }
    /// A required argument without a name (in the order declared).
    Options& positional(std::string meta, std::string help, std::string& target) {
        positional_.push_back({std::move(meta), "", std::move(help), [&target](std::string_view v) {
                                   target = std::string(v);
                                   return true;
                               }});
        return *this;
    }
    /// Arguments starting with `prefix` belong to someone else (Google Benchmark's
    /// `--benchmark_...`): parse() hands them back instead of refusing them.
    Options& pass_through(std::string prefix, std::string help) {
        pass_prefix_ = std::move(prefix), pass_help_ = std::move(help);
        return *this;
    }

    /// Reads argv[1..]. `--help` or `-h` prints the usage and every option and exits 0; an
    /// error prints itself and the usage on stderr and exits 2.
    /// @return argv[0] and the pass-through arguments, for benchmark::Initialize.
    std::vector<char*> parse(int argc, char** argv) {
        std::vector<char*> passed{argv[0]};
        prog_ = argv[0];
        prog_ = prog_.substr(prog_.find_last_of('/') + 1);
        std::size_t positional = 0;
        for (int i = 1; i < argc; ++i) {
            const std::string_view arg = argv[i];
            if (arg == "--help" || arg == "-h") {
                std::fputs(help().c_str(), stdout);
                std::exit(0);
            }
            if (!pass_prefix_.empty() && arg.starts_with(pass_prefix_)) {
                passed.push_back(argv[i]);
                continue;
            }
            if (!arg.starts_with("-")) {
                if (positional == positional_.size()) fail("unexpected argument " + std::string(arg));
                positional_[positional++].set(arg);
                continue;
            }
            const std::size_t eq = arg.find('=');
            const std::string_view name = arg.substr(0, eq);
            const Option* o = find(name);
            if (!o) fail("unknown option " + std::string(name));
            std::string_view v;
            if (o->meta.empty()) {
                if (eq != std::string_view::npos) fail(std::string(name) + " takes no value");
            } else if (eq != std::string_view::npos) {
                v = arg.substr(eq + 1);
            } else if (i + 1 < argc) {
                v = argv[++i];
            } else {
                fail(std::string(name) + " needs a value (" + o->meta + ")");
            }
            if (!o->set(v)) fail("bad value for " + std::string(name) + ": " + std::string(v));
        }
        if (positional < positional_.size()) fail("missing " + positional_[positional].name);
        return passed;
    }

    /// The text --help prints.
    std::string help() const {
        std::string s = usage_ + "\n";
        auto line = [&](const std::string& left, const std::string& text) {
            s += "  " + left + std::string(left.size() < 24 ? 24 - left.size() : 1, ' ') + text + "\n";
        };
        for (const Option& p : positional_) line(p.name, p.help);
        for (const Option& o : options_) line(o.meta.empty() ? o.name : o.name + " " + o.meta, o.help);
        if (!pass_prefix_.empty()) line(pass_prefix_ + "...", pass_help_);
        return s;
    }

private:
    template <class T>
    static bool parse_whole(std::string_view v, T& target) {
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), target);
        return ec == std::errc() && end == v.data() + v.size();
    }
    struct Option {
        std::string name, meta, help;
        std::function<bool(std::string_view)> set;
    };
    const Option* find(std::string_view name) const {
        for (const Option& o : options_)
            if (o.name == name) return &o;
        return nullptr;
    }
    [[noreturn]] void fail(const std::string& message) const {
        std::fprintf(stderr, "%s: %s\n\n%s", prog_.c_str(), message.c_str(), help().c_str());
        std::exit(2);
    }
    std::string usage_, pass_prefix_, pass_help_, prog_;
    std::vector<Option> options_, positional_;
};

}  // namespace navlab::bench
