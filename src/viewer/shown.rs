//! What the panel shows but does not edit (`Shown`), gathered once per frame by
//! `Viewer::panel_parts` beside the `Controls` it edits.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use super::{Controls, Viewer};
use crate::character::Character;
use crate::debug::picking::PickedVertex;
use crate::graph::Machine;
use crate::pose::{CharacterPose, Derived};

/// A fired clip event, for the panel's log.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedEvent {
    pub clip: String,
    pub name: String,
    pub time_secs: f32,
}

/// Frame statistics, for the panel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub fps: f32,
    pub frame_ms: f32,
    pub pose_ms: f32,
    pub palette_bytes: u64,
    /// The main view's last frame: skinned by the skin pass (`Some`, and whether it ran, which
    /// it does not when nothing changed) or in the vertex shader (`None`).
    pub skin_pass_ran: Option<bool>,
    /// Why the vertices were skinned where they were (the skin pass's `Auto`, or the choice).
    pub skin_pass_why: &'static str,
    /// The window's CPU time a frame, averaged over the last frames.
    pub cpu: CpuTimes,
}

impl Stats {
    /// A frame that took `real_dt` seconds of real time (not the clocks' step, which is held to
    /// at most 0.25 s): its time, and the frame rate smoothed over the last frames.
    pub fn frame_took(&mut self, real_dt: f32) {
        self.frame_ms = real_dt * 1000.0;
        self.fps = if real_dt > 0.0 {
            0.9 * self.fps + 0.1 / real_dt
        } else {
            0.0
        };
    }
}

/// The window's CPU work in a frame, outside the GPU, in ms. Waiting for the surface's next
/// image and presenting it are not counted (they wait for the GPU or the display), nor is a
/// recording's extra offscreen frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CpuTimes {
    /// egui's run of the panel (every open section) and the joint names over the view.
    pub panel_ms: f32,
    /// The commands, the clocks and the pose once (the crowd's included).
    pub pose_ms: f32,
    /// The overlays' lines: the bones, the selected joint's marker and the scene's lines.
    pub overlay_ms: f32,
    /// The uploads (palettes, the views' uniforms, egui's tessellated shapes and textures) and
    /// the GPU commands recorded.
    pub upload_ms: f32,
    /// The whole frame's: the above and the rest (window requests, the camera, the submit).
    pub total_ms: f32,
}

impl CpuTimes {
    /// Each figure moved a tenth of the way toward this frame's (the first frame's taken as it is).
    pub fn average_in(&mut self, frame: CpuTimes) {
        if self.total_ms == 0.0 {
            *self = frame;
            return;
        }
        for (mean, new) in [
            (&mut self.panel_ms, frame.panel_ms),
            (&mut self.pose_ms, frame.pose_ms),
            (&mut self.overlay_ms, frame.overlay_ms),
            (&mut self.upload_ms, frame.upload_ms),
            (&mut self.total_ms, frame.total_ms),
        ] {
            *mean += 0.1 * (new - *mean);
        }
    }
}

