//! Cameras: a look-at perspective camera (right-handed, Y up, like glTF), an orbit controller,
//! and framing a box.

use glam::{Mat4, Vec3};

/// A camera looking from `eye` at `target` with `up` (+Y for the viewer's own cameras); a
/// perspective one unless `orthographic_ymag` (half the view's height) is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub eye: Vec3,
    pub target: Vec3,
    /// Vertical field of view.
    pub fov_y_degrees: f32,
    pub near: f32,
    pub far: f32,
    pub up: Vec3,
    pub orthographic_ymag: Option<f32>,
}

impl Camera {
    /// A perspective camera, +Y up.
    pub fn look_at(eye: Vec3, target: Vec3, fov_y_degrees: f32, near: f32, far: f32) -> Self {
        Self {
            eye,
            target,
            fov_y_degrees,
            near,
            far,
            up: Vec3::Y,
            orthographic_ymag: None,
        }
    }

    /// A glTF camera node's view: it looks down the node's -Z with its +Y up, from
    /// `world_from_camera` (its posed node transform; scale is ignored). The Khronos Sample
    /// Viewer, like this one, takes the aspect from the viewport, not the file.
    pub fn from_node(world_from_camera: Mat4, projection: crate::character::Projection) -> Self {
        let (_, rotation, eye) = world_from_camera.to_scale_rotation_translation();
        let forward = rotation * Vec3::NEG_Z;
        let up = rotation * Vec3::Y;
        let (fov_y_degrees, near, far, ortho) = match projection {
            crate::character::Projection::Perspective {
                yfov_radians,
                znear,
                zfar,
            } => (
                yfov_radians.to_degrees(),
                znear,
                zfar.unwrap_or(znear * 1e6),
                None,
            ),
            crate::character::Projection::Orthographic { ymag, znear, zfar } => {
                (45.0, znear, zfar, Some(ymag.abs()))
            }
        };
        Self {
            eye,
            target: eye + forward,
            fov_y_degrees,
            near,
            far,
            up,
            orthographic_ymag: ortho,
        }
    }

    /// `clip_from_world = projection * view`, depth in [0, 1] (wgpu).
    pub fn clip_from_world(&self, aspect: f32) -> Mat4 {
        let forward = (self.target - self.eye).normalize_or_zero();
        let up = if forward.cross(self.up).length_squared() < 1e-12 {
            // Looking along `up`: any perpendicular will do.
            if forward.abs().abs_diff_eq(Vec3::Y, 1e-6) {
                Vec3::Z
            } else {
                Vec3::Y
            }
        } else {
            self.up
        };
        let view = glam::camera::rh::view::look_at_mat4(self.eye, self.target, up);
        // wgpu's clip space is DirectX's: z in [0, 1], y up.
        let projection = match self.orthographic_ymag {
            Some(ymag) => {
                let xmag = ymag * aspect;
                glam::camera::rh::proj::directx::orthographic(
                    -xmag, xmag, -ymag, ymag, self.near, self.far,
                )
            }
            None => glam::camera::rh::proj::directx::perspective(
                self.fov_y_degrees.to_radians(),
                aspect,
                self.near,
                self.far,
            ),
        };
        projection * view
    }

    /// A camera that sees the box `min..max` whole (see `OrbitCamera::framing`).
    pub fn framing(min: Vec3, max: Vec3, fov_y_degrees: f32, aspect: f32) -> Self {
        OrbitCamera::framing(min, max, fov_y_degrees, aspect).camera()
    }
}

/// Orbit, pan and zoom around a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    pub target: Vec3,
    pub distance: f32,
    /// Rotation about +Y; 0 looks from +Z.
    pub yaw_radians: f32,
    /// Elevation; positive looks down from above.
    pub pitch_radians: f32,
    pub fov_y_degrees: f32,
    /// Radius of what is framed: sets the near and far planes.
    pub radius: f32,
}

