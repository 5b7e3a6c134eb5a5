//! The frames kept, oldest first, within a budget of seconds and bytes, and the one shown
//! while rewound.

use std::collections::VecDeque;

use super::frame::{FrameState, RecordedPose};

/// The seconds of play a history keeps by default (Unreal's Rewind Debugger keeps a session;
/// a window keeps the last half minute).
pub const DEFAULT_HISTORY_SECS: f32 = 30.0;
/// The most bytes a history keeps, whatever its seconds (a large rig at a high frame rate).
pub const MAX_HISTORY_BYTES: usize = 512 << 20;

/// One frame kept: what played, the pose drawn, and what resuming from it needs (`R`: the
/// window's performer and controls; none for a frame read from a file).
#[derive(Clone, Debug)]
pub struct HistoryFrame<R> {
    pub state: FrameState,
    pub pose: RecordedPose,
    pub resume: Option<R>,
    /// Bytes this frame holds, its resume state's included.
    bytes: usize,
}

/// The frames played, within `budget_secs` and `max_bytes`: see the module's documentation.
#[derive(Clone, Debug)]
pub struct History<R> {
    frames: VecDeque<HistoryFrame<R>>,
    /// Seconds of real time kept.
    pub budget_secs: f32,
    /// Bytes kept at most.
    pub max_bytes: usize,
    bytes: usize,
    /// The frame shown while rewound (an index into the frames kept); `None`: live.
    cursor: Option<usize>,
    /// Real time since the history began.
    clock: f64,
}

impl<R> Default for History<R> {
    fn default() -> Self {
        Self::new(DEFAULT_HISTORY_SECS)
    }
}

impl<R> History<R> {
    /// An empty history keeping `budget_secs` of play.
    pub fn new(budget_secs: f32) -> Self {
        Self {
            frames: VecDeque::new(),
            budget_secs,
            max_bytes: MAX_HISTORY_BYTES,
            bytes: 0,
            cursor: None,
            clock: 0.0,
        }
    }

    /// Keeps a frame `state.dt_secs` after the last (its time set here), `resume_bytes` the
    /// size of its resume state; the oldest frames go past the budget. Returns its index.
    pub fn push(
        &mut self,
        mut state: FrameState,
        pose: RecordedPose,
        resume: Option<R>,
        resume_bytes: usize,
    ) -> usize {
        if !self.frames.is_empty() {
            self.clock += f64::from(state.dt_secs.max(0.0));
        }
        state.time_secs = self.clock;
        let bytes = pose.bytes() + resume_bytes + std::mem::size_of::<HistoryFrame<R>>();
        self.bytes += bytes;
        self.frames.push_back(HistoryFrame {
            state,
            pose,
            resume,
            bytes,
        });
        self.trim();
        self.frames.len() - 1
    }

    /// A frame read from a file, its time as recorded.
    pub fn push_recorded(&mut self, state: FrameState, pose: RecordedPose) {
        self.clock = state.time_secs;
        let bytes = pose.bytes() + std::mem::size_of::<HistoryFrame<R>>();
        self.bytes += bytes;
        self.frames.push_back(HistoryFrame {
            state,
            pose,
            resume: None,
            bytes,
        });
    }

    /// Drops the oldest frames past the seconds or bytes kept (never the newest).
    fn trim(&mut self) {
        let newest = self.frames.back().map_or(0.0, |f| f.state.time_secs);
        // A hair over the budget: frame steps summed do not land on it exactly.
        let budget = f64::from(self.budget_secs.max(0.0)) + 1e-6;
        while self.frames.len() > 1
            && (newest - self.frames[0].state.time_secs > budget || self.bytes > self.max_bytes)
        {
            if let Some(f) = self.frames.pop_front() {
                self.bytes -= f.bytes;
            }
            self.cursor = self.cursor.map(|c| c.saturating_sub(1));
        }
    }

    /// Sets the seconds kept, dropping what is now past them.
    pub fn set_budget_secs(&mut self, secs: f32) {
        self.budget_secs = secs;
        self.trim();
    }

    pub fn len(&self) -> usize {
        self.frames.len()
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Seconds of real time from the oldest frame kept to the newest.
    pub fn span_secs(&self) -> f64 {
        match (self.frames.front(), self.frames.back()) {
            (Some(a), Some(b)) => b.state.time_secs - a.state.time_secs,
            _ => 0.0,
        }
    }

    pub fn frames(&self) -> impl ExactSizeIterator<Item = &HistoryFrame<R>> + '_ {
        self.frames.iter()
    }

    pub fn get(&self, k: usize) -> Option<&HistoryFrame<R>> {
        self.frames.get(k)
    }

    /// The frame shown while rewound (`None`: live).
    pub fn cursor(&self) -> Option<usize> {
        self.cursor
    }

    /// Shows frame `k` (clamped to the frames kept); nothing without frames.
    pub fn rewind_to(&mut self, k: usize) {
        if !self.frames.is_empty() {
            self.cursor = Some(k.min(self.frames.len() - 1));
        }
    }

    /// One frame back (from live: the newest) or forward (past the newest: stays there).
    pub fn step(&mut self, back: bool) {
        let last = self.frames.len().saturating_sub(1);
        let at = self.cursor.unwrap_or(last);
        self.rewind_to(if back {
            at.saturating_sub(1)
        } else {
            (at + 1).min(last)
        });
    }

    /// The frame nearest `time_secs` of the history's clock.
    pub fn nearest(&self, time_secs: f64) -> Option<usize> {
        let k = self
            .frames
            .partition_point(|f| f.state.time_secs < time_secs);
        let after = k.min(self.frames.len().checked_sub(1)?);
        let before = after.saturating_sub(1);
        let gap = |i: usize| (self.frames[i].state.time_secs - time_secs).abs();
        Some(if gap(before) <= gap(after) {
            before
        } else {
            after
        })
    }

    /// Back to live, keeping every frame.
    pub fn go_live(&mut self) {
        self.cursor = None;
    }

    /// Back to live from the frame shown: the frames after it are dropped (play resumes from
    /// it, and what is played next is recorded after it). Returns that frame.
    pub fn resume_from_cursor(&mut self) -> Option<&HistoryFrame<R>> {
        let k = self.cursor.take()?;
        while self.frames.len() > k + 1 {
            if let Some(f) = self.frames.pop_back() {
                self.bytes -= f.bytes;
            }
        }
        let frame = self.frames.back()?;
        self.clock = frame.state.time_secs;
        Some(frame)
    }

    /// Forgets every frame (another character was loaded).
    pub fn clear(&mut self) {
        self.frames.clear();
        self.bytes = 0;
        self.cursor = None;
        self.clock = 0.0;
    }
}
