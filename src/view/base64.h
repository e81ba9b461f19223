// Base64 (RFC 4648, with padding) for the viewer page's binary buffers.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace navlab::view {

/// The standard alphabet with '=' padding; 4 characters per 3 bytes.
std::string base64(std::span<const std::uint8_t> bytes);

}  // namespace navlab::view