impl OrbitCamera {
    /// Looks at the box's centre from a three-quarter view (30 degrees to the right of the front,
    /// +Z, where glTF characters face, and 15 degrees above), from the nearest distance at which
    /// all eight corners are inside the view (plus a 5% margin).
    pub fn framing(min: Vec3, max: Vec3, fov_y_degrees: f32, aspect: f32) -> Self {
        let center = (min + max) * 0.5;
        let radius = ((max - min).length() * 0.5).max(1e-3);
        let mut camera = Self {
            target: center,
            distance: 1.0,
            yaw_radians: 30f32.to_radians(),
            pitch_radians: 15f32.to_radians(),
            fov_y_degrees,
            radius,
        };
        let tan_y = (fov_y_degrees.to_radians() * 0.5).clamp(0.01, 1.5).tan();
        let tan_x = tan_y * aspect.max(1e-3);
        let toward_eye = (camera.eye() - center).normalize();
        let right = Vec3::Y.cross(toward_eye).normalize_or(Vec3::X);
        let up = toward_eye.cross(right);
        let mut distance: f32 = 0.0;
        for corner in 0..8 {
            let p = Vec3::new(
                if corner & 1 == 0 { min.x } else { max.x },
                if corner & 2 == 0 { min.y } else { max.y },
                if corner & 4 == 0 { min.z } else { max.z },
            ) - center;
            // The corner sits `z` closer to the eye than the target; it fits when its offsets
            // across the view are within the frustum at depth `distance - z`.
            let z = p.dot(toward_eye);
            distance = distance
                .max(z + p.dot(right).abs() / tan_x)
                .max(z + p.dot(up).abs() / tan_y);
        }
        camera.distance = (distance * 1.05).max(radius * 0.1);
        camera
    }

    pub fn eye(&self) -> Vec3 {
        let (sy, cy) = self.yaw_radians.sin_cos();
        let (sp, cp) = self.pitch_radians.sin_cos();
        self.target + Vec3::new(sy * cp, sp, cy * cp) * self.distance
    }

    pub fn camera(&self) -> Camera {
        Camera::look_at(
            self.eye(),
            self.target,
            self.fov_y_degrees,
            (self.distance - 2.0 * self.radius).max(self.distance * 0.01),
            self.distance + 4.0 * self.radius,
        )
    }

    /// Turns about the target by the given angles; pitch stays short of the poles.
    pub fn orbit(&mut self, yaw_radians: f32, pitch_radians: f32) {
        self.yaw_radians += yaw_radians;
        self.pitch_radians = (self.pitch_radians + pitch_radians).clamp(-1.55, 1.55);
    }

    /// Moves the target across the view by fractions of the distance.
    pub fn pan(&mut self, right: f32, up: f32) {
        let forward = (self.target - self.eye()).normalize_or_zero();
        let right_axis = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let up_axis = right_axis.cross(forward);
        self.target += (right_axis * right + up_axis * up) * self.distance;
    }

    /// Multiplies the distance (below 1 moves closer).
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance =
                (self.distance * factor).clamp(self.radius * 0.05, self.radius * 1000.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_puts_the_box_inside_the_view() {
        let (min, max) = (Vec3::new(-1.0, 0.0, -0.5), Vec3::new(1.0, 3.0, 0.5));
        let cam = Camera::framing(min, max, 45.0, 16.0 / 9.0);
        let m = cam.clip_from_world(16.0 / 9.0);
        for corner in 0..8 {
            let p = Vec3::new(
                if corner & 1 == 0 { min.x } else { max.x },
                if corner & 2 == 0 { min.y } else { max.y },
                if corner & 4 == 0 { min.z } else { max.z },
            );
            let clip = m * p.extend(1.0);
            let ndc = clip.truncate() / clip.w;
            assert!(
                ndc.x.abs() <= 1.0 && ndc.y.abs() <= 1.0 && (0.0..=1.0).contains(&ndc.z),
                "{p} -> {ndc}"
            );
        }
        // Seen from the front (+Z), a little to the right and above.
        assert!(cam.eye.z > 1.0 && cam.eye.x > 0.0 && cam.eye.y > 1.5);
    }
}
