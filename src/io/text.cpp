#include "io/text.h"

#include <cstdint>
#include <cstring>

namespace navlab {

std::string_view leaf_name(std::string_view name) noexcept {
    const auto cut = name.find_last_of("\\/");
    return cut == std::string_view::npos ? name : name.substr(cut + 1);
}

std::string member_location(std::string_view file, std::string_view member) {
    return std::string(file) + " | " + escape_non_utf8(member);
}

namespace {

char lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Whether a byte is kept as it is on its own: printable ASCII, a tab or a newline.
bool plain_ascii(std::uint8_t c) noexcept { return (c >= 0x20 && c < 0x7F) || c == '\t' || c == '\n'; }

/// How many bytes from the start of `text` are plain_ascii: 8 at a time while every byte of a
/// word is printable ASCII (0x20 … 0x7E), then byte by byte. An entry's path is ≈ 60 bytes,
/// and the audit escapes its "binder | entry" for every tagfile (2.0 M instructions byte by byte
/// on the Sekiro preset, forty-fifth session).
std::size_t plain_run(std::string_view text) noexcept {
    constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
    std::size_t n = 0;
    for (; n + 8 <= text.size(); n += 8) {
        std::uint64_t w;
        std::memcpy(&w, text.data() + n, 8);
        // A byte below 0x20 (no byte at 0x80 or above, else the second test fails anyway);
        // a byte at 0x7F or above (0x7F + 1 sets its top bit; a carry comes only from 0xFF).
        const bool control = ((w - 0x20 * kOnes) & ~w & kHigh) != 0;
        const bool high = ((w | (w + kOnes)) & kHigh) != 0;
        if (control || high) break;
    }
    while (n < text.size() && plain_ascii(static_cast<std::uint8_t>(text[n]))) ++n;
    return n;
}

/// The length of the well-formed UTF-8 sequence at the start of `s` (1 to 4), or 0 when its
/// first byte does not start one (RFC 3629, table 3-7 of the Unicode standard).
std::size_t utf8_sequence(std::string_view s) noexcept {
    const auto b = [&](std::size_t i) { return static_cast<std::uint8_t>(s[i]); };
    const std::uint8_t c = b(0);
    if (c < 0x80) return plain_ascii(c) ? 1 : 0;
    std::size_t n = 0;
    std::uint8_t lo = 0x80, hi = 0xBF;  // the second byte's range
    if (c == 0xC2) n = 2, lo = 0xA0;  // U+0080-U+009F are C1 controls (0x9B starts a terminal sequence)
    else if (c >= 0xC3 && c <= 0xDF) n = 2;
    else if (c == 0xE0) n = 3, lo = 0xA0;
    else if (c == 0xED) n = 3, hi = 0x9F;  // no surrogates
    else if (c >= 0xE1 && c <= 0xEF) n = 3;
    else if (c == 0xF0) n = 4, lo = 0x90;
    else if (c == 0xF4) n = 4, hi = 0x8F;  // nothing past U+10FFFF
    else if (c >= 0xF1 && c <= 0xF3) n = 4;
    else return 0;
    if (s.size() < n || b(1) < lo || b(1) > hi) return 0;
    for (std::size_t i = 2; i < n; ++i)
        if (b(i) < 0x80 || b(i) > 0xBF) return 0;
    return n;
}

}  // namespace

std::string to_lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = lower(c);
    return out;
}

bool ends_with_nocase(std::string_view text, std::string_view suffix) noexcept {
    if (text.size() < suffix.size()) return false;
    const std::string_view tail = text.substr(text.size() - suffix.size());
    for (std::size_t i = 0; i < suffix.size(); ++i)
        if (lower(tail[i]) != lower(suffix[i])) return false;
    return true;
}

std::string escape_non_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        // Names are mostly plain ASCII, appended a run at a time: byte by byte, the audit's
        // location prefix ("binder | entry") cost about 5,000 instructions a tagfile.
        std::size_t n = plain_run(text);
        if (n == 0) n = utf8_sequence(text);
        if (n > 0) {
            out.append(text.substr(0, n));
        } else {
            static constexpr char kHex[] = "0123456789ABCDEF";
            const auto c = static_cast<std::uint8_t>(text[0]);
            out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
            n = 1;
        }
        text.remove_prefix(n);
    }
    return out;
}

}  // namespace navlab
