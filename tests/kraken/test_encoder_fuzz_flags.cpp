// The fuzz build's list of Kraken encoder sources built without comparison tracing
// (fuzz/CMakeLists.txt: the hooks were 40 % of every fuzz_kraken_encode run) names exactly the
// encoder's files. A file split off or added without joining the list (lz_prices.cpp and
// sparse_parse.cpp in the seventh session, level 6's hot path) silently slows the fuzz campaign;
// a removed file left in it (tree_match_finder.cpp) hides that the list is stale.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

/// The decoder's sources: their comparisons against input bytes are what the tracing learns from.
const std::set<std::string> kDecoderSources{"byte_array.cpp", "huffman.cpp", "kraken.cpp", "lz.cpp", "tans.cpp"};

}  // namespace

TEST(KrakenFuzzFlags, EveryEncoderSourceAndNoOtherIsBuiltWithoutComparisonTracing) {
    const fs::path root(NAVLAB_SOURCE_DIR);
    std::ifstream in(root / "fuzz" / "CMakeLists.txt");
    ASSERT_TRUE(in) << "fuzz/CMakeLists.txt not found";
    std::stringstream text;
    text << in.rdbuf();
    std::set<std::string> listed;
    const std::string s = text.str();
    const std::regex named(R"(\$\{PROJECT_SOURCE_DIR\}/src/codec/kraken/([A-Za-z0-9_]+\.cpp))");
    for (auto it = std::sregex_iterator(s.begin(), s.end(), named); it != std::sregex_iterator(); ++it) {
        const std::string file = (*it)[1];
        EXPECT_TRUE(fs::exists(root / "src" / "codec" / "kraken" / file)) << file << " is listed but does not exist";
        listed.insert(file);
    }
    for (const auto& entry : fs::directory_iterator(root / "src" / "codec" / "kraken")) {
        const std::string file = entry.path().filename().string();
        if (entry.path().extension() != ".cpp") continue;
        if (kDecoderSources.count(file)) {
            EXPECT_FALSE(listed.count(file)) << file << " is a decoder source: it keeps comparison tracing";
        } else {
            EXPECT_TRUE(listed.count(file)) << file << " (an encoder source) is missing from fuzz/CMakeLists.txt's "
                                            << "-fno-sanitize-coverage=trace-cmp list (or add it to kDecoderSources)";
        }
    }
}
