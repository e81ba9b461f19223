// `navlab unpack` / `pack` as library calls: a binder's entries as files in a folder plus a
// JSON manifest (navlab-manifest.json) holding every header field, so packing an unchanged
// folder rebuilds the identical file (same DCX variant, same BND4 layout). The JSON forms of
// the DCX and BND4 headers are also what `navlab ls --json` prints.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "codec/dcx.h"
#include "container/binder_file.h"
#include "container/bnd4.h"

namespace navlab::container {

/// The manifest's file name inside an unpacked folder.
inline constexpr const char* kManifestName = "navlab-manifest.json";

/// A DCX header as JSON: variant, codec, sizes and every raw field (hex strings).
nlohmann::ordered_json dcx_json(const dcx::Header& header);
/// The header dcx_json() describes; missing fields take the variant's standard values.
dcx::Header dcx_from_json(const nlohmann::ordered_json& json);
/// A BND4 header as JSON; bytes that are zero in every known file appear only when not zero.
nlohmann::ordered_json bnd4_json(const bnd4::Header& header);
/// The header bnd4_json() describes.
bnd4::Header bnd4_from_json(const nlohmann::ordered_json& json);
/// Logical BND4 format bits as words ("IDs, names1, ..."), "none" when zero.
std::string format_names(std::uint8_t logical_format);

/// Writes every entry of `file` into `dir` (created if missing) under a safe, unique file name,
/// and the manifest. @param source the file name recorded in the manifest. @return entries written.
std::size_t unpack(const BinderFile& file, const std::string& source, const std::filesystem::path& dir);

/// The bytes of the file a folder made by unpack() describes.
struct Packed {
    std::vector<std::uint8_t> bytes;  ///< the whole file (DCX-compressed when the manifest says so)
    std::size_t entries = 0;          ///< entries packed
};
/// What a long pack reports: a Kraken DCX file (DCX_KRAK, DCX_KRAK_MAX) at level 9 takes
/// minutes on a large binder, and its payload's size is known only once the binder is built.
/// Both may be empty.
struct PackProgress {
    /// Called once, before a Kraken payload of this many bytes is encoded (other variants: never).
    std::function<void(std::size_t payload_bytes)> encoding;
    /// Called once per Kraken block encoded, with its input bytes (kraken::encode's block_done:
    /// from the encoding threads, so it must be thread-safe).
    std::function<void(std::size_t block_bytes)> block_done;
};

/// The DCX variant `dir`'s manifest packs with (Variant::None: an uncompressed file), read
/// before packing so a command can refuse options the variant would ignore.
dcx::Variant manifest_variant(const std::filesystem::path& dir);

/// Rebuilds the file from `dir`'s manifest and entry files. Errors (bad manifest, missing
/// entry file, unencodable name) carry the manifest's path.
/// @param kraken_level Kraken encoder level for a DCX_KRAK file (0 = stored blocks, -1 = the
///                     level byte of the manifest's header), as dcx::compress takes it.
/// @param progress     hooks for a progress line (PackProgress).
Packed pack(const std::filesystem::path& dir, int kraken_level = -1, const PackProgress& progress = {});

}  // namespace navlab::container
