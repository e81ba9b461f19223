#include "container/text.h"

#include <fmt/format.h>
#include <iconv.h>

#include <cerrno>

#include "io/error.h"

namespace navlab::text {
namespace {

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | c >> 6);
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | c >> 12);
        out += static_cast<char>(0x80 | (c >> 6 & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | c >> 18);
        out += static_cast<char>(0x80 | (c >> 12 & 0x3F));
        out += static_cast<char>(0x80 | (c >> 6 & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

/// Converts with iconv; `lenient` replaces undecodable input bytes by U+FFFD (only used
/// when the output is UTF-8), otherwise they throw.
std::string convert(const char* to, const char* from, std::string_view in, bool lenient) {
    iconv_t cd = iconv_open(to, from);
    if (cd == reinterpret_cast<iconv_t>(-1)) throw Error(fmt::format("iconv cannot convert {} to {}", from, to));
    std::string out;
    char* src = const_cast<char*>(in.data());
    std::size_t left = in.size();
    char buf[256];
    while (left > 0) {
        char* dst = buf;
        std::size_t room = sizeof buf;
        const std::size_t rc = iconv(cd, &src, &left, &dst, &room);
        out.append(buf, dst - buf);
        if (rc != static_cast<std::size_t>(-1) || errno == E2BIG) continue;
        if (!lenient) {
            iconv_close(cd);
            throw Error(fmt::format("\"{}\" cannot be encoded as {}", in, to));
        }
        out += "\xEF\xBF\xBD";
        ++src, --left;
    }
    iconv_close(cd);
    return out;
}

}  // namespace

std::string utf16_to_utf8(std::u16string_view u) {
    std::string out;
    for (std::size_t i = 0; i < u.size(); ++i) {
        char32_t c = u[i];
        if (c >= 0xD800 && c < 0xDC00 && i + 1 < u.size() && u[i + 1] >= 0xDC00 && u[i + 1] < 0xE000) {
            c = 0x10000 + ((c - 0xD800) << 10) + (u[++i] - 0xDC00);
        } else if (c >= 0xD800 && c < 0xE000) {
            c = 0xFFFD;
        }
        append_utf8(out, c);
    }
    return out;
}

std::u16string utf8_to_utf16(std::string_view s) {
    std::u16string out;
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > s.size()) throw Error(fmt::format("invalid UTF-8 at byte {} of \"{}\"", i, s));
        char32_t c = len == 1 ? b : b & (0x7F >> len);
        for (int k = 1; k < len; ++k) {
            const auto cont = static_cast<unsigned char>(s[i + k]);
            if ((cont & 0xC0) != 0x80) throw Error(fmt::format("invalid UTF-8 at byte {} of \"{}\"", i + k, s));
            c = c << 6 | (cont & 0x3F);
        }
        i += len;
        if (c >= 0x10000) {
            c -= 0x10000;
            out += static_cast<char16_t>(0xD800 + (c >> 10));
            out += static_cast<char16_t>(0xDC00 + (c & 0x3FF));
        } else {
            out += static_cast<char16_t>(c);
        }
    }
    return out;
}

std::u16string utf16le_units(Bytes raw) {
    std::u16string out(raw.size() / 2, u'\0');
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<char16_t>(raw[2 * i] | raw[2 * i + 1] << 8);
    return out;
}

std::string sjis_to_utf8(Bytes raw) {
    return convert("UTF-8", "CP932", {reinterpret_cast<const char*>(raw.data()), raw.size()}, true);
}

std::string utf8_to_sjis(std::string_view utf8) { return convert("CP932", "UTF-8", utf8, false); }

}  // namespace navlab::text
