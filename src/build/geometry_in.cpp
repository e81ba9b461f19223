#include "build/geometry_in.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <sstream>
#include <string_view>
#include <fmt/format.h>

#include "build/assimp_reader/reader_abi.h"
#include "io/error.h"
#include "io/isolated.h"

namespace navlab::build {
namespace {

/// Assimp's OBJ reader turns "nan" into 0 without a word: check the vertex lines first.
void check_obj_numbers(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    int vertex = 0;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.size() < 2 || line[0] != 'v' || (line[1] != ' ' && line[1] != '\t')) continue;
        std::istringstream words(line.substr(2));
        std::string word;
        for (int k = 0; k < 3 && words >> word; ++k) {
            char* end = nullptr;
            const double v = std::strtod(word.c_str(), &end);
            if (*end != '\0' || !std::isfinite(v))
                throw Error(fmt::format("coordinate '{}' is not a finite number", word), kNoOffset,
                            fmt::format("{}: line {}: vertex {}", file.string(), number, vertex));
        }
        ++vertex;
    }
}

/// The reader module's name (reader_abi.h).
constexpr const char* kReaderModule = "libnavlab_assimp_reader.so";
constexpr const char* kReaderVariable = "NAVLAB_ASSIMP_READER";

/// Where the module is looked for: only the path in $NAVLAB_ASSIMP_READER when it is set (made
/// absolute, so dlopen does not search the library path for a bare name); else beside the
/// running program (/proc/self/exe: `navlab`, a test program), where `cmake --install` puts it
/// relative to the program (BINDIR/NAVLAB_ASSIMP_READER_FROM_BIN, e.g. bin/../lib/navlab),
/// beside the shared object that holds this code when that is not the program itself, and
/// where the build put it (NAVLAB_ASSIMP_READER_BUILT). Not dladdr's name of the program: it
/// is argv[0], which a command found through PATH gives as a bare name, resolved against the
/// current folder.
/// @param variable $NAVLAB_ASSIMP_READER's value, or null when it is unset or empty.
std::vector<std::filesystem::path> reader_candidates(const char* variable) {
    std::error_code ec;
    if (variable) {
        const std::filesystem::path given = std::filesystem::absolute(variable, ec);
        return {ec ? std::filesystem::path(variable) : given};
    }
    std::vector<std::filesystem::path> out;
    auto add = [&](const std::filesystem::path& p) {
        if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    };
    if (const auto program = std::filesystem::read_symlink("/proc/self/exe", ec); !ec) {
        add(program.parent_path() / kReaderModule);
        add((program.parent_path() / NAVLAB_ASSIMP_READER_FROM_BIN / kReaderModule).lexically_normal());
    }
    Dl_info info{};
    link_map* holder = nullptr;
    if (dladdr1(reinterpret_cast<void*>(&load_geometry), &info, reinterpret_cast<void**>(&holder), RTLD_DL_LINKMAP) &&
        holder && holder->l_name && holder->l_name[0] == '/')  // the program's own entry has an empty name
        add(std::filesystem::path(holder->l_name).parent_path() / kReaderModule);
    add(NAVLAB_ASSIMP_READER_BUILT);
    return out;
}

/// The reader's entry point, the module loaded (in the child: the caller never maps Assimp).
NavlabAssimpRead load_reader(const std::filesystem::path& file) {
    const char* variable = std::getenv(kReaderVariable);
    if (variable && !*variable) variable = nullptr;
    std::string looked;
    for (const auto& candidate : reader_candidates(variable)) {
        looked += (looked.empty() ? "" : ", ") + candidate.string();
        std::error_code ec;
        if (!std::filesystem::exists(candidate, ec)) continue;
        void* module = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!module)
            throw Error(fmt::format("cannot load the geometry reader {}: {}", candidate.string(), dlerror()), kNoOffset,
                        file.string());
        if (void* entry = dlsym(module, NAVLAB_ASSIMP_READER_SYMBOL)) return reinterpret_cast<NavlabAssimpRead>(entry);
        throw Error(fmt::format("the geometry reader {} has no {} (built from another navlab?)", candidate.string(),
                                NAVLAB_ASSIMP_READER_SYMBOL),
                    kNoOffset, file.string());
    }
    throw Error(variable ? fmt::format("the geometry reader {} that {} names does not exist", looked, kReaderVariable)
                         : fmt::format("the geometry reader {} was not found (looked at {}); set {} to its path",
                                       kReaderModule, looked, kReaderVariable),
                kNoOffset, file.string());
}

