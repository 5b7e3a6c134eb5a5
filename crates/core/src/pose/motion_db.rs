//! Motion matching's database: every 60 Hz frame of a character's clips described by
//! 27 features in the character's facing frame, as Holden's `database.h` lays them out: both
//! feet's positions and velocities, the hips' velocity, and the future trajectory's positions
//! and facing directions (on the ground) 20, 40 and 60 frames ahead. The feet and hips are the
//! ones foot IK finds. Each group is normalised by its standard deviation and weighted, and
//! the frames whose future stays inside their clip (or loops, for a clip whose last pose is its
//! first) are the search's candidates (`anim::FeatureIndex`).

use glam::{Quat, Vec3};

use crate::anim::{
    self, FeatureGroup, FeatureIndex, LocalPose, MatchError, ModelPose, Normalizer, RootFrame,
};
use crate::character::Character;

/// Frames a second the database is sampled at.
pub const FEATURE_HZ: f32 = 60.0;
/// The future trajectory's samples, in frames ahead.
pub const FUTURE_FRAMES: [usize; 3] = [20, 40, 60];
/// Features a frame: 2 x 3 foot positions, 2 x 3 foot velocities, 3 hips velocity, 3 x 2
/// trajectory positions, 3 x 2 trajectory directions.
pub const FEATURES: usize = 27;
/// The most frames a database holds (an hour at 60 Hz).
pub const MAX_FRAMES: usize = 216_000;

/// The joints the features are read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureJoints {
    pub left_foot: usize,
    pub right_foot: usize,
    pub hips: usize,
    /// The root-motion joint: its ground position and heading are the facing frame.
    pub root: usize,
}

impl FeatureJoints {
    /// The feet and hips named by hand, with the default root-motion joint (the hips when no
    /// clip translates a joint).
    pub fn named(c: &Character, left_foot: usize, right_foot: usize, hips: usize) -> Self {
        let root =
            anim::default_root_joint(&c.skeleton, c.clips.iter().map(|k| &k.clip)).unwrap_or(hips);
        Self {
            left_foot,
            right_foot,
            hips,
            root,
        }
    }

    /// The feet and hips foot IK finds (the first two legs, their common ancestor), and the
    /// default root-motion joint; `None` for a character with fewer than two legs.
    pub fn find(c: &Character) -> Option<Self> {
        Self::of_legs(c, &super::find_legs(c))
    }

    /// The feet of the first two of `legs` (foot IK's legs, found or set by hand) and their
    /// common ancestor as the hips; `None` with fewer than two.
    pub fn of_legs(c: &Character, legs: &[anim::Chain]) -> Option<Self> {
        let [left, right, ..] = legs else {
            return None;
        };
        let hips = super::legs::common_ancestor(c, legs)?;
        let root =
            anim::default_root_joint(&c.skeleton, c.clips.iter().map(|k| &k.clip)).unwrap_or(hips);
        Some(Self {
            left_foot: left.end,
            right_foot: right.end,
            hips,
            root,
        })
    }
}

/// The weight of each feature group (Holden's defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchWeights {
    pub foot_position: f32,
    pub foot_velocity: f32,
    pub hips_velocity: f32,
    pub trajectory_position: f32,
    pub trajectory_direction: f32,
}

impl Default for MatchWeights {
    fn default() -> Self {
        Self {
            foot_position: 0.75,
            foot_velocity: 1.0,
            hips_velocity: 1.0,
            trajectory_position: 1.0,
            trajectory_direction: 1.5,
        }
    }
}

impl MatchWeights {
    /// The feature groups, in the features' order.
    pub fn groups(&self) -> Vec<FeatureGroup> {
        let group = |name: &str, dims: usize, weight: f32| FeatureGroup {
            name: name.into(),
            dims,
            weight,
        };
        vec![
            group("left foot position", 3, self.foot_position),
            group("right foot position", 3, self.foot_position),
            group("left foot velocity", 3, self.foot_velocity),
            group("right foot velocity", 3, self.foot_velocity),
            group("hips velocity", 3, self.hips_velocity),
            group("trajectory positions", 6, self.trajectory_position),
            group("trajectory directions", 6, self.trajectory_direction),
        ]
    }
}

/// A database frame: its clip and time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DbFrame {
    pub clip: usize,
    pub time_secs: f32,
}

