//! Motion matching as the performer's source: a goal trajectory from springs on the
//! desired velocity and facing (Holden's controller), a search of the character's motion
//! database every 0.1 s of playback (and at once when the goal changes sharply), and the frame
//! found played from there through an inertialized switch (the performer makes the switch). The
//! character moves by the played clips' root motion; its placement is then eased toward the
//! goal's simulated position and facing, by at most 15% of its own speed (Holden's adjustment
//! by velocity; his 0.5 kept the mannequin within 1 cm of the path but slid its planted feet
//! 0.18 m/s, 0.15 keeps it within 11 cm at 0.12 m/s, none drifts 0.5 m at 0.22 m/s: the switches
//! slide the feet more than the adjustment does), so the path is kept without the feet sliding
//! much; and, Holden's clamping, kept within `CLAMP_MAX_HEIGHTS` of its height and
//! `CLAMP_MAX_ANGLE` of the goal, so a goal it cannot follow does not leave it behind.

use std::sync::Arc;

use glam::{Quat, Vec3};

use crate::anim::{FacingSpring, Placement, VelocitySpring, from_yaw, predict, yaw_of};
use crate::character::Character;
use crate::pose::{FEATURE_HZ, FEATURES, FUTURE_FRAMES, MotionDatabase};

/// How often the database is searched, seconds of playback.
pub const SEARCH_EVERY_SECS: f32 = 0.1;
/// The half-life of an inertialized switch to the frame found (Holden's 0.1 s).
pub const SWITCH_HALF_LIFE_SECS: f32 = 0.1;
/// The goal springs' half-lives (Holden's controller: 0.27 s for both).
pub const VELOCITY_HALF_LIFE_SECS: f32 = 0.27;
pub const FACING_HALF_LIFE_SECS: f32 = 0.27;
/// The placement's adjustment toward the goal: its half-life, and the most of the character's
/// own speed (and turn rate) it may add (see the module's documentation).
pub const ADJUST_HALF_LIFE_SECS: f32 = 0.1;
pub const ADJUST_MAX_RATIO: f32 = 0.15;
/// Holden's clamping: the character is kept within this part of its height of the goal's
/// simulated position (his 0.15 m on a 1.8 m character) and within `CLAMP_MAX_ANGLE` of its
/// facing, so a goal faster or sharper than its clips does not leave it behind.
pub const CLAMP_MAX_HEIGHTS: f32 = 0.15 / 1.8;
pub const CLAMP_MAX_ANGLE: f32 = std::f32::consts::FRAC_PI_2;
/// A goal change this sharp searches at once: this much speed (m/s) or this turn (radians).
pub const SHARP_SPEED: f32 = 0.5;
pub const SHARP_TURN: f32 = std::f32::consts::FRAC_PI_4;
/// Frames either side of the one playing that are not a switch (Holden's ignore_surrounding).
pub const SURROUNDING: usize = 20;
/// What another frame's cost must beat the one playing by (Holden's transition cost).
pub const TRANSITION_COST: f32 = 0.0;
/// Below this speed the goal keeps its last facing.
const STILL: f32 = 0.05;

/// The goal as asked for this frame: the desired world velocity (units a second).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchInput {
    pub velocity: Vec3,
}

/// What motion matching did, for the panel and the command line's report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchStats {
    /// Searches and switches so far.
    pub searches: u64,
    pub switches: u64,
    /// The database frame playing and the last search's best cost, with each feature group's
    /// share of it (the groups' order).
    pub frame: Option<usize>,
    pub cost: f32,
    pub group_costs: Vec<f32>,
    /// The last search's wall time, seconds (0 where no clock is kept).
    pub search_secs: f64,
    /// The goal trajectory (world): now and 20, 40 and 60 frames ahead, positions and facings.
    pub goal: [(Vec3, f32); 4],
    /// The frame playing's own trajectory laid from the character's placement (world).
    pub matched: [(Vec3, f32); 4],
}

/// Motion matching's clocks and goal springs: see the module's documentation.
#[derive(Clone, Debug, Default)]
pub struct MatchPlayer {
    db: Option<Arc<MotionDatabase>>,
    /// Each clip's first database frame and frame count (None: not in the database).
    clip_frames: Vec<Option<(usize, usize)>>,
    cyclic: Vec<bool>,
    started: bool,
    position: VelocitySpring,
    facing: FacingSpring,
    goal_facing: f32,
    since_search: f32,
    searched_goal: Vec3,
    query: Vec<f32>,
    scratch: Vec<f32>,
    pub stats: MatchStats,
    /// Report each search's best candidates (`last_report`); off, a search costs nothing more.
    pub report: bool,
    /// The last search's report (with `report` on).
    pub last_report: Option<super::match_report::SearchReport>,
}

