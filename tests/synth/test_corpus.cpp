// Steps 2 and 3 of the synthetic corpus: the small preset written through the real tagfile,
// BND4 and DCX writers, read back, counted, and made twice for the same bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "codec/dcx.h"
#include "container/bnd4.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "io/file.h"
#include "support/samples.h"
#include "synth/inject.h"
#include "synth/model_checks.h"  // tests/synth
#include "synth/write.h"

using namespace navlab;
using namespace navlab::synth;

namespace {

CorpusResult make_small(const std::filesystem::path& dir, unsigned threads, Compression c = Compression::Dflt,
                        const std::string& inject = {}) {
    CorpusOptions o;
    o.preset = Preset::Small;
    o.seed = 11;
    o.out = dir;
    o.threads = threads;
    o.compression = c;
    o.inject = inject;
    return generate_corpus(o);
}

/// Every tagfile of a written binder, read back with the strict readers.
std::vector<std::pair<std::string, fromsoft::NavTagfile>> read_binder(const std::filesystem::path& path) {
    const auto file = read_file(path);
    const dcx::Decoded d = dcx::decompress(file);
    const bnd4::Binder binder = bnd4::read(d.payload);
    std::vector<std::pair<std::string, fromsoft::NavTagfile>> out;
    for (const auto& e : binder.entries) out.push_back({e.name, fromsoft::read_nav_tagfile(e.data())});
    return out;
}

}  // namespace

TEST(SynthCorpus, SmallPresetTotalsAndReadBack) {
    const auto dir = navlab::test::scratch_dir("synth_small_totals");
    const CorpusResult r = make_small(dir, 2);
    ASSERT_EQ(r.files.size(), 4u);
    EXPECT_EQ(r.sekiro.binders, 2);
    EXPECT_EQ(r.sekiro.tagfiles, 24);
    EXPECT_EQ(r.sekiro.faces, 4000);
    EXPECT_EQ(r.sekiro.empty_meshes, 2);
    EXPECT_EQ(r.sekiro.graphs, 24);
    EXPECT_EQ(r.sekiro.setups, 16);
    EXPECT_EQ(r.elden_ring.binders, 2);
    EXPECT_EQ(r.elden_ring.tagfiles, 20);
    EXPECT_EQ(r.elden_ring.faces, 9000);
    EXPECT_EQ(r.elden_ring.user_edges, 3600);
    EXPECT_EQ(r.elden_ring.empty_meshes, 11);
    EXPECT_EQ(r.elden_ring.mediators, 16);
    EXPECT_EQ(r.elden_ring.tree_nodes, 2 * 9000 - 9);
    EXPECT_EQ(r.elden_ring.setups, 7);
    // Read every file back: DCX, BND4 layout, strict tagfile reader, the page's properties.
    GameCounts sekiro, elden_ring;
    for (const auto& path : r.files) {
        const auto header = dcx::read_header(read_file(path));
        EXPECT_EQ(header.variant, dcx::Variant::Dflt_11000_44_9);
        for (const auto& [name, t] : read_binder(path)) {
            SCOPED_TRACE(name);
            const Game game = t.sdk_version == 20160200 ? Game::Sekiro : Game::EldenRing;
            EXPECT_EQ(name.find("\\navimesh\\bind6\\"), name.rfind("\\navimesh\\bind6\\"));
            checks::check_mesh(t.mesh, game);
            if (t.user_edge_setups) checks::check_setups(*t.user_edge_setups, game);
            (game == Game::Sekiro ? sekiro : elden_ring).add(t);
        }
    }
    EXPECT_EQ(sekiro.faces, r.sekiro.faces);
    EXPECT_EQ(sekiro.vertices, r.sekiro.vertices);
    EXPECT_EQ(elden_ring.edges, r.elden_ring.edges);
    EXPECT_EQ(elden_ring.tree_nodes, r.elden_ring.tree_nodes);
    std::filesystem::remove_all(dir);
}

TEST(SynthCorpus, SameSeedSameBytesWhateverTheThreads) {
    const auto one = navlab::test::scratch_dir("synth_small_t1");
    const auto two = navlab::test::scratch_dir("synth_small_t2");
    const CorpusResult a = make_small(one, 1);
    const CorpusResult b = make_small(two, 2);
    ASSERT_EQ(a.files.size(), b.files.size());
    for (std::size_t i = 0; i < a.files.size(); ++i) {
        EXPECT_EQ(std::filesystem::relative(a.files[i], one), std::filesystem::relative(b.files[i], two));
        EXPECT_EQ(read_file(a.files[i]), read_file(b.files[i])) << a.files[i];
    }
    std::filesystem::remove_all(one);
    std::filesystem::remove_all(two);
}

