// The shape of an embedded type set as generated code writes it: types by identity (full name
// with template arguments), references by identity, resolved to indices by build_type_table.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "havok/types.h"

namespace navlab::havok {

struct TypeSpec {
    struct Param {
        const char* name;   ///< with its kind prefix ("tT", "vN")
        const char* value;  ///< a type identity for 't', a decimal integer for 'v'
    };
    struct Field {
        const char* name;
        std::uint32_t flags, offset;
        const char* type;  ///< type identity
    };
    const char* ident;  ///< full name, e.g. "hkArray<hkInt32, hkContainerHeapAllocator>"
    const char* name;   ///< base name, e.g. "hkArray"
    std::uint32_t optionals, format;
    const char* parent;   ///< identity or ""
    const char* subtype;  ///< identity or ""
    std::uint32_t version, size, alignment, flags, hash, property_count;
    std::vector<Param> params;
    std::vector<Field> fields;
};

/// Builds a resolved TypeTable (index i+1 = specs[i]) with hashes; throws navlab::Error on an
/// unknown identity.
TypeTable build_type_table(std::span<const TypeSpec> specs);

}  // namespace navlab::havok
