//! Pose drivers: a driver joint's local rotation (whole, or its swing or
//! its twist about the bone) read against authored poses, and each pose's output values
//! (corrective morph weights, helper joints' offsets) interpolated by radial basis functions
//! over the quaternion distance, as Unreal's Pose Driver does. The solve makes each authored
//! pose's weight exactly one there and the others zero (the kernel matrix inverted); the
//! weights are then clamped to 0..1 and normalised when they sum over one, so the outputs, a
//! mix of the rest values and the poses' values, stay within their range and fall to the rest
//! values far from every pose. Pure data and functions over glam; no allocation per frame.

use glam::{Quat, Vec3};

/// The most poses a driver holds (its solve is dense, N x N).
pub const MAX_POSES: usize = 64;

/// What of the driver joint's local rotation is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriverMode {
    /// The whole rotation.
    Full,
    /// Only its swing: where it takes the bone's axis, the turn about the bone left out.
    Swing,
    /// Only its twist about the bone.
    Twist,
}

/// Why a driver cannot be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DriverError {
    #[error("a pose driver needs 1 to {MAX_POSES} poses, not {0}")]
    Poses(usize),
    #[error("pose {pose} has {got} output values; the driver has {want} outputs")]
    Outputs {
        pose: usize,
        got: usize,
        want: usize,
    },
    #[error("the kernel width must be a positive angle, not {0}")]
    Width(f32),
    #[error("poses {0} and {1} are the same rotation: their outputs cannot both be met")]
    Duplicate(usize, usize),
    #[error("a value is not a finite number (pose {0})")]
    NotFinite(usize),
}

/// `rotation` split about the unit `axis` as `swing * twist`: the twist turns about the axis
/// (its angle in -pi..pi: the rotation is taken with w >= 0), the swing takes the axis where
/// `rotation` takes it, by the shortest arc.
pub fn swing_twist(rotation: Quat, axis: Vec3) -> (Quat, Quat) {
    let r = rotation.normalize();
    let r = if r.w < 0.0 { -r } else { r };
    let along = axis * Vec3::new(r.x, r.y, r.z).dot(axis);
    let twist = Quat::from_xyzw(along.x, along.y, along.z, r.w);
    let twist = if twist.length_squared() < 1e-12 {
        Quat::IDENTITY
    } else {
        twist.normalize()
    };
    ((r * twist.inverse()).normalize(), twist)
}

/// A pose driver, solved: see the module's documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseDriver {
    pub mode: DriverMode,
    /// The bone's axis in the driver joint's frame (toward its child), unit length.
    pub axis: Vec3,
    /// The Gaussian kernel's width, radians: a pose this far away weighs e^-1 before the solve.
    pub width: f32,
    /// The authored poses (their rotations as read, after the mode).
    pub poses: Vec<Quat>,
    /// Each pose's output values, `outputs` a pose; and the values at rest.
    pub values: Vec<f32>,
    pub rest: Vec<f32>,
    /// The inverse of the kernel matrix between the poses, row-major.
    inverse: Vec<f32>,
}

impl PoseDriver {
    /// A driver over `poses` (each a local rotation of the driver joint and its output values),
    /// reading `mode` about `axis`, with `rest` the outputs' values away from every pose.
    pub fn new(
        (mode, axis, width): (DriverMode, Vec3, f32),
        poses: &[(Quat, Vec<f32>)],
        rest: Vec<f32>,
    ) -> Result<Self, DriverError> {
        let n = poses.len();
        if n == 0 || n > MAX_POSES {
            return Err(DriverError::Poses(n));
        }
        if !(width.is_finite() && width > 0.0) {
            return Err(DriverError::Width(width));
        }
        let axis = axis.normalize_or(Vec3::Y);
        let read = |q: Quat| read(mode, axis, q);
        let mut rotations = Vec::with_capacity(n);
        let mut values = Vec::with_capacity(n * rest.len());
        for (k, (q, v)) in poses.iter().enumerate() {
            if v.len() != rest.len() {
                return Err(DriverError::Outputs {
                    pose: k,
                    got: v.len(),
                    want: rest.len(),
                });
            }
            if !q.is_finite() || v.iter().chain(&rest).any(|x| !x.is_finite()) {
                return Err(DriverError::NotFinite(k));
            }
            rotations.push(read(*q));
            values.extend_from_slice(v);
        }
        for i in 0..n {
            for j in 0..i {
                if rotations[i].angle_between(rotations[j]) < 1e-4 {
                    return Err(DriverError::Duplicate(j, i));
                }
            }
        }
        let kernel: Vec<f64> = (0..n * n)
            .map(|k| {
                f64::from(gaussian(
                    rotations[k / n].angle_between(rotations[k % n]),
                    width,
                ))
            })
            .collect();
        let inverse = invert(&kernel, n).ok_or(DriverError::Duplicate(0, n - 1))?;
        Ok(Self {
            mode,
            axis,
            width,
            poses: rotations,
            values,
            rest,
            inverse: inverse.into_iter().map(|x| x as f32).collect(),
        })
    }

