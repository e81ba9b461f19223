// Guard: `navlab fc2 check` prints byte-identical text and JSON to what the code printed when
// this test was added (issue 11: the report model and printers were unified without changing a
// byte). The digests were computed by the code of that commit; a deliberate format change
// updates them in the same commit and says why. The command runs on relative paths so the
// output does not depend on the scratch folder.
#include <gtest/gtest.h>

#include "farcry2/fixtures.h"
#include "io/file.h"
#include "support/samples.h"
#include "support/sha256.h"

using namespace navlab;
using namespace navlab::farcry2;

namespace {

/// SHA-256 of what `navlab fc2 check ARGS TARGET` prints in `dir`, with its exit status.
std::string check_digest(const std::filesystem::path& dir, const std::string& target, const std::string& args,
                         int expected_exit) {
    std::string out;
    EXPECT_EQ(navlab::test::run_command("cd '" + dir.string() + "' && " + navlab::test::navlab_binary() +
                                            " fc2 check " + args + " " + target,
                                        &out),
              expected_exit)
        << out;
    return navlab::test::sha256_hex({reinterpret_cast<const std::uint8_t*>(out.data()), out.size()});
}

}  // namespace

TEST(Fc2ReportBytes, GoodWorld) {
    auto dir = navlab::test::scratch_dir("fc2-report-bytes-good");
    fixture::write_world(dir, fixture::make_sectors(32, 16, 2, 2), true);
    EXPECT_EQ(check_digest(dir, "nv", "", 0), "be7f255981fc4eb5e591020b27059df6996bf826d3208a43cbeac5c9fbb3bb9d");
    EXPECT_EQ(check_digest(dir, "nv", "--json", 0), "b03b4702f149d76d7999b018e3b92385786c6a34554e3229749a9af322bbb1d9");
    EXPECT_EQ(check_digest(dir, "nv/sectors/nv_2576.nvm", "--json", 0), "a9ee57205ec06493bd8fe0e6846f2691793d636f7e0cb36872f9a9c893d91e05");
    std::filesystem::remove_all(dir);
}

TEST(Fc2ReportBytes, BrokenWorld) {
    // A 2 x 3 block missing sector 2657 (its neighbours' links dangle), every centroid
    // moved (more than 20 warnings), a same-sector link of 2577 to the wrong node, and a malformed file.
    auto sectors = fixture::make_sectors(32, 16, 2, 3);
    for (auto& sector : sectors)
        for (auto& node : sector.nodes) node.centroid[0] += 3;
    sectors[1].links[0] = encode_link({sectors[1].header.sector_id, 1});
    sectors.erase(sectors.begin() + 4);
    auto dir = navlab::test::scratch_dir("fc2-report-bytes-bad");
    fixture::write_world(dir, sectors);
    EXPECT_EQ(check_digest(dir, "nv", "", 1), "b1233e138bf778103e1e7299bd7042ffbf3a2c80e30ff59894976e93e5bfc0d9");
    EXPECT_EQ(check_digest(dir, "nv", "--all", 1), "dc9bd237bc8cae9a73247be1fc7fb282465a363e397d9db89402085c8fe4e27f");
    EXPECT_EQ(check_digest(dir, "nv", "--json", 1), "9677d43d61fc4395264711e399f161565ee1c0040f62e6caf2bc1c3c6a3842e3");
    auto bytes = fixture::sector_bytes(sectors[0]);
    bytes[4] = 'x';
    write_file_atomic(dir / "broken.nvm", bytes);
    EXPECT_EQ(check_digest(dir, "broken.nvm", "", 1), "4dbda6f068fe7efdcd5f0283ddf3a4516bbcff33ba75c201ae1a2e543945a4ab");
    std::filesystem::remove_all(dir);
}
