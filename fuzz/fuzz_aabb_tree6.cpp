// libFuzzer target for the 6-byte AABB-tree decoder. Input: the domain (min then max, 8
// little-endian floats, 32 bytes) then 6-byte nodes. The decoder never throws; it must
// report bad trees through `valid`, and a valid tree must cover every node exactly once.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "formats/fromsoft/aabb_tree6.h"
#include "support/seeds.h"

using namespace navlab;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    fuzz::write_seeds_if_asked(fuzz::aabb_tree_seeds);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 32) return 0;
    float lanes[8];
    std::memcpy(lanes, data, 32);
    fromsoft::Aabb domain;
    domain.min = {lanes[0], lanes[1], lanes[2], lanes[3]};
    domain.max = {lanes[4], lanes[5], lanes[6], lanes[7]};
    std::vector<fromsoft::AabbTreeNode6> nodes((size - 32) / 6);
    if (!nodes.empty()) std::memcpy(nodes.data(), data + 32, nodes.size() * 6);
    const fromsoft::DecodedAabbTree t = fromsoft::decode_aabb_tree6(nodes, domain);
    if (t.boxes.size() > nodes.size() || t.leaves.size() > nodes.size()) __builtin_trap();
    if (t.valid && t.leaves.size() + t.internal_nodes != nodes.size()) __builtin_trap();
    for (const auto& leaf : t.leaves)
        if (leaf.node >= nodes.size()) __builtin_trap();
    return 0;
}
