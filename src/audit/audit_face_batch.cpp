#include "audit/audit_face_batch.h"

namespace navlab::audit {

int FaceBatch::add(std::size_t at, int n) {
    if (n < 3 || n > kMostCorners || count_ == kMost) return -1;
    const int i = count_++;
    size_[i] = n;
    at_[i] = at;
    return i;
}

void FaceBatch::analyse(const Point* corners) {
    // Faces paired in order within each ring length; which faces share a Lanes value does
    // not matter, as every lane's operations are its own face's.
    int faces[kMostCorners + 1][kMost], count[kMostCorners + 1] = {};
    for (int i = 0; i < count_; ++i) faces[size_[i]][count[size_[i]]++] = i;
    analyse_from<3>(corners, &faces[0][0], count);
}

template <int N>
void FaceBatch::analyse_from(const Point* corners, const int* faces, const int* count) {
    const int* of_n = faces + N * kMost;
    for (int j = 0; j + 1 < count[N]; j += 2) analyse_pair<N>(corners, of_n[j], of_n[j + 1]);
    if (count[N] % 2 != 0) analyse_pair<N>(corners, of_n[count[N] - 1], of_n[count[N] - 1]);
    if constexpr (N < kMostCorners) analyse_from<N + 1>(corners, faces, count);
}

template <int N>
void FaceBatch::analyse_pair(const Point* corners, int a, int b) {
    Vec3<Lanes> p[N];
    for (int k = 0; k < N; ++k) {
        const Point &pa = corners[at_[a] + k], &pb = corners[at_[b] + k];
        p[k] = {Lanes{pa.x, pb.x}, Lanes{pa.y, pb.y}, Lanes{pa.z, pb.z}};
    }
    // FacePlane: N and its bound, |N|.
    const NewellSum<Lanes> normal = newell_sum(p, N);
    const Lanes length = length_of(normal.value);
    // R40: max_distance_from_mean_plane.
    const FarthestCorner<Lanes> far = farthest_from_mean_plane(p, N, normal.value, length);
    // R44: check_triangulation of the last-corner fan, its triangles in order.
    Lanes sum = splat<Lanes>(0);
    for (int k = 0; k < N - 2; ++k) {
        const Cut cut = last_corner_fan_triangle(N, k);
        sum += projected_area(p[cut[0]] - p[0], p[cut[1]] - p[0], p[cut[2]] - p[0], normal.value, length);
    }
    const Lanes face = length / 2.0, relative = relative_difference(sum, face);
    const int faces[2] = {a, b};
    for (int lane = 0; lane < kLanes; ++lane) {
        FaceFigures& f = figures_[faces[lane]];
        f.normal = FacePlane::approx_normal({{normal.value.x[lane], normal.value.y[lane], normal.value.z[lane]},
                                             {normal.error.x[lane], normal.error.y[lane], normal.error.z[lane]}});
        f.length = length[lane];
        f.off_plane = {far.distance[lane], static_cast<int>(far.corner[lane])};
        f.fan_check = {};
        f.fan_check.projected_face = face[lane];
        if (length[lane] > 0) {  // check_triangulation leaves the sums 0 without a plane
            f.fan_check.projected_sum = sum[lane];
            f.fan_check.projected_relative = relative[lane];
        }
    }
}

}  // namespace navlab::audit
