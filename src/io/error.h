// navlab::Error — the one exception type of the library.
//
// Every failure caused by input data carries where it happened: the file, the absolute
// byte offset inside that file (or inside the decompressed payload the message names),
// and a field path such as "BND4 entry 3". The command prints it as
//   FILE: offset 0x1F00: BND4 entry 3: name offset 0x1F00 past end of file (0x1E00)
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace navlab {

/// Sentinel for "no byte offset known".
inline constexpr std::uint64_t kNoOffset = ~std::uint64_t{0};

class Error : public std::runtime_error {
public:
    /// @param message what is wrong, e.g. "name offset 0x1F00 past end of file (0x1E00)".
    /// @param offset  absolute byte offset of the offending field, or kNoOffset.
    /// @param field   field path, e.g. "BND4 entry 3"; may be empty.
    explicit Error(std::string message, std::uint64_t offset = kNoOffset, std::string field = {});

    const std::string& message() const noexcept { return message_; }
    std::uint64_t offset() const noexcept { return offset_; }
    const std::string& field() const noexcept { return field_; }
    const std::string& file() const noexcept { return file_; }

    /// Sets the file name once; outer layers call this as the error propagates.
    Error& set_file(const std::string& file);
    /// Prepends a context to the field path: in("BND4 entry 3") turns "name" into
    /// "BND4 entry 3: name".
    Error& in(const std::string& context);

private:
    void refresh();
    std::string message_;
    std::uint64_t offset_;
    std::string field_;
    std::string file_;
    std::string what_;

public:
    const char* what() const noexcept override { return what_.c_str(); }
};

/// One problem found in input data that does not stop reading (a warning), or a located error
/// a check collects instead of throwing. The one "finding at an offset" of every format and
/// check; report.h prints them. Fields that do not apply stay empty / -1 / kNoOffset.
struct Finding {
    enum class Severity { Error, Warning };
    Severity severity = Severity::Warning;
    std::string file;                   ///< path as given by the user, or empty
    std::string member;                 ///< binder member (entry name), or empty
    std::int64_t member_index = -1;     ///< the member's index in its binder, -1 when none
    std::string object;                 ///< object or record, e.g. "hkaiNavMesh" or "node 5"; or empty
    std::string element_kind;           ///< what `element` counts: "face", "edge", "tree node"…; or empty
    std::int64_t element = -1;          ///< element index inside the object, -1 when none
    std::uint64_t offset = kNoOffset;   ///< absolute byte offset in `file` (or in `member`)
    std::string field;                  ///< field path, e.g. "nNodeID", "RouteTable", "corner 2"; or empty
    std::string message;                ///< what is wrong, one line

    bool is_error() const noexcept { return severity == Severity::Error; }
};

/// A warning at absolute byte `offset` (kNoOffset when none) in `field` (may be empty).
Finding warning_at(std::uint64_t offset, std::string field, std::string message);

/// Formats an unsigned value as 0x-prefixed upper-case hex ("0x1F00").
std::string hex(std::uint64_t value);

}  // namespace navlab
