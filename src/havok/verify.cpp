#include "havok/verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "havok/layout.h"

namespace navlab::havok {
namespace {

/// The layouts of the last kTypeTablesKept type tables this thread verified (as many as
/// read_tagfile's TYPE cache keeps), each with a copy of its table: tagfiles whose TYPE section is
/// byte-identical share one table, so their layouts are computed once instead of per tagfile.
/// The copy keeps the records alive, so a table that shares them is the same table; a layout
/// that failed drops its entry (its half-computed state is not reused).
struct CachedLayouts {
    TypeTable types;
    Layouts layouts{types};
    /// Per type index 0 … N, 1 when THSH hashes it (part of the shared records, as TYPE
    /// holds THSH): compare_hashes read every type's record per tagfile (≈ 5,000 instructions
    /// a Sekiro tagfile for its 120 types). Bytes, not std::vector<bool>: its == compares bit
    /// by bit (1.7 M instructions on Sekiro), bytes compare with one memcmp.
    std::vector<std::uint8_t> hashed;
    explicit CachedLayouts(const TypeTable& t) : types(t), hashed(t.size() + 1, 0) {
        for (TypeIndex i = 1; i <= t.size(); ++i) hashed[i] = t[i].hash.has_value();
    }
};

struct LayoutCache {
    std::array<std::unique_ptr<CachedLayouts>, kTypeTablesKept> entries;
    std::size_t next = 0;  ///< the entry replaced next (round robin)
    /// The layouts of the last table that read_tagfile does not keep (type_table_is_kept):
    /// one tagfile's own, which must not push out a shared table's.
    std::unique_ptr<CachedLayouts> unkept;
};

LayoutCache& layout_cache() {
    thread_local LayoutCache cache;
    return cache;
}

/// The layouts for `types`, from the thread's cache when it holds the same records.
CachedLayouts& layouts_for(const TypeTable& types) {
    LayoutCache& cache = layout_cache();
    for (auto& entry : cache.entries)
        if (entry && entry->types.shares_records_with(types)) return *entry;
    if (!type_table_is_kept(types)) {
        if (!cache.unkept || !cache.unkept->types.shares_records_with(types)) cache.unkept = std::make_unique<CachedLayouts>(types);
        return *cache.unkept;
    }
    auto& entry = cache.entries[cache.next];
    cache.next = (cache.next + 1) % cache.entries.size();
    entry = std::make_unique<CachedLayouts>(types);
    return *entry;
}

/// Drops the entry of `layouts` after one of its layouts failed.
void forget(const Layouts& layouts) {
    LayoutCache& cache = layout_cache();
    for (auto& entry : cache.entries)
        if (entry && &entry->layouts == &layouts) entry.reset();
    if (cache.unkept && &cache.unkept->layouts == &layouts) cache.unkept.reset();
}

/// The walk's working storage, kept per thread so that each tagfile's walk reuses the capacity
/// of the last one's: built afresh it was about 30 allocations a tagfile (a hash map of the
/// references found with a vector per type, the reference counts, the item order, ...), a
/// third of the audit's malloc/free calls on the Sekiro preset. Reset at the start of each walk,
/// so a walk that threw leaves nothing the next one sees.
struct VerifyScratch {
    std::vector<std::uint32_t> refcount;  ///< per item index: the fields that reference it
    /// Per field type index: the DATA offsets of the non-null reference fields declared with
    /// it, in walk order (a PTCH group's would-be list). Only the types in found_types hold any.
    std::vector<std::vector<std::uint32_t>> found;
    /// The field types with references in `found`, in the order first met: the insertion order
    /// of the hash map the walk used before, which name_first_patch_difference rebuilds.
    std::vector<TypeIndex> found_types;
    std::vector<std::uint64_t> order;  ///< items as DATA offset << 32 | index, sorted (check_item_placement)
    std::vector<const PatchGroup*> file_groups;  ///< per type index, the file's PTCH group
    std::vector<std::uint8_t> want;  ///< per type index, 1 when THSH must hash it (as CachedLayouts::hashed)

