#include "container/manifest.h"

#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <set>

#include "io/error.h"
#include "io/file.h"
#include "io/json_as.h"
#include "io/json_text.h"
#include "io/text.h"

namespace navlab::container {
namespace {

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

constexpr int kManifestVersion = 1;

std::string to_hex_bytes(Bytes b) {
    std::string s;
    for (auto c : b) s += fmt::format("{:02x}", c);
    return s;
}

std::vector<std::uint8_t> from_hex_bytes(const std::string& s) {
    if (s.size() % 2) throw Error(fmt::format("hex string \"{}\" has an odd length", s));
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i < s.size(); i += 2) {
        std::uint8_t byte = 0;
        const auto [end, ec] = std::from_chars(s.data() + i, s.data() + i + 2, byte, 16);
        if (ec != std::errc() || end != s.data() + i + 2)
            throw Error(fmt::format("hex string \"{}\" has a non-hex digit at character {}", s, i));
        out.push_back(byte);
    }
    return out;
}

/// A manifest number of type T, given as a JSON integer or as text ("0x1F", "-1": base 16
/// with 0x, else 10), refused unless T holds it exactly.
template <class T>
T get_number(const json& j, const char* key, T fallback) {
    if (!j.is_object()) throw Error(fmt::format("{} is not an object", json_shown(j)));
    if (!j.contains(key)) return fallback;
    const json& v = j.at(key);
    try {
        if (!v.is_string()) return json_as<T>(v);
        const std::string& text = v.get_ref<const std::string&>();
        const std::size_t sign = !text.empty() && text[0] == '-' ? 1 : 0;
        const bool negative = sign == 1;
        const bool hex_digits = text.size() > 2 + sign && text[sign] == '0' && (text[sign + 1] | 0x20) == 'x';
        const char* first = text.data() + sign + (hex_digits ? 2 : 0);
        std::uint64_t magnitude = 0;
        const auto [end, ec] = std::from_chars(first, text.data() + text.size(), magnitude, hex_digits ? 16 : 10);
        if (ec != std::errc() || end != text.data() + text.size() || first == end)
            throw Error(fmt::format("\"{}\" is not a number (decimal, or hex with 0x)", text));
        if (negative && magnitude > std::uint64_t{1} << 63)
            throw Error(fmt::format("\"{}\" is below the smallest 64-bit integer", text));
        return json_as<T>(negative ? json(std::int64_t(0 - magnitude)) : json(magnitude));
    } catch (Error& e) {
        throw e.in(key);
    }
}

/// Longest file name unpack writes: file systems take 255 bytes (NAME_MAX), less the room the
/// "INDEX_" prefix of a repeated name may add. A longer name (a damaged binder's, thousands of
/// bytes) is written as entry_INDEX.bin; the manifest keeps the real name either way.
constexpr std::size_t kMaxFileName = 240;

/// A safe file name for an entry: its name without folders, made unique in the folder.
std::string entry_file_name(const std::string& name, std::size_t index, std::set<std::string>& used) {
    std::string base(leaf_name(name));
    for (char& c : base)
        if (static_cast<unsigned char>(c) < 0x20 || c == ':' || c == '*' || c == '?' || c == '"' || c == '<' ||
            c == '>' || c == '|')
            c = '_';
    if (base.empty() || base == "." || base == ".." || base.size() > kMaxFileName)
        base = fmt::format("entry_{}.bin", index);
    if (used.count(to_lower(base)) || to_lower(base) == kManifestName) base = fmt::format("{}_{}", index, base);
    used.insert(to_lower(base));
    return base;
}

/// A manifest section that must be there and be an object ("dcx" and "bnd4" may be null).
const json& section(const json& m, const char* key) {
    if (!m.contains(key)) throw Error("is missing", kNoOffset, key);
    const json& v = m.at(key);
    if (!v.is_null() && !v.is_object()) throw Error(fmt::format("{} is not an object or null", json_shown(v)), kNoOffset, key);
    return v;
}

/// Where an entry's bytes are: `file` below `dir`. An absolute path or a ".." would let a
/// manifest pack any file of the machine into the binder; unpack writes plain names only.
fs::path entry_path(const fs::path& dir, const json& entry) {
    const std::string file = json_field<std::string>(entry, "file");
    const fs::path relative(file);
    bool outside = file.empty() || relative.is_absolute();
    for (const auto& part : relative) outside |= part == "..";
    if (outside)
        throw Error(fmt::format("\"{}\" is not a file inside the folder: give its name, or a path below the folder "
                                "without \"..\"",
                                file),
                    kNoOffset, "file");
    return dir / relative;
}

bnd4::Entry entry_from_manifest(const json& j, const fs::path& dir, const bnd4::Header& header) {
    bnd4::Entry e;
    e.id = get_number<std::int32_t>(j, "id", 0);
    e.name = json_field<std::string>(j, "name", std::string());
    e.name_raw = j.contains("name_hex") ? from_hex_bytes(json_field<std::string>(j, "name_hex"))
                                        : bnd4::encode_name(e.name, header.unicode);
    e.flags_raw = get_number<std::uint8_t>(j, "flags_raw", bnd4::kStandardEntryFlags);
    e.field04 = get_number<std::int32_t>(j, "field04", -1);
    e.uncompressed_size = get_number<std::int64_t>(j, "uncompressed_size", -1);
    if (j.contains("names1")) {
        const auto names1 = json_field<std::array<std::int32_t, 2>>(j, "names1");
        e.names1_extra = names1[0], e.names1_zero = names1[1];
    }
    e.set_data(read_file(entry_path(dir, j)));
    return e;
}

}  // namespace

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
    dcx::Header h;
    try {
        h = dcx::standard_header(dcx::parse_variant_name(json_field<std::string>(j, "variant")));
    } catch (Error& e) {
        throw e.field().empty() ? e.in("variant") : e;
    }
    h.version = get_number<std::uint32_t>(j, "version", h.version);
    h.dcs_offset = get_number<std::uint32_t>(j, "dcs_offset", h.dcs_offset);
    h.dcp_offset = get_number<std::uint32_t>(j, "dcp_offset", h.dcp_offset);
    h.field10 = get_number<std::uint32_t>(j, "field10", h.field10);
    h.field14 = get_number<std::uint32_t>(j, "field14", h.field14);
    h.dcp_size = get_number<std::uint32_t>(j, "dcp_size", h.dcp_size);
    h.level_word = get_number<std::uint32_t>(j, "level_word", h.level_word);
    h.field34 = get_number<std::uint32_t>(j, "field34", h.field34);
    h.field38 = get_number<std::uint32_t>(j, "field38", h.field38);
    h.field3c = get_number<std::uint32_t>(j, "field3c", h.field3c);
    h.field40 = get_number<std::uint32_t>(j, "field40", h.field40);
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
    try {
        h.set_version(json_field<std::string>(j, "version", "07D7R6"));
    } catch (Error& e) {
        throw e.field().empty() ? e.in("version") : e;
    }
    if (j.contains("version_hex")) {
        auto v = from_hex_bytes(json_field<std::string>(j, "version_hex"));
        if (v.size() != 8) throw Error("must be 8 bytes", kNoOffset, "version_hex");
        std::copy(v.begin(), v.end(), h.version.begin());
    }
    h.unk04 = get_number<std::uint8_t>(j, "unk04", 0);
    h.unk05 = get_number<std::uint8_t>(j, "unk05", 0);
    h.big_endian = get_number<std::uint8_t>(j, "big_endian", 0);
    h.bit_big_endian = get_number<std::uint8_t>(j, "bit_big_endian", 1);
    h.unicode = get_number<std::uint8_t>(j, "unicode", 1);
    h.format_raw = get_number<std::uint8_t>(j, "format_raw", 0x74);
    h.extended = get_number<std::uint8_t>(j, "extended", 4);
    if (j.contains("zero06_hex")) {
        auto v = from_hex_bytes(json_field<std::string>(j, "zero06_hex"));
        if (v.size() != 3) throw Error("must be 3 bytes", kNoOffset, "zero06_hex");
        std::copy(v.begin(), v.end(), h.zero06.begin());
    }
    h.zero0b = get_number<std::uint8_t>(j, "zero0b", 0);
    h.zero33 = get_number<std::uint8_t>(j, "zero33", 0);
    h.zero34 = get_number<std::uint32_t>(j, "zero34", 0);
    h.unused_hash_offset = get_number<std::int64_t>(j, "unused_hash_offset", 0);
    return h;
}

