#include "io/shared_bytes.h"

#include <fmt/format.h>

#include "io/error.h"
#include "io/file.h"

namespace navlab {

SharedBytes::SharedBytes(std::vector<std::uint8_t> bytes) {
    auto owner = std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes));
    view_ = *owner;
    owner_ = std::move(owner);
}

SharedBytes SharedBytes::map_file(const std::filesystem::path& path) {
    auto file = std::make_shared<const InputFile>(path);
    const std::span<const std::uint8_t> view = file->bytes();
    return SharedBytes(std::move(file), view);
}

SharedBytes SharedBytes::borrow(std::span<const std::uint8_t> bytes) noexcept { return SharedBytes(nullptr, bytes); }

SharedBytes SharedBytes::slice(std::size_t offset, std::size_t size) const {
    if (offset > view_.size() || size > view_.size() - offset)
        throw Error(fmt::format("bytes [{}, +{}) are outside a buffer of {} bytes", hex(offset), hex(size),
                                hex(view_.size())));
    return SharedBytes(owner_, view_.subspan(offset, size));
}

SharedBytes SharedBytes::slice(std::span<const std::uint8_t> inner) const {
    // Compare as integers: pointers into different objects are not ordered in C++.
    const auto begin = reinterpret_cast<std::uintptr_t>(view_.data());
    const auto at = reinterpret_cast<std::uintptr_t>(inner.data());
    if (inner.empty()) return SharedBytes(owner_, {});
    if (at < begin || at - begin > view_.size()) throw Error("a span outside its buffer was sliced");
    return slice(at - begin, inner.size());
}

}  // namespace navlab
