//! Sampling a whole clip, raw or compressed, through a per-clip sampling context (`ClipCursor`,
//! ozz-animation's `SamplingJob::Context`), owned by whoever plays the clip.
//!
//! Both kinds of clip store tracks that share key times as groups, key-major (runtime.rs,
//! compress.rs), so a sample locates its time once per group and interpolates two rows.
//! - A raw `Clip`'s rows are its f32 keys: the context keeps one interval hint per group.
//! - A `CompressedClip`'s rows are quantized: the context keeps each group's two rows decoded
//!   and decodes only what a sample lacks (one row when playback moves on by a key, ozz's
//!   "decompress only the keys that changed").
//!
//! Both follow glTF: LINEAR rotations are slerped (Eberly's polynomial with as many terms as the
//! keys' angle needs), STEP keys hold, CUBICSPLINE tracks go through the Hermite spline
//! (`sample_track`; compressed clips resample them as LINEAR keys), and every track clamps to its
//! end keys outside them.

use super::compressed::GroupCursor;
use super::pose::check_len;
use super::sample::sample_track;
use super::{Channel, Clip, CompressedClip, LocalPose, PoseError, Skeleton, Transform};

/// The sampling context of one clip, owned by whoever plays it (one per clip per character).
/// Sized once; sampling allocates nothing.
#[derive(Clone, Debug)]
pub struct ClipCursor {
    /// The keys this context was made for (`Clip` or `CompressedClip` id).
    source: u64,
    /// Raw clips: one interval hint per key group, then per cubic track.
    hints: Vec<u32>,
    /// Compressed clips: each group's decoded rows.
    groups: Vec<GroupCursor>,
    /// Whether the clip drives every property of every joint (no rest pose to lay down first).
    covers_all: bool,
}

impl ClipCursor {
    /// A context for a raw clip.
    pub fn new(clip: &Clip) -> Self {
        Self {
            source: clip.id(),
            hints: vec![0; clip.runtime().hint_count()],
            groups: Vec::new(),
            covers_all: clip.runtime().covers_all(),
        }
    }

    /// A context for a compressed clip.
    pub fn for_compressed(clip: &CompressedClip) -> Self {
        Self {
            source: clip.source_id(),
            hints: Vec::new(),
            groups: (0..clip.group_count())
                .map(|g| GroupCursor::new(clip, g))
                .collect(),
            covers_all: clip.covers_all(),
        }
    }

