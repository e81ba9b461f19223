#include "formats/fromsoft/aabb_tree6.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "formats/fromsoft/mesh_views.h"
#include "io/error.h"

namespace navlab::fromsoft {
using detail::shrink_max;
using detail::shrink_min;

Box3 box_of(const Aabb& aabb) noexcept {
    return Box3{{aabb.min.x, aabb.min.y, aabb.min.z}, {aabb.max.x, aabb.max.y, aabb.max.z}};
}

DecodedAabbTree decode_aabb_tree6(std::span<const AabbTreeNode6> nodes, const Aabb& domain) {
    DecodedAabbTree out;
    decode_aabb_tree6(nodes, domain, out);
    return out;
}

namespace {

/// Decoding D's walk, shared by both decodings: checks the tree as decode_aabb_tree6 documents
/// and calls visit(i, box, leaf_data) for every node reached, in pre-order (leaf_data: the
/// leaf's data, or kTreeInternalBit for an internal node). `out` is a DecodedAabbTree or a
/// DecodedTreeLeaves: its valid, problem_node, problem and internal_nodes are written. Each
/// open internal node's box is kept on the walk's stack, so a caller keeps only the boxes it
/// needs. Returns how many nodes were reached (all of them when the tree is valid).
template <class Out, class Visit>
std::size_t walk_tree6(std::span<const AabbTreeNode6> nodes, const Aabb& domain, Out& out, Visit&& visit) {
    out.valid = false;
    out.problem_node = 0;
    out.problem.clear();
    out.internal_nodes = 0;
    const std::size_t n = nodes.size();
    if (n == 0) {
        out.valid = true;
        return 0;
    }
    // Nodes are visited in index order (pre-order); the stack holds the internal nodes whose
    // subtrees are still open. Each node is therefore visited at most once and the loop is
    // bounded by n, whatever the data says.
    struct Open {
        Box3 box;
        std::uint32_t node;
        std::uint32_t second_child;
        bool in_second;
    };
    std::vector<Open> open;
    auto fail = [&](std::size_t node, std::string message, std::size_t reached) {
        out.problem_node = static_cast<std::uint32_t>(node);
        out.problem = std::move(message);
        return reached;
    };
    const Box3 root = box_of(domain);
    std::size_t i = 0;
    for (;;) {
        if (i >= n)
            return fail(open.back().node, "node " + std::to_string(open.back().node) +
                                              ": its subtree runs past the last node (" + std::to_string(n) +
                                              " nodes)", i);
        const Box3 box = shrink_box(open.empty() ? root : open.back().box, nodes[i].xyz);
        const std::uint32_t data = tree_node_data(nodes[i]);
        if (data & kTreeInternalBit) {
            visit(i, box, kTreeInternalBit);
            const std::uint64_t second = i + 2 * std::uint64_t{data & kTreePayloadMask};
            if (second <= i + 1)
                return fail(i, "internal node with second child offset " +
                                   std::to_string(second - i) + " (first subtree empty)", i + 1);
            if (second >= n)
                return fail(i, "second child " + std::to_string(second) + " out of range (" + std::to_string(n) +
                                   " nodes)", i + 1);
            ++out.internal_nodes;
            open.push_back({box, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(second), false});
            ++i;
            continue;
        }
        visit(i, box, data);
        ++i;
        // A leaf closes subtrees: move on to the next second child, or finish.
        while (!open.empty()) {
            Open& top = open.back();
            if (!top.in_second) {
                if (i != top.second_child)
                    return fail(top.node, "first subtree of node " + std::to_string(top.node) + " ends at node " +
                                              std::to_string(i) + ", second child declared at " +
                                              std::to_string(top.second_child), i);
                top.in_second = true;
                break;
            }
            open.pop_back();
        }
        if (open.empty()) {
            if (i != n)
                return fail(i, "root subtree ends at node " + std::to_string(i) + " of " + std::to_string(n) +
                                   " (nodes never reached)", i);
            out.valid = true;
            return i;
        }
    }
}

}  // namespace

void decode_aabb_tree6(std::span<const AabbTreeNode6> nodes, const Aabb& domain, DecodedAabbTree& out) {
    const std::size_t n = nodes.size();
    out.leaves.clear();
    // A valid tree has one leaf more than internal nodes. Reserved at once: after the audit
    // frees its kept storage before a binder (release_kept_storage), the leaves regrew by doubling.
    out.leaves.reserve((n + 1) / 2);
    // Every node the walk reaches gets its box, so only the boxes past those reached need the
    // zero of "not reached": written on failure, not filled first (a reused vector keeps stale
    // boxes until then).
    out.boxes.resize(n);
    const std::size_t reached = walk_tree6(nodes, domain, out, [&](std::size_t i, const Box3& box, std::uint32_t data) {
        out.boxes[i] = box;
        if (data != kTreeInternalBit) out.leaves.push_back({static_cast<std::uint32_t>(i), data});
    });
    std::fill(out.boxes.begin() + static_cast<std::ptrdiff_t>(reached), out.boxes.end(), Box3{});
}

void decode_aabb_tree6_leaves(std::span<const AabbTreeNode6> nodes, const Aabb& domain, DecodedTreeLeaves& out) {
    out.leaves.clear();
    out.leaves.reserve((nodes.size() + 1) / 2);
    walk_tree6(nodes, domain, out, [&](std::size_t i, const Box3& box, std::uint32_t data) {
        if (data != kTreeInternalBit) out.leaves.push_back({static_cast<std::uint32_t>(i), data, box});
    });
}

std::vector<Box3> face_corner_boxes(const NavMesh& mesh) {
    std::vector<Box3> boxes(mesh.faces.size());
    for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
        const std::vector<std::int32_t> ring = face_vertex_ring(mesh, f);
        if (ring.empty()) throw Error("face has no edge", kNoOffset, "face " + std::to_string(f));
        Box3& box = boxes[f];
        box.min.fill(std::numeric_limits<double>::infinity());
        box.max.fill(-std::numeric_limits<double>::infinity());
        for (std::int32_t v : ring) {
            const Vec4& p = mesh.vertices[v];
            const double c[3] = {p.x, p.y, p.z};
            for (int k = 0; k < 3; ++k) {
                box.min[k] = std::min(box.min[k], c[k]);
                box.max[k] = std::max(box.max[k], c[k]);
            }
        }
    }
    return boxes;
}

