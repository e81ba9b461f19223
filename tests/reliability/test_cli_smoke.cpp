// Command-line smoke tests for `navlab demo` and `navlab synth`: they run end to end on data
// navlab makes itself, write what their help promises, and refuse bad options as usage errors;
// and every navmesh command given another kind of file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "codec/dcx.h"
#include "container/bnd4.h"
#include "container/manifest.h"
#include "io/file.h"
#include "reliability/reliability_support.h"
#include "support/samples.h"

using namespace navlab;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> binders_in(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.path().string().ends_with(".nvmhktbnd.dcx")) out.push_back(fs::relative(e.path(), dir));
    std::sort(out.begin(), out.end());
    return out;
}

nlohmann::json read_json(const fs::path& p) {
    std::ifstream in(p);
    return nlohmann::json::parse(in);
}

}  // namespace

TEST(CliSmoke, DemoRunsTheFourStepsAndWritesItsOutputs) {
    const auto dir = test::scratch_dir("demo");
    std::string out;
    ASSERT_EQ(test::run_command(test::navlab_binary() + " demo --out " + test::quoted(dir), &out), 0) << out;
    for (const char* step : {"== 1. generate the small synthetic corpus", "== 2. list one binder",
                             "== 3. audit the corpus", "== 4. export one binder for Blender", " 0 invariants failed"})
        EXPECT_NE(out.find(step), std::string::npos) << step << "\n" << out;
    EXPECT_EQ(binders_in(dir / "corpus").size(), 4u);
    const nlohmann::json report = read_json(dir / "audit.json");
    EXPECT_EQ(report.at("rules").size(), 97u);
    const auto obj = read_file(dir / "binder.obj");
    const std::string text(obj.begin(), obj.end());
    EXPECT_NE(text.find("\nv "), std::string::npos);
    EXPECT_NE(text.find("\nf "), std::string::npos);
    fs::remove_all(dir);
}

// The demo replaces its corpus folder: a folder under --out that holds a file of the user's
// must survive, with exit 1 and the file named; its own earlier corpus is replaced.
TEST(CliSmoke, DemoKeepsACorpusFolderItDidNotWrite) {
    const auto dir = test::scratch_dir("demo-keep");
    fs::create_directories(dir / "corpus" / "mine");
    { std::ofstream(dir / "corpus" / "mine" / "notes.txt") << "mine"; }
    std::string out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " demo --out " + test::quoted(dir), &out), 1) << out;
    EXPECT_NE(out.find("notes.txt, which the demo did not write"), std::string::npos) << out;
    EXPECT_TRUE(fs::exists(dir / "corpus" / "mine" / "notes.txt"));
    fs::remove_all(dir / "corpus" / "mine");
    // Binders of the user's, in a folder without the demo's marker, are kept too.
    test::put_file(dir / "corpus" / "m10_00_00_00.nvmhktbnd.dcx", {1, 2, 3});
    EXPECT_EQ(test::run_command(test::navlab_binary() + " demo --out " + test::quoted(dir), &out), 1) << out;
    EXPECT_TRUE(fs::exists(dir / "corpus" / "m10_00_00_00.nvmhktbnd.dcx"));
    fs::remove(dir / "corpus" / "m10_00_00_00.nvmhktbnd.dcx");
    ASSERT_EQ(test::run_command(test::navlab_binary() + " demo --out " + test::quoted(dir), &out), 0) << out;
    EXPECT_TRUE(fs::exists(dir / "corpus" / ".navlab-demo"));
    ASSERT_EQ(test::run_command(test::navlab_binary() + " demo --out " + test::quoted(dir), &out), 0) << out;
    EXPECT_EQ(binders_in(dir / "corpus").size(), 4u);
    // A corpus of a demo run from before the marker (the same binders at the same paths) is
    // replaced too: `./run.sh` on a machine that ran an older demo must not fail.
    fs::remove(dir / "corpus" / ".navlab-demo");
    ASSERT_EQ(test::run_command(test::navlab_binary() + " demo --out " + test::quoted(dir), &out), 0) << out;
    EXPECT_EQ(binders_in(dir / "corpus").size(), 4u);
    fs::remove_all(dir);
}

