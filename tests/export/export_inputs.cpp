#include "export/export_inputs.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "export/scene.h"
#include "farcry2/fixtures.h"
#include "formats/fromsoft/nav_source.h"
#include "formats/igi/graph_io.h"
#include "igi/fixtures.h"
#include "io/file.h"
#include "support/samples.h"

namespace navlab::test {
namespace {

ExportInputs make_inputs() {
    ExportInputs in;
    in.dir = scratch_dir("export-inputs");
    std::string out;
    const auto corpus = in.dir / "corpus";
    if (run_command(navlab_binary() + " synth --preset small --seed 1 --out " + corpus.string(), &out) != 0)
        throw std::runtime_error("navlab synth failed: " + out);
    // Pick the binder of each game with the most user edges (lines).
    std::size_t best_sekiro = 0, best_er = 0;
    for (const auto& file : fromsoft::find_nav_files(corpus)) {
        auto tagfiles = exporter::load_fromsoft_tagfiles(file.string(), "");
        if (tagfiles.empty()) continue;
        const bool sekiro = tagfiles.front().model.sdkVersion == fromsoft::kSdkSekiro;
        const auto scene = exporter::fromsoft_scene(tagfiles, file.string());
        std::size_t& best = sekiro ? best_sekiro : best_er;
        std::string& binder = sekiro ? in.sekiro_binder : in.er_binder;
        if (binder.empty() || scene.line_count() > best) {
            best = scene.line_count();
            binder = file.string();
            if (!sekiro)
                for (const auto& t : tagfiles)
                    if (t.model.mesh.faces.empty()) in.empty_entry = t.name;
        }
    }
    in.fc2_world = navlab::farcry2::fixture::write_world(in.dir / "fc2", navlab::farcry2::fixture::make_sectors(32, 16, 2, 2))
                       .string();
    in.igi_graph = (in.dir / "graph8.dat").string();
    write_file_atomic(in.igi_graph, igi::write_graph(igi::test::retail_graph8()));
    return in;
}

}  // namespace

const ExportInputs& export_inputs() {
    static const ExportInputs inputs = make_inputs();
    return inputs;
}

std::string run_ok(const std::string& command) {
    std::string out;
    const int status = run_command(command, &out);
    EXPECT_EQ(status, 0) << command << "\n" << out;
    return out;
}

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::filesystem::path web_tools() { return std::filesystem::path(NAVLAB_SOURCE_DIR) / "tools" / "web"; }

}  // namespace navlab::test