std::size_t unpack(const BinderFile& f, const std::string& source, const fs::path& dir) {
    fs::create_directories(dir);
    json m = {{"navlab_manifest", kManifestVersion}, {"source", source}};
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
        write_file_atomic(dir / j["file"].get<std::string>(), e.data);
        m["entries"].push_back(std::move(j));
    }
    write_file_atomic(dir / kManifestName, json_text(m, 1) + "\n");
    return f.entries().size();
}

namespace {

/// Runs read(manifest) on `dir`'s parsed manifest; its errors carry the manifest's path.
template <class Read>
auto with_manifest(const fs::path& dir, Read&& read) {
    const fs::path manifest_path = dir / kManifestName;
    try {
        const auto text = read_file(manifest_path);
        const json m = json_parse<json>(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()));
        if (!m.is_object() || json_field<int>(m, "navlab_manifest", 0) != kManifestVersion)
            throw Error(fmt::format("not a navlab manifest (version {} expected)", kManifestVersion));
        return read(m);
    } catch (Error& e) {
        e.set_file(manifest_path.string());
        throw;
    } catch (const json::exception& e) {  // kept as a net: every read is checked
        Error err(std::string("manifest: ") + e.what());
        err.set_file(manifest_path.string());
        throw err;
    }
}

/// The manifest's DCX header, or nullopt for an uncompressed file.
std::optional<dcx::Header> manifest_dcx(const json& m) {
    const json& dcx_section = section(m, "dcx");
    if (dcx_section.is_null()) return std::nullopt;
    try {
        return dcx_from_json(dcx_section);
    } catch (Error& e) {
        throw e.in("dcx");
    }
}

}  // namespace

