// BND4 — FromSoftware's binder (spec fromsoft-containers.md §2): a header, one record per
// entry, the entry names, an optional hash table of the names, then the entry data.
//
// read() is strict and keeps every header field raw; write() emits exactly the layout
// FromSoftware writes (records, packed names, 8-byte pad, hash table, 16-aligned data,
// nothing after the last entry), so read-then-write of a real binder is byte-identical.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_reader.h"
#include "io/shared_bytes.h"

namespace navlab::bnd4 {

/// Logical format bits (SoulsFormats Binder.Format). On PC the disk byte at 0x31 is the
/// bit-reverse of these (see Header::format_raw).
enum FormatBit : std::uint8_t {
    kBigEndian = 0x01,    ///< force big-endian
    kIds = 0x02,          ///< each entry has an i32 ID
    kNames1 = 0x04,       ///< entries have names
    kNames2 = 0x08,       ///< entries have names
    kLongOffsets = 0x10,  ///< data offset is i64
    kCompression = 0x20,  ///< each entry has an i64 uncompressed size
    kFlag6 = 0x40,
    kFlag7 = 0x80,
};

/// Logical per-entry flag: the stored bytes are a whole DCX file (disk 0x80 on PC).
inline constexpr std::uint8_t kEntryCompressed = 0x01;
/// The per-entry disk flag byte every FromSoftware binder uses (logical 0x02).
inline constexpr std::uint8_t kStandardEntryFlags = 0x40;

/// The 0x40-byte header, every field raw.
struct Header {
    std::uint8_t unk04 = 0;                       ///< 0x04
    std::uint8_t unk05 = 0;                       ///< 0x05
    std::array<std::uint8_t, 3> zero06{};         ///< 0x06..0x08, zero in every known file
    std::uint8_t big_endian = 0;                  ///< 0x09: 1 = integers are big-endian
    std::uint8_t bit_big_endian = 1;              ///< 0x0A: 1 = flag bytes bit-reversed (PC)
    std::uint8_t zero0b = 0;                      ///< 0x0B
    std::array<std::uint8_t, 8> version{};        ///< 0x18: ASCII date code, zero-padded ("07D7R6")
    std::uint8_t unicode = 1;                     ///< 0x30: 1 = UTF-16LE names, 0 = Shift-JIS
    std::uint8_t format_raw = 0x74;               ///< 0x31: format byte as on disk
    std::uint8_t extended = 4;                    ///< 0x32: 4 = hash table present
    std::uint8_t zero33 = 0;                      ///< 0x33
    std::uint32_t zero34 = 0;                     ///< 0x34
    std::int64_t unused_hash_offset = 0;          ///< 0x38 when there is no hash table (kept as read)

    /// The logical format bits (FormatBit), undoing the disk bit order.
    std::uint8_t format() const noexcept;
    /// Sets format_raw from logical FormatBit bits in this header's disk bit order.
    void set_format(std::uint8_t logical) noexcept;
    /// Whether records, names offsets and the hash table are big-endian.
    bool records_big_endian() const noexcept;
    /// The version string without its zero padding.
    std::string version_string() const;
    /// Sets the version from up to 8 ASCII characters; throws navlab::Error when longer.
    void set_version(std::string_view text);
};

/// One entry. Its data are SharedBytes: a slice that keeps the binder's bytes alive (read()
/// of SharedBytes), a borrowed view (read() of a span: keep the span alive), or bytes the
/// entry owns (set_data).
struct Entry {
    std::int32_t id = 0;                      ///< meaningful when the format has kIds
    std::vector<std::uint8_t> name_raw;       ///< name as on disk, without the terminator
    std::string name;                         ///< UTF-8 view of name_raw
    std::uint8_t flags_raw = kStandardEntryFlags;  ///< per-entry flags as on disk
    std::int32_t field04 = -1;                ///< record +4, -1 in every known file
    std::int64_t uncompressed_size = -1;      ///< with kCompression; -1 = "same as stored size"
    std::int32_t names1_extra = 0;            ///< the extra i32 of the Names1-only layout
    std::int32_t names1_zero = 0;             ///< the i32 after it

