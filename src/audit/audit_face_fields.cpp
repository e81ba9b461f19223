#include "audit/audit_face_fields.h"

#include <cstring>

namespace navlab::audit {

FaceFieldBounds bound_face_fields(std::span<const fromsoft::Face> faces) {
    // A face's eight 16-bit pieces side by side (GCC/Clang vector extension: SSE2's pminsw and
    // pmaxsw on x86-64); `v < lo ? v : lo` is the lane-wise minimum. Two pairs of bounds, so
    // a face's compares wait on the face before last, not the last.
    using Lanes = std::int16_t __attribute__((vector_size(16)));
    static_assert(sizeof(Lanes) == sizeof(fromsoft::Face) && FaceFieldBounds::kLanes == 8);
    FaceFieldBounds out;
    if (faces.empty()) return out;
    auto load = [&](std::size_t i) {
        Lanes v;
        std::memcpy(&v, &faces[i], sizeof v);
        return v;
    };
    Lanes lo[2] = {load(0), load(0)}, hi[2] = {lo[0], lo[0]};
    std::size_t i = 1;
    for (; i + 2 <= faces.size(); i += 2)
        for (std::size_t k = 0; k < 2; ++k) {
            const Lanes v = load(i + k);
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = hi[k] < v ? v : hi[k];
        }
    if (i < faces.size()) {
        const Lanes v = load(i);
        lo[0] = v < lo[0] ? v : lo[0];
        hi[0] = hi[0] < v ? v : hi[0];
    }
    const Lanes lo_all = lo[1] < lo[0] ? lo[1] : lo[0], hi_all = hi[0] < hi[1] ? hi[1] : hi[0];
    out.any = true;
    for (std::size_t k = 0; k < FaceFieldBounds::kLanes; ++k) out.min[k] = lo_all[k], out.max[k] = hi_all[k];
    return out;
}

}  // namespace navlab::audit