/// A switch the search asks for: the clip and time to play, looping or not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Switch {
    pub clip: usize,
    pub time_secs: f32,
    pub looping: bool,
}

impl MatchPlayer {
    /// Uses `db` (built for `c`) from now on, the goal reset.
    pub fn set_database(&mut self, c: &Character, db: Arc<MotionDatabase>) {
        let mut clip_frames = vec![None; c.clips.len()];
        for (i, f) in db.frames.iter().enumerate() {
            if let Some(slot) = clip_frames.get_mut(f.clip) {
                let (start, n) = slot.get_or_insert((i, 0));
                *n = i + 1 - *start;
            }
        }
        // A clip loops in the database when every one of its frames is a candidate (a
        // non-looping clip's last second never is), as `build_database` found it.
        let runs = db.index.ranges();
        self.cyclic = clip_frames
            .iter()
            .map(|f| f.is_some_and(|(start, n)| runs.contains(&(start..start + n))))
            .collect();
        self.clip_frames = clip_frames;
        self.db = Some(db);
        self.reset();
    }

    pub fn database(&self) -> Option<&Arc<MotionDatabase>> {
        self.db.as_ref()
    }

    /// The goal starts again from the placement, still; the next step searches.
    pub fn reset(&mut self) {
        self.started = false;
        self.stats = MatchStats::default();
        self.last_report = None;
    }

    /// Clip `clip`'s travel when played in place (zero when it travels by root motion).
    pub fn travel(&self, clip: usize) -> Vec3 {
        self.db
            .as_ref()
            .and_then(|db| db.travel.get(clip).copied())
            .unwrap_or_default()
    }

    /// Where play starts: `clip` from its start when the database holds it, else the
    /// database's first frame.
    pub fn start(&self, clip: usize) -> Option<Switch> {
        let db = self.db.as_ref()?;
        let clip = if self.frame_of(clip, 0.0).is_some() {
            clip
        } else {
            db.frames.first()?.clip
        };
        Some(Switch {
            clip,
            time_secs: 0.0,
            looping: self.looping(clip),
        })
    }

    /// Whether clip `k` loops in the database (its future wraps).
    pub fn looping(&self, clip: usize) -> bool {
        self.cyclic.get(clip).copied().unwrap_or(false)
    }

    /// The database frame of `clip` at `time_secs`, if the clip is in the database.
    pub fn frame_of(&self, clip: usize, time_secs: f32) -> Option<usize> {
        let (start, n) = (*self.clip_frames.get(clip)?)?;
        let k = (time_secs.max(0.0) * FEATURE_HZ).round() as usize;
        Some(start + k.min(n - 1))
    }

    /// Carries the goal springs `dt_secs` toward `input`, from `placement` on the first step.
    pub fn advance_goal(&mut self, input: MatchInput, placement: Placement, dt_secs: f32) {
        let v = input.velocity.with_y(0.0);
        if !self.started {
            self.position = VelocitySpring {
                position: placement.position,
                ..VelocitySpring::default()
            };
            self.facing = FacingSpring {
                rotation: from_yaw(placement.yaw),
                ..FacingSpring::default()
            };
            self.goal_facing = placement.yaw;
            self.since_search = f32::INFINITY;
            self.searched_goal = v;
            self.started = true;
        }
        if v.length() > STILL {
            self.goal_facing = v.x.atan2(v.z);
        }
        self.position = self.position.after(v, VELOCITY_HALF_LIFE_SECS, dt_secs);
        self.facing = self
            .facing
            .after(from_yaw(self.goal_facing), FACING_HALF_LIFE_SECS, dt_secs);
        self.since_search += dt_secs;
        let (a, b) = (self.searched_goal, v);
        let turned = a.length() > STILL
            && b.length() > STILL
            && a.normalize().angle_between(b.normalize()) > SHARP_TURN;
        if turned || (a.length() - b.length()).abs() > SHARP_SPEED {
            self.since_search = f32::INFINITY;
        }
        self.stats.goal[0] = (self.position.position, yaw_of(self.facing.rotation));
    }

