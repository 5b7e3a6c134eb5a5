//! The window's history of what it played (`crate::history`): a frame kept after each frame
//! posed while playing (or changed while paused), within the section's seconds; rewinding shows
//! a kept frame exactly as it was drawn (its palettes equal to the bit), stepping moves one
//! frame, and playing on from a rewound frame restores the performer and the panel as they
//! were then. A history saved to a file replays on the same model (`--replay`): its frames are
//! shown and played through, and cannot be resumed.

use std::path::Path;
use std::sync::Arc;

use super::{Controls, Viewer};
use crate::history::{History, HistoryFileError};
use crate::perform::Performer;
use crate::pose::PoseRequest;

/// What resuming from a kept frame needs: the performer then, the panel's controls then
/// (shared between the frames they did not change over), and the skin-side inputs of its
/// request (per-joint methods, muscles, the ML deformer) to show it again.
pub struct Resume {
    performer: Performer,
    controls: Arc<Controls>,
    skin: PoseRequest,
}

/// The history's actions, from the panel and the keys.
#[derive(Clone, Debug, PartialEq)]
pub enum HistoryCommand {
    /// Show kept frame `k`, paused.
    RewindTo(usize),
    /// One kept frame back (true) or forward.
    Step(bool),
    /// Play on from the frame shown: the later frames are dropped.
    Resume,
    /// Back to the newest frame, live, keeping every frame.
    Live,
    /// Forget every frame.
    Clear,
    /// Save the kept frames to a file.
    Save(std::path::PathBuf),
    /// Replace them with a saved history's (`Viewer::replay`).
    Replay(std::path::PathBuf),
}

/// The history of the window, and where its playback through kept frames stands.
#[derive(Default)]
pub struct HistoryState {
    pub history: History<Resume>,
    /// Playing through the kept frames (a replayed file), at real time from the frame shown.
    pub playing: bool,
    /// The controls of the last frame kept (shared with the frames after it while unchanged).
    last_controls: Option<Arc<Controls>>,
    /// How the last save or replay went.
    pub status: Option<String>,
}

impl Viewer {
    /// Whether a kept frame is shown instead of the live one.
    pub fn rewound(&self) -> bool {
        self.history.history.cursor().is_some()
    }

    pub(super) fn history_command(&mut self, command: HistoryCommand) {
        let h = &mut self.history.history;
        match command {
            HistoryCommand::RewindTo(k) => {
                h.rewind_to(k);
                self.controls.playback.playing = false;
                self.history.playing = false;
            }
            HistoryCommand::Step(back) => {
                h.step(back);
                self.controls.playback.playing = false;
                self.history.playing = false;
            }
            HistoryCommand::Resume => self.resume_from_history(),
            HistoryCommand::Live => {
                h.go_live();
                self.history.playing = false;
            }
            HistoryCommand::Clear => {
                h.clear();
                self.history.last_controls = None;
            }
            HistoryCommand::Save(path) => {
                let text = crate::history::history_json(&self.character, h);
                self.history.status = Some(
                    match crate::files::write_bytes_whole(&path, text.as_bytes()) {
                        Ok(()) => format!("saved {} frames to {}", h.len(), path.display()),
                        Err(e) => format!("not saved: {e}"),
                    },
                );
            }
            HistoryCommand::Replay(path) => {
                if let Err(e) = self.replay(&path) {
                    self.history.status = Some(format!("not replayed: {e}"));
                }
            }
        }
        if self.rewound() {
            self.show_rewound();
        }
    }

    /// Play resumes from the frame shown: its performer and controls come back, the later
    /// frames go. A frame read from a file has no performer: its frames play through instead.
    fn resume_from_history(&mut self) {
        let resumable = (self.history.history.cursor())
            .and_then(|k| self.history.history.get(k))
            .is_some_and(|f| f.resume.is_some());
        if !resumable {
            self.history.playing = self.rewound();
            return;
        }
        let Some(frame) = self.history.history.resume_from_cursor() else {
            return;
        };
        let Some(resume) = &frame.resume else {
            return;
        };
        self.performer = resume.performer.snapshot();
        let mut controls = (*resume.controls).clone();
        // The panel stays as it is laid out now (its open section, its view).
        controls.view = self.controls.view.clone();
        controls.over_time = self.controls.over_time.clone();
        controls.playback.playing = true;
        self.history.last_controls = Some(resume.controls.clone());
        self.controls = controls;
        self.history.playing = false;
    }

