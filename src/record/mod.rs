//! Animated output: a sequence of frames (`Sequence`: from, to, frames per second) written as an
//! animated GIF, an animated PNG, numbered PNG files or an MP4 through `ffmpeg`, one frame at a
//! time as they are drawn (`Recorder`). Every output appears whole or not at all: the file is
//! written beside its place and renamed when the last frame is in, and a recording stopped
//! part way (an error, the window's Stop) leaves nothing behind.

mod ffmpeg;
mod gif;

pub use ffmpeg::kill_all as kill_encoders;

use std::path::{Path, PathBuf};

use crate::files::{FileError, PartialFile};

pub use gif::GifPalette;
use gif::Palette;

/// The most frames one sequence writes (an hour at 60 frames/s is 216,000).
pub const MAX_FRAMES: usize = 100_000;
/// The most frames per second asked for.
pub const MAX_FPS: u32 = 240;
/// The most pixel bytes a GIF with one palette for every frame holds until its last frame (it
/// needs them all to choose the palette).
pub const MAX_HELD_BYTES: u64 = 1 << 30;

/// Which frames a recording draws: `from_secs + k / fps` for k in 0..frames(), the end excluded
/// (2 s at 10 fps is 20 frames, the first at `from_secs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sequence {
    pub from_secs: f32,
    pub to_secs: f32,
    pub fps: u32,
}

impl Sequence {
    /// Checks the range and rate: a clear error for an empty, reversed or too long sequence.
    pub fn new(from_secs: f32, to_secs: f32, fps: u32) -> Result<Self, String> {
        if !from_secs.is_finite() || !to_secs.is_finite() {
            return Err(format!("--from {from_secs} --to {to_secs}: not a number"));
        }
        if to_secs <= from_secs {
            return Err(format!(
                "--to {to_secs} must be later than --from {from_secs}"
            ));
        }
        if fps == 0 || fps > MAX_FPS {
            return Err(format!("--fps {fps} is outside 1..={MAX_FPS}"));
        }
        let sequence = Self {
            from_secs,
            to_secs,
            fps,
        };
        let frames = sequence.frames_f64();
        if frames > MAX_FRAMES as f64 {
            return Err(format!(
                "--from {from_secs} --to {to_secs} at --fps {fps} is {frames:.0} frames, more than the {MAX_FRAMES} one recording writes"
            ));
        }
        Ok(sequence)
    }

    fn frames_f64(&self) -> f64 {
        // A range that is a whole number of frames (to within a millionth of one) has no extra
        // frame at its end.
        ((f64::from(self.to_secs) - f64::from(self.from_secs)) * f64::from(self.fps) - 1e-6)
            .ceil()
            .max(1.0)
    }

    /// How many frames: `ceil((to - from) * fps)`.
    pub fn frames(&self) -> usize {
        self.frames_f64() as usize
    }

    /// Frame `k`'s time in seconds.
    pub fn time(&self, k: usize) -> f32 {
        (f64::from(self.from_secs) + k as f64 / f64::from(self.fps)) as f32
    }

    /// Seconds between frames.
    pub fn dt_secs(&self) -> f32 {
        1.0 / self.fps as f32
    }

    /// A GIF's delays are in hundredths of a second: frame `k` shows until the hundredth nearest
    /// its successor's time, so the whole lasts as long as the sequence (30 fps: 3, 3, 4, ...).
    pub fn gif_delay_cs(&self, k: usize) -> u16 {
        let at = |k: usize| (k as f64 * 100.0 / f64::from(self.fps)).round() as u64;
        (at(k + 1) - at(k)).min(u64::from(u16::MAX)) as u16
    }
}

/// What a recording writes.
#[derive(Clone, Debug, PartialEq)]
pub enum Format {
    /// An animated GIF (256 colours, dithered).
    Gif(GifPalette),
    /// An animated PNG (APNG: lossless, full colour; a still PNG to readers without APNG).
    Apng,
    /// One PNG per frame: the path's `%d` or `%0Nd` replaced by the frame's number from 0.
    Frames,
    /// H.264 in MP4, encoded by `ffmpeg` from the PATH.
    Mp4,
}