    /// Key rows this context has decoded, over all groups (none for a raw clip, whose keys are
    /// floats already). Playback that moves on by one key of a group, forward or backward,
    /// decodes one of its rows; a jump decodes two.
    pub fn rows_decoded(&self) -> u64 {
        self.groups.iter().map(|g| g.decoded).sum()
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
    let keys = (clip.joint_count(), clip.id());
    prepare(
        skeleton,
        keys,
        out,
        cursor,
        (|| ClipCursor::new(clip), false),
    )?;
    sample_raw(clip, time_secs, cursor, out.as_mut_slice(), true);
    Ok(())
}

/// Checks the buffers' sizes against the clip's joint count, makes `cursor` afresh if it was
/// made for other keys than `source`'s (the viewer switched between raw and compressed clips:
/// the only allocation sampling can make), and lays down the rest pose unless the clip drives
/// every property of every joint, or unless `over` (`out` is at rest wherever the clip drives
/// nothing) and the cursor was the clip's. Returns whether the cursor was made afresh.
fn prepare(
    skeleton: &Skeleton,
    (clip_joints, source): (usize, u64),
    out: &mut LocalPose,
    cursor: &mut ClipCursor,
    (make, over): (impl FnOnce() -> ClipCursor, bool),
) -> Result<bool, PoseError> {
    check_len("sampled pose", skeleton.joint_count(), out.len())?;
    check_len("clip joints", skeleton.joint_count(), clip_joints)?;
    let fresh = cursor.source != source;
    if fresh {
        remake(cursor, make);
    }
    if !cursor.covers_all && (fresh || !over) {
        out.as_mut_slice().copy_from_slice(skeleton.rest());
    }
    Ok(fresh)
}

/// `*cursor = make()`, out of the way of the frame's path (it happens when the keys change).
#[cold]
#[inline(never)]
fn remake(cursor: &mut ClipCursor, make: impl FnOnce() -> ClipCursor) {
    *cursor = make();
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
    sample_again(skeleton, clip, (time_secs, cursor), out, true)
}

/// `sample_clip` into a pose that holds `clip`'s last sample (by any of these functions) and
/// nothing written since: the rest pose where the clip drives nothing and the clip's constant
/// tracks (every key one value) are already there, so only the tracks that move are sampled.
pub fn resample_clip(
    skeleton: &Skeleton,
    clip: &Clip,
    time_secs: f32,
    cursor: &mut ClipCursor,
    out: &mut LocalPose,
) -> Result<(), PoseError> {
    sample_again(skeleton, clip, (time_secs, cursor), out, false)
}

/// `sample_clip` without the rest pose, and without the constant tracks unless `constants`; in
/// full where `cursor` was made for other keys (made afresh, its `covers_all` may not hold for
/// `out`).
fn sample_again(
    skeleton: &Skeleton,
    clip: &Clip,
    (time_secs, cursor): (f32, &mut ClipCursor),
    out: &mut LocalPose,
    constants: bool,
) -> Result<(), PoseError> {
    let keys = (clip.joint_count(), clip.id());
    let fresh = prepare(
        skeleton,
        keys,
        out,
        cursor,
        (|| ClipCursor::new(clip), true),
    )?;
    sample_raw(
        clip,
        time_secs,
        cursor,
        out.as_mut_slice(),
        constants || fresh,
    );
    Ok(())
}

/// The tracks of a raw clip into `pose` (sized and checked by the caller): all of them, or
/// without the constant ones.
fn sample_raw(
    clip: &Clip,
    time_secs: f32,
    cursor: &mut ClipCursor,
    pose: &mut [Transform],
    constants: bool,
) {
    // Clip::new checked every joint against the clip's joint count, equal to the pose's.
    let runtime = clip.runtime();
    if constants {
        runtime.write_constants(pose);
    }
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
}

/// Samples a compressed clip at `time_secs` into `out`, as `sample_clip` samples a raw one.
#[inline]
pub fn sample_compressed(
    skeleton: &Skeleton,
    clip: &CompressedClip,
    time_secs: f32,
    cursor: &mut ClipCursor,
    out: &mut LocalPose,
) -> Result<(), PoseError> {
    sample_compressed_from(skeleton, clip, (time_secs, cursor), out, false)
}

/// `sample_compressed` into a pose already at rest wherever `clip` drives nothing (the rest
/// pose, or the clip's own previous sample): the rest pose is not laid down again. In full where
/// `cursor` was made for other keys.
#[inline]
pub fn sample_compressed_over(
    skeleton: &Skeleton,
    clip: &CompressedClip,
    time_secs: f32,
    cursor: &mut ClipCursor,
    out: &mut LocalPose,
) -> Result<(), PoseError> {
    sample_compressed_from(skeleton, clip, (time_secs, cursor), out, true)
}

/// `sample_compressed`, or `sample_compressed_over` when `over`: every group of `clip` sampled
/// into `out` (`prepare` lays the rest pose down where needed).
#[inline]
fn sample_compressed_from(
    skeleton: &Skeleton,
    clip: &CompressedClip,
    (time_secs, cursor): (f32, &mut ClipCursor),
    out: &mut LocalPose,
    over: bool,
) -> Result<(), PoseError> {
    let keys = (clip.joint_count(), clip.source_id());
    let make = || ClipCursor::for_compressed(clip);
    prepare(skeleton, keys, out, cursor, (make, over))?;
    let pose = out.as_mut_slice();
    // CompressedClip's joints come from a validated clip of the same joint count.
    for (g, group) in cursor.groups.iter_mut().enumerate() {
        clip.sample_group(g, time_secs, group, pose);
    }
    Ok(())
}
