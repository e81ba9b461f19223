// The named fields the IGI 1 loader registers (spec §4.3), looked up by name hash.
#pragma once

#include <cstdint>
#include <string_view>

#include "formats/igi/graph.h"

namespace navlab::igi {

struct FieldInfo {
    std::string_view name;        ///< registered name, e.g. "nNodeID"
    std::uint32_t hash;           ///< field_hash(name)
    std::uint8_t declared_type;   ///< the registered type tag
    FieldRole role;
};

/// The field registered under `hash`, or nullptr when the IGI 1 loader does not know it.
const FieldInfo* find_field(std::uint32_t hash);

/// The field that carries `role` (role != FieldRole::Raw).
const FieldInfo& field_for(FieldRole role);

/// Name of an IGI 2-only field for messages ("vNodeLightValue"), or "" when unknown.
std::string_view igi2_field_name(std::uint32_t hash);

}  // namespace navlab::igi
