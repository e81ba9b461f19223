// ByteWriter — appends values to a growing buffer in a chosen byte order. Offsets that are
// only known later are reserved by name and filled by name (SoulsFormats' reserve/fill
// pattern), and finish() fails if any reservation was never filled.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "io/byte_reader.h"

namespace navlab {

class ByteWriter {
public:
    explicit ByteWriter(Endian endian = Endian::Little) : endian_(endian) {}

    std::size_t size() const noexcept { return buf_.size(); }
    Endian endian() const noexcept { return endian_; }
    void set_endian(Endian e) noexcept { endian_ = e; }

    template <class T>
    void put(T v) {
        // Grow, then encode in place: GCC 12 warns (-Wstringop-overflow, a false positive) on
        // vector::insert of a small stack array once it is inlined into a writer.
        encode(v, grow(sizeof(T)));
    }
    void u8(std::uint8_t v) { put(v); }
    void u16(std::uint16_t v) { put(v); }
    void u32(std::uint32_t v) { put(v); }
    void u64(std::uint64_t v) { put(v); }
    void i8(std::int8_t v) { put(v); }
    void i16(std::int16_t v) { put(v); }
    void i32(std::int32_t v) { put(v); }
    void i64(std::int64_t v) { put(v); }
    void f32(float v) { put(v); }
    void f64(double v) { put(v); }
    void bytes(Bytes b) { append(b.data(), b.size()); }
    void bytes(std::string_view s) { append(s.data(), s.size()); }
    void fill(std::size_t n, std::uint8_t value = 0) { buf_.insert(buf_.end(), n, value); }
    /// Pads with `value` until size() is a multiple of alignment.
    void align(std::size_t alignment, std::uint8_t value = 0) {
        if (alignment > 1 && buf_.size() % alignment) fill(alignment - buf_.size() % alignment, value);
    }

    /// Writes a placeholder of sizeof(T) bytes and remembers it under `name`.
    template <class T>
    void reserve(const std::string& name) {
        auto [it, fresh] = slots_.emplace(name, Slot{buf_.size(), sizeof(T), false});
        if (!fresh) throw Error("writer: reservation '" + name + "' made twice");
        fill(sizeof(T), 0xFE);
    }
    /// Fills the reservation `name` with v (same T as reserve).
    template <class T>
    void fill_reserved(const std::string& name, T v) {
        auto it = slots_.find(name);
        if (it == slots_.end() || it->second.size != sizeof(T) || it->second.filled)
            throw Error("writer: no open reservation '" + name + "' of " + std::to_string(sizeof(T)) + " bytes");
        patch_at(it->second.pos, v);
        it->second.filled = true;
    }
    void reserve_u32(const std::string& name) { reserve<std::uint32_t>(name); }
    void reserve_u64(const std::string& name) { reserve<std::uint64_t>(name); }
    void fill_u32(const std::string& name, std::uint32_t v) { fill_reserved(name, v); }
    void fill_u64(const std::string& name, std::uint64_t v) { fill_reserved(name, v); }

    /// Overwrites sizeof(T) bytes at pos (already written) with v in the writer's byte order.
    template <class T>
    void patch_at(std::size_t pos, T v) {
        if (pos > buf_.size() || buf_.size() - pos < sizeof(T)) throw Error("writer: patch past the end of the buffer");
        encode(v, buf_.data() + pos);
    }

    /// Returns the bytes; fails naming the first reservation that was never filled.
    std::vector<std::uint8_t> finish() &&;
    /// The bytes written so far (reservations may still be open).
    std::span<const std::uint8_t> data() const noexcept { return buf_; }

private:
    /// Appends n bytes left for the caller to write; returns where they start.
    std::uint8_t* grow(std::size_t n) {
        const std::size_t at = buf_.size();
        buf_.resize(at + n);
        return buf_.data() + at;
    }
    void append(const void* data, std::size_t n) {
        if (n > 0) std::memcpy(grow(n), data, n);
    }
    template <class T>
    void encode(T v, std::uint8_t* out) const {
        static_assert(std::is_arithmetic_v<T>);
        std::memcpy(out, &v, sizeof(T));
        if (sizeof(T) > 1 && (endian_ == Endian::Big) != (std::endian::native == std::endian::big))
            for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(out[i], out[sizeof(T) - 1 - i]);
    }
    struct Slot {
        std::size_t pos, size;
        bool filled;
    };
    std::vector<std::uint8_t> buf_;
    std::map<std::string, Slot> slots_;
    Endian endian_;
};

}  // namespace navlab
