// `navlab igi check|routes|rewrite|dump`.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/output_guard.h"
#include "export/igi_export.h"
#include "formats/igi/graph_io.h"
#include "formats/igi/routes.h"
#include "io/error.h"
#include "io/file.h"
#include "io/json_text.h"
#include "io/report.h"
#include "io/shared_bytes.h"
#include "io/text.h"

namespace navlab::cli {
namespace {

using namespace navlab::igi;

std::string_view variant_name(const Graph& g) { return g.variant == Variant::Named ? "named" : "positional"; }

std::string summary(const Graph& g) {
    return fmt::format("{} variant, nMaxNodes {}, {} nodes, {} links, {}", variant_name(g), g.max_nodes, g.nodes.size(),
                       g.links.size(), g.routes.empty() ? "no route table" : "route table present");
}

/// The reader's warnings in the shape `igi check` has always printed them:
/// "warning: offset 0x..: FIELD: MESSAGE" and {"offset", "field", "message"}.
const FindingStyle kWarningStyle{true, {"offset", "field", "message"}};

Report warnings_of(const Graph& g) {
    Report report;
    for (const Finding& w : g.warnings) report.add(w);
    return report;
}

void print_warnings(const Graph& g) {
    fmt::print("{}", findings_text(warnings_of(g), g.warnings.size(), kWarningStyle));
}

nlohmann::json report_json(const std::string& path, const Graph& g, const RouteReport& r) {
    nlohmann::json problems = nlohmann::json::object();
    for (const auto& p : r.problems) {
        if (p.count == 0) continue;
        nlohmann::json examples = nlohmann::json::array();
        for (const auto& e : p.examples) examples.push_back({{"from", e.from}, {"to", e.to}, {"detail", e.detail}});
        problems[std::string(problem_name(p.problem))] = {{"count", p.count}, {"examples", examples}};
    }
    const nlohmann::json warnings = findings_json(warnings_of(g), kWarningStyle);
    return {{"file", path},
            {"variant", variant_name(g)},
            {"max_nodes", g.max_nodes},
            {"nodes", g.nodes.size()},
            {"links", g.links.size()},
            {"warnings", warnings},
            {"route_table",
             {{"entries", r.entries},
              {"reachable_pairs", r.reachable_pairs},
              {"routes_walked", r.routes_walked},
              {"max_cost_difference",
               {{"value", r.max_cost_difference}, {"from", r.max_difference_from}, {"to", r.max_difference_to}}},
              {"problems", problems}}},
            {"ok", r.ok()}};
}

void print_report(const std::string& path, const Graph& g, const RouteReport& r) {
    fmt::print("{}: {}\n", path, summary(g));
    print_warnings(g);
    fmt::print("route table: {} entries, {} reachable pairs, {} routes walked to their target\n", r.entries,
               r.reachable_pairs, r.routes_walked);
    if (r.max_difference_from >= 0)
        fmt::print("largest |stored cost - walked length|: {:.6g} (from {} to {})\n", r.max_cost_difference,
                   r.max_difference_from, r.max_difference_to);
    if (r.ok()) {
        fmt::print("OK: the route table matches the links\n");
        return;
    }
    fmt::print("PROBLEMS: {}\n", r.problem_total());
    for (const auto& p : r.problems) {
        if (p.count == 0) continue;
        fmt::print("  {}: {}\n", problem_name(p.problem), p.count);
        for (const auto& e : p.examples) fmt::print("    ({} -> {}): {}\n", e.from, e.to, e.detail);
    }
}

void print_dump(const Graph& g, bool with_routes) {
    fmt::print("{}\n", summary(g));
    if (g.blob_header && (g.variant == Variant::Named || g.route_header))
        fmt::print("blob header: {:02X}\n", fmt::join(*g.blob_header, " "));
    print_warnings(g);
    fmt::print("nodes:\n  {:>4} {:>12} {:>12} {:>12} {:>6} {:>6} {:>4}  criteria\n", "id", "x", "y", "z", "gamma",
               "radius", "mat");
    for (const Node& n : g.nodes) {
        fmt::print("  {:>4} {:>12.3f} {:>12.3f} {:>12.3f} {:>6g} {:>6g} {:>4}  {}", n.id, n.position.x, n.position.y,
                   n.position.z, n.gamma, n.radius, n.material ? fmt::format("{}", *n.material) : "-",
                   escape_non_utf8(n.criteria.c_str()));  // up to the first NUL, as the engine reads it
        if (n.extra) fmt::print("  extra {}", *n.extra);
        if (!n.list_a.empty() || !n.list_b.empty()) fmt::print("  lists {}+{} pairs", n.list_a.size(), n.list_b.size());
        fmt::print("\n");
    }
    fmt::print("links:\n");
    for (const Link& l : g.links) fmt::print("  {} - {}  type {}\n", l.id1, l.id2, l.type);
    if (g.routes.empty()) return;
    std::size_t used = 0;
    for (const auto& e : g.routes) used += e.next != -1;
    fmt::print("route entries with a next node: {} of {}\n", used, g.routes.size());
    if (!with_routes) return;
    for (std::int32_t to = 0; to < g.max_nodes; ++to)
        for (std::int32_t from = 0; from < g.max_nodes; ++from) {
            const auto& e = g.routes[g.route_index(from, to)];
            if (e.next != -1) fmt::print("  {} -> {}: next {}, cost {}\n", from, to, e.next, e.cost);
        }
}

void add_check(CLI::App& igi) {
    struct Args {
        std::string file;
        bool json = false;
        std::size_t examples = 5;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = igi.add_subcommand("check", "Verify a graph file and its route table");
    cmd->footer(
        "  Input: graph<id>.dat (named or positional). Reads it strictly (errors give offset and field),\n"
        "  then walks every route: next nodes must follow links to the target without loops, stored\n"
        "  costs must equal the walked Euclidean length and the Dijkstra shortest path, unreachable\n"
        "  pairs and unused slots must be {-1, -1.0}. Prints counts and first examples per problem\n"
        "  class; exit status 1 when there is any problem.\n"
        "Example: navlab igi check graph8.dat --json");
    cmd->add_option("file", a->file, "Graph .dat file")->required();
    cmd->add_flag("--json", a->json, "Print the report as JSON");
    cmd->add_option("--examples", a->examples, "Examples kept per problem class (default 5)");
    cmd->callback([a] {
        const Graph g = read_graph_file(a->file);
        const RouteReport report = check_routes(g, a->examples);
        if (a->json) fmt::print("{}\n", json_text(report_json(a->file, g, report), 2));
        else print_report(a->file, g, report);
        if (!report.ok()) set_exit(kFailed);
    });
}

void add_routes(CLI::App& igi) {
    struct Args {
        std::string input, output;
        bool all = false, force = false;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = igi.add_subcommand("routes", "Recompute a graph's route table and write the file");
    cmd->footer(
        "  Input: graph<id>.dat. Output: the same file with a consistent route table. Per target, the\n"
        "  stored column is kept when it is fully valid; other columns are rebuilt with Dijkstra over\n"
        "  Euclidean link lengths. Ties: shorter distance, then fewer links, then the lower next-node id.\n"
        "  The output is re-read and checked before it is written.\n"
        "Example: navlab igi routes graph8.dat -o graph8.fixed.dat");
    cmd->add_option("input", a->input, "Graph .dat file")->required();
    cmd->add_option("-o,--output", a->output, "Output .dat file")->required();
    cmd->add_flag("--all", a->all, "Rebuild every column, even valid ones");
    cmd->add_flag("--force", a->force, "Allow the output to be the input file itself (replaced atomically)");
    cmd->callback([a] {
        refuse_overwriting_input(a->input, a->output, a->force);
        Graph g = read_graph_file(a->input);
        RouteRebuild rebuilt;
        try {
            rebuilt = rebuild_routes(g, !a->all);
        } catch (Error& e) {
            throw e.set_file(a->input);  // a graph whose routes cannot be costed: name it
        }
        g.routes = std::move(rebuilt.table);
        const std::vector<std::uint8_t> bytes = write_graph(g);
        const RouteReport verify = check_routes(read_graph(bytes));
        if (!verify.ok())
            throw Error(fmt::format("internal error: the rebuilt table fails the check ({} problems)", verify.problem_total()));
        write_file_atomic(a->output, bytes);
        fmt::print("{}: kept {} target columns, rebuilt {}; {} reachable pairs\n", a->output, rebuilt.kept_targets,
                   rebuilt.rebuilt_targets, verify.reachable_pairs);
    });
}

void add_rewrite(CLI::App& igi) {
    struct Args {
        std::string input, output;
        bool retail = false, force = false;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = igi.add_subcommand("rewrite", "Read a graph file and write it back");
    cmd->footer(
        "  Input: graph<id>.dat. Output: the file as navlab writes it; byte-identical for any valid\n"
        "  file (field order, unknown fields and blob header kept). --retail-layout rewrites a named\n"
        "  file in the retail field order instead.\n"
        "Example: navlab igi rewrite graph8.dat copy.dat");
    cmd->add_option("input", a->input, "Graph .dat file")->required();
    cmd->add_option("output", a->output, "Output .dat file")->required();
    cmd->add_flag("--retail-layout", a->retail, "Write named files in the retail field order");
    cmd->add_flag("--force", a->force, "Allow the output to be the input file itself (replaced atomically)");
    cmd->callback([a] {
        refuse_overwriting_input(a->input, a->output, a->force);
        const Graph g = read_graph_file(a->input);
        const std::vector<std::uint8_t> bytes = write_graph(g, a->retail ? Layout::Retail : Layout::Source);
        const SharedBytes original = SharedBytes::map_file(a->input);
        const bool same = std::equal(bytes.begin(), bytes.end(), original.begin(), original.end());
        write_file_atomic(a->output, bytes);
        fmt::print("{}: {} bytes, {}\n", a->output, bytes.size(), same ? "identical to the input" : "differs from the input");
    });
}

void add_dump(CLI::App& igi) {
    struct Args {
        std::string file;
        bool json = false, routes = false;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = igi.add_subcommand("dump", "Print a graph's nodes, links and route table");
    cmd->footer(
        "  Input: graph<id>.dat. Output (stdout): nodes (local position in world units, 4096 = 1 m;\n"
        "  radius in metres), links and route-table statistics; --routes lists every stored route.\n"
        "Example: navlab igi dump graph8.dat --json --routes");
    cmd->add_option("file", a->file, "Graph .dat file")->required();
    cmd->add_flag("--json", a->json, "Print JSON (the same document as `navlab export --format json`)");
    cmd->add_flag("--routes", a->routes, "Also list the route-table entries");
    cmd->callback([a] {
        const Graph g = read_graph_file(a->file);
        if (a->json) fmt::print("{}\n", json_text(graph_to_json(g, a->routes), 2));
        else print_dump(g, a->routes);
    });
}

}  // namespace

void add_igi_commands(CLI::App& app) {
    auto* igi = app.add_subcommand("igi", "Project IGI graph<id>.dat: check, rebuild routes, rewrite, dump");
    igi->require_subcommand(1);
    igi->footer("Example: navlab igi check graph8.dat");
    add_check(*igi);
    add_routes(*igi);
    add_rewrite(*igi);
    add_dump(*igi);
}

}  // namespace navlab::cli
