// What the audit reads for one tagfile: where it came from, what the strict reader said and
// the model (which also carries the file's own record layouts, object counts and SDK).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/fromsoft/navmesh.h"

namespace navlab::audit {

/// One tagfile to audit, in input order.
struct AuditTagfile {
    AuditTagfile() = default;
    AuditTagfile(const AuditTagfile&) = default;
    AuditTagfile(AuditTagfile&&) = default;
    AuditTagfile& operator=(const AuditTagfile&) = default;
    AuditTagfile& operator=(AuditTagfile&&) = default;
    /// Gives the model's storage to the thread's next read (fromsoft::recycle_nav_tagfile): a
    /// corpus audit reads tagfile after tagfile on each thread.
    ~AuditTagfile();

    std::string binder;                      ///< binder path; empty for a loose tagfile
    std::string entry;                       ///< binder member name, or the file name
    std::optional<std::size_t> entry_index;  ///< member index in the binder
    std::uint64_t byte_size = 0;
    bool starts_with_tag0 = true;            ///< R96: the member begins with a TAG0 header
    bool dcx_payload = false;                ///< a compressed loose tagfile: offsets count from its payload
    std::optional<std::string> sdk;          ///< SDKV text when known (else the model's)
    std::optional<fromsoft::NavTagfile> model;  ///< absent when the strict read failed (R02)
    std::string read_error;                  ///< the strict reader's first failure
};

}  // namespace navlab::audit