    /// The search, when one is due: the query is the frame playing's pose features and the
    /// goal trajectory in the character's facing frame; returns the frame to switch to when
    /// it is not the one playing. `playing` is the clip playing (none: no frame of the
    /// database plays) and its time. `clock` reads seconds (for the search time; may be
    /// absent).
    pub fn search(
        &mut self,
        playing: (Option<usize>, f32),
        placement: Placement,
        input: MatchInput,
        clock: Option<fn() -> f64>,
    ) -> Option<Switch> {
        let db = self.db.clone()?;
        let current = playing.0.and_then(|clip| self.frame_of(clip, playing.1));
        self.stats.frame = current;
        self.lay_matched(&db, current, placement);
        if self.since_search < SEARCH_EVERY_SECS {
            return None;
        }
        self.since_search = 0.0;
        self.searched_goal = input.velocity.with_y(0.0);
        self.query.resize(FEATURES, 0.0);
        self.scratch.resize(FEATURES, 0.0);
        match current {
            Some(f) => self
                .query
                .copy_from_slice(&db.raw[f * FEATURES..(f + 1) * FEATURES]),
            None => self.query.fill(0.0),
        }
        let goal_facing = from_yaw(self.goal_facing);
        let ahead = FUTURE_FRAMES.map(|f| f as f32 / FEATURE_HZ);
        let mut future = [(Vec3::ZERO, Quat::IDENTITY); 3];
        let springs = (self.position, self.facing);
        predict(
            springs,
            (self.searched_goal, goal_facing),
            VELOCITY_HALF_LIFE_SECS,
            &ahead,
            &mut future,
        );
        let to_facing = from_yaw(-placement.yaw);
        for (n, (p, f)) in future.iter().enumerate() {
            let at = to_facing * (*p - placement.position);
            let dir = to_facing * (*f * Vec3::Z);
            self.query[15 + 2 * n] = at.x;
            self.query[16 + 2 * n] = at.z;
            self.query[21 + 2 * n] = dir.x;
            self.query[22 + 2 * n] = dir.z;
            self.stats.goal[n + 1] = (*p, yaw_of(*f));
        }
        let started = clock.map(|c| c());
        let found = db.nearest(&self.query, current, &mut self.scratch).ok()??;
        if let (Some(c), Some(s)) = (clock, started) {
            self.stats.search_secs = c() - s;
        }
        self.stats.searches += 1;
        self.stats.cost = found.1;
        self.group_costs(&db, found.0);
        // Holden's search: a frame near the one playing is not a switch, and another must beat
        // the one playing by the transition cost.
        use super::match_report::SearchOutcome;
        let outcome = match current {
            None => SearchOutcome::Started,
            Some(f) => {
                let near = db.frames[f].clip == db.frames[found.0].clip
                    && f.abs_diff(found.0) < SURROUNDING;
                let playing_cost = db.index.candidate_cost(f, &self.scratch).ok().flatten();
                match playing_cost {
                    _ if near => SearchOutcome::KeptNear,
                    None => SearchOutcome::LeftEnd,
                    Some(c) if found.1 + TRANSITION_COST >= c => SearchOutcome::KeptCheaper,
                    Some(_) => SearchOutcome::Switched,
                }
            }
        };
        if self.report {
            self.last_report = Some(self.report_of(&db, current, outcome));
        }
        if !outcome.switched() {
            return None;
        }
        self.stats.switches += 1;
        self.stats.frame = Some(found.0);
        let f = db.frames[found.0];
        Some(Switch {
            clip: f.clip,
            time_secs: f.time_secs,
            looping: self.looping(f.clip),
        })
    }

    /// The last search's report: the best candidates and the frame playing, against the
    /// normalised query `nearest` left in `scratch`.
    fn report_of(
        &self,
        db: &MotionDatabase,
        current: Option<usize>,
        outcome: super::match_report::SearchOutcome,
    ) -> super::match_report::SearchReport {
        use super::match_report::{SearchReport, TOP_CANDIDATES, candidate};
        let best = db
            .index
            .nearest_k(&self.scratch, TOP_CANDIDATES)
            .unwrap_or_default();
        SearchReport {
            search: self.stats.searches,
            playing: current.map(|f| candidate(db, f, &self.scratch)),
            candidates: best
                .iter()
                .map(|&(f, _)| candidate(db, f, &self.scratch))
                .collect(),
            outcome,
            groups: db.groups.iter().map(|g| g.name.clone()).collect(),
        }
    }

