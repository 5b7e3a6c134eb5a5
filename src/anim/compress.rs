//! Compressed clips with a measured error bound (ozz-animation's and ACL's approach).
//!
//! A clip is compressed in three steps, each under a tolerance measured where it matters: the
//! position error of virtual vertices `distance` away from each joint, in the skeleton's model
//! space, through the whole hierarchy.
//!
//! 1. **Key reduction**: per track, a key is dropped when the track interpolated without it stays
//!    within the track's share of the tolerance at every source key (a greedy line fit). A joint's
//!    share comes from its reach: a rotation error of `a` radians moves the joint's farthest
//!    virtual vertex (`distance` past its farthest descendant in the rest pose) by up to `reach *
//!    a`. CUBICSPLINE tracks are first resampled as LINEAR keys (four per source interval).
//! 2. **Quantization**: translations and scales as 16-bit fractions of the track's range,
//!    rotations as the three smallest components in 16 bits each plus the index of the largest
//!    (8 bytes a key; the largest is rebuilt from unit length).
//! 3. **Measurement**: the raw and compressed clips are sampled at 120 Hz and at every source key,
//!    composed, and every joint's origin and virtual vertices compared. While the largest error
//!    exceeds the tolerance, the shares are halved and the clip compressed again (at most ten
//!    times); the report gives the error measured on the clip that is kept.
//!
//! Key times are 16-bit frame numbers when the clip is keyed on a frame grid (exporters' clips
//! are), else f32 seconds; a track whose lever arm would show 16-bit steps keeps float keys.
//!
//! A compressed clip is sampled by the same context as a raw one (`ClipCursor`,
//! `sample_compressed`): keys are decoded only when a track crosses into a new interval.

use glam::{Affine3A, Quat, Vec3, Vec4};

use super::cursor::{Span, next_key_source_id};
use super::sample::sample_track;
use super::{
    Channel, Clip, ClipCursor, Interpolation, LocalPose, ModelPose, Property, Skeleton, Track,
    local_to_model, sample_clip, slerp_shortest,
};

/// What a compression must hold to.
#[derive(Clone, Debug, PartialEq)]
pub struct CompressionSettings {
    /// The largest position error allowed at a virtual vertex, in the file's units.
    pub tolerance: f32,
    /// Per skeleton joint: how far its virtual vertices sit from it, in the file's units.
    pub distances: Vec<f32>,
}

impl CompressionSettings {
    /// The same distance for every one of `joints` joints.
    pub fn uniform(tolerance: f32, distance: f32, joints: usize) -> Self {
        Self {
            tolerance,
            distances: vec![distance; joints],
        }
    }
}

/// What a compression achieved, for one clip.
#[derive(Clone, Debug, PartialEq)]
pub struct CompressionReport {
    pub clip: String,
    pub duration_secs: f32,
    pub joints: usize,
    /// Keys (T, R and S tracks together; cubic splines count once per key) before and after.
    pub raw_keys: usize,
    pub kept_keys: usize,
    /// f32 key times and values, cubic-spline tangents included.
    pub raw_bytes: usize,
    /// Quantized keys and times plus each track's header.
    pub compressed_bytes: usize,
    /// The largest virtual-vertex error measured over the clip, in the file's units.
    pub max_error: f32,
    pub settings: CompressionSettings,
}

impl CompressionReport {
    pub fn ratio(&self) -> f32 {
        self.raw_bytes as f32 / self.compressed_bytes.max(1) as f32
    }
}

/// The kept keys of one track: quantized to 16 bits where that holds the error budget, else full
/// floats (a track whose lever arm is long enough for 16 bits to show).
#[derive(Clone, Debug)]
enum Keys {
    /// `min + extent * q / 65535` per component.
    Vector16 {
        min: Vec3,
        extent: Vec3,
        keys: Vec<[u16; 3]>,
    },
    Vector32(Vec<Vec3>),
    /// The three smallest components and the index of the largest.
    Rotation16(Vec<[u16; 4]>),
    Rotation32(Vec<Quat>),
}

