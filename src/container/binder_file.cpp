#include "container/binder_file.h"

#include <fmt/format.h>

#include <charconv>

#include "io/error.h"
#include "io/file.h"

namespace navlab::container {

BinderFile::BinderFile(BinderFile&&) noexcept = default;
BinderFile& BinderFile::operator=(BinderFile&&) noexcept = default;
BinderFile::~BinderFile() = default;

BinderFile BinderFile::open(const std::filesystem::path& path) {
    BinderFile f;
    f.file_ = std::make_unique<InputFile>(path);
    f.payload_ = f.file_->bytes();
    f.parse(path.filename().string(), path.string());
    if (f.dcx) f.file_.reset();  // the payload is decompressed; the mapping is no longer needed
    return f;
}

BinderFile BinderFile::from_bytes(std::vector<std::uint8_t> bytes, const std::string& name) {
    BinderFile f;
    f.owned_ = std::move(bytes);
    f.payload_ = f.owned_;
    f.parse(name, name);
    return f;
}

void BinderFile::parse(const std::string& name, const std::string& file) {
    try {
        if (dcx::is_dcx(payload_)) {
            dcx::Decoded d = dcx::decompress(payload_);
            dcx = d.header;
            owned_ = std::move(d.payload);
            payload_ = owned_;
        }
        try {
            is_binder = bnd4::is_bnd4(payload_);
            if (is_binder) binder_ = bnd4::read(payload_);
        } catch (Error& e) {
            if (dcx) e.in("DCX payload");
            throw;
        }
    } catch (Error& e) {
        e.set_file(file);
        throw;
    }
    if (!is_binder) {
        entries_.push_back({0, 0, name, payload_});
        return;
    }
    entries_.reserve(binder_.entries.size());
    for (std::size_t i = 0; i < binder_.entries.size(); ++i) {
        const auto& e = binder_.entries[i];
        entries_.push_back({i, e.id, e.name, e.data()});
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
    auto base = [](std::string_view n) {
        const auto cut = n.find_last_of("\\/");
        return cut == std::string_view::npos ? n : n.substr(cut + 1);
    };
    const Entry* found = nullptr;
    std::size_t matches = 0;
    for (const auto& e : entries_)
        if (e.name == key) return e;
    for (const auto& e : entries_)
        if (base(e.name) == key) found = &e, ++matches;
    if (matches == 1) return *found;
    if (matches > 1) throw Error(fmt::format("{} entries are named \"{}\"; give the index or the full name", matches, key));
    throw Error(fmt::format("no entry named \"{}\" (give an index, a full name or a file name)", key));
}

}  // namespace navlab::container
