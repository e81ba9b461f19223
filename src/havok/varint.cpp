#include "havok/varint.h"

#include <fmt/format.h>

namespace navlab::havok {
namespace {

/// One form of the encoding: total length, value bits, marker of the first byte and how many
/// of the first byte's bits belong to the value.
struct Form {
    std::uint8_t length;
    std::uint8_t bits;
    std::uint8_t marker;
    std::uint8_t first_mask;
};

// In the writers' order of preference (shortest first; spec §3).
constexpr Form kForms[] = {
    {1, 7, 0x00, 0x7F}, {2, 14, 0x80, 0x3F}, {3, 21, 0xC0, 0x1F}, {4, 27, 0xE0, 0x07},
    {5, 35, 0xE8, 0x07}, {6, 40, 0xF8, 0x00}, {8, 59, 0xF0, 0x07}, {9, 64, 0xF9, 0x00},
};

const Form* form_of(std::uint8_t b0) noexcept {
    if (b0 < 0x80) return &kForms[0];
    if (b0 < 0xC0) return &kForms[1];
    if (b0 < 0xE0) return &kForms[2];
    if (b0 < 0xE8) return &kForms[3];
    if (b0 < 0xF0) return &kForms[4];
    if (b0 < 0xF8) return &kForms[6];
    if (b0 == 0xF8) return &kForms[5];
    if (b0 == 0xF9) return &kForms[7];
    return nullptr;
}

}  // namespace

std::uint64_t read_varint(ByteReader& reader, std::string_view field, bool* minimal) {
    const std::size_t start = reader.pos();
    const std::uint8_t b0 = reader.peek_at<std::uint8_t>(start, field);
    const Form* form = form_of(b0);
    if (!form) reader.fail(fmt::format("{}: invalid packed-integer first byte {} (FA..FF are not a form)", field, hex(b0)));
    Bytes bytes = reader.bytes(form->length, field);
    std::uint64_t value = b0 & form->first_mask;
    for (std::size_t i = 1; i < bytes.size(); ++i) value = (value << 8) | bytes[i];
    // kForms grow in length and width, so a value is in its shortest form exactly when the next
    // shorter form cannot hold it: one comparison (varint_size would loop over the forms, and the
    // fuzz build traces each comparison).
    if (minimal) *minimal = form == kForms || (value >> (form - 1)->bits) != 0;
    return value;
}

std::size_t varint_size(std::uint64_t value) noexcept {
    for (const Form& f : kForms)
        if (f.bits == 64 || value < (std::uint64_t{1} << f.bits)) return f.length;
    return 9;
}

void write_varint(ByteWriter& writer, std::uint64_t value) {
    for (const Form& f : kForms) {
        if (f.bits != 64 && value >= (std::uint64_t{1} << f.bits)) continue;
        const int tail = f.length - 1;
        const std::uint8_t head = static_cast<std::uint8_t>(f.marker | (tail >= 8 ? 0 : (value >> (8 * tail)) & f.first_mask));
        writer.u8(head);
        for (int i = tail - 1; i >= 0; --i) writer.u8(static_cast<std::uint8_t>(value >> (8 * i)));
        return;
    }
}

}  // namespace navlab::havok
