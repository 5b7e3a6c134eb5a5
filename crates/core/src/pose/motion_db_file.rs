//! A motion-matching database saved (`skinscope match-db ... --out DB`) and read back
//! (`--motion-db DB`): a versioned little-endian binary. It holds what was measured (the raw
//! features, the frames' clips and times, the candidate runs), the feature joints and the
//! group weights; the normalisation and the search's boxes are rebuilt from them on reading,
//! as they were built. It is tied to its skeleton (the joints' names and parents) and its
//! clips (names and durations): a file made for another is refused, saying what differs.
//!
//! Layout: `SKSMMDB\0`, version (u32), the skeleton's joint count and 64-bit fingerprint,
//! the four feature joints, the five weights, the clip count then each clip's name (u16
//! length, UTF-8) and duration, each clip's in-place travel (3 f32), the frame count then each frame's clip (u32) and time (f32),
//! the run count then each run's start and end (u32), then every frame's 27 features (f32).

use super::motion_db::{
    DbFrame, FEATURES, FeatureJoints, MAX_FRAMES, MatchWeights, MotionDatabase,
};
use crate::character::Character;

const MAGIC: &[u8; 8] = b"SKSMMDB\0";
/// The format's version; a file of another is refused.
pub const DB_VERSION: u32 = 1;

/// Why a saved database cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DbFileError {
    #[error("not a skinscope motion database (no SKSMMDB header)")]
    NotDatabase,
    #[error("format version {got}; this skinscope reads version {DB_VERSION}")]
    Version { got: u32 },
    #[error("cut short at byte {at} (reading {what})")]
    Truncated { at: usize, what: &'static str },
    #[error("{0}")]
    Invalid(String),
    #[error(
        "made for another skeleton ({got} joints, fingerprint {got_print:016x}) than {character}'s ({want} joints, fingerprint {want_print:016x})"
    )]
    OtherSkeleton {
        character: String,
        got: usize,
        want: usize,
        got_print: u64,
        want_print: u64,
    },
    #[error("made with other clips than {character}'s: {problem}")]
    OtherClips { character: String, problem: String },
    #[error(transparent)]
    Build(#[from] super::motion_db::DbError),
}

/// A skeleton's fingerprint: FNV-1a over every joint's name and parent.
pub fn skeleton_fingerprint(c: &Character) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    let skeleton = &c.skeleton;
    for (j, name) in skeleton.names().iter().enumerate() {
        eat(name.as_bytes());
        let parent = skeleton.parents()[j].map_or(u32::MAX, |p| p as u32);
        eat(&parent.to_le_bytes());
    }
    h
}