    /// Each feature group's share of the best frame's cost (`scratch` holds the normalised
    /// query, as `nearest` left it).
    fn group_costs(&mut self, db: &MotionDatabase, best: usize) {
        let row = db.index.row(best);
        let mut at = 0;
        self.stats.group_costs.clear();
        for g in &db.groups {
            let cost = (at..at + g.dims)
                .map(|i| (row[i] - self.scratch[i]).powi(2))
                .sum();
            self.stats.group_costs.push(cost);
            at += g.dims;
        }
    }

    /// The frame playing's own future laid from the placement, for drawing.
    fn lay_matched(&mut self, db: &MotionDatabase, frame: Option<usize>, placement: Placement) {
        let turn = from_yaw(placement.yaw);
        self.stats.matched[0] = (placement.position, placement.yaw);
        let Some(f) = frame else {
            return;
        };
        let row = &db.raw[f * FEATURES..(f + 1) * FEATURES];
        for n in 0..3 {
            let at = turn * Vec3::new(row[15 + 2 * n], 0.0, row[16 + 2 * n]);
            let yaw = placement.yaw + row[21 + 2 * n].atan2(row[22 + 2 * n]);
            self.stats.matched[n + 1] = (placement.position + at, yaw);
        }
    }

    /// The move and turn that bring `placement` within `max_distance` of the goal's simulated
    /// position and within `CLAMP_MAX_ANGLE` of its facing (nothing when it is already).
    pub fn clamp(&self, placement: Placement, max_distance: f32) -> (Vec3, f32) {
        if !self.started {
            return (Vec3::ZERO, 0.0);
        }
        let off = (self.position.position - placement.position).with_y(0.0);
        let beyond = off.length() - max_distance;
        let travel = if beyond > 0.0 {
            off.normalize_or_zero() * beyond
        } else {
            Vec3::ZERO
        };
        let turn = wrap_angle(yaw_of(self.facing.rotation) - placement.yaw);
        let turn = turn - turn.clamp(-CLAMP_MAX_ANGLE, CLAMP_MAX_ANGLE);
        (travel, turn)
    }

    /// Eases the placement toward the goal's position and facing after root motion moved it by
    /// `moved` (and turned it by `turned`) this step: the adjustment is at most
    /// `ADJUST_MAX_RATIO` of that.
    pub fn adjustment(
        &self,
        placement: Placement,
        moved: (Vec3, f32),
        dt_secs: f32,
    ) -> (Vec3, f32) {
        if !self.started || dt_secs <= 0.0 {
            return (Vec3::ZERO, 0.0);
        }
        let fraction = 1.0 - crate::anim::decay(dt_secs, ADJUST_HALF_LIFE_SECS);
        let mut travel = (self.position.position - placement.position).with_y(0.0) * fraction;
        let most = ADJUST_MAX_RATIO * moved.0.with_y(0.0).length();
        if travel.length() > most {
            travel = travel.normalize_or_zero() * most;
        }
        let goal_yaw = yaw_of(self.facing.rotation);
        let off = wrap_angle(goal_yaw - placement.yaw) * fraction;
        let most_turn = ADJUST_MAX_RATIO * moved.1.abs();
        (travel, off.clamp(-most_turn, most_turn))
    }
}

/// An angle brought into -pi..pi.
fn wrap_angle(a: f32) -> f32 {
    let tau = std::f32::consts::TAU;
    a - tau * ((a + std::f32::consts::PI) / tau).floor()
}

