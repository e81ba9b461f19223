#include "formats/farcry2/grid.h"

#include <fmt/format.h>

#include <cctype>

#include "io/text.h"

namespace navlab::farcry2 {
namespace {

/// Parses a run of decimal digits at the front of s (at most 5, value <= 0xFFFF); moves s past it.
std::optional<std::uint32_t> take_index(std::string_view& s) {
    std::size_t n = 0;
    std::uint32_t value = 0;
    while (n < s.size() && std::isdigit(static_cast<unsigned char>(s[n]))) {
        if (n == 5) return std::nullopt;
        value = value * 10 + static_cast<std::uint32_t>(s[n] - '0');
        ++n;
    }
    if (n == 0 || value > 0xFFFF) return std::nullopt;
    s.remove_prefix(n);
    return value;
}

bool take(std::string_view& s, std::string_view prefix) {
    if (!s.starts_with(prefix)) return false;
    s.remove_prefix(prefix.size());
    return true;
}

}  // namespace

Box2 sector_cell(std::uint32_t id) {
    const float x = static_cast<float>(sector_column(id)) * kSectorMetres;
    const float y = static_cast<float>(sector_row(id)) * kSectorMetres;
    return {x, y, x + kSectorMetres, y + kSectorMetres};
}

std::string sector_file_name(std::uint32_t index, SectorNaming naming) {
    return naming == SectorNaming::Satellite ? fmt::format("nv_{}.nvm", index)
                                             : fmt::format("nv{}_{}.nvm", index, index);
}

std::string sector_path(std::uint32_t index, SectorNaming naming) {
    return (naming == SectorNaming::Satellite ? "nv\\sectors\\" : "nv\\") + sector_file_name(index, naming);
}

std::optional<std::uint32_t> parse_sector_file_name(std::string_view file_name) {
    const std::string name = to_lower(file_name);
    std::string_view s = name;
    if (!take(s, "nv")) return std::nullopt;
    if (take(s, "_")) {  // nv_<index>.nvm
        auto index = take_index(s);
        return index && s == ".nvm" ? index : std::nullopt;
    }
    auto first = take_index(s);  // nv<index>_<index>.nvm
    if (!first || !take(s, "_")) return std::nullopt;
    auto second = take_index(s);
    return second && *second == *first && s == ".nvm" ? first : std::nullopt;
}

bool is_level_file_name(std::string_view file_name) { return to_lower(file_name) == kLevelFileName; }

}  // namespace navlab::farcry2
