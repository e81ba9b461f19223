// BND4 read and write (spec fromsoft-containers.md §2).
#include "container/bnd4.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "container/text.h"
#include "io/byte_writer.h"
#include "io/error.h"

namespace navlab::bnd4 {
namespace {

constexpr std::size_t kHeaderSize = 0x40;

std::uint8_t reverse_bits(std::uint8_t b) {
    b = static_cast<std::uint8_t>((b & 0xF0) >> 4 | (b & 0x0F) << 4);
    b = static_cast<std::uint8_t>((b & 0xCC) >> 2 | (b & 0x33) << 2);
    return static_cast<std::uint8_t>((b & 0xAA) >> 1 | (b & 0x55) << 1);
}

/// Only the "exactly Names1" format has the extra 8 bytes per record (PC save files).
bool names1_only(std::uint8_t logical) { return logical == kNames1; }

std::uint8_t logical_format(std::uint8_t raw, std::uint8_t bit_big_endian) {
    // §2.2: a PC byte is bit-reversed, unless bit 0 is set and bit 7 clear, which readers
    // take as already logical.
    const bool already_logical = (raw & 0x01) && !(raw & 0x80);
    return bit_big_endian == 1 && !already_logical ? reverse_bits(raw) : raw;
}

/// Scans a NUL-terminated name at `offset`: UTF-16LE (2-byte terminator, even steps) or
/// Shift-JIS (1-byte terminator).
Bytes read_name(const ByteReader& r, std::size_t field_pos, std::uint64_t offset, bool unicode) {
    if (offset >= r.size())
        r.fail_at(field_pos, fmt::format("name offset {} is past the end of the binder ({})", hex(offset), hex(r.size())));
    Bytes rest = r.data().subspan(offset);
    const std::size_t step = unicode ? 2 : 1;
    for (std::size_t i = 0; i + step <= rest.size(); i += step)
        if (rest[i] == 0 && (!unicode || rest[i + 1] == 0)) return rest.first(i);
    r.fail_at(field_pos, fmt::format("name at {} has no terminator before the end of the binder", hex(offset)));
}

struct HashRecord {
    std::uint32_t hash;
    std::int32_t index;
};

/// Checks the hash table's structure (§2.6); its content is rebuilt by write().
void check_hash_table(ByteReader& r, std::uint64_t table_offset, std::size_t entries) {
    r.set_context("BND4 hash table");
    if (table_offset > r.size()) r.fail_at(0x38, fmt::format("hash-table offset {} is past the end", hex(table_offset)));
    r.seek(table_offset, "hash table");
    const std::int64_t records_offset = r.i64("hash records offset");
    const std::uint32_t groups = r.u32("group count");
    const std::uint8_t sizes[4] = {r.u8("header size"), r.u8("group record size"), r.u8("hash record size"),
                                   r.u8("zero")};
    if (sizes[0] != 0x10 || sizes[1] != 8 || sizes[2] != 8 || sizes[3] != 0)
        r.fail_at(table_offset + 12, fmt::format("hash-table sizes are {:02X} {:02X} {:02X} {:02X}, expected 10 08 08 00",
                                                 sizes[0], sizes[1], sizes[2], sizes[3]));
    if (std::uint64_t{groups} * 8 > r.remaining())
        r.fail_at(table_offset + 8, fmt::format("group count {} needs {} bytes, only {} remain", groups,
                                                std::uint64_t{groups} * 8, r.remaining()));
    if (records_offset < 0 || static_cast<std::uint64_t>(records_offset) > r.size() ||
        (r.size() - records_offset) / 8 < entries)
        r.fail_at(table_offset, fmt::format("hash records offset {} leaves no room for {} records", hex(records_offset),
                                            entries));
    std::uint64_t total = 0;
    for (std::uint32_t g = 0; g < groups; ++g) {
        const std::int32_t count = r.i32("group record count");
        const std::int32_t first = r.i32("group first record");
        if (count < 0 || first < 0 || static_cast<std::uint64_t>(first) + count > entries)
            r.fail_at(r.pos() - 8, fmt::format("hash group {} covers records [{}, {}+{}) outside the {} records", g,
                                               first, first, count, entries));
        total += static_cast<std::uint64_t>(count);
    }
    if (total != entries)
        r.fail_at(table_offset + 8, fmt::format("hash groups hold {} records, the binder has {} entries", total, entries));
    r.seek(records_offset, "hash records");
    for (std::size_t i = 0; i < entries; ++i) {
        r.u32("hash");
        const std::int32_t index = r.i32("hash entry index");
        if (index < 0 || static_cast<std::size_t>(index) >= entries)
            r.fail_at(r.pos() - 4, fmt::format("hash record {} points at entry {} of {}", i, index, entries));
    }
}

Entry read_entry(ByteReader& r, const Header& h, std::uint8_t fmt_bits) {
    Entry e;
    e.flags_raw = r.u8("flags");
    const Bytes pad = r.bytes(3, "record padding");
    if (pad[0] | pad[1] | pad[2]) r.fail_at(r.pos() - 3, "record padding after the flags is not zero");
    e.field04 = r.i32("field +4");
    const std::size_t size_pos = r.pos();
    const std::int64_t size = r.i64("stored size");
    if (size < 0) r.fail_at(size_pos, fmt::format("stored size {} is negative", size));
    if (fmt_bits & kCompression) e.uncompressed_size = r.i64("uncompressed size");
    const std::size_t offset_pos = r.pos();
    const std::uint64_t data_offset = (fmt_bits & kLongOffsets) ? r.u64("data offset") : r.u32("data offset");
    if (data_offset > r.size() || r.size() - data_offset < static_cast<std::uint64_t>(size))
        r.fail_at(offset_pos, fmt::format("data [{}, +{}) runs past the end of the binder ({})", hex(data_offset), size,
                                          hex(r.size())));
    e.set_data(SharedBytes::borrow(r.data().subspan(data_offset, static_cast<std::size_t>(size))));
    if (fmt_bits & kIds) e.id = r.i32("id");
    if (fmt_bits & (kNames1 | kNames2)) {
        const std::size_t name_pos = r.pos();
        const Bytes raw = read_name(r, name_pos, r.u32("name offset"), h.unicode);
        e.name_raw.assign(raw.begin(), raw.end());
        e.name = decode_name(raw, h.unicode);
    }
    if (names1_only(fmt_bits)) {
        e.names1_extra = r.i32("Names1 extra");
        e.names1_zero = r.i32("Names1 zero");
    }
    return e;
}

/// Hash of an entry's full name as UTF-16 code units (what FromSoftware hashes).
std::uint32_t entry_hash(const Entry& e, bool unicode) {
    return path_hash(unicode ? text::utf16le_units(e.name_raw) : text::utf8_to_utf16(e.name));
}

/// Writes the §2.6 hash table: header, one record per group (count, first record), then
/// the records sorted by group, then hash, then entry index.
void write_hash_table(ByteWriter& w, const Binder& b) {
    const std::uint32_t groups = hash_group_count(b.entries.size());
    std::vector<HashRecord> records(b.entries.size());
    for (std::size_t i = 0; i < records.size(); ++i)
        records[i] = {entry_hash(b.entries[i], b.header.unicode), static_cast<std::int32_t>(i)};
    std::stable_sort(records.begin(), records.end(), [groups](const HashRecord& a, const HashRecord& c) {
        const std::uint32_t ga = a.hash % groups, gc = c.hash % groups;
        return ga != gc ? ga < gc : a.hash < c.hash;
    });
    w.i64(static_cast<std::int64_t>(w.size() + 16 + 8ull * groups));
    w.u32(groups);
    w.u8(0x10);
    w.u8(8);
    w.u8(8);
    w.u8(0);
    std::size_t next = 0;
    for (std::uint32_t g = 0; g < groups; ++g) {
        const std::size_t first = next;
        while (next < records.size() && records[next].hash % groups == g) ++next;
        w.i32(static_cast<std::int32_t>(next - first));
        w.i32(static_cast<std::int32_t>(first));  // empty groups still carry the running index
    }
    for (const auto& r : records) {
        w.u32(r.hash);
        w.i32(r.index);
    }
}

}  // namespace

std::uint8_t Header::format() const noexcept { return logical_format(format_raw, bit_big_endian); }

void Header::set_format(std::uint8_t logical) noexcept {
    format_raw = bit_big_endian == 1 ? reverse_bits(logical) : logical;
}

bool Header::records_big_endian() const noexcept { return big_endian != 0 || (format() & kBigEndian); }

std::string Header::version_string() const {
    std::string s(version.begin(), version.end());
    return s.substr(0, s.find('\0'));
}

void Header::set_version(std::string_view text) {
    if (text.size() > version.size())
        throw Error(fmt::format("BND4 version \"{}\" is longer than 8 characters", text));
    version.fill(0);
    std::copy(text.begin(), text.end(), version.begin());
}

std::uint8_t Entry::flags(const Header& header) const noexcept {
    return header.bit_big_endian == 1 ? reverse_bits(flags_raw) : flags_raw;
}

std::size_t record_size(std::uint8_t f) noexcept {
    return 0x10 + ((f & kLongOffsets) ? 8 : 4) + ((f & kCompression) ? 8 : 0) + ((f & kIds) ? 4 : 0) +
           ((f & (kNames1 | kNames2)) ? 4 : 0) + (names1_only(f) ? 8 : 0);
}

bool is_bnd4(Bytes bytes) { return bytes.size() >= 4 && std::memcmp(bytes.data(), "BND4", 4) == 0; }

Binder read(Bytes bytes) {
    ByteReader r(bytes);
    r.set_context("BND4 header");
    Binder b;
    Header& h = b.header;
    r.expect("BND4", "magic");
    h.unk04 = r.u8("unk04");
    h.unk05 = r.u8("unk05");
    const Bytes z = r.bytes(3, "zero 0x06");
    std::copy(z.begin(), z.end(), h.zero06.begin());
    h.big_endian = r.u8("big-endian flag (0x09)");
    h.bit_big_endian = r.u8("bit big-endian flag (0x0A)");
    h.zero0b = r.u8("zero 0x0B");
    h.format_raw = r.peek_at<std::uint8_t>(0x31, "format (0x31)");
    const std::uint8_t f = h.format();
    r.set_endian(h.records_big_endian() ? Endian::Big : Endian::Little);
    const std::int32_t count = r.i32("file count (0x0C)");
    const std::int64_t header_size = r.i64("header size (0x10)");
    const Bytes version = r.bytes(8, "version (0x18)");
    std::copy(version.begin(), version.end(), h.version.begin());
    const std::int64_t rec_size = r.i64("record size (0x20)");
    const std::int64_t headers_end = r.i64("headers end (0x28)");
    h.unicode = r.u8("unicode (0x30)");
    r.u8("format (0x31)");
    h.extended = r.u8("extended (0x32)");
    h.zero33 = r.u8("zero 0x33");
    h.zero34 = r.u32("zero 0x34");
    const std::int64_t hash_offset = r.i64("hash-table offset (0x38)");
    if (h.extended != 4) h.unused_hash_offset = hash_offset;

    if (header_size != kHeaderSize) r.fail_at(0x10, fmt::format("header size is {}, expected 0x40", hex(header_size)));
    if (static_cast<std::uint64_t>(rec_size) != record_size(f))
        r.fail_at(0x20, fmt::format("record size is {}, but format {} (logical {}) needs {}", hex(rec_size),
                                    hex(h.format_raw), hex(f), hex(record_size(f))));
    if (count < 0) r.fail_at(0x0C, fmt::format("file count {} is negative", count));
    if (static_cast<std::uint64_t>(count) * record_size(f) > r.remaining())
        r.fail_at(0x0C, fmt::format("file count {} needs {} bytes of records, only {} remain", count,
                                    static_cast<std::uint64_t>(count) * record_size(f), r.remaining()));
    if (headers_end < 0 || static_cast<std::uint64_t>(headers_end) > bytes.size())
        r.fail_at(0x28, fmt::format("headers end {} is past the end of the binder ({})", hex(headers_end),
                                    hex(bytes.size())));

    b.entries.reserve(static_cast<std::size_t>(count));
    for (std::int32_t i = 0; i < count; ++i) {
        r.set_context(fmt::format("BND4 entry {}", i));
        b.entries.push_back(read_entry(r, h, f));
    }
    if (h.extended == 4) check_hash_table(r, static_cast<std::uint64_t>(hash_offset), b.entries.size());
    return b;
}

Binder read(const SharedBytes& bytes) {
    Binder b = read(bytes.span());
    for (Entry& e : b.entries) e.set_data(bytes.slice(e.data()));
    return b;
}

std::vector<std::uint8_t> write(const Binder& b) {
    const Header& h = b.header;
    const std::uint8_t f = h.format();
    const bool names = f & (kNames1 | kNames2);
    ByteWriter w(h.records_big_endian() ? Endian::Big : Endian::Little);
    if (b.entries.size() > 0x7FFFFFFF) throw Error("BND4: too many entries");
    w.bytes("BND4");
    w.u8(h.unk04);
    w.u8(h.unk05);
    w.bytes(h.zero06);
    w.u8(h.big_endian);
    w.u8(h.bit_big_endian);
    w.u8(h.zero0b);
    w.i32(static_cast<std::int32_t>(b.entries.size()));
    w.i64(kHeaderSize);
    w.bytes(h.version);
    w.i64(static_cast<std::int64_t>(record_size(f)));
    w.reserve<std::int64_t>("headers end");
    w.u8(h.unicode);
    w.u8(h.format_raw);
    w.u8(h.extended);
    w.u8(h.zero33);
    w.u32(h.zero34);
    w.reserve<std::int64_t>("hash-table offset");

    std::vector<std::size_t> data_offset_pos(b.entries.size()), name_offset_pos(b.entries.size());
    for (std::size_t i = 0; i < b.entries.size(); ++i) {
        const Entry& e = b.entries[i];
        w.u8(e.flags_raw);
        w.fill(3);
        w.i32(e.field04);
        w.i64(static_cast<std::int64_t>(e.data().size()));
        if (f & kCompression)
            w.i64(e.uncompressed_size >= 0 ? e.uncompressed_size : static_cast<std::int64_t>(e.data().size()));
        data_offset_pos[i] = w.size();
        (f & kLongOffsets) ? w.u64(0) : w.u32(0);
        if (f & kIds) w.i32(e.id);
        name_offset_pos[i] = w.size();
        if (names) w.u32(0);
        if (names1_only(f)) {
            w.i32(e.names1_extra);
            w.i32(e.names1_zero);
        }
    }
    if (names) {
        for (std::size_t i = 0; i < b.entries.size(); ++i) {
            w.patch_at(name_offset_pos[i], static_cast<std::uint32_t>(w.size()));
            w.bytes(b.entries[i].name_raw);
            w.fill(h.unicode ? 2 : 1);
        }
    }
    if (h.extended == 4) {
        w.align(8);
        w.fill_reserved<std::int64_t>("hash-table offset", static_cast<std::int64_t>(w.size()));
        write_hash_table(w, b);
    } else {
        w.fill_reserved<std::int64_t>("hash-table offset", h.unused_hash_offset);
    }
    w.fill_reserved<std::int64_t>("headers end", static_cast<std::int64_t>(w.size()));
    for (std::size_t i = 0; i < b.entries.size(); ++i) {
        const Bytes data = b.entries[i].data();
        // FromSoftware aligns every non-empty entry to 16; empty ones take the position as is.
        if (!data.empty()) w.align(16);
        if (f & kLongOffsets) {
            w.patch_at(data_offset_pos[i], static_cast<std::uint64_t>(w.size()));
        } else {
            if (w.size() > 0xFFFFFFFFu)
                throw Error(fmt::format("BND4 entry {}: data offset {} needs the long-offsets format", i, hex(w.size())));
            w.patch_at(data_offset_pos[i], static_cast<std::uint32_t>(w.size()));
        }
        w.bytes(data);
    }
    return std::move(w).finish();
}

}  // namespace navlab::bnd4
