// Text conversions for binder entry names: UTF-8 <-> UTF-16LE and Shift-JIS (code page 932).
#pragma once

#include <string>
#include <string_view>

#include "io/byte_reader.h"

namespace navlab::text {

/// UTF-16 code units to UTF-8; unpaired surrogates become U+FFFD.
std::string utf16_to_utf8(std::u16string_view units);
/// UTF-8 to UTF-16 code units; throws navlab::Error on invalid UTF-8.
std::u16string utf8_to_utf16(std::string_view utf8);
/// Little-endian byte pairs to code units (an odd last byte is ignored).
std::u16string utf16le_units(Bytes raw);
/// Shift-JIS (CP932) bytes to UTF-8; undecodable bytes become U+FFFD.
std::string sjis_to_utf8(Bytes raw);
/// UTF-8 to Shift-JIS (CP932); throws navlab::Error when a character has no CP932 form.
std::string utf8_to_sjis(std::string_view utf8);

}  // namespace navlab::text
