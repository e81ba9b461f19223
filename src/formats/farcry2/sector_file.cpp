#include "formats/farcry2/sector_file.h"

#include <fmt/format.h>

#include "io/byte_writer.h"

namespace navlab::farcry2 {
namespace {

// The link block appears at 0x13200, before every version the reader accepts, so it is
// always present in a decodable file.
static_assert(kOldestSectorVersion > kLinkBlockVersion);

constexpr std::size_t kCentroidField = 0x0F;
constexpr std::size_t kLinkOffsetField = 0x0B;

constexpr bool packed_centroid(std::uint32_t version) { return version >= kPackedCentroidVersion; }
constexpr bool has_flags(std::uint32_t version) { return version >= kNodeFlagsVersion; }
constexpr std::size_t vertex_field(std::uint32_t version) {
    return kCentroidField + (packed_centroid(version) ? 6 : 12) + 3 + (has_flags(version) ? 2 : 0);
}
static_assert(vertex_field(kRetailVersion) + 12 + 10 == node_record_size(kRetailVersion));
static_assert(vertex_field(kPackedCentroidVersion) + 12 + 10 == node_record_size(kPackedCentroidVersion));
static_assert(vertex_field(kOldestSectorVersion) + 12 + 10 == node_record_size(kOldestSectorVersion));

void check_version(std::uint32_t version) {
    if (version < kOldestSectorVersion)
        throw Error(fmt::format("version {} is older than {}: its node records carry one extra byte at a "
                                "position no public source gives, so they cannot be decoded",
                                hex(version), hex(kOldestSectorVersion)),
                    8, "sector file: version");
    if (version > kNewestVersion)
        throw Error(fmt::format("unknown sector file version {} (known: {}..{})", hex(version),
                                hex(kOldestSectorVersion), hex(kNewestVersion)),
                    8, "sector file: version");
}

std::uint64_t fnv1a(Bytes bytes) {
    std::uint64_t h = 0xCBF29CE484222325ull;
    for (auto b : bytes) h = (h ^ b) * 0x100000001B3ull;
    return h;
}

/// Reads a u32 count and checks that `count` elements of `element_bytes` fit what remains.
std::uint32_t read_count(ByteReader& r, std::size_t element_bytes, const char* field) {
    const std::size_t pos = r.pos();
    const std::uint32_t count = r.u32(field);
    if (r.remaining() / element_bytes < count)
        r.fail_at(pos, fmt::format("{} {} needs {} bytes but only {} remain", field, count,
                                   std::uint64_t{count} * element_bytes, r.remaining()));
    return count;
}

Packed3 read_packed(ByteReader& r, const char* field) { return {r.i16(field), r.i16(field), r.i16(field)}; }
void write_packed(ByteWriter& w, const Packed3& q) {
    for (auto v : q) w.i16(v);
}

Node read_node(ByteReader& r, std::uint32_t version) {
    Node n;
    n.object_size = r.u32("node object size");
    n.sector_id = r.u16("node sector id");
    n.index = r.u16("node index");
    n.unknown_08 = r.u16("node word +0x08");
    n.link_count = r.u8("node link count");
    n.link_offset = r.u32("node link offset");
    if (packed_centroid(version)) n.centroid = read_packed(r, "node centroid");
    else for (auto& c : n.centroid_f32) c = r.f32("node centroid");
    for (auto& c : n.normal) c = r.i8("node normal");
    if (has_flags(version)) for (auto& f : n.flags) f = r.u8("node flags");
    for (auto& v : n.vertices) v = r.u32("node vertex index");
    for (auto& b : n.unknown_tail) b = r.u8("node unknown bytes");
    return n;
}

void write_node(ByteWriter& w, const Node& n, std::uint32_t version) {
    w.u32(n.object_size);
    w.u16(n.sector_id);
    w.u16(n.index);
    w.u16(n.unknown_08);
    w.u8(n.link_count);
    w.u32(n.link_offset);
    if (packed_centroid(version)) write_packed(w, n.centroid);
    else for (auto c : n.centroid_f32) w.f32(c);
    for (auto c : n.normal) w.i8(c);
    if (has_flags(version)) for (auto f : n.flags) w.u8(f);
    for (auto v : n.vertices) w.u32(v);
    for (auto b : n.unknown_tail) w.u8(b);
}

void read_header(ByteReader& r, SectorHeader& h) {
    h.word_00 = r.u32("word 0x00");
    if (std::uint32_t tag = r.u32("tag"); tag != kTag)
        r.fail_at(4, fmt::format("tag: expected 0x4E764D68 (\"hMvN\"), found {}", hex(tag)));
    h.version = r.u32("version");
    check_version(h.version);
    h.reload_size = r.u32("reload size");
    h.sector_x = r.u16("sector x");
    h.sector_id = r.u16("sector id");
    h.box = {r.f32("box min x"), r.f32("box min y"), r.f32("box max x"), r.f32("box max y")};
    if (!packing_for(h.box))
        r.fail_at(0x14, fmt::format("box ({}, {})-({}, {}) gives no packing basis: it must not be inverted and "
                                    "2 * round(max(width, height)) must be a finite power of two",
                                    h.box.min_x, h.box.min_y, h.box.max_x, h.box.max_y));
    h.field_6c = r.u32("field +0x6C");
    h.field_70 = r.u32("field +0x70");
    h.field_74 = r.u32("field +0x74");
    h.field_5c = r.u16("field +0x5C");
}

void write_header(ByteWriter& w, const SectorHeader& h) {
    w.u32(h.word_00);
    w.u32(kTag);
    w.u32(h.version);
    w.u32(h.reload_size);
    w.u16(h.sector_x);
    w.u16(h.sector_id);
    for (float f : {h.box.min_x, h.box.min_y, h.box.max_x, h.box.max_y}) w.f32(f);
    w.u32(h.field_6c);
    w.u32(h.field_70);
    w.u32(h.field_74);
    w.u16(h.field_5c);
}

/// Checks each node's link range and corner indices; throws at the offending field.
void check_node_references(const SectorFile& s, const SectorLayout& at) {
    for (std::size_t i = 0; i < s.nodes.size(); ++i) {
        const Node& n = s.nodes[i];
        if (n.link_offset > s.links.size() || n.link_count > s.links.size() - n.link_offset)
            throw Error(fmt::format("link range [{}, {}) is outside the link table ({} entries)", n.link_offset,
                                    std::uint64_t{n.link_offset} + n.link_count, s.links.size()),
                        at.node(i) + kLinkOffsetField, fmt::format("sector file: node {}: link offset", i));
        for (std::size_t k = 0; k < 3; ++k)
            if (n.vertices[k] >= s.vertices.size())
                throw Error(fmt::format("vertex index {} is past the vertex array ({} vertices)", n.vertices[k],
                                        s.vertices.size()),
                            at.node(i) + at.vertex_field + 4 * k, fmt::format("sector file: node {}: vertex {}", i, k));
    }
}

}  // namespace

Packing SectorFile::packing() const { return packing_for(header.box).value_or(Packing{}); }

Vec3 SectorFile::vertex_position(std::size_t i) const { return packing().decode(vertices[i]); }

Vec3 SectorFile::centroid_position(const Node& node) const {
    if (packed_centroid(header.version)) return packing().decode(node.centroid);
    return {node.centroid_f32[0], node.centroid_f32[1], node.centroid_f32[2]};
}

SectorLayout layout_of(const SectorFile& s) {
    SectorLayout at;
    at.links = kSectorHeaderBytes + 4;
    at.nodes = at.link_entry(s.links.size()) + 4;
    at.node_size = node_record_size(s.header.version);
    at.vertices = at.node(s.nodes.size()) + 4;
    at.tail = at.vertices + 6 * s.vertices.size();
    at.vertex_field = vertex_field(s.header.version);
    return at;
}

SectorFile read_sector(Bytes bytes) {
    ByteReader r(bytes);
    r.set_context("sector file");
    SectorFile s;
    read_header(r, s.header);
    const std::uint32_t version = s.header.version;
    s.links.resize(read_count(r, 4, "link count"));
    for (auto& l : s.links) l = r.u32("link entry");
    s.nodes.resize(read_count(r, node_record_size(version), "node count"));
    for (auto& n : s.nodes) n = read_node(r, version);
    s.vertices.resize(read_count(r, 6, "vertex count"));
    for (auto& v : s.vertices) v = read_packed(r, "vertex");
    const SectorLayout at = layout_of(s);
    check_node_references(s, at);
    Bytes tail = r.bytes(r.remaining(), "tail");
    s.tail.assign(tail.begin(), tail.end());
    s.read_digest = fnv1a(bytes.first(at.tail));
    return s;
}

WrittenSector write_sector(const SectorFile& s) {
    ByteWriter w;
    write_header(w, s.header);
    w.u32(static_cast<std::uint32_t>(s.links.size()));
    for (auto l : s.links) w.u32(l);
    w.u32(static_cast<std::uint32_t>(s.nodes.size()));
    for (const auto& n : s.nodes) write_node(w, n, s.header.version);
    w.u32(static_cast<std::uint32_t>(s.vertices.size()));
    for (const auto& v : s.vertices) write_packed(w, v);

    WrittenSector out;
    const std::uint64_t digest = fnv1a(w.data());
    if (s.read_digest && *s.read_digest != digest && !s.tail.empty())
        out.warnings.push_back(fmt::format(
            "sector {}: header or geometry changed since it was read; the {}-byte opaque tail (covers, quadtree) "
            "was kept as read and may no longer match the new geometry",
            s.header.sector_id, s.tail.size()));
    if (!s.read_digest)
        out.warnings.push_back(fmt::format(
            "sector {}: built from scratch; navlab cannot generate the tail (covers, quadtree), {} given bytes "
            "were written verbatim, so the game may reject the file",
            s.header.sector_id, s.tail.size()));
    w.bytes(s.tail);
    out.bytes = std::move(w).finish();
    try {
        read_sector(out.bytes);
    } catch (Error& e) {
        throw e.in("writing sector " + std::to_string(s.header.sector_id));
    }
    return out;
}

}  // namespace navlab::farcry2
