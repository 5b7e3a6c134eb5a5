//! Sampling a whole clip, raw or compressed, through a per-clip sampling context (`ClipCursor`,
//! ozz-animation's `SamplingJob::Context`), owned by whoever plays the clip.
//!
//! - A raw `Clip` is sampled from its runtime layout (runtime.rs): the context keeps one interval
//!   hint per group of tracks sharing key times.
//! - A `CompressedClip` reduces each track to its own keys, so the context keeps, per track, the
//!   interval the last sample fell in with its two keys already decoded. Forward playback crosses
//!   a key only every few frames: most samples are a range check and an interpolation, the
//!   rotations slerped four at a time in SIMD lanes; a track that leaves its interval decodes the
//!   next one (ozz's "decompress only the keys that changed").
//!
//! Both follow glTF: LINEAR rotations are slerped (Eberly's polynomial with as many terms as the
//! keys' angle needs), STEP keys hold, CUBICSPLINE tracks go through the Hermite spline
//! (`sample_track`), and every track clamps to its end keys outside them.

use std::sync::atomic::{AtomicU64, Ordering};

use glam::{Quat, Vec3, Vec4};

use super::pose::check_len;
use super::sample::{eberly, sample_track, slerp_terms};
use super::{Channel, Clip, CompressedClip, LocalPose, PoseError, Property, Skeleton, Transform};

/// A fresh identity for a set of keys (a clip or a compressed clip); clones share it, as they
/// share their keys.
pub(crate) fn next_key_source_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The keys bracketing a time: over `[lo, hi)` a track's value goes from `v0` (at `start`) to
/// `v1` at rate `inv_dt`. Outside its keys a track holds an end key: `v0 == v1`, `inv_dt == 0`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span<T> {
    pub lo: f32,
    pub hi: f32,
    pub start: f32,
    pub inv_dt: f32,
    pub v0: T,
    pub v1: T,
}

impl<T: Copy> Span<T> {
    /// The span holding `t` among `len` key times (`time(i)`, strictly increasing), using and
    /// updating `hint`: an end key outside them (NaN holds the first), else the interval's keys,
    /// `key(i)` and `key(i + 1)`, or `key(i)` twice for STEP.
    pub fn locate(
        len: usize,
        time: impl Fn(usize) -> f32,
        key: impl Fn(usize) -> T,
        step: bool,
        t: f32,
        hint: &mut u32,
    ) -> Self {
        let hold = |i: usize, lo: f32, hi: f32| Span {
            lo,
            hi,
            start: 0.0,
            inv_dt: 0.0,
            v0: key(i),
            v1: key(i),
        };
        let last = len - 1;
        let first_time = time(0);
        if t.is_nan() || t <= first_time {
            *hint = 0;
            // Up to and including the first key (at it, the interval after it gives the same).
            return hold(0, f32::NEG_INFINITY, first_time.next_up());
        }
        let last_time = time(last);
        if t >= last_time {
            *hint = last as u32;
            return hold(last, last_time, f32::INFINITY);
        }
        // Largest i with time(i) <= t, given time(0) < t < time(last); the hint and the interval
        // after it first (forward playback), else a binary search.
        let h = *hint as usize;
        let i = if h < last && time(h) <= t && t < time(h + 1) {
            h
        } else if h + 1 < last && time(h + 1) <= t && t < time(h + 2) {
            h + 1
        } else {
            let (mut lo, mut hi) = (0, last);
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if time(mid) <= t { lo = mid } else { hi = mid }
            }
            lo
        };
        *hint = i as u32;
        let (t0, t1) = (time(i), time(i + 1));
        Span {
            lo: t0,
            hi: t1,
            start: t0,
            inv_dt: 1.0 / (t1 - t0),
            v0: key(i),
            v1: if step { key(i) } else { key(i + 1) },
        }
    }
}

/// A rotation track's current interval, ready to slerp: `q1` is already in `q0`'s hemisphere and
/// `xm1` is their dot product minus one.
#[derive(Clone, Copy, Debug)]
struct RotationSlot {
    lo: f32,
    hi: f32,
    start: f32,
    inv_dt: f32,
    xm1: f32,
    terms: u32,
    q0: Vec4,
    q1: Vec4,
    joint: u32,
    track: u32,
    hint: u32,
}

/// A translation or scale track's current interval: `v0 + delta * u`.
#[derive(Clone, Copy, Debug)]
struct VectorSlot {
    lo: f32,
    hi: f32,
    start: f32,
    inv_dt: f32,
    v0: Vec3,
    delta: Vec3,
    joint: u32,
    track: u32,
    hint: u32,
}

