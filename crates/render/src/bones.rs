//! How a posed skeleton is drawn as lines: sticks (a segment to the parent, a cross at each
//! joint), Blender's octahedral bones (head, tail and a square at a tenth of the length whose
//! corners follow the joint's own axes, so its roll shows), or each joint's local axes (X red,
//! Y green, Z blue), with the axes the skin's inverse bind matrix gives beside them on request.

use glam::{Affine3A, Mat4, Vec3};

use crate::anim::ModelPose;
use crate::character::Character;
use crate::lines::LineVertex;

/// The shape bones are drawn in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BoneStyle {
    /// A segment from each joint to its parent and a small cross at each joint.
    #[default]
    Stick,
    /// Blender's octahedral bones: from each joint's head to its child's, a square near the
    /// head turned by the joint's roll.
    Octahedral,
    /// Each joint's local axes: X red, Y green, Z blue.
    Axes,
}

/// Which joints' axes are drawn, and whether their bind axes are drawn beside them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxesOptions {
    /// Only this joint's axes (`None`: every skin joint's).
    pub only: Option<usize>,
    /// Also each joint's axes at bind time, from its skin's inverse bind matrix
    /// (`world_from_mesh * inverse(joint_from_bind)`), shorter and paler, at the posed joint's
    /// origin: a transposed, mirrored or stale inverse bind turns them away from the posed axes
    /// at the bind pose.
    pub bind: bool,
}

/// The stick bones' colours: segments and joint crosses.
pub const STICK_SEGMENT: [f32; 4] = [1.0, 0.85, 0.2, 1.0];
pub const STICK_POINT: [f32; 4] = [1.0, 0.35, 0.25, 1.0];
/// The axes' colours, X, Y, Z; the bind axes are these mixed halfway with white.
pub const AXIS_COLORS: [[f32; 4]; 3] = [
    [1.0, 0.15, 0.15, 1.0],
    [0.15, 0.95, 0.15, 1.0],
    [0.2, 0.35, 1.0, 1.0],
];

/// How long the axes are against the bone width (`size`).
const AXIS_LENGTH: f32 = 5.0;

fn push(out: &mut Vec<LineVertex>, a: Vec3, b: Vec3, color: [f32; 4]) {
    for p in [a, b] {
        out.push(LineVertex {
            position: p.to_array(),
            color,
        });
    }
}

/// Each skin joint once, with its nearest ancestor in the same skin: `(joint, parent)`.
fn skin_bones(character: &Character) -> impl Iterator<Item = (usize, Option<usize>)> + '_ {
    let mut seen = vec![false; character.skeleton.joint_count()];
    character.skins.iter().flat_map(move |skin| {
        let joints: Vec<_> = (0..skin.skin.len())
            .filter_map(|p| {
                let joint = skin.skin.joint(p)?;
                let parent = skin.palette_parent(p).and_then(|pp| skin.skin.joint(pp));
                (!std::mem::replace(&mut seen[joint], true)).then_some((joint, parent))
            })
            .collect();
        joints
    })
}

/// The bones of a posed skeleton (`model`, every joint's `world_from_joint`) in `style`, `size`
/// the bone width (a cross's half length; axes are five times it), appended to `out`; `tint`
/// replaces every colour (a stage ghost's), alpha included.
pub fn bone_shapes_into(
    character: &Character,
    model: &ModelPose,
    style: BoneStyle,
    size: f32,
    tint: Option<[f32; 4]>,
    out: &mut Vec<LineVertex>,
) {
    let model = model.as_slice();
    let color = |c: [f32; 4]| tint.unwrap_or(c);
    let at = |j: usize| Vec3::from(model[j].translation);
    match style {
        BoneStyle::Stick => {
            for (joint, parent) in skin_bones(character) {
                if let Some(parent) = parent {
                    push(out, at(parent), at(joint), color(STICK_SEGMENT));
                }
                for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                    let p = at(joint);
                    push(out, p - axis * size, p + axis * size, color(STICK_POINT));
                }
            }
        }
        BoneStyle::Octahedral => {
            let bones: Vec<_> = skin_bones(character).collect();
            let mut has_child = vec![false; model.len()];
            for &(_, parent) in &bones {
                if let Some(p) = parent {
                    has_child[p] = true;
                }
            }
            for &(joint, parent) in &bones {
                if let Some(parent) = parent {
                    octahedron(
                        &model[parent],
                        at(parent),
                        at(joint),
                        color(STICK_SEGMENT),
                        out,
                    );
                }
                if !has_child[joint] {
                    // A leaf has no tail in glTF: half its parent's length along its own +Y
                    // (Blender's bone axis), or ten bone widths without a parent.
                    let length = parent.map_or(size * 10.0, |p| at(p).distance(at(joint)) * 0.5);
                    let y = Vec3::from(model[joint].matrix3.y_axis).normalize_or_zero();
                    let tail = at(joint) + y * length.max(size);
                    octahedron(&model[joint], at(joint), tail, color(STICK_SEGMENT), out);
                }
            }
        }
        BoneStyle::Axes => {
            axes_into(character, model, AxesOptions::default(), size, out);
        }
    }
}

