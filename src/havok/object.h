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

private:
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

/// One hkRootLevelContainer::NamedVariant.
struct NamedVariant {
    std::string_view name;
    std::string_view class_name;
    std::optional<ObjectView> object;  ///< nullopt for a null variant
};

}  // namespace navlab::havok