/// An interval nothing is inside: the first sample refreshes every slot.
const STALE: (f32, f32) = (f32::INFINITY, f32::NEG_INFINITY);

impl RotationSlot {
    fn new(joint: usize, track: usize) -> Self {
        Self {
            lo: STALE.0,
            hi: STALE.1,
            start: 0.0,
            inv_dt: 0.0,
            xm1: 0.0,
            terms: 1,
            q0: Vec4::W,
            q1: Vec4::W,
            joint: joint as u32,
            track: track as u32,
            hint: 0,
        }
    }

    #[inline]
    fn refresh(&mut self, keys: &CompressedClip, t: f32) {
        let s = keys.rotation_span(self.track as usize, t, &mut self.hint);
        let (q0, q1) = (Vec4::from(s.v0), Vec4::from(s.v1));
        let d = q0.dot(q1);
        let (q1, d) = if d < 0.0 { (-q1, -d) } else { (q1, d) };
        self.xm1 = (d - 1.0).min(0.0);
        self.terms = slerp_terms(self.xm1) as u32;
        (self.lo, self.hi, self.start, self.inv_dt) = (s.lo, s.hi, s.start, s.inv_dt);
        (self.q0, self.q1) = (q0, q1);
    }
}

impl VectorSlot {
    fn new(joint: usize, track: usize) -> Self {
        Self {
            lo: STALE.0,
            hi: STALE.1,
            start: 0.0,
            inv_dt: 0.0,
            v0: Vec3::ZERO,
            delta: Vec3::ZERO,
            joint: joint as u32,
            track: track as u32,
            hint: 0,
        }
    }

    #[inline]
    fn value(&mut self, keys: &CompressedClip, t: f32) -> Vec3 {
        if !(t >= self.lo && t < self.hi) {
            let s = keys.vector_span(self.track as usize, t, &mut self.hint);
            (self.lo, self.hi, self.start, self.inv_dt) = (s.lo, s.hi, s.start, s.inv_dt);
            (self.v0, self.delta) = (s.v0, s.v1 - s.v0);
        }
        self.v0 + self.delta * unit_ratio(t, self.start, self.inv_dt)
    }
}

/// `(t - start) * inv_dt` in [0, 1]; 0 for a held key (`inv_dt == 0`) or a NaN time.
#[inline(always)]
#[allow(
    clippy::manual_clamp,
    reason = "max then min sends NaN to 0; clamp keeps it"
)]
fn unit_ratio(t: f32, start: f32, inv_dt: f32) -> f32 {
    ((t - start) * inv_dt).max(0.0).min(1.0)
}

/// The sampling context of one clip, owned by whoever plays it (one per clip per character).
/// Sized once; sampling allocates nothing.
#[derive(Clone, Debug)]
pub struct ClipCursor {
    /// The keys this context was made for (`Clip` or `CompressedClip` id).
    source: u64,
    /// Raw clips: one interval hint per key group, then per cubic track.
    hints: Vec<u32>,
    /// Compressed clips: each track's decoded interval.
    rotations: Vec<RotationSlot>,
    translations: Vec<VectorSlot>,
    scales: Vec<VectorSlot>,
    /// Whether the clip drives every property of every joint (no rest pose to lay down first).
    covers_all: bool,
}

impl ClipCursor {
    /// A context for a raw clip.
    pub fn new(clip: &Clip) -> Self {
        Self {
            source: clip.id(),
            hints: vec![0; clip.runtime().hint_count()],
            rotations: Vec::new(),
            translations: Vec::new(),
            scales: Vec::new(),
            covers_all: clip.runtime().covers_all(),
        }
    }

    /// A context for a compressed clip.
    pub fn for_compressed(clip: &CompressedClip) -> Self {
        let mut cursor = Self {
            source: clip.source_id(),
            hints: Vec::new(),
            rotations: Vec::new(),
            translations: Vec::new(),
            scales: Vec::new(),
            covers_all: false,
        };
        let mut driven = vec![[false; 3]; clip.joint_count()];
        for k in 0..clip.track_count() {
            let (joint, property) = clip.track(k);
            if let Some(d) = driven.get_mut(joint) {
                d[property as usize] = true;
            }
            match property {
                Property::Rotation => cursor.rotations.push(RotationSlot::new(joint, k)),
                Property::Translation => cursor.translations.push(VectorSlot::new(joint, k)),
                Property::Scale => cursor.scales.push(VectorSlot::new(joint, k)),
            }
        }
        cursor.covers_all = driven.iter().all(|d| d.iter().all(|&x| x));
        cursor
    }
}