impl MotionDatabase {
    /// The saved form of this database of `c`.
    pub fn to_bytes(&self, c: &Character) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.raw.len() * 4 + self.frames.len() * 8);
        out.extend_from_slice(MAGIC);
        let u32s = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
        let f32s = |out: &mut Vec<u8>, v: f32| out.extend_from_slice(&v.to_le_bytes());
        u32s(&mut out, DB_VERSION);
        u32s(&mut out, c.skeleton.joint_count() as u32);
        out.extend_from_slice(&skeleton_fingerprint(c).to_le_bytes());
        let j = self.joints;
        for joint in [j.left_foot, j.right_foot, j.hips, j.root] {
            u32s(&mut out, joint as u32);
        }
        let w = self.weights;
        for weight in [
            w.foot_position,
            w.foot_velocity,
            w.hips_velocity,
            w.trajectory_position,
            w.trajectory_direction,
        ] {
            f32s(&mut out, weight);
        }
        u32s(&mut out, c.clips.len() as u32);
        for clip in &c.clips {
            let name = clip.clip.name().as_bytes();
            let name = &name[..name.len().min(u16::MAX as usize)];
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(name);
            f32s(&mut out, clip.duration_secs());
        }
        for k in 0..c.clips.len() {
            let v = self.travel.get(k).copied().unwrap_or_default();
            for x in v.to_array() {
                f32s(&mut out, x);
            }
        }
        u32s(&mut out, self.frames.len() as u32);
        for f in &self.frames {
            u32s(&mut out, f.clip as u32);
            f32s(&mut out, f.time_secs);
        }
        let ranges = self.index.ranges();
        u32s(&mut out, ranges.len() as u32);
        for r in ranges {
            u32s(&mut out, r.start as u32);
            u32s(&mut out, r.end as u32);
        }
        for &x in &self.raw {
            f32s(&mut out, x);
        }
        out
    }

    /// A saved database read back for `c`: refused when it was made for another skeleton or
    /// other clips, or is malformed (each size checked before anything is allocated).
    pub fn from_bytes(bytes: &[u8], c: &Character) -> Result<Self, DbFileError> {
        let mut r = Reader { bytes, at: 0 };
        r.header(c)?;
        let feature_joints = r.feature_joints(c.skeleton.joint_count())?;
        let weights = r.weights()?;
        let clips = check_clips(&mut r, c)?;
        let travel = r.travel(clips, c.clips.len())?;
        let frames = r.frames(clips)?;
        let count = frames.len();
        let ranges = r.runs(count)?;
        let features = count * FEATURES * 4;
        if r.left() != features {
            let how = if r.left() < features {
                "cut short"
            } else {
                "longer than its frames"
            };
            return Err(DbFileError::Invalid(format!(
                "{how}: its {count} frames of {FEATURES} features take {features} bytes, and \
                 {} are left",
                r.left()
            )));
        }
        let raw: Vec<f32> = r.bytes[r.at..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        Ok(MotionDatabase::assemble(
            feature_joints,
            weights,
            (raw, frames, travel),
            ranges,
        )?)
    }
}

impl Reader<'_> {
    /// The magic, the version and the skeleton (its joint count and fingerprint), checked
    /// against `c`.
    fn header(&mut self, c: &Character) -> Result<(), DbFileError> {
        if self.take(8, "the header")? != MAGIC {
            return Err(DbFileError::NotDatabase);
        }
        let version = self.u32("the version")?;
        if version != DB_VERSION {
            return Err(DbFileError::Version { got: version });
        }
        let joints = self.u32("the joint count")? as usize;
        let print = u64::from_le_bytes(
            self.take(8, "the fingerprint")?
                .try_into()
                .unwrap_or([0; 8]),
        );
        let want = c.skeleton.joint_count();
        let want_print = skeleton_fingerprint(c);
        if joints != want || print != want_print {
            return Err(DbFileError::OtherSkeleton {
                character: c.name.clone(),
                got: joints,
                want,
                got_print: print,
                want_print,
            });
        }
        Ok(())
    }

    /// The four feature joints, each one of the skeleton's `joints`.
    fn feature_joints(&mut self, joints: usize) -> Result<FeatureJoints, DbFileError> {
        let mut joint = || -> Result<usize, DbFileError> {
            let j = self.u32("a feature joint")? as usize;
            if j >= joints {
                return Err(DbFileError::Invalid(format!(
                    "feature joint {j} of {joints}"
                )));
            }
            Ok(j)
        };
        Ok(FeatureJoints {
            left_foot: joint()?,
            right_foot: joint()?,
            hips: joint()?,
            root: joint()?,
        })
    }

    /// The five match weights, each finite and not negative.
    fn weights(&mut self) -> Result<MatchWeights, DbFileError> {
        let mut w = [0.0f32; 5];
        for x in &mut w {
            *x = self.f32("a weight")?;
            if !(x.is_finite() && *x >= 0.0) {
                return Err(DbFileError::Invalid(format!("weight {x}")));
            }
        }
        Ok(MatchWeights {
            foot_position: w[0],
            foot_velocity: w[1],
            hips_velocity: w[2],
            trajectory_position: w[3],
            trajectory_direction: w[4],
        })
    }

    /// The first `clips` clips' travel (finite), the rest of the character's `all` zero.
    fn travel(&mut self, clips: usize, all: usize) -> Result<Vec<glam::Vec3>, DbFileError> {
        let mut travel = vec![glam::Vec3::ZERO; all];
        for v in travel.iter_mut().take(clips) {
            let xyz = [
                self.f32("a clip's travel")?,
                self.f32("a clip's travel")?,
                self.f32("a clip's travel")?,
            ];
            if !xyz.iter().all(|x| x.is_finite()) {
                return Err(DbFileError::Invalid(format!("a clip's travel {xyz:?}")));
            }
            *v = glam::Vec3::from(xyz);
        }
        Ok(travel)
    }

    /// The frames (a clip of the first `clips` at a finite time each), their count checked
    /// against `MAX_FRAMES` and against the bytes left before any is read.
    fn frames(&mut self, clips: usize) -> Result<Vec<DbFrame>, DbFileError> {
        let count = self.u32("the frame count")? as usize;
        if count > MAX_FRAMES {
            return Err(DbFileError::Invalid(format!(
                "it declares {count} frames, more than the {MAX_FRAMES} a database holds"
            )));
        }
        // Each frame: 8 bytes of clip and time, then its features.
        let needed = count * (8 + FEATURES * 4);
        if needed > self.left() {
            return Err(DbFileError::Invalid(format!(
                "cut short: its {count} frames need at least {needed} more bytes, and {} are left \
                 (a file copied or downloaded only in part?)",
                self.left()
            )));
        }
        let mut frames = Vec::with_capacity(count);
        for _ in 0..count {
            let clip = self.u32("a frame's clip")? as usize;
            let time_secs = self.f32("a frame's time")?;
            if clip >= clips || !time_secs.is_finite() {
                return Err(DbFileError::Invalid(format!(
                    "frame {} plays clip {clip} at {time_secs}",
                    frames.len()
                )));
            }
            frames.push(DbFrame { clip, time_secs });
        }
        Ok(frames)
    }

    /// The candidate runs (at most one more than the `count` frames).
    fn runs(&mut self, count: usize) -> Result<Vec<std::ops::Range<usize>>, DbFileError> {
        let runs = self.u32("the run count")? as usize;
        if runs > count + 1 || runs * 8 > self.left() {
            return Err(DbFileError::Invalid(format!("{runs} candidate runs")));
        }
        let mut ranges = Vec::with_capacity(runs);
        for _ in 0..runs {
            let (a, b) = (self.u32("a run")? as usize, self.u32("a run")? as usize);
            ranges.push(a..b);
        }
        Ok(ranges)
    }
}

