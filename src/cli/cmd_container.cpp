// `navlab ls`, `unpack`, `pack` and `dcx info|decompress|compress`: the FromSoftware
// containers (DCX around BND4) from the command line.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/commands.h"
#include "cli/output_guard.h"
#include "codec/dcx.h"
#include "container/binder_file.h"
#include "container/bnd4.h"
#include "io/error.h"
#include "io/file.h"

namespace navlab::cli {
namespace {

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

constexpr const char* kManifestName = "navlab-manifest.json";
constexpr int kManifestVersion = 1;

std::string to_hex_bytes(Bytes b) {
    std::string s;
    for (auto c : b) s += fmt::format("{:02x}", c);
    return s;
}

std::vector<std::uint8_t> from_hex_bytes(const std::string& s) {
    if (s.size() % 2) throw Error(fmt::format("hex string \"{}\" has an odd length", s));
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i < s.size(); i += 2) out.push_back(static_cast<std::uint8_t>(std::stoul(s.substr(i, 2), nullptr, 16)));
    return out;
}

/// Reads an unsigned manifest value given as a number or a "0x..." string.
std::uint64_t get_uint(const json& j, const char* key, std::uint64_t fallback) {
    if (!j.contains(key)) return fallback;
    const json& v = j.at(key);
    if (v.is_string()) return std::stoull(v.get<std::string>(), nullptr, 0);
    return v.get<std::uint64_t>();
}

std::int64_t get_int(const json& j, const char* key, std::int64_t fallback) {
    if (!j.contains(key)) return fallback;
    const json& v = j.at(key);
    if (v.is_string()) return std::stoll(v.get<std::string>(), nullptr, 0);
    return v.get<std::int64_t>();
}

// ---- DCX header <-> JSON ------------------------------------------------------------

json dcx_json(const dcx::Header& h) {
    return {{"variant", dcx::variant_name(h.variant)},
            {"codec", std::string(h.codec, strnlen(h.codec, 4))},
            {"level", h.level()},
            {"uncompressed_size", h.uncompressed_size},
            {"compressed_size", h.compressed_size},
            {"trailing_padding", h.trailing_padding},
            {"version", hex(h.version)},
            {"dcs_offset", hex(h.dcs_offset)},
            {"dcp_offset", hex(h.dcp_offset)},
            {"field10", hex(h.field10)},
            {"field14", hex(h.field14)},
            {"dcp_size", hex(h.dcp_size)},
            {"level_word", hex(h.level_word)},
            {"field34", hex(h.field34)},
            {"field38", hex(h.field38)},
            {"field3c", hex(h.field3c)},
            {"field40", hex(h.field40)},
            {"dca_size", hex(h.dca_size)},
            {"nonstandard", dcx::nonstandard_fields(h)}};
}

dcx::Header dcx_from_json(const json& j) {
    dcx::Header h = dcx::standard_header(dcx::parse_variant_name(j.at("variant").get<std::string>()));
    h.version = static_cast<std::uint32_t>(get_uint(j, "version", h.version));
    h.dcs_offset = static_cast<std::uint32_t>(get_uint(j, "dcs_offset", h.dcs_offset));
    h.dcp_offset = static_cast<std::uint32_t>(get_uint(j, "dcp_offset", h.dcp_offset));
    h.field10 = static_cast<std::uint32_t>(get_uint(j, "field10", h.field10));
    h.field14 = static_cast<std::uint32_t>(get_uint(j, "field14", h.field14));
    h.dcp_size = static_cast<std::uint32_t>(get_uint(j, "dcp_size", h.dcp_size));
    h.level_word = static_cast<std::uint32_t>(get_uint(j, "level_word", h.level_word));
    h.field34 = static_cast<std::uint32_t>(get_uint(j, "field34", h.field34));
    h.field38 = static_cast<std::uint32_t>(get_uint(j, "field38", h.field38));
    h.field3c = static_cast<std::uint32_t>(get_uint(j, "field3c", h.field3c));
    h.field40 = static_cast<std::uint32_t>(get_uint(j, "field40", h.field40));
    return h;
}

// ---- BND4 header <-> JSON -----------------------------------------------------------

std::string format_names(std::uint8_t f) {
    std::string s;
    auto add = [&](std::uint8_t bit, const char* name) {
        if (f & bit) s += (s.empty() ? "" : ", ") + std::string(name);
    };
    add(bnd4::kBigEndian, "big-endian");
    add(bnd4::kIds, "IDs");
    add(bnd4::kNames1, "names1");
    add(bnd4::kNames2, "names2");
    add(bnd4::kLongOffsets, "long offsets");
    add(bnd4::kCompression, "uncompressed sizes");
    add(bnd4::kFlag6, "flag6");
    add(bnd4::kFlag7, "flag7");
    return s.empty() ? "none" : s;
}

json bnd4_json(const bnd4::Header& h) {
    json j = {{"version", h.version_string()},
              {"unk04", h.unk04},
              {"unk05", h.unk05},
              {"big_endian", h.big_endian},
              {"bit_big_endian", h.bit_big_endian},
              {"unicode", h.unicode},
              {"format_raw", hex(h.format_raw)},
              {"format", hex(h.format())},
              {"format_names", format_names(h.format())},
              {"extended", h.extended}};
    bnd4::Header check;
    check.set_version(h.version_string());
    if (check.version != h.version) j["version_hex"] = to_hex_bytes(h.version);
    // Bytes that are zero in every known file: listed only when they are not.
    if (h.zero06 != std::array<std::uint8_t, 3>{}) j["zero06_hex"] = to_hex_bytes(h.zero06);
    if (h.zero0b) j["zero0b"] = h.zero0b;
    if (h.zero33) j["zero33"] = h.zero33;
    if (h.zero34) j["zero34"] = h.zero34;
    if (h.unused_hash_offset) j["unused_hash_offset"] = h.unused_hash_offset;
    return j;
}

bnd4::Header bnd4_from_json(const json& j) {
    bnd4::Header h;
    h.set_version(j.value("version", std::string("07D7R6")));
    if (j.contains("version_hex")) {
        auto v = from_hex_bytes(j.at("version_hex").get<std::string>());
        if (v.size() != 8) throw Error("manifest: bnd4.version_hex must be 8 bytes");
        std::copy(v.begin(), v.end(), h.version.begin());
    }
    h.unk04 = static_cast<std::uint8_t>(get_uint(j, "unk04", 0));
    h.unk05 = static_cast<std::uint8_t>(get_uint(j, "unk05", 0));
    h.big_endian = static_cast<std::uint8_t>(get_uint(j, "big_endian", 0));
    h.bit_big_endian = static_cast<std::uint8_t>(get_uint(j, "bit_big_endian", 1));
    h.unicode = static_cast<std::uint8_t>(get_uint(j, "unicode", 1));
    h.format_raw = static_cast<std::uint8_t>(get_uint(j, "format_raw", 0x74));
    h.extended = static_cast<std::uint8_t>(get_uint(j, "extended", 4));
    if (j.contains("zero06_hex")) {
        auto v = from_hex_bytes(j.at("zero06_hex").get<std::string>());
        if (v.size() != 3) throw Error("manifest: bnd4.zero06_hex must be 3 bytes");
        std::copy(v.begin(), v.end(), h.zero06.begin());
    }
    h.zero0b = static_cast<std::uint8_t>(get_uint(j, "zero0b", 0));
    h.zero33 = static_cast<std::uint8_t>(get_uint(j, "zero33", 0));
    h.zero34 = static_cast<std::uint32_t>(get_uint(j, "zero34", 0));
    h.unused_hash_offset = get_int(j, "unused_hash_offset", 0);
    return h;
}

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
        fmt::print("{}\n", j.dump(1));
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
               h.version_string(), hex(h.format_raw), format_names(h.format()), h.unicode ? "UTF-16" : "Shift-JIS",
               f.binder().has_hash_table() ? "hash table" : "no hash table");
    fmt::print("  {:>6} {:>10} {:>10} {:>5}  {}\n", "index", "id", "size", "flags", "name");
    for (std::size_t i = 0; i < f.entries().size(); ++i) {
        const auto& e = f.entries()[i];
        fmt::print("  {:>6} {:>10} {:>10} {:>5}  {}\n", e.index, e.id, e.data.size(),
                   hex(f.binder().entries[i].flags_raw), e.name);
    }
}