/// Key times: frame numbers on the clip's frame grid (`CompressedClip::frame_secs`), or seconds
/// where the clip has no grid.
#[derive(Clone, Debug)]
enum Times {
    Frames(Vec<u16>),
    Seconds(Vec<f32>),
}

impl Times {
    fn len(&self) -> usize {
        match self {
            Times::Frames(f) => f.len(),
            Times::Seconds(s) => s.len(),
        }
    }
}

#[derive(Clone, Debug)]
struct CompressedTrack {
    joint: u16,
    property: Property,
    step: bool,
    times: Times,
    keys: Keys,
}

/// Bytes of a track's header: joint (2), property, interpolation and precision (1), key count
/// (2), rounded to 8; 16-bit vector tracks add their range (24).
const TRACK_HEADER_BYTES: usize = 8;
const RANGE_BYTES: usize = 24;

impl CompressedTrack {
    fn bytes(&self) -> usize {
        let keys = match &self.keys {
            Keys::Vector16 { keys, .. } => RANGE_BYTES + keys.len() * 6,
            Keys::Vector32(keys) => keys.len() * 12,
            Keys::Rotation16(keys) => keys.len() * 8,
            Keys::Rotation32(keys) => keys.len() * 16,
        };
        let times = match &self.times {
            Times::Frames(f) => f.len() * 2,
            Times::Seconds(s) => s.len() * 4,
        };
        TRACK_HEADER_BYTES + times + keys
    }

    fn time(&self, i: usize, frame_secs: f32) -> f32 {
        match &self.times {
            Times::Frames(f) => f32::from(f[i]) * frame_secs,
            Times::Seconds(s) => s[i],
        }
    }
}

/// A clip stored as quantized, reduced keys; sampled with `sample_compressed`.
#[derive(Clone, Debug)]
pub struct CompressedClip {
    name: String,
    joint_count: usize,
    duration_secs: f32,
    /// Seconds per frame of the grid every key time lies on (0 without one).
    frame_secs: f32,
    tracks: Vec<CompressedTrack>,
    id: u64,
}

impl CompressedClip {
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn duration_secs(&self) -> f32 {
        self.duration_secs
    }

    pub fn joint_count(&self) -> usize {
        self.joint_count
    }

    /// Bytes of the keys, times and track headers.
    pub fn bytes(&self) -> usize {
        self.tracks.iter().map(CompressedTrack::bytes).sum()
    }

    /// Keys kept over all tracks.
    pub fn key_count(&self) -> usize {
        self.tracks.iter().map(|t| t.times.len()).sum()
    }

    /// Whether key times are stored as 16-bit frame numbers (the clip is keyed on a frame grid).
    pub fn on_frame_grid(&self) -> bool {
        self.frame_secs > 0.0
    }
}

const Q16: f32 = 65535.0;
const INV_SQRT2: f32 = std::f32::consts::FRAC_1_SQRT_2;

fn quantize_unit(x: f32) -> u16 {
    (x.clamp(0.0, 1.0) * Q16).round() as u16
}

fn quantize_rotation(q: Quat) -> [u16; 4] {
    let v = Vec4::from(q).normalize();
    let a = v.abs().to_array();
    let largest = (0..4).fold(0, |m, i| if a[i] > a[m] { i } else { m });
    // q and -q are one rotation: keep the largest component positive.
    let v = if v[largest] < 0.0 { -v } else { v };
    let mut out = [0u16; 4];
    for (k, i) in (0..4).filter(|&i| i != largest).enumerate() {
        out[k] = quantize_unit(v[i] / INV_SQRT2 * 0.5 + 0.5);
    }
    out[3] = largest as u16;
    out
}

