#include "formats/igi/graph.h"

#include <fmt/format.h>

#include <cmath>
#include <vector>

namespace navlab::igi {

std::optional<std::uint32_t> criteria_flags(const std::string& criteria) {
    static constexpr std::pair<std::string_view, std::uint32_t> names[] = {
        {"NODECRITERIA_DOOR", kDoor}, {"NODECRITERIA_VIEW", kView}, {"NODECRITERIA_STAIR", kStair}};
    std::uint32_t flags = 0;
    std::string_view rest(criteria.c_str());  // the engine stops at the first NUL
    while (!rest.empty()) {
        const std::size_t bar = rest.find('|');
        std::string_view word = rest.substr(0, bar);
        while (!word.empty() && word.front() == ' ') word.remove_prefix(1);
        while (!word.empty() && word.back() == ' ') word.remove_suffix(1);
        bool known = false;
        for (const auto& [name, bit] : names)
            if (word == name) flags |= bit, known = true;
        if (!known) return std::nullopt;
        if (bar == std::string_view::npos) break;
        rest.remove_prefix(bar + 1);
    }
    return flags;
}

Vec3 world_position(const Node& node, const Vec3& task_position) {
    return {task_position.x + node.position.x, task_position.y + node.position.y, task_position.z + node.position.z};
}

bool is_finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

double distance(const Vec3& a, const Vec3& b) {
    const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

BlobHeader default_blob_header(std::int32_t max_nodes) {
    const auto count = static_cast<std::uint32_t>(max_nodes) * static_cast<std::uint32_t>(max_nodes);
    return {kTagBlob,
            8,
            kTagI32,
            static_cast<std::uint8_t>(count),
            static_cast<std::uint8_t>(count >> 8),
            static_cast<std::uint8_t>(count >> 16),
            static_cast<std::uint8_t>(count >> 24)};
}

std::uint64_t retail_named_size(const Graph& graph) {
    const auto n = static_cast<std::uint64_t>(graph.max_nodes);
    std::uint64_t size = 30 + 8 * n * n + 36 * graph.links.size();
    for (const Node& node : graph.nodes) size += 89 + node.criteria.size() + 1;
    return size;
}

std::vector<RouteEntry> empty_route_table(std::int32_t max_nodes) {
    return std::vector<RouteEntry>(static_cast<std::size_t>(max_nodes) * static_cast<std::size_t>(max_nodes));
}

void validate_graph(const Graph& graph) {
    const std::int32_t n = graph.max_nodes;
    if (n < 2) throw Error(fmt::format("nMaxNodes is {}; it must be at least 2", n), kNoOffset, "nMaxNodes");
    if (!graph.routes.empty() &&
        graph.routes.size() != static_cast<std::size_t>(n) * static_cast<std::size_t>(n))
        throw Error(fmt::format("route table has {} entries, expected N·N = {}", graph.routes.size(),
                                static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n)),
                    kNoOffset, "RouteTable");
    const std::int32_t id_limit = std::min(n, kMaxNodeId);
    std::vector<bool> used(static_cast<std::size_t>(id_limit), false);
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        const Node& node = graph.nodes[i];
        const std::string where = fmt::format("node #{}", i);
        if (node.id < 0 || node.id >= id_limit)
            throw Error(fmt::format("node id {} is outside 0..{} (nMaxNodes {}, engine limit {})", node.id,
                                    id_limit - 1, n, kMaxNodeId),
                        kNoOffset, where);
        if (used[static_cast<std::size_t>(node.id)])
            throw Error(fmt::format("duplicate node id {} (fatal in the engine)", node.id), kNoOffset, where);
        used[static_cast<std::size_t>(node.id)] = true;
        if (node.criteria.size() > 254)
            throw Error(fmt::format("criteria of {} bytes is longer than 254", node.criteria.size()), kNoOffset, where);
    }
    for (std::size_t i = 0; i < graph.links.size(); ++i) {
        const Link& link = graph.links[i];
        for (std::int32_t id : {link.id1, link.id2})
            if (id < 0 || id >= id_limit || !used[static_cast<std::size_t>(id)])
                throw Error(fmt::format("link ({}, {}) refers to node {}, which does not exist", link.id1, link.id2, id),
                            kNoOffset, fmt::format("link #{}", i));
    }
}

}  // namespace navlab::igi