/// The saved clips against the character's: the same names and durations, in order (clips
/// added after the database was made are allowed; it does not use them).
fn check_clips(r: &mut Reader<'_>, c: &Character) -> Result<usize, DbFileError> {
    let clips = r.u32("the clip count")? as usize;
    let other = |problem: String| DbFileError::OtherClips {
        character: c.name.clone(),
        problem,
    };
    if clips > c.clips.len() {
        return Err(other(format!(
            "it has {clips} clips, the character {}",
            c.clips.len()
        )));
    }
    for (k, clip) in c.clips.iter().take(clips).enumerate() {
        let n = u16::from_le_bytes([r.byte("a clip name")?, r.byte("a clip name")?]) as usize;
        let name = String::from_utf8_lossy(r.take(n, "a clip name")?).into_owned();
        let duration = r.f32("a clip's duration")?;
        if name != clip.clip.name() || (duration - clip.duration_secs()).abs() > 1e-4 {
            return Err(other(format!(
                "clip {k} is {name:?} ({duration} s) there, {:?} ({} s) here",
                clip.clip.name(),
                clip.duration_secs()
            )));
        }
    }
    Ok(clips)
}

/// Reads the saved bytes in order, every read checked against the end.
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take(&mut self, n: usize, what: &'static str) -> Result<&'b [u8], DbFileError> {
        if n > self.left() {
            return Err(DbFileError::Truncated { at: self.at, what });
        }
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }

    fn byte(&mut self, what: &'static str) -> Result<u8, DbFileError> {
        Ok(self.take(1, what)?[0])
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, DbFileError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn f32(&mut self, what: &'static str) -> Result<f32, DbFileError> {
        Ok(f32::from_bits(self.u32(what)?))
    }
}
