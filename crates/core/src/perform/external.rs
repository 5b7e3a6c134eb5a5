//! The external pose's player: which source drives the character's joints (a clip on its own
//! clock, or the last frame of a live stream), and how much. A live source that stops leaves its
//! last frame for `HOLD_SECS`, then blends back to the animation over the inputs'
//! `blend_back_secs`. Its clocks are the performer's time steps, so a run is reproducible.

use std::sync::Arc;

use crate::anim::{ExternalFrame, Playback, PlaybackMode};
use crate::character::Character;
use crate::pose::{ClipTime, ExternalPose, ExternalSource};

/// How long a live source's last frame holds at full weight before it starts to blend back:
/// several frames of a 30 Hz stream, so a late datagram does not flicker the pose.
pub const HOLD_SECS: f32 = 0.2;
/// The blend back to the animation once a live source has stopped (the window's default).
pub const DEFAULT_BLEND_BACK_SECS: f32 = 0.5;

/// Where the external pose comes from, as asked.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum ExternalInput {
    /// No external pose.
    #[default]
    Off,
    /// Clip `k` (a motion-capture take added to the character) played looping on its own clock,
    /// from the moment it was chosen.
    Clip(usize),
    /// The frames handed to `Performer::receive_external` (a live stream).
    Live,
}

/// The external source's clocks: see the module's documentation.
#[derive(Clone, Debug)]
pub struct ExternalPlayer {
    clock: Playback,
    clip: Option<usize>,
    live: Option<Arc<ExternalFrame>>,
    /// Seconds since the last live frame arrived.
    since_secs: f32,
    /// Whether the last live frame arrived since the last step: it was read during the step's
    /// interval, just before the pose, so that step does not age it.
    fresh: bool,
    received: u64,
}

impl Default for ExternalPlayer {
    fn default() -> Self {
        Self {
            clock: Playback::new(0.0),
            clip: None,
            live: None,
            since_secs: 0.0,
            fresh: false,
            received: 0,
        }
    }
}

impl ExternalPlayer {
    /// A live frame arrived: it drives the joints from now, at full weight.
    pub fn receive(&mut self, frame: Arc<ExternalFrame>) {
        self.live = Some(frame);
        self.since_secs = 0.0;
        self.fresh = true;
        self.received += 1;
    }

    /// The clip source's clock to the input's clip (from its start when it changes).
    fn sync(&mut self, c: &Character, input: ExternalInput, playing: bool) {
        if let ExternalInput::Clip(k) = input
            && self.clip != Some(k)
        {
            let duration = c.clips.get(k).map_or(0.0, |d| d.duration_secs());
            self.clock = Playback::new(duration);
            self.clock.mode = PlaybackMode::Loop;
            self.clip = Some(k);
        }
        self.clock.paused = !playing;
    }

    /// Advances the clip source's clock (while playing) and a live frame's age by `dt_secs`.
    pub(super) fn step(&mut self, c: &Character, input: ExternalInput, playing: bool, dt: f32) {
        self.sync(c, input, playing);
        self.advance(input, dt);
    }

    /// `step` after the clip source is in sync: the clip's clock or the live frame's age.
    fn advance(&mut self, input: ExternalInput, dt: f32) {
        match input {
            ExternalInput::Clip(_) => {
                self.clock.advance(dt);
            }
            // A frame read just before this step is posed at its age, 0, however long the step
            // (at 2 frames a second a step is 0.5 s, past the hold).
            ExternalInput::Live if std::mem::take(&mut self.fresh) => {}
            ExternalInput::Live => self.since_secs += dt.max(0.0),
            ExternalInput::Off => {}
        }
    }

    /// The clip source's clock to `t` (the command line's `--time`).
    pub(super) fn cue(&mut self, c: &Character, input: ExternalInput, t: f32) {
        self.sync(c, input, true);
        self.clock.seek(t);
    }

