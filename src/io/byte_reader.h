// ByteReader — a bounds-checked cursor over bytes that are already in memory (mapped or
// decompressed). Every read names the field it reads, so a short or corrupt input fails
// with the field and the absolute offset instead of reading past the end.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "io/error.h"

namespace navlab {

enum class Endian { Little, Big };

using Bytes = std::span<const std::uint8_t>;

class ByteReader {
public:
    /// @param data   the bytes to read; the reader never copies them.
    /// @param base   absolute offset of data[0] in the file, used in error messages.
    /// @param endian byte order of multi-byte values.
    explicit ByteReader(Bytes data, std::uint64_t base = 0, Endian endian = Endian::Little)
        : data_(data), base_(base), endian_(endian) {}

    std::size_t size() const noexcept { return data_.size(); }
    std::size_t pos() const noexcept { return pos_; }
    std::size_t remaining() const noexcept { return data_.size() - pos_; }
    bool at_end() const noexcept { return pos_ == data_.size(); }
    std::uint64_t base() const noexcept { return base_; }
    /// Absolute file offset of a position inside this reader.
    std::uint64_t absolute(std::size_t pos) const noexcept { return base_ + pos; }
    Endian endian() const noexcept { return endian_; }
    void set_endian(Endian e) noexcept { endian_ = e; }
    Bytes data() const noexcept { return data_; }

    /// Field path prefixed to every error this reader throws ("BND4 entry 3").
    void set_context(std::string context) { context_ = std::move(context); }
    const std::string& context() const noexcept { return context_; }

    /// Moves to pos (0..size inclusive).
    void seek(std::size_t pos, std::string_view field) {
        if (pos > data_.size()) fail_range(field, pos, 0);
        pos_ = pos;
    }
    void skip(std::size_t n, std::string_view field) { seek_check(n, field), pos_ += n; }

    /// Reads a value of an arithmetic type T in the reader's byte order.
    template <class T>
    T read(std::string_view field) {
        T v = peek_at<T>(pos_, field);
        pos_ += sizeof(T);
        return v;
    }
    /// Reads a T at an absolute position inside this reader without moving.
    template <class T>
    T peek_at(std::size_t pos, std::string_view field) const {
        static_assert(std::is_arithmetic_v<T>);
        if (pos > data_.size() || data_.size() - pos < sizeof(T)) fail_range(field, pos, sizeof(T));
        T v;
        std::memcpy(&v, data_.data() + pos, sizeof(T));
        if constexpr (sizeof(T) > 1) {
            if ((endian_ == Endian::Big) != (std::endian::native == std::endian::big)) v = byteswap(v);
        }
        return v;
    }

    std::uint8_t u8(std::string_view f) { return read<std::uint8_t>(f); }
    std::uint16_t u16(std::string_view f) { return read<std::uint16_t>(f); }
    std::uint32_t u32(std::string_view f) { return read<std::uint32_t>(f); }
    std::uint64_t u64(std::string_view f) { return read<std::uint64_t>(f); }
    std::int8_t i8(std::string_view f) { return read<std::int8_t>(f); }
    std::int16_t i16(std::string_view f) { return read<std::int16_t>(f); }
    std::int32_t i32(std::string_view f) { return read<std::int32_t>(f); }
    std::int64_t i64(std::string_view f) { return read<std::int64_t>(f); }
    float f32(std::string_view f) { return read<float>(f); }
    double f64(std::string_view f) { return read<double>(f); }

    /// Returns a view of the next n bytes and moves past them.
    Bytes bytes(std::size_t n, std::string_view field) {
        seek_check(n, field);
        Bytes b = data_.subspan(pos_, n);
        pos_ += n;
        return b;
    }
    /// Returns a view of [offset, offset+size) without moving; fails when it does not fit.
    Bytes view(std::size_t offset, std::size_t size, std::string_view field) const {
        if (offset > data_.size() || data_.size() - offset < size) fail_range(field, offset, size);
        return data_.subspan(offset, size);
    }
    /// A new reader over [offset, offset+size) with absolute offsets kept.
    ByteReader sub(std::size_t offset, std::size_t size, std::string_view field) const {
        ByteReader r(view(offset, size, field), base_ + offset, endian_);
        r.context_ = context_;
        return r;
    }
    /// Checks that the next bytes equal magic; fails naming field otherwise.
    void expect(std::string_view magic, std::string_view field);
    /// Reads a NUL-terminated byte string starting at offset (not moving); max bytes scanned.
    std::string cstring_at(std::size_t offset, std::string_view field, std::size_t max = 1 << 20) const;

    /// Throws navlab::Error at the current position with the reader's context.
    [[noreturn]] void fail(std::string message) const { fail_at(pos_, std::move(message)); }
    /// Throws navlab::Error at pos (relative to this reader) with the reader's context.
    [[noreturn]] void fail_at(std::size_t pos, std::string message) const;

private:
    void seek_check(std::size_t n, std::string_view field) const {
        if (data_.size() - pos_ < n) fail_range(field, pos_, n);
    }
    [[noreturn]] void fail_range(std::string_view field, std::size_t pos, std::size_t need) const;

    template <class T>
    static T byteswap(T v) {
        using U = std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                     std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>;
        U u;
        std::memcpy(&u, &v, sizeof u);
        if constexpr (sizeof(T) == 2) u = static_cast<U>(__builtin_bswap16(u));
        else if constexpr (sizeof(T) == 4) u = __builtin_bswap32(u);
        else u = __builtin_bswap64(u);
        std::memcpy(&v, &u, sizeof v);
        return v;
    }

    Bytes data_;
    std::size_t pos_ = 0;
    std::uint64_t base_;
    Endian endian_;
    std::string context_;
};

}  // namespace navlab