impl Format {
    /// The format a path asks for: a `%d` pattern, or its extension (.gif, .png, .apng, .mp4).
    pub fn of(path: &Path, gif_palette: GifPalette) -> Result<Self, String> {
        let text = path.to_string_lossy();
        if frame_pattern(&text)?.is_some() {
            if !text.to_ascii_lowercase().ends_with(".png") {
                return Err(format!(
                    "{}: a numbered sequence is written as PNG files: end the pattern in .png",
                    path.display()
                ));
            }
            return Ok(Self::Frames);
        }
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("gif") => Ok(Self::Gif(gif_palette)),
            Some("png" | "apng") => Ok(Self::Apng),
            Some("mp4") => Ok(Self::Mp4),
            _ => Err(format!(
                "{}: a sequence is written as .gif, .png (animated), .mp4 or numbered PNG files (frames/%04d.png)",
                path.display()
            )),
        }
    }

    /// The name shown in the panel and the report.
    pub fn label(&self) -> &'static str {
        match self {
            Self::Gif(_) => "animated GIF",
            Self::Apng => "animated PNG",
            Self::Frames => "PNG sequence",
            Self::Mp4 => "MP4 (H.264)",
        }
    }
}

/// A numbered sequence's pattern in `text`: the `%d` or `%0Nd` (N in 1..=9), split into what
/// comes before and after it and the width (`None` without one; an error for a second one, or
/// for any other `%`).
pub fn frame_pattern(text: &str) -> Result<Option<(String, usize, String)>, String> {
    let Some(at) = text.find('%') else {
        return Ok(None);
    };
    let rest = &text[at + 1..];
    let (width, len) = match rest.as_bytes() {
        [b'd', ..] => (1, 1),
        [b'0', n @ b'1'..=b'9', b'd', ..] => (usize::from(n - b'0'), 3),
        _ => {
            return Err(format!(
                "{text}: a frame pattern is %d or %0Nd (N from 1 to 9), as in frames/%04d.png"
            ));
        }
    };
    let after = &rest[len..];
    if after.contains('%') {
        return Err(format!("{text}: one frame number in a pattern, not two"));
    }
    Ok(Some((text[..at].to_string(), width, after.to_string())))
}

/// Why a recording failed.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{path}: {what}")]
    Encode { path: PathBuf, what: String },
    #[error(
        "MP4 is encoded by ffmpeg, which is not on the PATH: install it (Debian and Ubuntu: `apt-get install ffmpeg`; macOS: `brew install ffmpeg`; Windows: winget install ffmpeg), or write .gif, .png or frames/%04d.png"
    )]
    NoFfmpeg,
    #[error(
        "{path}: a GIF with one palette for every frame holds them all until the last: {frames} frames of {width}x{height} are {}, more than {}; use a palette per frame",
        crate::files::describe_bytes(*bytes),
        crate::files::describe_bytes(MAX_HELD_BYTES)
    )]
    TooMuchHeld {
        path: PathBuf,
        frames: usize,
        width: u32,
        height: u32,
        bytes: u64,
    },
}

/// Writes a sequence's frames as they come (tightly packed sRGB RGBA8, `size` each).
pub struct Recorder {
    path: PathBuf,
    size: (u32, u32),
    sequence: Sequence,
    pushed: usize,
    writer: Writer,
}

enum Writer {
    Gif {
        palette: GifPalette,
        file: PartialFile,
        encoder: Option<::gif::Encoder<Output>>,
        held: Vec<Vec<u8>>,
    },
    Apng {
        file: PartialFile,
        writer: Option<png::Writer<Output>>,
    },
    /// Each frame in a temporary file beside its name, all renamed into place at the end.
    Frames {
        pattern: (String, usize, String),
        written: Vec<PartialFile>,
    },
    Mp4(ffmpeg::Ffmpeg),
}

