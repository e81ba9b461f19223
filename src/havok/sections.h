// The section tree of a tagfile (spec §2.1): 8-byte headers (big-endian u32 size with bit 30 =
// leaf, then a 4-character tag), payloads padded to 4.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_reader.h"

namespace navlab::havok {

/// One section: where its header is and what its payload holds.
struct Section {
    std::string tag;            ///< 4 ASCII characters
    std::uint64_t offset = 0;   ///< absolute file offset of the header
    std::uint32_t size = 0;     ///< total size including the header
    bool leaf = false;          ///< bit 30: raw payload rather than child sections
    Bytes payload;              ///< size - 8 bytes after the header
    std::uint64_t payload_offset() const noexcept { return offset + 8; }
};

/// A section tag as printed in errors: each byte outside printable ASCII shown as '?'.
std::string printable_tag(Bytes tag);

/// Parses the sections that exactly fill `bytes` (which start at absolute offset `base`).
/// Throws navlab::Error naming the offset on a size below 8, not a multiple of 4, past the
/// parent's end, or with bit 31 set.
std::vector<Section> parse_sections(Bytes bytes, std::uint64_t base, std::string_view parent);

/// Starts a section at the end of out (header with a size to be filled); returns its offset.
std::size_t begin_section(std::vector<std::uint8_t>& out, std::string_view tag);
/// Ends the section begun at `start`: pads its payload with zeros to 4 and writes its size
/// and leaf bit.
void end_section(std::vector<std::uint8_t>& out, std::size_t start, bool leaf);
/// A whole leaf section: header, payload, padding.
void append_leaf(std::vector<std::uint8_t>& out, std::string_view tag, Bytes payload);

}  // namespace navlab::havok
