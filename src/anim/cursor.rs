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

use std::sync::atomic::{AtomicU64, Ordering};

use super::compress::GroupCursor;
use super::pose::check_len;
use super::sample::sample_track;
use super::{Channel, Clip, CompressedClip, LocalPose, PoseError, Skeleton};

/// A fresh identity for a set of keys (a clip or a compressed clip); clones share it, as they
/// share their keys.
pub(crate) fn next_key_source_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

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
    let pose = out.as_mut_slice();
    if !cursor.covers_all {
        pose.copy_from_slice(skeleton.rest());
    }
    // CompressedClip's joints come from a validated clip of the same joint count.
    for (g, group) in cursor.groups.iter_mut().enumerate() {
        clip.sample_group(g, time_secs, group, pose);
    }
    Ok(())
}
