// Exact arithmetic for geometric predicates on float32 input.
//
// The audit's sign and zero decisions (winding, turns, ear tests, zero-area cuts) must be
// exact (audit-rules.md §1). Every float32 is exactly a double, and every predicate here is a
// polynomial of degree at most 4 in the coordinates, so Shewchuk's floating-point expansions
// represent every intermediate value exactly without overflow or underflow (float32 range
// raised to the 4th power stays far inside double's). A cheap filter (Approx: a double value
// with a rigorous error bound) decides almost every sign; only undecided ones are recomputed
// with expansions.
#pragma once

#include <cmath>
#include <vector>

#include "geometry/lanes.h"

namespace navlab::geometry {

/// A vector of doubles that keeps up to 32 elements inline: expansions of the audit's
/// predicates are short, and heap allocation dominated their cost.
class TermBuffer {
public:
    TermBuffer() = default;
    TermBuffer(const TermBuffer& o) { assign(o); }
    TermBuffer& operator=(const TermBuffer& o) {
        if (this != &o) assign(o);
        return *this;
    }
    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    void clear() noexcept { size_ = 0; }
    const double* begin() const noexcept { return data(); }
    const double* end() const noexcept { return data() + size_; }
    double* begin() noexcept { return data(); }
    double* end() noexcept { return data() + size_; }
    double back() const noexcept { return data()[size_ - 1]; }
    double operator[](std::size_t i) const noexcept { return data()[i]; }
    void push_back(double v) {
        if (heap_.empty() && size_ < kInline) {
            inline_[size_++] = v;
            return;
        }
        if (heap_.empty()) heap_.assign(inline_, inline_ + size_);
        heap_.resize(size_);
        heap_.push_back(v);
        ++size_;
    }

private:
    static constexpr std::size_t kInline = 32;
    const double* data() const noexcept { return heap_.empty() ? inline_ : heap_.data(); }
    double* data() noexcept { return heap_.empty() ? inline_ : heap_.data(); }
    void assign(const TermBuffer& o) {
        size_ = 0;
        heap_.clear();
        for (double v : o) push_back(v);
    }
    double inline_[kInline];
    std::vector<double> heap_;
    std::size_t size_ = 0;
};

/// An exact real as a nonoverlapping sum of doubles in increasing magnitude (no zeros).
class Expansion {
public:
    Expansion() = default;
    /// @param value any finite double; represented exactly.
    explicit Expansion(double value) {
        if (value != 0) terms_.push_back(value);
    }
    /// -1, 0 or +1: the sign of the exact value (its largest term's sign).
    int sign() const noexcept { return terms_.empty() ? 0 : (terms_.back() > 0 ? 1 : -1); }
    /// The value rounded to a double (sum of the terms, largest last).
    double estimate() const noexcept;
    friend Expansion operator+(const Expansion& a, const Expansion& b);
    friend Expansion operator-(const Expansion& a, const Expansion& b);
    friend Expansion operator*(const Expansion& a, const Expansion& b);
    Expansion operator-() const;

private:
    TermBuffer terms_;
};

/// Whether a value within `error` of an exact one has that one's sign, over double
/// (Approx::sign_known) or Lanes (the face batch, lane by lane): the one test for both.
template <class T>
auto sign_decided(T value, T error) {
    return (error == 0) | (abs_of(value) > error * (1 + 1e-9) + 1e-300);
}

/// A double with a rigorous bound on its distance from the exact value of the same
/// expression: the filter stage of the exact predicates.
struct Approx {
    double value = 0;
    double error = 0;
    Approx() = default;
    /// @param v an input value that is exact (a float32 converted to double).
    explicit Approx(double v) : value(v) {}
    Approx(double v, double e) : value(v), error(e) {}
    /// Whether the sign of the exact value is known from this approximation.
    bool sign_known() const noexcept { return sign_decided(value, error); }
    int sign() const noexcept { return (value > 0) - (value < 0); }  // no branch: signs of N follow no pattern
};

inline constexpr double kHalfUlp = 0x1p-53;

inline Approx operator+(Approx a, Approx b) {
    double s = a.value + b.value;
    return {s, a.error + b.error + std::fabs(s) * kHalfUlp};
}
inline Approx operator-(Approx a, Approx b) {
    double s = a.value - b.value;
    return {s, a.error + b.error + std::fabs(s) * kHalfUlp};
}
inline Approx operator*(Approx a, Approx b) {
    double p = a.value * b.value;
    return {p, std::fabs(a.value) * b.error + std::fabs(b.value) * a.error + a.error * b.error +
                   std::fabs(p) * kHalfUlp};
}
inline Approx operator-(Approx a) { return {-a.value, a.error}; }

/// The exact sign of an expression written once as a generic lambda `f(T{})` over a number
/// type T (Approx, then Expansion when the filter cannot decide).
/// @param f callable with an argument of type Approx or Expansion, returning the same type.
template <class F>
int exact_sign(F&& f) {
    Approx a = f(Approx{});
    if (a.sign_known()) return a.sign();
    return f(Expansion{}).sign();
}

/// A 3-vector over a number type (double, Approx or Expansion).
template <class T>
struct Vec3 {
    T x{}, y{}, z{};
};

template <class T>
Vec3<T> operator-(const Vec3<T>& a, const Vec3<T>& b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class T>
Vec3<T> operator+(const Vec3<T>& a, const Vec3<T>& b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class T>
Vec3<T> cross(const Vec3<T>& a, const Vec3<T>& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class T>
T dot(const Vec3<T>& a, const Vec3<T>& b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
/// Lifts a double point (exact float32 values) to the number type T.
template <class T>
Vec3<T> lift(const Vec3<double>& p) {
    return {T(p.x), T(p.y), T(p.z)};
}

using Point = Vec3<double>;  ///< a vertex's x, y, z as exact doubles (from float32)

}  // namespace navlab::geometry
