// ASCII case helpers for file names, extensions and entry names. Only A-Z/a-z change: names
// are compared the way Windows-built game data spells them, never by locale.
#pragma once

#include <string>
#include <string_view>

namespace navlab {

/// `text` with A-Z turned into a-z; other bytes (UTF-8 included) unchanged.
std::string to_lower(std::string_view text);

/// True when `text` ends with `suffix`, ignoring ASCII case.
bool ends_with_nocase(std::string_view text, std::string_view suffix) noexcept;

}  // namespace navlab