    void reset(std::size_t items, std::size_t types) {
        for (TypeIndex t : found_types) found[t].clear();
        found_types.clear();
        file_groups.clear();  // pointers into the previous tagfile's PTCH groups
        if (found.size() < types + 1) found.resize(types + 1);
        refcount.assign(items, 0);
    }
    static VerifyScratch& of_this_thread() {
        thread_local VerifyScratch scratch;
        return scratch;
    }
};

/// Item lists up to this long are sorted by insertion (check_item_placement): at most
/// n² / 2 moves, ≈ 2,000 here, where a hostile list of many items would be quadratic.
constexpr std::size_t kItemsSortedByInsertion = 64;

/// The strict checks of the object walk over a parsed tagfile's DATA (spec §13): every
/// reference, PTCH and THSH against what the items hold, zero gaps, placement and padding.
class Verifier {
public:
    Verifier(Tagfile& out, std::uint64_t thsh_offset, std::uint64_t ptch_offset)
        : out_(out), thsh_offset_(thsh_offset), ptch_offset_(ptch_offset) {}

    void run() {
        const TypeTable& types = out_.types;
        CachedLayouts& cached = layouts_for(types);
        Layouts& layouts = cached.layouts;
        scratch_.reset(out_.items.size(), types.size());
        const Bytes data = out_.data;
        // Placement first: overlapping items would make the walk revisit bytes without bound.
        check_item_placement();
        for (ItemIndex i = 1; i < out_.items.size(); ++i) {
            const Item& item = out_.items[i];
            const std::uint32_t esize = types[item.type].resolved_size;
            const Layout* layout;
            try {
                layout = &layouts.of(item.type);
            } catch (Error& e) {
                std::string message = e.message();
                forget(layouts);  // `layouts` is gone; its failed state is not kept
                fail_data(item.offset, i, std::move(message));
            }
            if (layout->plain()) continue;
            // Every element's gaps in one pass over the array (words, not bytes): records
            // without references (faces, edges) are then done, and the loop below asks for an
            // element's first bad byte only when there is one. Asked per element byte by byte,
            // the gaps of the records with references (the mesh, the graph) were 2.5 M
            // instructions of a Sekiro audit.
            const bool gaps_zero = gap_bytes_all_zero(*layout, data.data() + item.offset, esize, item.count);
            if (layout->refs.empty() && gaps_zero) continue;
            for (std::uint32_t e = 0; e < item.count; ++e) {
                const std::uint32_t base = item.offset + e * esize;
                for (const RefLeaf& leaf : layout->refs) check_ref(i, e, base + leaf.offset, leaf);
                if (gaps_zero) continue;
                if (const std::int64_t k = first_nonzero_gap_byte(*layout, data.data() + base); k >= 0)
                    fail_data(base + k, i, fmt::format("element {}: byte {} of a gap or non-serialized member is {}; expected 0",
                                                       e, k, hex(data[base + k])));
            }
        }
        check_references(scratch_.refcount);
        compare_patches();
        compare_hashes(cached.hashed);
    }

private:
    std::uint64_t data_abs(std::uint64_t offset) const { return out_.data_offset + offset; }

    [[noreturn]] void fail_data(std::uint64_t offset, ItemIndex item, std::string message) const {
        throw Error(std::move(message), data_abs(offset),
                    fmt::format("DATA item {} ({})", item, out_.types.full_name(out_.items[item].type)));
    }