/// What the panel shows but does not edit, gathered once per frame (`Viewer::panel_parts`):
/// the loaded character and its load-time facts, the frame's posed result and the facts about
/// it (the timeline, the transition's progress, driven mode's rate, the comparison in use).
pub struct Shown<'a> {
    pub character: &'a Character,
    pub derived: &'a Derived,
    pub pose: &'a CharacterPose,
    pub source: Option<&'a Path>,
    pub recent: &'a [PathBuf],
    /// Whether models may read files outside their folder (the file section's switch).
    pub allow_outside: bool,
    pub load_error: Option<&'a str>,
    pub graph_error: Option<&'a str>,
    pub machine: Option<&'a Machine>,
    pub event_log: &'a VecDeque<LoggedEvent>,
    pub stats: Stats,
    pub angle_plot: &'a VecDeque<[f64; 2]>,
    pub slide_plot: &'a VecDeque<[f64; 2]>,
    pub picked_vertex: Option<&'a PickedVertex>,
    pub crowd_limit: usize,
    /// Whether the state machine drives the character now.
    pub graph_driven: bool,
    /// The clip shown on the timeline and its duration, and the time shown on it.
    pub timeline: (usize, f32),
    pub clip_time_shown: f32,
    /// Whether a clip played once has run to its end.
    pub at_end: bool,
    /// The transition in progress: whether it inertializes, and how far along it is.
    pub transition: Option<(bool, f32)>,
    /// The override and additive layers' influence now.
    pub layer_weights: (f32, f32),
    /// Driven mode's playback rate.
    pub driven_rate: Option<f32>,
    pub placement: crate::anim::Placement,
    /// Whether the compared palette is in use.
    pub comparing: bool,
    /// The joint whose rotation is plotted.
    pub plot_joint: Option<usize>,
    /// The live stream listened to, and the external pose's player and weight now.
    pub mocap: &'a super::LiveMocap,
    pub external: &'a crate::perform::ExternalPlayer,
    pub external_weight: f32,
    /// The ragdoll, its steps, why it failed.
    pub physics: &'a crate::perform::PhysicsPlayer,
    /// Motion matching's player (its database, search counts and costs) and where its
    /// database stands.
    pub matching: &'a crate::perform::MatchPlayer,
    pub match_status: super::MatchStatus,
    /// Direct delta mush's precomputation for the file and parameters shown.
    pub ddm_status: super::DdmStatus,
    /// The clip playing (motion matching's choice, under it), none before the first frame.
    pub playing_clip: Option<usize>,
    /// The pose drivers' pose weights at the last frame, every driver's poses in order.
    pub driver_weights: &'a [f32],
    /// The recording under way (frames written, of how many) and how the last one ended.
    pub recording: (Option<(usize, usize)>, Option<&'a str>),
    /// The panel's check and fix.
    pub repair: &'a crate::viewer::repair::RepairState,
    /// Where a repaired file is saved by default.
    pub repaired_path: Option<std::path::PathBuf>,
    /// The panel's retargeting, and where the character with its clips is saved by default.
    pub retarget: &'a crate::viewer::retarget::RetargetState,
    pub retargeted_path: Option<std::path::PathBuf>,
    /// The environment's file (`None`: the generated sky) and why the last one did not load.
    pub environment: (Option<&'a std::path::Path>, Option<&'a str>),
    /// The frames kept for rewinding, the one shown, and how the last save or replay went.
    pub history: &'a super::HistoryState,
}

impl Shown<'_> {
    /// The live morph weights of each mesh (of the first node drawing it).
    pub fn live_morph_weights(&self, mesh: usize) -> &[f32] {
        self.character
            .instances
            .iter()
            .position(|i| i.mesh == mesh)
            .map_or(&[], |i| self.pose.morph.of(i))
    }
}

impl Viewer {
    /// What the panel edits, and what it shows (gathered now, once per frame).
    pub fn panel_parts(&mut self) -> (&mut Controls, Shown<'_>) {
        let driven_rate = self.driven_rate();
        let match_status = self.match_status();
        let ddm_status = self.ddm_status();
        let shown = Shown {
            character: &self.character,
            derived: &self.derived,
            pose: &self.pose,
            source: self.source.as_deref(),
            recent: &self.recent,
            allow_outside: self.allow_outside,
            load_error: self.load_error.as_deref(),
            graph_error: self.graph_error.as_deref(),
            machine: self.performer.machine.as_ref(),
            event_log: &self.event_log,
            stats: self.stats,
            angle_plot: &self.angle_plot,
            slide_plot: &self.slide_plot,
            picked_vertex: self.picked_vertex.as_ref(),
            crowd_limit: self.crowd_limit,
            graph_driven: self.graph_driven(),
            timeline: self.timeline_clip(),
            clip_time_shown: self.clip_time_shown(),
            at_end: self.at_end(),
            transition: self.transition_progress(),
            layer_weights: (self.layer_weight(), self.additive_weight()),
            driven_rate,
            placement: self.performer.locomotion.placement(),
            comparing: self.comparing(),
            plot_joint: self.plot_joint(),
            mocap: &self.mocap,
            external: self.performer.external(),
            external_weight: self.performer.external().weight(
                self.controls.mocap.external,
                self.controls.mocap.blend_back_secs,
            ),
            physics: self.performer.physics(),
            matching: self.performer.matching(),
            match_status,
            ddm_status,
            playing_clip: self.performer.playing_clip(&self.character),
            driver_weights: match &self.controls.drivers.set {
                Some(d) => self.pose.driver_weights(d),
                None => &[],
            },
            repair: &self.repair,
            repaired_path: self.repaired_path(),
            retarget: &self.retarget,
            retargeted_path: self.retargeted_path(),
            recording: (
                self.recording
                    .as_ref()
                    .map(super::record::Recording::progress),
                self.record_status.as_deref(),
            ),
            environment: (
                self.environment.source.as_deref(),
                self.environment.error.as_deref(),
            ),
            history: &self.history,
        };
        (&mut self.controls, shown)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_frames_a_second_read_as_two_frames_a_second() {
        let mut stats = super::Stats::default();
        for _ in 0..200 {
            stats.frame_took(0.5);
        }
        assert!((stats.fps - 2.0).abs() < 1e-3, "{}", stats.fps);
        assert_eq!(stats.frame_ms, 500.0);
    }
}
