#include "container/archive/path_hash.h"

#include <fmt/format.h>

namespace navlab::archive {

std::string normalize_archive_path(std::string_view path) {
    // An archive alias ("data5:/map/...") names the archive, not a folder: drop it (§3 step 1).
    if (const auto colon = path.find(':'); colon != std::string_view::npos) path.remove_prefix(colon + 1);
    std::string out;
    out.reserve(path.size() + 1);
    for (char c : path) {
        if (c == '\\') c = '/';
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        out += c;
    }
    const auto first = out.find_first_not_of('/');
    out.erase(0, first == std::string::npos ? out.size() : first);
    return "/" + out;
}

std::uint32_t path_hash32(std::string_view path) {
    return fold_path_hash<std::uint32_t, 37>(0, normalize_archive_path(path));
}

std::uint64_t path_hash64(std::string_view path) {
    return fold_path_hash<std::uint64_t, 133>(0, normalize_archive_path(path));
}

std::uint64_t path_hash(Game game, std::string_view path) {
    return game == Game::Sekiro ? path_hash32(path) : path_hash64(path);
}

std::string format_hash(Game game, std::uint64_t hash) {
    return game == Game::Sekiro ? fmt::format("0x{:08X}", hash) : fmt::format("0x{:016X}", hash);
}

}  // namespace navlab::archive
