//! A state machine playing a `Graph`: parameters, the current state's motion and layers, the
//! transition in progress, and the events every playing clip fires. Advanced by real seconds;
//! `request` says what to pose.

use crate::anim::{PlaybackMode, for_each_crossed_event};
use crate::character::Character;
use crate::pose::{PaletteMode, PoseRequest, TimeWrap};

use super::def::{Graph, MotionDef, ParamKind, StateDef, Test, WeightSource};
use super::players::{ClipStep, LayerPlayer, Motion, TransitionPlayer};

/// An event a playing clip crossed.
#[derive(Clone, Debug, PartialEq)]
pub struct FiredEvent {
    pub clip: usize,
    pub name: String,
    pub time_secs: f32,
}

/// Clones share the graph.
#[derive(Clone)]
pub struct Machine {
    pub graph: std::sync::Arc<Graph>,
    /// Each parameter's value (bools and triggers 0 or 1).
    values: Vec<f32>,
    current: usize,
    motion: Motion,
    transition: Option<(usize, TransitionPlayer)>,
    /// One player per layer of every state, state after state (a state's layers ease out when
    /// it is left).
    layers: Vec<(usize, usize, LayerPlayer)>,
    /// Playback rate of every clock, and pause.
    pub speed: f32,
    pub paused: bool,
    /// The events fired by the last `advance`.
    pub fired: Vec<FiredEvent>,
    steps: Vec<ClipStep>,
    /// How many of `steps` the current motion took (its clips come first).
    motion_steps: usize,
}

fn motion_of(c: &Character, values: &[f32], state: &StateDef) -> Motion {
    match &state.motion {
        MotionDef::Clip {
            clip,
            speed,
            looping,
        } => {
            let mode = if *looping {
                PlaybackMode::Loop
            } else {
                PlaybackMode::Once
            };
            Motion::clip(c, *clip, *speed, mode)
        }
        MotionDef::Space {
            parameter,
            space,
            speed,
        } => Motion::space(space.clone(), values[*parameter], *speed),
    }
}

impl Machine {
    pub fn new(c: &Character, graph: Graph) -> Self {
        let values: Vec<f32> = graph.parameters.iter().map(|p| p.default).collect();
        let current = graph.initial.min(graph.states.len().saturating_sub(1));
        let motion = motion_of(c, &values, &graph.states[current]);
        let layers = graph
            .states
            .iter()
            .enumerate()
            .flat_map(|(s, state)| {
                state.layers.iter().enumerate().map(move |(l, def)| {
                    let player = LayerPlayer::new(
                        c,
                        def.clip,
                        def.mask.clone(),
                        def.blend,
                        def.half_life_secs,
                    );
                    (s, l, player)
                })
            })
            .collect();
        let mut machine = Self {
            graph: std::sync::Arc::new(graph),
            values,
            current,
            motion,
            transition: None,
            layers,
            speed: 1.0,
            paused: false,
            fired: Vec::new(),
            steps: Vec::new(),
            motion_steps: 0,
        };
        machine.set_layer_targets();
        // Layers of the first state start at their weights, not eased in from 0.
        for (_, _, player) in &mut machine.layers {
            player.weight = player.target;
        }
        machine
    }

    pub fn current_state(&self) -> usize {
        self.current
    }

    pub fn state_name(&self, state: usize) -> &str {
        &self.graph.states[state].name
    }

    /// The transition in progress: the state it comes from and its progress (0..1).
    pub fn transition(&self) -> Option<(usize, &TransitionPlayer)> {
        self.transition.as_ref().map(|(from, t)| (*from, t))
    }

    pub fn value(&self, parameter: usize) -> f32 {
        self.values.get(parameter).copied().unwrap_or(0.0)
    }

    /// Sets a parameter (clamped to a float's range; bools and triggers: nonzero is set).
    pub fn set(&mut self, parameter: usize, value: f32) {
        let Some(def) = self.graph.parameters.get(parameter) else {
            return;
        };
        let value = match def.kind {
            ParamKind::Float { min, max } if value.is_finite() => value.clamp(min, max),
            ParamKind::Float { .. } => return,
            ParamKind::Bool | ParamKind::Trigger => f32::from(u8::from(value != 0.0)),
        };
        self.values[parameter] = value;
    }

    fn holds(&self, parameter: usize, test: Test) -> bool {
        let v = self.value(parameter);
        match test {
            Test::Above(x) => v > x,
            Test::Below(x) => v < x,
            Test::Is(b) => (v != 0.0) == b,
            Test::Set => v != 0.0,
        }
    }

    /// The first transition out of the current state whose conditions hold (none while one is
    /// in progress).
    fn due_transition(&self) -> Option<usize> {
        if self.transition.is_some() {
            return None;
        }
        self.graph.transitions.iter().position(|t| {
            t.from.is_none_or(|f| f == self.current)
                && t.to != self.current
                && t.exit_time.is_none_or(|e| self.motion.ratio() >= e)
                && t.when.iter().all(|c| self.holds(c.parameter, c.test))
        })
    }

