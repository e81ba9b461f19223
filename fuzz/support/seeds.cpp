#include "support/seeds.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "codec/dcx.h"
#include "codec/kraken/kraken.h"
#include "container/archive/archive_writer.h"
#include "container/bnd4.h"
#include "farcry2/fixtures.h"
#include "formats/farcry2/level_file.h"
#include "formats/fromsoft/aabb_tree6.h"
#include "formats/fromsoft/cluster_graph.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "formats/igi/graph_io.h"
#include "fromsoft/test_meshes.h"
#include "havok/navmesh_fixture.h"
#include "igi/fixtures.h"
#include "io/file.h"
#include "kraken/hand_built_streams.h"

namespace navlab::fuzz {
namespace {

Seed text(const std::string& s) { return Seed(s.begin(), s.end()); }

/// Navmesh models through navlab's writer: an Elden Ring-like mesh with a tree, a Sekiro-like
/// one with a cluster graph, and an empty one.
Seeds nav_model_tagfiles() {
    using namespace fromsoft;
    Seeds out;
    NavTagfile er;
    er.sdk_version = 20180100;
    er.mesh = fixture::grid_mesh(3, 2, nullptr, [](int i, int j) { return 0.25f * i * j; });
    er.mediator = build_query_mediator(er.mesh);
    out.push_back(write_nav_tagfile(er));
    NavTagfile sekiro;
    sekiro.sdk_version = 20160200;
    sekiro.mesh = fixture::grid_mesh(3, 3, [](int i, int j) { return std::int16_t(i / 2 + 2 * (j / 2)); });
    sekiro.graph = make_directed_graph(sekiro.mesh, build_cluster_graph(sekiro.mesh));
    out.push_back(write_nav_tagfile(sekiro));
    NavTagfile empty;
    empty.sdk_version = 20180100;
    out.push_back(write_nav_tagfile(empty));
    return out;
}

Seed binder_image(const Seeds& tagfiles) {
    std::vector<bnd4::NewEntry> files;
    for (std::size_t i = 0; i < tagfiles.size(); ++i)
        files.push_back({bnd4::er_navmesh_entry_name("10_00_00_00", "n10_00_00_00_00" + std::to_string(1000 + i) + ".hkx"),
                         static_cast<std::int32_t>(10000 + i), tagfiles[i]});
    return bnd4::write(bnd4::build_navmesh_binder(std::move(files)));
}

Seed hex_bytes(const char* hex) {
    Seed out;
    for (const char* p = hex; p[0] && p[1]; p += 2) out.push_back(static_cast<std::uint8_t>(std::stoi(std::string(p, 2), nullptr, 16)));
    return out;
}

Seed with_size(std::uint32_t size, const Seed& stream) {
    Seed out{static_cast<std::uint8_t>(size), static_cast<std::uint8_t>(size >> 8), static_cast<std::uint8_t>(size >> 16),
             static_cast<std::uint8_t>(size >> 24)};
    out.insert(out.end(), stream.begin(), stream.end());
    return out;
}

/// A one-block stream of one entropy-only chunk: an RLE array (spec 2.5) whose raw command
/// buffer holds `commands` one-byte commands (copy c % 16, run 3 + c % 13), the last one 15
/// and 3: 18 bytes from the output's end, where 16-byte moves would write past it. With the
/// size prefix. The decoder's 16-byte path, then its exact one.
Seed short_rle_commands(unsigned commands) {
    Seed front, back;
    std::uint32_t size = 0;
    for (unsigned c = 0; c < commands; ++c) {
        const bool last = c + 1 == commands;
        const unsigned copy = last ? 15 : c % 16, run = last ? 3 : 3 + c % 13;
        for (unsigned i = 0; i < copy; ++i) front.push_back(static_cast<std::uint8_t>(c * 31 + i));
        back.insert(back.begin(), static_cast<std::uint8_t>(run << 4 | (15 - copy)));  // read from the end
        size += copy + run;
    }
    using namespace test::kraken_streams;
    const Seed payload = concat({{0x00}, front, back});  // 0: the command buffer follows raw
    const Seed stream = single_chunk_stream(array(3, payload, size));
    return with_size(size, stream);
}

}  // namespace

Seeds dcx_seeds() {
    Seeds out;
    const Seed small = binder_image({text("TAG0 lo-res"), text("TAG0 hi-res, a little longer")});
    const Seed mesh = binder_image({nav_model_tagfiles().front()});
    for (dcx::Variant v : dcx::all_variants()) {
        out.push_back(dcx::compress(small, v));
        out.push_back(dcx::compress(mesh, v));
    }
    return out;
}

Seeds bnd4_seeds() {
    Seeds out{binder_image({text("TAG0 lo-res"), text("TAG0 hi-res, a little longer"), {}})};
    out.push_back(binder_image(nav_model_tagfiles()));
    return out;
}

Seeds kraken_seeds() {
    // Spec §5.3 hand-built streams: two multi-array chunks of 2000 bytes, one RLE of 675.
    Seeds out{
        with_size(2000, hex_bytes("8c06000026501f3c002282300f9c000141300f9c0001420600800501020102008004080809092c5e00002c90")),
        with_size(2000, hex_bytes("8c06000020501f3c001c82300f9c000141300f9c0001420680800581829192002c5e00002c90")),
        with_size(675, hex_bytes("8c060000c9300a8800c5007778797a000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c"
                                 "1d1e1f2021222324252627fb3fa41eb476486f3424725de9933ad523df53ee89a7ec3b906ff0094e6a66f5de"
                                 "8abf41e67353e5a02b03bca087874b033817976161ff5c35a252e6bd3e24e12fa06ca5b18a26f94f24995f81"
                                 "2506a246b5a8a51e9bc9c8d9b4cefc4217a4b0bcb49ebf8f3ae200619a49ed978d21f21ecf513007d5668fa3"
                                 "382592f80a04e9153344ec910a0744b94dbb6db9db07000102020928295c01")),
    };
    const Seed payload = text("stored Kraken block: navlab's encoder writes these for DCX_KRAK");
    out.push_back(with_size(static_cast<std::uint32_t>(payload.size()), kraken::encode_stored(payload)));
    for (unsigned commands : {40u, 300u}) out.push_back(short_rle_commands(commands));
    return out;
}

Seeds tagfile_seeds() {
    Seeds out = nav_model_tagfiles();
    out.push_back(test::grid_navmesh(2, 2));
    out.push_back(test::grid_navmesh(3, 1, "20160200"));
    return out;
}

Seeds aabb_tree_seeds() {
    Seeds out;
    for (int n : {1, 2, 5}) {
        const fromsoft::NavMesh mesh = fromsoft::fixture::grid_mesh(n, n + 1);
        const fromsoft::QueryMediator med = fromsoft::build_query_mediator(mesh);
        Seed s(32 + 6 * med.nodes.size());
        const float lanes[8] = {med.domain.min.x, med.domain.min.y, med.domain.min.z, med.domain.min.w,
                                med.domain.max.x, med.domain.max.y, med.domain.max.z, med.domain.max.w};
        std::memcpy(s.data(), lanes, 32);
        for (std::size_t i = 0; i < med.nodes.size(); ++i) {
            const auto& node = med.nodes[i];
            std::uint8_t* p = s.data() + 32 + 6 * i;
            p[0] = node.xyz[0], p[1] = node.xyz[1], p[2] = node.xyz[2], p[3] = node.hiData;
            p[4] = static_cast<std::uint8_t>(node.loData), p[5] = static_cast<std::uint8_t>(node.loData >> 8);
        }
        out.push_back(std::move(s));
    }
    return out;
}

Seeds igi_seeds() {
    return {igi::test::worked_example_bytes(), igi::write_graph(igi::test::positional_graph())};
}

Seeds fc2_seeds() {
    using namespace farcry2;
    Seeds out;
    fixture::FixtureOptions small;
    small.quads = 1;
    for (const SectorFile& s : fixture::make_sectors(0, 0, 1, 2, small)) out.push_back(fixture::sector_bytes(s));
    out.push_back(fixture::sector_bytes(fixture::spec_example_sector()));
    out.push_back(write_level(header_only_level(4, 4)));
    return out;
}

Seeds build_input_seeds() {
    const char* build_specs[] = {
        "{}",
        R"({"agent_radius": 0.6, "tile_size": 32, "map": "m60_42_36_00", "aabb_margin": 8, "face_data": 1,
            "area_volumes": [{"name": "w", "box": {"min": [0, 0, 0], "max": [4, 2, 4]}, "face_data": 4096},
                             {"prism": {"xz": [[10, 10], [14, 10], [12, 14]], "y_min": 0, "y_max": 3}, "face_data": 64}],
            "links": [{"from": [1, 0, 1], "to": [9, 0, 1], "both_ways": false, "flags": 52, "edge_data": 516,
                       "setup": {"half_extents": [1, 1, 1]}}]})",
        R"({"cell_size": 0.25, "cell_height": 0.1, "agent_height": 1.8, "agent_climb": 0.3, "max_slope": 50,
            "detail_sample_distance": 3, "detail_max_error": 0.1, "merge_off_plane": 0.05,
            "links": [{"name": "ladder", "from": [0, 0, 0], "to": [0, 4, 1], "width": 0.8, "flags": 20}]})",
    };
    const char* graphs[] = {
        R"({"nodes": [{"id": 0, "position": [0, 0, 0]}, {"id": 1, "position": [40960, 0, 0], "criteria": "NODECRITERIA_DOOR"},
            {"id": 2, "position": [40960, 40960, 0], "radius": 1.5, "material": 3}, {"id": 3, "position": [0, 40960, 0]},
            {"id": 7, "position": [5, 5, 5], "gamma": 2}],
            "links": [{"from": 0, "to": 1}, {"from": 1, "to": 2}, {"from": 2, "to": 3}, {"from": 3, "to": 0},
                      {"from": 0, "to": 2, "type": 2}]})",
        R"({"max_nodes": 12, "nodes": [{"id": 0, "position": [0, 0, 0], "criteria": "NODECRITERIA_VIEW|NODECRITERIA_STAIR"},
            {"id": 11, "position": [100, 0, 0]}], "links": [{"from": 11, "to": 0}]})",
    };
    Seeds out;
    for (const char* s : build_specs) out.push_back(text(std::string(1, '\0') + s));
    for (const char* s : graphs) out.push_back(text(std::string(1, '\1') + s));
    return out;
}