dcx::Variant manifest_variant(const fs::path& dir) {
    return with_manifest(dir, [](const json& m) {
        const std::optional<dcx::Header> header = manifest_dcx(m);
        return header ? header->variant : dcx::Variant::None;
    });
}

Packed pack(const fs::path& dir, int kraken_level, const PackProgress& progress) {
    return with_manifest(dir, [&](const json& m) -> Packed {
        const json& bnd4_section = section(m, "bnd4");
        section(m, "dcx");  // present, though read after the entries (errors in the order they always came)
        if (!m.contains("entries") || !m.at("entries").is_array()) throw Error("is missing or not an array", kNoOffset, "entries");
        const json& entries = m.at("entries");
        std::vector<std::uint8_t> payload;
        if (!bnd4_section.is_null()) {
            bnd4::Binder b;
            try {
                b.header = bnd4_from_json(bnd4_section);
            } catch (Error& e) {
                throw e.in("bnd4");
            }
            for (std::size_t i = 0; i < entries.size(); ++i) {
                try {
                    b.entries.push_back(entry_from_manifest(entries[i], dir, b.header));
                } catch (Error& e) {
                    throw e.in(fmt::format("entries[{}]", i));
                }
            }
            payload = bnd4::write(b);
        } else {
            if (entries.size() != 1) throw Error("a non-binder manifest must list exactly one entry", kNoOffset, "entries");
            try {
                payload = read_file(entry_path(dir, entries[0]));
            } catch (Error& e) {
                throw e.in("entries[0]");
            }
        }
        const std::optional<dcx::Header> keep = manifest_dcx(m);
        if (!keep) return {std::move(payload), entries.size()};
        if (progress.encoding && dcx::codec_name(keep->variant) == "KRAK") progress.encoding(payload.size());
        return {dcx::compress(payload, keep->variant, &*keep, kraken_level, progress.block_done), entries.size()};
    });
}

}  // namespace navlab::container
