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

    pub fn from_rotation(rotation: Quat) -> Self {
        Self {
            rotation,
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
