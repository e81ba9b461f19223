// Type-driven views of tagfile objects: any record (a pointer item's object, an array element,
// an inline member) is an ObjectView whose fields are looked up by name through the type table.
// Nothing is copied; views read the DATA bytes in place and stay valid as long as the Tagfile.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "havok/tagfile.h"
#include "io/promise.h"

namespace navlab::havok {

class ArrayView;

/// The unsigned little-endian integer in `b`: its first 8 bytes when longer (the low bytes of a
/// wider value), 0 when empty. Value's integer, float and reference reads decode through it.
/// Inline, with one load for the common widths: the byte loop it replaced was ≈ 1.2 M
/// instructions on Sekiro, every item reference (8 bytes) and integer the model reader reads
/// going through it.
inline std::uint64_t load_le(Bytes b) {
    static_assert(std::endian::native == std::endian::little, "load_le copies little-endian bytes");
    std::uint64_t v = 0;
    if (b.size() >= 8) {
        std::memcpy(&v, b.data(), 8);
    } else if (b.size() == 4) {
        std::uint32_t w;
        std::memcpy(&w, b.data(), 4);
        v = w;
    } else {
        for (std::size_t i = b.size(); i-- > 0;) v = (v << 8) | b[i];
    }
    return v;
}

/// A value of some type at some place in DATA: an int, float, bool, string, pointer, array or
/// record. Accessors check the kind and throw navlab::Error (with the DATA offset) on misuse.
class Value {
public:
    Value(const Tagfile& file, TypeIndex type, std::uint32_t offset) : file_(&file), type_(type), offset_(offset) {}

    const Tagfile& file() const noexcept { return *file_; }
    TypeIndex type_index() const noexcept { return type_; }
    const Type& type() const { return file_->types[type_]; }
    Kind kind() const { return type().kind(); }
    std::uint32_t offset() const noexcept { return offset_; }  ///< relative to DATA
    /// The value's bytes (resolved size of its type).
    Bytes bytes() const;

    /// Int or Bool: the value sign-extended per the format's signed bit.
    std::int64_t as_int() const;
    /// Int or Bool: the raw unsigned value.
    std::uint64_t as_uint() const;
    /// Float (4 bytes float, 8 double, 2 hkHalf16 = upper half of a float32).
    double as_float() const;
    /// Bool: raw byte != 0.
    bool as_bool() const { return as_uint() != 0; }
    /// String field: the bytes without NUL; empty for a null string.
    std::string_view as_string() const;
    /// String field: true when it is null (item index 0).
    bool is_null() const;
    /// Pointer, String or hkArray field: the referenced item index (0 = null/empty).
    ItemIndex item() const;
    /// Pointer field: the target object, or nullopt for null.
    std::optional<ObjectView> target() const;
    /// Record value viewed as an object (inline member or array element).
    ObjectView as_object() const;
    /// hkArray field or inline T[N] array.
    ArrayView as_array() const;
    /// Shortcut for as_object().field(name).
    Value field(std::string_view name) const;

    /// The accessors above for a value whose type's kind the caller has already checked (a
    /// plan made once per type table, as the model reader's: Type::is_hk_array, an Int or
    /// Bool, a String, a Pointer). They skip the kind tests and the out-of-line calls (≈ 100
    /// instructions an accessor, ≈ 2 M on Sekiro) and read the item reference or integer in
    /// place; whenever a check on the bytes fails (past DATA, an item index out of range or of
    /// another kind, a string item past DATA) the checked accessor itself answers, so every
    /// view, value and error is the checked accessor's. On a value of another kind they are
    /// wrong: the kind is the caller's promise (checked in the sanitizer and fuzz builds).
    ArrayView known_hk_array() const;  ///< as_array() of an hkArray
    std::int64_t known_int() const;    ///< as_int() of an Int or Bool
    std::uint64_t known_uint() const;  ///< as_uint() of an Int or Bool
    std::string_view known_string() const;             ///< as_string() of a String
    std::optional<ObjectView> known_target() const;    ///< target() of a Pointer

private:
    /// The item index stored in the value's first 8 bytes (item()'s load, without its checks),
    /// or nullopt when they run past DATA.
    std::optional<std::uint64_t> stored_item() const {
        if (offset_ > file_->data.size() || file_->data.size() - offset_ < 8) return std::nullopt;
        std::uint64_t index;
        std::memcpy(&index, file_->data.data() + offset_, 8);
        return index;
    }
    /// as_uint()'s load and as_int()'s sign extension (Signed) of an Int or Bool, or the
    /// accessor's answer when the bytes run past DATA.
    template <bool Signed>
    std::uint64_t known_integer() const;

    const Tagfile* file_;
    TypeIndex type_;
    std::uint32_t offset_;
};

/// A record: a pointer item's object, an array element or an inline record member.
class ObjectView {
public:
    ObjectView(const Tagfile& file, TypeIndex type, std::uint32_t offset) : file_(&file), type_(type), offset_(offset) {}