// ---- unpack / pack ------------------------------------------------------------------

/// A safe file name for an entry: its name without folders, made unique in the folder.
std::string entry_file_name(const std::string& name, std::size_t index, std::set<std::string>& used) {
    std::string base = name.substr(name.find_last_of("\\/") == std::string::npos ? 0 : name.find_last_of("\\/") + 1);
    for (char& c : base)
        if (static_cast<unsigned char>(c) < 0x20 || c == ':' || c == '*' || c == '?' || c == '"' || c == '<' ||
            c == '>' || c == '|')
            c = '_';
    if (base.empty() || base == "." || base == "..") base = fmt::format("entry_{}.bin", index);
    auto key = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    if (used.count(key(base)) || key(base) == kManifestName) base = fmt::format("{}_{}", index, base);
    used.insert(key(base));
    return base;
}

void run_unpack(const std::string& path, const std::string& dir) {
    const auto f = open_file(path);
    fs::create_directories(dir);
    json m = {{"navlab_manifest", kManifestVersion}, {"source", fs::path(path).filename().string()}};
    m["dcx"] = f.dcx ? dcx_json(*f.dcx) : json(nullptr);
    m["bnd4"] = f.is_binder ? bnd4_json(f.binder().header) : json(nullptr);
    m["entries"] = json::array();
    std::set<std::string> used;
    for (std::size_t i = 0; i < f.entries().size(); ++i) {
        const auto& e = f.entries()[i];
        json j = {{"id", e.id}, {"name", e.name}};
        j["file"] = entry_file_name(e.name, i, used);
        if (f.is_binder) {
            const auto& header = f.binder().header;
            const auto& be = f.binder().entries[i];
            j["flags_raw"] = hex(be.flags_raw);
            // The raw name is recorded only when the UTF-8 text does not encode back to it.
            std::vector<std::uint8_t> again;
            try {
                again = bnd4::encode_name(e.name, header.unicode);
            } catch (const Error&) {
            }
            if (again != be.name_raw) j["name_hex"] = to_hex_bytes(be.name_raw);
            if (be.field04 != -1) j["field04"] = be.field04;
            if (be.uncompressed_size >= 0 && be.uncompressed_size != static_cast<std::int64_t>(e.data.size()))
                j["uncompressed_size"] = be.uncompressed_size;
            if (be.names1_extra || be.names1_zero) j["names1"] = {be.names1_extra, be.names1_zero};
        }
        write_file_atomic(fs::path(dir) / j["file"].get<std::string>(), e.data);
        m["entries"].push_back(std::move(j));
    }
    write_file_atomic(fs::path(dir) / kManifestName, m.dump(1) + "\n");
    fmt::print("{}: {} entries unpacked to {}\n", path, f.entries().size(), dir);
}