    void check_ref(ItemIndex owner, std::uint32_t element, std::uint32_t at, const RefLeaf& leaf) {
        const TypeTable& types = out_.types;
        std::uint64_t index;
        std::memcpy(&index, out_.data.data() + at, 8);
        if (leaf.kind == Kind::Array) {
            std::uint64_t size_cap;
            std::memcpy(&size_cap, out_.data.data() + at + 8, 8);
            if (size_cap)
                fail_data(at + 8, owner, fmt::format("element {}: {} size/capacity words are {}; expected 0 (the item count gives the length)",
                                                     element, types.full_name(leaf.field_type), hex(size_cap)));
        }
        if (index == 0) return;
        const Type& ftype = types[leaf.field_type];
        auto what = [&] { return fmt::format("element {}: {} field", element, types.full_name(leaf.field_type)); };
        if (index >= out_.items.size())
            fail_data(at, owner, fmt::format("{} references item {} (only {} items)", what(), index, out_.items.size() - 1));
        const Item& target = out_.items[index];
        switch (leaf.kind) {
            case Kind::Pointer: {
                if (target.kind != ItemKind::Pointer)
                    fail_data(at, owner, fmt::format("{} references item {}, an array item; expected a pointer item", what(), index));
                const TypeIndex want = ftype.resolved_subtype;
                if (want && types[want].kind() != Kind::Void && !types.derives_from(target.type, want))
                    fail_data(at, owner, fmt::format("{} references item {} of type {}, which does not derive from {}", what(),
                                                     index, types.full_name(target.type), types.full_name(want)));
                break;
            }
            case Kind::String: {
                // A string item holds count bytes (spec §5.1: characters including the NUL), so
                // its element type is a 1-byte char; a wider type named char is not a string.
                if (target.kind != ItemKind::Array || types[target.type].name != "char" || types[target.type].resolved_size != 1)
                    fail_data(at, owner, fmt::format("{} references item {}; expected an array item of 1-byte char", what(), index));
                if (target.count == 0 || out_.data[target.offset + target.count - 1] != 0)
                    fail_data(at, owner, fmt::format("string item {} does not end with a NUL", index));
                break;
            }
            default: {
                if (target.kind != ItemKind::Array)
                    fail_data(at, owner, fmt::format("{} references item {}, a pointer item; expected an array item", what(), index));
                if (target.type != ftype.resolved_subtype)
                    fail_data(at, owner, fmt::format("{} references item {} of {}; expected elements of {}", what(), index,
                                                     types.full_name(target.type), types.full_name(ftype.resolved_subtype)));
                break;
            }
        }
        ++scratch_.refcount[index];
        std::vector<std::uint32_t>& offsets = scratch_.found[leaf.field_type];
        if (offsets.empty()) scratch_.found_types.push_back(leaf.field_type);
        offsets.push_back(at);
    }

    /// Every item but the root referenced; arrays once (§13).
    void check_references(const std::vector<std::uint32_t>& refcount) {
        const TypeTable& types = out_.types;
        for (ItemIndex i = 2; i < out_.items.size(); ++i) {
            const Item& item = out_.items[i];
            if (refcount[i] == 0) fail_data(item.offset, i, fmt::format("item {} is not referenced by any field", i));
            if (item.kind == ItemKind::Array && refcount[i] > 1 && types[item.type].name != "char")
                warn(data_abs(item.offset), fmt::format("array item {} is referenced {} times", i, refcount[i]));
        }
        if (refcount[1]) warn(data_abs(out_.items[1].offset), "the root item 1 is referenced by a field");
    }