TEST(CliSmoke, SynthIsDeterministicAcrossThreadCountsAndReadable) {
    const auto dir = test::scratch_dir("synth");
    std::string out;
    for (const char* threads : {"1", "2"}) {
        const fs::path o = dir / threads;
        ASSERT_EQ(test::run_command(test::navlab_binary() + " synth --preset small --seed 3 --dcx zstd --threads " + threads +
                                        " --out " + test::quoted(o) + " --json " + test::quoted(o / "totals.json"),
                                    &out),
                  0)
            << out;
    }
    const auto binders = binders_in(dir / "1");
    ASSERT_EQ(binders.size(), 4u);
    EXPECT_EQ(binders, binders_in(dir / "2"));
    std::size_t entries = 0;
    for (const auto& b : binders) {
        const auto one = read_file(dir / "1" / b);
        EXPECT_EQ(one, read_file(dir / "2" / b)) << b;  // "same seed, same bytes, whatever --threads"
        const dcx::Decoded d = dcx::decompress(one);
        EXPECT_EQ(d.header.variant, dcx::Variant::Zstd) << b;
        entries += bnd4::read(d.payload).entries.size();
    }
    const nlohmann::json totals = read_json(dir / "1" / "totals.json");
    EXPECT_EQ(totals.at("preset"), "small");
    EXPECT_EQ(totals.at("seed"), 3);
    EXPECT_EQ(entries, totals.at("sekiro").at("Tagfiles").get<std::size_t>() +
                           totals.at("elden_ring").at("Tagfiles").get<std::size_t>());
    fs::remove_all(dir);
}

TEST(CliSmoke, SynthRefusesBadOptionsAsUsageErrors) {
    std::string out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " synth --preset nope -o /nonexistent/x", &out), 2) << out;
    EXPECT_NE(out.find("--preset"), std::string::npos) << out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " synth --dcx lzma -o /nonexistent/x", &out), 2) << out;
    EXPECT_NE(out.find("--dcx"), std::string::npos) << out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " synth", &out), 2) << out;  // --out is required
}

// `dcx compress --variant ""` took the default variant; a --level for another codec than
// Kraken was ignored. Both say so now, and nothing is written.
TEST(CliSmoke, DcxCompressRefusesAnEmptyVariantAndALevelItWouldIgnore) {
    const auto dir = test::scratch_dir("dcx-options");
    test::put_file(dir / "in.bin", std::vector<std::uint8_t>(1000, 7));
    const std::string in = test::quoted(dir / "in.bin"), out_file = test::quoted(dir / "out.dcx");
    std::string out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " dcx compress " + in + " " + out_file + " --variant ''", &out), 2)
        << out;
    EXPECT_NE(out.find("--variant: an empty variant name"), std::string::npos) << out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " dcx compress " + in + " " + out_file + " --variant DFLT --level 3",
                                &out),
              2)
        << out;
    EXPECT_NE(out.find("--level: a Kraken level (3) is for DCX_KRAK files, not DCX_DFLT_11000_44_9"), std::string::npos)
        << out;
    EXPECT_FALSE(fs::exists(dir / "out.dcx"));
    // pack learns the variant from the manifest: a DFLT binder unpacked, packed with --level.
    ASSERT_EQ(test::run_command(test::navlab_binary() + " dcx compress " + in + " " + out_file + " --variant DFLT", &out), 0)
        << out;
    test::put_file(dir / "b.bnd", bnd4::write(bnd4::build_navmesh_binder({{"N:\\a.hkx", 1, {1, 2, 3}}})));
    ASSERT_EQ(test::run_command(test::navlab_binary() + " dcx compress " + test::quoted(dir / "b.bnd") + " " +
                                    test::quoted(dir / "b.dcx") + " --variant DFLT",
                                &out),
              0)
        << out;
    ASSERT_EQ(test::run_command(test::navlab_binary() + " unpack " + test::quoted(dir / "b.dcx") + " " + test::quoted(dir / "u"), &out),
              0)
        << out;
    // Refused before the binder is built: the entry files are not read (one is gone here).
    for (const auto& f : fs::directory_iterator(dir / "u"))
        if (f.path().filename() != container::kManifestName) fs::remove(f.path());
    EXPECT_EQ(test::run_command(test::navlab_binary() + " pack " + test::quoted(dir / "u") + " " + test::quoted(dir / "p.dcx") +
                                    " --level 3",
                                &out),
              2)
        << out;
    EXPECT_NE(out.find("--level: a Kraken level (3) is for DCX_KRAK files, not DCX_DFLT_11000_44_9"), std::string::npos)
        << out;
    EXPECT_FALSE(fs::exists(dir / "p.dcx"));
    EXPECT_EQ(test::run_command(test::navlab_binary() + " dcx compress " + in + " " + out_file + " --level 3", &out), 0)
        << out;
}

