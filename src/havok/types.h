// The type table of a Havok tagfile (TYPE section: TNA1/TNAM names and template parameters,
// TBDY/TBOD bodies, THSH hashes). Types are 1-based; index 0 is "none" everywhere.
// Values absent from a type's own record (optional bits clear) are inherited from its parent
// chain; Type keeps both the declared record (for byte-exact writing) and the resolved values.
//
// Names (Type::name, TemplateParam::name, Member::name) are views, not strings: a type
// section holds a few hundred of them, and one allocation each was most of what reading it
// cost. A name views either bytes of static storage duration (string literals: the embedded
// type sets, tests) or bytes a TypeTable holds (hold_names(): the reader's copy of the TYPE
// section). The bytes live as long as the table or any copy of it, so a name is valid for as
// long as the TypeTable it was read from (or a copy) is alive, like a reference from at().
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace navlab::havok {

using TypeIndex = std::uint32_t;  ///< 1-based index into a TypeTable; 0 = none
using ItemIndex = std::uint32_t;  ///< 1-based index into a tagfile's ITEM table; 0 = null

/// Low nibble of the format word (spec §4.5).
enum class Kind : std::uint8_t { Void = 0, Opaque, Bool, String, Int, Float, Pointer, Record, Array };

/// Bits of the TBDY optional mask (spec §4.4).
enum Optional : std::uint32_t {
    kOptFormat = 0x01,
    kOptSubtype = 0x02,
    kOptVersion = 0x04,
    kOptSizeAlign = 0x08,
    kOptFlags = 0x10,
    kOptMembers = 0x20,
    kOptInterfaces = 0x40,
    kOptAttributes = 0x80,  ///< never seen; rejected by the reader
};

/// Member flags (spec §4.7).
enum MemberFlag : std::uint32_t { kMemberNotSerialized = 1, kMemberField = 32 };

/// Format word bits (spec §4.5).
inline constexpr std::uint32_t kFormatSigned = 0x200;
inline constexpr std::uint32_t kFormatInlineArray = 0x20;

/// A template parameter: name with its one-letter kind prefix ('t' type, 'v' value).
struct TemplateParam {
    std::string_view name;    ///< e.g. "tT", "tAllocator", "vN"; bytes owned as the file comment says
    std::uint64_t value = 0;  ///< a TypeIndex for 't' parameters, an integer for 'v'
    bool is_type() const noexcept { return !name.empty() && name[0] == 't'; }
};

/// A serialized or reflected member declared by one type (parent members are not repeated).
struct Member {
    std::string_view name;     ///< bytes owned as the file comment says
    std::uint32_t flags = 0;   ///< MemberFlag bits
    std::uint32_t offset = 0;  ///< byte offset from the start of the object (parents included)
    TypeIndex type = 0;
    bool serialized() const noexcept { return (flags & kMemberNotSerialized) == 0; }
};

/// An interface: its type and the byte offset of its vtable pointer inside the object.
struct Interface {
    TypeIndex type = 0;
    std::uint32_t offset = 0;
};

/// One type record. The "declared" fields hold exactly what the TBDY record stores (valid
/// when the matching optional bit is set); the resolved fields apply parent inheritance.
struct Type {
    std::string_view name;  ///< base name without template arguments ("hkArray", "T*"); see the file comment
    std::vector<TemplateParam> params;
    TypeIndex parent = 0;
    std::uint32_t optionals = 0;  ///< Optional bits of the record, kept for writing
    std::uint32_t format = 0;     ///< declared format word
    TypeIndex subtype = 0;        ///< declared subtype
    std::uint32_t version = 0;    ///< declared version (0 when absent; not inherited)
    std::uint32_t size = 0, alignment = 0;  ///< declared size and alignment in bytes
    std::uint32_t flags = 0;                ///< declared type flags (§4.6), kept verbatim
    std::vector<Member> members;            ///< declared fields, in record order
    std::uint32_t property_count = 0;       ///< high 16 bits of the member count
    std::vector<Interface> interfaces;
    std::optional<std::uint32_t> hash;  ///< THSH value when the file (or type set) has one

    // Resolved through the parent chain (filled by TypeTable::resolve()).
    std::uint32_t resolved_format = 0;
    TypeIndex resolved_subtype = 0;
    std::uint32_t resolved_size = 0, resolved_alignment = 0;

    Kind kind() const noexcept { return static_cast<Kind>(resolved_format & 0xF); }
    /// True for inline fixed-size arrays T[N] (array kind with bit 0x20).
    bool is_inline_array() const noexcept { return kind() == Kind::Array && (resolved_format & kFormatInlineArray); }
    /// Element count N of an inline array.
    std::uint32_t inline_count() const noexcept { return resolved_format >> 8; }
    /// True for the hkArray layout: non-inline array kind of 16 bytes (spec §5.2).
    bool is_hk_array() const noexcept {
        return kind() == Kind::Array && !(resolved_format & kFormatInlineArray) && resolved_size == 16;
    }
    /// True when a field of this type holds an item index (pointer, string, hkArray).
    bool is_reference() const noexcept { return kind() == Kind::Pointer || kind() == Kind::String || is_hk_array(); }
};

/// All types of one tagfile (or of an embedded type set), 1-based. Copies share the records
/// until one of them is changed (copy on write), so a table parsed once can serve every
/// tagfile whose TYPE section is byte-identical (read_tagfile's cache) at the cost of a
/// reference count. A reference returned by at() is valid until the table is next copied.
class TypeTable {
public:
    /// Whether both tables view the very same records (copies that neither has changed since):
    /// what was derived from one (layouts) holds for the other.
    bool shares_records_with(const TypeTable& other) const noexcept { return types_ && types_ == other.types_; }
    /// Number of types N (valid indices are 1..N).
    std::size_t size() const noexcept { return !types_ || types_->types.empty() ? 0 : types_->types.size() - 1; }
    bool valid(TypeIndex t) const noexcept { return types_ && t >= 1 && t < types_->types.size(); }
    /// The type at index t (1..N); throws navlab::Error when out of range. Inline: the read,
    /// the verifier and the model ask it ≈ 300 times a tagfile, and the call was most of it.
    const Type& operator[](TypeIndex t) const {
        if (!valid(t)) [[unlikely]]
            out_of_range(t);
        return types_->types[t];
    }
    Type& at(TypeIndex t);

    /// Appends a type and returns its index. Its names must view static bytes or bytes this
    /// table holds (hold_names()).
    TypeIndex add(Type type);
    /// Keeps `bytes` alive for as long as this table or any copy of it: the storage that the
    /// names of its types view (the reader passes its copy of the TYPE section). Never changed
    /// afterwards; copies share it.
    void hold_names(std::shared_ptr<const void> bytes);
    /// Resets to n empty types (for readers that create records before filling them).
    void resize(std::size_t n) {
        types_ = std::make_shared<Records>();
        types_->types.resize(n + 1);
    }

    /// Resolves format/subtype/size/alignment through parents. Throws navlab::Error on a
    /// parent index out of range or a cyclic parent chain (naming the type).
    void resolve();

    /// Full display name with template arguments, e.g. "hkArray<hkInt32, hkContainerHeapAllocator>",
    /// "T[N]<hkUint8, 3>" — the identity used by the embedded type sets.
    std::string full_name(TypeIndex t) const;
    /// First type whose full_name (or, failing that, base name) equals name; 0 when absent.
    TypeIndex find(std::string_view name) const;
    /// True when t equals base or derives from it through parents.
    bool derives_from(TypeIndex t, TypeIndex base) const;
    /// The members of t and all its parents, parents first, each with its absolute offset.
    std::vector<Member> all_members(TypeIndex t) const;
    /// The member called name in t or its parents; nullptr when absent.
    const Member* find_member(TypeIndex t, std::string_view name) const;

    /// TBDY record order as read from the file (type indices); empty for built tables.
    std::vector<TypeIndex> body_order;

private:
    std::string full_name_at_depth(TypeIndex t, int depth, std::size_t& budget) const;
    struct Records {
        std::vector<Type> types;                        // [0] is the null type
        std::vector<std::shared_ptr<const void>> names;  // what the types' names view (hold_names)
    };
    [[noreturn, gnu::cold]] void out_of_range(TypeIndex t) const;
    /// The records, unshared first when another copy holds them; for every change.
    std::vector<Type>& own();
    const std::vector<Type>& types() const noexcept { return types_->types; }
    std::shared_ptr<Records> types_;  // shared between copies until one changes
};

}  // namespace navlab::havok
