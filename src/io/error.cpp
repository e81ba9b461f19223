#include "io/error.h"

#include <fmt/format.h>

namespace navlab {

Error::Error(std::string message, std::uint64_t offset, std::string field)
    : std::runtime_error(message), message_(std::move(message)), offset_(offset), field_(std::move(field)) {
    refresh();
}

Error& Error::set_file(const std::string& file) {
    if (file_.empty()) file_ = file;
    refresh();
    return *this;
}

Error& Error::in(const std::string& context) {
    field_ = field_.empty() ? context : context + ": " + field_;
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
    f.field = std::move(field);
    f.message = std::move(message);
    return f;
}

}  // namespace navlab
