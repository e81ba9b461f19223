// Shewchuk's expansion arithmetic ("Adaptive Precision Floating-Point Arithmetic and Fast
// Robust Geometric Predicates", 1997): two_sum, two_product (with fma) and the zero-eliminating
// growth and scaling of expansions. Written from the paper's definitions.
#include "geometry/exact.h"

namespace navlab::geometry {
namespace {

/// x + y = a + b exactly, x = fl(a + b).
inline void two_sum(double a, double b, double& x, double& y) {
    x = a + b;
    double bv = x - a;
    double av = x - bv;
    y = (a - av) + (b - bv);
}

/// x + y = a * b exactly.
inline void two_product(double a, double b, double& x, double& y) {
    x = a * b;
    y = std::fma(a, b, -x);
}

/// e + b, keeping the terms nonoverlapping and increasing.
void grow(const TermBuffer& e, double b, TermBuffer& h) {
    h.clear();
    double q = b;
    for (double ei : e) {
        double s, err;
        two_sum(q, ei, s, err);
        q = s;
        if (err != 0) h.push_back(err);
    }
    if (q != 0 || h.empty()) h.push_back(q);
    if (h.size() == 1 && h[0] == 0) h.clear();
}

/// e * b.
void scale(const TermBuffer& e, double b, TermBuffer& h) {
    h.clear();
    if (e.empty() || b == 0) return;
    double q, low;
    two_product(e[0], b, q, low);
    if (low != 0) h.push_back(low);
    for (std::size_t i = 1; i < e.size(); ++i) {
        double p1, p0, sum, err;
        two_product(e[i], b, p1, p0);
        two_sum(q, p0, sum, err);
        if (err != 0) h.push_back(err);
        two_sum(p1, sum, q, err);
        if (err != 0) h.push_back(err);
    }
    if (q != 0) h.push_back(q);
}

TermBuffer sum(const TermBuffer& a, const TermBuffer& b) {
    const TermBuffer& big = a.size() >= b.size() ? a : b;
    const TermBuffer& small = a.size() >= b.size() ? b : a;
    TermBuffer acc[2];
    acc[0] = big;
    int cur = 0;
    for (double t : small) {
        grow(acc[cur], t, acc[1 - cur]);
        cur = 1 - cur;
    }
    return acc[cur];
}

}  // namespace

double Expansion::estimate() const noexcept {
    double s = 0;
    for (double t : terms_) s += t;
    return s;
}

Expansion operator+(const Expansion& a, const Expansion& b) {
    Expansion r;
    r.terms_ = sum(a.terms_, b.terms_);
    return r;
}

Expansion Expansion::operator-() const {
    Expansion r = *this;
    for (double* t = r.terms_.begin(); t != r.terms_.end(); ++t) *t = -*t;
    return r;
}

Expansion operator-(const Expansion& a, const Expansion& b) { return a + (-b); }

Expansion operator*(const Expansion& a, const Expansion& b) {
    Expansion r;
    TermBuffer part;
    for (double t : b.terms_) {
        scale(a.terms_, t, part);
        r.terms_ = sum(r.terms_, part);
    }
    return r;
}

}  // namespace navlab::geometry
