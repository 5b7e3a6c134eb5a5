//! Posing a character for one frame, CPU only: the request (what to pose, plain data), its
//! evaluation through the pose pipeline's stages, and crowds of posed copies.
//!
//! The frame's stages, in order (each borrows its inputs and writes a caller-owned output):
//!
//! ```text
//! sample and blend (raw) -> root motion -> transition -> pose layers -> reach IK -> foot IK
//!     -> local-to-model -> skin palette          (morph weights evaluated beside the joints)
//! ```
//!
//! `CharacterPose::evaluate` runs them in that order.

mod bounds;
mod compression;
mod crowd;
mod derived;
mod drivers;
mod evaluate;
mod ik;
mod legs;
mod ml;
mod ml_model;
mod morph;
mod motion_db;
mod motion_db_file;
mod motion_path;
mod muscles;
mod request;
mod skinning;
mod stages;

pub use bounds::{MOTION_SAMPLES, motion_bounds};
pub use compression::{
    DEFAULT_TOLERANCE_OF_HEIGHT, character_height, compress_clips, compression_settings, skin_reach,
};
pub use crowd::{Crowd, CrowdEvent, CrowdLod};
pub use derived::{Derived, rest_bounds, upper_body_roots};
pub use drivers::{
    BoundDriver, DriverFileError, DriverOutput, DriverSet, MAX_DRIVERS, MAX_OUTPUTS,
};
pub use evaluate::{CharacterPose, IDENTITY_ENTRY};
pub use ik::{MAX_LEGS, apply_feet, apply_reach, foot_targets};
pub use legs::{
    EXAMINE_HZ, FootSlide, common_ancestor, contact_windows, find_legs, foot_slide,
    foot_slide_during, in_contact, planted_feet_travel,
};
pub use ml::MlCorrective;
pub use ml_model::{
    ML_FEATURES_PER_JOINT, ML_MAX_COMPONENTS, ML_MAX_HIDDEN, ML_MAX_MODEL_BYTES, ML_VERSION,
    MlFileError, MlMlp, MlModel, MlPrimitive, MlReadError, MlReference, MlStats, features_into,
    read_model,
};
pub use morph::{MorphOverride, MorphWeights, morphed_vertices, target_deltas};
pub use motion_db::{
    DbError, DbFrame, FEATURE_HZ, FEATURES, FUTURE_FRAMES, FeatureJoints, MAX_FRAMES, MatchWeights,
    MotionDatabase, build_database, build_database_with, is_cyclic,
};
pub use motion_db_file::{DB_VERSION, DbFileError, skeleton_fingerprint};
pub use motion_path::{
    MAX_PATH_SAMPLES, MotionPath, PathRangeError, PathSample, clip_key_times, key_times,
    motion_paths, path_times,
};
pub use muscles::{MAX_FOLLOWED, MAX_MUSCLES, MuscleFileError, MuscleFrame, MuscleRig, MuscleSkin};
pub use request::{
    BlendSpec, ClipTime, ExternalPose, ExternalSource, FootIk, IkTarget, Inertial, LayerBlend, Leg,
    PaletteMode, PhysicsPose, PoseLayer, PoseRequest, RootMotion, RootMotionMode, TimeWrap,
    Transition, TransitionKind, VELOCITY_STEP_SECS, clip_time, in_step_time,
};
pub use skinning::{
    AUTO_TWIST_DEGREES, DqsJoints, NoJoint, auto_dqs_joints, auto_methods, palette_methods,
};
pub use stages::{Stage, StagePoses};
