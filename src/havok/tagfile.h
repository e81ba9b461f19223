// Reading a Havok binary tagfile (TAG0; spec havok-tagfile.md) strictly, from its own type
// table. The reader never copies DATA: a Tagfile views the caller's bytes (or a mapped file it
// keeps alive), and ObjectView (object.h) reads fields in place. Include havok/object.h to
// call the accessors that return views (object(), root(), named_variants(), find_variant()).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "havok/types.h"
#include "io/byte_reader.h"
#include "io/shared_bytes.h"

namespace navlab::havok {

class ObjectView;
struct NamedVariant;

/// ITEM kind flags (spec §5.1).
enum class ItemKind : std::uint8_t { Null = 0, Pointer = 0x10, Array = 0x20 };

/// One ITEM record: a pointer item (one object of its dynamic type) or an array item (count
/// elements of `type`, which is the element type; strings are arrays of `char`).
struct Item {
    ItemKind kind = ItemKind::Null;
    TypeIndex type = 0;
    std::uint32_t offset = 0;  ///< relative to the DATA payload start
    std::uint32_t count = 0;   ///< pointer items: 1; strings: bytes including the NUL
};

/// One PTCH group: DATA offsets of the non-null reference fields declared with `type`.
struct PatchGroup {
    TypeIndex type = 0;
    std::vector<std::uint32_t> offsets;
};

/// One THSH entry.
struct TypeHash {
    TypeIndex type = 0;
    std::uint32_t hash = 0;
};

/// Distinct TYPE sections whose parsed table read_tagfile keeps per thread, for tagfiles
/// that carry byte-identical ones (and what callers derive from a table and cache beside
/// it: layouts, record summaries). The Sekiro preset's 1,509 tagfiles carry five, one
/// after another in no order; four kept meant 123 parses instead of 5.
inline constexpr std::size_t kTypeTablesKept = 8;

/// Whether `types` shares its records with one of the tables read_tagfile keeps for this
/// thread (a TYPE section that parsed without a warning, read lately). A cache of what is
/// derived from tables should keep entries only for those: a table that is not kept belongs
/// to one tagfile, and an entry for it would push out a shared one.
bool type_table_is_kept(const TypeTable& types);

/// What the reader checks beyond the structure.
struct ReadOptions {
    /// Walk every item and verify references, PTCH, THSH, zero gaps and padding (§13).
    /// Off: sections, types and items are parsed and bounds-checked only.
    bool verify_objects = true;
    /// Types to use when the file has TCRF instead of TYPE. Not supported yet: a file with
    /// TCRF is rejected with a message saying so, whatever this holds.
    const TypeTable* compendium = nullptr;
};

/// Which optional sections and tag spellings the file used, so a writer can repeat them.
struct SectionStyle {
    bool tna1 = true;   ///< TNA1/TBDY (SDK >= 2016.2) rather than TNAM/TBOD
    bool thsh = true;   ///< THSH present
    bool tpad = true;   ///< TPAD present
};

/// A parsed tagfile. Views into the bytes given to read_tagfile (kept alive by `owner` when
/// they were given as SharedBytes, e.g. the file mapped by load_tagfile).
struct Tagfile {
    std::string sdk_version;  ///< SDKV, e.g. "20180100"
    TypeTable types;
    std::vector<Item> items;  ///< items[0] is the null item
    std::vector<PatchGroup> patches;
    std::vector<TypeHash> hashes;
    SectionStyle style;
    Bytes file;                       ///< the whole file
    Bytes data;                       ///< DATA payload
    std::uint64_t data_offset = 0;    ///< file offset of data[0]
    /// Deviations real tools' output may show (ordering, non-minimal varints): reported, not
    /// fatal; each with its absolute file offset and message.
    std::vector<Finding> warnings;
    SharedBytes owner;                ///< `file` with its owner (borrowed for read_tagfile(Bytes))

    /// The object of pointer item `item` (1-based); throws navlab::Error when it is not one.
    ObjectView object(ItemIndex item) const;
    /// Item 1, the hkRootLevelContainer.
    ObjectView root() const;
    /// The root's namedVariants in order (name, className, target object).
    std::vector<NamedVariant> named_variants() const;
    /// The first variant whose target's type is (or derives from) type_name; nullopt if none.
    std::optional<ObjectView> find_variant(std::string_view type_name) const;
    /// The bytes of a string (char array) item without its NUL; empty for item 0.
    std::string_view string(ItemIndex item) const;
    /// Size in bytes of one element of item `item` (its type's resolved size).
    std::uint32_t element_size(ItemIndex item) const { return types[items.at(item).type].resolved_size; }
};

/// The vectors of tagfiles read before, for read_tagfile to fill again: a caller that reads many
/// tagfiles one after another keeps one per thread and so spares most of a read's allocations
/// (ITEM, every PTCH group's offsets, THSH, the TBDY order, warnings; about 15 a Sekiro
/// tagfile). Holds capacity only: what the vectors held is dropped when read_tagfile takes
/// them, and nothing here views a file.
struct TagfileStorage {
    std::vector<Item> items;
    std::vector<PatchGroup> patches;  ///< reused group by group, so each keeps its offsets' capacity
    std::vector<TypeHash> hashes;
    std::vector<TypeIndex> body_order;
    std::vector<Finding> warnings;
    /// Takes the vectors of `file`, which then has none (its views and owner are left to it).
    void keep(Tagfile&& file);
};

/// Parses and strictly checks a tagfile.
/// @param bytes   the whole file; must outlive the result (the result views it).
/// @param options what to verify; see ReadOptions.
/// @return the tagfile with warnings collected; throws navlab::Error (absolute offset, field
///         path, expectation) on the first violation of the format.
Tagfile read_tagfile(Bytes bytes, const ReadOptions& options = {});
/// read_tagfile() into the vectors of `storage` (which it takes; give them back with
/// TagfileStorage::keep). The result and errors are those of read_tagfile(bytes, options).
Tagfile read_tagfile(Bytes bytes, const ReadOptions& options, TagfileStorage& storage);
/// read_tagfile() that keeps `bytes` alive in the result (Tagfile::owner).
Tagfile read_tagfile(const SharedBytes& bytes, const ReadOptions& options = {});

/// Maps `path` and reads it with read_tagfile; the result keeps the mapping alive. Errors
/// carry the file name.
Tagfile load_tagfile(const std::filesystem::path& path, const ReadOptions& options = {});

/// True when bytes start like a tagfile (a TAG0 section header).
bool looks_like_tagfile(Bytes bytes) noexcept;

}  // namespace navlab::havok