// Options with a fixed set of values are checked as the command line is read: a mistake is a
// usage error (exit 2, naming the option) before any file is read, as the README promises.
TEST(CliSmoke, OptionValuesAreUsageErrors) {
    const auto dir = test::scratch_dir("usage");
    test::put_file(dir / "scene.obj", {'v', ' ', '0', ' ', '0', ' ', '0', '\n'});
    const std::string obj = test::quoted(dir / "scene.obj"), out_file = test::quoted(dir / "o.dcx");
    for (const std::string& command :
         {"build " + obj + " -o " + out_file + " --scale 0", "build " + obj + " -o " + out_file + " --scale -1",
          "build " + obj + " -o " + out_file + " --up x", "build " + obj + " -o " + out_file + " --game ds3",
          "build " + obj + " -o " + out_file + " --dcx lzma", "archive ls " + test::quoted(dir) + " --game ds3",
          "audit " + test::quoted(dir) + " --game ds3",
          "view " + obj + " -o " + test::quoted(dir / "v.html") + " --path 1,2 3,4,5",
          "synth --preset small --out " + test::quoted(dir / "s") + " --inject R999",
          "synth --preset small --out " + test::quoted(dir / "s") + " --seed -1",
          "synth --preset small --out " + test::quoted(dir / "s") + " --seed 99999999999999999999",
          "kraken decode " + obj + " " + test::quoted(dir / "k") + " --size -1",
          "path " + obj + " --from 0,0,0 --to 1,1,1 --exclude 99999999999",
          "build " + obj + " -o " + test::quoted(dir / "w") + " --game farcry2 --json " + test::quoted(dir / "r.json")}) {
        SCOPED_TRACE(command);
        std::string out;
        EXPECT_EQ(test::run_command(test::navlab_binary() + " " + command, &out), 2) << out;
        const std::string option = command.substr(command.rfind(" --") + 1, command.find(' ', command.rfind(" --") + 1) -
                                                                             command.rfind(" --") - 1);
        EXPECT_NE(out.find(option + ":"), std::string::npos) << option << "\n" << out;
    }
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), {}), 1);  // scene.obj alone
    // A whole number is handed on as decimal: CLI11 read "010" as octal 8, and "09" not at all.
    std::string out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " kraken decode " + obj + " " + test::quoted(dir / "k") + " --size 09",
                                &out),
              1)  // read as 9: the file is then no Kraken stream
        << out;
    EXPECT_NE(out.find("Kraken block 0"), std::string::npos) << out;
    EXPECT_EQ(out.find("Could not convert"), std::string::npos) << out;
}

