// Far Cry 2 sector satellite file `nv_<sectorId>.nvm` (CNavMeshSector::SerializeData, spec §5):
// a fixed header, the neighbour-link table, one node record per triangle, the packed vertex
// array, and a tail (covers, dynamic covers, a packed array, quadtree(s)) whose byte layout is
// not public and is kept verbatim. Versions 0x13701..0x14100 are decoded (spec §6).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/farcry2/grid.h"
#include "formats/farcry2/packing.h"
#include "formats/farcry2/versions.h"
#include "io/byte_reader.h"

namespace navlab::farcry2 {

/// The link entry that means "nothing across this edge" (node 0xFFFE, sector 0xFFFF).
inline constexpr std::uint32_t kNoLink = 0xFFFEFFFF;
/// Byte offset of the link table's count word; the header ends here.
inline constexpr std::size_t kSectorHeaderBytes = 0x32;

/// Where a link entry points: (node << 16) | sector.
struct LinkTarget {
    std::uint16_t sector = 0;
    std::uint16_t node = 0;
    bool operator==(const LinkTarget&) const = default;
};
constexpr std::uint32_t encode_link(LinkTarget t) { return (std::uint32_t{t.node} << 16) | t.sector; }
constexpr LinkTarget decode_link(std::uint32_t entry) {
    return {static_cast<std::uint16_t>(entry & 0xFFFF), static_cast<std::uint16_t>(entry >> 16)};
}

/// Sector file header, bytes 0x00..0x31 (spec §5.1).
struct SectorHeader {
    std::uint32_t word_00 = 0;               ///< 0x00: always 0 in measured files
    std::uint32_t version = kRetailVersion;  ///< 0x08
    std::uint32_t reload_size = 0;           ///< 0x0C: GetReloadSize(); rule unknown
    std::uint16_t sector_x = 0;              ///< 0x10: unidentified ("sectorX")
    std::uint16_t sector_id = 0;             ///< 0x12: global sector id (= the file name's)
    Box2 box;                                ///< 0x14: the sector's 2-D box; the packing basis
    std::uint32_t field_6c = 0x4F800000;     ///< 0x24: default 2^32 as f32, a sentinel
    std::uint32_t field_70 = 0;              ///< 0x28: unknown
    std::uint32_t field_74 = 0;              ///< 0x2C: unknown
    std::uint16_t field_5c = 0;              ///< 0x30: unknown
};

/// One node = one triangle (spec §5.3). The record is 48 bytes from 0x13900, 46 bytes in
/// [0x13800, 0x13900) (no flag bytes) and 52 bytes in [0x13701, 0x13800) (f32 centroid).
struct Node {
    std::uint32_t object_size = 60;   ///< +0x00: in-memory class size, ignored by the engine
    std::uint16_t sector_id = 0;      ///< +0x04: the file's own sector id
    std::uint16_t index = 0;          ///< +0x06: position in the node array
    std::uint16_t unknown_08 = 1;     ///< +0x08: "1 or a number unique to the node"
    std::uint8_t link_count = 3;      ///< +0x0A: entries of this node in the link table
    std::uint32_t link_offset = 0;    ///< +0x0B: index of its first entry
    Packed3 centroid{};               ///< +0x0F: packed centroid (from 0x13800)
    std::array<float, 3> centroid_f32{};  ///< +0x0F: world centroid (below 0x13800)
    std::array<std::int8_t, 3> normal{};  ///< face normal, each component * 127
    std::array<std::uint8_t, 2> flags{};  ///< two unknown flag bytes (from 0x13900)
    std::array<std::uint32_t, 3> vertices{};  ///< corner indices into the vertex array
    std::array<std::uint8_t, 10> unknown_tail{};  ///< last 10 bytes of the record, unknown
};

struct SectorFile {
    SectorHeader header;
    std::vector<std::uint32_t> links;  ///< the link table; nodes address ranges of it
    std::vector<Node> nodes;
    std::vector<Packed3> vertices;     ///< triangle corners, packed
    std::vector<std::uint8_t> tail;    ///< everything after the vertex array, verbatim
    /// Hash of the bytes before the tail as read; the writer warns when they changed.
    std::optional<std::uint64_t> read_digest;

    /// The dequantisation basis (the reader guarantees the box yields one).
    Packing packing() const;
    /// World position of vertex i (i < vertices.size()).
    Vec3 vertex_position(std::size_t i) const;
    /// World position of a node's stored centroid, whichever form its version uses.
    Vec3 centroid_position(const Node& node) const;
    /// The entries of a node's link range (reader-checked to lie inside the table).
    std::span<const std::uint32_t> node_links(const Node& node) const {
        return std::span(links).subspan(node.link_offset, node.link_count);
    }
};

/// Absolute byte offsets of a sector file's parts, derived from its counts and version.
struct SectorLayout {
    std::size_t links = 0;      ///< first link entry
    std::size_t nodes = 0;      ///< first node record
    std::size_t node_size = 0;  ///< bytes per node record
    std::size_t vertices = 0;   ///< first packed vertex
    std::size_t tail = 0;       ///< first tail byte
    std::size_t vertex_field = 0;  ///< offset of the vertex indices inside a node record

    std::size_t link_entry(std::size_t i) const { return links + 4 * i; }
    std::size_t node(std::size_t i) const { return nodes + node_size * i; }
};
SectorLayout layout_of(const SectorFile& sector);

/// Parses a sector file. Throws navlab::Error with the absolute offset and field on a bad tag,
/// an unknown or undecodable version, a box that gives no packing basis, counts past the end,
/// a node link range outside the link table, or a vertex index past the vertex array.
SectorFile read_sector(Bytes bytes);

/// Bytes of a sector file plus what the caller should tell the user.
struct WrittenSector {
    std::vector<std::uint8_t> bytes;
    std::vector<std::string> warnings;  ///< e.g. "geometry changed, opaque tail kept as read"
};

/// Serialises a sector; the tail is written verbatim. Warns when the bytes before the tail differ
/// from what was read (the stored quadtree and covers are built from the geometry and may now be
/// stale) or when a sector built from scratch has no tail (the game expects covers and a quadtree).
/// Throws navlab::Error when the result would not read back (version, box, ranges, indices).
WrittenSector write_sector(const SectorFile& sector);

}  // namespace navlab::farcry2