    const Tagfile& file() const noexcept { return *file_; }
    TypeIndex type_index() const noexcept { return type_; }
    const Type& type() const { return file_->types[type_]; }
    /// Full type name with template arguments.
    std::string type_name() const { return file_->types.full_name(type_); }
    std::uint32_t offset() const noexcept { return offset_; }
    Bytes bytes() const;

    /// The field `name` (own or inherited); throws navlab::Error naming the type when absent.
    Value field(std::string_view name) const;
    /// The field `name`, or nullopt when the type has none.
    std::optional<Value> find_field(std::string_view name) const;
    /// True when the object's type is or derives from the type named `name`.
    bool is_a(std::string_view name) const;

private:
    const Tagfile* file_;
    TypeIndex type_;
    std::uint32_t offset_;
};

/// Elements of an hkArray (through its item) or an inline T[N], read in place.
class ArrayView {
public:
    ArrayView(const Tagfile& file, TypeIndex element_type, std::uint32_t offset, std::uint32_t count)
        : file_(&file), element_type_(element_type), offset_(offset), count_(count) {}

    std::uint32_t size() const noexcept { return count_; }
    bool empty() const noexcept { return count_ == 0; }
    TypeIndex element_type() const noexcept { return element_type_; }
    std::uint32_t element_size() const { return file_->types[element_type_].resolved_size; }
    std::uint32_t offset() const noexcept { return offset_; }
    /// All elements' bytes, contiguous (size() × element_size()), viewing the file.
    Bytes bytes() const;
    /// Element i as a value (bounds-checked).
    Value operator[](std::uint32_t i) const;
    /// Element i of a record array as an object.
    ObjectView object(std::uint32_t i) const { return (*this)[i].as_object(); }

private:
    const Tagfile* file_;
    TypeIndex element_type_;
    std::uint32_t offset_;
    std::uint32_t count_;
};

// ---- Value's accessors of a known kind (inline: the model reader calls them ≈ 14 times a
// tagfile, each a few loads and compares) ----

inline ArrayView Value::known_hk_array() const {
    NAVLAB_PROMISE(type().is_hk_array());
    if (const std::optional<std::uint64_t> index = stored_item()) {
        if (*index == 0) return ArrayView(*file_, type().resolved_subtype, 0, 0);
        if (*index < file_->items.size() && file_->items[*index].kind == ItemKind::Array) {
            const Item& item = file_->items[*index];
            return ArrayView(*file_, item.type, item.offset, item.count);
        }
    }
    return as_array();
}

template <bool Signed>
std::uint64_t Value::known_integer() const {
    const Type& t = type();
    NAVLAB_PROMISE(t.kind() == Kind::Int || t.kind() == Kind::Bool);
    const std::uint32_t size = t.resolved_size;
    if (offset_ > file_->data.size() || size > file_->data.size() - offset_)
        return Signed ? static_cast<std::uint64_t>(as_int()) : as_uint();
    const std::uint64_t raw = load_le(file_->data.subspan(offset_, size));
    const unsigned bits = size * 8;
    if (Signed && (t.resolved_format & kFormatSigned) && bits < 64 && (raw >> (bits - 1)) & 1)
        return raw | (~std::uint64_t{0} << bits);  // as_int's sign extension
    return raw;
}

inline std::int64_t Value::known_int() const { return static_cast<std::int64_t>(known_integer<true>()); }

inline std::uint64_t Value::known_uint() const { return known_integer<false>(); }

inline std::string_view Value::known_string() const {
    NAVLAB_PROMISE(kind() == Kind::String);
    if (const std::optional<std::uint64_t> index = stored_item()) {
        if (*index == 0) return {};
        if (*index < file_->items.size()) {
            const Item& item = file_->items[*index];
            const Bytes data = file_->data;
            if (item.kind == ItemKind::Array && item.count != 0 && item.offset <= data.size() &&
                item.count <= data.size() - item.offset)
                return std::string_view(reinterpret_cast<const char*>(data.data() + item.offset), item.count - 1);
        }
    }
    return as_string();
}

inline std::optional<ObjectView> Value::known_target() const {
    NAVLAB_PROMISE(kind() == Kind::Pointer);
    if (const std::optional<std::uint64_t> index = stored_item()) {
        if (*index == 0) return std::nullopt;
        if (*index < file_->items.size() && file_->items[*index].kind == ItemKind::Pointer) {
            const Item& item = file_->items[*index];
            return ObjectView(*file_, item.type, item.offset);
        }
    }
    return target();
}

/// One hkRootLevelContainer::NamedVariant.
struct NamedVariant {
    std::string_view name;
    std::string_view class_name;
    std::optional<ObjectView> object;  ///< nullopt for a null variant
};

}  // namespace navlab::havok
