// Vectors whose growth does not fill memory: scratch buffers that are written before they are
// read. std::vector value-initialises what resize() adds, so the first growth of a decoder's
// 128 KiB chunk buffers or an encoder's 256 KiB hash table was a memset over every page, used
// or not, and the page faults of all of them: a one-shot Kraken decode of a 133 KB file on a
// fresh thread took 2.8 times as long as it does now (docs/kraken.md, "Eighteenth session").
// Steady-state loops reuse their buffers and never paid it.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace navlab {

/// Whether DefaultInitAllocator writes kScratchPoison into what it adds: in the sanitizer and
/// fuzz builds (NAVLAB_POISON_SCRATCH, set by CMake), so a reader that relied on the zeros
/// std::vector used to write (fresh pages happen to be zero too) gets other bytes there and
/// its tests fail, instead of passing by luck.
#ifdef NAVLAB_POISON_SCRATCH
inline constexpr bool kScratchPoisoned = true;
#else
inline constexpr bool kScratchPoisoned = false;
#endif
inline constexpr unsigned char kScratchPoison = 0xA5;

/// std::allocator whose construct() without arguments default-initialises: resize(n), vector(n)
/// and emplace_back() leave new trivially constructible elements with indeterminate values (the
/// loop over them compiles to nothing; a class type's constructor still runs, and leaves its
/// members as it leaves them). Only for buffers every byte of which is written before it is
/// read. Under kScratchPoisoned the new bytes are kScratchPoison instead.
template <class T>
class DefaultInitAllocator : public std::allocator<T> {
public:
    using value_type = T;
    template <class U>
    struct rebind {
        using other = DefaultInitAllocator<U>;
    };
    DefaultInitAllocator() noexcept = default;
    template <class U>
    DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
        if constexpr (kScratchPoisoned && std::is_trivially_default_constructible_v<U>)
            std::memset(static_cast<void*>(p), kScratchPoison, sizeof(U));
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

template <class T>
using DefaultInitVector = std::vector<T, DefaultInitAllocator<T>>;

/// The argument RecordAllocator::construct takes to leave a new element's bytes as they are.
/// It converts to any type only so that vector::insert compiles (its code for elements moved
/// up by an insert before the end names that assignment; append_uninitialized never runs it).
struct LeaveUninitialized {
    template <class U>
    operator U() const noexcept {
        return U{};
    }
};

/// std::allocator, except that construct(p, LeaveUninitialized{}) constructs nothing: a vector
/// of trivially copyable records that a reader fills with one bulk copy (append_uninitialized)
/// grows without running the records' default member initialisers first, which for a mesh's
/// faces and edges cost a store loop over every record. Every other construction is
/// std::allocator's (resize() value-initialises, push_back copies), so code that grows such a
/// vector otherwise sees std::vector's behaviour. Under kScratchPoisoned the bytes left are
/// kScratchPoison.
template <class T>
class RecordAllocator : public std::allocator<T> {
public:
    using value_type = T;
    template <class U>
    struct rebind {
        using other = RecordAllocator<U>;
    };
    RecordAllocator() noexcept = default;
    template <class U>
    RecordAllocator(const RecordAllocator<U>&) noexcept {}

    template <class U>
    void construct(U* p, LeaveUninitialized) noexcept {
        static_assert(std::is_trivially_copyable_v<U> && std::is_trivially_destructible_v<U>);
        if constexpr (kScratchPoisoned) std::memset(static_cast<void*>(p), kScratchPoison, sizeof(U));
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

template <class T>
using RecordVector = std::vector<T, RecordAllocator<T>>;

namespace detail {
/// A range of n LeaveUninitialized values for vector::insert: random access, so the insert
/// measures it without walking it.
class LeaveUninitializedIterator {
public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = LeaveUninitialized;
    using difference_type = std::ptrdiff_t;
    using pointer = const LeaveUninitialized*;
    using reference = LeaveUninitialized;

    explicit LeaveUninitializedIterator(std::ptrdiff_t at) noexcept : at_(at) {}
    LeaveUninitialized operator*() const noexcept { return {}; }
    LeaveUninitializedIterator& operator++() noexcept { return ++at_, *this; }
    LeaveUninitializedIterator operator++(int) noexcept { return LeaveUninitializedIterator(at_++); }
    LeaveUninitializedIterator& operator--() noexcept { return --at_, *this; }
    LeaveUninitializedIterator& operator+=(std::ptrdiff_t n) noexcept { return at_ += n, *this; }
    LeaveUninitializedIterator& operator-=(std::ptrdiff_t n) noexcept { return at_ -= n, *this; }
    LeaveUninitializedIterator operator+(std::ptrdiff_t n) const noexcept { return LeaveUninitializedIterator(at_ + n); }
    std::ptrdiff_t operator-(const LeaveUninitializedIterator& o) const noexcept { return at_ - o.at_; }
    LeaveUninitialized operator[](std::ptrdiff_t) const noexcept { return {}; }
    bool operator==(const LeaveUninitializedIterator&) const = default;
    bool operator<(const LeaveUninitializedIterator& o) const noexcept { return at_ < o.at_; }

private:
    std::ptrdiff_t at_;
};
}  // namespace detail

/// Appends n elements to `v` without constructing them (RecordAllocator) and returns the first
/// of them. Every byte of them must be written before it is read.
template <class T>
T* append_uninitialized(RecordVector<T>& v, std::size_t n) {
    const std::size_t at = v.size();
    v.insert(v.end(), detail::LeaveUninitializedIterator(0),
             detail::LeaveUninitializedIterator(static_cast<std::ptrdiff_t>(n)));
    return v.data() + at;
}

/// A fixed-size array of integers from calloc: 0 without a fill. A calloc large enough for
/// glibc to serve it by mmap (128 KiB by default; a program may raise that threshold) is fresh
/// pages from the kernel, already zero, so a table mostly untouched (a hash table's heads for a
/// small input) costs neither the fill nor the page faults of the pages never used. Move-only;
/// a moved-from array, like a default one, has size() 0 and no data.
template <class T>
class ZeroedArray {
    static_assert(std::is_integral_v<T>, "zero bytes are the value 0 for integers only");

public:
    ZeroedArray() = default;
    /// n zeros (n = 0: size() 0, data() possibly not null); throws std::bad_alloc.
    explicit ZeroedArray(std::size_t n) : data_(static_cast<T*>(std::calloc(n, sizeof(T)))), size_(n) {
        if (!data_ && n != 0) throw std::bad_alloc();
    }
    ZeroedArray(ZeroedArray&& o) noexcept : data_(std::move(o.data_)), size_(std::exchange(o.size_, 0)) {}
    ZeroedArray& operator=(ZeroedArray&& o) noexcept {
        data_ = std::move(o.data_);
        size_ = std::exchange(o.size_, 0);
        return *this;
    }
    T* data() noexcept { return data_.get(); }
    const T* data() const noexcept { return data_.get(); }
    std::size_t size() const noexcept { return size_; }
    T& operator[](std::size_t i) noexcept { return data_[i]; }
    const T& operator[](std::size_t i) const noexcept { return data_[i]; }
    T* begin() noexcept { return data(); }
    T* end() noexcept { return data() + size_; }

private:
    struct Free {
        void operator()(T* p) const noexcept { std::free(p); }
    };
    std::unique_ptr<T[], Free> data_;
    std::size_t size_ = 0;
};

}  // namespace navlab
