//! Animation clips: keyframe tracks per joint and named events, validated once on entry.

use glam::{Quat, Vec3};
use thiserror::Error;

/// The shortest clip that plays: 1 ms. A clip that lasts less (2 ns, a broken exporter's or an
/// attacker's) is refused at import, since work that steps through time by the clip's laps, or
/// by frames a clip, would grow with the ratio of the time asked to the clip's length. A clip of
/// one key (length 0) is a still pose and plays.
pub const MIN_CLIP_SECS: f32 = 1e-3;

/// How a track moves between its keys (glTF's `animation.sampler.interpolation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    /// Holds key `i` over `[t_i, t_i+1)`.
    Step,
    /// Lerp for vectors; shortest-arc slerp for rotations.
    Linear,
    /// glTF's cubic Hermite spline: three values per key (in-tangent, value, out-tangent), tangents
    /// scaled by the key interval.
    CubicSpline,
}

impl Interpolation {
    /// Values stored per key: 3 for cubic splines (in-tangent, value, out-tangent), else 1.
    pub fn values_per_key(self) -> usize {
        match self {
            Interpolation::CubicSpline => 3,
            Interpolation::Step | Interpolation::Linear => 1,
        }
    }
}

/// Which part of a joint's local transform a track drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Property {
    Translation,
    Rotation,
    Scale,
}

/// Keyframes of one value over time.
///
/// Invariants (checked by `Track::new`): at least one key, strictly increasing finite non-negative
/// times, `values.len() == times.len() * interpolation.values_per_key()`, finite values and, for
/// rotations, no zero quaternion among the key values (tangents may be zero).
#[derive(Clone, Debug)]
pub struct Track<T> {
    times: Vec<f32>,
    values: Vec<T>,
    interpolation: Interpolation,
}

/// A value a track can hold.
pub trait TrackValue: Copy {
    fn is_finite_value(&self) -> bool;
    /// A key value that cannot be used (a zero quaternion).
    fn is_degenerate_key(&self) -> bool;
}

impl TrackValue for Vec3 {
    fn is_finite_value(&self) -> bool {
        self.is_finite()
    }
    fn is_degenerate_key(&self) -> bool {
        false
    }
}

impl TrackValue for Quat {
    fn is_finite_value(&self) -> bool {
        self.is_finite()
    }
    fn is_degenerate_key(&self) -> bool {
        self.length_squared() <= f32::EPSILON
    }
}

/// Why a track was refused. Key and value indices are the track's own.
#[derive(Debug, Error, PartialEq)]
pub enum TrackError {
    #[error("the track has no keys")]
    NoKeys,
    #[error("{times} key times need {expected} values for {interpolation:?}, found {values}")]
    ValueCountMismatch {
        times: usize,
        values: usize,
        expected: usize,
        interpolation: Interpolation,
    },
    #[error("key time {key} is {time_secs}, which is not finite and non-negative")]
    BadKeyTime { key: usize, time_secs: f32 },
    #[error("key time {key} ({time_secs} s) is not after the previous key ({previous_secs} s)")]
    NonIncreasingKeyTimes {
        key: usize,
        time_secs: f32,
        previous_secs: f32,
    },
    #[error("value {value} is not finite")]
    NonFiniteValue { value: usize },
    #[error("value {value} is a zero quaternion")]
    ZeroQuaternion { value: usize },
}

/// Why a clip was refused.
#[derive(Debug, Error, PartialEq)]
pub enum ClipError {
    #[error("track {track} targets joint {joint}, but the skeleton has {joint_count}")]
    JointOutOfRange {
        track: usize,
        joint: usize,
        joint_count: usize,
    },
    #[error("track {track} targets joint {joint} {property:?}, which track {first} already drives")]
    DuplicateTarget {
        track: usize,
        first: usize,
        joint: usize,
        property: Property,
    },
    #[error(
        "event {event} ({name:?}) is at {time_secs} s, outside the clip's 0..={duration_secs} s"
    )]
    EventOutOfRange {
        event: usize,
        name: String,
        time_secs: f32,
        duration_secs: f32,
    },
}

impl<T: TrackValue> Track<T> {
    /// Builds a track; `values` holds one value per key, or (in-tangent, value, out-tangent) per
    /// key for `CubicSpline`.
    pub fn new(
        times: Vec<f32>,
        values: Vec<T>,
        interpolation: Interpolation,
    ) -> Result<Self, TrackError> {
        if times.is_empty() {
            return Err(TrackError::NoKeys);
        }
        let expected = times.len().saturating_mul(interpolation.values_per_key());
        if values.len() != expected {
            return Err(TrackError::ValueCountMismatch {
                times: times.len(),
                values: values.len(),
                expected,
                interpolation,
            });
        }
        for (key, &time_secs) in times.iter().enumerate() {
            if !time_secs.is_finite() || time_secs < 0.0 {
                return Err(TrackError::BadKeyTime { key, time_secs });
            }
            if key > 0 && time_secs <= times[key - 1] {
                return Err(TrackError::NonIncreasingKeyTimes {
                    key,
                    time_secs,
                    previous_secs: times[key - 1],
                });
            }
        }
        if let Some(value) = values.iter().position(|v| !v.is_finite_value()) {
            return Err(TrackError::NonFiniteValue { value });
        }
        let per_key = interpolation.values_per_key();
        let key_value_offset = if per_key == 3 { 1 } else { 0 };
        if let Some(value) = (0..times.len())
            .map(|key| key * per_key + key_value_offset)
            .find(|&i| values[i].is_degenerate_key())
        {
            return Err(TrackError::ZeroQuaternion { value });
        }
        Ok(Self {
            times,
            values,
            interpolation,
        })
    }

