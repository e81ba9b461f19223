// `navlab ls`, `unpack`, `pack` and `dcx info|decompress|compress`: the FromSoftware
// containers (DCX around BND4) from the command line.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/commands.h"
#include "cli/output_guard.h"
#include "cli/progress.h"
#include "codec/dcx.h"
#include "codec/kraken/kraken.h"
#include "container/binder_file.h"
#include "container/bnd4.h"
#include "container/manifest.h"
#include "io/error.h"
#include "io/file.h"
#include "io/json_text.h"
#include "io/shared_bytes.h"
#include "io/text.h"

namespace navlab::cli {
namespace {

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;
using container::bnd4_json;
using container::dcx_json;
using container::format_names;

// ---- opening and listing ------------------------------------------------------------

container::BinderFile open_file(const std::string& path) {
    try {
        return container::BinderFile::open(path);
    } catch (Error& e) {
        e.set_file(path);
        throw;
    }
}

json entry_json(const container::BinderFile& f, std::size_t i) {
    const auto& e = f.entries()[i];
    json j = {{"index", e.index}, {"id", e.id}, {"name", e.name}, {"size", e.data.size()}};
    if (f.is_binder) {
        const auto& be = f.binder().entries[i];
        j["flags_raw"] = hex(be.flags_raw);
        j["flags"] = hex(be.flags(f.binder().header));
    }
    return j;
}

void run_ls(const std::string& path, bool as_json) {
    const auto f = open_file(path);
    if (as_json) {
        json j = {{"file", fs::path(path).filename().string()}};
        j["dcx"] = f.dcx ? dcx_json(*f.dcx) : json(nullptr);
        j["bnd4"] = f.is_binder ? bnd4_json(f.binder().header) : json(nullptr);
        j["entries"] = json::array();
        for (std::size_t i = 0; i < f.entries().size(); ++i) j["entries"].push_back(entry_json(f, i));
        fmt::print("{}\n", json_text(j, 1));
        return;
    }
    fmt::print("{}\n", path);
    if (f.dcx)
        fmt::print("  DCX   {} ({} -> {} bytes)\n", dcx::variant_name(f.dcx->variant), f.dcx->compressed_size,
                   f.dcx->uncompressed_size);
    if (!f.is_binder) {
        fmt::print("  not a binder: {} bytes\n", f.payload().size());
        return;
    }
    const auto& h = f.binder().header;
    fmt::print("  BND4  {} entries, version \"{}\", format {} ({}), {} names, {}\n", f.entries().size(),
               escape_non_utf8(h.version_string()), hex(h.format_raw), format_names(h.format()),
               h.unicode ? "UTF-16" : "Shift-JIS",
               f.binder().has_hash_table() ? "hash table" : "no hash table");
    fmt::print("  {:>6} {:>10} {:>10} {:>5}  {}\n", "index", "id", "size", "flags", "name");
    for (std::size_t i = 0; i < f.entries().size(); ++i) {
        const auto& e = f.entries()[i];
        fmt::print("  {:>6} {:>10} {:>10} {:>5}  {}\n", e.index, e.id, e.data.size(),
                   hex(f.binder().entries[i].flags_raw), escape_non_utf8(e.name));  // the file's bytes
    }
}

// ---- unpack / pack ------------------------------------------------------------------

void run_unpack(const std::string& path, const std::string& dir) {
    const auto f = open_file(path);
    const std::size_t n = container::unpack(f, fs::path(path).filename().string(), dir);
    fmt::print("{}: {} entries unpacked to {}\n", path, n, dir);
}

/// The files under `dir` (its manifest and entries): what `pack` must not write over.
std::vector<std::string> files_under(const std::string& dir) {
    std::vector<std::string> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it); it.increment(ec))
        if (it->is_regular_file()) files.push_back(it->path().string());
    return files;
}

/// --level is the Kraken encoder's: for another codec it would be ignored without a word.
[[noreturn]] void refuse_level(int level, std::string_view variant) {
    throw CLI::ValidationError("--level", fmt::format("a Kraken level ({}) is for DCX_KRAK files, not {}: leave it out",
                                                      level, variant));
}

