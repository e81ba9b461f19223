#include "support/mutate.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "codec/dcx.h"
#include "container/bnd4.h"
#include "havok/sections.h"
#include "io/error.h"

namespace navlab::fuzz {
namespace {

using Buffer = std::vector<std::uint8_t>;

/// Plain libFuzzer mutation of the whole input (the fallback of every mutator).
std::size_t blind(std::uint8_t* data, std::size_t size, std::size_t max_size) {
    return LLVMFuzzerMutate(data, size, max_size);
}

/// Mutates `bytes` in place with libFuzzer's mutators, allowing it to grow by up to `room`.
void mutate_buffer(Buffer& bytes, std::size_t room) {
    const std::size_t size = bytes.size();
    bytes.resize(size + room + 1);
    bytes.resize(LLVMFuzzerMutate(bytes.data(), size, bytes.size()));
}

/// Copies `out` into data when it fits; else keeps the input unchanged.
std::size_t emit(const Buffer& out, std::uint8_t* data, std::size_t size, std::size_t max_size) {
    if (out.size() > max_size) return size;
    std::memcpy(data, out.data(), out.size());
    return out.size();
}

std::uint32_t be32(const std::uint8_t* p) { return std::uint32_t(p[0]) << 24 | p[1] << 16 | p[2] << 8 | p[3]; }
void put_be32(std::uint8_t* p, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

/// Rebuilds a section list with `target` (a leaf, by running index) given a mutated payload.
void rebuild_sections(Bytes bytes, std::uint64_t base, std::size_t& leaf_index, std::size_t target, Buffer& out) {
    for (const havok::Section& s : havok::parse_sections(bytes, base, "fuzz")) {
        const std::size_t start = havok::begin_section(out, s.tag());
        if (s.leaf) {
            Buffer payload(s.payload.begin(), s.payload.end());
            if (leaf_index++ == target) mutate_buffer(payload, 64);
            out.insert(out.end(), payload.begin(), payload.end());
        } else {
            rebuild_sections(s.payload, s.payload_offset(), leaf_index, target, out);
        }
        havok::end_section(out, start, s.leaf);
    }
}

std::size_t count_leaves(Bytes bytes, std::uint64_t base) {
    std::size_t n = 0;
    for (const havok::Section& s : havok::parse_sections(bytes, base, "fuzz"))
        n += s.leaf ? 1 : count_leaves(s.payload, s.payload_offset());
    return n;
}

}  // namespace

std::size_t mutate_dcx(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed) {
    std::minstd_rand rng(seed);
    if (rng() % 4 == 0 || size < 0x4C || std::memcmp(data, "DCX\0", 4) != 0) return blind(data, size, max_size);
    const std::uint32_t dca_size = be32(data + 0x48), csize = be32(data + 0x20);
    const std::size_t start = 0x44 + std::size_t{dca_size};
    if (start > size || size - start < csize) return blind(data, size, max_size);
    const bool edge = std::memcmp(data + 0x28, "EDGE", 4) == 0;
    if (rng() % 2 == 0) {
        // Inside the stream; the header's sizes follow it. EDGE's chunk table holds offsets
        // into the stream, so its stream keeps its length.
        Buffer stream(data + start, data + start + csize);
        if (edge) {
            Buffer copy = stream;
            mutate_buffer(copy, 0);
            std::copy_n(copy.begin(), std::min(copy.size(), stream.size()), stream.begin());
        } else {
            mutate_buffer(stream, 256);
        }
        Buffer out(data, data + start);
        put_be32(out.data() + 0x20, static_cast<std::uint32_t>(stream.size()));
        out.insert(out.end(), stream.begin(), stream.end());
        if (std::memcmp(data + 0x28, "KRAK", 4) == 0 || std::memcmp(data + 0x28, "ZSTD", 4) == 0)
            out.resize((out.size() + 15) / 16 * 16);
        return emit(out, data, size, max_size);
    }
    // The payload: recompressed in the same variant with the same header words, so what
    // fuzzes here is the BND4 (and below) reader behind a valid DCX.
    try {
        const dcx::Decoded d = dcx::decompress(Bytes(data, size));
        Buffer payload(d.payload.begin(), d.payload.end());
        mutate_buffer(payload, 256);
        // Kraken level 1: any valid stream serves the reader, and the header's level 6 or 9
        // (optimal parsing) made this mutator slower than the run it feeds.
        return emit(dcx::compress(payload, d.header.variant, &d.header, 1), data, size, max_size);
    } catch (const Error&) {
        return blind(data, size, max_size);
    }
}

std::size_t mutate_bnd4(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed) {
    std::minstd_rand rng(seed);
    if (rng() % 3 == 0) return blind(data, size, max_size);
    try {
        bnd4::Binder b = bnd4::read(Bytes(data, size));
        if (b.entries.empty() || rng() % 3 == 0) {
            // Header and record tables in place: the part blind mutation reaches least often
            // without breaking every offset at once.
            const std::size_t head = std::min<std::size_t>(size, 0x40 + 0x24 * b.entries.size());
            Buffer part(data, data + head);
            mutate_buffer(part, 0);
            std::copy_n(part.begin(), std::min(part.size(), head), data);
            return size;
        }
        bnd4::Entry& e = b.entries[rng() % b.entries.size()];
        if (rng() % 4 == 0) {
            Buffer name = e.name_raw;
            mutate_buffer(name, 16);
            e.name_raw = name;
            e.name = bnd4::decode_name(name, b.header.unicode);
        } else {
            Buffer body(e.data().begin(), e.data().end());
            mutate_buffer(body, 256);
            e.set_data(std::move(body));
        }
        return emit(bnd4::write(b), data, size, max_size);
    } catch (const Error&) {
        return blind(data, size, max_size);
    }
}

std::size_t mutate_tagfile(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed) {
    std::minstd_rand rng(seed);
    if (rng() % 4 == 0) return blind(data, size, max_size);
    try {
        const Bytes bytes(data, size);
        const std::size_t leaves = count_leaves(bytes, 0);
        if (leaves == 0) return blind(data, size, max_size);
        Buffer out;
        std::size_t index = 0;
        rebuild_sections(bytes, 0, index, rng() % leaves, out);
        return emit(out, data, size, max_size);
    } catch (const Error&) {
        return blind(data, size, max_size);
    }
}

}  // namespace navlab::fuzz
