//! What one view draws besides the skinned mesh, decided in one place for the window and the
//! headless commands: the bone overlay's width and lines, the selected joint's marker, the
//! scene's overlay lines, the file camera's pose, the compared pose of a split view or a
//! displacement colouring, and the skinning a split view compares with.

use glam::Vec3;

use crate::anim::{PoseError, SkinningMethod};
use crate::character::Character;
use crate::pose::{CharacterPose, PaletteMode, PoseRequest};
use crate::render::bones::{AxesOptions, BoneStyle, axes_into, bone_shapes_into};
use crate::render::camera::Camera;
pub use crate::render::lines::LineVertex;
use crate::render::lines::joint_marker;

/// The bone overlay's width for a character whose rest pose spans `rest_bounds`: 1% of its
/// diagonal, the same in every view and at every zoom.
pub fn bone_width((min, max): (Vec3, Vec3)) -> f32 {
    (max - min).length() * 0.01
}

/// How a view draws the bones: their shape, and whose axes (`BoneStyle::Axes`: every joint's,
/// or `axes.only`'s; another shape: `axes.only`'s over it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoneView {
    pub style: BoneStyle,
    pub axes: AxesOptions,
}

impl BoneView {
    /// The bones of `model` as this view draws them, appended to `out`.
    pub fn lines_into(
        &self,
        character: &Character,
        model: &crate::anim::ModelPose,
        width: f32,
        out: &mut Vec<LineVertex>,
    ) {
        if self.style == BoneStyle::Axes {
            axes_into(character, model.as_slice(), self.axes, width, out);
            return;
        }
        bone_shapes_into(character, model, self.style, width, None, out);
        if self.axes.only.is_some() {
            axes_into(character, model.as_slice(), self.axes, width, out);
        }
    }
}

/// The overlay of one view, into `out`: the bones (when shown), the selected joint's marker,
/// then `extra` lines (start, end, linear RGBA: the ground, the trail, the reach target).
pub fn overlay_lines(
    character: &Character,
    pose: &CharacterPose,
    bones: Option<BoneView>,
    selected_joint: Option<usize>,
    width: f32,
    extra: impl IntoIterator<Item = (Vec3, Vec3, [f32; 4])>,
    out: &mut Vec<LineVertex>,
) {
    out.clear();
    if let Some(view) = bones {
        view.lines_into(character, &pose.model, width, out);
    }
    if let Some(j) = selected_joint {
        joint_marker(&pose.model, j, width * 4.0, out);
    }
    for (a, b, color) in extra {
        for p in [a, b] {
            out.push(LineVertex {
                position: p.to_array(),
                color,
            });
        }
    }
}

/// The file's camera `k` (`Character::cameras`) as `pose` places its node.
pub fn file_camera(character: &Character, pose: &CharacterPose, k: usize) -> Option<Camera> {
    let camera = character.cameras.get(k)?;
    let world_from_camera = pose
        .model
        .as_slice()
        .get(camera.skeleton_joint)
        .map_or(glam::Mat4::IDENTITY, |m| glam::Mat4::from(*m));
    Some(Camera::from_node(world_from_camera, camera.projection))
}

/// What a compared pose is: the same local pose under another palette, or the same frame from
/// the other clips (compressed, or raw when the request plays compressed ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareWith {
    Palette(PaletteMode),
    OtherClips,
}

/// Poses the compared pose of `pose` (posed from `request`) into `out`.
pub fn pose_compared(
    character: &Character,
    request: &PoseRequest,
    pose: &CharacterPose,
    with: CompareWith,
    out: &mut CharacterPose,
) -> Result<(), PoseError> {
    match with {
        CompareWith::OtherClips => {
            let other = request.clone().with_compressed(!request.compressed);
            out.evaluate(character, &other)
        }
        CompareWith::Palette(palette) => {
            // Under another palette, or another skinning, the ML deformer's weights (this
            // frame's pose's) do not apply: the right half shows the frame without them.
            out.ml = None;
            out.compose_local(character, pose.local(), palette)
        }
    }
}

/// The skinning a split view's right half compares with by default: linear blend's
/// counterpart is dual quaternions, every other method's is linear blend.
pub fn other_skinning(s: SkinningMethod) -> SkinningMethod {
    match s {
        SkinningMethod::Linear => SkinningMethod::DualQuaternion,
        _ => SkinningMethod::Linear,
    }
}
