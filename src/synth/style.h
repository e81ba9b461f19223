// The two games' shapes, as numbers: what the navmesh page states for Sekiro and Elden Ring
// (shares of clockwise, degenerate and non-convex faces, margins, faceData values, ...). The
// generator reads its targets from here so that a reader can check them against the page.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "formats/fromsoft/game.h"

namespace navlab::synth {

using fromsoft::Game;  // synth makes Sekiro and EldenRing only

/// Per-game targets. Shares are fractions of faces unless stated.
struct GameStyle {
    Game game;
    std::uint32_t sdk_version;
    float max_off_plane;           ///< largest corner distance from a face's mean plane, metres
    double clockwise_share;       ///< faces wound clockwise seen from above
    double degenerate_share;      ///< faces with zero area seen from above
    double edges_per_face;         ///< regular edges per face the triangle merging aims at
    double non_convex_share;       ///< faces not convex seen from above
    int max_merged_edges;          ///< no merged face gets more edges than this
    std::span<const std::uint32_t> margins;  ///< aabb margin float bits (w lanes)
    double exact_aabb_share;       ///< meshes whose aabb is exactly the bounds grown by the margin
    std::span<const std::int32_t> face_data_values;  ///< first value is the common one
    double faces_per_cluster;      ///< Sekiro: faces / graph nodes
    double separate_user_edge_ends; ///< Elden Ring: user-edge pairs whose two edges have own vertices
    float cell_size;              ///< Recast voxel size for this game's tiles
    float detail_sample_distance;  ///< Recast detail sampling (sets the share of interior vertices)
    float detail_max_error;
};

inline constexpr std::uint32_t kMarginSekiro[] = {0x3F8CCCCD};                   // 1.1f
inline constexpr std::uint32_t kMarginEldenRing[] = {0x40000000, 0x40199999, 0x41000000};  // 2, 2.4 (as stored), 8

inline constexpr std::int32_t kFaceDataSekiro[] = {0, 1, 4, 5};
/// 18 values made of bits 0, 6, 12, 16, 17, 20, 24 and 28, as the page counts them.
inline constexpr std::int32_t kFaceDataEldenRing[] = {
    0, 1, 1 << 6, 1 << 12, 1 << 16, 1 << 17, 1 << 20, 1 << 24, 1 << 28,
    1 | 1 << 16, 1 << 6 | 1 << 16, 1 << 12 | 1 << 17, 1 << 16 | 1 << 17, 1 << 16 | 1 << 20,
    1 | 1 << 24, 1 << 16 | 1 << 28, 1 << 6 | 1 << 12, 1 << 17 | 1 << 20};
static_assert(std::size(kFaceDataEldenRing) == 18);

inline constexpr GameStyle kSekiroStyle{Game::Sekiro, 20160200, 0.65f, 199.0 / 279053, 0.0003,
                                        1160836.0 / 279053, 13019.0 / 279053, 16,
                                        kMarginSekiro, 785.0 / 1415, kFaceDataSekiro,
                                        279053.0 / 20803, 0.0, 0.4f, 3.0f, 0.3f};
inline constexpr GameStyle kEldenRingStyle{Game::EldenRing, 20180100, 1.38f, 8835.0 / 6317094, 2061.0 / 6317094,
                                           23716604.0 / 6317094, 135629.0 / 6317094, 16, kMarginEldenRing, 39.0 / 3411,
                                           kFaceDataEldenRing, 0.0, 1.0, 0.5f, 2.5f, 0.2f};

/// The style of `game`.
inline const GameStyle& style_of(Game game) { return game == Game::Sekiro ? kSekiroStyle : kEldenRingStyle; }

}  // namespace navlab::synth