/// One file read by the module into the answer's bytes (reader_abi.h), or its refusal thrown as
/// navlab::Error naming the file and element (std::bad_alloc as such, for the child's memory
/// limit).
std::vector<std::uint8_t> read_with_module(const std::filesystem::path& file, const GeometryOptions& options) {
    struct Free {
        void operator()(void* p) const noexcept { std::free(p); }
    };
    NavlabReadAnswer answer{};
    load_reader(file)(file.c_str(), options.up, options.scale, &answer);
    const std::unique_ptr<unsigned char, Free> bytes(answer.bytes);
    const std::unique_ptr<char, Free> message(answer.message), where(answer.where);
    if (answer.status == kNavlabReadOutOfMemory) throw std::bad_alloc();
    if (answer.status != kNavlabReadOk)
        throw Error(message ? message.get() : "the geometry reader failed without a message", kNoOffset,
                    where ? where.get() : file.string());
    return std::vector<std::uint8_t>(answer.bytes, answer.bytes + answer.size);
}

/// The reader's bytes read back, every count checked against the bytes there are (errors name `file`).
TriangleSoup soup_from_bytes(const std::vector<std::uint8_t>& in, const std::filesystem::path& file) {
    std::uint64_t counts[2] = {0, 0};
    if (in.size() < sizeof counts) throw Error("the geometry reader's answer is cut short", kNoOffset, file.string());
    std::memcpy(counts, in.data(), sizeof counts);
    const std::uint64_t room = (in.size() - sizeof counts);
    if (counts[0] > room / sizeof(float) || counts[1] > room / sizeof(int) ||
        counts[0] * sizeof(float) + counts[1] * sizeof(int) != room || counts[0] % 3 || counts[1] % 3)
        throw Error("the geometry reader's answer does not add up", kNoOffset, file.string());
    TriangleSoup soup;
    soup.verts.resize(counts[0]);
    soup.tris.resize(counts[1]);
    const std::uint8_t* p = in.data() + sizeof counts;
    if (counts[0]) std::memcpy(soup.verts.data(), p, counts[0] * sizeof(float));
    if (counts[1]) std::memcpy(soup.tris.data(), p + counts[0] * sizeof(float), counts[1] * sizeof(int));
    return soup;
}

/// Appends one file's triangles to `out`; returns how many. Assimp runs in a child process:
/// some of its readers crash or spin forever on damaged files (docs/build.md, "Damaged
/// geometry"), which then ends as an error naming the file, not as navlab's own crash or hang.
int append_file(const std::filesystem::path& file, const GeometryOptions& options, TriangleSoup& out) {
    std::string ext = file.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".obj") check_obj_numbers(file);
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    const std::uint64_t megabytes = ec ? 0 : size >> 20;
    IsolationLimits limits;
    limits.cpu_seconds = options.reader_cpu_seconds ? options.reader_cpu_seconds : 30 + 5 * megabytes;
    limits.extra_memory = (std::uint64_t{2} << 30) + 64 * (ec ? 0 : static_cast<std::uint64_t>(size));
    const TriangleSoup part = soup_from_bytes(run_isolated([&] { return read_with_module(file, options); },
                                                           limits, file.string() + ": the geometry reader (Assimp)"),
                                              file);
    const int base = out.vertex_count();
    const int vertices = static_cast<int>(part.verts.size() / 3);
    for (int index : part.tris)
        if (index < 0 || index >= vertices)
            throw Error("the geometry reader's answer has a corner out of range", kNoOffset, file.string());
    out.verts.insert(out.verts.end(), part.verts.begin(), part.verts.end());
    for (int index : part.tris) out.tris.push_back(base + index);
    return part.triangle_count();
}

}  // namespace

LoadedGeometry load_geometry(const std::vector<std::filesystem::path>& files, const GeometryOptions& options) {
    if (options.up != 'y' && options.up != 'z') throw Error("--up must be y or z");
    if (!(options.scale > 0) || !std::isfinite(options.scale)) throw Error("--scale must be a positive number");
    if (files.empty()) throw Error("no geometry file given");
    LoadedGeometry g;
    for (const auto& file : files) g.triangles_per_file.push_back(append_file(file, options, g.soup));
    if (g.soup.triangle_count() == 0) {
        std::string names;
        for (const auto& f : files) names += (names.empty() ? "" : ", ") + f.string();
        throw Error("the scene has no triangle", kNoOffset, names);
    }
    g.min = g.max = {g.soup.verts[0], g.soup.verts[1], g.soup.verts[2]};
    for (std::size_t i = 0; i < g.soup.verts.size(); ++i) {
        const float v = g.soup.verts[i];
        // A scaled coordinate can overflow to infinity even when the file's was finite.
        if (!std::isfinite(v))
            throw Error("coordinate is not finite after --scale", kNoOffset, fmt::format("merged vertex {}", i / 3));
        g.min[i % 3] = std::min(g.min[i % 3], v);
        g.max[i % 3] = std::max(g.max[i % 3], v);
    }
    return g;
}

}  // namespace navlab::build
