#include "io/error.h"

#include <fmt/format.h>

#include "io/text.h"

namespace navlab {

// Messages, fields and names often carry bytes of the file being read (type names, entry
// names): escape_non_utf8 keeps what() printable and valid UTF-8 for the JSON reports.
Error::Error(std::string message, std::uint64_t offset, std::string field)
    : std::runtime_error(message),
      message_(escape_non_utf8(message)),
      offset_(offset),
      field_(escape_non_utf8(field)) {
    refresh();
}

Error& Error::set_file(const std::string& file) {
    if (file_.empty()) file_ = escape_non_utf8(file);
    refresh();
    return *this;
}

Error& Error::in(const std::string& context) {
    const std::string c = escape_non_utf8(context);
    field_ = field_.empty() ? c : c + ": " + field_;
    refresh();
    return *this;
}

void Error::refresh() {
    what_.clear();
    if (!file_.empty()) what_ += file_ + ": ";
    if (offset_ != kNoOffset) what_ += "offset " + hex(offset_) + ": ";
    if (!field_.empty()) what_ += field_ + ": ";
    what_ += message_;
}

std::string hex(std::uint64_t value) { return fmt::format("0x{:X}", value); }

Finding warning_at(std::uint64_t offset, std::string field, std::string message) {
    Finding f;
    f.offset = offset;
    f.field = escape_non_utf8(field);
    f.message = escape_non_utf8(message);
    return f;
}

}  // namespace navlab
