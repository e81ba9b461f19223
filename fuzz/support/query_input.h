// The bytes → mesh and queries decoding of fuzz_query, shared with the regression tests that
// replay its reproducers (tests/query/test_query_fuzz.cpp): vertices on a coarse grid so
// corners repeat, polygons of any winding (zero-area and folded faces), one-way links, area
// bits, then four query pairs with filters. Missing bytes read as 0, so every input decodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "query/navmesh_query.h"

namespace navlab::fuzz {

/// The mesh of a fuzz_query input (the PolygonView constructor's arguments).
struct QueryFuzzMesh {
    std::vector<query::Vec3> verts;
    std::vector<std::vector<std::uint32_t>> polys;
    std::vector<query::PolygonView::Link> links;
    std::vector<std::uint32_t> bits;
};

/// One query of a fuzz_query input: from s to e under filter f.
struct QueryFuzzCase {
    query::Vec3 s, e;
    query::QueryFilter f;
};

/// Reads a fuzz_query input front to back; at most 227 bytes are read.
class QueryFuzzInput {
public:
    QueryFuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

    QueryFuzzMesh mesh() {
        QueryFuzzMesh m;
        const int nv = 3 + next() % 24;
        for (int i = 0; i < nv; ++i) m.verts.push_back({coord(), coord() / 4, coord()});
        const int np = 1 + next() % 12;
        for (int p = 0; p < np; ++p) {
            std::vector<std::uint32_t> ring;
            const int n = 3 + next() % 5;
            for (int k = 0; k < n; ++k) ring.push_back(next() % nv);
            m.polys.push_back(ring);
        }
        const int nl = next() % 3;
        for (int l = 0; l < nl; ++l)
            m.links.push_back({static_cast<std::uint32_t>(next() % np), static_cast<std::uint32_t>(next() % np),
                               {coord(), 0, coord()}, {coord(), 0, coord()}});
        for (int p = 0; p < np; ++p) m.bits.push_back(next() % 4);
        return m;
    }

    /// The next query (call after mesh(); the target asks four).
    QueryFuzzCase next_case() {
        QueryFuzzCase c;
        c.s = {coord(), coord() / 4, coord()};
        c.e = {coord(), coord() / 4, coord()};
        c.f.exclude_bits = next() % 3;
        c.f.use_links = next() % 2;
        return c;
    }

private:
    std::uint8_t next() { return at_ < size_ ? data_[at_++] : 0; }
    double coord() { return (next() % 16) * 0.5; }
    const std::uint8_t* data_;
    std::size_t size_, at_ = 0;
};

}  // namespace navlab::fuzz
