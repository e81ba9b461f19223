#include "synth/scene.h"

#include <algorithm>
#include <cmath>

#include "synth/rng.h"

namespace navlab::synth {
namespace {

/// Smooth value noise: random lattice heights, interpolated with a smoothstep.
struct ValueNoise {
    std::uint64_t seed;
    float lattice(int i, int j) const {
        Rng r(derive_seed(seed, (static_cast<std::uint64_t>(static_cast<std::uint32_t>(i)) << 32) |
                                    static_cast<std::uint32_t>(j)));
        return static_cast<float>(r.unit() * 2 - 1);
    }
    float at(float x, float z) const {
        int i = static_cast<int>(std::floor(x)), j = static_cast<int>(std::floor(z));
        float fx = x - static_cast<float>(i), fz = z - static_cast<float>(j);
        fx = fx * fx * (3 - 2 * fx);
        fz = fz * fz * (3 - 2 * fz);
        float a = lattice(i, j), b = lattice(i + 1, j), c = lattice(i, j + 1), d = lattice(i + 1, j + 1);
        return (a * (1 - fx) + b * fx) * (1 - fz) + (c * (1 - fx) + d * fx) * fz;
    }
};

class SceneBuilder {
public:
    SceneBuilder(const SceneParams& p, std::uint64_t seed) : p_(p), rng_(seed), noise_{derive_seed(seed, 1)} {}

    TriangleSoup build() {
        add_terrain();
        for (int i = 0; i < p_.buildings; ++i) add_building();
        for (int i = 0; i < p_.bridges; ++i) add_bridge();
        for (int i = 0; i < p_.rocks; ++i) add_rock();
        return std::move(soup_);
    }

private:
    float ground(float x, float z) const {
        return p_.hill_height * (noise_.at(x / 40, z / 40) + 0.35f * noise_.at(x / 13, z / 13));
    }
    float ground_min(float x0, float z0, float x1, float z1) const {
        return std::min({ground(x0, z0), ground(x1, z0), ground(x0, z1), ground(x1, z1),
                         ground((x0 + x1) / 2, (z0 + z1) / 2)});
    }
    int vertex(float x, float y, float z) {
        soup_.verts.insert(soup_.verts.end(), {x, y, z});
        return soup_.vertex_count() - 1;
    }
    /// Adds a quad as two triangles; corners in order so that the first triangle's normal
    /// points the quad's way ((b - a) × (c - a)).
    void quad(int a, int b, int c, int d) { soup_.tris.insert(soup_.tris.end(), {a, b, c, c, b, d}); }

    void add_terrain() {
        int n = static_cast<int>(std::ceil(p_.size / p_.terrain_step));
        int base = soup_.vertex_count();
        for (int i = 0; i <= n; ++i)
            for (int j = 0; j <= n; ++j) {
                float x = static_cast<float>(i) * p_.terrain_step, z = static_cast<float>(j) * p_.terrain_step;
                vertex(x, ground(x, z), z);
            }
        auto at = [&](int i, int j) { return base + i * (n + 1) + j; };
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) quad(at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j + 1));
    }

    /// An axis-aligned box without its bottom; its top faces up.
    void box(float x0, float y0, float z0, float x1, float y1, float z1) {
        int a = vertex(x0, y0, z0), b = vertex(x1, y0, z0), c = vertex(x0, y0, z1), d = vertex(x1, y0, z1);
        int e = vertex(x0, y1, z0), f = vertex(x1, y1, z0), g = vertex(x0, y1, z1), h = vertex(x1, y1, z1);
        quad(e, g, f, h);  // top, normal +y
        quad(a, e, b, f);
        quad(b, f, d, h);
        quad(d, h, c, g);
        quad(c, g, a, e);
    }

    void add_building() {
        float w = rng_.range(8, 20), d = rng_.range(8, 20), h = rng_.range(2.5, 6);
        float x0 = rng_.range(4, p_.size - w - 12), z0 = rng_.range(4, p_.size - d - 4);
        float base = ground_min(x0, z0, x0 + w, z0 + d) - 0.5f;
        float top = ground(x0, z0) + h;
        box(x0, base, z0, x0 + w, top, z0 + d);
        // A staircase against the +x wall climbing to the roof: 0.25 m rises, 0.35 m runs.
        float sz0 = z0 + d / 2 - 1.2f, sz1 = sz0 + 2.4f;
        float x = x0 + w;
        float foot = ground(x + 4, sz0);
        int steps = std::max(2, static_cast<int>((top - foot) / 0.25f));
        for (int s = steps; s > 0; --s) {
            float y = top - 0.25f * static_cast<float>(steps - s + 1);
            if (y <= foot) break;
            box(x, base, sz0, x + 0.35f, y, sz1);
            x += 0.35f;
        }
    }

    void add_bridge() {
        float z = rng_.range(10, p_.size - 10), x0 = rng_.range(4, p_.size / 3), x1 = x0 + rng_.range(25, p_.size / 2);
        x1 = std::min(x1, p_.size - 8);
        float deck = std::max(ground(x0, z), ground(x1, z)) + rng_.range(3, 5);
        float half = 1.6f;
        box(x0, deck - 0.4f, z - half, x1, deck, z + half);
        for (float px = x0 + 4; px < x1 - 2; px += 8) box(px, ground_min(px, z - 1, px + 1, z + 1) - 1, z - 1, px + 1, deck - 0.4f, z + 1);
        ramp(x0, z, half, deck, -1);
        ramp(x1, z, half, deck, +1);
    }
    /// A straight ramp (about 30 degrees) from the deck end at x down to the ground.
    void ramp(float x, float z, float half, float deck, float dir) {
        float len = (deck - ground(x, z) + 1) * 1.8f;
        float xe = x + dir * len;
        float ye = ground(xe, z) - 0.3f;
        int a = vertex(x, deck, z - half), b = vertex(x, deck, z + half), c = vertex(xe, ye, z - half), d = vertex(xe, ye, z + half);
        if (dir > 0) quad(a, b, c, d); else quad(c, d, a, b);
    }

    void add_rock() {
        float s = rng_.range(1, 3.5), x = rng_.range(2, p_.size - 6), z = rng_.range(2, p_.size - 6);
        float g = ground_min(x, z, x + s, z + s);
        box(x, g - 1, z, x + s, g + rng_.range(2.5, 5), z + s);
    }

    SceneParams p_;
    Rng rng_;
    ValueNoise noise_;
    TriangleSoup soup_;
};

}  // namespace

TriangleSoup make_scene(const SceneParams& params, std::uint64_t seed) { return SceneBuilder(params, seed).build(); }

}  // namespace navlab::synth
