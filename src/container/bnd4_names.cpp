// BND4 entry names: encodings, the §2.6 path hash, and building new navmesh binders.
#include <fmt/format.h>

#include <algorithm>

#include "container/bnd4.h"
#include "container/text.h"
#include "io/error.h"

namespace navlab::bnd4 {
namespace {

/// Simple (one-to-one) lower-case mapping per UTF-16 code unit for the scripts a file
/// name plausibly uses; every real sample only ever needs ASCII.
char16_t lower(char16_t c) {
    if (c < 0x80) return c >= 'A' && c <= 'Z' ? static_cast<char16_t>(c + 0x20) : c;
    if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3AB && c != 0x3A2) ||
        (c >= 0x410 && c <= 0x42F) || (c >= 0xFF21 && c <= 0xFF3A))
        return static_cast<char16_t>(c + 0x20);
    if (c >= 0x400 && c <= 0x40F) return static_cast<char16_t>(c + 0x50);
    if (((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177)) && c % 2 == 0) return static_cast<char16_t>(c + 1);
    if (((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) && c % 2 == 1) return static_cast<char16_t>(c + 1);
    if (c == 0x178) return 0xFF;
    return c;
}

bool is_prime(std::uint32_t n) {
    if (n < 2) return false;
    for (std::uint32_t d = 2; d * d <= n; ++d)
        if (n % d == 0) return false;
    return true;
}

}  // namespace

std::uint32_t path_hash(std::u16string_view name) {
    std::uint32_t h = 0;
    if (name.empty() || (name[0] != u'/' && name[0] != u'\\')) h = u'/';
    for (char16_t c : name) h = h * 37 + (c == u'\\' ? u'/' : lower(c));
    return h;
}

std::uint32_t path_hash_utf8(std::string_view name) { return path_hash(text::utf8_to_utf16(name)); }

std::uint32_t hash_group_count(std::size_t n) {
    std::uint32_t g = static_cast<std::uint32_t>(std::max<std::size_t>(2, n / 7));
    while (!is_prime(g)) ++g;
    return g;
}

std::string decode_name(Bytes raw, bool unicode) {
    return unicode ? text::utf16_to_utf8(text::utf16le_units(raw)) : text::sjis_to_utf8(raw);
}

std::vector<std::uint8_t> encode_name(std::string_view utf8, bool unicode) {
    std::vector<std::uint8_t> out;
    if (unicode) {
        for (char16_t u : text::utf8_to_utf16(utf8)) {
            if (u == 0) throw Error("an entry name cannot contain NUL");
            out.push_back(static_cast<std::uint8_t>(u & 0xFF));
            out.push_back(static_cast<std::uint8_t>(u >> 8));
        }
    } else {
        const std::string sjis = text::utf8_to_sjis(utf8);
        if (sjis.find('\0') != std::string::npos) throw Error("an entry name cannot contain NUL");
        out.assign(sjis.begin(), sjis.end());
    }
    return out;
}

Binder build_navmesh_binder(std::vector<NewEntry> files) {
    Binder b;
    b.header.set_version("07D7R6");
    b.header.set_format(kIds | kNames1 | kNames2 | kCompression);  // disk 0x74
    std::stable_sort(files.begin(), files.end(), [](const NewEntry& a, const NewEntry& c) { return a.id < c.id; });
    for (auto& f : files) {
        Entry e;
        e.id = f.id;
        e.name_raw = encode_name(f.name, true);
        e.name = std::move(f.name);
        e.uncompressed_size = static_cast<std::int64_t>(f.data.size());
        e.set_data(std::move(f.data));
        b.entries.push_back(std::move(e));
    }
    return b;
}

std::string er_navmesh_entry_name(std::string_view map, std::string_view file) {
    return fmt::format("N:\\GR\\data\\INTERROOT_win64\\map\\m{}\\navimesh\\bind6\\{}", map, file);
}

}  // namespace navlab::bnd4