bnd4::Entry entry_from_manifest(const json& j, const fs::path& dir, const bnd4::Header& header) {
    bnd4::Entry e;
    e.id = static_cast<std::int32_t>(get_int(j, "id", 0));
    e.name = j.value("name", std::string());
    e.name_raw = j.contains("name_hex") ? from_hex_bytes(j.at("name_hex").get<std::string>())
                                        : bnd4::encode_name(e.name, header.unicode);
    e.flags_raw = static_cast<std::uint8_t>(get_uint(j, "flags_raw", bnd4::kStandardEntryFlags));
    e.field04 = static_cast<std::int32_t>(get_int(j, "field04", -1));
    e.uncompressed_size = get_int(j, "uncompressed_size", -1);
    if (j.contains("names1")) {
        e.names1_extra = j.at("names1").at(0).get<std::int32_t>();
        e.names1_zero = j.at("names1").at(1).get<std::int32_t>();
    }
    e.set_data(read_file(dir / j.at("file").get<std::string>()));
    return e;
}

void run_pack(const std::string& dir, const std::string& out) {
    const fs::path manifest_path = fs::path(dir) / kManifestName;
    json m;
    try {
        const auto text = read_file(manifest_path);
        m = json::parse(text.begin(), text.end());
        if (m.value("navlab_manifest", 0) != kManifestVersion)
            throw Error(fmt::format("not a navlab manifest (version {} expected)", kManifestVersion));
        std::vector<std::uint8_t> payload;
        if (!m.at("bnd4").is_null()) {
            bnd4::Binder b;
            b.header = bnd4_from_json(m.at("bnd4"));
            std::size_t i = 0;
            for (const auto& j : m.at("entries")) {
                try {
                    b.entries.push_back(entry_from_manifest(j, dir, b.header));
                } catch (Error& e) {
                    throw e.in(fmt::format("entry {}", i));
                }
                ++i;
            }
            payload = bnd4::write(b);
        } else {
            if (m.at("entries").size() != 1) throw Error("a non-binder manifest must list exactly one entry");
            payload = read_file(fs::path(dir) / m.at("entries").at(0).at("file").get<std::string>());
        }
        std::vector<std::uint8_t> file = payload;
        if (!m.at("dcx").is_null()) {
            const dcx::Header keep = dcx_from_json(m.at("dcx"));
            file = dcx::compress(payload, keep.variant, &keep);
        }
        write_file_atomic(out, file);
        fmt::print("{}: packed {} entries ({} bytes)\n", out, m.at("entries").size(), file.size());
    } catch (Error& e) {
        e.set_file(manifest_path.string());
        throw;
    } catch (const json::exception& e) {
        Error err(std::string("manifest: ") + e.what());
        err.set_file(manifest_path.string());
        throw err;
    }
}

