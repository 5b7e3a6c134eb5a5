//! A performance as the command line plays it: the one `Performer` the window steps too, the
//! inputs it reads each frame, how far it plays (`Run`), a transition due on the way, a live
//! motion-capture stream and the impulses asked for.

use skinscope::character::Character;
use skinscope::graph::TransitionSpec;
use skinscope::perform::{Inputs, Performer};
use skinscope::pose::{CharacterPose, PoseRequest};

/// How the command line reaches the frame it poses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Run {
    /// At clip time `time`, exactly, without stepping (`Performer::cue`); a transition due by
    /// then is started at its time and stepped once to `time`.
    Cue { time: f32 },
    /// From t = 0, `frames` steps of `dt_secs` real seconds, as the window plays.
    Step { frames: usize, dt_secs: f32 },
    /// A recorded sequence: from t = 0, `lead_in` steps of `lead_dt` seconds (at most 1/60 s)
    /// to its first frame, then `frames - 1` steps of `dt_secs`; every step is posed, the
    /// sequence's frame k being step `lead_in + k`.
    Sequence {
        lead_in: usize,
        lead_dt: f32,
        frames: usize,
        dt_secs: f32,
    },
}

impl Run {
    /// How many steps a run takes after its first pose (`Cue`: none), and step k's length.
    fn steps(&self) -> (usize, impl Fn(usize) -> f32 + use<>) {
        let (steps, lead_in, lead_dt, dt) = match *self {
            Run::Cue { .. } => (0, 0, 0.0, 0.0),
            Run::Step { frames, dt_secs } => (frames, 0, 0.0, dt_secs),
            Run::Sequence {
                lead_in,
                lead_dt,
                frames,
                dt_secs,
            } => (
                lead_in + frames.saturating_sub(1),
                lead_in,
                lead_dt,
                dt_secs,
            ),
        };
        (steps, move |k| if k <= lead_in { lead_dt } else { dt })
    }

    /// The run's time after `k` steps, as a product (not a running sum, whose rounding would
    /// move a goal's or an impulse's time by a step).
    fn time_after(&self, k: usize) -> f32 {
        match *self {
            Run::Cue { .. } => 0.0,
            Run::Step { dt_secs, .. } => k as f32 * dt_secs,
            Run::Sequence {
                lead_in,
                lead_dt,
                dt_secs,
                ..
            } => {
                let lead = k.min(lead_in);
                lead as f32 * lead_dt + (k - lead) as f32 * dt_secs
            }
        }
    }
}

/// `--transition`: the incoming clip, the first clip's time it starts at, and how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cue {
    pub to: usize,
    pub start_secs: f32,
    pub spec: TransitionSpec,
}

/// A character's performance as the options describe it: the one `Performer` the window steps
/// too, the inputs it reads each frame, and how far it plays.
pub struct Performance {
    pub performer: Performer,
    pub inputs: Inputs,
    pub run: Run,
    pub transition: Option<Cue>,
    /// `--mocap-listen`'s stream and how long to wait for its first frame.
    pub listener: Option<(skinscope::mocap::MocapListener, f32)>,
    /// `--impulse`s not yet given, in time order.
    pub impulses: Vec<super::physics::Impulse>,
    /// Motion matching's goal velocities (`--motion-matching --path`).
    pub goal: Option<super::matching::GoalPath>,
    /// Every search motion matching reported over the run (`--match-report`).
    pub searches: Vec<skinscope::perform::SearchReport>,
}

impl Performance {
    /// The trail of a character that travelled (root motion applied or driven, motion
    /// matching) and motion matching's trajectories, as overlay lines.
    pub fn overlay(&self, c: &Character) -> Vec<skinscope::draw::OverlayLine> {
        use skinscope::graph::MoveMode;
        let height = skinscope::pose::character_height(c);
        let matching = self.inputs.motion_matching.is_some();
        let travels = matches!(self.inputs.move_mode, MoveMode::Applied | MoveMode::Driven);
        let mut out = Vec::new();
        if travels || matching {
            out.extend(skinscope::draw::trail_lines(
                &self.performer.locomotion.trail,
                height,
            ));
        }
        if matching {
            skinscope::draw::matching_lines(&self.performer.matching().stats, height, &mut out);
        }
        out
    }

    /// What motion matching played by the end of the run (`None` without it).
    pub fn match_report(&self, c: &Character) -> Option<skinscope::debug::export::MatchReport> {
        self.inputs.motion_matching?;
        let m = self.performer.matching();
        let clip = self.performer.playing_clip(c)?;
        let placement = self.performer.locomotion.placement();
        Some(skinscope::debug::export::MatchReport {
            clip: c.clips[clip].clip.name().to_string(),
            time: self.performer.time_secs(c, self.inputs.playing()),
            searches: m.stats.searches,
            switches: m.stats.switches,
            frame: m.stats.frame,
            position: placement.position.to_array(),
            yaw: placement.yaw,
            goal_position: m.stats.goal[0].0.to_array(),
        })
    }

