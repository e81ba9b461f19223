// `navlab replace`: swap, add or remove one member of a binder, every other member keeping
// its bytes, the binder and DCX headers rewritten as FromSoftware's writer lays them out
// (sizes, hash table rebuilt from the names, alignment; the DCX header's own constants kept).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace navlab::build {

/// What happened to the binder.
struct ReplaceResult {
    std::vector<std::uint8_t> file;  ///< the new binder file (same DCX variant as the input)
    std::string action;              ///< "replaced", "added" or "removed"
    std::string name;                ///< the member's full name
    std::int32_t id = 0;
    std::size_t members = 0;         ///< members after the change
};

/// Changes one member of `binder` (a DCX-wrapped or raw BND4 file).
/// @param entry  an index, a full member name, or a file name matched against the names'
///               last path component (case-insensitive). A file name no member has adds a
///               member: its full name takes the folder of member 0, its id is one past the
///               highest id of its kind (10000 + k for n..., 20000 + k for o...), entries
///               stay in ascending id order.
/// @param data   the member's new bytes; std::nullopt removes the member.
/// Throws navlab::Error naming the entry when it is ambiguous, not found (for a removal or
/// an index) or when the binder cannot be read.
ReplaceResult replace_member(std::span<const std::uint8_t> binder, const std::string& entry,
                             std::optional<std::vector<std::uint8_t>> data);

}  // namespace navlab::build