/// Why a database could not be built.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{0}: no two legs to read feet from (foot IK finds none)")]
    NoLegs(String),
    #[error("{0}: no clip to build a motion-matching database from")]
    NoClips(String),
    #[error("{character}: {frames} frames is more than the {MAX_FRAMES} a database holds")]
    TooLarge { character: String, frames: usize },
    #[error(transparent)]
    Match(#[from] MatchError),
    #[error(transparent)]
    Pose(#[from] anim::PoseError),
}

/// A character's motion-matching database: see the module's documentation.
#[derive(Clone, Debug)]
pub struct MotionDatabase {
    pub joints: FeatureJoints,
    pub weights: MatchWeights,
    pub groups: Vec<FeatureGroup>,
    pub normalizer: Normalizer,
    pub index: FeatureIndex,
    /// The features as measured, `FEATURES` a frame.
    pub raw: Vec<f32>,
    pub frames: Vec<DbFrame>,
    /// Each of the character's clips' travel when it is played in place (model space, units a
    /// second; zero for a clip that travels by root motion, or is not in the database): the
    /// speed its planted feet need, which the features and the performer add as root motion.
    pub travel: Vec<Vec3>,
}

/// Reads one clip's poses at 60 Hz for the features.
struct Sampler<'c> {
    c: &'c Character,
    clip: usize,
    joints: FeatureJoints,
    /// The in-place clip's travel (zero for one that travels).
    travel: Vec3,
    frame: RootFrame,
    local: LocalPose,
    model: ModelPose,
    cursor: anim::ClipCursor,
}

impl<'c> Sampler<'c> {
    fn new(c: &'c Character, clip: usize, joints: FeatureJoints, travel: Vec3) -> Self {
        Self {
            c,
            clip,
            joints,
            travel,
            frame: RootFrame::of(&c.skeleton, joints.root),
            local: LocalPose::rest(&c.skeleton),
            model: ModelPose::new(&c.skeleton),
            cursor: anim::ClipCursor::new(&c.clips[clip].clip),
        }
    }

    fn duration(&self) -> f32 {
        self.c.clips[self.clip].duration_secs()
    }

    /// The model pose at `t` (inside the clip).
    fn pose(&mut self, t: f32) -> Result<(), anim::PoseError> {
        let clip = &self.c.clips[self.clip].clip;
        anim::sample_clip(&self.c.skeleton, clip, t, &mut self.cursor, &mut self.local)?;
        anim::local_to_model(&self.c.skeleton, &self.local, &mut self.model)
    }

    fn at(&self, joint: usize) -> Vec3 {
        Vec3::from(self.model.as_slice()[joint].translation)
    }

    /// The root's displacement (travel and turn) at unwrapped time `t`, since time 0.
    fn displacement(&self, t: f32) -> anim::Displacement {
        let c = self.c;
        let rest = &c.skeleton.rest()[self.joints.root];
        let clip = &c.clips[self.clip].clip;
        let mut d = anim::clip_displacement(clip, (self.joints.root, rest, &self.frame), t);
        d.offset += self.travel * t;
        d
    }

    /// The features of frame time `t` into `out`: the feet and hips from the poses at `t` and
    /// one frame on (or back, at the clip's end), the trajectory from the root's displacement.
    fn features(&mut self, t: f32, out: &mut [f32]) -> Result<(), anim::PoseError> {
        let dt = 1.0 / FEATURE_HZ;
        let (t0, t1) = if t + dt <= self.duration() + 1e-6 {
            (t, t + dt)
        } else {
            ((t - dt).max(0.0), t)
        };
        let j = self.joints;
        self.pose(t1)?;
        let later = [self.at(j.left_foot), self.at(j.right_foot), self.at(j.hips)];
        self.pose(t0)?;
        let now = [self.at(j.left_foot), self.at(j.right_foot), self.at(j.hips)];
        if t0 != t {
            self.pose(t)?;
        }
        let here = self.displacement(t);
        // The facing frame: the root's ground position now, turned by its heading.
        let root = self.at(j.root).with_y(0.0);
        let to_facing = anim::from_yaw(-here.yaw);
        let step = (t1 - t0).max(1e-6);
        let mut k = 0;
        let mut put = |v: Vec3, out: &mut [f32]| {
            out[k..k + 3].copy_from_slice(&v.to_array());
            k += 3;
        };
        put(to_facing * (self.at(j.left_foot) - root), out);
        put(to_facing * (self.at(j.right_foot) - root), out);
        let v = self.travel;
        put(to_facing * ((later[0] - now[0]) / step + v), out);
        put(to_facing * ((later[1] - now[1]) / step + v), out);
        put(to_facing * ((later[2] - now[2]) / step + v), out);
        for (n, &frames) in FUTURE_FRAMES.iter().enumerate() {
            let ahead = self.displacement(t + frames as f32 * dt);
            let p = to_facing * (ahead.offset - here.offset);
            out[15 + 2 * n] = p.x;
            out[16 + 2 * n] = p.z;
            let d = anim::from_yaw(ahead.yaw - here.yaw) * Vec3::Z;
            out[21 + 2 * n] = d.x;
            out[22 + 2 * n] = d.z;
        }
        Ok(())
    }
}

