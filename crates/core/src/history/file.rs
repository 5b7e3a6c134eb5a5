//! A history as a JSON file, for a bug report: the model it was played on (its name and its
//! skeleton's fingerprint), then every frame's state and pose. Reading checks every frame
//! against the character it is opened on and names the first frame and field that is wrong.

use serde::{Deserialize, Serialize};

use super::frame::{FrameState, RecordedPose};
use super::ring::History;
use crate::anim::{LocalPose, Placement, Transform};
use crate::character::Character;
use crate::pose::{PaletteMode, skeleton_fingerprint};

/// The file's format name and version.
pub const HISTORY_FORMAT: &str = "skinscope-history";
pub const HISTORY_VERSION: u32 = 1;
/// The largest history file read (a 30 s history of a 200-joint rig is about 30 MB).
pub const MAX_HISTORY_FILE_BYTES: u64 = 1 << 30;

#[derive(Serialize, Deserialize)]
struct FileV1 {
    format: String,
    version: u32,
    /// The character's name, for the reader.
    model: String,
    /// `skeleton_fingerprint` of the character, as a hexadecimal string.
    skeleton: String,
    joints: usize,
    morph_weights: usize,
    frames: Vec<FileFrame>,
}

#[derive(Serialize, Deserialize)]
struct FileFrame {
    state: FrameState,
    /// Per joint: translation (3), rotation quaternion x, y, z, w (4), scale (3).
    local: Vec<[f32; 10]>,
    #[serde(default)]
    morph_weights: Vec<f32>,
    palette: String,
}

/// Why a history file cannot be replayed on a character.
#[derive(Debug, thiserror::Error)]
pub enum HistoryFileError {
    #[error("not a skinscope history: {0}")]
    Json(String),
    #[error(
        "format {found:?} version {version}: this skinscope reads {HISTORY_FORMAT:?} version {HISTORY_VERSION}"
    )]
    Format { found: String, version: u32 },
    #[error(
        "recorded on {model:?} (skeleton {recorded}), not on {character:?} (skeleton {found}): open the model it was recorded on"
    )]
    Skeleton {
        model: String,
        recorded: String,
        character: String,
        found: String,
    },
    #[error("/frames/{frame}/{field}: {problem}")]
    Frame {
        frame: usize,
        field: &'static str,
        problem: String,
    },
    #[error("the history has no frames")]
    Empty,
}

fn palette_name(p: PaletteMode) -> &'static str {
    p.name()
}

fn palette_of(name: &str) -> Option<PaletteMode> {
    [
        PaletteMode::Animated,
        PaletteMode::Bind,
        PaletteMode::Identity,
    ]
    .into_iter()
    .find(|p| p.name() == name)
}

/// The history's frames as a file's JSON text, for `c` (whose skeleton they pose).
pub fn history_json<R>(c: &Character, history: &History<R>) -> String {
    let frames = history
        .frames()
        .map(|f| FileFrame {
            state: f.state.clone(),
            local: f
                .pose
                .local
                .as_slice()
                .iter()
                .map(|t| {
                    let (p, q, s) = (t.translation, t.rotation, t.scale);
                    [p.x, p.y, p.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z]
                })
                .collect(),
            morph_weights: f.pose.morph_weights.clone(),
            palette: palette_name(f.pose.palette).to_string(),
        })
        .collect();
    let file = FileV1 {
        format: HISTORY_FORMAT.into(),
        version: HISTORY_VERSION,
        model: c.name.clone(),
        skeleton: format!("{:016x}", skeleton_fingerprint(c)),
        joints: c.skeleton.joint_count(),
        morph_weights: history
            .frames()
            .next()
            .map_or(0, |f| f.pose.morph_weights.len()),
        frames,
    };
    serde_json::to_string(&file).unwrap_or_default()
}

/// A history read from `text` for `c`: every frame's pose checked against its skeleton.
pub fn history_from_json<R>(c: &Character, text: &str) -> Result<History<R>, HistoryFileError> {
    let file: FileV1 =
        serde_json::from_str(text).map_err(|e| HistoryFileError::Json(e.to_string()))?;
    if file.format != HISTORY_FORMAT || file.version != HISTORY_VERSION {
        return Err(HistoryFileError::Format {
            found: file.format,
            version: file.version,
        });
    }
    let found = format!("{:016x}", skeleton_fingerprint(c));
    if file.skeleton != found {
        return Err(HistoryFileError::Skeleton {
            model: file.model,
            recorded: file.skeleton,
            character: c.name.clone(),
            found,
        });
    }
    if file.frames.is_empty() {
        return Err(HistoryFileError::Empty);
    }
    let joints = c.skeleton.joint_count();
    let mut history = History::new(f32::INFINITY);
    history.max_bytes = usize::MAX;
    let mut last_time = f64::NEG_INFINITY;
    for (k, f) in file.frames.into_iter().enumerate() {
        let bad = |field: &'static str, problem: String| HistoryFileError::Frame {
            frame: k,
            field,
            problem,
        };
        if f.local.len() != joints {
            return Err(bad(
                "local",
                format!("{} joints, and the skeleton has {joints}", f.local.len()),
            ));
        }
        if let Some(j) = f
            .local
            .iter()
            .position(|t| t.iter().any(|x| !x.is_finite()))
        {
            return Err(bad("local", format!("joint {j} is not finite")));
        }
        if f.morph_weights.len() != file.morph_weights
            || f.morph_weights.iter().any(|w| !w.is_finite())
        {
            return Err(bad(
                "morph_weights",
                format!(
                    "{} weights (not all finite, or not the {} of the first frame)",
                    f.morph_weights.len(),
                    file.morph_weights
                ),
            ));
        }
        let palette = palette_of(&f.palette).ok_or_else(|| {
            bad(
                "palette",
                format!("{:?} is not animated, bind or identity", f.palette),
            )
        })?;
        let time = f.state.time_secs;
        if !time.is_finite() || time < last_time {
            return Err(bad(
                "state/time_secs",
                format!("{time} is not finite or runs backwards"),
            ));
        }
        last_time = time;
        let locals: Vec<Transform> = f
            .local
            .iter()
            .map(|v| Transform {
                translation: glam::Vec3::new(v[0], v[1], v[2]),
                rotation: glam::Quat::from_xyzw(v[3], v[4], v[5], v[6]),
                scale: glam::Vec3::new(v[7], v[8], v[9]),
            })
            .collect();
        let [x, y, z] = f.state.position;
        let placement = Placement {
            position: glam::Vec3::new(x, y, z),
            yaw: f.state.yaw,
        };
        let pose = RecordedPose {
            local: LocalPose::from_transforms(locals),
            morph_weights: f.morph_weights,
            palette,
            placement,
        };
        history.push_recorded(f.state, pose);
    }
    Ok(history)
}
