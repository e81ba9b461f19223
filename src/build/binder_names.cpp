#include "build/binder_names.h"

#include <fmt/format.h>

#include <cctype>

#include "container/bnd4.h"

namespace navlab::build {

bool is_map_name(const std::string& map) {
    if (map.size() != 12 || map[0] != 'm') return false;
    for (std::size_t i = 1; i < 12; ++i) {
        const bool underscore = i % 3 == 0;
        if (underscore ? map[i] != '_' : !std::isdigit(static_cast<unsigned char>(map[i]))) return false;
    }
    return true;
}

std::string navmesh_archive_path(FromGame game, const std::string& map) {
    if (game == FromGame::Sekiro) return fmt::format("/map/{0}/{0}.nvmhktbnd.dcx", map);
    return fmt::format("/map/{}/{}/{}.nvmhktbnd.dcx", map.substr(0, 3), map, map);
}

std::string navmesh_member_name(FromGame game, const std::string& map, char prefix, int model) {
    const std::string file = fmt::format("{}{}_{:06}.hkx", prefix, map.substr(1), model);
    if (game == FromGame::EldenRing) return bnd4::er_navmesh_entry_name(map.substr(1), file);
    return fmt::format("N:\\NTC\\data\\Target\\INTERROOT_win64\\map\\{}\\navimesh\\bind6\\{}", map, file);
}

}  // namespace navlab::build