/// Whether a clip loops: for every track, the jump from its last key back to its first is
/// no bigger than one and a half times the largest step between consecutive keys (a seam no
/// rougher than the clip itself) and than half the track's range, or within a degree (a
/// thousandth of the character's height for a translation, the root's travel aside). Its
/// future then wraps.
pub fn is_cyclic(c: &Character, clip: usize, root: usize) -> bool {
    loops(c, clip, root, super::character_height(c))
}

/// `is_cyclic` for a character `height` tall (measured once by the caller).
fn loops(c: &Character, clip: usize, root: usize, height: f32) -> bool {
    let k = &c.clips[clip].clip;
    let angle = |a: Quat, b: Quat| {
        let d: Quat = a * b.inverse();
        2.0 * d.xyz().length().atan2(d.w.abs())
    };
    k.tracks().iter().all(|t| match &t.channel {
        anim::Channel::Rotation(track) => seamless(track, |a, b| angle(*a, *b), 1f32.to_radians()),
        anim::Channel::Translation(track) if t.joint != root => {
            seamless(track, |a, b| a.distance(*b), 1e-3 * height)
        }
        _ => true,
    })
}

/// Whether a track's last key leads back to its first no more roughly than `tolerance` or
/// one and a half of its largest step (`distance` between key values; a cubic spline's
/// values, not its tangents).
fn seamless<T: anim::TrackValue + Copy>(
    track: &anim::Track<T>,
    distance: impl Fn(&T, &T) -> f32,
    tolerance: f32,
) -> bool {
    let per = track.interpolation().values_per_key().max(1);
    let keys: Vec<&T> = track.values().iter().skip(per / 2).step_by(per).collect();
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
        return true;
    };
    let step = keys
        .windows(2)
        .map(|w| distance(w[0], w[1]))
        .fold(0.0f32, f32::max);
    // And small against how far the track goes from its first key (a two-key ramp's one step
    // is the whole of it).
    let range = keys
        .iter()
        .map(|k| distance(first, k))
        .fold(0.0f32, f32::max);
    let gap = distance(first, last);
    gap <= tolerance.max(1.5 * step) && gap <= tolerance.max(0.5 * range)
}

/// The database of `clips` (all of the character's when empty) with `weights`.
pub fn build_database(
    c: &Character,
    clips: &[usize],
    weights: &MatchWeights,
) -> Result<MotionDatabase, DbError> {
    build_database_with(c, (clips, weights, None), &mut |_, _| {})
}

