// BinderFile — opens any FromSoftware file by path (DCX around BND4, bare BND4, DCX around
// anything, or a plain file) and presents it as a list of entries. This is what the other
// areas use to get at navmesh tagfiles without caring about the container chain.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "codec/dcx.h"
#include "container/bnd4.h"
#include "io/error.h"
#include "io/shared_bytes.h"

namespace navlab::container {

/// One entry of an opened file. `data` keeps the file's (decompressed) bytes alive, so an
/// entry may outlive its BinderFile.
struct Entry {
    std::size_t index = 0;   ///< position in the binder (0 for a non-binder)
    std::int32_t id = 0;     ///< binder ID (0 for a non-binder)
    std::string name;        ///< full entry name, UTF-8 (file name for a non-binder)
    SharedBytes data;
    bool in_binder = false;  ///< a binder member (false: the whole file, decompressed)
    /// A compressed file's whole payload (a DCX that holds no binder, or open_entry's whole
    /// file): offsets in its errors count from the payload, not the file, so readers name
    /// "DCX payload" in the error's field path.
    bool in_dcx = false;
};

class BinderFile {
public:
    /// Opens `path`: decompresses a DCX, parses a BND4 payload; anything else becomes one
    /// entry named by the file name. Errors get the file name and context such as
    /// "DCX payload: BND4 entry 3".
    static BinderFile open(const std::filesystem::path& path);
    /// Same as open() for bytes already in memory; `name` is used for errors and as the
    /// entry name of a non-binder.
    static BinderFile from_bytes(SharedBytes bytes, const std::string& name);
    static BinderFile from_bytes(std::vector<std::uint8_t> bytes, const std::string& name) {
        return from_bytes(SharedBytes(std::move(bytes)), name);
    }

    BinderFile(BinderFile&&) noexcept;
    BinderFile& operator=(BinderFile&&) noexcept;
    ~BinderFile();

    const std::vector<Entry>& entries() const noexcept { return entries_; }
    /// Finds an entry by decimal index ("3"), full name, or name without its folders
    /// ("n10_00_00_00_001000.hkx"). Throws navlab::Error when none or several match.
    const Entry& find_entry(std::string_view name_or_index) const;
    /// The binder (is_binder only).
    const bnd4::Binder& binder() const;
    /// The bytes inside the DCX (or the file itself when not compressed).
    const SharedBytes& payload() const noexcept { return payload_; }

    std::optional<dcx::Header> dcx;  ///< set when the file was compressed
    bool is_binder = false;          ///< payload is a BND4

private:
    BinderFile() = default;
    /// @param name entry name of a non-binder payload; @param file path named in errors.
    void parse(const std::string& name, const std::string& file);
    SharedBytes payload_;  ///< the mapped file, or the decompressed payload
    bnd4::Binder binder_;
    std::vector<Entry> entries_;
};

/// The one way to read an entry of a file on disk (used by `hkx`, `export` and the audit's
/// loaders): opens `path` like BinderFile::open and returns entry `name_or_index`, found as
/// BinderFile::find_entry does; an empty `name_or_index` returns the whole (decompressed)
/// file. The result's bytes keep themselves alive. Errors carry the path.
Entry open_entry(const std::filesystem::path& path, std::string_view name_or_index);

/// Where offsets inside `entry.data` count from, as a field-path context: "entry INDEX (NAME)"
/// for a binder member, "DCX payload" for a compressed file's payload, empty for a plain file
/// (its offsets are the file's own).
std::string entry_context(const Entry& entry);

/// Returns `read(entry.data)` (a format reader); a navlab::Error it throws gets the context of
/// entry_context(), so errors say where their offsets count from.
template <class Read>
auto read_entry(const Entry& entry, Read&& read) -> decltype(read(entry.data)) {
    try {
        return read(entry.data);
    } catch (Error& e) {
        if (const std::string context = entry_context(entry); !context.empty()) e.in(context);
        throw;
    }
}

}  // namespace navlab::container
