#include "formats/igi/routes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <queue>
#include <tuple>

namespace navlab::igi {
namespace {

constexpr double kUnreachable = std::numeric_limits<double>::infinity();
constexpr std::size_t kMaxTableBytes = std::size_t{64} << 20;

/// Nodes by slot and links as adjacency lists with Euclidean lengths.
class LinkGraph {
public:
    explicit LinkGraph(const Graph& g)
        : slots_(static_cast<std::size_t>(std::min(g.max_nodes, kMaxNodeId))), node_(slots_, nullptr),
          neighbours_(slots_), linked_(slots_ * slots_, false) {
        for (const Node& node : g.nodes) node_[static_cast<std::size_t>(node.id)] = &node;
        for (const Link& link : g.links) {
            if (link.id1 == link.id2) continue;  // a self-link never shortens a path
            const auto a = static_cast<std::size_t>(link.id1), b = static_cast<std::size_t>(link.id2);
            linked_[a * slots_ + b] = linked_[b * slots_ + a] = true;
            const double length = distance(node_[a]->position, node_[b]->position);
            if (!std::isfinite(length)) continue;  // NaN/inf positions: no usable length
            neighbours_[a].push_back({link.id2, length});
            neighbours_[b].push_back({link.id1, length});
        }
    }

    /// Whether `id` names a node (any int32 may be asked).
    bool is_node(std::int64_t id) const {
        return id >= 0 && static_cast<std::uint64_t>(id) < slots_ && node_[static_cast<std::size_t>(id)];
    }
    bool linked(std::int32_t a, std::int32_t b) const {
        return linked_[static_cast<std::size_t>(a) * slots_ + static_cast<std::size_t>(b)];
    }
    double length(std::int32_t a, std::int32_t b) const {
        return distance(node_[static_cast<std::size_t>(a)]->position, node_[static_cast<std::size_t>(b)]->position);
    }

    /// Shortest-path tree grown from `target`: distance, link count and parent (= the next
    /// node from each node towards the target). Ties: fewer links, then the lower parent id.
    struct Tree {
        std::vector<double> dist;
        std::vector<std::int32_t> hops, parent;
    };
    Tree grow(std::int32_t target) const {
        Tree t{std::vector<double>(slots_, kUnreachable), std::vector<std::int32_t>(slots_, 0),
               std::vector<std::int32_t>(slots_, -1)};
        using Key = std::tuple<double, std::int32_t, std::int32_t>;  // dist, hops, node
        std::priority_queue<Key, std::vector<Key>, std::greater<>> queue;
        t.dist[static_cast<std::size_t>(target)] = 0;
        queue.push({0.0, 0, target});
        while (!queue.empty()) {
            const auto [d, h, u] = queue.top();
            queue.pop();
            const auto su = static_cast<std::size_t>(u);
            if (d != t.dist[su] || h != t.hops[su]) continue;  // stale entry
            for (const auto& [v, w] : neighbours_[su]) {
                const auto sv = static_cast<std::size_t>(v);
                const double nd = d + w;
                const std::int32_t nh = h + 1;
                const bool better = nd < t.dist[sv] || (nd == t.dist[sv] && nh < t.hops[sv]);
                if (better) {
                    t.dist[sv] = nd, t.hops[sv] = nh, t.parent[sv] = u;
                    queue.push({nd, nh, v});
                } else if (nd == t.dist[sv] && nh == t.hops[sv] && u < t.parent[sv]) {
                    t.parent[sv] = u;  // same key: the lower id wins, whatever the heap order
                }
            }
        }
        return t;
    }

    std::size_t slots() const { return slots_; }

private:
    struct Edge {
        std::int32_t to;
        double length;
    };
    std::size_t slots_;
    std::vector<const Node*> node_;
    std::vector<std::vector<Edge>> neighbours_;
    std::vector<bool> linked_;
};

bool is_sentinel(const RouteEntry& e) {
    static constexpr float kNone = -1.0f;
    return e.next == -1 && std::memcmp(&e.cost, &kNone, sizeof kNone) == 0;
}

/// Walks every route towards one target, memoising each node's outcome so a column costs
/// O(N) steps.
class ColumnWalker {
public:
    ColumnWalker(const Graph& g, const LinkGraph& links, std::int32_t target)
        : g_(g), links_(links), target_(target), state_(links.slots(), State::Unknown), length_(links.slots(), 0),
          failure_(links.slots(), 0) {}

    struct Outcome {
        bool ok;
        double length;                // when ok
        RouteProblem problem;         // when not ok
        const std::string* detail;    // when not ok
    };

