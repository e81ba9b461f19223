// The section tree of a tagfile (spec §2.1): 8-byte headers (big-endian u32 size with bit 30 =
// leaf, then a 4-character tag), payloads padded to 4.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_reader.h"
#include "io/promise.h"

namespace navlab::havok {

/// One section: where its header is and what its payload holds.
struct Section {
    std::uint64_t offset = 0;   ///< absolute file offset of the header
    std::uint32_t size = 0;     ///< total size including the header
    std::array<char, 4> tag_chars{};  ///< the tag as printable_tag shows it
    bool leaf = false;          ///< bit 30: raw payload rather than child sections
    Bytes payload;              ///< size - 8 bytes after the header
    std::uint64_t payload_offset() const noexcept { return offset + 8; }
    /// The 4 tag characters, each byte outside printable ASCII shown as '?'.
    std::string_view tag() const noexcept { return {tag_chars.data(), tag_chars.size()}; }
};

/// A section tag as printed in errors: each byte outside printable ASCII shown as '?'.
std::string printable_tag(Bytes tag);

/// The sections of one container: the first kKept in order, and how many there are. Every
/// container of a valid file has at most 7 (TYPE's), and the reader looks at most at the one
/// after those it expects, so the rest need not be kept. A fixed array, not a vector of
/// sections with a string tag each: the walk runs three times a tagfile, and its allocation and
/// strings were most of its ≈ 720 instructions a call (forty-fourth session).
class SectionList {
public:
    static constexpr std::size_t kKept = 8;
    /// How many sections the container holds, kept or not.
    std::size_t size() const noexcept { return count_; }
    /// Section i, for i < min(size(), kKept).
    const Section& operator[](std::size_t i) const noexcept {
        NAVLAB_PROMISE(i < std::min(count_, kKept));
        return kept_[i];
    }
    /// The kept sections.
    const Section* begin() const noexcept { return kept_.data(); }
    const Section* end() const noexcept { return kept_.data() + std::min(count_, kKept); }
    void add(const Section& s) noexcept {
        if (count_ < kKept) kept_[count_] = s;
        ++count_;
    }

private:
    std::array<Section, kKept> kept_;
    std::size_t count_ = 0;
};

/// Parses the sections that exactly fill `bytes` (which start at absolute offset `base`).
/// Throws navlab::Error naming the offset on a size below 8, not a multiple of 4, past the
/// parent's end, or with bit 31 set (for every section, kept or not).
SectionList parse_sections(Bytes bytes, std::uint64_t base, std::string_view parent);

/// Starts a section at the end of out (header with a size to be filled); returns its offset.
std::size_t begin_section(std::vector<std::uint8_t>& out, std::string_view tag);
/// Ends the section begun at `start`: pads its payload with zeros to 4 and writes its size
/// and leaf bit.
void end_section(std::vector<std::uint8_t>& out, std::size_t start, bool leaf);
/// A whole leaf section: header, payload, padding.
void append_leaf(std::vector<std::uint8_t>& out, std::string_view tag, Bytes payload);

}  // namespace navlab::havok