Seeds bhd5_seeds() {
    Seeds out;
    for (archive::Game game : {archive::Game::Sekiro, archive::Game::EldenRing}) {
        std::vector<archive::NewArchiveFile> files;
        for (int i = 0; i < 5; ++i) {
            archive::NewArchiveFile f;
            f.path = "/map/m10_00_00_00/file" + std::to_string(i) + ".bin";
            f.data = Seed(100 + 40 * i, static_cast<std::uint8_t>(i));
            f.encrypt = i % 2 == 1;
            f.recordUnpadded = i != 3;
            files.push_back(std::move(f));
        }
        archive::ArchiveWriteOptions options;
        options.game = game;
        options.buckets = 2;
        Seed s{static_cast<std::uint8_t>(game == archive::Game::EldenRing ? 1 : 0)};
        const Seed bhd = archive::write_archive(files, options).bhd;
        s.insert(s.end(), bhd.begin(), bhd.end());
        out.push_back(std::move(s));
    }
    return out;
}

void write_seeds_if_asked(Seeds (*make)()) {
    const char* dir = std::getenv("NAVLAB_FUZZ_WRITE_SEEDS");
    if (!dir || !*dir) return;
    std::filesystem::create_directories(dir);
    const Seeds seeds = make();
    for (std::size_t i = 0; i < seeds.size(); ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "seed-%03zu", i);
        write_file_atomic(std::filesystem::path(dir) / name, seeds[i]);
    }
    std::printf("navlab: %zu seeds written to %s\n", seeds.size(), dir);
    std::exit(0);
}

}  // namespace navlab::fuzz