impl Recorder {
    /// Starts a recording of `sequence` at `path` in `format`; the folder of a numbered sequence
    /// is made when missing.
    pub fn create(
        path: &Path,
        format: &Format,
        size: (u32, u32),
        sequence: Sequence,
    ) -> Result<Self, RecordError> {
        let encode = |what: String| RecordError::Encode {
            path: path.to_path_buf(),
            what,
        };
        let writer = match format {
            Format::Gif(palette) => {
                if *palette == GifPalette::Global {
                    let bytes =
                        sequence.frames() as u64 * u64::from(size.0) * u64::from(size.1) * 4;
                    if bytes > MAX_HELD_BYTES {
                        return Err(RecordError::TooMuchHeld {
                            path: path.to_path_buf(),
                            frames: sequence.frames(),
                            width: size.0,
                            height: size.1,
                            bytes,
                        });
                    }
                }
                gif_size(size).map_err(encode)?;
                let file = PartialFile::reserve(path)?;
                // A palette per frame starts the file now; one palette for all, at the end.
                let encoder = match palette {
                    GifPalette::Frame => Some(gif_encoder(&file, size, &[]).map_err(encode)?),
                    GifPalette::Global => None,
                };
                Writer::Gif {
                    palette: *palette,
                    file,
                    encoder,
                    held: Vec::new(),
                }
            }
            Format::Apng => {
                let file = PartialFile::reserve(path)?;
                let mut encoder = png::Encoder::new(file.open()?, size.0, size.1);
                encoder.set_color(png::ColorType::Rgba);
                encoder.set_depth(png::BitDepth::Eight);
                encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
                let frames = u32::try_from(sequence.frames()).map_err(|e| encode(e.to_string()))?;
                let png_error = |e: png::EncodingError| encode(e.to_string());
                encoder.set_animated(frames, 0).map_err(png_error)?;
                let delay = u16::try_from(sequence.fps).map_err(|e| encode(e.to_string()))?;
                encoder.set_frame_delay(1, delay).map_err(png_error)?;
                Writer::Apng {
                    file,
                    writer: Some(encoder.write_header().map_err(png_error)?),
                }
            }
            Format::Frames => {
                let text = path.to_string_lossy();
                let pattern = frame_pattern(&text).map_err(encode)?.ok_or_else(|| {
                    encode("a numbered sequence needs %d or %0Nd in its path".into())
                })?;
                let first = PathBuf::from(format!("{}0{}", pattern.0, pattern.2));
                if let Some(folder) = first.parent()
                    && !folder.as_os_str().is_empty()
                {
                    std::fs::create_dir_all(folder).map_err(|source| FileError::Write {
                        path: folder.to_path_buf(),
                        source,
                    })?;
                }
                // Every frame's name checked now, not when that frame is drawn.
                for k in 0..sequence.frames() {
                    let (before, width, after) = &pattern;
                    let name = format!("{before}{k:0width$}{after}", width = *width);
                    crate::files::check_output(Path::new(&name))?;
                }
                Writer::Frames {
                    pattern,
                    written: Vec::new(),
                }
            }
            Format::Mp4 => Writer::Mp4(ffmpeg::Ffmpeg::start(path, size, sequence.fps)?),
        };
        Ok(Self {
            path: path.to_path_buf(),
            size,
            sequence,
            pushed: 0,
            writer,
        })
    }

    /// The sequence being written.
    pub fn sequence(&self) -> Sequence {
        self.sequence
    }

    /// Frames written so far.
    pub fn pushed(&self) -> usize {
        self.pushed
    }

    /// Whether every frame is in (then `finish`).
    pub fn complete(&self) -> bool {
        self.pushed >= self.sequence.frames()
    }

    /// Adds the next frame.
    pub fn push(&mut self, rgba: &[u8]) -> Result<(), RecordError> {
        let (w, h) = self.size;
        let encode = |what: String| RecordError::Encode {
            path: self.path.clone(),
            what,
        };
        if rgba.len() as u64 != u64::from(w) * u64::from(h) * 4 {
            return Err(encode(format!(
                "frame {} has {} bytes, not {w}x{h} RGBA",
                self.pushed,
                rgba.len()
            )));
        }
        if self.complete() {
            return Err(encode(format!(
                "frame {} is past the sequence's {}",
                self.pushed,
                self.sequence.frames()
            )));
        }
        let k = self.pushed;
        match &mut self.writer {
            Writer::Gif {
                palette: GifPalette::Global,
                held,
                ..
            } => held.push(rgba.to_vec()),
            Writer::Gif {
                palette: GifPalette::Frame,
                encoder,
                ..
            } => {
                let palette = Palette::learn(&[rgba]);
                let delay = self.sequence.gif_delay_cs(k);
                let frame = gif::frame(&palette, true, rgba, self.size, delay);
                if let Some(encoder) = encoder {
                    encoder
                        .write_frame(&frame)
                        .map_err(|e| encode(e.to_string()))?;
                }
            }
            Writer::Apng { writer, .. } => {
                if let Some(writer) = writer {
                    writer
                        .write_image_data(rgba)
                        .map_err(|e| encode(e.to_string()))?;
                }
            }
            Writer::Frames { pattern, written } => {
                let (before, width, after) = pattern;
                let path = PathBuf::from(format!("{before}{k:0width$}{after}", width = *width));
                let png = crate::image_file::encode_png(&path, self.size, rgba)
                    .map_err(|e| encode(e.to_string()))?;
                let file = PartialFile::reserve(&path)?;
                let mut out = file.open()?;
                std::io::Write::write_all(&mut out, &png).map_err(|e| file.fail(e))?;
                file.close(out)?;
                written.push(file);
            }
            Writer::Mp4(ffmpeg) => ffmpeg.push(rgba)?,
        }
        self.pushed += 1;
        Ok(())
    }