fn dequantize_rotation(key: [u16; 4]) -> Quat {
    let largest = usize::from(key[3] & 3);
    let mut v = [0.0f32; 4];
    let mut sum = 0.0;
    let mut k = 0;
    for (i, c) in v.iter_mut().enumerate() {
        if i != largest {
            *c = (f32::from(key[k]) / Q16 * 2.0 - 1.0) * INV_SQRT2;
            sum += *c * *c;
            k += 1;
        }
    }
    v[largest] = (1.0 - sum).max(0.0).sqrt();
    Quat::from_vec4(Vec4::from(v).normalize())
}

fn dequantize_vector(min: Vec3, extent: Vec3, key: [u16; 3]) -> Vec3 {
    min + extent * Vec3::new(f32::from(key[0]), f32::from(key[1]), f32::from(key[2])) / Q16
}

impl CompressedClip {
    pub(crate) fn source_id(&self) -> u64 {
        self.id
    }

    pub(crate) fn track_count(&self) -> usize {
        self.tracks.len()
    }

    /// Joint and property of track `k`.
    pub(crate) fn track(&self, k: usize) -> (usize, Property) {
        let t = &self.tracks[k];
        (usize::from(t.joint), t.property)
    }

    /// The span of rotation track `k` holding `t` (its keys decoded).
    pub(crate) fn rotation_span(&self, k: usize, t: f32, hint: &mut u32) -> Span<Quat> {
        let track = &self.tracks[k];
        let time = |i| track.time(i, self.frame_secs);
        let n = track.times.len();
        match &track.keys {
            Keys::Rotation16(keys) => Span::locate(
                n,
                time,
                |i| dequantize_rotation(keys[i]),
                track.step,
                t,
                hint,
            ),
            Keys::Rotation32(keys) => Span::locate(n, time, |i| keys[i], track.step, t, hint),
            // A context asks each track for its own kind.
            Keys::Vector16 { .. } | Keys::Vector32(_) => {
                Span::locate(1, |_| 0.0, |_| Quat::IDENTITY, true, t, hint)
            }
        }
    }

    /// The span of translation or scale track `k` holding `t` (its keys decoded).
    pub(crate) fn vector_span(&self, k: usize, t: f32, hint: &mut u32) -> Span<Vec3> {
        let track = &self.tracks[k];
        let time = |i| track.time(i, self.frame_secs);
        let n = track.times.len();
        match &track.keys {
            Keys::Vector16 { min, extent, keys } => Span::locate(
                n,
                time,
                |i| dequantize_vector(*min, *extent, keys[i]),
                track.step,
                t,
                hint,
            ),
            Keys::Vector32(keys) => Span::locate(n, time, |i| keys[i], track.step, t, hint),
            Keys::Rotation16(_) | Keys::Rotation32(_) => {
                Span::locate(1, |_| 0.0, |_| Vec3::ZERO, true, t, hint)
            }
        }
    }
}

/// Per joint: how far its farthest virtual vertex is (its own, or a descendant's past that
/// descendant, in the rest pose, model space), and the largest scale of its parent's and its own model
/// transform (to bring a model-space error into the joint's local units).
struct Reach {
    reach: Vec<f32>,
    parent_scale: Vec<f32>,
    own_scale: Vec<f32>,
}

fn max_scale(m: &Affine3A) -> f32 {
    let m = m.matrix3;
    m.x_axis
        .length()
        .max(m.y_axis.length())
        .max(m.z_axis.length())
}

fn reach(skeleton: &Skeleton, distances: &[f32]) -> Reach {
    let mut model = ModelPose::new(skeleton);
    // A skeleton's rest pose always composes (its own lengths).
    let _ = local_to_model(skeleton, &LocalPose::rest(skeleton), &mut model);
    let m = model.as_slice();
    let n = skeleton.joint_count();
    let distance = |j: usize| distances.get(j).copied().unwrap_or(0.0);
    let mut reach: Vec<f32> = (0..n).map(distance).collect();
    // Each joint's virtual vertices count for every ancestor, at their distance from it.
    for j in 0..n {
        let mut child = j;
        while let Some(parent) = skeleton.parents()[child].map(usize::from) {
            let d = m[j].translation.distance(m[parent].translation) + distance(j);
            reach[parent] = reach[parent].max(d);
            child = parent;
        }
    }
    let parent_scale = (0..n)
        .map(|j| skeleton.parents()[j].map_or(1.0, |p| max_scale(&m[usize::from(p)])))
        .collect();
    let own_scale = m.iter().map(max_scale).collect();
    Reach {
        reach,
        parent_scale,
        own_scale,
    }
}