void run_pack(const std::string& dir, const std::string& out, int kraken_level) {
    refuse_output_over_inputs("out", "the binder", out, files_under(dir));
    if (kraken_level >= 0) {  // before the binder is built
        const dcx::Variant variant = container::manifest_variant(dir);
        if (dcx::codec_name(variant) != "KRAK")
            refuse_level(kraken_level, variant == dcx::Variant::None ? "an uncompressed file (its manifest's dcx is null)"
                                                                     : dcx::variant_name(variant));
    }
    container::Packed packed;
    {
        // A DCX_KRAK file reports its Kraken blocks once the binder is built; on a terminal only.
        std::unique_ptr<Progress> progress;
        container::PackProgress hooks;
        hooks.encoding = [&](std::size_t payload_bytes) {
            progress = std::make_unique<Progress>("pack", kraken::encoded_block_count(payload_bytes));
            progress->set_total_bytes(payload_bytes);
        };
        hooks.block_done = [&](std::size_t bytes) {
            if (progress) progress->tick(1, bytes);
        };
        packed = container::pack(dir, kraken_level, hooks);
    }
    write_file_atomic(out, packed.bytes);
    fmt::print("{}: packed {} entries ({} bytes)\n", out, packed.entries, packed.bytes.size());
}

// ---- dcx ----------------------------------------------------------------------------

void run_dcx_info(const std::string& path, bool as_json) {
    const SharedBytes in = SharedBytes::map_file(path);
    dcx::Header h;
    try {
        h = dcx::read_header(in);
    } catch (Error& e) {
        e.set_file(path);
        throw;
    }
    // For DCX/DCP forms the header alone does not say how much padding follows the stream.
    if (h.variant != dcx::Variant::None && h.variant != dcx::Variant::Zlib && h.variant != dcx::Variant::DcpEdge &&
        h.variant != dcx::Variant::DcpDflt) {
        const std::uint64_t end = 0x44ull + h.dca_size + h.compressed_size;
        h.trailing_padding = end <= in.size() ? static_cast<std::uint32_t>(in.size() - end) : 0;
    }
    if (as_json) {
        json j = dcx_json(h);
        j["file"] = fs::path(path).filename().string();
        j["file_size"] = in.size();
        fmt::print("{}\n", json_text(j, 1));
        return;
    }
    fmt::print("{}\n  variant            {}\n", path, dcx::variant_name(h.variant));
    if (h.variant == dcx::Variant::None) {
        fmt::print("  not compressed ({} bytes)\n", in.size());
        return;
    }
    if (h.variant == dcx::Variant::Zlib) {
        fmt::print("  bare zlib stream of {} bytes (no declared size)\n", in.size());
        return;
    }
    fmt::print("  codec              {}\n  level              {}\n", std::string(h.codec, 4), h.level());
    fmt::print("  uncompressed size  {}\n  compressed size    {}\n", h.uncompressed_size, h.compressed_size);
    fmt::print("  trailing padding   {}\n", h.trailing_padding);
    fmt::print("  constants          version {} 0x10 {} 0x14 {} 0x30 {} 0x34 {} 0x38 {} 0x40 {} DCA {}\n",
               hex(h.version), hex(h.field10), hex(h.field14), hex(h.level_word), hex(h.field34), hex(h.field38),
               hex(h.field40), hex(h.dca_size));
    for (const auto& note : dcx::nonstandard_fields(h)) fmt::print("  nonstandard        {}\n", note);
}

dcx::Decoded decompress_file(const std::string& path, const SharedBytes& in) {
    try {
        return dcx::decompress(in);
    } catch (Error& e) {
        e.set_file(path);
        throw;
    }
}

void run_dcx_decompress(const std::string& in_path, const std::string& out) {
    const SharedBytes in = SharedBytes::map_file(in_path);
    const auto d = decompress_file(in_path, in);
    write_file_atomic(out, d.payload);
    fmt::print("{}: {} -> {} bytes ({})\n", out, in.size(), d.payload.size(), dcx::variant_name(d.header.variant));
}