    fn set_layer_targets(&mut self) {
        for (state, l, player) in &mut self.layers {
            let def = &self.graph.states[*state].layers[*l];
            let weight = match def.weight {
                WeightSource::Constant(w) => w,
                WeightSource::Parameter(p) => {
                    let v = self.values.get(p).copied().unwrap_or(0.0);
                    match self.graph.parameters[p].kind {
                        ParamKind::Float { min, max } => ((v - min) / (max - min)).clamp(0.0, 1.0),
                        _ => v,
                    }
                }
            };
            player.target = if *state == self.current { weight } else { 0.0 };
        }
    }

    /// Advances by `dt_secs` of real time: takes a due transition, advances every clock and
    /// collects the events crossed (`fired`).
    pub fn advance(&mut self, c: &Character, dt_secs: f32) {
        self.fired.clear();
        if let Some(k) = self.due_transition() {
            let def = &self.graph.transitions[k];
            let (to, spec) = (def.to, def.spec);
            for cond in &def.when {
                if self.graph.parameters[cond.parameter].kind == ParamKind::Trigger {
                    self.values[cond.parameter] = 0.0;
                }
            }
            let mut next = motion_of(c, &self.values, &self.graph.states[to]);
            next.set_paused(self.paused);
            let from = std::mem::replace(&mut self.motion, next);
            let player = TransitionPlayer::start(c, from, &self.motion, spec);
            self.transition = Some((self.current, player));
            self.current = to;
        }
        self.set_layer_targets();
        let dt = if self.paused {
            0.0
        } else {
            dt_secs * self.speed.abs()
        };
        let parameter = |m: &MotionDef| match m {
            MotionDef::Space { parameter, .. } => self.values[*parameter],
            MotionDef::Clip { .. } => 0.0,
        };
        let here = parameter(&self.graph.states[self.current].motion);
        self.steps.clear();
        let speed = self.speed.signum();
        self.motion.set_paused(self.paused);
        self.motion.advance(c, dt * speed, here, &mut self.steps);
        self.motion_steps = self.steps.len();
        if let Some((from, player)) = self.transition.as_mut() {
            let there = parameter(&self.graph.states[*from].motion);
            // A transition's clock is real time, whatever the playback speed.
            let real = if self.paused { 0.0 } else { dt_secs };
            player.advance(c, real, self.speed, there, &mut self.steps);
            if player.done() {
                self.transition = None;
            }
        }
        for (_, _, player) in &mut self.layers {
            player.advance(dt * speed, 1.0, self.paused, &mut self.steps);
        }
        for s in &self.steps {
            let Some(data) = c.clips.get(s.clip) else {
                continue;
            };
            let (events, d) = (data.clip.events(), data.clip.duration_secs());
            for_each_crossed_event(events, d, s.mode, s.step, |e| {
                self.fired.push(FiredEvent {
                    clip: s.clip,
                    name: e.name.clone(),
                    time_secs: e.time_secs,
                });
            });
        }
    }

    /// What to pose now.
    pub fn request(&self, c: &Character, palette: PaletteMode, compressed: bool) -> PoseRequest {
        let (clip, blend) = self.motion.source(c);
        PoseRequest {
            clip: Some(clip),
            blend,
            wrap: TimeWrap::Clamp,
            transition: self.transition.as_ref().map(|(_, t)| t.transition(c)),
            layers: self
                .layers
                .iter()
                .filter_map(|l| l.2.pose_layer())
                .collect(),
            palette,
            compressed,
            ..PoseRequest::default()
        }
    }

    /// The current motion's clip steps in the last `advance`, each with its blend weight (what
    /// root motion is extracted from).
    pub fn motion_parts(&self) -> Vec<(ClipStep, f32)> {
        let steps = &self.steps[..self.motion_steps.min(self.steps.len())];
        match (&self.motion, steps) {
            (Motion::Space(s), [a, b]) => vec![(*a, 1.0 - s.point.weight), (*b, s.point.weight)],
            (_, [a, ..]) => vec![(*a, 1.0)],
            _ => Vec::new(),
        }
    }

    /// The clip times playing now, for the panel: the current motion's main clip and time.
    pub fn motion(&self) -> &Motion {
        &self.motion
    }
}

/// The fixed step `simulate` runs at.
pub const SIMULATION_HZ: f32 = 60.0;

/// Runs `graph` from t = 0 with `params` set at the start, at 60 Hz for `secs` seconds, and
/// returns the machine at the last frame.
pub fn simulate(c: &Character, graph: Graph, params: &[(usize, f32)], secs: f32) -> Machine {
    let mut machine = Machine::new(c, graph);
    for &(p, v) in params {
        machine.set(p, v);
    }
    let steps = (secs.max(0.0) * SIMULATION_HZ).round() as usize;
    for _ in 0..steps {
        machine.advance(c, 1.0 / SIMULATION_HZ);
    }
    machine
}
