#include "container/archive/navmesh_search.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "container/archive/path_hash.h"
#include "io/error.h"
#include "io/file.h"

namespace navlab::archive {

std::vector<std::string> navmesh_candidate_ids(Game game) {
    std::vector<std::string> ids;
    ids.reserve(game == Game::Sekiro ? 20000 : 129800);
    for (int aa = 0; aa < 100; ++aa) {
        for (int bb = 0; bb < 100; ++bb) {
            if (game == Game::Sekiro) {
                ids.push_back(fmt::format("m{:02}_{:02}_00_00", aa, bb));
                ids.push_back(fmt::format("m{:02}_{:02}_00_99", aa, bb));
            } else if (aa == 60 || aa == 61) {
                for (int cc = 0; cc < 100; ++cc)
                    for (int dd : {0, 1, 2, 10, 11, 12}) ids.push_back(fmt::format("m{:02}_{:02}_{:02}_{:02}", aa, bb, cc, dd));
            } else {
                ids.push_back(fmt::format("m{:02}_{:02}_00_00", aa, bb));
            }
        }
    }
    return ids;
}

std::string navmesh_binder_path(Game game, std::string_view id) {
    if (game == Game::Sekiro) return fmt::format("/map/{0}/{0}.nvmhktbnd.dcx", id);
    return fmt::format("/map/{0}/{1}/{1}.nvmhktbnd.dcx", id.substr(0, 3), id);
}

std::string navmesh_nva_path(Game game, std::string_view id) {
    if (game == Game::Sekiro) return fmt::format("/map/{0}/{0}.nva.dcx", id);
    return fmt::format("/map/{0}/{1}/{1}.nva.dcx", id.substr(0, 3), id);
}

std::string msb_path(std::string_view id) { return fmt::format("/map/mapstudio/{}.msb.dcx", id); }

std::vector<NamedEntry> find_navmesh_binders(const GameInstall& install) {
    const Game game = install.game();
    std::vector<NamedEntry> found;
    for (const std::string& id : navmesh_candidate_ids(game)) {
        const std::string path = navmesh_binder_path(game, id);
        for (const EntryRef& ref : install.find_path(path)) {
            // 32-bit hashes: ~0.04 false hits expected over the 20,000 candidates; the
            // sibling map file in the same archive and the DCX magic make one ~1e-7 (§6.2).
            if (game == Game::Sekiro) {
                if (!install.contains(ref.archive, path_hash(game, msb_path(id)))) continue;
                const auto magic = install.read_prefix(ref, 4);
                if (magic.size() < 4 || std::memcmp(magic.data(), "DCX\0", 4) != 0) continue;
            }
            found.push_back({path, id, ref});
        }
    }
    std::sort(found.begin(), found.end(), [](const NamedEntry& a, const NamedEntry& b) {
        return a.mapId != b.mapId ? a.mapId < b.mapId : a.ref.archive < b.ref.archive;
    });
    return found;
}

std::vector<NamedEntry> find_navmesh_siblings(const GameInstall& install, const std::vector<NamedEntry>& binders) {
    std::vector<NamedEntry> out;
    for (const NamedEntry& b : binders) {
        for (const std::string& path : {msb_path(b.mapId), navmesh_nva_path(install.game(), b.mapId)})
            for (const EntryRef& ref : install.find_path(path))
                if (ref.archive == b.ref.archive) out.push_back({path, b.mapId, ref});
    }
    return out;
}

std::vector<NamedEntry> resolve_paths(const GameInstall& install, const std::vector<std::string>& paths) {
    std::vector<NamedEntry> out;
    for (const std::string& p : paths) {
        const std::string path = normalize_archive_path(p);
        for (const EntryRef& ref : install.find_path(path)) out.push_back({path, {}, ref});
    }
    return out;
}

std::vector<std::string> read_name_list(const std::filesystem::path& file) {
    const std::vector<std::uint8_t> bytes = read_file(file);
    std::vector<std::string> names;
    std::string line;
    auto flush = [&] {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
        const auto first = line.find_first_not_of(" \t");
        if (first != std::string::npos && line[first] != '#') names.push_back(line.substr(first));
        line.clear();
    };
    for (std::uint8_t c : bytes) {
        if (c == '\n') flush();
        else line += static_cast<char>(c);
    }
    flush();
    return names;
}

}  // namespace navlab::archive