/// `build_database` with the feature joints set by hand (`None`: as foot IK finds them),
/// calling `progress(frames done, frames in all)` as it measures.
pub fn build_database_with(
    c: &Character,
    (clips, weights, joints): (&[usize], &MatchWeights, Option<FeatureJoints>),
    progress: &mut dyn FnMut(usize, usize),
) -> Result<MotionDatabase, DbError> {
    let joints = match joints {
        Some(j) => j,
        None => FeatureJoints::find(c).ok_or_else(|| DbError::NoLegs(c.name.clone()))?,
    };
    let clips: Vec<usize> = if clips.is_empty() {
        (0..c.clips.len()).collect()
    } else {
        clips
            .iter()
            .copied()
            .filter(|&k| k < c.clips.len())
            .collect()
    };
    if clips.is_empty() {
        return Err(DbError::NoClips(c.name.clone()));
    }
    let count = |k: usize| (c.clips[k].duration_secs() * FEATURE_HZ).floor() as usize + 1;
    let total: usize = clips.iter().map(|&k| count(k)).sum();
    if total > MAX_FRAMES {
        return Err(DbError::TooLarge {
            character: c.name.clone(),
            frames: total,
        });
    }
    let mut raw = vec![0.0f32; total * FEATURES];
    let mut frames = Vec::with_capacity(total);
    let mut ranges = Vec::new();
    let mut travel = vec![Vec3::ZERO; c.clips.len()];
    let horizon = *FUTURE_FRAMES.last().unwrap_or(&0);
    let legs = super::find_legs(c);
    // The height skins the rest pose: measured once, not for every clip.
    let height = super::character_height(c);
    for &clip in &clips {
        travel[clip] = in_place_travel(c, clip, (joints, height), &legs);
        let mut sampler = Sampler::new(c, clip, joints, travel[clip]);
        let n = count(clip);
        let start = frames.len();
        for i in 0..n {
            let t = (i as f32 / FEATURE_HZ).min(sampler.duration());
            let row = &mut raw[(start + i) * FEATURES..][..FEATURES];
            sampler.features(t, row)?;
            frames.push(DbFrame { clip, time_secs: t });
            if frames.len() % 256 == 0 {
                progress(frames.len(), total);
            }
        }
        // A frame is a candidate while its future stays in the clip (or wraps, for a loop).
        let last = if loops(c, clip, joints.root, height) {
            n
        } else {
            n.saturating_sub(horizon)
        };
        if last > 0 {
            ranges.push(start..start + last);
        }
    }
    progress(total, total);
    MotionDatabase::assemble(joints, *weights, (raw, frames, travel), ranges)
}

/// A clip's travel when it is played in place: its planted feet's (`planted_feet_travel`)
/// when its root travels less than a quarter of that over the clip; else zero.
fn in_place_travel(
    c: &Character,
    clip: usize,
    (joints, height): (FeatureJoints, f32),
    legs: &[anim::Chain],
) -> Vec3 {
    let feet = super::planted_feet_travel(c, clip, legs);
    let k = &c.clips[clip];
    let rest = &c.skeleton.rest()[joints.root];
    let frame = RootFrame::of(&c.skeleton, joints.root);
    let whole = anim::clip_displacement(&k.clip, (joints.root, rest, &frame), k.duration_secs());
    let needs = feet.length() * k.duration_secs();
    if feet.length() > 0.05 * height && whole.offset.length() < 0.25 * needs {
        feet
    } else {
        Vec3::ZERO
    }
}

impl MotionDatabase {
    /// A database of measured features: normalised by `weights`' groups and indexed.
    pub fn assemble(
        joints: FeatureJoints,
        weights: MatchWeights,
        (raw, frames, travel): (Vec<f32>, Vec<DbFrame>, Vec<Vec3>),
        ranges: Vec<std::ops::Range<usize>>,
    ) -> Result<Self, DbError> {
        let groups = weights.groups();
        let normalizer = Normalizer::fit(&raw, &groups)?;
        let mut features = vec![0.0; raw.len()];
        normalizer.apply(&raw, &mut features);
        let index = FeatureIndex::new(FEATURES, features, ranges)?;
        Ok(Self {
            joints,
            weights,
            groups,
            normalizer,
            index,
            raw,
            frames,
            travel,
        })
    }

    /// The raw features of `clip` at `time_secs`, as the database measures its frames (the
    /// query's pose part, for the frame playing).
    pub fn features_at(
        &self,
        c: &Character,
        clip: usize,
        time_secs: f32,
        out: &mut [f32],
    ) -> Result<(), DbError> {
        if clip >= c.clips.len() || out.len() != FEATURES {
            return Err(DbError::Match(MatchError::Query {
                got: out.len(),
                want: FEATURES,
            }));
        }
        let travel = self.travel.get(clip).copied().unwrap_or_default();
        let mut sampler = Sampler::new(c, clip, self.joints, travel);
        Ok(sampler.features(time_secs.clamp(0.0, sampler.duration()), out)?)
    }

    /// The frame nearest the raw query `query`, and its cost; `scratch` is left holding the
    /// query normalised.
    pub fn nearest(
        &self,
        query: &[f32],
        current: Option<usize>,
        scratch: &mut [f32],
    ) -> Result<Option<(usize, f32)>, DbError> {
        if query.len() != FEATURES || scratch.len() != FEATURES {
            return Err(DbError::Match(MatchError::Query {
                got: query.len(),
                want: FEATURES,
            }));
        }
        self.normalizer.apply(query, scratch);
        Ok(self.index.search_from(scratch, current)?)
    }
}