namespace {

// The nibble byte of one axis: the largest shrink on each side that still contains target.
std::uint8_t quantise_axis(double parent_min, double parent_max, double target_min, double target_max) {
    const double extent = parent_max - parent_min;
    unsigned hi = 15, lo = 15;
    while (hi > 0 && !(shrink_min(parent_min, extent, hi) <= target_min)) --hi;
    while (lo > 0 && !(shrink_max(parent_max, extent, lo) >= target_max)) --lo;
    return static_cast<std::uint8_t>(hi << 4 | lo);
}

Box3 union_of(std::span<const Box3> boxes, std::span<const std::uint32_t> ids) {
    Box3 u = boxes[ids[0]];
    for (std::uint32_t id : ids.subspan(1))
        for (int k = 0; k < 3; ++k) {
            u.min[k] = std::min(u.min[k], boxes[id].min[k]);
            u.max[k] = std::max(u.max[k], boxes[id].max[k]);
        }
    return u;
}

bool contains(const Box3& outer, const Box3& inner) {
    for (int k = 0; k < 3; ++k)
        if (!(outer.min[k] <= inner.min[k] && inner.max[k] <= outer.max[k])) return false;
    return true;
}

}  // namespace

std::vector<AabbTreeNode6> encode_aabb_tree6(std::span<const Box3> boxes, const Aabb& domain) {
    if (boxes.empty()) return {};
    if (boxes.size() > kTreePayloadMask + 1)
        throw Error("aabb tree: " + std::to_string(boxes.size()) + " faces, at most 2^23 fit the node data");
    const Box3 root = box_of(domain);
    for (std::size_t f = 0; f < boxes.size(); ++f)
        if (!contains(root, boxes[f]))
            throw Error("aabb tree: the domain does not contain the face's box", kNoOffset,
                        "face " + std::to_string(f));

    std::vector<std::uint32_t> ids(boxes.size());
    for (std::uint32_t f = 0; f < ids.size(); ++f) ids[f] = f;
    std::vector<AabbTreeNode6> nodes(2 * boxes.size() - 1);

    // Each pending range of ids becomes one subtree written at `node`; its parent's decoded
    // box is carried along so the nibbles are chosen against exactly what the decoder sees.
    struct Pending {
        std::uint32_t lo, hi, node;
        Box3 parent;
    };
    std::vector<Pending> pending{{0, static_cast<std::uint32_t>(ids.size()), 0, root}};
    while (!pending.empty()) {
        const Pending p = pending.back();
        pending.pop_back();
        const std::span<std::uint32_t> range(ids.data() + p.lo, p.hi - p.lo);
        const Box3 target = union_of(boxes, range);
        AabbTreeNode6& node = nodes[p.node];
        for (int k = 0; k < 3; ++k)
            node.xyz[k] = quantise_axis(p.parent.min[k], p.parent.max[k], target.min[k], target.max[k]);
        const Box3 decoded = shrink_box(p.parent, node.xyz);
        std::uint32_t data;
        if (range.size() == 1) {
            data = range[0];
        } else {
            // Median split of the box centres along the widest axis; ties broken by face index,
            // so the partition (and the tree) does not depend on the library's nth_element.
            int axis = 0;
            double widest = -1;
            for (int k = 0; k < 3; ++k) {
                double lo = std::numeric_limits<double>::infinity(), hi = -lo;
                for (std::uint32_t id : range) {
                    const double c = boxes[id].min[k] + boxes[id].max[k];
                    lo = std::min(lo, c), hi = std::max(hi, c);
                }
                if (hi - lo > widest) widest = hi - lo, axis = k;
            }
            const std::uint32_t first_leaves = static_cast<std::uint32_t>(range.size() / 2);
            std::nth_element(range.begin(), range.begin() + first_leaves, range.end(),
                             [&](std::uint32_t a, std::uint32_t b) {
                                 const double ca = boxes[a].min[axis] + boxes[a].max[axis];
                                 const double cb = boxes[b].min[axis] + boxes[b].max[axis];
                                 return ca < cb || (ca == cb && a < b);
                             });
            data = kTreeInternalBit | first_leaves;
            pending.push_back({p.lo + first_leaves, p.hi, p.node + 2 * first_leaves, decoded});
            pending.push_back({p.lo, p.lo + first_leaves, p.node + 1, decoded});
        }
        node.hiData = static_cast<std::uint8_t>(data >> 16);
        node.loData = static_cast<std::uint16_t>(data & 0xFFFFu);
    }
    return nodes;
}

Aabb tree_domain_of(const NavMesh& mesh) {
    Aabb d;
    if (mesh.faces.empty()) {
        d.min = {-FLT_MAX, -FLT_MAX, -FLT_MAX, -FLT_MAX};
        d.max = {FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX};
        return d;
    }
    if (mesh.vertices.empty()) return d;
    d.min = d.max = mesh.vertices[0];
    for (const Vec4& v : mesh.vertices) {
        d.min = {std::min(d.min.x, v.x), std::min(d.min.y, v.y), std::min(d.min.z, v.z), std::min(d.min.w, v.w)};
        d.max = {std::max(d.max.x, v.x), std::max(d.max.y, v.y), std::max(d.max.z, v.z), std::max(d.max.w, v.w)};
    }
    return d;
}

QueryMediator build_query_mediator(const NavMesh& mesh) {
    QueryMediator m;
    m.domain = tree_domain_of(mesh);
    const std::vector<Box3> boxes = face_corner_boxes(mesh);
    m.nodes = encode_aabb_tree6(boxes, m.domain);
    return m;
}

}  // namespace navlab::fromsoft