    /// How many outputs each pose sets.
    pub fn outputs(&self) -> usize {
        self.rest.len()
    }

    /// Each pose's weight for the driver joint's local rotation `local`, into `weights` (one per
    /// pose): one at that pose, zero at the others, clamped to 0..1 and normalised when they
    /// sum over one. `kernel` is scratch, as long.
    pub fn weights(&self, local: Quat, kernel: &mut [f32], weights: &mut [f32]) {
        let n = self.poses.len();
        let q = read(self.mode, self.axis, local);
        for (k, p) in kernel.iter_mut().zip(&self.poses) {
            *k = gaussian(q.angle_between(*p), self.width);
        }
        for (i, w) in weights.iter_mut().enumerate().take(n) {
            let row = &self.inverse[i * n..(i + 1) * n];
            let raw: f32 = row.iter().zip(&kernel[..n]).map(|(a, b)| a * b).sum();
            *w = raw.clamp(0.0, 1.0);
        }
        let sum: f32 = weights[..n].iter().sum();
        if sum > 1.0 {
            weights[..n].iter_mut().for_each(|w| *w /= sum);
        }
    }

    /// The outputs for `weights` (from `weights`), into `out`: the rest values moved toward
    /// each pose's values by its weight.
    pub fn outputs_for(&self, weights: &[f32], out: &mut [f32]) {
        let m = self.outputs();
        out[..m].copy_from_slice(&self.rest);
        for (w, values) in weights.iter().zip(self.values.chunks_exact(m.max(1))) {
            if *w == 0.0 {
                continue;
            }
            for ((o, v), r) in out.iter_mut().zip(values).zip(&self.rest) {
                *o += w * (v - r);
            }
        }
    }
}

/// The rotation as the mode reads it, in one hemisphere (w >= 0).
fn read(mode: DriverMode, axis: Vec3, q: Quat) -> Quat {
    let q = match mode {
        DriverMode::Full => q.normalize(),
        DriverMode::Swing => swing_twist(q, axis).0,
        DriverMode::Twist => swing_twist(q, axis).1,
    };
    if q.w < 0.0 { -q } else { q }
}

fn gaussian(distance: f32, width: f32) -> f32 {
    let x = distance / width;
    (-x * x).exp()
}

