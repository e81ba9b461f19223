#include "container/archive/bhd5.h"

#include <fmt/format.h>

#include <cstring>

#include "container/archive/path_hash.h"
#include "io/byte_writer.h"
#include "io/error.h"

namespace navlab::archive {
namespace {

constexpr std::size_t kHeaderSize = 0x1C;   // up to the salt
constexpr std::size_t kBucketSize = 8;
constexpr std::size_t kShaFixed = 0x24;     // digest + range count
constexpr std::size_t kAesFixed = 0x14;     // key + range count
constexpr std::size_t kRangeSize = 16;

std::string entry_context(Game game, std::uint64_t hash) { return "BHD5 entry " + format_hash(game, hash); }

/// Checks that [offset, offset + size) lies in a plaintext of `total` bytes (64-bit safe).
bool fits(std::int64_t offset, std::uint64_t size, std::size_t total) {
    return offset >= 0 && static_cast<std::uint64_t>(offset) <= total && total - static_cast<std::uint64_t>(offset) >= size;
}

/// Reads the ranges of a record: count at `countPos`, ranges right after it.
std::vector<Range> read_ranges(const ByteReader& r, std::size_t countPos, const char* record) {
    const std::int32_t count = r.peek_at<std::int32_t>(countPos, fmt::format("{} range count", record));
    const std::size_t first = countPos + 4;
    if (count < 0 || !fits(static_cast<std::int64_t>(first), static_cast<std::uint64_t>(count) * kRangeSize, r.size()))
        r.fail_at(countPos, fmt::format("{} range count {}: {} ranges from {} run past the end of the plaintext ({})",
                                        record, count, count, hex(first), hex(r.size())));
    std::vector<Range> ranges(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        ranges[i].start = r.peek_at<std::int64_t>(first + i * kRangeSize, "range start");
        ranges[i].end = r.peek_at<std::int64_t>(first + i * kRangeSize + 8, "range end");
    }
    return ranges;
}

/// The offset field of an optional record: 0 = none, else it must leave room for `fixed` bytes.
std::optional<std::size_t> record_offset(const ByteReader& r, std::size_t fieldPos, std::size_t fixed,
                                         const char* record) {
    const std::int64_t offset = r.peek_at<std::int64_t>(fieldPos, fmt::format("{} offset", record));
    if (offset == 0) return std::nullopt;
    if (!fits(offset, fixed, r.size()))
        r.fail_at(fieldPos, fmt::format("{} offset {} is past the end of the plaintext ({})", record,
                                        offset < 0 ? fmt::format("{}", offset) : hex(static_cast<std::uint64_t>(offset)),
                                        hex(r.size())));
    return static_cast<std::size_t>(offset);
}

FileHeader read_file_header(ByteReader& r, std::size_t pos, Game game, std::uint64_t bdtSize) {
    FileHeader h;
    h.headerOffset = pos;
    std::int64_t padded = 0, dataOffset = 0;
    std::size_t shaField = 0, aesField = 0, paddedField = 0, unpaddedField = 0;
    if (game == Game::Sekiro) {  // §2.3: hash u32, padded i32, data i64, SHA i64, AES i64, unpadded i64
        h.hash = r.peek_at<std::uint32_t>(pos, "path hash");
        r.set_context(entry_context(game, h.hash));
        paddedField = pos + 4, unpaddedField = pos + 0x20, shaField = pos + 0x10, aesField = pos + 0x18;
        padded = r.peek_at<std::int32_t>(paddedField, "padded size");
        dataOffset = r.peek_at<std::int64_t>(pos + 8, "data offset");
        h.unpaddedSize = r.peek_at<std::int64_t>(unpaddedField, "unpadded size");
    } else {  // §2.4: hash u64, padded i32, unpadded i32, data i64, SHA i64, AES i64
        h.hash = r.peek_at<std::uint64_t>(pos, "path hash");
        r.set_context(entry_context(game, h.hash));
        paddedField = pos + 8, unpaddedField = pos + 0x0C, shaField = pos + 0x18, aesField = pos + 0x20;
        padded = r.peek_at<std::int32_t>(paddedField, "padded size");
        h.unpaddedSize = r.peek_at<std::int32_t>(unpaddedField, "unpadded size");
        dataOffset = r.peek_at<std::int64_t>(pos + 0x10, "data offset");
    }
    if (padded < 0) r.fail_at(paddedField, fmt::format("padded size {} is negative", padded));
    h.paddedSize = static_cast<std::uint32_t>(padded);
    // -1 and 0 both mean "not recorded" (readers S5, S7, S10).
    if (h.unpaddedSize < -1 || h.unpaddedSize > padded)
        r.fail_at(unpaddedField, fmt::format("unpadded size {} is outside 0..padded size {}", h.unpaddedSize, padded));
    if (dataOffset < 0 || static_cast<std::uint64_t>(dataOffset) > bdtSize ||
        bdtSize - static_cast<std::uint64_t>(dataOffset) < h.paddedSize)
        r.fail_at(game == Game::Sekiro ? pos + 8 : pos + 0x10,
                  fmt::format("data offset {} + padded size {} runs past the end of the .bdt ({} bytes): truncated .bdt "
                              "or corrupt BHD",
                              dataOffset < 0 ? fmt::format("{}", dataOffset) : hex(static_cast<std::uint64_t>(dataOffset)),
                              hex(h.paddedSize), hex(bdtSize)));
    h.dataOffset = static_cast<std::uint64_t>(dataOffset);
    if (auto at = record_offset(r, shaField, kShaFixed, "SHA record")) {
        ShaRecord sha;
        std::memcpy(sha.digest.data(), r.view(*at, 32, "SHA digest").data(), 32);
        sha.ranges = read_ranges(r, *at + 32, "SHA record");
        h.sha = std::move(sha);
    }
    if (auto at = record_offset(r, aesField, kAesFixed, "AES record")) {
        AesRecord aes;
        std::memcpy(aes.key.data(), r.view(*at, 16, "AES key").data(), 16);
        aes.ranges = read_ranges(r, *at + 16, "AES record");
        h.aes = std::move(aes);
    }
    r.set_context({});
    return h;
}

}  // namespace

bool FileHeader::encrypted() const noexcept {
    if (!aes) return false;
    for (const Range& range : aes->ranges)
        if (!range.empty()) return true;
    return false;
}

void check_aes_ranges(const FileHeader& h, Game game, const std::string& file) {
    if (!h.aes) return;
    for (std::size_t i = 0; i < h.aes->ranges.size(); ++i) {
        const Range& range = h.aes->ranges[i];
        if (range.empty()) continue;
        std::string problem;
        if (range.start < 0 || range.end < range.start)
            problem = fmt::format("[{}, {}) is not a range", range.start, range.end);
        else if (static_cast<std::uint64_t>(range.end) > h.paddedSize)
            problem = fmt::format("end {} is past the padded size {}", hex(static_cast<std::uint64_t>(range.end)),
                                  hex(h.paddedSize));
        else if ((range.end - range.start) % 16 != 0)
            problem = fmt::format("length {} is not a whole number of 16-byte AES blocks", range.end - range.start);
        if (problem.empty()) continue;
        Error e(problem, kNoOffset, entry_context(game, h.hash) + fmt::format(": AES range {}", i));
        e.set_file(file);
        throw e;
    }
}

Bhd5 parse_bhd5(Bytes plaintext, Game game, std::uint64_t bdtSize, const std::string& file) {
    Bhd5 bhd;
    try {
        ByteReader r(plaintext);
        r.set_context("BHD5 header");
        r.expect("BHD5", "magic");
        const std::uint8_t endian = r.u8("endianness");
        if (endian == 0) r.fail_at(4, "big-endian (console) BHD5 is not supported");
        if (endian != 0xFF) r.fail_at(4, fmt::format("endianness byte 0x{:02X} is neither 0xFF nor 0", endian));
        bhd.flag05 = r.u8("flag 0x05");
        if (const auto zero = r.u16("bytes 0x06-0x07"); zero != 0)
            r.fail_at(6, fmt::format("bytes 0x06-0x07 are 0x{:04X}, expected 0", zero));
        if (const auto one = r.i32("version"); one != 1) r.fail_at(8, fmt::format("version {} is not 1", one));
        bhd.sizeField = r.i32("size field");
        const std::int32_t bucketCount = r.i32("bucket count");
        const std::int32_t bucketOffset = r.i32("bucket table offset");
        const std::int32_t saltLength = r.i32("salt length");
        if (saltLength < 0) r.fail_at(0x18, fmt::format("salt length {} is negative", saltLength));
        const Bytes salt = r.bytes(static_cast<std::size_t>(saltLength), "salt");
        bhd.salt.assign(salt.begin(), salt.end());
        if (bucketCount < 0 || !fits(bucketOffset, static_cast<std::uint64_t>(bucketCount) * kBucketSize, r.size()))
            r.fail_at(0x10, fmt::format("bucket table ({} buckets at {}) runs past the end of the plaintext ({})",
                                        bucketCount, bucketOffset, hex(r.size())));
        // Counts first: their sum bounds the work before any header is read.
        std::uint64_t headers = 0;
        for (std::int32_t b = 0; b < bucketCount; ++b) {
            const std::size_t at = static_cast<std::size_t>(bucketOffset) + b * kBucketSize;
            r.set_context(fmt::format("BHD5 bucket {}", b));
            const std::int32_t count = r.peek_at<std::int32_t>(at, "file count");
            const std::int32_t first = r.peek_at<std::int32_t>(at + 4, "file header offset");
            if (count < 0 || !fits(first, static_cast<std::uint64_t>(count) * kFileHeaderSize, r.size()))
                r.fail_at(at, fmt::format("{} file headers at {} run past the end of the plaintext ({})", count,
                                          first < 0 ? fmt::format("{}", first) : hex(static_cast<std::uint32_t>(first)),
                                          hex(r.size())));
            headers += static_cast<std::uint64_t>(count);
        }
        if (headers * kFileHeaderSize > r.size())
            r.fail_at(0x10, fmt::format("the buckets hold {} file headers, more than the plaintext ({}) can", headers,
                                        hex(r.size())));
        bhd.buckets.resize(static_cast<std::size_t>(bucketCount));
        for (std::int32_t b = 0; b < bucketCount; ++b) {
            const std::size_t at = static_cast<std::size_t>(bucketOffset) + b * kBucketSize;
            const auto count = static_cast<std::size_t>(r.peek_at<std::int32_t>(at, "file count"));
            const auto first = static_cast<std::size_t>(r.peek_at<std::int32_t>(at + 4, "file header offset"));
            auto& bucket = bhd.buckets[static_cast<std::size_t>(b)];
            bucket.reserve(count);
            for (std::size_t i = 0; i < count; ++i)
                bucket.push_back(read_file_header(r, first + i * kFileHeaderSize, game, bdtSize));
        }
    } catch (Error& e) {
        e.set_file(file);
        throw;
    }
    for (const auto& bucket : bhd.buckets)
        for (const FileHeader& h : bucket) check_aes_ranges(h, game, file);
    return bhd;
}

std::vector<std::uint8_t> write_bhd5(const Bhd5& bhd, Game game) {
    ByteWriter w;
    w.u32(0x35444842);  // "BHD5" (bytes() on the empty writer trips a GCC 12 false -Wstringop-overflow)
    w.u8(0xFF);
    w.u8(bhd.flag05);
    w.u16(0);
    w.i32(1);
    w.reserve_u32("total size");
    w.i32(static_cast<std::int32_t>(bhd.buckets.size()));
    w.i32(static_cast<std::int32_t>(kHeaderSize + bhd.salt.size()));
    w.i32(static_cast<std::int32_t>(bhd.salt.size()));
    w.bytes(bhd.salt);
    std::size_t headerAt = w.size() + bhd.buckets.size() * kBucketSize;
    for (const auto& bucket : bhd.buckets) {
        w.i32(static_cast<std::int32_t>(bucket.size()));
        w.i32(static_cast<std::int32_t>(headerAt));
        headerAt += bucket.size() * kFileHeaderSize;
    }
    // Records follow the headers, SHA then AES per file, in header order.
    std::size_t recordAt = headerAt;
    auto record_size = [](std::size_t fixed, const std::vector<Range>& ranges) { return fixed + ranges.size() * kRangeSize; };
    for (const auto& bucket : bhd.buckets) {
        for (const FileHeader& h : bucket) {
            const std::int64_t sha = h.sha ? static_cast<std::int64_t>(recordAt) : 0;
            if (h.sha) recordAt += record_size(kShaFixed, h.sha->ranges);
            const std::int64_t aes = h.aes ? static_cast<std::int64_t>(recordAt) : 0;
            if (h.aes) recordAt += record_size(kAesFixed, h.aes->ranges);
            if (game == Game::Sekiro) {
                w.u32(static_cast<std::uint32_t>(h.hash));
                w.i32(static_cast<std::int32_t>(h.paddedSize));
                w.i64(static_cast<std::int64_t>(h.dataOffset));
                w.i64(sha);
                w.i64(aes);
                w.i64(h.unpaddedSize);
            } else {
                w.u64(h.hash);
                w.i32(static_cast<std::int32_t>(h.paddedSize));
                w.i32(static_cast<std::int32_t>(h.unpaddedSize));
                w.i64(static_cast<std::int64_t>(h.dataOffset));
                w.i64(sha);
                w.i64(aes);
            }
        }
    }
    auto put_ranges = [&](const std::vector<Range>& ranges) {
        w.i32(static_cast<std::int32_t>(ranges.size()));
        for (const Range& range : ranges) w.i64(range.start), w.i64(range.end);
    };
    for (const auto& bucket : bhd.buckets) {
        for (const FileHeader& h : bucket) {
            if (h.sha) w.bytes(Bytes(h.sha->digest)), put_ranges(h.sha->ranges);
            if (h.aes) w.bytes(Bytes(h.aes->key)), put_ranges(h.aes->ranges);
        }
    }
    w.fill_u32("total size", static_cast<std::uint32_t>(w.size()));
    return std::move(w).finish();
}

}  // namespace navlab::archive
