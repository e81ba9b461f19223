#include "audit/audit_load.h"

#include <cstring>

#include "audit/audit_context.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "io/error.h"

namespace navlab::audit {

// The model's mesh arrays and small containers go to the thread's next read.
AuditTagfile::~AuditTagfile() {
    if (model) fromsoft::recycle_nav_tagfile(std::move(*model));
}

void release_kept_storage() {
    fromsoft::release_recycled_storage();
    release_spare_context_storage();
}

void release_large_kept_storage(std::size_t min_bytes) {
    fromsoft::release_large_recycled_storage(min_bytes);
    release_spare_context_storage(min_bytes);
}

AuditTagfile load_audit_tagfile(std::span<const std::uint8_t> bytes, std::string binder, std::string entry,
                                std::optional<std::size_t> entry_index, bool dcx_payload) {
    AuditTagfile f;
    f.binder = std::move(binder);
    f.entry = std::move(entry);
    f.entry_index = entry_index;
    f.byte_size = bytes.size();
    f.dcx_payload = dcx_payload;
    // A TAG0 file starts with its section header (4 bytes of size and flags, then the tag),
    // and its first child is SDKV with 8 characters of version.
    auto tag_at = [&](std::size_t at, const char* tag) { return bytes.size() >= at + 4 && std::memcmp(&bytes[at], tag, 4) == 0; };
    f.starts_with_tag0 = tag_at(4, "TAG0");
    if (f.starts_with_tag0 && tag_at(12, "SDKV") && bytes.size() >= 24)
        f.sdk = std::string(reinterpret_cast<const char*>(&bytes[16]), 8);
    try {
        f.model = fromsoft::read_nav_tagfile(bytes);
    } catch (Error& e) {
        if (dcx_payload) e.in("DCX payload");
        f.read_error = e.what();
    }
    return f;
}

}  // namespace navlab::audit
