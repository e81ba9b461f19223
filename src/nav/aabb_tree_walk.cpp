#include "nav/aabb_tree_walk.h"

#include <fmt/format.h>

namespace navlab::nav {
namespace {

constexpr std::uint32_t kInternal = 1u << 23;

std::uint32_t data_of(const fromsoft::AabbTreeNode6& n) { return std::uint32_t(n.hiData) << 16 | n.loData; }

TreeBox shrink(const TreeBox& parent, const fromsoft::AabbTreeNode6& n) {
    TreeBox b;
    for (int k = 0; k < 3; ++k) {
        double e = parent.max[k] - parent.min[k];
        int h = n.xyz[k] >> 4, l = n.xyz[k] & 15;
        b.min[k] = parent.min[k] + e * h * h / 226.0;
        b.max[k] = parent.max[k] - e * l * l / 226.0;
    }
    return b;
}

}  // namespace

TreeWalk walk_aabb_tree6(std::span<const fromsoft::AabbTreeNode6> nodes, const fromsoft::Aabb& domain) {
    TreeWalk out;
    const std::int64_t n = static_cast<std::int64_t>(nodes.size());
    struct Frame {
        std::int64_t node;
        TreeBox box;
        bool second_done;
    };
    std::vector<Frame> stack;
    std::vector<bool> visited(n, false);
    TreeBox parent{{domain.min.x, domain.min.y, domain.min.z}, {domain.max.x, domain.max.y, domain.max.z}};
    std::int64_t next = 0, end = 0;
    bool entering = true;
    auto fail = [&](std::int64_t node, std::string problem) {
        out.bad_node = node;
        out.problem = std::move(problem);
        return out;
    };
    for (;;) {
        if (entering) {
            if (next >= n) return fail(next, fmt::format("node index {} past the {} nodes", next, n));
            if (visited[next]) return fail(next, "node visited twice");
            visited[next] = true;
            TreeBox box = shrink(parent, nodes[next]);
            std::uint32_t data = data_of(nodes[next]);
            if (data & kInternal) {
                ++out.internal_nodes;
                stack.push_back({next, box, false});
                parent = box;
                ++next;
            } else {
                out.leaves.push_back({data, next, box});
                end = next + 1;
                entering = false;
            }
            continue;
        }
        if (stack.empty()) break;
        Frame& f = stack.back();
        if (f.second_done) {
            stack.pop_back();
            continue;
        }
        std::int64_t second = f.node + 2 * std::int64_t(data_of(nodes[f.node]) & 0x7FFFFF);
        if (end != second)
            return fail(f.node, fmt::format("first subtree ends at node {}, second child expected at {}", end, second));
        f.second_done = true;
        parent = f.box;
        next = second;
        entering = true;
    }
    if (end != n) return fail(end, fmt::format("the root's subtree ends at node {} of {}", end, n));
    out.valid = true;
    return out;
}

}  // namespace navlab::nav