/// The inverse of the `n` x `n` row-major matrix `m` by Gauss-Jordan elimination with partial
/// pivoting; `None` when it is singular.
fn invert(m: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut a = m.to_vec();
    let mut inv: Vec<f64> = (0..n * n)
        .map(|k| if k / n == k % n { 1.0 } else { 0.0 })
        .collect();
    for col in 0..n {
        let pivot =
            (col..n).max_by(|&i, &j| a[i * n + col].abs().total_cmp(&a[j * n + col].abs()))?;
        if a[pivot * n + col].abs() < 1e-12 {
            return None;
        }
        for k in 0..n {
            a.swap(col * n + k, pivot * n + k);
            inv.swap(col * n + k, pivot * n + k);
        }
        let p = a[col * n + col];
        for k in 0..n {
            a[col * n + k] /= p;
            inv[col * n + k] /= p;
        }
        for row in 0..n {
            if row == col {
                continue;
            }
            let f = a[row * n + col];
            if f == 0.0 {
                continue;
            }
            for k in 0..n {
                a[row * n + k] -= f * a[col * n + k];
                inv[row * n + k] -= f * inv[col * n + k];
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn about_x(degrees: f32) -> Quat {
        Quat::from_rotation_x(degrees.to_radians())
    }

    /// An elbow-like driver: rest, 45 and 90 degrees of flexion about X, with two outputs (a
    /// corrective weight and a helper's offset).
    fn elbow() -> PoseDriver {
        PoseDriver::new(
            (DriverMode::Swing, Vec3::NEG_Y, 40f32.to_radians()),
            &[
                (Quat::IDENTITY, vec![0.0, 0.0]),
                (about_x(45.0), vec![0.4, 0.01]),
                (about_x(90.0), vec![1.0, 0.03]),
            ],
            vec![0.0, 0.0],
        )
        .unwrap()
    }

    fn outputs_at(d: &PoseDriver, q: Quat) -> Vec<f32> {
        let n = d.poses.len();
        let (mut kernel, mut weights) = (vec![0.0; n], vec![0.0; n]);
        d.weights(q, &mut kernel, &mut weights);
        let mut out = vec![0.0; d.outputs()];
        d.outputs_for(&weights, &mut out);
        out
    }

    #[test]
    fn at_each_authored_pose_the_outputs_are_its_values() {
        let d = elbow();
        for (q, want) in [
            (Quat::IDENTITY, [0.0, 0.0]),
            (about_x(45.0), [0.4, 0.01]),
            (about_x(90.0), [1.0, 0.03]),
        ] {
            let got = outputs_at(&d, q);
            assert!(
                (got[0] - want[0]).abs() < 1e-5 && (got[1] - want[1]).abs() < 1e-6,
                "{got:?}"
            );
        }
        // A twist about the bone is not read in swing mode: 90 degrees of flexion with 50 of
        // twist reads as 90 of flexion.
        let twisted = about_x(90.0) * Quat::from_axis_angle(Vec3::NEG_Y, 50f32.to_radians());
        let got = outputs_at(&d, twisted);
        assert!((got[0] - 1.0).abs() < 1e-4, "{got:?}");
    }

    #[test]
    fn between_poses_the_outputs_vary_continuously_within_their_range() {
        let d = elbow();
        let mut last = outputs_at(&d, Quat::IDENTITY);
        for k in 1..=900 {
            let got = outputs_at(&d, about_x(k as f32 * 0.1));
            assert!(
                (0.0..=1.0).contains(&got[0]) && (0.0..=0.03).contains(&got[1]),
                "{got:?}"
            );
            // Continuous: no step of a tenth of a degree moves the corrective by more than 1%.
            assert!(
                (got[0] - last[0]).abs() < 0.01,
                "at {}: {got:?} after {last:?}",
                k as f32 * 0.1
            );
            last = got;
        }
    }

    #[test]
    fn far_from_every_pose_the_outputs_fall_to_rest() {
        let d = PoseDriver::new(
            (DriverMode::Full, Vec3::Y, 20f32.to_radians()),
            &[(about_x(60.0), vec![1.0]), (about_x(90.0), vec![0.5])],
            vec![0.25],
        )
        .unwrap();
        // At rest (60 degrees, three widths, from the nearest pose): the rest value within
        // e^-9 of the pose values' pull.
        let got = outputs_at(&d, Quat::IDENTITY);
        assert!((got[0] - 0.25).abs() < 1e-3, "{got:?}");
        let got = outputs_at(&d, Quat::from_rotation_z(2.5));
        assert!((got[0] - 0.25).abs() < 1e-6, "{got:?}");
    }

    #[test]
    fn the_twist_is_the_turn_about_the_bone() {
        let axis = Vec3::Y;
        let q = Quat::from_rotation_x(0.7) * Quat::from_rotation_y(0.4);
        let (swing, twist) = swing_twist(q, axis);
        assert!((swing * twist).dot(q).abs() > 1.0 - 1e-6);
        assert!(twist.angle_between(Quat::from_rotation_y(0.4)) < 1e-5);
        // The swing turns nothing about the bone: it takes the axis where q does.
        assert!((swing * axis - q * axis).length() < 1e-5);
        assert!(swing.y.abs() < 1e-6, "{swing}");
    }

    #[test]
    fn a_driver_that_cannot_be_solved_is_refused() {
        let poses = [(Quat::IDENTITY, vec![1.0]), (Quat::IDENTITY, vec![2.0])];
        let e = PoseDriver::new((DriverMode::Full, Vec3::Y, 0.5), &poses, vec![0.0]);
        assert_eq!(e.unwrap_err(), DriverError::Duplicate(0, 1));
        let e = PoseDriver::new(
            (DriverMode::Full, Vec3::Y, 0.5),
            &[(Quat::IDENTITY, vec![])],
            vec![0.0],
        );
        assert!(matches!(e.unwrap_err(), DriverError::Outputs { .. }));
        let e = PoseDriver::new(
            (DriverMode::Full, Vec3::Y, 0.0),
            &[(Quat::IDENTITY, vec![0.0])],
            vec![0.0],
        );
        assert_eq!(e.unwrap_err(), DriverError::Width(0.0));
        let e = PoseDriver::new((DriverMode::Full, Vec3::Y, 0.5), &[], vec![]);
        assert_eq!(e.unwrap_err(), DriverError::Poses(0));
    }
}