    /// Seconds since the last live frame (`None` before the first).
    pub fn staleness_secs(&self) -> Option<f32> {
        self.live.as_ref().map(|_| self.since_secs)
    }

    /// Live frames received so far.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// The clip source's time now, in its clip's seconds.
    pub fn clip_time_secs(&self) -> f32 {
        self.clock.time_secs()
    }

    /// The weight the source drives its joints with: 1 for a clip; for a live source, 1 until
    /// its last frame is `HOLD_SECS` old, then down to 0 over `blend_back_secs`.
    pub fn weight(&self, input: ExternalInput, blend_back_secs: f32) -> f32 {
        match input {
            ExternalInput::Off => 0.0,
            ExternalInput::Clip(_) => 1.0,
            ExternalInput::Live if self.live.is_none() => 0.0,
            ExternalInput::Live => {
                let late = self.since_secs - HOLD_SECS;
                if late <= 0.0 {
                    1.0
                } else if blend_back_secs > 0.0 {
                    (1.0 - late / blend_back_secs).clamp(0.0, 1.0)
                } else {
                    0.0
                }
            }
        }
    }

    /// The frame's external pose, or `None` when nothing drives the joints.
    pub(super) fn pose(
        &self,
        c: &Character,
        input: ExternalInput,
        blend_back_secs: f32,
    ) -> Option<ExternalPose> {
        let weight = self.weight(input, blend_back_secs);
        if weight <= 0.0 {
            return None;
        }
        let source = match input {
            ExternalInput::Off => return None,
            ExternalInput::Clip(clip) if clip < c.clips.len() => ExternalSource::Clip(ClipTime {
                clip,
                time_secs: self.clock.time_secs(),
            }),
            ExternalInput::Clip(_) => return None,
            ExternalInput::Live => ExternalSource::Live(self.live.clone()?),
        };
        Some(ExternalPose { source, weight })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::LocalPose;

    #[test]
    fn a_stopped_stream_holds_then_blends_back_linearly() {
        let mut player = ExternalPlayer::default();
        let input = ExternalInput::Live;
        assert_eq!(player.weight(input, 0.5), 0.0, "nothing received yet");
        let frame = ExternalFrame {
            pose: LocalPose::from_transforms(Vec::new()),
            rotated: Vec::new(),
            moved: None,
        };
        player.receive(Arc::new(frame.clone()));
        assert_eq!(player.weight(input, 0.5), 1.0);
        player.since_secs = HOLD_SECS;
        assert_eq!(player.weight(input, 0.5), 1.0, "held");
        player.since_secs = HOLD_SECS + 0.125;
        assert!((player.weight(input, 0.5) - 0.75).abs() < 1e-6);
        player.since_secs = HOLD_SECS + 0.5;
        assert_eq!(player.weight(input, 0.5), 0.0, "blended back");
        player.receive(Arc::new(frame));
        assert_eq!(player.weight(input, 0.5), 1.0, "a new frame drives again");
        assert_eq!(player.received(), 2);
        assert_eq!(player.weight(ExternalInput::Off, 0.5), 0.0);
    }

    #[test]
    fn a_stream_read_every_frame_drives_at_full_weight_at_any_frame_rate() {
        let frame = ExternalFrame {
            pose: LocalPose::from_transforms(Vec::new()),
            rotated: Vec::new(),
            moved: None,
        };
        for fps in [60.0f32, 4.0, 2.0, 0.5] {
            let mut player = ExternalPlayer::default();
            for _ in 0..5 {
                // The window's frame: read the stream, then step the clocks, then pose.
                player.receive(Arc::new(frame.clone()));
                player.advance(ExternalInput::Live, (1.0 / fps).min(0.25));
                assert_eq!(player.weight(ExternalInput::Live, 0.5), 1.0, "{fps} fps");
            }
            // Frames that read nothing age it.
            player.advance(ExternalInput::Live, 0.25);
            assert_eq!(player.staleness_secs(), Some(0.25));
        }
    }
}