// Words a user gets wrong: an unknown command is named (CLI11 said "A subcommand is
// required"); an option word after --json is not taken as the report's name (`--json --all`
// wrote a file "--all"); a query of an IGI graph says what works on it (a TAG0 error before);
// a folder that cannot be made is named first, without "filesystem error:".
TEST(CliSmoke, MistakesAreNamedInTheUsersWords) {
    const auto dir = test::scratch_dir("mistakes");
    std::string out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " bogus", &out), 2) << out;
    EXPECT_NE(out.find("navlab: no command 'bogus'"), std::string::npos) << out;
    EXPECT_EQ(test::run_command("cd " + test::quoted(dir) + " && " + test::navlab_binary() + " audit . --json --all", &out), 2)
        << out;
    EXPECT_NE(out.find("'--all' looks like an option, not a report file"), std::string::npos) << out;
    EXPECT_FALSE(fs::exists(dir / "--all"));
    test::put_file(dir / "graph1.dat", std::vector<std::uint8_t>(64, 0));
    EXPECT_EQ(test::run_command(test::navlab_binary() + " nearest " + test::quoted(dir / "graph1.dat") + " 0,0,0", &out), 1)
        << out;
    EXPECT_NE(out.find("graph1.dat: an IGI graph has no faces to query: `navlab path FILE --from-node A"),
              std::string::npos)
        << out;
    test::put_file(dir / "file", {1});
    EXPECT_EQ(test::run_command(test::navlab_binary() + " demo --out " + test::quoted(dir / "file" / "out"), &out), 1) << out;
    EXPECT_NE(out.find("navlab: " + (dir / "file" / "out" / "corpus").string() + ": cannot create directories: "),
              std::string::npos)
        << out;
    EXPECT_EQ(out.find("filesystem error"), std::string::npos) << out;
}

// `navlab` alone lists the commands, one line each (a command's details are in its own help).
TEST(CliSmoke, NoCommandListsTheCommandsOneLineEach) {
    std::string out;
    EXPECT_EQ(test::run_command(test::navlab_binary(), &out), 2) << out;
    for (const char* command : {"demo", "audit", "kraken", "path", "nearest", "raycast", "islands", "build", "view"})
        EXPECT_NE(out.find(std::string("\n  ") + command + " "), std::string::npos) << command << "\n" << out;
    EXPECT_EQ(out.find("INPUT:"), std::string::npos) << out;  // path's and nearest's details stay in their help
    std::string help;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " nearest --help", &help), 0) << help;
    EXPECT_NE(help.find("INPUT: a FromSoftware binder"), std::string::npos) << help;
    EXPECT_NE(help.find("Example: navlab nearest"), std::string::npos) << help;
}

// `navlab --version` prints project(VERSION) of CMakeLists.txt, read here from the source.
TEST(CliSmoke, VersionIsTheProjectVersionOfCMakeLists) {
    std::ifstream in(fs::path(NAVLAB_SOURCE_DIR) / "CMakeLists.txt");
    const std::string cmake((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::smatch m;
    ASSERT_TRUE(std::regex_search(cmake, m, std::regex(R"(project\(navlab VERSION ([0-9]+\.[0-9]+\.[0-9]+))")));
    std::string out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " --version", &out), 0) << out;
    EXPECT_EQ(out, "navlab " + m[1].str() + "\n");
}

