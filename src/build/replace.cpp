#include "build/replace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "codec/dcx.h"
#include "container/bnd4.h"
#include "io/error.h"
#include "io/text.h"

namespace navlab::build {
namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// A new member's name goes after the folder of member 0 as it is: a folder separator, a ".."
/// or a control byte would make a member no game path reaches (and that unpack cannot name).
void check_new_file_name(const std::string& entry) {
    const bool plain = !entry.empty() && entry != "." && entry != ".." &&
                       std::none_of(entry.begin(), entry.end(), [](char c) {
                           const auto u = static_cast<unsigned char>(c);
                           return c == '/' || c == '\\' || u < 0x20 || u == 0x7F;
                       });
    if (!plain)
        throw Error("no member has this name, and it cannot name a new one: give a plain file name (no folder, no "
                    "control character), e.g. n10_00_00_00_001000.hkx",
                    kNoOffset, "entry " + entry);
}

/// Index of the member `entry` names, or std::nullopt for a new file name.
std::optional<std::size_t> find_member(const bnd4::Binder& b, const std::string& entry) {
    if (!entry.empty() && std::all_of(entry.begin(), entry.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
        std::size_t i = 0;
        const auto [end, ec] = std::from_chars(entry.data(), entry.data() + entry.size(), i);
        if (ec != std::errc() || i >= b.entries.size())
            throw Error(fmt::format("index {} out of range ({} members)", entry, b.entries.size()), kNoOffset, "entry " + entry);
        return i;
    }
    std::optional<std::size_t> found;
    const bool full = entry.find_first_of("\\/") != std::string::npos;
    for (std::size_t i = 0; i < b.entries.size(); ++i) {
        const std::string& name = b.entries[i].name;
        if (lower(full ? name : std::string(leaf_name(name))) != lower(entry)) continue;
        if (found) throw Error("more than one member has this name; give its index", kNoOffset, "entry " + entry);
        found = i;
    }
    return found;
}

}  // namespace

ReplaceResult replace_member(std::span<const std::uint8_t> file, const std::string& entry,
                             std::optional<std::vector<std::uint8_t>> data) {
    const dcx::Decoded decoded = dcx::decompress(file);
    bnd4::Binder binder;
    try {
        binder = bnd4::read(decoded.payload);
    } catch (Error& e) {
        if (decoded.header.variant != dcx::Variant::None) e.in("DCX payload");  // as BinderFile says it
        throw;
    }
    const auto at = find_member(binder, entry);
    ReplaceResult r;
    if (!data) {
        if (!at) throw Error("no member has this name (nothing to remove)", kNoOffset, "entry " + entry);
        r.action = "removed", r.name = binder.entries[*at].name, r.id = binder.entries[*at].id;
        binder.entries.erase(binder.entries.begin() + static_cast<std::ptrdiff_t>(*at));
    } else if (at) {
        r.action = "replaced", r.name = binder.entries[*at].name, r.id = binder.entries[*at].id;
        binder.entries[*at].set_data(std::move(*data));
    } else {
        if (binder.entries.empty()) throw Error("the binder has no member to take a folder from", kNoOffset, "entry " + entry);
        check_new_file_name(entry);
        const std::string& first = binder.entries[0].name;
        const std::string folder = first.substr(0, first.size() - leaf_name(first).size());
        const bool lo = !entry.empty() && (entry[0] == 'o' || entry[0] == 'O');
        std::int32_t id = lo ? 20000 : 10000;
        for (const auto& e : binder.entries)
            if ((e.id >= 20000) == lo && e.id >= id) id = e.id + 1;
        // The new record gets the flags and encoded name FromSoftware's layout gives a member.
        bnd4::Binder one = bnd4::build_navmesh_binder({{folder + entry, id, std::move(*data)}});
        bnd4::Entry added = std::move(one.entries[0]);
        added.flags_raw = binder.entries[0].flags_raw;
        const auto pos = std::find_if(binder.entries.begin(), binder.entries.end(), [&](const bnd4::Entry& e) { return e.id > id; });
        r.action = "added", r.name = added.name, r.id = id;
        binder.entries.insert(pos, std::move(added));
    }
    r.members = binder.entries.size();
    const std::vector<std::uint8_t> image = bnd4::write(binder);
    r.file = decoded.header.variant == dcx::Variant::None ? image : dcx::compress(image, decoded.header.variant, &decoded.header);
    return r;
}

}  // namespace navlab::build