/// A track as LINEAR (or STEP) keys: times and values; cubic splines resampled four times per
/// interval.
fn linear_keys<T: super::Interpolate + super::TrackValue>(track: &Track<T>) -> (Vec<f32>, Vec<T>) {
    match track.interpolation() {
        Interpolation::Step | Interpolation::Linear => {
            (track.times().to_vec(), track.values().to_vec())
        }
        Interpolation::CubicSpline => {
            let times = track.times();
            let mut out_t = Vec::with_capacity(times.len() * 4);
            for w in times.windows(2) {
                for s in 0..4 {
                    out_t.push(w[0] + (w[1] - w[0]) * s as f32 / 4.0);
                }
            }
            out_t.push(*times.last().unwrap_or(&0.0));
            let mut hint = 0;
            let values = out_t
                .iter()
                .map(|&t| sample_track(track, t, &mut hint))
                .collect();
            (out_t, values)
        }
    }
}

/// Indices of the keys kept: the first and last always; a key in between only when the track
/// interpolated without it would stray more than `tolerance` (`error(value, interpolated)`) at
/// some source key. STEP tracks keep a key only where the held value changes.
fn reduce<T: Copy>(
    times: &[f32],
    values: &[T],
    step: bool,
    tolerance: f32,
    interpolate: impl Fn(T, T, f32) -> T,
    error: impl Fn(T, T) -> f32,
) -> Vec<usize> {
    let n = times.len();
    if n <= 2 {
        return (0..n).collect();
    }
    let mut kept = vec![0];
    // A track that holds still (within tolerance) keeps one key.
    if values.iter().all(|&v| error(v, values[0]) <= tolerance) {
        return kept;
    }
    if step {
        for i in 1..n {
            if error(values[i], values[*kept.last().unwrap_or(&0)]) > tolerance {
                kept.push(i);
            }
        }
        // The last key holds from its time on.
        if kept.last() != Some(&(n - 1))
            && error(values[n - 1], values[*kept.last().unwrap_or(&0)]) > 0.0
        {
            kept.push(n - 1);
        }
        return kept;
    }
    let mut a = 0;
    while a < n - 1 {
        // Extend the segment from key a as far as every key inside it stays within tolerance.
        let mut b = a + 1;
        while b + 1 < n {
            let candidate = b + 1;
            let (ta, tb) = (times[a], times[candidate]);
            let fits = (a + 1..candidate).all(|i| {
                let u = (times[i] - ta) / (tb - ta);
                error(values[i], interpolate(values[a], values[candidate], u)) <= tolerance
            });
            if !fits {
                break;
            }
            b = candidate;
        }
        kept.push(b);
        a = b;
    }
    kept
}

/// Position error a rotation difference causes at unit distance: the angle between the two,
/// from the chord between the quaternions (twice it is the angle, to first order; a dot product
/// in f32 cannot tell rotations under 5e-4 radians apart).
fn rotation_error(a: Quat, b: Quat) -> f32 {
    let (a, b) = (Vec4::from(a), Vec4::from(b));
    2.0 * (a - b).length().min((a + b).length())
}

