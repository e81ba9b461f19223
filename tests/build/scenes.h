// Small level scenes made in code for the build tests: boxes and quads as triangle soups.
#pragma once

#include "build/triangle_soup.h"

namespace navlab::build::scenes {

/// Adds an axis-aligned box [x0,x1] x [y0,y1] x [z0,z1] (all six sides, outward facing).
inline void add_box(TriangleSoup& s, float x0, float y0, float z0, float x1, float y1, float z1) {
    const int b = s.vertex_count();
    for (int i = 0; i < 8; ++i) s.verts.insert(s.verts.end(), {i & 1 ? x1 : x0, i & 2 ? y1 : y0, i & 4 ? z1 : z0});
    // Corner i: bit 0 x, bit 1 y, bit 2 z. Each quad counter-clockwise seen from outside.
    const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (const auto& q : quads) s.tris.insert(s.tris.end(), {b + q[0], b + q[1], b + q[2], b + q[0], b + q[2], b + q[3]});
}

/// Adds a quad a-b-c-d (a triangle fan); its walkable side faces +y when a, b, c, d run
/// counter-clockwise seen from above in Recast's sense.
inline void add_quad(TriangleSoup& s, const float* a, const float* b, const float* c, const float* d) {
    const int base = s.vertex_count();
    for (const float* p : {a, b, c, d}) s.verts.insert(s.verts.end(), {p[0], p[1], p[2]});
    s.tris.insert(s.tris.end(), {base, base + 2, base + 1, base, base + 3, base + 2});
}

/// A flat floor [0,size]^2 at y 0 (a thin box) with a 2 m pillar in the middle.
inline TriangleSoup floor_with_pillar(float size) {
    TriangleSoup s;
    add_box(s, 0, -0.5f, 0, size, 0, size);
    add_box(s, size / 2 - 1, 0, size / 2 - 1, size / 2 + 1, 4, size / 2 + 1);
    return s;
}

/// A floor [0,10]x[0,10] at y 0, a flight of 10 steps (0.2 m rise, 0.5 m run: one step per
/// 0.5 m cell, each below the 0.45 m climb) and a landing at 2 m from x 15 to 30.
inline TriangleSoup stairs() {
    TriangleSoup s;
    add_box(s, 0, -0.5f, 0, 10, 0, 10);
    for (int i = 0; i < 10; ++i) add_box(s, 10 + i * 0.5f, -0.5f, 0, 10 + (i + 1) * 0.5f, 0.2f * (i + 1), 10);
    add_box(s, 15, -0.5f, 0, 30, 2.0f, 10);
    return s;
}

/// A road along x at y 0 and a bridge deck along z 4 m above it, with ramps at both ends.
inline TriangleSoup bridge_over_road() {
    TriangleSoup s;
    add_box(s, 0, -0.5f, 12, 40, 0, 20);   // road
    add_box(s, 16, 4, 0, 24, 4.5f, 32);    // deck over the road
    add_box(s, 16, -0.5f, -12, 24, 0, 0);  // ground at the south end
    add_box(s, 16, -0.5f, 32, 24, 0, 44);  // ground at the north end
    // Ramps from the ground up to the deck (1:3).
    const float a[3] = {16, 0, -12}, b[3] = {24, 0, -12}, c[3] = {24, 4.5f, 0}, d[3] = {16, 4.5f, 0};
    add_quad(s, a, b, c, d);
    const float e[3] = {16, 4.5f, 32}, f[3] = {24, 4.5f, 32}, g[3] = {24, 0, 44}, h[3] = {16, 0, 44};
    add_quad(s, e, f, g, h);
    return s;
}

/// Two 10 x 10 platforms 6 m apart with nothing between them.
inline TriangleSoup two_platforms() {
    TriangleSoup s;
    add_box(s, 0, -0.5f, 0, 10, 0, 10);
    add_box(s, 16, -0.5f, 0, 26, 0, 10);
    return s;
}

}  // namespace navlab::build::scenes
