//! The "Over time" section's controls: the history kept for rewinding, onion skins, motion
//! paths and stage ghosts.

use crate::draw::onion::OnionSpacing;
use crate::pose::Stage;

/// Ghosts of the character before and after the playhead (Cascadeur's, Maya's): `before`
/// and `after` of them, `step` apart in clip time, translucent and tinted by their distance in
/// time (warm before, cool after).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnionSkins {
    pub on: bool,
    pub before: u32,
    pub after: u32,
    pub step: OnionSpacing,
}

impl Default for OnionSkins {
    fn default() -> Self {
        Self {
            on: false,
            before: 3,
            after: 3,
            step: OnionSpacing::Frames(4),
        }
    }
}

/// Motion paths of joints (Blender's): the selected joint's, or the listed ones'.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathControls {
    pub on: bool,
    /// The joints (empty: the selected joint).
    pub joints: Vec<usize>,
    /// Around the playhead, this many seconds before and after (`None`: the whole clip).
    pub around_secs: Option<f32>,
}

/// The section's: see the module's documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct OverTimeControls {
    /// Keep a history of the frames played (on by default).
    pub keep_history: bool,
    /// Seconds of play the history keeps.
    pub history_secs: f32,
    pub onion: OnionSkins,
    pub paths: PathControls,
    /// The stages whose skeletons are drawn over the final pose.
    pub stage_ghosts: Vec<Stage>,
    /// Report motion matching's best candidates at each search (the section lists the last).
    pub match_candidates: bool,
    /// The path typed for "Save history".
    pub history_path: String,
}

impl Default for OverTimeControls {
    fn default() -> Self {
        Self {
            keep_history: true,
            history_secs: crate::history::DEFAULT_HISTORY_SECS,
            onion: OnionSkins::default(),
            paths: PathControls::default(),
            stage_ghosts: Vec::new(),
            match_candidates: false,
            history_path: String::new(),
        }
    }
}
