// The path hash against the worked examples of spec bhd5.md §3 (computed by an independent
// implementation; the ER binder hashes appear in the real 1.0x hash list) and the candidate
// rule's sizes (§6.2).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "container/archive/navmesh_search.h"
#include "container/archive/path_hash.h"

using namespace navlab::archive;

TEST(ArchivePathHash, SpecWorkedExamples) {
    EXPECT_EQ(path_hash64("/a"), 0x18CCu);  // 47 * 133 + 97
    EXPECT_EQ(path_hash32("/a"), 0x72Cu);   // 47 * 37 + 97
    EXPECT_EQ(path_hash64("/map/m60/m60_44_36_00/m60_44_36_00.nvmhktbnd.dcx"), 0xAFAE4AE1365DCB8Eull);
    EXPECT_EQ(path_hash64("MAP\\m60\\M60_44_36_00\\m60_44_36_00.NVMHKTBND.DCX"), 0xAFAE4AE1365DCB8Eull);
    EXPECT_EQ(path_hash64("/map/m10/m10_00_00_00/m10_00_00_00.nvmhktbnd.dcx"), 0x7175D7979CB05AD1ull);
    EXPECT_EQ(path_hash64("/map/m61/m61_44_45_00/m61_44_45_00.nvmhktbnd.dcx"), 0x1CCD4273F09C4505ull);
    EXPECT_EQ(path_hash64("/map/m60_44_36_00/m60_44_36_00.nvmhktbnd.dcx"), 0x30C583BE73680E48ull);
    EXPECT_EQ(path_hash32("/map/m10_00_00_00/m10_00_00_00.nvmhktbnd.dcx"), 0xCC85AB64u);
    EXPECT_EQ(path_hash32("map\\m11_00_00_00\\m11_00_00_00.nvmhktbnd.dcx"), 0x58230BA2u);
    EXPECT_EQ(path_hash32("/map/m89_00_00_99/m89_00_00_99.nvmhktbnd.dcx"), 0x5286AE10u);
}

TEST(ArchivePathHash, Normalisation) {
    EXPECT_EQ(normalize_archive_path("data2:/map/M10/x.DCX"), "/map/m10/x.dcx");
    EXPECT_EQ(normalize_archive_path("map\\a"), "/map/a");
    EXPECT_EQ(normalize_archive_path("//map/a"), "/map/a");
    EXPECT_EQ(path_hash(Game::Sekiro, "/a"), 0x72Cu);
    EXPECT_EQ(path_hash(Game::EldenRing, "/a"), 0x18CCu);
    EXPECT_EQ(format_hash(Game::Sekiro, 0x72C), "0x0000072C");
    EXPECT_EQ(format_hash(Game::EldenRing, 0xAFAE4AE1365DCB8Eull), "0xAFAE4AE1365DCB8E");
}

TEST(ArchivePathHash, CandidateRule) {
    const auto er = navmesh_candidate_ids(Game::EldenRing);
    const auto sekiro = navmesh_candidate_ids(Game::Sekiro);
    EXPECT_EQ(er.size(), 129800u);  // §6.2
    EXPECT_EQ(sekiro.size(), 20000u);
    for (const char* id : {"m10_00_00_00", "m60_44_36_00", "m60_44_36_10", "m61_44_45_00", "m35_00_00_00"})
        EXPECT_NE(std::find(er.begin(), er.end(), id), er.end()) << id;
    for (const char* id : {"m10_00_00_00", "m11_02_00_00", "m89_00_00_99"})
        EXPECT_NE(std::find(sekiro.begin(), sekiro.end(), id), sekiro.end()) << id;
    EXPECT_EQ(navmesh_binder_path(Game::EldenRing, "m60_44_36_00"), "/map/m60/m60_44_36_00/m60_44_36_00.nvmhktbnd.dcx");
    EXPECT_EQ(navmesh_binder_path(Game::Sekiro, "m10_00_00_00"), "/map/m10_00_00_00/m10_00_00_00.nvmhktbnd.dcx");
    EXPECT_EQ(navmesh_nva_path(Game::EldenRing, "m10_00_00_00"), "/map/m10/m10_00_00_00/m10_00_00_00.nva.dcx");
    EXPECT_EQ(msb_path("m10_00_00_00"), "/map/mapstudio/m10_00_00_00.msb.dcx");
}

TEST(ArchivePathHash, CandidateRuleCoversEveryRealBinderPath) {
    // The real archive dictionaries' navmesh binder paths (shared/spec/fromsoft-navmesh-paths.txt:
    // 10 Sekiro, 694 Elden Ring): each is a candidate id's binder path in its game's layout.
    const std::filesystem::path list = std::filesystem::path(NAVLAB_SOURCE_DIR) / ".." / "shared" / "spec" /
                                       "fromsoft-navmesh-paths.txt";
    if (!std::filesystem::exists(list)) GTEST_SKIP() << list << " not found (shared specs absent)";
    std::map<Game, std::set<std::string>> candidates;
    for (Game g : {Game::Sekiro, Game::EldenRing})
        for (const auto& id : navmesh_candidate_ids(g)) candidates[g].insert(navmesh_binder_path(g, id));
    std::map<Game, int> seen;
    Game game = Game::Sekiro;
    for (const std::string& line : read_name_list(list)) {
        if (line.starts_with("[sekiro]")) game = Game::Sekiro;
        else if (line.starts_with("[eldenring]")) game = Game::EldenRing;
        else {
            EXPECT_TRUE(candidates[game].count(line)) << game_name(game) << " " << line;
            ++seen[game];
        }
    }
    EXPECT_EQ(seen[Game::Sekiro], 10);
    EXPECT_EQ(seen[Game::EldenRing], 694);
}
