// The section walk (parse_sections: a fixed list of the first sections) and the reader's check
// of the expected section order (4-byte tag compares), each against a plain reading of the
// spec's section header (havok-tagfile.md §2.1).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "havok/navmesh_fixture.h"
#include "havok/sections.h"
#include "havok/tagfile.h"
#include "io/error.h"

using namespace navlab;
using namespace navlab::havok;

namespace {

/// A section as the plain walk reads it: the tag as printed (bytes outside 0x20…0x7E as '?').
struct PlainSection {
    std::string tag;
    std::uint64_t offset = 0;
    std::uint32_t size = 0;
    bool leaf = false;
    std::size_t payload_at = 0, payload_size = 0;  ///< relative to the walked bytes
};

/// Every section of `bytes` in a vector, or the error text the walk must throw (the header's
/// checks in the spec's order: bit 31, the 8-byte minimum, a multiple of 4, the parent's end).
struct PlainWalk {
    std::vector<PlainSection> sections;
    std::optional<std::string> error;
};

PlainWalk plain_walk(const std::vector<std::uint8_t>& bytes, std::uint64_t base, const std::string& parent) {
    PlainWalk out;
    std::size_t at = 0;
    auto fail = [&](std::size_t where, const std::string& message) {
        out.error = fmt::format("offset {}: {}: {}", hex(base + where), parent, message);
    };
    while (at < bytes.size()) {
        if (bytes.size() - at < 8) {
            const bool header = bytes.size() - at < 4;
            fail(header ? at : at + 4,
                 fmt::format("{} needs {} bytes but only {} remain (data ends at {})", header ? "section header" : "section tag",
                             4, header ? bytes.size() - at : bytes.size() - at - 4, hex(base + bytes.size())));
            return out;
        }
        const std::uint32_t word = std::uint32_t{bytes[at]} << 24 | std::uint32_t{bytes[at + 1]} << 16 |
                                   std::uint32_t{bytes[at + 2]} << 8 | bytes[at + 3];
        PlainSection s;
        for (std::size_t k = 0; k < 4; ++k) {
            const unsigned c = bytes[at + 4 + k];
            s.tag += c >= 0x20 && c <= 0x7E ? static_cast<char>(c) : '?';
        }
        const std::uint32_t size = word & 0x3FFFFFFF;
        if (word >> 31) return fail(at, fmt::format("section {}: size word {} has bit 31 set", s.tag, hex(word))), out;
        if (size < 8) return fail(at, fmt::format("section {}: size {} is below the 8-byte header", s.tag, size)), out;
        if (size % 4) return fail(at, fmt::format("section {}: size {} is not a multiple of 4", s.tag, hex(size))), out;
        if (size > bytes.size() - at)
            return fail(at, fmt::format("section {}: size {} runs past the end of {} (ends at {}); truncated?", s.tag,
                                        hex(size), parent, hex(base + bytes.size()))),
                   out;
        s.offset = base + at;
        s.size = size;
        s.leaf = (word >> 30) & 1;
        s.payload_at = at + 8;
        s.payload_size = size - 8;
        out.sections.push_back(s);
        at += size;
    }
    return out;
}

/// Random containers of 0 … 12 sections (tags of any bytes, payloads of 0 … 40 bytes), then
/// about half of them damaged: a header word changed or the bytes cut short.
std::vector<std::uint8_t> random_container(std::mt19937& rng) {
    std::vector<std::uint8_t> out;
    const int n = static_cast<int>(rng() % 13);
    for (int i = 0; i < n; ++i) {
        const std::uint32_t payload = 4 * (rng() % 11);
        const std::uint32_t word = (payload + 8) | (rng() % 2 ? 0x40000000u : 0u);
        for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(word >> (24 - 8 * k)));
        for (int k = 0; k < 4; ++k) out.push_back(rng() % 4 ? static_cast<std::uint8_t>('A' + rng() % 26) : static_cast<std::uint8_t>(rng()));
        for (std::uint32_t k = 0; k < payload; ++k) out.push_back(static_cast<std::uint8_t>(rng()));
    }
    if (!out.empty() && rng() % 2) {
        switch (rng() % 3) {
            case 0: out.resize(rng() % out.size()); break;                           // cut
            case 1: out[4 * (rng() % (out.size() / 4))] ^= static_cast<std::uint8_t>(1u << (rng() % 8)); break;  // a bit of a word
            default: out[4 * (rng() % (out.size() / 4)) + 3] ^= static_cast<std::uint8_t>(rng() % 8); break;    // a size's low bits
        }
    }
    return out;
}

}  // namespace

