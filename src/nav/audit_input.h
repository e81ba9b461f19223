// What the audit reads for one tagfile: where it came from, what the strict reader said, the
// model, and the type-table facts the model does not hold (layouts for R05, R06, R56, R66,
// R84, R90; object counts for R08/X03). Filled by the command from the FromSoftware reader.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "formats/fromsoft/navmesh.h"

namespace navlab::nav {

/// One member of a type in the file's own type table.
struct TypeMember {
    std::string name;
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
};

/// One type of the file's own type table (only those the rules look at).
struct TypeLayout {
    std::string name;
    std::uint32_t size = 0;
    std::uint32_t version = 0;
    std::vector<TypeMember> members;
    const TypeMember* member(const std::string& n) const {
        for (const TypeMember& m : members)
            if (m.name == n) return &m;
        return nullptr;
    }
};

/// One tagfile to audit, in input order.
struct AuditTagfile {
    std::string binder;                      ///< binder path; empty for a loose tagfile
    std::string entry;                       ///< binder member name, or the file name
    std::optional<std::size_t> entry_index;  ///< member index in the binder
    std::uint64_t byte_size = 0;
    bool starts_with_tag0 = true;            ///< R96: the member begins with a TAG0 header
    std::optional<std::string> sdk;          ///< SDKV text when the header could be read
    std::optional<std::string> type_section; ///< "TYPE" or "TCRF" (R03); unknown when absent
    std::optional<fromsoft::NavTagfile> model;  ///< absent when the strict read failed (R02)
    std::string read_error;                  ///< the strict reader's first failure
    /// Types of the file's type table by name (hkaiNavMesh, hkaiNavMesh::Face, …). Empty when
    /// the reader gave none: the layout rules then count the tagfile as skipped.
    std::map<std::string, TypeLayout> types;
    /// Objects per class among the file's pointer items (X03, R08); empty when unknown.
    std::map<std::string, int> objects_per_class;
};

}  // namespace navlab::nav