TEST(SynthCorpus, ZstdAndKrakenOnRequest) {
    const auto dir = navlab::test::scratch_dir("synth_small_codec");
    const CorpusResult zstd = make_small(dir / "zstd", 2, Compression::Zstd);
    for (const auto& path : zstd.files) {
        EXPECT_EQ(dcx::read_header(read_file(path)).variant, dcx::Variant::Zstd);
        EXPECT_FALSE(read_binder(path).empty());
    }
    // KRAK is written with navlab's Kraken encoder (level 6): restart blocks (8C 06) that
    // decode back to the BND4 image and are smaller than it.
    const CorpusResult krak = make_small(dir / "krak", 2, Compression::Krak);
    for (const auto& path : krak.files) {
        const auto file = read_file(path);
        const auto header = dcx::read_header(file);
        ASSERT_EQ(header.variant, dcx::Variant::Krak);
        EXPECT_EQ(file.size() % 16, 0u);
        ASSERT_GT(file.size(), 0x4Eu);
        EXPECT_EQ(file[0x4C], 0x8C);
        EXPECT_EQ(file[0x4D], 0x06);
        EXPECT_LT(header.compressed_size, header.uncompressed_size);
        const dcx::Decoded decoded = dcx::decompress(file);
        const std::span<const std::uint8_t> image = decoded.payload;
        const bnd4::Binder binder = bnd4::read(image);
        EXPECT_FALSE(binder.entries.empty());
        EXPECT_NO_THROW(fromsoft::read_nav_tagfile(binder.entries[0].data()));
    }
    std::filesystem::remove_all(dir);
}

TEST(SynthCorpus, InjectBreaksOneRuleWhereItSays) {
    const auto dir = navlab::test::scratch_dir("synth_small_inject");
    const CorpusResult r = make_small(dir, 2, Compression::Dflt, "R26");
    ASSERT_NE(r.injected.find("R26: face 0: padding"), std::string::npos) << r.injected;
    // It names the file written (it named the binder's archive path, "/map/...", as if absolute).
    const std::string file = r.injected.substr(0, r.injected.find(": entry "));
    EXPECT_NE(std::find(r.files.begin(), r.files.end(), std::filesystem::path(file)), r.files.end()) << r.injected;
    int broken = 0;
    for (const auto& path : r.files)
        for (const auto& [name, t] : read_binder(path))
            for (const auto& f : t.mesh.faces) broken += f.padding != 0xCDCD;
    EXPECT_EQ(broken, 1);
    EXPECT_THROW(make_small(dir, 2, Compression::Dflt, "R999"), Error);
    std::filesystem::remove_all(dir);
}

TEST(SynthCorpus, EveryInjectableRuleFindsAPlaceInTheSmallPreset) {
    const auto plan = plan_corpus(Preset::Small, 11);
    const auto library = build_tile_library(Preset::Small, 11, 2);
    for (const auto& rule : injectable_rules()) {
        bool done = false;
        for (const auto& b : plan)
            for (const auto& e : b.entries)
                if (!done && can_inject(rule, b, e)) {
                    auto t = make_tagfile(b, e, library);
                    const std::string where = inject_fault(rule, t);
                    EXPECT_EQ(where.rfind(rule + ": ", 0), 0u);
                    EXPECT_FALSE(fromsoft::same_model(t, make_tagfile(b, e, library))) << rule;
                    // As synth writes them; only R31's defect sits in a gap byte (paddingByte),
                    // which the default writer refuses.
                    EXPECT_NO_THROW(fromsoft::write_nav_tagfile(t, /*allow_gap_bytes=*/true)) << rule;
                    if (rule == "R31") {
                        EXPECT_THROW(fromsoft::write_nav_tagfile(t), Error) << rule;
                    } else {
                        EXPECT_NO_THROW(fromsoft::write_nav_tagfile(t)) << rule;
                    }
                    done = true;
                }
        EXPECT_TRUE(done) << rule;
    }
}
