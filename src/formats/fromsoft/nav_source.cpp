#include "formats/fromsoft/nav_source.h"

#include <algorithm>

#include "container/binder_file.h"
#include "io/error.h"
#include "io/text.h"

namespace navlab::fromsoft {

bool is_nav_file_name(const std::filesystem::path& path) {
    const std::string name = path.filename().string();
    return ends_with_nocase(name, ".nvmhktbnd.dcx") || ends_with_nocase(name, ".nvmhktbnd") ||
           ends_with_nocase(name, ".hkx");
}

std::vector<std::filesystem::path> find_nav_files(const std::filesystem::path& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) throw Error("no such file or directory: " + path.string());
    if (!std::filesystem::is_directory(status)) return {path};
    std::vector<std::filesystem::path> files;
    for (std::filesystem::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file() && is_nav_file_name(it->path())) files.push_back(it->path());
    if (ec) throw Error("cannot list " + path.string() + ": " + ec.message());
    std::sort(files.begin(), files.end());
    return files;
}

container::Entry container_entry(const NavEntry& entry) {
    return {entry.index, 0, entry.name, entry.bytes, entry.in_binder, entry.in_dcx};
}

NavFile NavFile::open(const std::filesystem::path& file) {
    try {
        return from_binder(std::make_shared<const container::BinderFile>(container::BinderFile::open(file)), file);
    } catch (Error& e) {
        e.set_file(file.string());
        throw;
    }
}

NavFile NavFile::from_bytes(SharedBytes bytes, const std::string& name) {
    try {
        return from_binder(
            std::make_shared<const container::BinderFile>(container::BinderFile::from_bytes(std::move(bytes), name)), name);
    } catch (Error& e) {
        e.set_file(name);
        throw;
    }
}

NavFile NavFile::select(std::string_view entry) const {
    if (entry.empty()) return *this;
    NavFile one;
    one.name_ = name_;
    one.binder_ = binder_;
    try {
        const container::Entry& e = binder_->find_entry(entry);
        one.entries_.push_back({binder_->is_binder, e.index, e.name, e.data, e.in_dcx});
    } catch (Error& e) {
        e.set_file(name_);
        throw;
    }
    return one;
}

NavFile NavFile::from_binder(std::shared_ptr<const container::BinderFile> b, const std::filesystem::path& file) {
    NavFile nav;
    nav.name_ = file.string();
    nav.binder_ = std::move(b);
    nav.entries_.reserve(nav.binder_->entries().size());
    for (const container::Entry& e : nav.binder_->entries()) {
        if (nav.binder_->is_binder && !ends_with_nocase(e.name, ".hkx")) continue;
        nav.entries_.push_back({nav.binder_->is_binder, e.index, e.name, e.data, e.in_dcx});
    }
    return nav;
}

}  // namespace navlab::fromsoft
