#include "formats/farcry2/level_file.h"

#include <fmt/format.h>

#include "io/byte_writer.h"

namespace navlab::farcry2 {
namespace {

/// Shipped level files end with this many unknown bytes (spec §4.2).
constexpr std::size_t kShippedTailBytes = 24;

void check_version(std::uint32_t version, std::uint64_t offset) {
    if (version > kNewestVersion)
        throw Error(fmt::format("unknown level file version {} (newest known is {})", hex(version),
                                hex(kNewestVersion)),
                    offset, "level file: version");
}

}  // namespace

LevelFile read_level(Bytes bytes) {
    ByteReader r(bytes);
    r.set_context("level file");
    LevelFile level;
    level.word_00 = r.u32("word 0x00");
    if (std::uint32_t tag = r.u32("tag"); tag != kTag)
        r.fail_at(4, fmt::format("tag: expected 0x4E764D68 (\"hMvN\"), found {}", hex(tag)));
    level.version = r.u32("version");
    check_version(level.version, 8);
    level.word_0c = r.u32("word 0x0C");
    level.box = {r.f32("box min x"), r.f32("box min y"), r.f32("box max x"), r.f32("box max y")};
    for (auto& w : level.words_20) w = r.u32("word 0x20");
    for (auto& w : level.header_words) w = r.u32("header word");
    level.grid_x = level.has_grid_x() ? r.u32("grid x (+0x6C)") : 0;
    level.grid_y = level.has_grid_y() ? r.u32("grid y (+0x70)") : 0;
    level.mode = level.has_mode() ? r.u32("mode flag") : kModeSingleFileOld;
    const std::size_t count_pos = r.pos();
    const std::uint32_t count = r.u32("sector count");
    if (r.remaining() / 4 < count)
        r.fail_at(count_pos, fmt::format("sector count {} needs a {}-byte descriptor table but only {} bytes remain",
                                         count, std::uint64_t{count} * 4, r.remaining()));
    level.descriptors.resize(count);
    for (auto& d : level.descriptors) d = r.u32("descriptor");
    Bytes tail = r.bytes(r.remaining(), "tail");
    level.tail.assign(tail.begin(), tail.end());
    return level;
}

std::vector<std::uint8_t> write_level(const LevelFile& level) {
    check_version(level.version, 8);
    ByteWriter w;
    w.u32(level.word_00);
    w.u32(kTag);
    w.u32(level.version);
    w.u32(level.word_0c);
    for (float f : {level.box.min_x, level.box.min_y, level.box.max_x, level.box.max_y}) w.f32(f);
    for (auto v : level.words_20) w.u32(v);
    for (auto v : level.header_words) w.u32(v);
    if (level.has_grid_x()) w.u32(level.grid_x);
    if (level.has_grid_y()) w.u32(level.grid_y);
    if (level.has_mode()) w.u32(level.mode);
    w.u32(static_cast<std::uint32_t>(level.descriptors.size()));
    for (auto d : level.descriptors) w.u32(d);
    w.bytes(level.tail);
    return std::move(w).finish();
}

LevelFile header_only_level(std::uint32_t grid_x, std::uint32_t grid_y) {
    LevelFile level;
    level.box = {0, 0, static_cast<float>(grid_x) * kSectorMetres, static_cast<float>(grid_y) * kSectorMetres};
    level.grid_x = grid_x;
    level.grid_y = grid_y;
    level.descriptors.assign(std::size_t{grid_x} * grid_y, 0);
    level.tail.assign(kShippedTailBytes, 0);
    return level;
}

}  // namespace navlab::farcry2
