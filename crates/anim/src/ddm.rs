//! Direct delta mush's runtime (Le and Lewis, "Direct Delta Mush Skinning and Variants",
//! SIGGRAPH 2019, variant 0), the CPU reference of `shaders/ddm.wgsl`. Per vertex i the
//! precomputed Ω_ij (symmetric 4x4, one per joint j kept for the vertex) and this frame's skin
//! matrices M_j give Q = Σ_j M_j Ω_ij, normalised so its corner is 1; with Q's top-left 3x3
//! Q₃, top-right column q and bottom row p, the vertex's rotation R is the polar rotation of
//! Q₃ − q pᵀ (by a 3x3 SVD through Jacobi iterations) and its translation t = q − R p. The
//! (morphed) rest vertex v moves to R v + t, its normal and tangent by R.
//!
//! The SVD takes six Jacobi sweeps, with U's third column the cross of its first two, so R is a
//! rotation even where the blended matrix is a reflection (which libigl's U Vᵀ would not be).
//! Morph targets apply before, as they do before linear blend.
//!
//! The precomputation (Laplacian smoothing of the weights and of Ψ) is `deform::ddm`'s.

use glam::{Mat3, Mat4, Vec3, Vec4};

/// One (vertex, joint) term of Ω: the upper triangle of the symmetric Ω_ij row by row
/// ((0,0) (0,1) (0,2) (0,3) (1,1) (1,2) (1,3) (2,2) (2,3) (3,3)) and the joint's palette index
/// (as the vertex's influences name joints).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OmegaEntry {
    pub omega: [f32; 10],
    pub joint: u32,
}

/// The symmetric 4x4 an entry's upper triangle stands for.
pub fn omega_matrix(o: &[f32; 10]) -> Mat4 {
    Mat4::from_cols(
        Vec4::new(o[0], o[1], o[2], o[3]),
        Vec4::new(o[1], o[4], o[5], o[6]),
        Vec4::new(o[2], o[5], o[7], o[8]),
        Vec4::new(o[3], o[6], o[8], o[9]),
    )
}

/// The vertex's rigid transform (R, t) from its Ω entries, centred on its smoothed centroid
/// `centroid` (`deform::ddm` stores Ω'_ij = T₋ₚ Ω_ij T₋ₚᵀ: the same Q₃ − q pᵀ without the
/// cancellation of large terms in f32), and the palette (`mesh_from_bind`): each M_j is taken
/// as M_j T_p. `None` without entries, with a joint outside the palette, or when Q's corner
/// vanishes. The vertex v moves to R v + t.
pub fn ddm_transform(
    palette: &[Mat4],
    centroid: Vec3,
    entries: &[OmegaEntry],
) -> Option<(Mat3, Vec3)> {
    if entries.is_empty() {
        return None;
    }
    let mut q = Mat4::ZERO;
    for e in entries {
        let m = *palette.get(e.joint as usize)?;
        let centred = Mat4::from_cols(m.x_axis, m.y_axis, m.z_axis, m * centroid.extend(1.0));
        q += centred * omega_matrix(&e.omega);
    }
    let corner = q.w_axis.w;
    if corner.abs() < 1e-12 || !corner.is_finite() {
        return None;
    }
    let q = q * (1.0 / corner);
    let top_left = Mat3::from_cols(
        q.x_axis.truncate(),
        q.y_axis.truncate(),
        q.z_axis.truncate(),
    );
    let column = q.w_axis.truncate();
    let row = Vec3::new(q.x_axis.w, q.y_axis.w, q.z_axis.w);
    // Q₃ − q pᵀ: column c of the outer product is q * p[c].
    let m = top_left - Mat3::from_cols(column * row.x, column * row.y, column * row.z);
    let r = polar_rotation(m);
    // In centred coordinates v' = v − centroid moves to R v' + q − R p.
    Some((r, column - r * (row + centroid)))
}

/// CPU reference of direct delta mush of a (morphed) rest position and normal (renormalised).
pub fn ddm_skin(
    palette: &[Mat4],
    centroid: Vec3,
    entries: &[OmegaEntry],
    position: Vec3,
    normal: Vec3,
) -> Option<(Vec3, Vec3)> {
    let (r, t) = ddm_transform(palette, centroid, entries)?;
    Some((r * position + t, (r * normal).normalize_or_zero()))
}

/// Jacobi sweeps of the 3x3 symmetric eigenproblem: each sweep zeroes the three off-diagonal
/// pairs in turn; six converge to f32 precision.
pub const JACOBI_SWEEPS: usize = 6;