/// A wire octahedron from `head` to `tail`, its square at a tenth of the way, a tenth of the
/// length from the axis, its corners along `frame`'s axes most across the bone (the roll).
fn octahedron(
    frame: &Affine3A,
    head: Vec3,
    tail: Vec3,
    color: [f32; 4],
    out: &mut Vec<LineVertex>,
) {
    let along = tail - head;
    let length = along.length();
    if length <= f32::EPSILON {
        return;
    }
    let dir = along / length;
    // The joint's axis most across the bone gives the square's first corner; a degenerate
    // frame falls back to any perpendicular.
    let axes = [
        frame.matrix3.x_axis,
        frame.matrix3.y_axis,
        frame.matrix3.z_axis,
    ]
    .map(|a| Vec3::from(a).normalize_or_zero());
    let across = axes
        .into_iter()
        .map(|a| a - dir * a.dot(dir))
        .max_by(|a, b| a.length_squared().total_cmp(&b.length_squared()))
        .filter(|a| a.length_squared() > 1e-8)
        .map_or_else(|| dir.any_orthonormal_vector(), Vec3::normalize);
    let other = dir.cross(across);
    let center = head + along * 0.1;
    let r = length * 0.1;
    let corners = [across, other, -across, -other].map(|v| center + v * r);
    for k in 0..4 {
        push(out, head, corners[k], color);
        push(out, corners[k], corners[(k + 1) % 4], color);
        push(out, corners[k], tail, color);
    }
}

/// Each joint's local axes at its posed origin (`options.only`: one joint), `size` the bone
/// width; with `options.bind`, the bind axes beside them (`AxesOptions::bind`).
pub fn axes_into(
    character: &Character,
    model: &[Affine3A],
    options: AxesOptions,
    size: f32,
    out: &mut Vec<LineVertex>,
) {
    let length = size * AXIS_LENGTH;
    let wanted = |j: usize| options.only.is_none_or(|o| o == j);
    for (joint, _) in skin_bones(character).filter(|&(j, _)| wanted(j)) {
        let m = &model[joint];
        let origin = Vec3::from(m.translation);
        let posed = [m.matrix3.x_axis, m.matrix3.y_axis, m.matrix3.z_axis].map(Vec3::from);
        for (axis, color) in posed.iter().zip(AXIS_COLORS) {
            push(
                out,
                origin,
                origin + axis.normalize_or_zero() * length,
                color,
            );
        }
    }
    if options.bind {
        bind_axes_into(character, model, options.only, length * 0.6, out);
    }
}

/// The axes each skin's inverse bind matrices give its joints, in the world as the mesh is
/// placed, drawn at the posed joints' origins.
fn bind_axes_into(
    character: &Character,
    model: &[Affine3A],
    only: Option<usize>,
    length: f32,
    out: &mut Vec<LineVertex>,
) {
    let pale =
        AXIS_COLORS.map(|[r, g, b, a]| [(r + 1.0) * 0.5, (g + 1.0) * 0.5, (b + 1.0) * 0.5, a]);
    for instance in &character.instances {
        let Some(skin) = instance.skin.map(|s| &character.skins[s]) else {
            continue;
        };
        let world_from_mesh = model
            .get(instance.skeleton_joint)
            .map_or(Mat4::IDENTITY, |m| Mat4::from(*m));
        for (p, joint_from_bind) in skin.skin.joint_from_bind().iter().enumerate() {
            let Some(joint) = skin.skin.joint(p).filter(|&j| only.is_none_or(|o| o == j)) else {
                continue;
            };
            // Not inverted with a determinant check: a singular matrix gives non-finite axes,
            // which are left out.
            let world_from_bind = world_from_mesh * joint_from_bind.inverse();
            let origin = Vec3::from(model[joint].translation);
            for (k, color) in pale.iter().enumerate() {
                let axis = world_from_bind.col(k).truncate();
                let tip = origin + axis.normalize_or_zero() * length;
                if tip.is_finite() {
                    push(out, origin, tip, *color);
                }
            }
        }
    }
}
