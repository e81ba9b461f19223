// `navlab fc2 info|check|rewrite`.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/output_guard.h"
#include "formats/farcry2/world.h"
#include "io/error.h"
#include "io/file.h"
#include "io/json_text.h"
#include "io/report.h"
#include "io/shared_bytes.h"

namespace navlab::cli {
namespace {

using namespace navlab::farcry2;
using nlohmann::json;

/// Warnings printed by `check` unless --all.
constexpr std::size_t kShownWarnings = 20;

json box_json(const Box2& b) { return {b.min_x, b.min_y, b.max_x, b.max_y}; }

json level_json(const LevelFile& l, const std::string& path) {
    std::size_t used = 0;
    for (auto d : l.descriptors) used += d != 0;
    return {{"file", path},
            {"kind", "level"},
            {"version", hex(l.version)},
            {"box", box_json(l.box)},
            {"grid", {l.grid_x, l.grid_y}},
            {"mode", l.mode},
            {"sector_count", l.descriptors.size()},
            {"nonzero_descriptors", used},
            {"tail_bytes", l.tail.size()}};
}

json sector_json(const SectorFile& s, const std::string& path) {
    const auto& h = s.header;
    return {{"file", path},
            {"kind", "sector"},
            {"version", hex(h.version)},
            {"sector_id", h.sector_id},
            {"row", sector_row(h.sector_id)},
            {"column", sector_column(h.sector_id)},
            {"box", box_json(h.box)},
            {"reload_size", h.reload_size},
            {"node_record_bytes", node_record_size(h.version)},
            {"links", s.links.size()},
            {"triangles", s.nodes.size()},
            {"vertices", s.vertices.size()},
            {"tail_bytes", s.tail.size()}};
}

json stats_json(const WorldStats& s) {
    return {{"sectors", s.sectors},       {"triangles", s.triangles},
            {"vertices", s.vertices},     {"links", s.links},
            {"cross_sector_links", s.cross_sector_links}, {"unchecked_links", s.unchecked_links},
            {"broken_links", s.broken_links}, {"tail_bytes", s.tail_bytes}};
}

void print_level(const LevelFile& l, const std::string& path) {
    std::size_t used = 0;
    for (auto d : l.descriptors) used += d != 0;
    fmt::print("{}: level file, version {}, extent {} x {} m, grid {} x {}, mode {}, {} sectors ({} with data), "
               "{} tail bytes\n",
               path, hex(l.version), l.box.max_x, l.box.max_y, l.grid_x, l.grid_y, l.mode, l.descriptors.size(), used,
               l.tail.size());
}

void print_sector(const SectorFile& s, const std::string& path) {
    const auto& h = s.header;
    fmt::print("{}: sector {} (row {}, column {}), version {}, box ({}, {})-({}, {}), reload size {}, "
               "{} triangles, {} vertices, {} link entries, {} opaque tail bytes\n",
               path, h.sector_id, sector_row(h.sector_id), sector_column(h.sector_id), hex(h.version), h.box.min_x,
               h.box.min_y, h.box.max_x, h.box.max_y, h.reload_size, s.nodes.size(), s.vertices.size(),
               s.links.size(), s.tail.size());
}

std::string stats_line(const WorldStats& s) {
    return fmt::format("{} sectors, {} triangles, {} vertices, {} links ({} cross-sector, {} unchecked), "
                       "{} broken links, {} opaque tail bytes",
                       s.sectors, s.triangles, s.vertices, s.links, s.cross_sector_links, s.unchecked_links,
                       s.broken_links, s.tail_bytes);
}

void info(const std::string& input, bool as_json) {
    World world = load_world(input);
    if (world.found_no_file())
        throw Error("no .nvm files found").set_file(input);  // as `fc2 check` says it (exit 1)
    if (!world.complete) {
        json j = world.level ? level_json(*world.level, world.level_path)
                             : sector_json(world.sectors.front().file, world.sectors.front().path);
        if (as_json) fmt::print("{}\n", json_text(j, 2));
        else if (world.level) print_level(*world.level, world.level_path);
        else print_sector(world.sectors.front().file, world.sectors.front().path);
        return;
    }
    CheckReport report = check_world(world);
    if (as_json) {
        json j = {{"folder", input}, {"stats", stats_json(report.stats)}, {"unreadable_files", world.failures.size()}};
        j["level"] = world.level ? level_json(*world.level, world.level_path) : json(nullptr);
        json sectors = json::array();
        for (const auto& s : world.sectors) sectors.push_back(sector_json(s.file, s.path));
        j["sectors"] = sectors;
        fmt::print("{}\n", json_text(j, 2));
        return;
    }
    fmt::print("{}: {}\n", input, stats_line(report.stats));
    if (world.level) print_level(*world.level, world.level_path);
    else fmt::print("no level file (nv.nvm) in the folder\n");
    for (const auto& f : world.failures) fmt::print("unreadable: {}\n", finding_text(f));
}

void check(const std::string& input, bool as_json, bool all) {
    World world = load_world(input);
    CheckReport report = check_world(world);
    if (as_json) {
        json j = {{"input", input},
                  {"ok", report.ok()},
                  {"stats", stats_json(report.stats)},
                  {"errors", report.errors},
                  {"warnings", report.warnings},
                  {"findings", findings_json(report)}};
        fmt::print("{}\n", json_text(j, 2));
    } else {
        fmt::print("{}", findings_text(report, all ? report.warnings : kShownWarnings));
        fmt::print("{}: {}: {}; {} errors, {} warnings\n", report.ok() ? "OK" : "FAILED", input,
                   stats_line(report.stats), report.errors, report.warnings);
    }
    if (!report.ok()) set_exit(kFailed);
}

void rewrite(const std::string& in_path, const std::string& out_path) {
    const SharedBytes in = SharedBytes::map_file(in_path);
    std::vector<std::uint8_t> bytes;
    try {
        if (kind_of(std::filesystem::path(in_path).filename().string(), in) == FileKind::Level) {
            bytes = write_level(read_level(in));
        } else {
            WrittenSector written = write_sector(read_sector(in));
            for (const auto& w : written.warnings) fmt::print(stderr, "warning: {}\n", w);
            bytes = std::move(written.bytes);
        }
    } catch (Error& e) {
        throw e.set_file(in_path);
    }
    const auto original = in.span();
    if (!std::equal(bytes.begin(), bytes.end(), original.begin(), original.end()))
        throw Error("rewritten bytes differ from the input (a navlab bug; nothing was written)").set_file(in_path);
    write_file_atomic(out_path, bytes);
    fmt::print("{} -> {}: {} bytes, identical\n", in_path, out_path, bytes.size());
}

}  // namespace

void add_fc2_commands(CLI::App& app) {
    auto* fc2 = app.add_subcommand("fc2", "Far Cry 2 navigation meshes (.nvm level and sector files)");
    fc2->require_subcommand(1);
    fc2->footer("Sector files are nv_<id>.nvm (or nv<id>_<id>.nvm), the level file is nv.nvm.\n"
                "Example: navlab fc2 check levels/w1_c_2/generated/nv");

    struct Options {
        std::string input, output;
        bool json = false, all = false, force = false;
    };
    auto opt = std::make_shared<Options>();

    auto* info_cmd = fc2->add_subcommand("info", "Summarise an .nvm file or a folder of them");
    info_cmd->add_option("input", opt->input, "Level file, sector file or folder")->required();
    info_cmd->add_flag("--json", opt->json, "Print JSON");
    info_cmd->footer("Input: nv.nvm, nv_<id>.nvm or a folder searched recursively for *.nvm.\n"
                     "Output: header fields and counts (file) or world totals (folder) on stdout.\n"
                     "Example: navlab fc2 info nv_2576.nvm --json");
    info_cmd->callback([opt] { info(opt->input, opt->json); });

    auto* check_cmd = fc2->add_subcommand("check", "Check files and the links between sectors");
    check_cmd->add_option("input", opt->input, "Level file, sector file or folder")->required();
    check_cmd->add_flag("--json", opt->json, "Print JSON");
    check_cmd->add_flag("--all", opt->all, "Print every warning, not only the first 20");
    check_cmd->footer(
        "Errors (exit 1): malformed files, links to missing sectors or nodes, links to self, links the target\n"
        "does not answer, file name / header id mismatch, satellites the level table names but that are absent.\n"
        "Warnings: the retail invariants (centroid = mean of corners, link k shares edge k, node ids, box = cell).\n"
        "A single sector file cannot see its neighbours: its cross-sector links are counted as unchecked.\n"
        "Example: navlab fc2 check levels/w1_c_2/generated/nv --json");
    check_cmd->callback([opt] { check(opt->input, opt->json, opt->all); });

    auto* rewrite_cmd = fc2->add_subcommand("rewrite", "Read and write back an .nvm file (byte-identical)");
    rewrite_cmd->add_option("input", opt->input, "Level or sector file")->required();
    rewrite_cmd->add_option("output", opt->output, "Output file")->required();
    rewrite_cmd->footer("Parses every field, re-serialises it (the opaque tail verbatim) and writes OUT only when\n"
                        "the bytes equal the input.\n"
                        "Example: navlab fc2 rewrite nv_2576.nvm /tmp/nv_2576.nvm");
    rewrite_cmd->add_flag("--force", opt->force, "Allow the output to be the input file itself (replaced atomically)");
    rewrite_cmd->callback([opt] {
        refuse_overwriting_input(opt->input, opt->output, opt->force);
        rewrite(opt->input, opt->output);
    });
}

}  // namespace navlab::cli