    /// Plays the run, calling `each(k, request)` for every frame posed (frame 0 first; an error
    /// stops the run), and returns the last frame's request. Feet are settled after each frame
    /// when foot IK is on.
    pub fn play(
        &mut self,
        c: &Character,
        mut each: impl FnMut(usize, &PoseRequest) -> Result<(), String>,
    ) -> Result<PoseRequest, String> {
        let (performer, inputs) = (&mut self.performer, &mut self.inputs);
        if let Some((listener, wait)) = &mut self.listener {
            super::mocap::first_frame(listener, c, performer, *wait)?;
        }
        match self.run {
            Run::Cue { time } => {
                match self.transition {
                    Some(t) if time >= t.start_secs => {
                        performer.cue(c, inputs, t.start_secs);
                        inputs.clip = Some(t.to);
                        performer.start_transition(c, inputs, t.spec);
                        performer.step(c, inputs, (time - t.start_secs) / inputs.speed);
                    }
                    _ => performer.cue(c, inputs, time),
                }
                performer.prepare(c, inputs);
                let mut request = performer.request(c, inputs);
                if inputs.muscles.is_some() {
                    let mut pose = CharacterPose::new(c);
                    pose.evaluate(c, &request).map_err(|e| e.to_string())?;
                    performer.apply_muscles(inputs, &mut request, &mut pose, 0.0);
                }
                each(0, &request)?;
                Ok(request)
            }
            Run::Step { .. } | Run::Sequence { .. } => {
                let recording = matches!(self.run, Run::Sequence { .. });
                let (frames, step_secs) = self.run.steps();
                performer.cue(c, inputs, 0.0);
                let mut pending = self.transition;
                let mut pose = CharacterPose::new(c);
                let what = if recording { "recording" } else { "playing" };
                let mut progress = super::out::Progress::new(what, frames);
                for k in 0..=frames {
                    if recording {
                        progress.step(k);
                    } else {
                        progress.tick(k);
                    }
                    let dt_secs = if k > 0 { step_secs(k) } else { 0.0 };
                    let now = self.run.time_after(k);
                    if k > 0 {
                        // A transition starts at the first frame its start has been reached, as
                        // the window's Transition button would start it then.
                        if let Some(t) = pending
                            && performer.time_secs(c, inputs.playing()) >= t.start_secs
                        {
                            inputs.clip = Some(t.to);
                            performer.start_transition(c, inputs, t.spec);
                            pending = None;
                        }
                        if let Some((listener, _)) = &mut self.listener
                            && let Some(frame) = listener.poll(&c.skeleton)
                        {
                            performer.receive_external(frame);
                        }
                        if let (Some(goal), Some(input)) = (&self.goal, &mut inputs.motion_matching)
                        {
                            input.velocity = goal.velocity_at(now);
                        }
                        performer.step(c, inputs, dt_secs);
                        let reported = performer.matching().last_report.as_ref();
                        if let Some(r) = reported.filter(|r| {
                            self.searches
                                .last()
                                .is_none_or(|last| last.search < r.search)
                        }) {
                            self.searches.push(r.clone());
                        }
                    }
                    performer.prepare(c, inputs);
                    let mut request = performer.request(c, inputs);
                    let physical = inputs.physics.mode.is_some();
                    if inputs.foot_ik || physical {
                        // The animated pose: the feet settle on it, the ragdoll chases it.
                        pose.evaluate(c, &request).map_err(|e| e.to_string())?;
                        performer.settle_feet(c, inputs, &request, &pose);
                    }
                    if physical {
                        performer
                            .apply_physics(c, inputs, &mut request, &mut pose, dt_secs)
                            .map_err(|e| e.to_string())?;
                        // The impulses due by this frame act in the next step.
                        let due = self.impulses.iter();
                        let due = due.take_while(|i| i.at_secs <= now + 1e-6).count();
                        for i in self.impulses.drain(..due) {
                            performer.impulse(i.joint, i.impulse, None);
                        }
                    }
                    if inputs.muscles.is_some() {
                        if !(inputs.foot_ik || physical) {
                            pose.evaluate(c, &request).map_err(|e| e.to_string())?;
                        }
                        performer.apply_muscles(inputs, &mut request, &mut pose, dt_secs);
                    }
                    each(k, &request)?;
                    if k == frames {
                        return Ok(request);
                    }
                }
                unreachable!("the loop returns at its last frame")
            }
        }
    }
}
