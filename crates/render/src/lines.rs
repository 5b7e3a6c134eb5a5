//! World-space line overlays: the ground grid and the selected joint's marker (the bones'
//! shapes are `bones`').

use bytemuck::{Pod, Zeroable};
use glam::Vec3;

use crate::anim::ModelPose;

/// A coloured world-space line vertex (bones, grid).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct LineVertex {
    pub position: [f32; 3],
    pub color: [f32; 4],
}

/// Lines each side of the grid's centre line.
const GRID_HALF_LINES: i32 = 10;

/// The ground grid's spacing around `bounds` (min, max; the character's rest pose): 1, 2 or 5
/// times a power of ten, about a tenth of the character; and its centre on y = 0.
fn grid_step((min, max): (Vec3, Vec3)) -> (f32, Vec3) {
    let radius = ((max - min).length() * 0.5).max(1e-3);
    let raw = radius / 5.0;
    let magnitude = 10f32.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(raw);
    let center = ((min + max) * 0.5 / step).round() * step;
    (step, Vec3::new(center.x, 0.0, center.z))
}

/// The square the grid covers around `bounds`, as the solid ground draws it: centre x, height
/// (0), centre z, half its side.
pub fn ground_square(bounds: (Vec3, Vec3)) -> glam::Vec4 {
    let (step, center) = grid_step(bounds);
    glam::Vec4::new(center.x, 0.0, center.z, GRID_HALF_LINES as f32 * step)
}

/// A ground grid on y = 0 around `bounds` (min, max; the character's rest pose).
pub fn grid_lines(bounds: (Vec3, Vec3)) -> Vec<LineVertex> {
    let (step, center) = grid_step(bounds);
    let n = GRID_HALF_LINES;
    let mut out = Vec::new();
    for i in -n..=n {
        let color = if i == 0 {
            [0.45, 0.45, 0.5, 1.0]
        } else {
            [0.3, 0.3, 0.34, 1.0]
        };
        let o = i as f32 * step;
        let e = n as f32 * step;
        for (a, b) in [
            (
                Vec3::new(center.x + o, 0.0, center.z - e),
                Vec3::new(center.x + o, 0.0, center.z + e),
            ),
            (
                Vec3::new(center.x - e, 0.0, center.z + o),
                Vec3::new(center.x + e, 0.0, center.z + o),
            ),
        ] {
            out.push(LineVertex {
                position: a.to_array(),
                color,
            });
            out.push(LineVertex {
                position: b.to_array(),
                color,
            });
        }
    }
    out
}

/// A large bright cross at one skeleton joint (the selected joint).
pub fn joint_marker(model: &ModelPose, joint: usize, size: f32, out: &mut Vec<LineVertex>) {
    let Some(m) = model.as_slice().get(joint) else {
        return;
    };
    let at = Vec3::from(m.translation);
    let color = [0.2, 1.0, 0.9, 1.0];
    for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
        out.push(LineVertex {
            position: (at - axis * size).to_array(),
            color,
        });
        out.push(LineVertex {
            position: (at + axis * size).to_array(),
            color,
        });
    }
}
