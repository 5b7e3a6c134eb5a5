//! Playback: a playhead over one clip (speed, looping or once, events), and a locomotion blend
//! that plays two clips of different durations in step.
//!
//! Event rule: an event fires when the playhead arrives at or passes its time, never when it
//! leaves it. Forward from `a` to `b` fires events in `(a, b]`; backward fires those in `[b, a)`.
//! Looping counts in unwrapped time, so crossing the end fires the events past the start once.
//! Seeking fires nothing; advancing by zero fires nothing. A step longer than a whole loop fires
//! each event once (not once per lap).

use super::ClipEvent;

/// What happens at the ends of a clip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlaybackMode {
    /// Time wraps by floor-modulo into `[0, duration)`, forward and backward.
    #[default]
    Loop,
    /// Time clamps to `[0, duration]` and holds the end.
    Once,
}

/// One advance of a playhead, in unwrapped clip seconds: `to_secs` may lie outside the clip when
/// a loop was crossed. Used to find crossed events.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    pub from_secs: f32,
    pub to_secs: f32,
}

/// `t` wrapped into `[0, duration)` by floor-modulo (so -0.25 on a 1 s clip is 0.75); 0 for a
/// zero-length clip.
pub fn wrap_time(t: f32, duration_secs: f32) -> f32 {
    if duration_secs.is_nan() || duration_secs <= 0.0 || !t.is_finite() {
        return 0.0;
    }
    let r = t - duration_secs * (t / duration_secs).floor();
    // Rounding can land exactly on `duration` for tiny negative t.
    if r >= duration_secs || r < 0.0 {
        0.0
    } else {
        r
    }
}

/// A playhead over a clip of `duration_secs`.
#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    duration_secs: f32,
    time_secs: f32,
    /// Playback rate; negative plays backwards.
    pub speed: f32,
    pub mode: PlaybackMode,
    pub paused: bool,
}

impl Playback {
    pub fn new(duration_secs: f32) -> Self {
        Self {
            duration_secs: if duration_secs.is_finite() {
                duration_secs.max(0.0)
            } else {
                0.0
            },
            time_secs: 0.0,
            speed: 1.0,
            mode: PlaybackMode::Loop,
            paused: false,
        }
    }

    pub fn duration_secs(&self) -> f32 {
        self.duration_secs
    }

    /// Clip time in `[0, duration)` when looping, `[0, duration]` when playing once.
    pub fn time_secs(&self) -> f32 {
        self.time_secs
    }

    /// Normalised time: `time / duration`, in `[0, 1)` when looping (`[0, 1]` once); 0 for a
    /// zero-length clip.
    pub fn ratio(&self) -> f32 {
        if self.duration_secs > 0.0 {
            self.time_secs / self.duration_secs
        } else {
            0.0
        }
    }

    /// Moves the playhead without firing events.
    pub fn seek(&mut self, time_secs: f32) {
        self.time_secs = self.settle(time_secs);
    }

    /// Seeks to a normalised time (`ratio * duration`).
    pub fn seek_ratio(&mut self, ratio: f32) {
        self.seek(ratio * self.duration_secs);
    }

    fn settle(&self, t: f32) -> f32 {
        if !t.is_finite() {
            return self.time_secs;
        }
        match self.mode {
            PlaybackMode::Loop => wrap_time(t, self.duration_secs),
            PlaybackMode::Once => t.clamp(0.0, self.duration_secs),
        }
    }

    /// Advances by `dt_secs` of wall time times `speed` (nothing while paused) and returns the
    /// step taken, for `for_each_crossed_event`.
    pub fn advance(&mut self, dt_secs: f32) -> Step {
        let from_secs = self.time_secs;
        let delta = if self.paused {
            0.0
        } else {
            dt_secs * self.speed
        };
        if !delta.is_finite() || self.duration_secs <= 0.0 {
            return Step {
                from_secs,
                to_secs: from_secs,
            };
        }
        let to_secs = match self.mode {
            PlaybackMode::Loop => from_secs + delta,
            PlaybackMode::Once => (from_secs + delta).clamp(0.0, self.duration_secs),
        };
        self.time_secs = self.settle(to_secs);
        Step { from_secs, to_secs }
    }