    /// Follows next nodes from `from` (a node with a stored route) to the target.
    Outcome walk(std::int32_t from) {
        std::vector<std::int32_t> path;
        std::int32_t cur = from;
        std::size_t fail = 0;
        double end_length = 0;
        for (;;) {
            const auto s = static_cast<std::size_t>(cur);
            if (cur == target_) break;
            if (state_[s] == State::Ok) {
                end_length = length_[s];
                break;
            }
            if (state_[s] == State::Failed) {
                fail = failure_[s];
                break;
            }
            if (state_[s] == State::OnPath) {
                fail = add_failure(RouteProblem::Loop, fmt::format("the walk returns to node {}", cur));
                break;
            }
            state_[s] = State::OnPath;
            path.push_back(cur);
            const std::int32_t next = g_.routes[g_.route_index(cur, target_)].next;
            if (next == -1) {
                fail = add_failure(RouteProblem::DeadEnd, fmt::format("entry ({}, {}) has no route", cur, target_));
                break;
            }
            if (!links_.is_node(next)) {
                fail = add_failure(RouteProblem::BadNext,
                                   fmt::format("entry ({}, {}) names next node {}, which does not exist", cur, target_, next));
                break;
            }
            if (!links_.linked(cur, next)) {
                fail = add_failure(RouteProblem::NotALink, fmt::format("step {} -> {} is not a link", cur, next));
                break;
            }
            cur = next;
        }
        // Settle the path back to front: lengths accumulate from the end of the walk.
        for (auto it = path.rbegin(); it != path.rend(); ++it) {
            const auto s = static_cast<std::size_t>(*it);
            if (fail) {
                state_[s] = State::Failed, failure_[s] = fail;
                continue;
            }
            const std::int32_t next = g_.routes[g_.route_index(*it, target_)].next;
            end_length += links_.length(*it, next);
            state_[s] = State::Ok, length_[s] = end_length;
        }
        const auto s = static_cast<std::size_t>(from);
        if (state_[s] == State::Ok) return {true, length_[s], RouteProblem::Loop, nullptr};
        const Failure& f = failures_[failure_[s] - 1];
        return {false, 0, f.problem, &f.detail};
    }

private:
    enum class State : std::uint8_t { Unknown, OnPath, Ok, Failed };
    struct Failure {
        RouteProblem problem;
        std::string detail;
    };
    std::size_t add_failure(RouteProblem problem, std::string detail) {
        failures_.push_back({problem, std::move(detail)});
        return failures_.size();  // 1-based; 0 = none
    }

