//! One recorded frame: what played (for the tracks) and the pose it made (for showing it again
//! exactly).

use serde::{Deserialize, Serialize};

use crate::anim::{LocalPose, Placement};
use crate::pose::PaletteMode;

/// What the performer played in one frame, as the tracks draw it and a history file keeps it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FrameState {
    /// Seconds of real time since the history began.
    pub time_secs: f64,
    /// The frame's step of real time.
    pub dt_secs: f32,
    /// The clip on the timeline (none: the rest pose) and its time.
    pub clip: Option<String>,
    pub clip_time: f32,
    /// The in-step blend's second clip and its weight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blend: Option<(String, f32)>,
    /// A transition in progress: how far along (0..1), and whether it inertializes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transition: Option<(f32, bool)>,
    /// The state machine's state, and its parameters' values by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<(String, f32)>,
    /// Each pose layer's influence, in the layers' order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<f32>,
    /// The events fired this frame, `clip:event`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    /// Motion matching's choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matching: Option<MatchedFrame>,
    /// The external pose's weight (0 with none).
    #[serde(default)]
    pub external_weight: f32,
    /// The ragdoll's weight over the animation: its joints' largest weight (0 with none).
    #[serde(default)]
    pub physics_weight: f32,
    /// The reach targets, in the world.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ik_targets: Vec<[f32; 3]>,
    /// Where the character stood: position and heading (radians about +Y).
    pub position: [f32; 3],
    pub yaw: f32,
}

/// Motion matching in one frame: the database frame playing, the last search's best cost, and
/// the searches and switches made so far (a frame whose count grew searched or switched).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchedFrame {
    pub frame: Option<usize>,
    pub cost: f32,
    pub searches: u64,
    pub switches: u64,
}

/// A frame's pose as it was drawn: the local pose (every later stage applied, ready to compose),
/// the morph weights, the palette it was drawn under, and where the character stood.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedPose {
    pub local: LocalPose,
    pub morph_weights: Vec<f32>,
    pub palette: PaletteMode,
    pub placement: Placement,
}

impl RecordedPose {
    /// Bytes this pose holds (for the history's budget).
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + std::mem::size_of_val(self.local.as_slice())
            + self.morph_weights.len() * 4
    }
}