    /// Advances and calls `on_event` for every event of `events` (sorted by time, as `Clip` keeps
    /// them) that the step crossed, in the order the playhead met them.
    pub fn advance_with_events<'e>(
        &mut self,
        dt_secs: f32,
        events: &'e [ClipEvent],
        on_event: impl FnMut(&'e ClipEvent),
    ) {
        let step = self.advance(dt_secs);
        for_each_crossed_event(events, self.duration_secs, self.mode, step, on_event);
    }
}

/// Calls `on_event` for each event (sorted by time) that `step` crossed on a clip of
/// `duration_secs`, in the order met: forward `(from, to]`, backward `[to, from)`, in unwrapped
/// time, so a looped clip's events recur every `duration_secs`.
pub fn for_each_crossed_event<'e>(
    events: &'e [ClipEvent],
    duration_secs: f32,
    mode: PlaybackMode,
    step: Step,
    mut on_event: impl FnMut(&'e ClipEvent),
) {
    let Step { from_secs, to_secs } = step;
    if events.is_empty() || from_secs == to_secs || duration_secs.is_nan() || duration_secs <= 0.0 {
        return;
    }
    let forward = to_secs > from_secs;
    let crossed = |t: f32| {
        if forward {
            from_secs < t && t <= to_secs
        } else {
            to_secs <= t && t < from_secs
        }
    };
    if mode == PlaybackMode::Once {
        // No wrapping: one pass over the clip's own times.
        if forward {
            events
                .iter()
                .filter(|e| crossed(e.time_secs))
                .for_each(on_event);
        } else {
            let crossed_events = events.iter().rev().filter(|e| crossed(e.time_secs));
            crossed_events.for_each(on_event);
        }
        return;
    }
    if (to_secs - from_secs).abs() >= duration_secs {
        // A whole loop or more in one step: each event once.
        if forward {
            events.iter().for_each(&mut on_event);
        } else {
            events.iter().rev().for_each(&mut on_event);
        }
        return;
    }
    // Less than one lap: only the laps holding `from` and its neighbour can be crossed.
    let lap = (from_secs / duration_secs).floor();
    if forward {
        for k in [lap, lap + 1.0] {
            let offset = k * duration_secs;
            for e in events.iter().filter(|e| crossed(e.time_secs + offset)) {
                on_event(e);
            }
        }
    } else {
        for k in [lap, lap - 1.0] {
            let offset = k * duration_secs;
            for e in events
                .iter()
                .rev()
                .filter(|e| crossed(e.time_secs + offset))
            {
                on_event(e);
            }
        }
    }
}

/// Two clips of different durations (say idle and walk) blended by one weight, played in step:
/// one normalised phase drives both, so both are at the same ratio of their cycles and feet do not
/// slide. The shared cycle lasts `lerp(duration_a, duration_b, weight)` seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct SyncedBlend {
    duration_a_secs: f32,
    duration_b_secs: f32,
    /// Weight of clip B in [0, 1]; A gets `1 - weight`.
    pub weight: f32,
    /// The shared phase, as a playhead over a cycle of length 1.
    pub phase: Playback,
}

/// One advance of a `SyncedBlend`: the step each clip took, in its own seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SyncedStep {
    pub a: Step,
    pub b: Step,
}

impl SyncedBlend {
    pub fn new(duration_a_secs: f32, duration_b_secs: f32, weight: f32) -> Self {
        Self {
            duration_a_secs,
            duration_b_secs,
            weight,
            phase: Playback::new(1.0),
        }
    }

    /// Seconds one shared cycle lasts at the current weight.
    pub fn cycle_secs(&self) -> f32 {
        let w = self.weight.clamp(0.0, 1.0);
        self.duration_a_secs + (self.duration_b_secs - self.duration_a_secs) * w
    }

    /// The clip times to sample: `(ratio * duration_a, ratio * duration_b)`.
    pub fn times_secs(&self) -> (f32, f32) {
        let r = self.phase.time_secs();
        (r * self.duration_a_secs, r * self.duration_b_secs)
    }

    /// Advances the shared phase by `dt_secs` of wall time (times the phase's speed).
    pub fn advance(&mut self, dt_secs: f32) -> SyncedStep {
        let cycle = self.cycle_secs();
        let step = if cycle > 0.0 {
            self.phase.advance(dt_secs / cycle)
        } else {
            self.phase.advance(0.0)
        };
        let scale = |d: f32| Step {
            from_secs: step.from_secs * d,
            to_secs: step.to_secs * d,
        };
        SyncedStep {
            a: scale(self.duration_a_secs),
            b: scale(self.duration_b_secs),
        }
    }
}