    /// Items against each other: no overlap, zero gaps, alignment (§5.5), end padding.
    void check_item_placement() {
        const TypeTable& types = out_.types;
        const std::vector<Item>& items = out_.items;
        // Each item as one key, its DATA offset above its index: sorted, the keys are in the
        // order by offset, then index (a stable sort's), compared without reaching the items.
        // A few items (≈ 18 a Sekiro tagfile, not in offset order: a pointer item between the
        // arrays) are sorted by insertion as they are listed, in about one step each; std::sort
        // of the indices by the items' offsets was ≈ 500 instructions a tagfile.
        std::vector<std::uint64_t>& order = scratch_.order;
        order.resize(items.size() - 1);
        if (order.size() <= kItemsSortedByInsertion) {
            for (ItemIndex i = 1; i < items.size(); ++i) {
                const std::uint64_t key = std::uint64_t{items[i].offset} << 32 | i;
                std::size_t at = i - 1;
                for (; at > 0 && order[at - 1] > key; --at) order[at] = order[at - 1];
                order[at] = key;
            }
        } else {
            for (ItemIndex i = 1; i < items.size(); ++i) order[i - 1] = std::uint64_t{items[i].offset} << 32 | i;
            if (!std::is_sorted(order.begin(), order.end())) std::sort(order.begin(), order.end());
        }
        std::uint64_t pos = 0;
        bool misaligned = false;
        for (const std::uint64_t key : order) {
            const auto i = static_cast<ItemIndex>(key);
            const Item& item = items[i];
            const Type& type = types[item.type];
            if (item.offset < pos)
                fail_data(item.offset, i, fmt::format("item {} overlaps the item before it in DATA (which ends at {})", i, hex(pos)));
            check_zero(pos, item.offset, "gap between items");
            const std::uint32_t align = item_alignment(item, type);
            if (!misaligned && align > 1 && item.offset % align) {
                warn(data_abs(item.offset), fmt::format("item {} at DATA offset {} is not aligned to {} (spec §5.5)", i, hex(item.offset), align));
                misaligned = true;
            }
            pos = item.offset + std::uint64_t{type.resolved_size} * item.count;
        }
        check_zero(pos, out_.data.size(), "DATA after the last item");
        if (out_.data.size() - pos >= 16 || out_.data.size() % 16)
            warn(data_abs(pos), fmt::format("DATA is {} bytes; the writer pads the last item's end ({}) to 16", hex(out_.data.size()), hex(pos)));
    }

    static std::uint32_t item_alignment(const Item& item, const Type& t) {
        if (item.kind == ItemKind::Pointer) return t.resolved_alignment;
        if (t.name == "char") return 2;
        return std::max<std::uint32_t>(16, t.resolved_alignment);
    }

    /// Throws naming the first byte of DATA in [from, to) that is not 0: eight bytes a step,
    /// then a byte loop over the rest, from the word that is not 0.
    void check_zero(std::uint64_t from, std::uint64_t to, const char* what) const {
        const std::uint8_t* data = out_.data.data();
        std::uint64_t k = from;
        for (std::uint64_t word; k + 8 <= to; k += 8) {
            std::memcpy(&word, data + k, 8);
            if (word) break;
        }
        for (; k < to; ++k)
            if (data[k])
                throw Error(fmt::format("{}: byte is {}; expected 0", what, hex(data[k])), data_abs(k), "DATA");
    }

    void compare_patches() {
        // The file's group of each type, by type index.
        // read_tagfile accepts only type indices 1 … size(); a Tagfile built in memory may hold
        // anything, hence the bound check.
        std::vector<const PatchGroup*>& file = scratch_.file_groups;
        file.assign(out_.types.size() + 1, nullptr);
        std::uint64_t at = ptch_offset_;  // the group's file offset, when PTCH was parsed
        for (const PatchGroup& g : out_.patches) {
            if (g.type >= file.size())
                throw Error(fmt::format("PTCH group of type index {} (only {} types)", g.type, out_.types.size()), at, "PTCH");
            if (file[g.type])
                throw Error(fmt::format("two PTCH groups for type {}", out_.types.full_name(g.type)), at, "PTCH");
            file[g.type] = &g;
            if (at != kNoOffset) at += 8 + 4 * std::uint64_t{g.offsets.size()};
        }
        if (!patches_match_found()) name_first_patch_difference();
    }

    /// Whether every type's references found equal its PTCH group as a set, and every group's
    /// type has references. Compared in place when the file lists them in order (as writers
    /// do); a copy is sorted only otherwise.
    bool patches_match_found() {
        const std::vector<const PatchGroup*>& file = scratch_.file_groups;
        for (TypeIndex type : scratch_.found_types) {
            std::vector<std::uint32_t>& offsets = scratch_.found[type];
            // In walk order, which is DATA order when the items are (as writers place them).
            if (!std::is_sorted(offsets.begin(), offsets.end())) std::sort(offsets.begin(), offsets.end());
            const PatchGroup* group = type < file.size() ? file[type] : nullptr;
            if (!group) return false;
            if (std::is_sorted(group->offsets.begin(), group->offsets.end()) && group->offsets == offsets) continue;
            std::vector<std::uint32_t> listed = group->offsets;
            std::sort(listed.begin(), listed.end());
            if (listed != offsets) return false;
        }
        for (const PatchGroup& g : out_.patches)
            if (scratch_.found[g.type].empty()) return false;
        return true;
    }

