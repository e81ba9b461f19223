// SharedBytes — the one way navlab owns input bytes.
//
// A read-only view of bytes together with a shared handle on whatever keeps them alive: a
// mapped file, a vector (a decompressed payload, a file read into memory), or nothing at all
// for a borrowed view. Copies and slices share the owner, so a binder entry, a decompressed
// payload or a tagfile can outlive the object that produced it without copying a byte.
//
//   SharedBytes file = SharedBytes::map_file(path);        // mapped (or read) whole file
//   SharedBytes payload(dcx::decompress(file).payload);   // takes the vector
//   SharedBytes entry = payload.slice(offset, size);       // keeps `payload`'s vector alive
//   parse(entry.span());                                   // parsers take spans (Bytes)
//
// Parsers keep taking `Bytes` (std::span<const std::uint8_t>): SharedBytes is for the code that
// decides lifetimes (loaders, binder files, the CLI), never needed inside a format reader.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "io/buffer_pool.h"

namespace navlab {

class SharedBytes {
public:
    /// Empty bytes.
    SharedBytes() = default;
    /// Takes ownership of `bytes` (no copy); freed when the last SharedBytes on it goes.
    explicit SharedBytes(std::vector<std::uint8_t> bytes);
    /// Takes ownership of a payload (no copy); its memory goes back to the buffer pool
    /// (io/buffer_pool.h) when the last SharedBytes on it goes.
    explicit SharedBytes(PayloadBuffer bytes);
    /// Maps the whole file at `path` read-only (or reads it when it cannot be mapped). A pipe or
    /// socket (`<(cat f)`, /dev/stdin from a pipe) is read to its end, at most kMaxStreamBytes.
    /// Throws navlab::Error naming the file when it cannot be opened or read, is a directory or
    /// a device (a terminal, /dev/urandom: no end to read to), or is a stream past that bound.
    static SharedBytes map_file(const std::filesystem::path& path);
    /// The most bytes map_file() reads from a pipe or socket (whose size is not known before).
    static constexpr std::size_t kMaxStreamBytes = std::size_t(1) << 30;
    /// A view of bytes someone else keeps alive for as long as this (and its slices) is used.
    /// For callers that hold only a span (tests, fuzzers, bytes inside a parser's input).
    static SharedBytes borrow(std::span<const std::uint8_t> bytes) noexcept;

    /// Bytes [offset, offset + size) sharing this owner. Throws navlab::Error when the range
    /// is not inside these bytes.
    SharedBytes slice(std::size_t offset, std::size_t size) const;
    /// The same bytes as `inner`, which must lie inside these (e.g. a span a parser returned),
    /// sharing this owner. Throws navlab::Error when it does not.
    SharedBytes slice(std::span<const std::uint8_t> inner) const;

    std::span<const std::uint8_t> span() const noexcept { return view_; }
    operator std::span<const std::uint8_t>() const noexcept { return view_; }
    const std::uint8_t* data() const noexcept { return view_.data(); }
    std::size_t size() const noexcept { return view_.size(); }
    bool empty() const noexcept { return view_.empty(); }
    auto begin() const noexcept { return view_.begin(); }
    auto end() const noexcept { return view_.end(); }
    /// True when these bytes keep their owner alive (false for borrow() and empty bytes).
    bool owned() const noexcept { return owner_ != nullptr; }

private:
    SharedBytes(std::shared_ptr<const void> owner, std::span<const std::uint8_t> view) noexcept
        : owner_(std::move(owner)), view_(view) {}
    std::shared_ptr<const void> owner_;
    std::span<const std::uint8_t> view_;
};

}  // namespace navlab