    /// Writes the end and moves the output into place (all the frames must be in).
    pub fn finish(mut self) -> Result<PathBuf, RecordError> {
        let encode = |what: String| RecordError::Encode {
            path: self.path.clone(),
            what,
        };
        if !self.complete() {
            return Err(encode(format!(
                "the recording stopped at frame {} of {}",
                self.pushed,
                self.sequence.frames()
            )));
        }
        let writer = std::mem::replace(
            &mut self.writer,
            Writer::Frames {
                pattern: Default::default(),
                written: Vec::new(),
            },
        );
        match writer {
            Writer::Gif {
                palette,
                file,
                encoder,
                held,
            } => {
                let encoder = match (palette, encoder) {
                    (GifPalette::Frame, Some(encoder)) => encoder,
                    (GifPalette::Frame, None) => {
                        return Err(encode("the GIF encoder is gone".into()));
                    }
                    (GifPalette::Global, _) => {
                        let frames: Vec<&[u8]> = held.iter().map(Vec::as_slice).collect();
                        let shared = Palette::learn(&frames);
                        let mut encoder =
                            gif_encoder(&file, self.size, shared.rgb()).map_err(encode)?;
                        for (k, rgba) in frames.iter().enumerate() {
                            let delay = self.sequence.gif_delay_cs(k);
                            let frame = gif::frame(&shared, false, rgba, self.size, delay);
                            encoder
                                .write_frame(&frame)
                                .map_err(|e| encode(e.to_string()))?;
                        }
                        encoder
                    }
                };
                let out = encoder.into_inner().map_err(|e| encode(e.to_string()))?;
                file.close(out)?;
                file.commit()?;
            }
            Writer::Apng { file, writer } => {
                let Some(writer) = writer else {
                    return Err(encode("the PNG encoder is gone".into()));
                };
                // `finish` writes the end and flushes the buffer; the file is then synced.
                writer.finish().map_err(|e| encode(e.to_string()))?;
                file.sync()?;
                file.commit()?;
            }
            Writer::Frames { written, .. } => PartialFile::commit_all(written)?,
            Writer::Mp4(ffmpeg) => ffmpeg.finish()?,
        }
        Ok(self.path.clone())
    }
}

/// Where an encoder writes: the temporary file, buffered.
type Output = std::io::BufWriter<std::fs::File>;

/// A looping GIF encoder writing `file`'s temporary, with `palette` as its global colours.
fn gif_encoder(
    file: &PartialFile,
    size: (u32, u32),
    palette: &[u8],
) -> Result<::gif::Encoder<Output>, String> {
    let (w, h) = gif_size(size)?;
    let out = file.open().map_err(|e| e.to_string())?;
    let mut encoder = ::gif::Encoder::new(out, w, h, palette).map_err(|e| e.to_string())?;
    encoder
        .set_repeat(::gif::Repeat::Infinite)
        .map_err(|e| e.to_string())?;
    Ok(encoder)
}

