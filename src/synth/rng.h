// A small deterministic random generator for the synthetic corpus. std::random's
// distributions give different values on different standard libraries, so every draw here
// is our own arithmetic on splitmix64 output: same seed, same numbers, everywhere.
#pragma once

#include <cstdint>

namespace navlab::synth {

/// splitmix64 (Steele, Lea, Flood 2014): 64-bit state, one multiply-xorshift output.
struct Rng {
    std::uint64_t state = 0;

    explicit Rng(std::uint64_t seed) : state(seed) {}

    /// Next 64 random bits.
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform double in [0, 1) from the top 53 bits.
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform float in [lo, hi).
    float range(double lo, double hi) { return static_cast<float>(lo + (hi - lo) * unit()); }
    /// Uniform integer in [0, n); n > 0. Multiply-shift, so no modulo bias worth noting.
    std::uint32_t below(std::uint32_t n) {
        return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
    }
    /// Uniform integer in [lo, hi] (inclusive).
    int between(int lo, int hi) { return lo + static_cast<int>(below(static_cast<std::uint32_t>(hi - lo + 1))); }
    /// True with probability p.
    bool chance(double p) { return unit() < p; }
};

/// A child seed: a fixed mix of a parent seed and a label, so independent streams (one per
/// binder, per mesh, per purpose) never depend on the order in which others are drawn.
inline std::uint64_t derive_seed(std::uint64_t parent, std::uint64_t label) {
    Rng r(parent ^ (label * 0xD1B54A32D192ED03ull));
    r.next();
    return r.next();
}

}  // namespace navlab::synth
