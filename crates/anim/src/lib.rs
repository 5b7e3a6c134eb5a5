//! The CPU animation core: skeletons, clips, sampling, blending, playback and skin palettes.
//! Pure data and functions over glam; no GPU, window or UI types.
//!
//! Conventions (glam: column-major matrices, column vectors):
//! - matrices are named destination-from-source and compose right to left:
//!   `model_from_joint = model_from_parent * parent_from_joint`;
//! - a local transform is `parent_from_joint = T * R * S`;
//! - the skin matrix is `mesh_from_bind = mesh_from_model * model_from_joint * joint_from_bind`,
//!   where `joint_from_bind` is glTF's inverse bind matrix; an identity palette therefore shows the
//!   mesh exactly as stored;
//! - rotations blend as quaternions with the shorter-arc sign flip, local poses are blended before
//!   the hierarchy is composed, and matrices are never blended.
//!
//! One frame is a chain of stages, each borrowing its inputs and writing a caller-owned output:
//!
//! ```text
//! sample_clip (or sample_compressed) -> blend_poses -> local_to_model -> build_palette
//! ```
//!
//! (`local_to_model_and_palette` runs the last two as one pass, for every skin of a character
//! at once; `resample_clip` samples a pose again from the clip it last held.)
//!
//! Two clips sampled, blended half and half, composed and read back:
//!
//! ```
//! use glam::Vec3;
//! use skinscope_anim::*;
//!
//! // A root and a child one unit above it.
//! let names = vec!["root".to_string(), "child".to_string()];
//! let rest = vec![Transform::IDENTITY, Transform::from_translation(Vec3::Y)];
//! let skeleton = Skeleton::new(names, vec![None, Some(0)], rest).unwrap();
//! // Each clip slides the root along +X, one to 2 units in a second, the other to 4.
//! let slide = |name: &str, to: f32| {
//!     let keys = vec![Vec3::ZERO, Vec3::new(to, 0.0, 0.0)];
//!     let track = Track::new(vec![0.0, 1.0], keys, Interpolation::Linear).unwrap();
//!     let channel = Channel::Translation(track);
//!     Clip::new(name, 2, vec![JointTrack { joint: 0, channel }], vec![]).unwrap()
//! };
//! let (a, b) = (slide("a", 2.0), slide("b", 4.0));
//! let mut poses = [LocalPose::rest(&skeleton), LocalPose::rest(&skeleton)];
//! for (clip, pose) in [&a, &b].into_iter().zip(&mut poses) {
//!     let mut cursor = ClipCursor::new(clip);
//!     sample_clip(&skeleton, clip, 0.5, &mut cursor, pose).unwrap();
//! }
//! let layers = [
//!     BlendLayer { pose: &poses[0], weight: 0.5 },
//!     BlendLayer { pose: &poses[1], weight: 0.5 },
//! ];
//! let mut blended = LocalPose::rest(&skeleton);
//! blend_poses(&layers, &LocalPose::rest(&skeleton), &mut blended).unwrap();
//! let mut model = ModelPose::new(&skeleton);
//! local_to_model(&skeleton, &blended, &mut model).unwrap();
//! // Half-way through, the clips put the root at 1 and 2: blended, 1.5; the child rides on it.
//! let child = Vec3::from(model.as_slice()[1].translation);
//! assert!(child.abs_diff_eq(Vec3::new(1.5, 1.0, 0.0), 1e-6));
//! ```
//!
//! Where things live: clip.rs (tracks and clips, validated), runtime.rs (a clip's keys laid out
//! for sampling), cursor.rs (the per-clip sampling context and whole-clip sampling), sample.rs
//! (one track, and the slerp), compress.rs (compressed clips with a measured error bound; its
//! closed-loop quantization in compensate.rs, rotation tracks' frames in rotation_frame.rs),
//! pose.rs (blend, local-to-model, palettes), layer.rs (masks, override and additive layers,
//! blend spaces, half-life easing), inertialize.rs (inertialized transitions), skeleton.rs,
//! playback.rs, morph.rs.
#![forbid(unsafe_code)]