void run_dcx_compress(const std::string& in_path, const std::string& out, const std::string& variant_name, int level) {
    const SharedBytes in = SharedBytes::map_file(in_path);
    const auto d = decompress_file(in_path, in);
    const bool was_compressed = d.header.variant != dcx::Variant::None;
    dcx::Variant v = variant_name.empty() ? (was_compressed ? d.header.variant : dcx::Variant::Krak)
                                          : dcx::parse_variant_name(variant_name);
    if (level >= 0 && dcx::codec_name(v) != "KRAK") refuse_level(level, dcx::variant_name(v));
    std::vector<std::uint8_t> bytes;
    {
        // KRAK reports its blocks (level 9 takes minutes on a large binder); on a terminal only.
        const bool krak = dcx::codec_name(v) == "KRAK";
        Progress progress("dcx compress", krak ? kraken::encoded_block_count(d.payload.size()) : 0);
        progress.set_total_bytes(d.payload.size());
        bytes = dcx::compress(d.payload, v, was_compressed ? &d.header : nullptr, level,
                              [&](std::size_t bytes) { progress.tick(1, bytes); });
    }
    write_file_atomic(out, bytes);
    fmt::print("{}: {} -> {} bytes ({})\n", out, d.payload.size(), bytes.size(), dcx::variant_name(v));
}

std::string variant_list() {
    std::string s;
    for (auto v : dcx::all_variants()) s += (s.empty() ? "" : ", ") + std::string(dcx::variant_name(v));
    return s;
}

}  // namespace

