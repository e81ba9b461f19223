// `navlab archive ls|extract`: Sekiro and Elden Ring BHD5/BDT game archives read in place
// (src/container/archive), navmesh binders found without a name list.
#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/game_dir_options.h"
#include "cli/output_guard.h"
#include "container/archive/navmesh_search.h"
#include "container/archive/path_hash.h"
#include "io/error.h"
#include "io/file.h"
#include "io/json_text.h"
#include "io/parallel.h"

namespace navlab::cli {
namespace {

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

struct LsOptions {
    GameDirOptions dir;
    std::string names;
    bool all = false;
    std::string json;
};

struct ExtractOptions {
    GameDirOptions dir;
    std::string out;
    bool navmesh = false;
    std::vector<std::string> paths;
};

/// One listed file; a nameless one (with --all) has an empty path.
struct Row {
    std::string mapId, path;
    archive::EntryRef ref;
};

json row_json(const archive::GameInstall& g, const Row& r) {
    const archive::FileHeader& h = g.header(r.ref);
    return {{"map_id", r.mapId.empty() ? json(nullptr) : json(r.mapId)},
            {"path", r.path.empty() ? json(nullptr) : json(r.path)},
            {"archive", g.archives()[r.ref.archive].stem},
            {"hash", archive::format_hash(g.game(), h.hash)},
            {"offset", h.dataOffset},
            {"padded_size", h.paddedSize},
            {"unpadded_size", h.unpaddedSize},
            {"size", h.size()},
            {"encrypted", h.encrypted()}};
}

/// The rows `ls` prints: navmesh binders (+ names from --names), or with --all every entry.
std::vector<Row> listing(const archive::GameInstall& g, const LsOptions& o) {
    const auto binders = archive::find_navmesh_binders(g);
    std::vector<archive::NamedEntry> named = binders;
    if (!o.names.empty())
        for (auto& n : archive::resolve_paths(g, archive::read_name_list(o.names))) named.push_back(std::move(n));
    std::vector<Row> rows;
    if (!o.all) {
        for (const auto& n : named) rows.push_back({n.mapId, n.path, n.ref});
        return rows;
    }
    for (auto& n : archive::find_navmesh_siblings(g, binders)) named.push_back(std::move(n));
    std::map<std::pair<std::size_t, std::size_t>, const archive::NamedEntry*> byRef;
    for (const auto& n : named) byRef.emplace(std::pair(n.ref.archive, n.ref.file), &n);
    for (std::size_t a = 0; a < g.archives().size(); ++a)
        for (std::size_t f = 0; f < g.archives()[a].files.size(); ++f) {
            const auto it = byRef.find({a, f});
            rows.push_back(it == byRef.end() ? Row{{}, {}, {a, f}} : Row{it->second->mapId, it->second->path, {a, f}});
        }
    return rows;
}

void run_ls(const LsOptions& o) {
    const auto start = std::chrono::steady_clock::now();
    const archive::GameInstall g = open_game_dir(o.dir);
    const std::vector<Row> rows = listing(g, o);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("{} install {}: {} archives, {} entries\n", archive::game_name(g.game()), g.gameDir().string(),
               g.archives().size(), g.entry_count());
    for (const auto& a : g.archives())
        fmt::print("  {:<12} {:>8} entries  .bhd {} ({} bytes)\n", a.stem, a.files.size(),
                   !a.bhdEncrypted ? "plaintext" : a.bhdFromCache ? "RSA-encrypted, read from the cache" : "RSA-encrypted",
                   a.bhdBytes);
    fmt::print("{:<13} {:<12} {:<18} {:>12} {:>11} {:>11} {:<4} {}\n", "map id", "archive", "hash", "offset", "padded",
               "unpadded", "aes", "path");
    std::size_t binders = 0;
    for (const Row& r : rows) {
        const archive::FileHeader& h = g.header(r.ref);
        binders += r.path.ends_with(".nvmhktbnd.dcx");
        fmt::print("{:<13} {:<12} {:<18} {:>12} {:>11} {:>11} {:<4} {}\n", r.mapId.empty() ? "-" : r.mapId,
                   g.archives()[r.ref.archive].stem, archive::format_hash(g.game(), h.hash), hex(h.dataOffset),
                   h.paddedSize, h.unpaddedSize, h.encrypted() ? "yes" : "no", r.path.empty() ? "?" : r.path);
    }
    fmt::print("{} rows, {} navmesh binders; opened and searched in {:.2f} s\n", rows.size(), binders, seconds);
    if (!o.json.empty()) {
        json j{{"format", "navlab-archive-ls/1"}, {"game", archive::game_name(g.game())}, {"game_dir", g.gameDir().string()}};
        j["archives"] = json::array();
        for (const auto& a : g.archives())
            j["archives"].push_back({{"stem", a.stem}, {"bhd_encrypted", a.bhdEncrypted}, {"bhd_cached", a.bhdFromCache},
                                     {"bhd_bytes", a.bhdBytes},
                                     {"entries", a.files.size()}, {"salt", a.index.salt}});
        j["files"] = json::array();
        for (const Row& r : rows) j["files"].push_back(row_json(g, r));
        write_file_atomic(o.json, json_text(j, 1) + "\n");
    }
}

void run_extract(const ExtractOptions& o) {
    const archive::GameInstall g = open_game_dir(o.dir);
    std::vector<archive::NamedEntry> chosen;
    if (o.paths.empty()) {
        chosen = archive::find_navmesh_binders(g);
    } else {
        for (const std::string& p : o.paths) {
            // Paths are written below OUT_DIR: a ".." component could leave it.
            for (const auto& part : fs::path(archive::normalize_archive_path(p)))
                if (part == "..") throw Error("--path " + p + " has a \"..\" component");
            auto found = archive::resolve_paths(g, {p});
            if (found.empty())
                throw Error(fmt::format("{} (hash {}) is in no {} archive of {}", archive::normalize_archive_path(p),
                                        archive::format_hash(g.game(), archive::path_hash(g.game(), p)),
                                        archive::game_name(g.game()), g.gameDir().string()));
            chosen.push_back(found.front());  // precedence between archives is unknown (spec §8): the first
        }
    }
    std::vector<std::uint64_t> sizes(chosen.size());
    parallel_for(chosen.size(), o.dir.threads, [&](std::size_t i) {
        const archive::NamedEntry& n = chosen[i];
        const std::vector<std::uint8_t> bytes = g.read(n.ref);
        if (n.path.ends_with(".nvmhktbnd.dcx") && (bytes.size() < 4 || std::memcmp(bytes.data(), "DCX\0", 4) != 0)) {
            Error e("navmesh binder " + n.path + " does not start with DCX");
            e.in("BHD5 entry " + archive::format_hash(g.game(), g.header(n.ref).hash));
            e.set_file(g.archives()[n.ref.archive].bdtPath.string());
            throw e;
        }
        const fs::path target = fs::path(o.out) / n.path.substr(1);
        fs::create_directories(target.parent_path());
        write_file_atomic(target, bytes);
        sizes[i] = bytes.size();
    });
    std::uint64_t total = 0;
    for (auto s : sizes) total += s;
    fmt::print("wrote {} files ({:.1f} MB) from {} to {}\n", chosen.size(), static_cast<double>(total) / 1e6,
               g.gameDir().string(), o.out);
}

}  // namespace

void add_archive_commands(CLI::App& app) {
    auto* cmd = app.add_subcommand("archive", "Sekiro / Elden Ring BHD5+BDT game archives, read in place: ls, extract");
    cmd->require_subcommand(1);
    cmd->footer(
        "  GAME_DIR is a Sekiro or Elden Ring install's Game/ folder. The .bhd headers are RSA-decrypted with\n"
        "  the games' public keys (bundled), the .bdt data read in place (AES ranges decrypted): no unpacking,\n"
        "  no name list. `navlab audit --game-dir GAME_DIR` audits the navmesh binders the same way.\n"
        "Example: navlab archive ls ~/Sekiro/Game && navlab archive extract ~/Sekiro/Game navmeshes");

    auto ls = std::make_shared<LsOptions>();
    auto* lsCmd = cmd->add_subcommand("ls", "List the navmesh binders (or every entry) of a game install");
    lsCmd->footer(
        "  Input: the install's Game/ folder (Sekiro Data1-5, Elden Ring Data0-3, DLC, sd/*: .bhd + .bdt).\n"
        "  Each .bhd is RSA-decrypted with the bundled public keys (only the .bhd files are read); the\n"
        "  navmesh binders are found by hashing every candidate map id, no name list needed.\n"
        "  Output: map id, archive, path hash, .bdt offset, padded/unpadded size, AES-encrypted, path.\n"
        "  --all lists every entry (unnamed ones as '?'); --names FILE adds paths (one per line).\n"
        "Example: navlab archive ls ~/ELDEN\\ RING/Game --json binders.json");
    lsCmd->add_option("GAME_DIR", ls->dir.dir, "The install's Game/ folder")->required();
    add_game_dir_options(lsCmd, ls->dir);
    lsCmd->add_option("--names", ls->names, "Text file of archive paths to look up, one per line");
    lsCmd->add_flag("--all", ls->all, "List every entry of every archive");
    lsCmd->add_option("--json", ls->json, "Also write the listing as JSON (navlab-archive-ls/1) to FILE")->check(json_report_file());
    lsCmd->add_option("--threads", ls->dir.threads, "RSA decryption threads (0 = one per core)");
    lsCmd->callback([ls] { run_ls(*ls); });

    auto ex = std::make_shared<ExtractOptions>();
    auto* exCmd = cmd->add_subcommand("extract", "Write navmesh binders (or chosen paths) of a game install to a folder");
    exCmd->footer(
        "  Writes each file at its archive path under OUT_DIR (map/m60/m60_44_36_00/m60_44_36_00.nvmhktbnd.dcx),\n"
        "  atomically. Default (--navmesh): every navmesh binder found; --path P...: the given archive paths.\n"
        "Example: navlab archive extract Game out --path /map/m10/m10_00_00_00/m10_00_00_00.nvmhktbnd.dcx");
    exCmd->add_option("GAME_DIR", ex->dir.dir, "The install's Game/ folder")->required();
    exCmd->add_option("OUT_DIR", ex->out, "Output folder")->required();
    add_game_dir_options(exCmd, ex->dir);
    auto* navmesh = exCmd->add_flag("--navmesh", ex->navmesh, "Extract every navmesh binder (the default)");
    exCmd->add_option("--path", ex->paths, "Archive paths to extract")->excludes(navmesh);
    exCmd->add_option("--threads", ex->dir.threads, "Worker threads (0 = one per core)");
    exCmd->callback([ex] { run_extract(*ex); });
}

}  // namespace navlab::cli