    /// The stored bytes.
    Bytes data() const noexcept { return bytes_; }
    /// The stored bytes with their owner (empty owner for a borrowed view).
    const SharedBytes& shared_data() const noexcept { return bytes_; }
    /// Sets the stored bytes (a slice, a borrowed view or owned bytes).
    void set_data(SharedBytes bytes) { bytes_ = std::move(bytes); }
    /// Gives the entry these bytes to own.
    void set_data(std::vector<std::uint8_t> bytes) { bytes_ = SharedBytes(std::move(bytes)); }
    /// The logical per-entry flags for a header with the given 0x0A byte.
    std::uint8_t flags(const Header& header) const noexcept;

private:
    SharedBytes bytes_;
};

struct Binder {
    Header header;
    std::vector<Entry> entries;

    bool has_ids() const noexcept { return header.format() & kIds; }
    bool has_names() const noexcept { return header.format() & (kNames1 | kNames2); }
    bool has_hash_table() const noexcept { return header.extended == 4; }
};

/// True when bytes start with "BND4".
bool is_bnd4(Bytes bytes);

/// Reads a BND4 image strictly: every count, offset and size is checked against the data
/// before use. Entry data are views into `bytes` (keep them alive). Throws navlab::Error
/// with the absolute offset and a field path such as "BND4 entry 3: name offset".
Binder read(Bytes bytes);
/// read() whose entry data are slices of `bytes` that keep them alive.
Binder read(const SharedBytes& bytes);

/// Writes `binder` in FromSoftware's layout; the hash table is rebuilt from the names.
/// Throws navlab::Error when an entry cannot be encoded (e.g. a name with no raw bytes
/// for a binder with names, or an offset past 4 GiB without kLongOffsets).
std::vector<std::uint8_t> write(const Binder& binder);

/// Size of one entry record for a logical format (§2.3 formula).
std::size_t record_size(std::uint8_t logical_format) noexcept;

/// The §2.6 path hash of a name given as UTF-16 code units (lower-cased, '\' -> '/',
/// leading '/' added, h = h * 37 + c mod 2^32).
std::uint32_t path_hash(std::u16string_view name);
/// path_hash of a UTF-8 name.
std::uint32_t path_hash_utf8(std::string_view name);

/// Hash-table group count for n entries: the smallest prime >= max(2, n / 7).
std::uint32_t hash_group_count(std::size_t n);

/// Encodes a UTF-8 name as the binder's raw name bytes (UTF-16LE or Shift-JIS).
/// Throws navlab::Error when the text is not valid UTF-8 or not representable.
std::vector<std::uint8_t> encode_name(std::string_view utf8, bool unicode);
/// Decodes raw name bytes to UTF-8 (invalid sequences become U+FFFD).
std::string decode_name(Bytes raw, bool unicode);

/// One file of a binder to build.
struct NewEntry {
    std::string name;  ///< full name, UTF-8 (e.g. N:\GR\data\INTERROOT_win64\map\m10_00_00_00\navimesh\bind6\n10_00_00_00_001000.hkx)
    std::int32_t id = 0;
    std::vector<std::uint8_t> data;
};

/// Builds a new binder the way FromSoftware lays out Sekiro/ER navmesh binders (§2.9,
/// §2.10): version "07D7R6", format 0x74 (IDs, names, uncompressed sizes), UTF-16 names,
/// hash table, per-entry flags 0x40, entries sorted by ascending ID (stable).
Binder build_navmesh_binder(std::vector<NewEntry> files);

/// The entry name FromSoftware tools give an ER navmesh file: 
/// N:\GR\data\INTERROOT_win64\map\m<map>\navimesh\bind6\<file> (map like "10_00_00_00").
std::string er_navmesh_entry_name(std::string_view map, std::string_view file);

}  // namespace navlab::bnd4
