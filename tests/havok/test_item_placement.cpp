// The object walk's placement check (verify.cpp, check_item_placement: items ordered by one
// 64-bit key, sorted by insertion when few, gaps read a word at a time) against a plain
// reading of the spec (havok-tagfile.md §5.5, §13): a stable sort of the items by offset, then
// each gap and the end of DATA byte by byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "havok/navmesh_fixture.h"
#include "havok/tagfile.h"
#include "havok/verify.h"
#include "io/error.h"

using namespace navlab;
using namespace navlab::havok;

namespace {

/// What the placement check must report: its error (exactly), or none, and its warnings.
struct Placement {
    std::optional<std::string> error;
    std::vector<std::string> warnings;  ///< "offset: message"
};

std::uint32_t plain_alignment(const TypeTable& types, const Item& item) {
    const Type& t = types[item.type];
    if (item.kind == ItemKind::Pointer) return t.resolved_alignment;
    if (t.name == "char") return 2;
    return std::max<std::uint32_t>(16, t.resolved_alignment);
}

Placement plain_placement(const Tagfile& t) {
    Placement out;
    std::vector<ItemIndex> order(t.items.size() - 1);
    std::iota(order.begin(), order.end(), ItemIndex{1});
    std::stable_sort(order.begin(), order.end(), [&](ItemIndex a, ItemIndex b) { return t.items[a].offset < t.items[b].offset; });
    const auto at = [&](std::uint64_t offset) { return "offset " + hex(t.data_offset + offset) + ": "; };
    const auto zero = [&](std::uint64_t from, std::uint64_t to, const char* what) {
        for (std::uint64_t k = from; k < to; ++k)
            if (t.data[k]) return out.error = fmt::format("{}DATA: {}: byte is {}; expected 0", at(k), what, hex(t.data[k])), false;
        return true;
    };
    std::uint64_t pos = 0;
    bool misaligned = false;
    for (ItemIndex i : order) {
        const Item& item = t.items[i];
        if (item.offset < pos) {
            out.error = fmt::format("{}DATA item {} ({}): item {} overlaps the item before it in DATA (which ends at {})", at(item.offset),
                                    i, t.types.full_name(item.type), i, hex(pos));
            return out;
        }
        if (!zero(pos, item.offset, "gap between items")) return out;
        const std::uint32_t align = plain_alignment(t.types, item);
        if (!misaligned && align > 1 && item.offset % align != 0) {
            out.warnings.push_back(fmt::format("{}item {} at DATA offset {} is not aligned to {} (spec §5.5)", at(item.offset), i,
                                               hex(item.offset), align));
            misaligned = true;
        }
        pos = item.offset + std::uint64_t{t.types[item.type].resolved_size} * item.count;
    }
    if (!zero(pos, t.data.size(), "DATA after the last item")) return out;
    if (t.data.size() - pos >= 16 || t.data.size() % 16)
        out.warnings.push_back(fmt::format("{}DATA is {} bytes; the writer pads the last item's end ({}) to 16", at(pos),
                                           hex(t.data.size()), hex(pos)));
    return out;
}

bool is_placement_error(const std::string& what) {
    for (const char* m : {"overlaps the item before it", "gap between items", "DATA after the last item"})
        if (what.find(m) != std::string::npos) return true;
    return false;
}

}  // namespace

// Random item lists of 1 … 90 items (both sides of the insertion sort's limit of 64) over the
// fixture's types: packed in a random order with random gaps, some offsets then moved onto or
// into another item, some gap or tail bytes set. The walk gives the plain check's first
// placement error exactly (message, offset, item), or none of its kind, and the same
// alignment and padding warnings.
TEST(HavokItemPlacement, EqualsAStableSortAndAByteLoop) {
    const std::vector<std::uint8_t> bytes = test::grid_navmesh(2, 1);
    const Tagfile base = read_tagfile(bytes);
    std::mt19937 rng(4444);
    int errors = 0, clean = 0, long_lists = 0;
    for (int round = 0; round < 2500; ++round) {
        Tagfile t;
        t.types = base.types;
        t.data_offset = 8 + 16 * (rng() % 50);
        const std::size_t n = 2 + rng() % (rng() % 4 ? 30 : 90);
        long_lists += n - 1 > 64;
        t.items.assign(n, Item{});
        for (std::size_t i = 1; i < n; ++i) {
            const Item& like = base.items[1 + rng() % (base.items.size() - 1)];
            t.items[i] = like;
            if (like.kind == ItemKind::Array) t.items[i].count = rng() % 4;
        }
        // Packed in a random order, each after a gap of 0 … 20 bytes.
        std::vector<ItemIndex> place(n - 1);
        std::iota(place.begin(), place.end(), ItemIndex{1});
        if (rng() % 3) std::shuffle(place.begin(), place.end(), rng);
        std::uint32_t end = 0;
        for (ItemIndex i : place) {
            t.items[i].offset = end + (rng() % 3 ? 0 : rng() % 21);
            end = t.items[i].offset + t.types[t.items[i].type].resolved_size * t.items[i].count;
        }
        std::vector<std::uint8_t> data(end + rng() % 40, 0);
        // Damage: an offset moved to another item's (a tie) or into it; a byte set anywhere.
        for (int k = rng() % 3; k > 0; --k) {
            Item& moved = t.items[1 + rng() % (n - 1)];
            const Item& onto = t.items[1 + rng() % (n - 1)];
            const std::uint32_t size = t.types[moved.type].resolved_size * moved.count;
            moved.offset = std::min<std::uint32_t>(onto.offset + (rng() % 2 ? 0 : rng() % 24), static_cast<std::uint32_t>(data.size()) - size);
        }
        for (int k = rng() % 3; k > 0 && !data.empty(); --k) data[rng() % data.size()] = static_cast<std::uint8_t>(1 + rng() % 255);
        t.data = data;

        const Placement want = plain_placement(t);
        std::string what;
        try {
            verify_objects(t, kNoOffset);
        } catch (const Error& e) {
            what = e.what();
        }
        if (want.error) {
            EXPECT_EQ(what, *want.error) << round;
            ++errors;
        } else {
            EXPECT_FALSE(is_placement_error(what)) << round << ": " << what;
            ++clean;
        }
        std::vector<std::string> warnings;
        for (const Finding& w : t.warnings)
            if (w.message.find("aligned to") != std::string::npos || w.message.find("the writer pads") != std::string::npos)
                warnings.push_back("offset " + hex(w.offset) + ": " + w.message);
        EXPECT_EQ(warnings, want.warnings) << round;
    }
    EXPECT_GT(errors, 800) << clean << " clean";
    EXPECT_GT(clean, 300);
    EXPECT_GT(long_lists, 100);
}
