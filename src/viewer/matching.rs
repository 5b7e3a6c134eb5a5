//! The window's motion matching: the goal velocity from the keys (WASD or the arrows, relative
//! to the camera; Shift runs), the character's database built on first use on a thread of its
//! own with its progress shown, and the goal's and the matched frame's trajectories drawn on
//! the floor.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::{Vec2, Vec3};

use super::Viewer;
use crate::pose::MotionDatabase;

/// A database being built: frames measured of all, and the thread's result.
pub struct MatchBuild {
    pub done: Arc<AtomicUsize>,
    pub total: Arc<AtomicUsize>,
    thread: Option<super::job::Job<Result<MotionDatabase, String>>>,
    /// The character generation it was started for.
    generation: u64,
}

/// Where the window's database stands.
#[derive(Clone, Debug, PartialEq)]
pub enum MatchStatus {
    /// Not asked for yet.
    None,
    /// Measuring: frames done, frames in all.
    Building(usize, usize),
    Ready,
    Failed(String),
}

impl MatchBuild {
    /// Builds `c`'s database on a thread, its feet those of foot IK's legs (`leg_ends`, found
    /// or set by hand in the panel).
    fn start(c: &crate::character::Character, leg_ends: &[usize], generation: u64) -> Self {
        let done = Arc::new(AtomicUsize::new(0));
        let total = Arc::new(AtomicUsize::new(1));
        let (d, t) = (done.clone(), total.clone());
        let c = c.clone();
        let legs: Vec<crate::anim::Chain> = leg_ends
            .iter()
            .filter_map(|&j| crate::anim::Chain::ending_at(&c.skeleton, j))
            .collect();
        let thread = super::job::Job::start(move || {
            let clips = crate::builtin::motion_clips(&c);
            let weights = crate::pose::MatchWeights::default();
            let joints = crate::pose::FeatureJoints::of_legs(&c, &legs);
            let mut progress = |n: usize, all: usize| {
                t.store(all, Ordering::Relaxed);
                d.store(n, Ordering::Relaxed);
            };
            crate::pose::build_database_with(&c, (&clips, &weights, joints), &mut progress)
                .map_err(|e| e.to_string())
        });
        Self {
            done,
            total,
            thread: Some(thread),
            generation,
        }
    }
}

impl Viewer {
    /// The goal from the keys this frame: `keys` (x: right, y: ahead, each -1..1) turned from
    /// the camera's view (`camera_yaw`, 0 looking from +Z), at the walk speed or the run speed.
    pub fn steer(&mut self, keys: Vec2, run: bool, camera_yaw: f32) {
        let c = &mut self.controls;
        let ahead = Vec3::new(-camera_yaw.sin(), 0.0, -camera_yaw.cos());
        let right = Vec3::new(camera_yaw.cos(), 0.0, -camera_yaw.sin());
        let direction = (ahead * keys.y + right * keys.x).normalize_or_zero();
        let speed = if run {
            c.matching.run_speed
        } else {
            c.matching.walk_speed
        };
        c.matching.velocity = direction * speed;
    }

    /// Before the clocks: the database started on first use, and handed to the performer when
    /// it is built.
    pub(super) fn advance_matching(&mut self) {
        if !self.controls.matching.on || self.performer.matching().database().is_some() {
            return;
        }
        let stale = self
            .match_build
            .as_ref()
            .is_some_and(|b| b.generation != self.generation);
        if self.match_error.is_some() && !stale {
            // This character cannot be matched (no legs, no clips): it stays off, the panel
            // saying why.
            self.controls.matching.on = false;
            return;
        }
        if self.match_build.is_none() || stale {
            self.match_error = None;
            let legs = self.controls.motion.leg_ends.clone();
            self.match_build = Some(MatchBuild::start(&self.character, &legs, self.generation));
            return;
        }
        let Some(build) = self.match_build.as_mut() else {
            return;
        };
        if !build.thread.as_ref().is_some_and(|t| t.is_finished()) {
            return;
        }
        let result = build
            .thread
            .take()
            .map(|t| t.join().unwrap_or_else(|_| Err("the build stopped".into())));
        match result {
            Some(Ok(db)) => {
                let db = Arc::new(db);
                self.performer.set_motion_database(&self.character, db);
            }
            Some(Err(e)) => {
                self.match_error = Some(e);
                self.controls.matching.on = false;
            }
            None => {}
        }
    }

    /// Where the database stands, for the panel.
    pub fn match_status(&self) -> MatchStatus {
        if self.performer.matching().database().is_some() {
            return MatchStatus::Ready;
        }
        if let Some(e) = &self.match_error {
            return MatchStatus::Failed(e.clone());
        }
        match &self.match_build {
            Some(b) if b.thread.is_some() => MatchStatus::Building(
                b.done.load(Ordering::Relaxed),
                b.total.load(Ordering::Relaxed),
            ),
            _ => MatchStatus::None,
        }
    }

    /// The goal trajectory (yellow) and the matched frame's own (cyan) on the floor, with a tick
    /// for each facing, while motion matching steers.
    pub(super) fn matching_lines(&self, out: &mut Vec<(Vec3, Vec3, [f32; 4])>) {
        if !self.controls.matching.on || self.performer.matching().database().is_none() {
            return;
        }
        let stats = &self.performer.matching().stats;
        crate::draw::matching_lines(stats, self.derived.height, out);
    }
}
