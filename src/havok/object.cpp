#include "havok/object.h"

#include <cstring>
#include <fmt/format.h>

namespace navlab::havok {
namespace {

[[noreturn]] void fail(const Tagfile& file, std::uint32_t offset, const std::string& message) {
    throw Error(message, file.data_offset + offset, "DATA");
}

// The accessors' failures, formatted out of line: formatted inline, they made every accessor
// set up a frame for the formatting's arguments and strings (Value::item took ≈ 70 instructions
// a call, 2.2 M on Sekiro).

/// "<the type's full name> is not <what>", e.g. what = "an integer".
[[noreturn, gnu::cold, gnu::noinline]] void fail_kind(const Tagfile& file, TypeIndex type, std::uint32_t offset,
                                                      const char* what) {
    fail(file, offset, fmt::format("{} is not {}", file.types.full_name(type), what));
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_past_data(const Tagfile& file, std::uint32_t offset,
                                                           std::uint64_t size) {
    fail(file, offset, fmt::format("{} bytes at DATA offset {} run past the end of DATA", size, hex(offset)));
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_item_reference(const Tagfile& file, std::uint32_t offset,
                                                                std::uint64_t index) {
    fail(file, offset, fmt::format("reference to item {} (only {} items)", index, file.items.size() - 1));
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_not_array_item(const Tagfile& file, std::uint32_t offset,
                                                                ItemIndex i) {
    fail(file, offset, fmt::format("hkArray references item {}, not an array item", i));
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_index(const Tagfile& file, std::uint32_t offset, std::uint32_t i,
                                                       std::uint32_t count) {
    fail(file, offset, fmt::format("array index {} out of range (size {})", i, count));
}

/// Bytes [offset, offset+size) of DATA, bounds-checked.
Bytes data_bytes(const Tagfile& file, std::uint32_t offset, std::uint64_t size) {
    if (offset > file.data.size() || size > file.data.size() - offset) fail_past_data(file, offset, size);
    return file.data.subspan(offset, size);
}

}  // namespace

// ---- Value -----------------------------------------------------------------------------------

Bytes Value::bytes() const { return data_bytes(*file_, offset_, type().resolved_size); }

std::uint64_t Value::as_uint() const {
    if (kind() != Kind::Int && kind() != Kind::Bool) fail_kind(*file_, type_, offset_, "an integer");
    return load_le(bytes());
}

std::int64_t Value::as_int() const {
    const std::uint64_t raw = as_uint();
    const unsigned bits = type().resolved_size * 8;
    if ((type().resolved_format & kFormatSigned) && bits < 64 && (raw >> (bits - 1)) & 1)
        return static_cast<std::int64_t>(raw | (~std::uint64_t{0} << bits));
    return static_cast<std::int64_t>(raw);
}

double Value::as_float() const {
    if (kind() != Kind::Float) fail_kind(*file_, type_, offset_, "a float");
    const Bytes b = bytes();
    const std::uint64_t raw = load_le(b);
    if (b.size() == 8) {
        double d;
        std::memcpy(&d, &raw, 8);
        return d;
    }
    // hkHalf16 is the upper half of a float32 (spec §5.4).
    const std::uint32_t bits = b.size() == 4 ? static_cast<std::uint32_t>(raw) : static_cast<std::uint32_t>(raw) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

ItemIndex Value::item() const {
    if (!type().is_reference()) fail_kind(*file_, type_, offset_, "a pointer, string or hkArray");
    const std::uint64_t index = load_le(data_bytes(*file_, offset_, 8));
    if (index >= file_->items.size()) fail_item_reference(*file_, offset_, index);
    return static_cast<ItemIndex>(index);
}

bool Value::is_null() const { return item() == 0; }

std::string_view Value::as_string() const {
    if (kind() != Kind::String) fail_kind(*file_, type_, offset_, "a string");
    return file_->string(item());
}

std::optional<ObjectView> Value::target() const {
    if (kind() != Kind::Pointer) fail_kind(*file_, type_, offset_, "a pointer");
    const ItemIndex i = item();
    if (i == 0) return std::nullopt;
    return file_->object(i);
}

ObjectView Value::as_object() const {
    if (kind() != Kind::Record) fail_kind(*file_, type_, offset_, "a record");
    return ObjectView(*file_, type_, offset_);
}

ArrayView Value::as_array() const {
    const Type& t = type();
    if (t.is_inline_array()) return ArrayView(*file_, t.resolved_subtype, offset_, t.inline_count());
    if (!t.is_hk_array()) fail_kind(*file_, type_, offset_, "an hkArray or inline array");
    const ItemIndex i = item();
    if (i == 0) return ArrayView(*file_, t.resolved_subtype, 0, 0);
    const Item& it = file_->items[i];
    if (it.kind != ItemKind::Array) fail_not_array_item(*file_, offset_, i);
    return ArrayView(*file_, it.type, it.offset, it.count);
}

Value Value::field(std::string_view name) const { return as_object().field(name); }

// ---- ObjectView ------------------------------------------------------------------------------

Bytes ObjectView::bytes() const { return data_bytes(*file_, offset_, type().resolved_size); }

std::optional<Value> ObjectView::find_field(std::string_view name) const {
    const Member* m = file_->types.find_member(type_, name);
    if (!m) return std::nullopt;
    return Value(*file_, m->type, offset_ + m->offset);
}

Value ObjectView::field(std::string_view name) const {
    if (auto v = find_field(name)) return *v;
    fail(*file_, offset_, fmt::format("{} has no field \"{}\"", type_name(), name));
}

namespace {

/// Whether the full name of type t (valid) may equal `name` when its base name does not: only
/// a template's, "name<…>", can. The reader asks is_a of each root variant's type chain for
/// four classes, and making every full name was ≈ 700 instructions a call (5 M on Sekiro).
bool full_name_may_be(const Type& t, std::string_view name) {
    return !t.params.empty() && name.size() > t.name.size() && name.starts_with(t.name) && name[t.name.size()] == '<';
}

}  // namespace

bool ObjectView::is_a(std::string_view name) const {
    for (TypeIndex t = type_; file_->types.valid(t); t = file_->types[t].parent) {
        const Type& type = file_->types[t];
        if (type.name == name || (full_name_may_be(type, name) && file_->types.full_name(t) == name)) return true;
        if (t == type.parent) break;
    }
    return false;
}

// ---- ArrayView -------------------------------------------------------------------------------

Bytes ArrayView::bytes() const { return data_bytes(*file_, offset_, std::uint64_t{element_size()} * count_); }

Value ArrayView::operator[](std::uint32_t i) const {
    if (i >= count_) fail_index(*file_, offset_, i, count_);
    return Value(*file_, element_type_, offset_ + i * element_size());
}

// ---- Tagfile accessors -----------------------------------------------------------------------

ObjectView Tagfile::object(ItemIndex item) const {
    if (item == 0 || item >= items.size() || items[item].kind != ItemKind::Pointer)
        throw Error(fmt::format("item {} is not a pointer item", item), kNoOffset, "ITEM");
    return ObjectView(*this, items[item].type, items[item].offset);
}

ObjectView Tagfile::root() const { return object(1); }

namespace {

/// The member `m` (found by find_member for name `name` in v's type) of v; v.field(name), which
/// fails naming v's type, when m is null.
Value member_of(const ObjectView& v, const Member* m, std::string_view name) {
    if (!m) [[unlikely]]
        return v.field(name);
    return Value(v.file(), m->type, v.offset() + m->offset);
}

}  // namespace

std::vector<NamedVariant> Tagfile::named_variants() const {
    std::vector<NamedVariant> out;
    const ArrayView variants = root().field("namedVariants").as_array();
    // The elements share one type, so its three members are looked up once (three lookups an
    // element were 4.6 M on Sekiro); a missing one still fails at the first element, after the
    // members before it were read, as a lookup per element did.
    const TypeIndex type = variants.element_type();
    const Member* const name = variants.empty() ? nullptr : types.find_member(type, "name");
    const Member* const class_name = variants.empty() ? nullptr : types.find_member(type, "className");
    const Member* const variant = variants.empty() ? nullptr : types.find_member(type, "variant");
    for (std::uint32_t i = 0; i < variants.size(); ++i) {
        const ObjectView v = variants.object(i);
        out.push_back({member_of(v, name, "name").as_string(), member_of(v, class_name, "className").as_string(),
                       member_of(v, variant, "variant").target()});
    }
    return out;
}

std::optional<ObjectView> Tagfile::find_variant(std::string_view type_name) const {
    for (const NamedVariant& v : named_variants())
        if (v.object && v.object->is_a(type_name)) return v.object;
    return std::nullopt;
}

std::string_view Tagfile::string(ItemIndex item) const {
    if (item == 0) return {};
    if (item >= items.size() || items[item].kind != ItemKind::Array || items[item].count == 0)
        throw Error(fmt::format("item {} is not a string item", item), kNoOffset, "ITEM");
    const Item& it = items[item];
    const Bytes b = data_bytes(*this, it.offset, it.count);
    return std::string_view(reinterpret_cast<const char*>(b.data()), b.size() - 1);
}

}  // namespace navlab::havok
