#include "io/byte_reader.h"

#include <fmt/format.h>

namespace navlab {

void ByteReader::fail_at(std::size_t pos, std::string message) const {
    throw Error(std::move(message), base_ + pos, context_);
}

void ByteReader::fail_range(std::string_view field, std::size_t pos, std::size_t need) const {
    if (pos > data_.size())
        throw Error(fmt::format("{} at {} is past the end of the data ({})", field, hex(base_ + pos),
                                hex(base_ + data_.size())),
                    base_ + pos, context_);
    throw Error(fmt::format("{} needs {} bytes but only {} remain (data ends at {})", field, need,
                            data_.size() - pos, hex(base_ + data_.size())),
                base_ + pos, context_);
}

namespace {
/// Bytes as a quoted C-style string: printable ASCII as is, the rest (a magic's NUL too, which
/// would otherwise end the message where what() is printed) as \xNN.
std::string quoted(std::span<const std::uint8_t> bytes) {
    std::string s = "\"";
    for (const std::uint8_t c : bytes) {
        if (c == '"' || c == '\\') s += '\\';
        if (c >= 0x20 && c < 0x7F) s += static_cast<char>(c);
        else s += fmt::format("\\x{:02X}", c);
    }
    return s + '"';
}
}  // namespace

void ByteReader::expect(std::string_view magic, std::string_view field) {
    Bytes got = view(pos_, magic.size(), field);
    if (std::memcmp(got.data(), magic.data(), magic.size()) != 0) {
        const std::span<const std::uint8_t> wanted(reinterpret_cast<const std::uint8_t*>(magic.data()), magic.size());
        fail(fmt::format("{}: expected {}, found {}", field, quoted(wanted), quoted(got)));
    }
    pos_ += magic.size();
}

std::string ByteReader::cstring_at(std::size_t offset, std::string_view field, std::size_t max) const {
    if (offset >= data_.size())
        throw Error(fmt::format("{} offset {} is past the end of the data ({})", field, hex(base_ + offset),
                                hex(base_ + data_.size())),
                    base_ + offset, context_);
    const std::size_t limit = std::min(data_.size(), offset + max);
    const auto* begin = data_.data() + offset;
    const auto* nul = static_cast<const std::uint8_t*>(std::memchr(begin, 0, limit - offset));
    if (!nul) fail_at(offset, fmt::format("{} is not NUL-terminated before {}", field, hex(base_ + limit)));
    return std::string(reinterpret_cast<const char*>(begin), nul - begin);
}

}  // namespace navlab
