//! The window's "Record...": the current view and settings written as `render --to` writes
//! them (GIF, APNG, numbered PNGs, MP4). The viewer seeks to the start and, while recording,
//! steps its own performer by exactly one frame's time each window frame; the window draws that
//! frame again offscreen at the recording's size and hands the pixels back (`recorded`).

use std::path::PathBuf;

use super::{UiCommand, Viewer};
use crate::record::{Format, GifPalette, Recorder, Sequence};

/// What the panel's Record section edits.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordControls {
    /// Where to write: .gif, .png (animated), .mp4 or a pattern (frames/%04d.png).
    pub path: String,
    /// Seconds of playback; the end excluded.
    pub from_secs: f32,
    pub to_secs: f32,
    pub fps: u32,
    /// Degrees the camera orbits over the recording.
    pub turntable_degrees: f32,
    pub gif_palette: GifPalette,
    pub size: (u32, u32),
}

impl Default for RecordControls {
    fn default() -> Self {
        Self {
            path: "skinscope.gif".into(),
            from_secs: 0.0,
            to_secs: 2.0,
            fps: 30,
            turntable_degrees: 0.0,
            gif_palette: GifPalette::Frame,
            size: (512, 512),
        }
    }
}

/// What the panel's Record section asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordCommand {
    /// Start recording to this path (the dialog's choice, or the typed one).
    Start(PathBuf),
    /// Stop part way: nothing is left behind.
    Stop,
    /// Ask the window for a save dialog; the recording starts at the path chosen.
    Browse,
}

/// A recording under way.
pub struct Recording {
    recorder: Recorder,
    turntable_degrees: f32,
    size: (u32, u32),
}

/// What the window draws for the recording this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordFrame {
    pub size: (u32, u32),
    /// How far the camera has orbited.
    pub turn_degrees: f32,
}

impl Viewer {
    pub(super) fn record_command(&mut self, command: RecordCommand) {
        match command {
            RecordCommand::Start(path) => match self.start_recording(path) {
                Ok(()) => self.record_status = None,
                Err(e) => self.record_status = Some(e),
            },
            RecordCommand::Browse => {
                (self.window_requests).push(super::WindowRequest::BrowseForRecording);
            }
            RecordCommand::Stop => {
                if let Some(r) = self.recording.take() {
                    self.record_status = Some(format!(
                        "stopped at frame {} of {}; nothing written",
                        r.recorder.pushed(),
                        r.recorder.sequence().frames()
                    ));
                }
            }
        }
    }

    fn start_recording(&mut self, path: PathBuf) -> Result<(), String> {
        let c = &self.controls.record;
        let sequence = Sequence::new(c.from_secs.max(0.0), c.to_secs, c.fps)?;
        let format = Format::of(&path, c.gif_palette)?;
        let (w, h) = c.size;
        if !(16..=8192).contains(&w) || !(16..=8192).contains(&h) {
            return Err(format!("a recording of {w}x{h}: each side is 16 to 8192"));
        }
        let recorder =
            Recorder::create(&path, &format, c.size, sequence).map_err(|e| e.to_string())?;
        self.recording = Some(Recording {
            recorder,
            turntable_degrees: c.turntable_degrees,
            size: c.size,
        });
        // From its start, playing: the clock then moves one frame's time per window frame.
        let speed = self.controls.playback.speed;
        self.seek(sequence.from_secs * speed);
        self.controls.playback.playing = true;
        Ok(())
    }

    /// The time step this frame plays while recording: none before the first frame (it is
    /// drawn where the seek put it), then one frame's time.
    pub(super) fn recording_dt(&self) -> Option<f32> {
        let r = self.recording.as_ref()?;
        Some(if r.recorder.pushed() == 0 {
            0.0
        } else {
            r.recorder.sequence().dt_secs()
        })
    }

    /// What to draw for the recording this frame (`None` when not recording).
    pub fn recording_frame(&self) -> Option<RecordFrame> {
        let r = self.recording.as_ref()?;
        let frames = r.recorder.sequence().frames().max(1);
        Some(RecordFrame {
            size: r.size,
            turn_degrees: r.turntable_degrees * r.recorder.pushed() as f32 / frames as f32,
        })
    }

    /// The window's drawing of this frame's `recording_frame`: written, and the file finished
    /// after the last frame. A failure stops the recording and says why.
    pub fn recorded(&mut self, pixels: Result<Vec<u8>, String>) {
        let Some(r) = self.recording.as_mut() else {
            return;
        };
        if let Err(e) = pixels.and_then(|p| r.recorder.push(&p).map_err(|e| e.to_string())) {
            self.recording = None;
            self.record_status = Some(format!("recording failed: {e}"));
            return;
        }
        if r.recorder.complete()
            && let Some(r) = self.recording.take()
        {
            let frames = r.recorder.sequence().frames();
            self.record_status = Some(match r.recorder.finish() {
                Ok(path) => format!("wrote {}: {frames} frames", path.display()),
                Err(e) => format!("recording failed: {e}"),
            });
        }
    }
}

impl Recording {
    /// Frames written, of how many.
    pub(super) fn progress(&self) -> (usize, usize) {
        (self.recorder.pushed(), self.recorder.sequence().frames())
    }
}

impl From<RecordCommand> for UiCommand {
    fn from(c: RecordCommand) -> Self {
        UiCommand::Record(c)
    }
}
