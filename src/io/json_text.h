// JSON text of a report or listing: nlohmann's dump() with bytes that are not UTF-8 replaced.
//
// Strings read from a file (Havok type and member names, SDK strings, entry names) go into
// the reports as they are. A damaged file can hold bytes that are not UTF-8 there, and
// dump()'s default is to throw once the whole report is built, so nothing at all was
// written. Here each ill-formed sequence becomes U+FFFD; messages and findings already show
// such bytes as \xNN (escape_non_utf8, io/text.h), so only names that are data reach this net.
#pragma once

#include <string>

namespace navlab {

/// `j` (a nlohmann::json or ordered_json value) as text; `indent` as dump()'s (−1: one line).
template <class Json>
std::string json_text(const Json& j, int indent = -1) {
    return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace navlab