/// The rotation nearest `m` (its polar rotation when det m > 0): m = U Σ Vᵀ by the eigenvectors
/// V of mᵀm (Jacobi), U's columns m vᵢ / σᵢ for the two largest σ made orthonormal, the third
/// their cross product, so the result is a rotation whatever m's determinant; R = U Vᵀ. The
/// same steps as `polar_rotation` in `shaders/ddm.wgsl`.
pub fn polar_rotation(m: Mat3) -> Mat3 {
    let s = m.transpose() * m;
    let mut a = [
        [s.x_axis.x, s.y_axis.x, s.z_axis.x],
        [s.x_axis.y, s.y_axis.y, s.z_axis.y],
        [s.x_axis.z, s.y_axis.z, s.z_axis.z],
    ];
    let mut v = [[1.0f32, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for _ in 0..JACOBI_SWEEPS {
        for (p, q) in [(0usize, 1usize), (0, 2), (1, 2)] {
            jacobi_rotate(&mut a, &mut v, p, q);
        }
    }
    // Eigenvectors as columns v[.][k], ordered by eigenvalue, largest first.
    let mut order = [0usize, 1, 2];
    order.sort_by(|&i, &j| a[j][j].total_cmp(&a[i][i]));
    let col = |k: usize| Vec3::new(v[0][k], v[1][k], v[2][k]);
    let (v0, v1) = (col(order[0]), col(order[1]));
    let v2 = v0.cross(v1);
    let u0 = (m * v0).try_normalize().unwrap_or(v0);
    let u1 = m * v1;
    let u1 = (u1 - u0 * u0.dot(u1))
        .try_normalize()
        .unwrap_or_else(|| u0.any_orthonormal_vector());
    let u2 = u0.cross(u1);
    Mat3::from_cols(u0, u1, u2) * Mat3::from_cols(v0, v1, v2).transpose()
}

/// One Jacobi rotation zeroing a[p][q] (a symmetric, row-major), accumulated into v.
fn jacobi_rotate(a: &mut [[f32; 3]; 3], v: &mut [[f32; 3]; 3], p: usize, q: usize) {
    let apq = a[p][q];
    if apq.abs() <= 1e-30 {
        return;
    }
    let theta = (a[q][q] - a[p][p]) / (2.0 * apq);
    let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
    let c = 1.0 / (t * t + 1.0).sqrt();
    let s = t * c;
    for row in a.iter_mut() {
        let (akp, akq) = (row[p], row[q]);
        row[p] = c * akp - s * akq;
        row[q] = s * akp + c * akq;
    }
    let (row_p, row_q) = (a[p], a[q]);
    for k in 0..3 {
        a[p][k] = c * row_p[k] - s * row_q[k];
        a[q][k] = s * row_p[k] + c * row_q[k];
    }
    for row in v.iter_mut() {
        let (vp, vq) = (row[p], row[q]);
        row[p] = c * vp - s * vq;
        row[q] = s * vp + c * vq;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn the_polar_rotation_of_a_rotation_times_a_stretch_is_the_rotation() {
        let r = Mat3::from_quat(Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0));
        let stretch = Mat3::from_cols(
            Vec3::new(2.0, 0.3, 0.0),
            Vec3::new(0.3, 0.7, 0.1),
            Vec3::new(0.0, 0.1, 1.3),
        );
        let got = polar_rotation(r * stretch);
        for (a, b) in got.to_cols_array().iter().zip(r.to_cols_array()) {
            assert!((a - b).abs() < 1e-5, "{got} {r}");
        }
        // A reflection is not a rotation: the nearest rotation flips its smallest axis back
        // (diag(1, 2, -0.5) is nearest the identity: |m - I|² = 3.25, against 5.25 or more for
        // the half turns).
        let flipped = polar_rotation(Mat3::from_diagonal(Vec3::new(1.0, 2.0, -0.5)));
        assert!((flipped.determinant() - 1.0).abs() < 1e-5);
        assert!((flipped * Vec3::Z - Vec3::Z).length() < 1e-5, "{flipped}");
    }

    #[test]
    fn one_joint_s_omega_moves_the_vertex_by_that_joint() {
        // Ω = u uᵀ for the vertex u itself: Q = M u uᵀ, so R, t are M's (rigid M).
        let u = Vec4::new(0.2, 1.0, -0.3, 1.0);
        let outer = |p: Vec4| {
            [
                p.x * p.x,
                p.x * p.y,
                p.x * p.z,
                p.x,
                p.y * p.y,
                p.y * p.z,
                p.y,
                p.z * p.z,
                p.z,
                1.0,
            ]
        };
        // A single outer product is rank one: Q₃ − q pᵀ vanishes and the rotation is
        // undetermined, so three more terms at other points give it rank three.
        let mut omega = outer(u);
        for p in [
            Vec4::new(1.0, 0.0, 0.0, 1.0),
            Vec4::new(0.0, 0.0, 1.0, 1.0),
            Vec4::new(0.0, 2.0, 0.0, 1.0),
        ] {
            for (a, b) in omega.iter_mut().zip(outer(p)) {
                *a += b;
            }
        }
        let m =
            Mat4::from_rotation_translation(Quat::from_rotation_y(0.8), Vec3::new(1.0, 2.0, 3.0));
        let entries = [OmegaEntry { omega, joint: 1 }];
        let (p, n) = ddm_skin(
            &[Mat4::IDENTITY, m],
            Vec3::ZERO,
            &entries,
            u.truncate(),
            Vec3::X,
        )
        .unwrap();
        assert!(
            (p - m.transform_point3(u.truncate())).length() < 1e-5,
            "{p}"
        );
        assert!((n - m.transform_vector3(Vec3::X)).length() < 1e-5, "{n}");
    }
}
