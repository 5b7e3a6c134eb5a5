//! `skinscope render --to SECS`: a sequence of frames in one process (one device, one renderer),
//! posed by the performer stepped at the frames' times, written as it is drawn by
//! `record::Recorder` (GIF, APNG, numbered PNGs or MP4).

use skinscope::draw::headless::Frames;
use skinscope::pose::PoseRequest;
use skinscope::record::{Format, Recorder, Sequence};
use skinscope::render::gpu::Gpu;

use super::args::Run;
use super::render::RenderArgs;
use super::values::MAX_INTEGRATED_SECS;

/// The sequence asked for, checked.
fn sequence_of(render: &RenderArgs) -> Result<Sequence, String> {
    let args = &render.sequence;
    let to = args.to.unwrap_or(0.0);
    let from = args.from.unwrap_or(0.0);
    if let Some(time) = render.pose.time {
        return Err(format!(
            "--time {time} poses one frame; a sequence plays from --from to --to: give one"
        ));
    }
    if render.pose.simulate.is_some() {
        return Err(
            "--simulate plays for a length of time; a sequence plays from --from to --to: give one"
                .into(),
        );
    }
    if from < 0.0 {
        return Err(format!("--from {from}: a sequence starts at 0 s or later"));
    }
    if to > MAX_INTEGRATED_SECS {
        return Err(format!(
            "--to {to}: a sequence is played from 0 s, at most {MAX_INTEGRATED_SECS} s"
        ));
    }
    Sequence::new(from, to, args.fps)
}

/// Steps before a sequence's first frame: from 0 to `from` at 60 Hz or finer.
fn lead_in(from_secs: f32) -> (usize, f32) {
    let steps = (from_secs * 60.0 - 1e-3).ceil().max(0.0) as usize;
    (
        steps,
        if steps > 0 {
            from_secs / steps as f32
        } else {
            0.0
        },
    )
}

/// Records the sequence `args` ask for.
pub fn run(args: &RenderArgs) -> Result<(), String> {
    let sequence = sequence_of(args)?;
    let format = Format::of(&args.out, args.sequence.gif_palette.into())?;
    // The output first: a missing ffmpeg or an unwritable folder is said before any work.
    let mut recorder =
        Recorder::create(&args.out, &format, args.size, sequence).map_err(|e| e.to_string())?;
    let character = args.pose.load_character()?;
    let (character, mut request) = args.frame_request(character, PoseRequest::default())?;
    let mut performance = args.pose.performance(&character)?;
    let (lead_in, lead_dt) = lead_in(sequence.from_secs);
    let frames = sequence.frames();
    performance.run = Run::Sequence {
        lead_in,
        lead_dt,
        frames,
        dt_secs: sequence.dt_secs(),
    };
    let gpu = Gpu::headless().map_err(|e| e.to_string())?;
    let mut drawer = Frames::new(&character);
    let turntable = args.sequence.turntable.unwrap_or(0.0);
    let start = std::time::Instant::now();
    performance.play(&character, |k, pose| {
        let Some(i) = k.checked_sub(lead_in) else {
            return Ok(());
        };
        request.pose = pose.clone();
        let degrees = turntable * i as f32 / frames as f32;
        let (pixels, _) = drawer
            .render(&gpu, &character, &request, degrees)
            .map_err(|e| format!("frame {i} ({:.3} s): {e}", sequence.time(i)))?;
        recorder.push(&pixels).map_err(|e| e.to_string())
    })?;
    let written = recorder.finish().map_err(|e| e.to_string())?;
    let secs = start.elapsed().as_secs_f64();
    super::out::println(&format!(
        "{}: {frames} frames at {} fps ({}, {}x{}), {:.2} s to {:.2} s; drawn and written in {secs:.1} s ({:.1} frames/s)",
        written.display(),
        sequence.fps,
        format.label(),
        args.size.0,
        args.size.1,
        sequence.from_secs,
        sequence.time(frames),
        frames as f64 / secs.max(1e-9),
    ));
    Ok(())
}
