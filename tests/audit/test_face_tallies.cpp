// FirstAndBest (src/audit/audit_context.h): offering a tagfile's first and best values must
// leave a MaximumCursor exactly as offering every face's value in order, set or not, with NaN.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <random>
#include <vector>

#include "audit/audit.h"
#include "audit/audit_context.h"

using namespace navlab::audit;

namespace {

const Key m_key = Key::intern("m");

/// The extreme of key "m" in `v`; not set when it has none.
Extreme maximum_of_m(const Values& v) {
    const NamedValues named = v.named();
    auto it = named.maxima.find("m");
    return it == named.maxima.end() ? Extreme{} : it->second;
}

/// The cursor after offering `values` one by one (faces 0, 1, …), starting from `prior`.
Extreme walk(const std::vector<double>& values, const Extreme& prior) {
    Values v;
    if (prior.set) v.maximum(m_key, prior.value, prior.at);
    MaximumCursor cursor(v, m_key);
    for (std::size_t i = 0; i < values.size(); ++i) cursor.offer(values[i], [&] { return fmt::format("face {}", i); });
    return maximum_of_m(v);
}

/// The cursor after offering only FirstAndBest's two values, as the rules R40, R44, R45 do.
Extreme summarised(const std::vector<double>& values, const Extreme& prior) {
    FirstAndBest m;
    for (std::size_t i = 0; i < values.size(); ++i) m.offer(values[i], static_cast<std::int32_t>(i));
    Values v;
    if (prior.set) v.maximum(m_key, prior.value, prior.at);
    MaximumCursor cursor(v, m_key);
    m.offer_to(cursor, [](std::int32_t face) { return fmt::format("face {}", face); });
    return maximum_of_m(v);
}

void expect_same(const Extreme& a, const Extreme& b, const std::string& what) {
    ASSERT_EQ(a.set, b.set) << what;
    if (!a.set) return;
    EXPECT_TRUE(a.value == b.value || (std::isnan(a.value) && std::isnan(b.value))) << what;
    EXPECT_EQ(a.at.str(), b.at.str()) << what;
}

}  // namespace

TEST(FaceTallies, FirstAndBestOffersWhatTheWalkWouldKeep) {
    const double nan = std::nan("");
    // Hand cases: NaN first, NaN later, ties (the earlier face wins), empty, all NaN.
    std::vector<std::vector<double>> cases = {
        {}, {nan}, {nan, 1, 2}, {1, nan, 2}, {2, 1, 2}, {0.5, 0.5}, {nan, nan}, {-1, -3}, {3, 1, 3, nan, 2}};
    // Random sequences over few values so that ties and NaN are frequent.
    std::mt19937 rng(13);
    const double pool[] = {nan, -1, 0, 0.25, 1, 1, 2};
    for (int n = 0; n < 2000; ++n) {
        std::vector<double> s(rng() % 7);
        for (double& x : s) x = pool[rng() % 7];
        cases.push_back(s);
    }
    auto extreme = [](double v, const char* at) {
        Extreme e;
        e.take(v, at);
        return e;
    };
    const Extreme priors[] = {Extreme{}, extreme(0.5, "earlier tagfile"), extreme(nan, "earlier NaN"),
                              extreme(5, "earlier large")};
    for (const auto& s : cases)
        for (const Extreme& prior : priors) {
            std::string what = fmt::format("values [{}] after {}", fmt::join(s, ", "), prior.set ? prior.at.str() : "nothing");
            expect_same(walk(s, prior), summarised(s, prior), what);
        }
}
