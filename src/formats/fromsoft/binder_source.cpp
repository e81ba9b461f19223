#include "formats/fromsoft/binder_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "container/archive/navmesh_search.h"
#include "container/archive/path_hash.h"
#include "io/error.h"

namespace navlab::fromsoft {
namespace {

namespace fs = std::filesystem;

/// "m10_00_00_00" for a file named m10_00_00_00.nvmhktbnd.dcx, else "".
std::string map_id_of(const fs::path& file) {
    const std::string name = file.filename().string();
    const std::string stem = name.substr(0, name.find('.'));
    const bool looks = stem.size() == 12 && stem[0] == 'm' && stem[3] == '_' && stem[6] == '_' && stem[9] == '_';
    return looks ? stem : std::string();
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

/// The first few map ids of `binders` (or their names: `names`, or a binder without a map id),
/// for errors that ask the user to choose.
std::string some_maps(const std::vector<BinderRef>& binders, bool names = false) {
    std::string out;
    for (std::size_t i = 0; i < binders.size() && i < 4; ++i)
        out += (i ? ", " : "") + (names || binders[i].map_id.empty() ? binders[i].name : binders[i].map_id);
    if (binders.size() > 4) out += ", ...";
    return out;
}

}  // namespace

BinderSource::BinderSource(BinderSource&&) noexcept = default;
BinderSource& BinderSource::operator=(BinderSource&&) noexcept = default;
BinderSource::~BinderSource() = default;

BinderSource BinderSource::open(const fs::path& path, const SourceOptions& options) {
    BinderSource s;
    s.origin_ = path.string();
    if (archive::is_game_dir(path)) {
        archive::OpenOptions o;
        o.game = options.game;
        o.keysDir = options.keys;
        o.threads = options.threads;
        o.cacheDir = options.cache;
        s.install_ = std::make_unique<archive::GameInstall>(archive::GameInstall::open(path, o));
        for (const archive::NamedEntry& b : archive::find_navmesh_binders(*s.install_)) {
            const std::string& stem = s.install_->archives()[b.ref.archive].stem;
            s.binders_.push_back({lower(stem) + ":" + b.path, b.mapId, s.install_->header(b.ref).size()});
            s.refs_.push_back(b.ref);
        }
        if (s.binders_.empty())
            throw Error(fmt::format("no navmesh binder found in the {} install {}", archive::game_name(s.install_->game()),
                                    s.install_->gameDir().string()));
    } else {
        s.files_ = find_nav_files(path);
        if (s.files_.empty()) throw Error("no navmesh binders or tagfiles found under " + s.origin_);
        for (const fs::path& f : s.files_) {
            std::error_code ec;
            const auto size = fs::file_size(f, ec);
            s.binders_.push_back({f.string(), map_id_of(f), ec ? 0 : static_cast<std::uint64_t>(size)});
        }
    }
    if (!options.maps.empty()) s.select(options.maps);
    return s;
}

std::vector<bool> BinderSource::matching(const std::string& sel) const {
    // An install's binder by archive path in any spelling; a file by its path or name.
    const std::string archive_path = install_ ? archive::normalize_archive_path(sel) : std::string();
    std::vector<bool> hits(binders_.size(), false);
    for (std::size_t i = 0; i < binders_.size(); ++i) {
        const BinderRef& b = binders_[i];
        hits[i] = sel == b.map_id || sel == b.name ||
                  (install_ ? b.name.substr(b.name.find(':') + 1) == archive_path
                            : fs::path(b.name).filename() == sel || fs::path(b.name) == fs::path(sel));
    }
    return hits;
}

bool BinderSource::holds(const std::string& selector) const {
    const std::vector<bool> hits = matching(selector);
    return std::find(hits.begin(), hits.end(), true) != hits.end();
}

void BinderSource::select(const std::vector<std::string>& selectors) {
    std::vector<bool> keep(binders_.size(), false);
    for (const std::string& sel : selectors) {
        const std::vector<bool> hits = matching(sel);
        if (std::find(hits.begin(), hits.end(), true) == hits.end())
            throw Error(fmt::format("map {} is not in {} ({} navmesh binder{}: {}; `navlab archive ls` lists an "
                                    "install's)",
                                    sel, origin_, binders_.size(), binders_.size() == 1 ? "" : "s", some_maps(binders_)));
        for (std::size_t i = 0; i < hits.size(); ++i) keep[i] = keep[i] || hits[i];
    }
    std::size_t out = 0;
    for (std::size_t i = 0; i < binders_.size(); ++i) {
        if (!keep[i]) continue;
        if (out != i) {  // a self-move would empty the strings
            binders_[out] = std::move(binders_[i]);
            if (install_) refs_[out] = refs_[i];
            else files_[out] = std::move(files_[i]);
        }
        ++out;
    }
    binders_.resize(out);
    if (install_) refs_.resize(out);
    else files_.resize(out);
}

SharedBytes BinderSource::read(std::size_t i) const {
    if (!install_) return SharedBytes::map_file(files_.at(i));
    try {
        return SharedBytes(install_->read(refs_.at(i)));
    } catch (Error& e) {
        e.in(binders_[i].name);
        throw;
    }
}

NavFile BinderSource::open_nav(std::size_t i) const {
    // Files keep NavFile::open so their errors and names are exactly those of a path given alone.
    if (!install_) return NavFile::open(files_.at(i));
    return NavFile::from_bytes(read(i), binders_[i].name);
}

NavFile open_one_binder(const fs::path& path, const SourceOptions& options) {
    const BinderSource source = BinderSource::open(path, options);
    const auto& b = source.binders();
    const bool oneMap = std::all_of(b.begin(), b.end(), [&](const BinderRef& r) {
        return !r.map_id.empty() && r.map_id == b.front().map_id;
    });
    if (b.size() > 1 && !oneMap)
        throw Error(fmt::format("{} holds {} navmesh binders ({}): choose one with --map MAP_ID (or its path)",
                                source.origin(), b.size(), some_maps(b)));
    // Files of one map id in a folder are different files (a copy, another layout), not the
    // archives' copies of one binder: which one is meant is the user's to say.
    if (b.size() > 1 && !source.install())
        throw Error(fmt::format("{} holds {} navmesh binders of map {} ({}): choose one with --map PATH", source.origin(),
                                b.size(), b.front().map_id, some_maps(b, true)));
    return source.open_nav(0);
}

bool is_binder_source(const fs::path& path, const SourceOptions& options) {
    return !options.maps.empty() || archive::is_game_dir(path);
}

}  // namespace navlab::fromsoft