/// Samples `clip` at `time_secs` into `out`: the skeleton's rest pose, overwritten by every track.
/// `time_secs` is clip time (already looped or clamped by playback). `cursor` is the clip's
/// sampling context (`ClipCursor::new`); one made for other keys is made afresh for these.
pub fn sample_clip(
    skeleton: &Skeleton,
    clip: &Clip,
    time_secs: f32,
    cursor: &mut ClipCursor,
    out: &mut LocalPose,
) -> Result<(), PoseError> {
    check_len("sampled pose", skeleton.joint_count(), out.len())?;
    check_len("clip joints", skeleton.joint_count(), clip.joint_count())?;
    if cursor.source != clip.id() {
        // Another clip's context (the viewer switched between raw and compressed clips): made
        // afresh, the only allocation sampling can make.
        *cursor = ClipCursor::new(clip);
    }
    if !cursor.covers_all {
        out.as_mut_slice().copy_from_slice(skeleton.rest());
    }
    sample_clip_over(skeleton, clip, time_secs, cursor, out)
}

/// `sample_clip` over a pose already at rest wherever `clip` drives nothing (the rest pose, or
/// the clip's own previous sample): only the clip's tracks are written.
pub fn sample_clip_over(
    skeleton: &Skeleton,
    clip: &Clip,
    time_secs: f32,
    cursor: &mut ClipCursor,
    out: &mut LocalPose,
) -> Result<(), PoseError> {
    check_len("sampled pose", skeleton.joint_count(), out.len())?;
    check_len("clip joints", skeleton.joint_count(), clip.joint_count())?;
    if cursor.source != clip.id() {
        *cursor = ClipCursor::new(clip);
    }
    let pose = out.as_mut_slice();
    // Clip::new checked every joint against the clip's joint count, equal to the pose's.
    let runtime = clip.runtime();
    runtime.sample_groups(time_secs, &mut cursor.hints, pose);
    for (k, hint) in runtime.cubic_tracks(&mut cursor.hints) {
        let jt = &clip.tracks()[k];
        let target = &mut pose[jt.joint];
        match &jt.channel {
            Channel::Translation(t) => target.translation = sample_track(t, time_secs, hint),
            Channel::Rotation(t) => target.rotation = sample_track(t, time_secs, hint),
            Channel::Scale(t) => target.scale = sample_track(t, time_secs, hint),
        }
    }
    Ok(())
}

/// Samples a compressed clip at `time_secs` into `out`, as `sample_clip` samples a raw one.
pub fn sample_compressed(
    skeleton: &Skeleton,
    clip: &CompressedClip,
    time_secs: f32,
    cursor: &mut ClipCursor,
    out: &mut LocalPose,
) -> Result<(), PoseError> {
    check_len("sampled pose", skeleton.joint_count(), out.len())?;
    check_len("clip joints", skeleton.joint_count(), clip.joint_count())?;
    if cursor.source != clip.source_id() {
        *cursor = ClipCursor::for_compressed(clip);
    }
    let t = time_secs;
    let pose = out.as_mut_slice();
    if !cursor.covers_all {
        pose.copy_from_slice(skeleton.rest());
    }
    // CompressedClip's joints come from a validated clip of the same joint count.
    for slot in &mut cursor.translations {
        pose[slot.joint as usize].translation = slot.value(clip, t);
    }
    for slot in &mut cursor.scales {
        pose[slot.joint as usize].scale = slot.value(clip, t);
    }
    for block in cursor.rotations.chunks_mut(4) {
        slerp_block(clip, t, block, pose);
    }
    Ok(())
}

/// Slerps up to four rotation tracks at once: one lane per track through Eberly's polynomial.
#[inline]
fn slerp_block(keys: &CompressedClip, t: f32, block: &mut [RotationSlot], pose: &mut [Transform]) {
    let mut u = [0.0f32; 4];
    let mut xm1 = [0.0f32; 4];
    let mut terms = 1;
    for (lane, slot) in block.iter_mut().enumerate() {
        if !(t >= slot.lo && t < slot.hi) {
            slot.refresh(keys, t);
        }
        u[lane] = unit_ratio(t, slot.start, slot.inv_dt);
        xm1[lane] = slot.xm1;
        terms = terms.max(slot.terms);
    }
    let (u, xm1) = (Vec4::from(u), Vec4::from(xm1));
    let wa = eberly(Vec4::ONE - u, xm1, terms as usize);
    let wb = eberly(u, xm1, terms as usize);
    let (wa, wb) = (wa.to_array(), wb.to_array());
    for (lane, slot) in block.iter().enumerate() {
        let q = slot.q0 * wa[lane] + slot.q1 * wb[lane];
        pose[slot.joint as usize].rotation = Quat::from_vec4(q.normalize());
    }
}
