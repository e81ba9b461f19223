#include "container/binder_file.h"

#include <fmt/format.h>

#include <charconv>

#include "io/error.h"
#include "io/file.h"
#include "io/text.h"

namespace navlab::container {

BinderFile::BinderFile(BinderFile&&) noexcept = default;
BinderFile& BinderFile::operator=(BinderFile&&) noexcept = default;
BinderFile::~BinderFile() = default;

BinderFile BinderFile::open(const std::filesystem::path& path) {
    BinderFile f;
    f.payload_ = SharedBytes::map_file(path);
    f.parse(path.filename().string(), path.string());
    return f;
}

BinderFile BinderFile::from_bytes(SharedBytes bytes, const std::string& name) {
    BinderFile f;
    f.payload_ = std::move(bytes);
    f.parse(name, name);
    return f;
}

void BinderFile::parse(const std::string& name, const std::string& file) {
    try {
        if (dcx::is_dcx(payload_)) {
            dcx::Decoded d = dcx::decompress(payload_);
            dcx = d.header;
            payload_ = SharedBytes(std::move(d.payload));  // the mapping is released here
        }
        try {
            is_binder = bnd4::is_bnd4(payload_);
            if (is_binder) binder_ = bnd4::read(payload_);  // entries are slices of payload_
        } catch (Error& e) {
            if (dcx) e.in("DCX payload");
            throw;
        }
    } catch (Error& e) {
        e.set_file(file);
        throw;
    }
    if (!is_binder) {
        entries_.push_back({0, 0, name, payload_, false, dcx.has_value()});
        return;
    }
    entries_.reserve(binder_.entries.size());
    for (std::size_t i = 0; i < binder_.entries.size(); ++i) {
        const auto& e = binder_.entries[i];
        entries_.push_back({i, e.id, e.name, e.shared_data(), true, false});
    }
}

const bnd4::Binder& BinderFile::binder() const {
    if (!is_binder) throw Error("not a BND4 binder");
    return binder_;
}

const Entry& BinderFile::find_entry(std::string_view key) const {
    std::size_t index = 0;
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), index);
    if (ec == std::errc() && end == key.data() + key.size()) {
        if (index >= entries_.size())
            throw Error(fmt::format("entry index {} is out of range (the file has {} entries)", index, entries_.size()));
        return entries_[index];
    }
    const Entry* found = nullptr;
    std::size_t matches = 0;
    for (const auto& e : entries_)
        if (e.name == key) return e;
    for (const auto& e : entries_)
        if (leaf_name(e.name) == key) found = &e, ++matches;
    if (matches == 1) return *found;
    if (matches > 1) throw Error(fmt::format("{} entries are named \"{}\"; give the index or the full name", matches, key));
    throw Error(fmt::format("no entry named \"{}\" (give an index, a full name or a file name)", key));
}

std::string entry_context(const Entry& entry) {
    if (entry.in_binder) return "entry " + std::to_string(entry.index) + " (" + entry.name + ")";
    return entry.in_dcx ? "DCX payload" : "";
}

Entry open_entry(const std::filesystem::path& path, std::string_view name_or_index) {
    BinderFile file = BinderFile::open(path);
    if (name_or_index.empty()) return {0, 0, path.filename().string(), file.payload(), false, file.dcx.has_value()};
    try {
        return file.find_entry(name_or_index);
    } catch (Error& e) {
        throw e.set_file(path.string());
    }
}

}  // namespace navlab::container
