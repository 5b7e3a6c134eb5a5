//! The external-pose options of the posing subcommands: a motion-capture take played on its own
//! clock (`--mocap`), or a live stream on the loopback address (`--mocap-listen` with
//! `--mocap-skeleton`), and how a stopped stream blends back.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use skinscope::character::Character;
use skinscope::import;
use skinscope::mocap::MocapListener;
use skinscope::perform::{DEFAULT_BLEND_BACK_SECS, ExternalInput, Performer};

use super::values::{find_clip, parse_range};

/// The longest `--mocap-wait` and `--mocap-blend-back`.
const MAX_WAIT_SECS: f32 = 600.0;

#[derive(clap::Args, Clone, Debug, Default)]
pub struct MocapArgs {
    /// An external pose played on its own clock (from t = 0, looping) over the animation, on
    /// the joints it drives: a .bvh take (retargeted onto the character by joint names, or
    /// --retarget-map) or one of the character's clips by name or index.
    #[arg(long, allow_hyphen_values = true)]
    pub mocap: Option<String>,
    /// Receive the external pose live: one BVH motion line a UDP datagram on this loopback
    /// address (127.0.0.1:PORT), in the hierarchy of --mocap-skeleton.
    #[arg(long, requires = "mocap_skeleton")]
    pub mocap_listen: Option<String>,
    /// The BVH whose hierarchy --mocap-listen's motion lines follow (its frames are not used).
    #[arg(long, requires = "mocap_listen")]
    pub mocap_skeleton: Option<PathBuf>,
    /// How long a stream that stopped takes to blend back to the animation, after holding its
    /// last frame for 0.2 s.
    #[arg(long, value_parser = parse_blend_back, default_value_t = DEFAULT_BLEND_BACK_SECS, allow_negative_numbers = true)]
    pub mocap_blend_back: f32,
    /// How long --mocap-listen waits for the first datagram before it gives up.
    #[arg(long, value_parser = parse_wait, default_value_t = 5.0, allow_negative_numbers = true)]
    pub mocap_wait: f32,
}

fn parse_blend_back(s: &str) -> Result<f32, String> {
    parse_range(s, "--mocap-blend-back", (0.0, MAX_WAIT_SECS))
}

fn parse_wait(s: &str) -> Result<f32, String> {
    let v = parse_range(s, "--mocap-wait", (0.0, MAX_WAIT_SECS))?;
    if v > 0.0 {
        Ok(v)
    } else {
        Err(format!("{s} must be greater than 0"))
    }
}

/// Whether `--mocap`'s value names a BVH file rather than a clip.
fn is_bvh(value: &str) -> bool {
    Path::new(value)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("bvh"))
}

impl MocapArgs {
    /// Refuses a take and a stream at once.
    pub fn check(&self) -> Result<(), String> {
        if let (Some(take), Some(address)) = (&self.mocap, &self.mocap_listen) {
            return Err(format!(
                "--mocap {take} and --mocap-listen {address} are both external poses: give one"
            ));
        }
        Ok(())
    }

    /// Whether a retarget map has a use here.
    pub fn retargets(&self) -> bool {
        self.mocap_listen.is_some() || self.mocap.as_deref().is_some_and(is_bvh)
    }

    /// Adds `--mocap`'s take to the character's clips when it is a BVH file.
    pub fn add_take(
        &self,
        character: &mut Character,
        map: Option<&skinscope::import::RetargetPlan>,
    ) -> Result<(), String> {
        if let Some(file) = self.mocap.as_deref().filter(|v| is_bvh(v)) {
            let (clips, matched) =
                import::clips_from(Path::new(file), character, map, &super::reach())
                    .map_err(|e| e.to_string())?;
            if !matched.unmatched.is_empty() {
                eprintln!("skinscope: {file}: {}", matched.summary());
            }
            character.clips.extend(clips);
        }
        Ok(())
    }

    /// The external source these options ask for. A BVH take must have been added
    /// (`add_take`): it is the last clip named after its file.
    pub fn input(&self, c: &Character) -> Result<ExternalInput, String> {
        if self.mocap_listen.is_some() {
            return Ok(ExternalInput::Live);
        }
        let Some(value) = &self.mocap else {
            return Ok(ExternalInput::Off);
        };
        if !is_bvh(value) {
            return find_clip(c, value).map(ExternalInput::Clip);
        }
        let path = Path::new(value);
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        let file = path.file_name().map(|s| s.to_string_lossy().into_owned());
        let (stem, file) = (stem.unwrap_or_default(), file.unwrap_or_default());
        let suffixed = format!("{stem} ({file})");
        c.clips
            .iter()
            .rposition(|k| k.clip.name() == stem || k.clip.name() == suffixed)
            .map(ExternalInput::Clip)
            .ok_or_else(|| format!("--mocap {value}: its take was not added to {}", c.name))
    }

    /// The stream `--mocap-listen` asks for, bound (`None` without it).
    pub fn listener(
        &self,
        c: &Character,
        map: Option<&skinscope::import::RetargetPlan>,
    ) -> Result<Option<MocapListener>, String> {
        let (Some(address), Some(skeleton)) = (&self.mocap_listen, &self.mocap_skeleton) else {
            return Ok(None);
        };
        MocapListener::listen(address, skeleton, c, map)
            .map(Some)
            .map_err(|e| e.to_string())
    }
}

/// Waits up to `wait_secs` for the stream's first valid datagram and hands it to `performer`.
pub fn first_frame(
    listener: &mut MocapListener,
    c: &Character,
    performer: &mut Performer,
    wait_secs: f32,
) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs_f32(wait_secs);
    loop {
        if let Some(frame) = listener.poll(&c.skeleton) {
            performer.receive_external(frame);
            return Ok(());
        }
        if Instant::now() >= deadline {
            let skipped = match &listener.stats.last_problem {
                Some(problem) => format!(
                    " ({} malformed datagrams skipped; the last: {problem})",
                    listener.stats.malformed
                ),
                None => String::new(),
            };
            return Err(format!(
                "--mocap-listen {}: no motion line of {} arrived within {wait_secs} s{skipped}",
                listener.address(),
                listener.skeleton_file().display()
            ));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}