    /// Throws the error for the first difference between PTCH and the references found, in the
    /// order of the checks before the walk kept its references per thread: types in the
    /// iteration order of an unordered_map filled in the order they were first found (which
    /// this rebuilds: its order depends on nothing else), then the groups in file order. Called
    /// only when patches_match_found says there is a difference, so it always throws.
    void name_first_patch_difference() {
        std::unordered_map<TypeIndex, std::vector<std::uint32_t>> found;
        for (TypeIndex type : scratch_.found_types) found[type] = scratch_.found[type];
        const std::vector<const PatchGroup*>& file = scratch_.file_groups;
        static const std::vector<std::uint32_t> kNone;
        for (auto& [type, offsets] : found) {
            std::sort(offsets.begin(), offsets.end());
            const PatchGroup* group = type < file.size() ? file[type] : nullptr;
            std::vector<std::uint32_t> listed = group ? group->offsets : kNone;
            std::sort(listed.begin(), listed.end());
            if (listed == offsets) continue;
            std::vector<std::uint32_t> missing;
            std::set_difference(offsets.begin(), offsets.end(), listed.begin(), listed.end(), std::back_inserter(missing));
            if (!missing.empty())
                throw Error(fmt::format("PTCH does not list the {} field at DATA offset {} ({} of {} missing)",
                                        out_.types.full_name(type), hex(missing[0]), missing.size(), offsets.size()),
                            data_abs(missing[0]), "PTCH");
            std::vector<std::uint32_t> extra;
            std::set_difference(listed.begin(), listed.end(), offsets.begin(), offsets.end(), std::back_inserter(extra));
            throw Error(fmt::format("PTCH lists DATA offset {} for {}, which holds no such non-null reference",
                                    hex(extra.empty() ? 0 : extra[0]), out_.types.full_name(type)),
                        data_abs(extra.empty() ? 0 : extra[0]), "PTCH");
        }
        for (const PatchGroup& g : out_.patches)
            if (!found.count(g.type))
                throw Error(fmt::format("PTCH group of {} lists {} offsets, but no such reference field is set",
                                        out_.types.full_name(g.type), g.offsets.size()),
                            g.offsets.empty() ? kNoOffset : data_abs(g.offsets[0]), "PTCH");
    }

    /// @param hashed per type index, whether THSH hashes it (CachedLayouts::hashed)
    void compare_hashes(const std::vector<std::uint8_t>& hashed) {
        if (!out_.style.thsh) return;
        std::vector<std::uint8_t>& want = scratch_.want;
        want.assign(out_.types.size() + 1, 0);
        for (ItemIndex i = 1; i < out_.items.size(); ++i) want[out_.items[i].type] = 1;
        for (TypeIndex type : scratch_.found_types) want[type] = 1;
        if (want == hashed) return;  // the walk below only names the first difference
        for (TypeIndex t = 1; t <= out_.types.size(); ++t) {
            const bool has = hashed[t];
            if (want[t] && !has)
                throw Error(fmt::format("THSH has no hash for {}, an item or patch type", out_.types.full_name(t)), thsh_offset_, "THSH");
            if (!want[t] && has)
                throw Error(fmt::format("THSH hashes {}, which is neither an item nor a patch type", out_.types.full_name(t)),
                            thsh_offset_, "THSH");
        }
    }

    void warn(std::uint64_t offset, std::string message) { out_.warnings.push_back(warning_at(offset, {}, std::move(message))); }

    Tagfile& out_;
    std::uint64_t thsh_offset_;
    std::uint64_t ptch_offset_;
    VerifyScratch& scratch_ = VerifyScratch::of_this_thread();
};

}  // namespace

void verify_objects(Tagfile& tagfile, std::uint64_t thsh_offset, std::uint64_t ptch_offset) {
    Verifier(tagfile, thsh_offset, ptch_offset).run();
}

}  // namespace navlab::havok
