// Havok packed integers (spec §3): a big-endian prefix varint of 1, 2, 3, 4, 5, 6, 8 or 9 bytes
// whose first byte's high bits select the length. Used in TNA1/TNAM, TBDY/TBOD and THSH.
#pragma once

#include <cstdint>

#include "io/byte_reader.h"
#include "io/byte_writer.h"

namespace navlab::havok {

/// Reads one packed integer at the reader's position. Throws navlab::Error on a first byte
/// FA..FF or a value running past the data. `minimal` (optional) is set false when a shorter
/// form could have held the value.
std::uint64_t read_varint(ByteReader& reader, std::string_view field, bool* minimal = nullptr);

/// Number of bytes the shortest encoding of value takes.
std::size_t varint_size(std::uint64_t value) noexcept;

/// Appends the shortest encoding of value.
void write_varint(ByteWriter& writer, std::uint64_t value);

}  // namespace navlab::havok
