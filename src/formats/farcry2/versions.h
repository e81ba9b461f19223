// Far Cry 2 .nvm format versions and the thresholds at which fields appear or change
// (spec farcry2-nvm.md §6). The version is the archive's "format version" word at file
// offset 0x08; every serializer gates blocks of fields on it.
#pragma once

#include <cstdint>

namespace navlab::farcry2 {

/// The tag at file offset 0x04 of level and sector files: bytes "hMvN" (0x4E764D68 LE).
inline constexpr std::uint32_t kTag = 0x4E764D68;
/// The version every retail PC file carries.
inline constexpr std::uint32_t kRetailVersion = 0x14100;

/// Level file: field +0x70 (second grid dimension) present from this version.
inline constexpr std::uint32_t kLevelGridYVersion = 0xFFFF;
/// Level file: field +0x6C (first grid dimension) and the mode flag present from this version.
inline constexpr std::uint32_t kLevelModeVersion = 0x10000;

/// Sector file: the neighbour-link block is present from this version.
inline constexpr std::uint32_t kLinkBlockVersion = 0x13200;
/// Sector file: nodes below this version carry one extra byte at an unpublished position,
/// so they cannot be decoded; this is the oldest sector version the reader accepts.
inline constexpr std::uint32_t kOldestSectorVersion = 0x13701;
/// Sector file: node centroids are packed int16 triples from this version (f32 x3 before).
inline constexpr std::uint32_t kPackedCentroidVersion = 0x13800;
/// Sector file: nodes carry the two flag bytes at +0x18/+0x19 from this version.
inline constexpr std::uint32_t kNodeFlagsVersion = 0x13900;
/// The newest version whose layout is known; anything newer is rejected.
inline constexpr std::uint32_t kNewestVersion = kRetailVersion;

/// Bytes one node record takes on disk in a sector of the given (accepted) version:
/// 48 from 0x13900, 46 in [0x13800, 0x13900) (no flag bytes), 52 below (f32 centroid).
constexpr std::uint32_t node_record_size(std::uint32_t version) {
    if (version >= kNodeFlagsVersion) return 48;
    if (version >= kPackedCentroidVersion) return 46;
    return 52;
}

}  // namespace navlab::farcry2
