// `exact` mode (placeholder while the interval search lands).
#include "query/query_mesh.h"

namespace navlab::query {

PathResult NavMeshQuery::Impl::exact_path(std::uint32_t sp, const Vec3& s, std::uint32_t ep, const Vec3& e,
                                          const QueryFilter& f) const {
    PathResult r = corridor_path(sp, s, ep, e, f);
    r.mode = PathMode::Exact;
    return r;
}

}  // namespace navlab::query