/// Seconds on a monotonic clock, for the search time (the browser's performance clock there).
fn wall_clock() -> f64 {
    static START: std::sync::OnceLock<web_time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(web_time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

const CLOCK: Option<fn() -> f64> = Some(wall_clock);

impl super::Performer {
    /// Motion matching's database from now on (built for `c`); the goal starts again.
    pub fn set_motion_database(&mut self, c: &Character, db: Arc<MotionDatabase>) {
        self.matching.set_database(c, db);
    }

    /// Motion matching's player: its database, goal and search counts.
    pub fn matching(&self) -> &MatchPlayer {
        &self.matching
    }

    /// Reports each search's best candidates from now on (`MatchPlayer::last_report`), or not.
    pub fn report_searches(&mut self, on: bool) {
        self.matching.report = on;
        if !on {
            self.matching.last_report = None;
        }
    }

    /// Whether motion matching chooses what plays: asked for, with a database.
    pub fn matching_on(&self, inputs: &super::Inputs) -> bool {
        inputs.motion_matching.is_some() && self.matching.database().is_some()
    }

    /// The clip playing (the one motion matching chose, under it): none before the first
    /// step, or when the inputs name a clip `c` does not have.
    pub fn playing_clip(&self, c: &Character) -> Option<usize> {
        self.playing_clip.filter(|&k| k < c.clips.len())
    }

    /// After root motion moved the placement this step: the placement eased toward the goal,
    /// the goal's springs carried on, and a search when due, switched to by inertialization.
    pub(super) fn step_matching(&mut self, c: &Character, inputs: &super::Inputs, dt_secs: f32) {
        let Some(input) = inputs.motion_matching else {
            return;
        };
        // The goal lives on playback time, as the clips do: at --speed 2 the whole world runs
        // twice as fast, and a search comes every 0.1 s of playback.
        let dt = if inputs.playing {
            dt_secs * inputs.speed.max(0.0)
        } else {
            0.0
        };
        // An in-place clip travels as its planted feet need (the database's features did).
        let playing = self.playing_clip(c);
        let travel = playing.map_or(Vec3::ZERO, |k| self.matching.travel(k));
        if let Some(s) = self.steps.iter().find(|s| Some(s.clip) == playing)
            && travel != Vec3::ZERO
        {
            let yaw = self.locomotion.placement().yaw;
            let moved = from_yaw(yaw) * travel * (s.step.to_secs - s.step.from_secs);
            let ground = self.locomotion.ground.clone();
            self.locomotion.mover.step(&ground, moved, 0.0);
        }
        let placement = self.locomotion.placement();
        if let (Some(before), true) = (self.matched_from, dt > 0.0) {
            let moved = (
                placement.position - before.position,
                placement.yaw - before.yaw,
            );
            let (travel, turn) = self.matching.adjustment(placement, moved, dt);
            let ground = self.locomotion.ground.clone();
            self.locomotion.mover.step(&ground, travel, turn);
        }
        self.matching
            .advance_goal(input, self.locomotion.placement(), dt);
        if dt > 0.0 {
            let max_distance = CLAMP_MAX_HEIGHTS * self.height;
            let (travel, turn) = self
                .matching
                .clamp(self.locomotion.placement(), max_distance);
            if travel != Vec3::ZERO || turn != 0.0 {
                let ground = self.locomotion.ground.clone();
                self.locomotion.mover.step(&ground, travel, turn);
            }
        }
        let placement = self.locomotion.placement();
        self.matched_from = Some(placement);
        let playing = (playing, self.playback.time_secs());
        if let Some(switch) = self.matching.search(playing, placement, input, CLOCK) {
            self.switch_to(c, switch);
        }
    }

    /// Plays `switch` from now, through an inertialized switch from what was showing (an
    /// earlier switch's offsets carried over).
    pub(super) fn switch_to(&mut self, c: &Character, switch: Switch) {
        use crate::anim::{Playback, PlaybackMode};
        use crate::graph::{Motion, TransitionPlayer, TransitionSpec};
        let from = self.playing_clip(c).map(|clip| Motion::Clip {
            clip,
            playback: self.playback.clone(),
        });
        let speed = self.playback.speed;
        let paused = self.playback.paused;
        self.playback = Playback::new(c.clips[switch.clip].duration_secs());
        self.playback.mode = if switch.looping {
            PlaybackMode::Loop
        } else {
            PlaybackMode::Once
        };
        self.playback.speed = speed;
        self.playback.paused = paused;
        self.playback.seek(switch.time_secs);
        self.playing_clip = Some(switch.clip);
        let Some(from) = from else {
            return;
        };
        let incoming = Motion::Clip {
            clip: switch.clip,
            playback: self.playback.clone(),
        };
        let spec = TransitionSpec::Inertialize {
            half_life_secs: SWITCH_HALF_LIFE_SECS,
        };
        let mut player = TransitionPlayer::start(c, from, &incoming, spec);
        player.carry(self.transition.as_ref());
        self.transition = Some(player);
    }
}
