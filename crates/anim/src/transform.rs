//! A joint's local transform: translation, rotation and scale, composed as T * R * S (glTF's rule).

use glam::{Affine3A, Mat4, Quat, Vec3};

/// A local transform in parent space: `parent_from_joint = T * R * S`.
///
/// `rotation` is a unit quaternion. Values that come from files are checked once where they enter
/// (`Skeleton::new`, `Clip::new`); the per-frame stages trust them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

impl Transform {
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    pub fn from_translation(translation: Vec3) -> Self {
        Self {
            translation,
            ..Self::IDENTITY
        }
    }

    /// `parent_from_joint` as a column-major 4x4 matrix, T * R * S.
    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// `parent_from_joint` as an affine 3x4 matrix (what the hierarchy pass composes).
    pub fn to_affine(&self) -> Affine3A {
        Affine3A::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// True when every component is finite and the rotation is not the zero quaternion.
    pub fn is_valid(&self) -> bool {
        self.translation.is_finite()
            && self.rotation.is_finite()
            && self.scale.is_finite()
            && self.rotation.length_squared() > f32::EPSILON
    }
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// Whether an affine matrix's linear part is singular relative to its own scale: its
/// determinant against the cube of its longest axis (1 for a uniform scale, near 0 for
/// dependent axes or one axis flattened by a million to one). An absolute determinant would
/// call a well-conditioned matrix of small scale singular: gltfpack folds its dequantisation
/// scale into inverse binds, whose determinants are then near 1e-12.
pub fn is_singular(m: &Mat4) -> bool {
    let axes = [
        m.x_axis.truncate(),
        m.y_axis.truncate(),
        m.z_axis.truncate(),
    ];
    let longest = axes.iter().map(|a| a.length()).fold(0.0, f32::max);
    let det = glam::Mat3::from_cols(axes[0], axes[1], axes[2]).determinant();
    !(longest > 0.0 && longest.is_finite() && det.abs() > 1e-6 * longest.powi(3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec4;

    #[test]
    fn matrix_is_translate_rotate_scale_in_that_order() {
        let t = Transform {
            translation: Vec3::new(1.0, 2.0, 3.0),
            rotation: Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
            scale: Vec3::new(2.0, 1.0, 1.0),
        };
        // (1,0,0) scaled to (2,0,0), rotated 90 deg about Z to (0,2,0), translated to (1,4,3).
        let p = t.to_mat4().transform_point3(Vec3::X);
        assert!(p.abs_diff_eq(Vec3::new(1.0, 4.0, 3.0), 1e-6), "{p}");
        let q = t.to_affine().transform_point3(Vec3::X);
        assert!(q.abs_diff_eq(p, 1e-6));
    }

    #[test]
    fn singularity_is_judged_against_the_matrix_s_own_scale() {
        // A turned matrix of scale 1e-4 (determinant 1e-12) is well conditioned.
        let small = Mat4::from_scale_rotation_translation(
            Vec3::splat(1e-4),
            Quat::from_rotation_y(0.7),
            Vec3::new(3.0, 0.0, 1.0),
        );
        assert!(small.determinant().abs() < 1e-11);
        assert!(!is_singular(&small));
        // Two dependent axes, a flattened axis and zeros are singular, whatever the scale.
        let flat = Mat4::from_cols(Vec4::X * 1e3, Vec4::X * 2e3, Vec4::Z * 1e3, Vec4::W);
        assert!(is_singular(&flat));
        assert!(is_singular(&Mat4::from_scale(Vec3::new(1.0, 1e-9, 1.0))));
        assert!(is_singular(&Mat4::ZERO));
        assert!(!is_singular(&Mat4::from_scale(Vec3::new(-1.0, 2.0, 0.5))));
    }
}
