#include "audit/value_keys.h"

#include <deque>
#include <mutex>
#include <string>

namespace navlab::audit {
namespace {

/// The numbers given to names: kLiteralKeys' first (so that interning a literal's name gives
/// its literal's key), the others after them in the order they came.
class KeyNames {
public:
    KeyNames() {
        for (std::uint32_t i = 0; i < std::size(kLiteralKeys); ++i) ids_.emplace(kLiteralKeys[i], i);
    }
    std::uint32_t id(std::string_view name) {
        const std::lock_guard lock(mutex_);
        if (const auto at = ids_.find(name); at != ids_.end()) return at->second;
        const auto id = static_cast<std::uint32_t>(std::size(kLiteralKeys) + others_.size());
        others_.emplace_back(name);
        ids_.emplace(others_.back(), id);
        return id;
    }
    std::size_t others() {
        const std::lock_guard lock(mutex_);
        return others_.size();
    }
    std::string_view name(std::uint32_t id) {
        if (id < std::size(kLiteralKeys)) return kLiteralKeys[id];
        const std::lock_guard lock(mutex_);  // others_ may grow meanwhile; its strings stay put
        return others_.at(id - std::size(kLiteralKeys));
    }

private:
    std::mutex mutex_;
    /// Views of kLiteralKeys' names and others_' strings (a deque's elements stay put).
    std::unordered_map<std::string_view, std::uint32_t> ids_;
    std::deque<std::string> others_;  ///< names of ids from std::size(kLiteralKeys) on
};

KeyNames& key_names() {
    static KeyNames names;
    return names;
}

}  // namespace

Key Key::intern(std::string_view name) { return Key(key_names().id(name)); }

std::size_t Key::interned_names() { return key_names().others(); }

std::string_view Key::name() const { return key_names().name(id_); }

}  // namespace navlab::audit
