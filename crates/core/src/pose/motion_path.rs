//! Joints' motion paths (Blender's): where a joint's origin goes over a range of clip time,
//! sampled at a fixed step, with the clip's keys on the joint and its ancestors marked at their
//! own times. Each sample is the joint's `world_from_joint` of the frame posed at that time,
//! from the request the caller gives for it, so a path is the frames a player would show.

use glam::{Affine3A, Vec3};

use super::evaluate::CharacterPose;
use super::request::PoseRequest;
use crate::character::Character;

/// The most samples one path takes (a range over a step), keys included.
pub const MAX_PATH_SAMPLES: usize = 10_000;

/// One posed instant of a path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathSample {
    pub time_secs: f32,
    pub world_from_joint: Affine3A,
}

impl PathSample {
    /// The joint's origin in the world.
    pub fn position(&self) -> Vec3 {
        Vec3::from(self.world_from_joint.translation)
    }
}

/// A joint's path: a sample per step, and one at each key in the range.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MotionPath {
    pub joint: usize,
    pub samples: Vec<PathSample>,
    pub keys: Vec<PathSample>,
}

/// Why a path's range is refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PathRangeError {
    #[error("the range {from}..{to} is empty or not finite: give --from below --to")]
    Empty { from: f32, to: f32 },
    #[error("a step of {0} s is not a positive, finite number")]
    Step(f32),
    #[error(
        "{count} samples ({from}..{to} by {step} s) is more than {MAX_PATH_SAMPLES}: give a longer step or a shorter range"
    )]
    TooMany {
        from: f32,
        to: f32,
        step: f32,
        count: usize,
    },
}

/// The sample times from `from` to `to` by `step`, as products (`from + k * step`, no running
/// sum), `to` last when the step does not land on it.
pub fn path_times(from: f32, to: f32, step: f32) -> Result<Vec<f32>, PathRangeError> {
    if !(from.is_finite() && to.is_finite()) || to < from {
        return Err(PathRangeError::Empty { from, to });
    }
    if !(step.is_finite() && step > 0.0) {
        return Err(PathRangeError::Step(step));
    }
    let whole = ((to - from) / step + 1e-4).floor();
    let count = whole as usize + 2;
    if !whole.is_finite() || count > MAX_PATH_SAMPLES {
        return Err(PathRangeError::TooMany {
            from,
            to,
            step,
            count: if whole.is_finite() { count } else { usize::MAX },
        });
    }
    let mut times: Vec<f32> = (0..=whole as usize)
        .map(|k| from + k as f32 * step)
        .collect();
    if times.last().is_some_and(|&t| to - t > step * 1e-3) {
        times.push(to);
    }
    Ok(times)
}

/// The key times of clip `clip` in `from..=to` on `joint` and its ancestors (a key on any of
/// them bends the joint's path), sorted, each once.
pub fn key_times(c: &Character, clip: usize, joint: usize, from: f32, to: f32) -> Vec<f32> {
    let Some(k) = c.clips.get(clip) else {
        return Vec::new();
    };
    let mut chain = vec![false; c.skeleton.joint_count()];
    let mut j = Some(joint).filter(|&j| j < chain.len());
    while let Some(at) = j {
        chain[at] = true;
        j = c.skeleton.parents()[at].map(usize::from);
    }
    let mut times: Vec<f32> = (k.clip.tracks().iter())
        .filter(|t| chain.get(t.joint).copied().unwrap_or(false))
        .flat_map(|t| t.channel.times().iter().copied())
        .filter(|t| (from..=to).contains(t))
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

/// Every key time of clip `clip`, over all its tracks, sorted, each once.
pub fn clip_key_times(c: &Character, clip: usize) -> Vec<f32> {
    let Some(k) = c.clips.get(clip) else {
        return Vec::new();
    };
    let mut times: Vec<f32> = (k.clip.tracks().iter())
        .flat_map(|t| t.channel.times().iter().copied())
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

/// The paths of `joints` at `times` (and at each joint's `keys`), each frame posed from
/// `request_at(time)` into one reused pose.
pub fn motion_paths<E: From<crate::anim::PoseError>>(
    c: &Character,
    joints: &[usize],
    times: &[f32],
    keys: &[Vec<f32>],
    mut request_at: impl FnMut(f32) -> Result<PoseRequest, E>,
) -> Result<Vec<MotionPath>, E> {
    let mut pose = CharacterPose::new(c);
    let mut pose_at = |pose: &mut CharacterPose, t: f32| -> Result<(), E> {
        pose.evaluate(c, &request_at(t)?)?;
        Ok(())
    };
    let sample = |pose: &CharacterPose, t: f32, joint: usize| PathSample {
        time_secs: t,
        world_from_joint: (pose.model.as_slice().get(joint).copied()).unwrap_or(Affine3A::IDENTITY),
    };
    let mut paths: Vec<MotionPath> = (joints.iter())
        .map(|&joint| MotionPath {
            joint,
            samples: Vec::with_capacity(times.len()),
            keys: Vec::new(),
        })
        .collect();
    // Each time is posed once for every joint.
    for &t in times {
        pose_at(&mut pose, t)?;
        for path in &mut paths {
            path.samples.push(sample(&pose, t, path.joint));
        }
    }
    for (path, keys) in paths.iter_mut().zip(keys) {
        for &t in keys {
            pose_at(&mut pose, t)?;
            path.keys.push(sample(&pose, t, path.joint));
        }
    }
    Ok(paths)
}