void add_container_commands(CLI::App& app) {
    struct Args {
        std::string input, output, variant;
        bool json = false, force = false;
        int level = -1;  ///< Kraken encoder level; -1 = the DCX header's level byte
    };
    auto a = std::make_shared<Args>();

    auto* ls = app.add_subcommand("ls", "List a DCX/BND4 file: container chain and entries");
    ls->footer(
        "Input: any file; DCX (every variant) and BND4 are opened, anything else is shown as one entry.\n"
        "Output (stdout): the DCX variant and sizes, the BND4 header (version, format, names, hash table)\n"
        "  and one line per entry (index, id, size, raw flags, name); --json prints the same as JSON.\n"
        "Example: navlab ls m10_00_00_00.nvmhktbnd.dcx --json");
    ls->add_option("file", a->input, "DCX, BND4 or any file")->required();
    ls->add_flag("--json", a->json, "Print JSON instead of text");
    ls->callback([a] { run_ls(a->input, a->json); });

    auto* unpack = app.add_subcommand("unpack", "Unpack a binder's entries and a manifest into a folder");
    unpack->footer(
        "Input: a DCX/BND4 binder (or any file: it becomes one entry).\n"
        "Output: DIR/<entry file name> for every entry (folders stripped; clashes get an index prefix) and\n"
        "  DIR/navlab-manifest.json recording the entry order, ids, names (raw bytes as hex when they are\n"
        "  not plain text), flags, the BND4 header fields and the DCX variant with its header constants.\n"
        "  `navlab pack DIR OUT` of an unchanged folder rebuilds the identical binder in the same variant.\n"
        "Example: navlab unpack m10_00_00_00.nvmhktbnd.dcx m10");
    unpack->add_option("file", a->input, "DCX/BND4 binder")->required();
    unpack->add_option("dir", a->output, "Output folder (created if missing)")->required();
    unpack->callback([a] { run_unpack(a->input, a->output); });

    auto* pack = app.add_subcommand("pack", "Pack a folder made by `navlab unpack` back into a DCX/BND4 file");
    pack->footer(
        "Input: DIR with navlab-manifest.json and the entry files it names (edit or replace them freely;\n"
        "  order, ids, names and flags come from the manifest).\n"
        "Output: OUT, the BND4 in FromSoftware's layout (hash table rebuilt), compressed with the manifest's\n"
        "  DCX variant and header constants (KRAK with navlab's Kraken encoder at the header's level,\n"
        "  or --level N; DFLT with zlib level 9).\n"
        "  KRAK on a terminal: a progress line on stderr (blocks, MB/s, time left) once the binder is\n"
        "  built, for payloads over 256 KiB.\n"
        "Example: navlab pack m10 m10_00_00_00.nvmhktbnd.dcx");
    pack->add_option("dir", a->input, "Folder made by navlab unpack")->required();
    pack->add_option("out", a->output, "Output file")->required();
    pack->add_option("-l,--level", a->level, "Kraken level 0..9 for KRAK (0 = stored blocks; default: the header's 6 or 9)")
        ->check(CLI::Range(0, 9));
    pack->callback([a] { run_pack(a->input, a->output, a->level); });

    auto* dcx_cmd = app.add_subcommand("dcx", "DCX compression wrapper: info, decompress, compress");
    dcx_cmd->require_subcommand(1);
    dcx_cmd->footer("Run `navlab dcx COMMAND --help` for each command.\nExample: navlab dcx info m10_00_00_00.nvmhktbnd.dcx");

    auto* info = dcx_cmd->add_subcommand("info", "Show a DCX header: variant, sizes, raw constants");
    info->footer(
        "Input: a DCX, DCP or bare zlib file (anything else is reported as not compressed).\n"
        "Output (stdout): variant, codec, level, declared sizes, trailing padding, the raw header constants\n"
        "  and any that differ from the variant's standard values; --json for JSON. Reads only the header.\n"
        "Example: navlab dcx info m10_00_00_00.nvmhktbnd.dcx");
    info->add_option("file", a->input, "DCX file")->required();
    info->add_flag("--json", a->json, "Print JSON instead of text");
    info->callback([a] { run_dcx_info(a->input, a->json); });

    auto* dec = dcx_cmd->add_subcommand("decompress", "Decompress a DCX file");
    dec->footer(
        "Input: IN, any DCX variant (KRAK needs the Kraken decoder), DCP or bare zlib; an uncompressed file\n"
        "  is copied. Declared sizes are checked.\n"
        "Output: OUT, the payload (e.g. a BND4 binder).\n"
        "Example: navlab dcx decompress m10_00_00_00.nvmhktbnd.dcx m10_00_00_00.nvmhktbnd");
    dec->add_option("in", a->input, "Compressed file")->required();
    dec->add_option("out", a->output, "Output file")->required();
    dec->add_flag("--force", a->force, "Allow the output to be the input file itself (replaced atomically)");
    dec->callback([a] {
        refuse_overwriting_input(a->input, a->output, a->force);
        run_dcx_decompress(a->input, a->output);
    });

    auto* com = dcx_cmd->add_subcommand("compress", "Compress a file as DCX (keeps a DCX input's variant)");
    com->footer(
        "Input: IN, a plain file, or a DCX to rewrite (its payload is recompressed).\n"
        "Output: OUT, compressed as --variant; by default a DCX input keeps its variant and raw header\n"
        "  constants, and a plain file becomes DCX_KRAK (navlab's Kraken encoder, level 6; a game\n"
        "  DCX_KRAK keeps its header constants, so the output compares byte for byte with the game's).\n"
        "  --level N (KRAK only): Kraken encoder level, 0 = stored blocks, 1 fastest ... 9 smallest.\n"
        "  KRAK on a terminal: a progress line on stderr (blocks, MB/s, time left) for inputs over 256 KiB.\n"
        "Variants: " + variant_list() + " (also DCX_KRAK_6, DCX_KRAK_9, DFLT, KRAK, ZSTD, EDGE).\n"
        "Example: navlab dcx compress m10_00_00_00.nvmhktbnd m10_00_00_00.nvmhktbnd.dcx --variant DCX_DFLT_11000_44_9");
    com->add_option("in", a->input, "Input file")->required();
    com->add_option("out", a->output, "Output file")->required();
    com->add_option("--variant", a->variant, "DCX variant name (default: keep, or DCX_KRAK)")
        ->check(CLI::Validator([](std::string& s) { return s.empty() ? std::string("an empty variant name") : std::string(); },
                               ""));
    com->add_option("-l,--level", a->level, "Kraken level 0..9 (KRAK only; default: the header's 6 or 9)")
        ->check(CLI::Range(0, 9));
    com->add_flag("--force", a->force, "Allow the output to be the input file itself (replaced atomically)");
    com->callback([a] {
        refuse_overwriting_input(a->input, a->output, a->force);
        run_dcx_compress(a->input, a->output, a->variant, a->level);
    });
}

}  // namespace navlab::cli
