//! `render`'s sequence options (`--to`, `--from`, `--fps`, `--turntable`, the GIF's palette):
//! parsed here, recorded by `record`.

use std::path::Path;

use clap::ValueEnum;
use skinscope::record::{Format, GifPalette};

use super::values::parse_finite;

/// The sequence options of `render`.
#[derive(clap::Args, Clone, Debug)]
pub struct SequenceArgs {
    /// Record a sequence from --from to this many seconds of playback (real time at --speed,
    /// as the window plays; the end excluded): --out is then .gif, .png (animated), .mp4 or
    /// frames/%04d.png.
    #[arg(long, value_parser = parse_finite, allow_negative_numbers = true)]
    pub to: Option<f32>,
    /// Where a sequence starts, in seconds of playback from 0 (default 0); the performance is
    /// played from 0 to it unrecorded, so root motion, physics and transitions are where the
    /// window would have them.
    #[arg(long, value_parser = parse_finite, allow_negative_numbers = true)]
    pub from: Option<f32>,
    /// A sequence's frames per second (1..240).
    #[arg(long, allow_negative_numbers = true, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=240))]
    pub fps: u32,
    /// Orbit the camera this many degrees about the vertical over a sequence (360: once round;
    /// the last frame stops one step short of where the first began).
    #[arg(long, value_parser = parse_finite, allow_negative_numbers = true)]
    pub turntable: Option<f32>,
    /// A GIF's palette: each frame's own (default), or one for every frame (no flicker; the
    /// frames are held until the last).
    #[arg(long, value_enum, default_value = "frame")]
    pub gif_palette: GifPaletteArg,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum GifPaletteArg {
    Frame,
    Global,
}

impl From<GifPaletteArg> for GifPalette {
    fn from(p: GifPaletteArg) -> Self {
        match p {
            GifPaletteArg::Frame => GifPalette::Frame,
            GifPaletteArg::Global => GifPalette::Global,
        }
    }
}

impl SequenceArgs {
    /// Whether the options ask for a sequence (`--to`).
    pub fn is_sequence(&self) -> bool {
        self.to.is_some()
    }

    /// For a still: no sequence option without `--to`, and an image path.
    pub fn check_still(&self, out: &Path) -> Result<(), String> {
        if self.from.is_some() || self.turntable.is_some() {
            return Err("--from and --turntable record a sequence: give --to SECS".into());
        }
        if skinscope::image_file::image_format(out).is_none() {
            let sequence = Format::of(out, GifPalette::Frame).is_ok();
            return Err(if sequence {
                format!(
                    "{}: a sequence: give --to SECS (and --from, --fps)",
                    out.display()
                )
            } else {
                format!(
                    "{:?}: the image must end in .png, .jpg or .jpeg",
                    out.display()
                )
            });
        }
        skinscope::files::check_output(out).map_err(|e| e.to_string())
    }
}