// parse_sections keeps the first SectionList::kKept sections and counts the rest: on random
// containers, damaged or not, it gives the plain walk's count, its first sections field by
// field and, on damage, its error text exactly.
TEST(HavokSections, ParseSectionsEqualsAPlainWalk) {
    std::mt19937 rng(44);
    int errors = 0, long_lists = 0;
    for (int round = 0; round < 3000; ++round) {
        const std::vector<std::uint8_t> bytes = random_container(rng);
        const std::uint64_t base = 8 + 4 * (rng() % 100);
        const PlainWalk want = plain_walk(bytes, base, "TYPE");
        try {
            const SectionList got = parse_sections(bytes, base, "TYPE");
            ASSERT_FALSE(want.error) << round << ": walked, where the plain walk fails: " << *want.error;
            ASSERT_EQ(got.size(), want.sections.size()) << round;
            long_lists += got.size() > SectionList::kKept;
            std::size_t kept = 0;
            for (const Section& s : got) {
                const PlainSection& w = want.sections[kept++];
                EXPECT_EQ(s.tag(), w.tag) << round;
                EXPECT_EQ(s.offset, w.offset) << round;
                EXPECT_EQ(s.size, w.size) << round;
                EXPECT_EQ(s.leaf, w.leaf) << round;
                EXPECT_EQ(s.payload.data(), bytes.data() + w.payload_at) << round;
                EXPECT_EQ(s.payload.size(), w.payload_size) << round;
            }
            EXPECT_EQ(kept, std::min(want.sections.size(), SectionList::kKept)) << round;
        } catch (const Error& e) {
            ASSERT_TRUE(want.error) << round << ": failed, where the plain walk reads: " << e.what();
            EXPECT_EQ(std::string(e.what()), *want.error) << round;
            ++errors;
        }
    }
    EXPECT_GT(errors, 500);
    EXPECT_GT(long_lists, 200);
}

namespace {

/// The expected sections of each container, as read_tagfile lists them ("A|B": either).
struct ExpectedTag {
    const char* parent;  ///< the container (the error's field)
    const char* tag;     ///< the tag in the fixture
    const char* want;    ///< what the reader accepts there
};
constexpr ExpectedTag kExpected[] = {
    {"TAG0", "SDKV", "SDKV"}, {"TAG0", "DATA", "DATA"}, {"TAG0", "TYPE", "TYPE|TCRF"}, {"TAG0", "INDX", "INDX"},
    {"TYPE", "TPTR", "TPTR"}, {"TYPE", "TSTR", "TSTR"}, {"TYPE", "TNA1", "TNA1|TNAM"}, {"TYPE", "FSTR", "FSTR"},
    {"TYPE", "TBDY", "TBDY|TBOD"}, {"INDX", "ITEM", "ITEM"}, {"INDX", "PTCH", "PTCH"},
};

/// Whether `tag` is one of the '|'-separated alternatives of `want`, split plainly.
bool plain_accepts(std::string_view want, std::string_view tag) {
    while (true) {
        const std::size_t bar = want.find('|');
        if (want.substr(0, bar) == tag) return true;
        if (bar == std::string_view::npos) return false;
        want.remove_prefix(bar + 1);
    }
}

}  // namespace

// Each expected section of a valid file renamed to every tag the reader knows, to the bars and
// halves of its alternatives and to near misses: the order check refuses exactly the tags a
// plain split of its list refuses, with the list, the tag found and the container named.
TEST(HavokSections, ExpectedOrderAcceptsExactlyTheListedTags) {
    const std::vector<std::uint8_t> valid = test::grid_navmesh(2, 1);
    std::vector<std::string> tags;
    for (const ExpectedTag& e : kExpected) {
        const std::string_view want = e.want;
        for (std::size_t p = 0; p + 4 <= want.size(); ++p) tags.emplace_back(want.substr(p, 4));  // "|TNA", "A1|T", …
        tags.emplace_back(want.substr(0, 3)).push_back('?');
    }
    for (const char* extra : {"THSH", "TPAD", "XSTR", "tptr", "TAG0"}) tags.emplace_back(extra);
    std::sort(tags.begin(), tags.end());
    tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
    int refused = 0, accepted = 0;
    for (const ExpectedTag& e : kExpected) {
        // The section's header: the first place its tag is found, 4-byte aligned (as test_bad_input's
        // section()); the fixture's type names hold none of these tags.
        std::size_t at = 0;
        while (at + 8 <= valid.size() && std::memcmp(valid.data() + at + 4, e.tag, 4) != 0) at += 4;
        ASSERT_LE(at + 8, valid.size()) << "no section " << e.tag;
        for (const std::string& tag : tags) {
            std::vector<std::uint8_t> b = valid;
            std::memcpy(b.data() + at + 4, tag.data(), 4);
            std::string what = "no error";
            try {
                read_tagfile(b);
            } catch (const Error& err) {
                what = err.what();
            }
            const std::string refusal =
                fmt::format("offset {}: {}: expected section {} here, found {}", hex(at), e.parent, e.want, tag);
            if (plain_accepts(e.want, tag)) {
                EXPECT_EQ(what.find("expected section"), std::string::npos) << e.tag << " as " << tag << ": " << what;
                ++accepted;
            } else {
                EXPECT_EQ(what, refusal) << e.tag << " as " << tag;
                ++refused;
            }
        }
    }
    EXPECT_EQ(accepted, 11 + 3);  // each tag in its own place, TCRF, TNAM and TBOD in theirs
    EXPECT_GT(refused, 300);
}
