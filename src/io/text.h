// ASCII case helpers for file names, extensions and entry names. Only A-Z/a-z change: names
// are compared the way Windows-built game data spells them, never by locale. And the one
// escape of file bytes for messages (escape_non_utf8).
#pragma once

#include <string>
#include <string_view>

namespace navlab {

/// `text` with A-Z turned into a-z; other bytes (UTF-8 included) unchanged.
std::string to_lower(std::string_view text);

/// A member name without its folders: what follows the last backslash (binders) or slash.
/// A view into `name`.
std::string_view leaf_name(std::string_view name) noexcept;

/// Where a binder member is, as the commands print it: "FILE | member", the member escaped.
std::string member_location(std::string_view file, std::string_view member);

/// True when `text` ends with `suffix`, ignoring ASCII case.
bool ends_with_nocase(std::string_view text, std::string_view suffix) noexcept;

/// `text` with every byte that is not part of a well-formed UTF-8 sequence (RFC 3629: no
/// overlong forms, surrogates or code points past U+10FFFF), and every control character but
/// tab and newline (C0, DEL and the C1 range U+0080-U+009F, each byte), written as \xNN.
/// For names and strings read from a file on their way into a message: a damaged file's bytes
/// would otherwise reach the terminal raw and make the JSON writer throw. Backslashes are kept
/// as they are (FromSoftware paths are full of them).
std::string escape_non_utf8(std::string_view text);

}  // namespace navlab