// ---- dcx ----------------------------------------------------------------------------

void run_dcx_info(const std::string& path, bool as_json) {
    const InputFile in(path);
    dcx::Header h;
    try {
        h = dcx::read_header(in.bytes());
    } catch (Error& e) {
        e.set_file(path);
        throw;
    }
    // For DCX/DCP forms the header alone does not say how much padding follows the stream.
    if (h.variant != dcx::Variant::None && h.variant != dcx::Variant::Zlib && h.variant != dcx::Variant::DcpEdge &&
        h.variant != dcx::Variant::DcpDflt) {
        const std::uint64_t end = 0x44ull + h.dca_size + h.compressed_size;
        h.trailing_padding = end <= in.bytes().size() ? static_cast<std::uint32_t>(in.bytes().size() - end) : 0;
    }
    if (as_json) {
        json j = dcx_json(h);
        j["file"] = fs::path(path).filename().string();
        j["file_size"] = in.bytes().size();
        fmt::print("{}\n", j.dump(1));
        return;
    }
    fmt::print("{}\n  variant            {}\n", path, dcx::variant_name(h.variant));
    if (h.variant == dcx::Variant::None) {
        fmt::print("  not compressed ({} bytes)\n", in.bytes().size());
        return;
    }
    if (h.variant == dcx::Variant::Zlib) {
        fmt::print("  bare zlib stream of {} bytes (no declared size)\n", in.bytes().size());
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

dcx::Decoded decompress_file(const std::string& path, const InputFile& in) {
    try {
        return dcx::decompress(in.bytes());
    } catch (Error& e) {
        e.set_file(path);
        throw;
    }
}

void run_dcx_decompress(const std::string& in_path, const std::string& out) {
    const InputFile in(in_path);
    const auto d = decompress_file(in_path, in);
    write_file_atomic(out, d.payload);
    fmt::print("{}: {} -> {} bytes ({})\n", out, in.bytes().size(), d.payload.size(), dcx::variant_name(d.header.variant));
}

void run_dcx_compress(const std::string& in_path, const std::string& out, const std::string& variant_name) {
    const InputFile in(in_path);
    const auto d = decompress_file(in_path, in);
    const bool was_compressed = d.header.variant != dcx::Variant::None;
    dcx::Variant v = variant_name.empty() ? (was_compressed ? d.header.variant : dcx::Variant::Krak)
                                          : dcx::parse_variant_name(variant_name);
    const auto bytes = dcx::compress(d.payload, v, was_compressed ? &d.header : nullptr);
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
        "  DCX variant and header constants (KRAK as stored Kraken blocks, DFLT with zlib level 9).\n"
        "Example: navlab pack m10 m10_00_00_00.nvmhktbnd.dcx");
    pack->add_option("dir", a->input, "Folder made by navlab unpack")->required();
    pack->add_option("out", a->output, "Output file")->required();
    pack->callback([a] { run_pack(a->input, a->output); });

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
        "  constants, and a plain file becomes DCX_KRAK (stored Kraken blocks, level 6).\n"
        "Variants: " + variant_list() + " (also DCX_KRAK_6, DCX_KRAK_9, DFLT, KRAK, ZSTD, EDGE).\n"
        "Example: navlab dcx compress m10_00_00_00.nvmhktbnd m10_00_00_00.nvmhktbnd.dcx --variant DCX_DFLT_11000_44_9");
    com->add_option("in", a->input, "Input file")->required();
    com->add_option("out", a->output, "Output file")->required();
    com->add_option("--variant", a->variant, "DCX variant name (default: keep, or DCX_KRAK)");
    com->add_flag("--force", a->force, "Allow the output to be the input file itself (replaced atomically)");
    com->callback([a] {
        refuse_overwriting_input(a->input, a->output, a->force);
        run_dcx_compress(a->input, a->output, a->variant);
    });
}

}  // namespace navlab::cli