/// A GIF's sides are 16-bit.
fn gif_size((w, h): (u32, u32)) -> Result<(u16, u16), String> {
    match (u16::try_from(w), u16::try_from(h)) {
        (Ok(w), Ok(h)) => Ok((w, h)),
        _ => Err(format!(
            "{w}x{h} is larger than a GIF can be (65535 a side)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sequence_counts_its_frames_with_the_end_excluded() {
        let s = Sequence::new(0.0, 2.0, 10).unwrap();
        assert_eq!(s.frames(), 20);
        assert_eq!(s.time(19), 1.9);
        // A third of a second at 30 fps is 10 frames, not 11 (the rounding of 1/3).
        assert_eq!(Sequence::new(0.0, 1.0 / 3.0, 30).unwrap().frames(), 10);
        // Part of a frame still draws one.
        assert_eq!(Sequence::new(1.0, 1.01, 30).unwrap().frames(), 1);
        assert!(Sequence::new(1.0, 1.0, 30).is_err());
        assert!(Sequence::new(0.0, 1.0, 0).is_err());
        assert!(Sequence::new(0.0, 1000.0, 240).is_err());
    }

    #[test]
    fn gif_delays_add_up_to_the_sequence_in_hundredths() {
        let s = Sequence::new(0.0, 1.0, 30).unwrap();
        let delays: Vec<u16> = (0..s.frames()).map(|k| s.gif_delay_cs(k)).collect();
        assert_eq!(delays.iter().map(|&d| u32::from(d)).sum::<u32>(), 100);
        assert_eq!(&delays[..3], &[3, 4, 3]);
        assert!(delays.iter().all(|&d| d == 3 || d == 4));
    }

    #[test]
    fn frame_patterns_and_formats() {
        assert_eq!(
            frame_pattern("out/%04d.png").unwrap(),
            Some(("out/".into(), 4, ".png".into()))
        );
        assert_eq!(
            frame_pattern("f%d.png").unwrap(),
            Some(("f".into(), 1, ".png".into()))
        );
        assert_eq!(frame_pattern("walk.png").unwrap(), None);
        assert!(frame_pattern("a%5.png").is_err());
        assert!(frame_pattern("%d_%d.png").is_err());
        let of = |p: &str| Format::of(Path::new(p), GifPalette::Frame);
        assert_eq!(of("a.GIF").unwrap(), Format::Gif(GifPalette::Frame));
        assert_eq!(of("a.png").unwrap(), Format::Apng);
        assert_eq!(of("a.mp4").unwrap(), Format::Mp4);
        assert_eq!(of("f/%03d.png").unwrap(), Format::Frames);
        assert!(of("f/%03d.jpg").is_err());
        assert!(of("a.webm").is_err());
    }

    #[test]
    fn dithering_keeps_a_gradients_local_mean_better_than_the_nearest_colour() {
        // Red across, green down: 65,536 colours, which 256 cannot hold. Over 8x8 blocks, the
        // dithered colours' mean stays nearer the source's than each pixel's nearest colour.
        let (w, h) = (256u32, 256u32);
        let image: Vec<u8> = (0..h)
            .flat_map(|y| (0..w).flat_map(move |x| [x as u8, y as u8, 96, 255]))
            .collect();
        let palette = Palette::learn(&[&image]);
        let rgb = palette.rgb();
        let dithered = gif::dither_to_palette(&palette, &image, (w, h));
        let nearest: Vec<u8> = image
            .chunks_exact(4)
            .map(|p| palette.nearest([p[0], p[1], p[2]]) as u8)
            .collect();
        let block_error = |indices: &[u8]| {
            let mut total = 0.0;
            let mut blocks = 0.0;
            for by in (0..h as usize).step_by(8) {
                for bx in (0..w as usize).step_by(8) {
                    let mut error = [0.0f64; 3];
                    for y in by..by + 8 {
                        for x in bx..bx + 8 {
                            let at = y * w as usize + x;
                            let i = indices[at] as usize;
                            for c in 0..3 {
                                error[c] +=
                                    f64::from(rgb[i * 3 + c]) - f64::from(image[at * 4 + c]);
                            }
                        }
                    }
                    total += error.iter().map(|e| (e / 64.0).abs()).sum::<f64>() / 3.0;
                    blocks += 1.0;
                }
            }
            total / blocks
        };
        let (dithered, nearest) = (block_error(&dithered), block_error(&nearest));
        assert!(
            dithered < 0.5 * nearest && dithered < 1.0,
            "blocks' mean error: dithered {dithered:.3} levels, nearest {nearest:.3}"
        );
    }
}
