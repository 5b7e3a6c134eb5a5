//! Clips from elsewhere on this character: a BVH take or another file's clips, retargeted onto
//! its skeleton (`anim::Retarget`) and added to its clips (`--clips-from FILE`).

use std::path::{Path, PathBuf};

use crate::anim::{Clip, JointMap, Retarget, Skeleton, match_joints};
use crate::character::{Character, ClipData};
use crate::retarget_plan::RetargetPlan;

/// The most samples a retargeted clip is keyed at (ten minutes at 60 Hz).
const MAX_SAMPLES: usize = 36_000;
/// The rate a glTF source's clips are sampled at for retargeting.
const SAMPLE_HZ: f32 = 60.0;

/// Why clips were not added from a file.
#[derive(Debug, thiserror::Error)]
pub enum ClipsFromError {
    #[error(transparent)]
    Bvh(#[from] super::bvh::BvhError),
    #[error(transparent)]
    Import(#[from] super::ImportError),
    #[error(transparent)]
    NoMatch(#[from] NoMatch),
    #[error("{}: {clip}: {source}", file.display())]
    Retarget {
        file: PathBuf,
        clip: String,
        source: crate::anim::RetargetError,
    },
    #[error("{}: {message}", file.display())]
    Map { file: PathBuf, message: String },
}

/// A skeleton none of whose joints matches the character's (`mapped`: through the map given;
/// else the message asks for one, which the application names by its own control).
#[derive(Debug, thiserror::Error)]
#[error("{}: none of its joints matches a joint of {character} {}", file.display(), remedy(*mapped))]
pub struct NoMatch {
    pub file: PathBuf,
    pub character: String,
    /// Whether a retarget map was given (and matched nothing either).
    pub mapped: bool,
}

fn remedy(mapped: bool) -> &'static str {
    if mapped {
        "by name or through the retarget map given: check the map's source and target names \
         against the two skeletons' joints"
    } else {
        "by name: give a retarget map (a JSON object of source -> target joint names)"
    }
}

/// `source` (the skeleton of `file`) retargeted onto `character`: its joints auto-mapped
/// (`JointMap::auto`), or through the plan's pairs, with the plan's settings; refused when none
/// matches.
pub fn retarget_onto(
    source: &Skeleton,
    character: &Character,
    plan: Option<&RetargetPlan>,
    file: &Path,
) -> Result<Retarget, NoMatch> {
    let map = plan.and_then(RetargetPlan::pairs);
    let source_of = match_joints(source, &character.skeleton, map);
    let settings = plan.map(|p| p.settings.clone()).unwrap_or_default();
    let retarget = Retarget::with(source, &character.skeleton, source_of, settings);
    if retarget.matched() == 0 {
        return Err(NoMatch {
            file: file.to_path_buf(),
            character: character.name.clone(),
            mapped: map.is_some_and(|m| !m.is_empty()),
        });
    }
    Ok(retarget)
}

/// A retarget map file (`RetargetPlan::parse`), read within the JSON size cap.
pub fn read_map(path: &Path) -> Result<RetargetPlan, ClipsFromError> {
    let fail = |message: String| ClipsFromError::Map {
        file: path.to_path_buf(),
        message,
    };
    let text = crate::files::read_text_capped(path, crate::files::MAX_JSON_BYTES)
        .map_err(|e| fail(e.to_string()))?;
    RetargetPlan::parse(&text).map_err(fail)
}

/// The clips of `path` (a `.bvh`, or a glTF/GLB) retargeted onto `character`, named as in the
/// file (a BVH's after its file's stem), keyed at the source's rate (a BVH's frames, a glTF
/// clip's keys); a name the character has already gets the file's
/// name after it. A glTF's URIs are read within `reach`, as `load_with`'s. With them, which of
/// the character's joints the file drives (`JointMatch`: a partial match leaves the others
/// with their own motion).
pub fn clips_from(
    path: &Path,
    character: &Character,
    plan: Option<&RetargetPlan>,
    reach: &super::Reach,
) -> Result<(Vec<ClipData>, crate::anim::JointMatch), ClipsFromError> {
    let (skeleton, clips) = source_of(path, reach)?;
    let retarget = retarget_onto(&skeleton, character, plan, path)?;
    let matched = retarget.joint_match(&skeleton, &character.skeleton);
    let file = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let clips: Result<Vec<ClipData>, ClipsFromError> = clips
        .into_iter()
        .enumerate()
        .map(|(k, (clip, times))| {
            let taken = |n: &str| character.clips.iter().any(|c| c.clip.name() == n);
            let name = if taken(clip.name()) {
                format!("{} ({file})", clip.name())
            } else {
                clip.name().to_owned()
            };
            let moved = retarget
                .clip(&skeleton, &clip, &character.skeleton, &times, &name)
                .map_err(|source| ClipsFromError::Retarget {
                    file: path.to_path_buf(),
                    clip: clip.name().to_owned(),
                    source,
                })?;
            Ok(ClipData {
                index: character.clips.len() + k,
                clip: moved,
                morph_tracks: Vec::new(),
                channels: Vec::new(),
                compressed: None,
            })
        })
        .collect();
    clips.map(|clips| (clips, matched))
}

/// Strictly increasing times (the last sample may land on the previous at the clip's end).
fn dedup(mut times: Vec<f32>) -> Vec<f32> {
    times.dedup_by(|b, a| *b <= *a);
    times
}

/// The source's own rate: every key time of `clip` when its tracks are all LINEAR or STEP (a
/// cubic spline between keys is sampled at `SAMPLE_HZ` instead), at most `MAX_SAMPLES`.
fn key_times(clip: &Clip) -> Option<Vec<f32>> {
    let mut times = Vec::new();
    for jt in clip.tracks() {
        if jt.channel.interpolation() == crate::anim::Interpolation::CubicSpline {
            return None;
        }
        times.extend_from_slice(jt.channel.times());
    }
    times.push(0.0);
    times.sort_by(f32::total_cmp);
    times.dedup();
    (times.len() <= MAX_SAMPLES).then_some(times)
}

/// A clip and the times it is sampled at.
type TimedClip = (Clip, Vec<f32>);

/// A source file's skeleton and clips, each with the times it is sampled at: a `.bvh` (one clip,
/// at its frames), or a glTF/GLB read within `reach` (each clip at its keys, or at 60 Hz when
/// it has cubic splines).
fn source_of(
    path: &Path,
    reach: &super::Reach,
) -> Result<(Skeleton, Vec<TimedClip>), ClipsFromError> {
    let bvh = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("bvh"));
    Ok(if bvh {
        let b = super::bvh::load_within(path, reach)?;
        let times = (0..b.frames.clamp(1, MAX_SAMPLES))
            .map(|f| f as f32 * b.frame_secs)
            .collect();
        (b.skeleton, vec![(b.clip, times)])
    } else {
        let options = super::LoadOptions {
            reach: reach.clone(),
            ..Default::default()
        };
        let source = super::load_with(path, options)?;
        let clips = source
            .clips
            .into_iter()
            .map(|k| {
                let times = key_times(&k.clip).unwrap_or_else(|| {
                    let d = k.clip.duration_secs();
                    let samples = ((d * SAMPLE_HZ).ceil() as usize + 1).clamp(1, MAX_SAMPLES);
                    (0..samples)
                        .map(|s| (s as f32 / SAMPLE_HZ).min(d))
                        .collect::<Vec<f32>>()
                });
                (k.clip, dedup(times))
            })
            .collect();
        (source.skeleton, clips)
    })
}

/// The skeleton of a source file (a `.bvh`, or a glTF/GLB read within `reach`): what a retarget
/// map pairs the character's joints with.
pub fn source_skeleton(path: &Path, reach: &super::Reach) -> Result<Skeleton, ClipsFromError> {
    source_of(path, reach).map(|(skeleton, _)| skeleton)
}

/// Which of `character`'s joints the skeleton of `path` would drive (`clips_from`'s matching:
/// auto-mapped, or through the plan's pairs), by name, with how each pair was found.
pub fn joint_match(
    path: &Path,
    character: &Character,
    plan: Option<&RetargetPlan>,
    reach: &super::Reach,
) -> Result<crate::anim::JointMatch, ClipsFromError> {
    let (skeleton, _) = source_of(path, reach)?;
    let map = match plan.and_then(RetargetPlan::pairs) {
        Some(pairs) => JointMap::from_pairs(&skeleton, &character.skeleton, pairs),
        None => JointMap::auto(&skeleton, &character.skeleton),
    };
    Ok(crate::anim::JointMatch::of_map(
        &skeleton,
        &character.skeleton,
        &map,
    ))
}