    /// Shows the kept frame at the cursor: its pose composed again, its performer's state for
    /// the panel's readouts when it has one.
    pub(super) fn show_rewound(&mut self) {
        let Some(frame) = (self.history.history.cursor()).and_then(|k| self.history.history.get(k))
        else {
            return;
        };
        let skin = match &frame.resume {
            Some(r) => r.skin.clone(),
            None => self.pose_request(),
        };
        let c = &self.character;
        if let Err(e) = self.pose.restore(c, &frame.pose, &skin) {
            log::error!("showing the kept frame failed: {e}");
        }
        let mut posed = skin;
        posed.placement = frame.pose.placement;
        posed.palette = frame.pose.palette;
        self.posed = posed;
        if self.comparing() {
            let with = crate::draw::view::CompareWith::Palette(self.controls.debug.compare);
            let compared = crate::draw::view::pose_compared(
                c,
                &self.posed,
                &self.pose,
                with,
                &mut self.compare_pose,
            );
            if let Err(e) = compared {
                log::error!("posing failed: {e}");
            }
        }
        self.pose_over_time();
    }

    /// Playing through kept frames (a replay): the cursor moves on by `dt_secs` of their
    /// time, stopping at the last.
    pub(super) fn play_through_history(&mut self, dt_secs: f32) {
        let h = &mut self.history.history;
        let Some(k) = h.cursor() else {
            self.history.playing = false;
            return;
        };
        let now = h.get(k).map_or(0.0, |f| f.state.time_secs);
        let speed = f64::from(self.controls.playback.speed);
        let next = h.nearest(now + f64::from(dt_secs) * speed).unwrap_or(k);
        // At least a frame on (or back), so a slow frame rate still moves.
        let next = if next == k && speed != 0.0 && dt_secs > 0.0 {
            if speed > 0.0 {
                k + 1
            } else {
                k.saturating_sub(1)
            }
        } else {
            next
        };
        h.rewind_to(next);
        if next + 1 >= h.len() && speed > 0.0 || next == 0 && speed < 0.0 {
            self.history.playing = false;
        }
    }

    /// After a live frame is posed: keeps it (while playing, or when anything changed while
    /// paused), with the performer and controls to resume from.
    pub(super) fn keep_frame(&mut self, dt_secs: f32, changed: bool) {
        let over = &self.controls.over_time;
        if !over.keep_history {
            return;
        }
        let budget = over.history_secs;
        if self.history.history.budget_secs != budget {
            self.history.history.set_budget_secs(budget);
        }
        let moved = self.controls.playback.playing || changed;
        let same_controls = self
            .history
            .last_controls
            .as_ref()
            .is_some_and(|c| **c == self.controls);
        if !moved && same_controls && !self.history.history.is_empty() {
            return;
        }
        let controls = match (&self.history.last_controls, same_controls) {
            (Some(c), true) => c.clone(),
            _ => Arc::new(self.controls.clone()),
        };
        self.history.last_controls = Some(controls.clone());
        let inputs = self.controls.inputs(&self.character);
        let state = (self.performer).frame_state(&self.character, &inputs, &self.posed, dt_secs);
        let pose = self.pose.recorded(&self.posed);
        let skin = PoseRequest {
            joint_methods: self.posed.joint_methods.clone(),
            muscles: self.posed.muscles.clone(),
            ml: self.posed.ml.clone(),
            palette: self.posed.palette,
            placement: self.posed.placement,
            ..PoseRequest::default()
        };
        let bytes = self.performer.snapshot_bytes() + std::mem::size_of::<Resume>();
        let resume = Resume {
            performer: self.performer.snapshot(),
            controls,
            skin,
        };
        self.history.history.push(state, pose, Some(resume), bytes);
    }

    /// Replaces the history with a file's (`--replay`, the panel's "Replay..."), showing its
    /// first frame, paused.
    pub fn replay(&mut self, path: &Path) -> Result<(), String> {
        let cap = crate::history::MAX_HISTORY_FILE_BYTES;
        let text = skinscope_core::files::read_text_capped(path, cap).map_err(|e| e.to_string())?;
        let history = crate::history::history_from_json(&self.character, &text)
            .map_err(|e: HistoryFileError| format!("{}: {e}", path.display()))?;
        self.history.status = Some(format!(
            "replaying {} frames ({:.2} s) from {}",
            history.len(),
            history.span_secs(),
            path.display()
        ));
        self.history.history = history;
        self.history.last_controls = None;
        self.controls.over_time.keep_history = false;
        self.history.history.rewind_to(0);
        self.controls.playback.playing = false;
        self.show_rewound();
        Ok(())
    }
}