/// The grid every key time of `clip` lies on, in seconds per frame: the clip's duration over a
/// whole number of frames near its shortest key interval, when every key time is a whole number
/// of frames (to float precision: exporters write `frame / rate`) below 65536 frames.
fn frame_grid(clip: &Clip) -> Option<f32> {
    let mut shortest = f32::INFINITY;
    for jt in clip.tracks() {
        for w in jt.channel.times().windows(2) {
            shortest = shortest.min(w[1] - w[0]);
        }
    }
    let duration = f64::from(clip.duration_secs());
    if !(shortest.is_finite() && shortest > 0.0 && duration > 0.0) {
        return None;
    }
    let frames = (duration / f64::from(shortest)).round().max(1.0);
    let step = (duration / frames) as f32;
    let on_grid = frames <= f64::from(u16::MAX)
        && clip.tracks().iter().all(|jt| {
            jt.channel
                .times()
                .iter()
                .all(|&t| frame_of(t, step).is_some())
        });
    on_grid.then_some(step)
}

/// The frame `t` falls on with frames `step` seconds apart, if it lies on one (to 8 ulps).
fn frame_of(t: f32, step: f32) -> Option<u16> {
    let k = (t / step).round();
    let exact = (k * step - t).abs() <= 8.0 * f32::EPSILON * t.abs().max(step);
    (exact && (0.0..=f32::from(u16::MAX)).contains(&k)).then_some(k as u16)
}

/// One track compressed: keys reduced within `tolerance` (a model-space distance, brought into
/// the track's own units through the joint's reach and scales), then quantized to 16 bits where
/// the quantization error at the joint's reach stays within `budget`, else kept as floats.
fn compress_track(
    jt: &super::JointTrack,
    Budget { tolerance, budget }: Budget,
    frame_secs: Option<f32>,
    reach: &Reach,
) -> CompressedTrack {
    let j = jt.joint;
    let step = jt.channel.interpolation() == Interpolation::Step;
    let lever = reach.reach[j].max(f32::MIN_POSITIVE);
    // Frame numbers on the grid (resampled cubic keys can fall between frames: seconds then).
    let times_of = |times: &[f32], kept: &[usize]| -> Times {
        let frames: Option<Vec<u16>> =
            frame_secs.and_then(|f| kept.iter().map(|&i| frame_of(times[i], f)).collect());
        match frames {
            Some(frames) => Times::Frames(frames),
            None => Times::Seconds(kept.iter().map(|&i| times[i]).collect()),
        }
    };
    let (times, keys) = match &jt.channel {
        Channel::Rotation(track) => {
            let (times, values) = linear_keys(track);
            let kept = reduce(
                &times,
                &values,
                step,
                tolerance / lever,
                slerp_shortest,
                rotation_error,
            );
            // 16-bit smallest-three: each component within 1.1e-5, the rotation within 3.8e-5
            // radians.
            let keys = if 3.8e-5 * lever <= budget {
                Keys::Rotation16(kept.iter().map(|&i| quantize_rotation(values[i])).collect())
            } else {
                Keys::Rotation32(kept.iter().map(|&i| values[i].normalize()).collect())
            };
            (times_of(&times, &kept), keys)
        }
        Channel::Translation(track) | Channel::Scale(track) => {
            let (times, values) = linear_keys(track);
            // Model-space distance per unit of this track's value.
            let gain = if jt.channel.property() == Property::Translation {
                reach.parent_scale[j]
            } else {
                lever / reach.own_scale[j].max(f32::MIN_POSITIVE)
            }
            .max(f32::MIN_POSITIVE);
            let kept = reduce(
                &times,
                &values,
                step,
                tolerance / gain,
                Vec3::lerp,
                |a, b| a.distance(b),
            );
            let (min, max) = kept.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), &i| {
                (lo.min(values[i]), hi.max(values[i]))
            });
            let extent = max - min;
            // Half a step per component.
            let error16 = (extent / Q16 * 0.5).length() * gain;
            // 16 bits only where they hold the budget and save bytes (the range costs 24).
            let keys = if error16 <= budget && RANGE_BYTES + 6 * kept.len() < 12 * kept.len() {
                Keys::Vector16 {
                    min,
                    extent,
                    keys: kept
                        .iter()
                        .map(|&i| {
                            let r = (values[i] - min) / extent.max(Vec3::splat(f32::MIN_POSITIVE));
                            [quantize_unit(r.x), quantize_unit(r.y), quantize_unit(r.z)]
                        })
                        .collect(),
                }
            } else {
                Keys::Vector32(kept.iter().map(|&i| values[i]).collect())
            };
            (times_of(&times, &kept), keys)
        }
    };
    CompressedTrack {
        joint: j as u16,
        property: jt.channel.property(),
        step,
        times,
        keys,
    }
}

