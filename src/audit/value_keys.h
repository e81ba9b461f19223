// The keys of the audit's rule-specific figures (Values in audit.h), interned: a key is a small
// integer, so filling and merging a tagfile's figures compares integers, not strings, and the
// names come back only when a merged report is finished (forty-fourth session).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace navlab::audit {

/// Every key the rules and counters name by a literal, in byte order: a literal becomes its
/// index here at compile time. A rule naming a new key adds it here (the build fails until it
/// does).
inline constexpr std::string_view kLiteralKeys[] = {
    "cache_datas", "clockwise", "cost_max", "cost_min", "counter_clockwise", "degenerate",
    "degenerate_collinear", "degenerate_zero_vector_area", "determinant_negative", "determinant_positive",
    "direction", "domain_differs", "domain_equals_vertex_bounds", "domain_w_bits", "dropped_cuts",
    "edge_version", "empty_mesh_alone", "empty_mesh_empty_tree", "empty_mesh_margin_bits",
    "empty_mesh_strides", "face_version", "faces", "faces_mediator", "faces_mediator_setups",
    "faces_with_user_edges", "flags", "flags_52_with_opposite", "internal_nodes", "leaves", "lost_triangles",
    "margin_bits", "max_delta", "max_difference_m2", "max_distance_m", "max_distance_outside_m",
    "max_leaf_box_slack_m", "max_relative_difference", "max_relative_to_area", "max_user_edges_per_face",
    "mesh_graph", "mesh_graph_setups", "n_members", "non_finite_costs", "not_convex_in_newell_plane",
    "o_members", "opposite_in_same_face", "opposite_is_regular", "opposite_is_user_edge",
    "opposite_not_mutual", "regular_edges", "root_xyz_not_zero", "second_bytes", "space",
    "straight_corner_fallbacks", "strict_read_warnings", "sum_numEdges_minus_2", "that_are_face_corners",
    "transform_format", "tree_nodes", "triangles", "userData", "user_edge_vertices", "values", "vertices",
    "w_equal_1", "w_max", "w_min", "with_sine_tolerance_1e-3", "with_sine_tolerance_1e-5", "worldUpA_w_bits",
    "zero_area",
};
static_assert(std::adjacent_find(std::begin(kLiteralKeys), std::end(kLiteralKeys), std::greater_equal<>()) ==
                  std::end(kLiteralKeys),
              "kLiteralKeys: in byte order, each once");

/// A key of Values: one number per name for the whole process. A literal of kLiteralKeys is its
/// index (at compile time); any other name is given the next number the first time it is
/// interned (names made from the data: R23's edge counts, tests' keys; X03's class names are
/// not keys, see ClassCounts in audit.h).
class Key {
public:
    /// The key of a literal of kLiteralKeys; a name missing there does not compile.
    consteval Key(const char* name) : id_(literal_id(name)) {}  // NOLINT: implicit, as the text it replaces
    /// The key of any name, the same as its literal's when kLiteralKeys holds it. Thread-safe
    /// (a lock); the names interned stay for the process (they are the reports' keys).
    static Key intern(std::string_view name);
    /// How many names beyond kLiteralKeys were interned so far (they are kept for the process).
    static std::size_t interned_names();
    /// The key's name; valid for the process.
    std::string_view name() const;
    std::uint32_t id() const { return id_; }
    friend bool operator==(Key, Key) = default;

private:
    explicit Key(std::uint32_t id) : id_(id) {}
    static consteval std::uint32_t literal_id(std::string_view name) {
        for (std::uint32_t i = 0; i < std::size(kLiteralKeys); ++i)
            if (kLiteralKeys[i] == name) return i;
        throw "a key literal missing from kLiteralKeys";  // not a constant expression: the build fails
    }
    std::uint32_t id_;
};

/// The values of one kind, each under its key, in the order the keys came: what a rule fills
/// for one tagfile and what the merge adds up. Few keys (a scan of their ids finds one) unless
/// made from the data, which is not bounded: past kScanned entries an index by id is kept.
template <class T>
class KeyedEntries {
public:
    struct Entry {
        explicit Entry(Key k) : key(k), value() {}
        Key key;
        T value;
    };
    static constexpr std::size_t kScanned = 16;

    /// The place of `key`'s entry, made (value-initialised) when new. Places do not change while
    /// entries are only added (a cursor keeps one).
    std::size_t place(Key key) {
        if (entries_.size() <= kScanned) {
            for (std::size_t i = 0; i < entries_.size(); ++i)
                if (entries_[i].key == key) return i;
        } else {
            auto& index = index_.of(entries_);
            const auto [at, made] = index.try_emplace(key.id(), entries_.size());
            if (!made) return at->second;
        }
        entries_.emplace_back(key);  // made in place: a temporary Extreme cost two string copies
        return entries_.size() - 1;
    }
    T& operator[](Key key) { return entries_[place(key)].value; }
    T& at_place(std::size_t i) { return entries_[i].value; }
    /// add(value of the key here, value there) for each of `from`'s entries, in its order. The
    /// same rule fills the same keys in the same order tagfile after tagfile, so the entry after
    /// the last one used is tried first.
    template <class Add>
    void merge(const KeyedEntries& from, Add add) {
        std::size_t next = 0;
        for (const Entry& e : from.entries_) {
            const std::size_t at = next < entries_.size() && entries_[next].key == e.key ? next : place(e.key);
            add(entries_[at].value, e.value);
            next = at + 1;
        }
    }
    /// Drops every entry. The room of a few is kept for the thread's next tagfile; that of many
    /// (keys made from the data) is not kept without bound.
    void clear() noexcept {
        if (entries_.empty()) return;  // no index either: only clear() empties the entries
        if (entries_.capacity() > 4 * kScanned) std::vector<Entry>().swap(entries_);
        entries_.clear();
        index_.drop();
    }
    bool empty() const { return entries_.empty(); }
    std::size_t size() const { return entries_.size(); }
    auto begin() const { return entries_.begin(); }
    auto end() const { return entries_.end(); }
    auto begin() { return entries_.begin(); }
    auto end() { return entries_.end(); }

private:
    /// Key id → place, made when first needed past kScanned entries. A copy starts without one
    /// (it is made again from the entries).
    class Index {
    public:
        Index() = default;
        Index(const Index&) {}
        Index(Index&&) noexcept = default;
        Index& operator=(const Index&) { return drop(), *this; }
        Index& operator=(Index&&) noexcept = default;
        ~Index() = default;
        std::unordered_map<std::uint32_t, std::size_t>& of(const std::vector<Entry>& entries) {
            if (!map_) map_ = std::make_unique<std::unordered_map<std::uint32_t, std::size_t>>();
            if (map_->size() != entries.size()) {
                map_->clear();
                for (std::size_t i = 0; i < entries.size(); ++i) map_->emplace(entries[i].key.id(), i);
            }
            return *map_;
        }
        void drop() noexcept { map_.reset(); }

    private:
        std::unique_ptr<std::unordered_map<std::uint32_t, std::size_t>> map_;
    };

    std::vector<Entry> entries_;
    Index index_;
};

}  // namespace navlab::audit