// Assimp (and the Draco library it pulls in) is loaded only by `navlab build`'s reader child,
// from libnavlab_assimp_reader.so, libcrypto only when an archive is opened, and tinygltf is
// compiled in: an empty program linked with each starts 8, 3.4 and 1.5 ms slower, and
// `navlab --version` took 16.8 ms with all of them (docs/build.md, "Damaged geometry";
// docs/archives.md, "libcrypto on first use"; docs/export.md, "GLB"). The dynamic loader's own lists say so; the
// archive tests run the command over encrypted installs, which load libcrypto when needed.
TEST(CliSmoke, TheCommandLoadsNoAssimpLibcryptoOrTinygltfAtStart) {
    std::string out;
    ASSERT_EQ(test::run_command("ldd " + test::navlab_binary(), &out), 0) << out;
    EXPECT_NE(out.find("libc.so"), std::string::npos) << out;  // ldd listed the libraries
    for (const char* library : {"libassimp", "libdraco", "libcrypto", "libtinygltf", "libstb"})
        EXPECT_EQ(out.find(library), std::string::npos) << library << "\n" << out;
    ASSERT_EQ(test::run_command("LD_DEBUG=files " + test::navlab_binary() + " --version 2>&1", &out), 0) << out;
    EXPECT_NE(out.find("calling init"), std::string::npos) << out;
    EXPECT_EQ(out.find("assimp"), std::string::npos) << out;
    EXPECT_EQ(out.find("libcrypto"), std::string::npos) << out;
}

// `navlab --help-all` prints every command's whole help: its footer (inputs, outputs, example)
// and its own subcommands' help, which CLI11's expanded form leaves out.
TEST(CliSmoke, HelpAllPrintsEveryCommandsFooterAndSubcommands) {
    std::string out;
    EXPECT_EQ(test::run_command(test::navlab_binary() + " --help-all", &out), 0) << out;
    for (const char* text : {"INPUT: a FromSoftware binder", "Example: navlab nearest", "Examples: navlab path",
                             "Example: navlab dcx compress", "--variant TEXT", "Example: navlab kraken encode"})
        EXPECT_NE(out.find(text), std::string::npos) << text << "\n" << out;
}

// An event script (a DCX holding no binder) given to every command that reads a navmesh: each
// refuses it by its tag, and says the offset counts from the DCX payload. The queries say it
// in the same words (they named an "entry 0" that no binder holds, until the 28th session).
TEST(CliSmoke, EveryNavmeshCommandNamesTheDcxPayloadOfAFileOfAnotherKind) {
    const auto dir = test::scratch_dir("cli-not-a-navmesh");
    const std::vector<std::uint8_t> evd = {'E', 'V', 'D', 0, 0, 0, 0xCD, 0, 0x65, 0, 0, 0, 0, 0, 0, 0};
    const fs::path file = dir / "m10_00_00_00.emevd.dcx";
    write_file_atomic(file, dcx::compress(evd, dcx::Variant::Zstd));
    const std::string in = test::quoted(file), out = test::quoted(dir / "out");
    const std::string expected = "offset 0x4: DCX payload: TAG0: not a Havok tagfile: bytes 4-7 are \"????\" (00 00 CD 00)";
    for (const std::string& args :
         {"export " + in + " -o " + out + ".obj", "export " + in + " --entry 0 -o " + out + ".obj",
          "view " + in + " --audit -o " + out + ".html", "hkx check " + in, "audit " + in,
          "path " + in + " --from 0,0,0 --to 1,0,1", "nearest " + in + " 0,0,0", "islands " + in}) {
        std::string text;
        EXPECT_EQ(test::run_command(test::navlab_binary() + " " + args, &text), 1) << args;
        EXPECT_NE(text.find(expected), std::string::npos) << args << "\n" << text;
    }
    // The same bytes as a plain loose file: its offsets are the file's own, so a query names
    // no entry and no payload, as an export does.
    const fs::path loose = dir / "m10.hkx";
    write_file_atomic(loose, evd);
    for (const std::string& command : {std::string("path ") + test::quoted(loose) + " --from 0,0,0 --to 1,0,1",
                                       std::string("export ") + test::quoted(loose) + " -o " + out + ".obj"}) {
        std::string text;
        EXPECT_EQ(test::run_command(test::navlab_binary() + " " + command, &text), 1) << command;
        EXPECT_NE(text.find("m10.hkx: offset 0x4: TAG0: not a Havok tagfile"), std::string::npos) << command << "\n" << text;
    }
    fs::remove_all(dir);
}