/// A track's share of the error: for key reduction (`tolerance`) and for 16-bit quantization
/// (`budget`), both model-space distances.
#[derive(Clone, Copy)]
struct Budget {
    tolerance: f32,
    budget: f32,
}

fn compress_with_share(clip: &Clip, share: Budget, reach: &Reach) -> CompressedClip {
    let frame_secs = frame_grid(clip);
    CompressedClip {
        name: clip.name().to_string(),
        joint_count: clip.joint_count(),
        duration_secs: clip.duration_secs(),
        frame_secs: frame_secs.unwrap_or(0.0),
        tracks: clip
            .tracks()
            .iter()
            .map(|jt| compress_track(jt, share, frame_secs, reach))
            .collect(),
        id: next_key_source_id(),
    }
}

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

/// Times the error is measured at: 120 Hz over the clip and every source key time.
fn measure_times(clip: &Clip) -> Vec<f32> {
    let duration = clip.duration_secs();
    let steps = ((duration * 120.0).ceil() as usize).clamp(1, 100_000);
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
    let mut raw_cursor = ClipCursor::new(clip);
    let mut cursor = ClipCursor::for_compressed(compressed);
    let (mut raw, mut packed) = (LocalPose::rest(skeleton), LocalPose::rest(skeleton));
    let (mut raw_model, mut packed_model) = (ModelPose::new(skeleton), ModelPose::new(skeleton));
    let mut worst: f32 = 0.0;
    for t in measure_times(clip) {
        let sampled = sample_clip(skeleton, clip, t, &mut raw_cursor, &mut raw)
            .and_then(|_| {
                super::sample_compressed(skeleton, compressed, t, &mut cursor, &mut packed)
            })
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

/// Compresses `clip` for `skeleton` within `settings`, measuring the result; halves every track's
/// share of the tolerance while the measured error exceeds it (at most ten times).
pub fn compress_clip(
    skeleton: &Skeleton,
    clip: &Clip,
    settings: &CompressionSettings,
) -> (CompressedClip, CompressionReport) {
    let reach = reach(skeleton, &settings.distances);
    // First try: half the tolerance for key reduction, and 16-bit keys wherever their worst
    // step at the joint's reach is within the whole tolerance. While the measured error is over,
    // both shares halve: fewer keys dropped, more tracks kept as floats.
    let mut share = Budget {
        tolerance: 0.5 * settings.tolerance,
        budget: settings.tolerance,
    };
    let mut compressed = compress_with_share(clip, share, &reach);
    let mut error = measure_error(skeleton, clip, &compressed, &settings.distances);
    for _ in 0..10 {
        if error <= settings.tolerance {
            break;
        }
        share.tolerance *= 0.5;
        share.budget *= 0.5;
        compressed = compress_with_share(clip, share, &reach);
        error = measure_error(skeleton, clip, &compressed, &settings.distances);
    }
    let report = CompressionReport {
        clip: clip.name().to_string(),
        duration_secs: clip.duration_secs(),
        joints: skeleton.joint_count(),
        raw_keys: clip
            .tracks()
            .iter()
            .map(|jt| jt.channel.times().len())
            .sum(),
        kept_keys: compressed.key_count(),
        raw_bytes: raw_bytes(clip),
        compressed_bytes: compressed.bytes(),
        max_error: error,
        settings: settings.clone(),
    };
    (compressed, report)
}