    const Graph& g_;
    const LinkGraph& links_;
    std::int32_t target_;
    std::vector<State> state_;
    std::vector<double> length_;
    std::vector<std::size_t> failure_;
    std::vector<Failure> failures_;
};

class ReportBuilder {
public:
    ReportBuilder(RouteReport& report, std::size_t max_examples) : report_(report), max_examples_(max_examples) {
        for (std::size_t k = 0; k < kRouteProblemCount; ++k)
            report_.problems.push_back({static_cast<RouteProblem>(k), 0, {}});
    }
    void add(RouteProblem problem, std::int32_t from, std::int32_t to, std::string detail) {
        ProblemCount& c = report_.problems[static_cast<std::size_t>(problem)];
        ++c.count;
        if (c.examples.size() < max_examples_) c.examples.push_back({from, to, std::move(detail)});
        if (to >= 0) report_.target_valid[static_cast<std::size_t>(to)] = false;
    }

private:
    RouteReport& report_;
    std::size_t max_examples_;
};

/// Checks one column (all routes towards `to`).
void check_target(const Graph& g, const LinkGraph& links, std::int32_t to, RouteReport& report, ReportBuilder& out) {
    const bool target_is_node = links.is_node(to);
    LinkGraph::Tree tree;
    if (target_is_node) tree = links.grow(to);
    ColumnWalker walker(g, links, to);
    for (std::int32_t from = 0; from < g.max_nodes; ++from) {
        const RouteEntry& e = g.routes[g.route_index(from, to)];
        const char* why = !target_is_node || !links.is_node(from) ? "unused slot"
                          : from == to                            ? "same node"
                          : tree.dist[static_cast<std::size_t>(from)] == kUnreachable ? "unreachable pair"
                                                                                       : nullptr;
        if (why) {
            if (!is_sentinel(e))
                out.add(RouteProblem::NotSentinel, from, to,
                        fmt::format("{} holds {{{}, {}}} instead of {{-1, -1.0}}", why, e.next, e.cost));
            continue;
        }
        ++report.reachable_pairs;
        const double shortest = tree.dist[static_cast<std::size_t>(from)];
        if (e.next == -1) {
            out.add(RouteProblem::MissingRoute, from, to, fmt::format("no route stored; the shortest path is {:.3f}", shortest));
            continue;
        }
        const ColumnWalker::Outcome walked = walker.walk(from);
        if (!walked.ok) {
            out.add(walked.problem, from, to, *walked.detail);
            continue;
        }
        ++report.routes_walked;
        const double difference = std::fabs(static_cast<double>(e.cost) - walked.length);
        if (report.max_difference_from < 0 || difference > report.max_cost_difference || std::isnan(difference)) {
            report.max_cost_difference = difference;
            report.max_difference_from = from, report.max_difference_to = to;
        }
        if (!costs_match(e.cost, walked.length))
            out.add(RouteProblem::CostMismatch, from, to,
                    fmt::format("stored cost {} but the path walked is {:.3f} long", e.cost, walked.length));
        if (!costs_match(walked.length, shortest))
            out.add(RouteProblem::NotShortest, from, to,
                    fmt::format("the path walked is {:.3f} long, the shortest is {:.3f}", walked.length, shortest));
    }
}

}  // namespace

std::string_view problem_name(RouteProblem problem) {
    static constexpr std::string_view names[kRouteProblemCount] = {
        "missing_table", "bad_next",      "not_a_link",   "loop",        "dead_end",
        "missing_route", "cost_mismatch", "not_shortest", "not_sentinel"};
    return names[static_cast<std::size_t>(problem)];
}

std::size_t RouteReport::problem_total() const {
    std::size_t total = 0;
    for (const auto& p : problems) total += p.count;
    return total;
}

bool costs_match(double stored, double expected) {
    return std::fabs(stored - expected) <= 0.01 + 1e-5 * std::fabs(expected);
}

RouteReport check_routes(const Graph& graph, std::size_t max_examples) {
    validate_graph(graph);
    RouteReport report;
    ReportBuilder out(report, max_examples);
    if (graph.routes.empty()) {
        out.add(RouteProblem::MissingTable, -1, -1, "the file has no RouteTable");
        return report;
    }
    const auto n = static_cast<std::size_t>(graph.max_nodes);
    report.entries = n * n;
    report.target_valid.assign(n, true);
    const LinkGraph links(graph);
    for (std::int32_t to = 0; to < graph.max_nodes; ++to) check_target(graph, links, to, report, out);
    return report;
}

RouteRebuild rebuild_routes(const Graph& graph, bool keep_valid) {
    validate_graph(graph);
    const auto n = static_cast<std::size_t>(graph.max_nodes);
    if (n * n * sizeof(RouteEntry) > kMaxTableBytes)
        throw Error(fmt::format("a {}×{} route table would take {} bytes; navlab builds at most {}", n, n,
                                n * n * sizeof(RouteEntry), kMaxTableBytes),
                    kNoOffset, "nMaxNodes");
    RouteRebuild out;
    out.table = empty_route_table(graph.max_nodes);
    std::vector<bool> keep(n, false);
    if (keep_valid && !graph.routes.empty()) keep = check_routes(graph, 0).target_valid;
    const LinkGraph links(graph);
    for (std::int32_t to = 0; to < graph.max_nodes; ++to) {
        const auto column = static_cast<std::size_t>(to) * n;
        if (keep[static_cast<std::size_t>(to)]) {
            std::copy_n(graph.routes.begin() + static_cast<std::ptrdiff_t>(column), n,
                        out.table.begin() + static_cast<std::ptrdiff_t>(column));
            ++out.kept_targets;
            continue;
        }
        ++out.rebuilt_targets;
        if (!links.is_node(to)) continue;
        const LinkGraph::Tree tree = links.grow(to);
        for (std::size_t from = 0; from < links.slots(); ++from) {
            if (static_cast<std::int32_t>(from) == to || tree.dist[from] == kUnreachable) continue;
            if (tree.dist[from] > std::numeric_limits<float>::max())
                throw Error(fmt::format("the route from {} to {} is {:g} units long, more than a float32 cost holds",
                                        from, to, tree.dist[from]),
                            kNoOffset, "RouteTable");
            out.table[column + from] = {tree.parent[from], static_cast<float>(tree.dist[from])};
        }
    }
    return out;
}

}  // namespace navlab::igi
