//! Measuring a compressed clip: its raw size, and the largest virtual-vertex error between the
//! raw and compressed clips sampled, composed and compared (step 3 of `compress.rs`).

use glam::Vec3;

use super::{
    Clip, ClipCursor, CompressedClip, LocalPose, ModelPose, Property, Skeleton, local_to_model,
    sample_clip,
};

/// Raw bytes of a clip: f32 key times and values (three values a key for cubic splines).
pub fn raw_bytes(clip: &Clip) -> usize {
    clip.tracks()
        .iter()
        .map(|jt| {
            let value = match jt.channel.property() {
                Property::Rotation => 16,
                Property::Translation | Property::Scale => 12,
            };
            let keys = jt.channel.times().len();
            keys * 4 + keys * jt.channel.interpolation().values_per_key() * value
        })
        .sum()
}

/// Times the error is measured at: 120 Hz over the clip and every source key time. The even
/// steps are bounded by the clip's keys (16 a key, plus two seconds' worth), not its seconds:
/// a clip whose last key sits at 1e32 s is measured at as many times as its keys call for.
fn measure_times(clip: &Clip) -> Vec<f32> {
    let duration = clip.duration_secs();
    let keys: usize = clip
        .tracks()
        .iter()
        .map(|jt| jt.channel.times().len())
        .sum();
    let most = (16 * keys + 240).min(100_000);
    let steps = ((duration * 120.0).ceil() as usize).clamp(1, most);
    let mut times: Vec<f32> = (0..=steps)
        .map(|k| duration * k as f32 / steps as f32)
        .collect();
    for jt in clip.tracks() {
        times.extend_from_slice(jt.channel.times());
    }
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

/// The largest distance, over the clip, between where the raw and the compressed clip put each
/// joint's origin and its virtual vertices (`distances[joint]` along each of the joint's axes),
/// in model space.
pub fn measure_error(
    skeleton: &Skeleton,
    clip: &Clip,
    compressed: &CompressedClip,
    distances: &[f32],
) -> f32 {
    let mut cursor = ClipCursor::for_compressed(compressed);
    measure_against(skeleton, clip, distances, &mut |t, out| {
        super::sample_compressed(skeleton, compressed, t, &mut cursor, out)
    })
}

/// `measure_error` between two clips: `clip` and `other` (a reduced copy of it).
pub fn measure_clip_error(
    skeleton: &Skeleton,
    clip: &Clip,
    other: &Clip,
    distances: &[f32],
) -> f32 {
    let mut cursor = ClipCursor::new(other);
    measure_against(skeleton, clip, distances, &mut |t, out| {
        sample_clip(skeleton, other, t, &mut cursor, out)
    })
}

/// The largest virtual-vertex distance between `clip` and what `other` samples at each of
/// `clip`'s measuring times.
fn measure_against(
    skeleton: &Skeleton,
    clip: &Clip,
    distances: &[f32],
    other: &mut dyn FnMut(f32, &mut LocalPose) -> Result<(), super::PoseError>,
) -> f32 {
    let mut raw_cursor = ClipCursor::new(clip);
    let (mut raw, mut packed) = (LocalPose::rest(skeleton), LocalPose::rest(skeleton));
    let (mut raw_model, mut packed_model) = (ModelPose::new(skeleton), ModelPose::new(skeleton));
    let mut worst: f32 = 0.0;
    for t in measure_times(clip) {
        let sampled = sample_clip(skeleton, clip, t, &mut raw_cursor, &mut raw)
            .and_then(|_| other(t, &mut packed))
            .and_then(|_| local_to_model(skeleton, &raw, &mut raw_model))
            .and_then(|_| local_to_model(skeleton, &packed, &mut packed_model));
        if sampled.is_err() {
            return f32::INFINITY;
        }
        for (j, (a, b)) in raw_model
            .as_slice()
            .iter()
            .zip(packed_model.as_slice())
            .enumerate()
        {
            let d = distances.get(j).copied().unwrap_or(0.0);
            for p in [Vec3::ZERO, Vec3::X * d, Vec3::Y * d, Vec3::Z * d] {
                worst = worst.max(a.transform_point3(p).distance(b.transform_point3(p)));
            }
        }
    }
    worst
}