mod blended;
mod clip;
mod compensate;
mod compress;
mod compress_error;
mod compressed;
mod cursor;
mod ddm;
mod dqs;
mod driver;
mod external;
mod handoff;
mod ik;
mod inertialize;
mod layer;
mod morph;
mod motion_match;
mod muscle;
mod playback;
mod pose;
mod quantize;
mod retarget;
mod root_motion;
mod rotation_frame;
mod runtime;
mod sample;
mod skeleton;
mod spring;
mod transform;

pub use blended::{
    blended_skin_direction, blended_skin_position, subtree_methods, twisting_joints, vertex_method,
};
pub use clip::{
    Channel, Clip, ClipError, ClipEvent, Interpolation, JointTrack, MIN_CLIP_SECS, Property, Track,
    TrackError, TrackValue,
};
pub use compress::{CompressionReport, CompressionSettings, compress_clip, reduce_clip};
pub use compress_error::{measure_clip_error, measure_error, raw_bytes};
pub use compressed::CompressedClip;
pub use cursor::{
    ClipCursor, resample_clip, sample_clip, sample_clip_over, sample_compressed,
    sample_compressed_over,
};
pub use ddm::{JACOBI_SWEEPS, OmegaEntry, ddm_skin, ddm_transform, omega_matrix, polar_rotation};
pub use dqs::{SkinningMethod, dq_entry, dq_skin_direction, dq_skin_position};
pub use driver::{DriverError, DriverMode, MAX_POSES, PoseDriver, swing_twist};
pub use external::{Drive, ExternalFrame, apply_external, drive_joint};
pub use handoff::Handoff;
pub use ik::{Chain, TwoBoneSettings, soft_reach, solve_two_bone};
pub use inertialize::{Inertialization, SwitchPoses, from_rotation_vector, rotation_vector};
pub use layer::{
    BlendPoint, BlendSpace1d, JointMask, additive_transform, apply_additive, apply_override, decay,
    ease, mix,
};
pub use morph::{TargetDeltas, morph_vertex, sample_weights};
pub use motion_match::{FeatureGroup, FeatureIndex, LARGE_BOX, MatchError, Normalizer, SMALL_BOX};
pub use muscle::{
    Edge, MAX_CONTRACTION, MuscleBody, MuscleParams, MuscleShape, MuscleSim, MuscleSystem,
    PARTICLES_PER_MUSCLE, RINGS, SEGMENTS, volume_of,
};
pub use playback::{
    Playback, PlaybackMode, Step, SyncedBlend, SyncedStep, for_each_crossed_event, wrap_time,
};
pub use pose::check_len;
pub use pose::{
    BlendLayer, LocalPose, ModelPose, PalettePlan, PoseError, SkinPalette, blend_matrix,
    blend_pair, blend_poses, bring_into_mesh_space, build_palette, build_palette_into,
    local_to_model, local_to_model_and_palette, skin_normal, skin_position, vertex_skin_matrix,
};
pub use retarget::{
    BodyChain, JointMap, JointMatch, MatchKind, Retarget, RetargetError, RetargetScratch,
    RetargetSettings, RootTravel, body_chains, body_parts, canonical_name, canonical_names,
    match_joints, shape_roles,
};
pub use root_motion::{
    Displacement, Placement, RootFrame, clip_displacement, default_root_joint, from_yaw,
    remove_root_motion, root_transform, yaw_of,
};
pub use sample::{Interpolate, sample_track, slerp_shortest};
pub use skeleton::{Skeleton, SkeletonError, Skin, SkinError};
pub use spring::{FacingSpring, VelocitySpring, damping_of_half_life, predict};
pub use transform::{Transform, is_singular};