    pub fn times(&self) -> &[f32] {
        &self.times
    }

    /// Raw values: one per key, or three per key (in-tangent, value, out-tangent) for cubic splines.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    pub fn interpolation(&self) -> Interpolation {
        self.interpolation
    }

    /// Time of the last key.
    pub fn end_secs(&self) -> f32 {
        self.times.last().copied().unwrap_or(0.0)
    }

    /// The value at key `key` (not a tangent).
    pub fn key_value(&self, key: usize) -> T {
        match self.interpolation {
            Interpolation::CubicSpline => self.values[key * 3 + 1],
            Interpolation::Step | Interpolation::Linear => self.values[key],
        }
    }
}

/// The keys of one property of one joint.
#[derive(Clone, Debug)]
pub enum Channel {
    Translation(Track<Vec3>),
    Rotation(Track<Quat>),
    Scale(Track<Vec3>),
}

impl Channel {
    pub fn property(&self) -> Property {
        match self {
            Channel::Translation(_) => Property::Translation,
            Channel::Rotation(_) => Property::Rotation,
            Channel::Scale(_) => Property::Scale,
        }
    }

    pub fn times(&self) -> &[f32] {
        match self {
            Channel::Translation(t) | Channel::Scale(t) => t.times(),
            Channel::Rotation(t) => t.times(),
        }
    }

    pub fn interpolation(&self) -> Interpolation {
        match self {
            Channel::Translation(t) | Channel::Scale(t) => t.interpolation(),
            Channel::Rotation(t) => t.interpolation(),
        }
    }
}

/// A channel bound to a skeleton joint.
#[derive(Clone, Debug)]
pub struct JointTrack {
    pub joint: usize,
    pub channel: Channel,
}

/// A named instant in a clip, fired by playback when the playhead reaches it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipEvent {
    pub name: String,
    pub time_secs: f32,
}

/// An animation clip for one skeleton. Joints without a track keep their rest transform.
#[derive(Clone, Debug)]
pub struct Clip {
    name: String,
    joint_count: usize,
    duration_secs: f32,
    tracks: Vec<JointTrack>,
    /// Identifies these keys to sampling contexts (`ClipCursor`); clones share it.
    id: u64,
    /// The keys laid out for sampling.
    runtime: super::runtime::RuntimeClip,
    events: Vec<ClipEvent>,
}

impl Clip {
    /// Builds a clip whose duration is its latest key time. Refuses tracks aimed at joints the
    /// skeleton (of `joint_count` joints) lacks, two tracks on one joint property, and events
    /// outside `0..=duration`. Events are kept sorted by time.
    pub fn new(
        name: impl Into<String>,
        joint_count: usize,
        tracks: Vec<JointTrack>,
        mut events: Vec<ClipEvent>,
    ) -> Result<Self, ClipError> {
        let mut duration_secs: f32 = 0.0;
        for (track, jt) in tracks.iter().enumerate() {
            if jt.joint >= joint_count {
                return Err(ClipError::JointOutOfRange {
                    track,
                    joint: jt.joint,
                    joint_count,
                });
            }
            if let Some(first) = tracks[..track]
                .iter()
                .position(|o| o.joint == jt.joint && o.channel.property() == jt.channel.property())
            {
                return Err(ClipError::DuplicateTarget {
                    track,
                    first,
                    joint: jt.joint,
                    property: jt.channel.property(),
                });
            }
            duration_secs = duration_secs.max(jt.channel.times().last().copied().unwrap_or(0.0));
        }
        for (event, e) in events.iter().enumerate() {
            if !(e.time_secs >= 0.0 && e.time_secs <= duration_secs) {
                return Err(ClipError::EventOutOfRange {
                    event,
                    name: e.name.clone(),
                    time_secs: e.time_secs,
                    duration_secs,
                });
            }
        }
        events.sort_by(|a, b| a.time_secs.total_cmp(&b.time_secs));
        Ok(Self {
            name: name.into(),
            joint_count,
            duration_secs,
            runtime: super::runtime::RuntimeClip::new(&tracks, joint_count),
            tracks,
            id: next_key_source_id(),
            events,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Joint count of the skeleton the clip was built for.
    pub fn joint_count(&self) -> usize {
        self.joint_count
    }

    /// The latest key time of any track; 0 for a clip with no keys after 0.
    pub fn duration_secs(&self) -> f32 {
        self.duration_secs
    }

    pub fn tracks(&self) -> &[JointTrack] {
        &self.tracks
    }

    /// A number no other clip built in this process has: what a sampling cursor keys on.
    pub fn id(&self) -> u64 {
        self.id
    }

    pub(crate) fn runtime(&self) -> &super::runtime::RuntimeClip {
        &self.runtime
    }

    /// Events sorted by time.
    pub fn events(&self) -> &[ClipEvent] {
        &self.events
    }
}

/// A fresh identity for a set of keys (a clip or a compressed clip); clones share it, as they
/// share their keys.
pub(crate) fn next_key_source_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
