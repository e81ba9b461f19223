#include "havok/sections.h"

#include <fmt/format.h>

namespace navlab::havok {

namespace {

char printable(char c) { return c < 0x20 || c > 0x7E ? '?' : c; }

/// printable_tag's characters of a 4-byte tag.
std::array<char, 4> printable_chars(Bytes tag) {
    std::array<char, 4> out;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = printable(static_cast<char>(tag[i]));
    return out;
}

}  // namespace

std::string printable_tag(Bytes tag) {
    std::string name(tag.begin(), tag.end());
    for (char& c : name) c = printable(c);
    return name;
}

SectionList parse_sections(Bytes bytes, std::uint64_t base, std::string_view parent) {
    ByteReader r(bytes, base, Endian::Big);
    r.set_context(std::string(parent));
    SectionList out;
    while (!r.at_end()) {
        const std::size_t at = r.pos();
        const std::uint32_t word = r.u32("section header");
        Section s;
        s.tag_chars = printable_chars(r.bytes(4, "section tag"));
        const std::string_view name = s.tag();
        const std::uint32_t size = word & 0x3FFFFFFF;
        if (word & 0x80000000u) r.fail_at(at, fmt::format("section {}: size word {} has bit 31 set", name, hex(word)));
        if (size < 8) r.fail_at(at, fmt::format("section {}: size {} is below the 8-byte header", name, size));
        if (size % 4) r.fail_at(at, fmt::format("section {}: size {} is not a multiple of 4", name, hex(size)));
        if (size - 8 > r.remaining())
            r.fail_at(at, fmt::format("section {}: size {} runs past the end of {} (ends at {}); truncated?", name,
                                      hex(size), parent, hex(base + bytes.size())));
        s.offset = base + at;
        s.size = size;
        s.leaf = (word & 0x40000000u) != 0;
        s.payload = r.bytes(size - 8, "section payload");
        out.add(s);
    }
    return out;
}

std::size_t begin_section(std::vector<std::uint8_t>& out, std::string_view tag) {
    const std::size_t start = out.size();
    out.resize(start + 4, 0);
    out.insert(out.end(), tag.begin(), tag.begin() + 4);
    return start;
}

void end_section(std::vector<std::uint8_t>& out, std::size_t start, bool leaf) {
    out.resize((out.size() + 3) & ~std::size_t{3}, 0);
    const std::uint32_t word = static_cast<std::uint32_t>(out.size() - start) | (leaf ? 0x40000000u : 0u);
    for (int i = 0; i < 4; ++i) out[start + i] = static_cast<std::uint8_t>(word >> (24 - 8 * i));
}

void append_leaf(std::vector<std::uint8_t>& out, std::string_view tag, Bytes payload) {
    const std::size_t start = begin_section(out, tag);
    out.insert(out.end(), payload.begin(), payload.end());
    end_section(out, start, true);
}

}  // namespace navlab::havok
