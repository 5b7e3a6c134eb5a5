//! Compressed clips with a measured error bound (ozz-animation's and ACL's approach).
//!
//! A clip is compressed in three steps, each under a tolerance measured where it matters: the
//! position error of virtual vertices `distances[joint]` away from each joint, in the skeleton's
//! model space, through the whole hierarchy.
//!
//! 1. **Key reduction**: a key is dropped when the tracks interpolated without it stay within
//!    their share of the tolerance at every source key (a greedy line fit). A joint's share comes
//!    from its reach: a rotation error of `a` radians moves the farthest virtual vertex it carries
//!    (its own, or a descendant's past that descendant, in the rest pose) by up to `reach * a`.
//!    Tracks that hold still keep one key, tracks moving in a straight line two; the others are
//!    clustered by the keys each would keep alone, and a cluster shares its reduced key times.
//!    CUBICSPLINE tracks are first resampled as LINEAR keys (8 per source interval, twice as many
//!    at each retry).
//! 2. **Quantization** (ACL's variable bit rates): each track's keys as whole steps of its own
//!    range, the widest component in the fewest of 3 to 19 bits whose error at the joint's reach
//!    stays within the track's share, each other component in as many as keep its steps no
//!    coarser (none when it holds still). Rotations are stored as x, y and z with w made positive
//!    (w rebuilt from unit length), their ranges as 16-bit steps of [-1, 1] (of 1/32,767: 0 is
//!    exact); a track that would need more than 19 bits keeps f32 keys. Each kind of a group's
//!    tracks is packed whole and in ACL's segments of 16 and of 32 keys (balanced), each
//!    segment over its own ranges and widths, and the fewest bytes kept; the whole clip is
//!    compressed with and without segments and the smaller kept.
//! 3. **Measurement**: the raw and compressed clips are sampled at 120 Hz and at every source key,
//!    composed, and every joint's origin and virtual vertices compared. While the largest error
//!    exceeds the tolerance, the shares shrink by 0.7 and the clip is compressed again (at most 20
//!    times); then three halvings (in ratio) between the last share over and the first within
//!    look for a larger share that holds. This runs twice, with half the tolerance for key
//!    reduction and with none (every key kept), and the smaller clip within the tolerance is
//!    kept; the report gives its error.
//!
//! Key times are frame numbers when the clip is keyed on a frame grid (exporters' clips are; the
//! grid may be a whole fraction of the shortest interval, as for a 120 Hz bake keyed at 24 Hz):
//! nothing but the first frame when every frame is keyed (uniform sampling), else each in as
//! many bits as the last frame needs. Without a grid they are f32 seconds.
//!
//! Each cluster's keys are stored key-major, like a raw clip's groups (runtime.rs). A sampling
//! context (`ClipCursor::for_compressed`, `sample_compressed`) keeps each cluster's two rows
//! decoded and decodes one row when playback crosses a key, then interpolates as the raw
//! sampler does (`Rows`).

use glam::{Affine3A, Quat, Vec3, Vec4};

use super::clip::next_key_source_id;
use super::compress_error::{measure_error, raw_bytes};
use super::compressed::{
    CompressedClip, CompressedGroup, RotationTracks, Segments, Times, VectorTracks,
    rotation_from_xyz,
};
use super::quantize::{Quantized, Range, fewest_bits, pack_segments};
use super::sample::sample_track;
use super::{
    Channel, Clip, Interpolation, JointTrack, LocalPose, ModelPose, Property, Skeleton, Track,
    local_to_model, slerp_shortest,
};

/// What a compression must hold to.
#[derive(Clone, Debug, PartialEq)]
pub struct CompressionSettings {
    /// The largest position error allowed at a virtual vertex, in the file's units.
    pub tolerance: f32,
    /// Per skeleton joint: how far its virtual vertices sit from it, in the file's units.
    pub distances: Vec<f32>,
    /// Whether a group's tracks may be split into segments of about 16 or 32 keys (ACL's),
    /// each quantized over its own range, where that stores them in fewer bytes.
    pub segments: bool,
}

impl CompressionSettings {
    /// The same distance for every one of `joints` joints.
    pub fn uniform(tolerance: f32, distance: f32, joints: usize) -> Self {
        Self {
            tolerance,
            distances: vec![distance; joints],
            segments: true,
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
    /// Quantized tracks stored in segments (ACL's), each over its own range.
    pub segmented_tracks: usize,
    /// The largest virtual-vertex error measured over the clip, in the file's units.
    pub max_error: f32,
    pub settings: CompressionSettings,
}

impl CompressionReport {
    pub fn ratio(&self) -> f32 {
        self.raw_bytes as f32 / self.compressed_bytes.max(1) as f32
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

impl Reach {
    /// Model-space distance per unit of joint `j`'s translation (its parent's scale) or, for a
    /// `scale` track, per unit of its scale (its reach over its own scale).
    fn gain(&self, j: usize, scale: bool) -> f32 {
        let reach = self.reach[j].max(f32::MIN_POSITIVE);
        if scale {
            reach / self.own_scale[j].max(f32::MIN_POSITIVE)
        } else {
            self.parent_scale[j]
        }
        .max(f32::MIN_POSITIVE)
    }
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

/// A track as LINEAR (or STEP) keys: times and values; cubic splines resampled `steps` times per
/// interval.
fn linear_keys<T: super::Interpolate + super::TrackValue>(
    track: &Track<T>,
    steps: usize,
) -> (Vec<f32>, Vec<T>) {
    match track.interpolation() {
        Interpolation::Step | Interpolation::Linear => {
            (track.times().to_vec(), track.values().to_vec())
        }
        Interpolation::CubicSpline => {
            let times = track.times();
            let mut out_t = Vec::with_capacity(times.len() * steps);
            for w in times.windows(2) {
                for s in 0..steps {
                    out_t.push(w[0] + (w[1] - w[0]) * s as f32 / steps as f32);
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

/// One track's keys, ready for reduction: its values and its tolerance in its own units.
enum TrackKeys {
    Vector {
        joint: u32,
        scale: bool,
        values: Vec<Vec3>,
        tolerance: f32,
        /// Model-space distance per unit of the value.
        gain: f32,
    },
    Rotation {
        joint: u32,
        values: Vec<Quat>,
        tolerance: f32,
        /// The joint's reach: model-space distance per radian.
        lever: f32,
    },
}

impl TrackKeys {
    /// Whether key `i` is within tolerance of the track interpolated from key `a` to key `b`
    /// at `u` (or held at `a` for STEP).
    fn fits(&self, a: usize, b: usize, i: usize, u: f32, step: bool) -> bool {
        match self {
            TrackKeys::Vector {
                values, tolerance, ..
            } => {
                let at = if step {
                    values[a]
                } else {
                    values[a].lerp(values[b], u)
                };
                values[i].distance(at) <= *tolerance
            }
            TrackKeys::Rotation {
                values, tolerance, ..
            } => {
                let at = if step {
                    values[a]
                } else {
                    slerp_shortest(values[a], values[b], u)
                };
                rotation_error(values[i], at) <= *tolerance
            }
        }
    }
}

/// Indices of the keys a group keeps: the first and last always; a key in between only when
/// some track interpolated without it would stray past its tolerance at some source key (a
/// greedy line fit over all the group's tracks at once, so they keep sharing key times).
fn reduce(times: &[f32], tracks: &[TrackKeys], step: bool) -> Vec<usize> {
    let n = times.len();
    if n <= 2 {
        return (0..n).collect();
    }
    let mut kept = vec![0];
    // Tracks that hold still (within tolerance) keep their first key alone.
    if (1..n).all(|i| tracks.iter().all(|k| k.fits(0, 0, i, 0.0, true))) {
        return kept;
    }
    let mut a = 0;
    while a < n - 1 {
        // Extend the segment from key a as far as every key inside it fits every track.
        let mut b = a + 1;
        while b + 1 < n {
            let candidate = b + 1;
            let (ta, tb) = (times[a], times[candidate]);
            let fits = (a + 1..candidate).all(|i| {
                let u = (times[i] - ta) / (tb - ta);
                tracks.iter().all(|k| k.fits(a, candidate, i, u, step))
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

/// The size of the union of two sorted index sets.
fn union_len(a: &[usize], b: &[usize]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x == y => (i, j) = (i + 1, j + 1),
            (Some(x), Some(y)) if x < y => i += 1,
            (Some(_), None) => i += 1,
            _ => j += 1,
        }
        n += 1;
    }
    n
}

/// Position error a rotation difference causes at unit distance: the angle between the two,
/// from the chord between the quaternions (twice it is the angle, to first order; a dot product
/// in f32 cannot tell rotations under 5e-4 radians apart).
fn rotation_error(a: Quat, b: Quat) -> f32 {
    let (a, b) = (Vec4::from(a), Vec4::from(b));
    2.0 * (a - b).length().min((a + b).length())
}

/// The grid every key time of `clip` lies on, in seconds per frame: the clip's duration over a
/// whole number of frames near its shortest key interval or a whole fraction of it (down to an
/// eighth: a 120 Hz bake keyed at 24 Hz with a gap), when every key time is a whole number of
/// frames (to float precision: exporters write `frame / rate`) below 65536 frames.
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
    (1..=8).find_map(|split| {
        let frames = (duration * f64::from(split) / f64::from(shortest))
            .round()
            .max(1.0);
        let step = (duration / frames) as f32;
        let on_grid = frames <= f64::from(u16::MAX)
            && clip.tracks().iter().all(|jt| {
                jt.channel
                    .times()
                    .iter()
                    .all(|&t| frame_of(t, step).is_some())
            });
        on_grid.then_some(step)
    })
}

/// The frame `t` falls on with frames `step` seconds apart, if it lies on one (to 8 ulps).
fn frame_of(t: f32, step: f32) -> Option<u16> {
    let k = (t / step).round();
    let exact = (k * step - t).abs() <= 8.0 * f32::EPSILON * t.abs().max(step);
    (exact && (0.0..=f32::from(u16::MAX)).contains(&k)).then_some(k as u16)
}

/// A track's share of the error: for key reduction (`tolerance`) and for quantization
/// (`budget`), both model-space distances; and how finely cubic splines are resampled (LINEAR
/// keys per source interval, before reduction).
#[derive(Clone, Copy)]
struct Budget {
    tolerance: f32,
    budget: f32,
    cubic_steps: usize,
}

/// The clip's tracks as LINEAR (or STEP) keys, grouped by key times and interpolation, each with
/// its tolerance in its own units.
fn track_groups(
    clip: &Clip,
    share: Budget,
    reach: &Reach,
) -> Vec<(Vec<f32>, bool, Vec<TrackKeys>)> {
    let mut groups: Vec<(Vec<f32>, bool, Vec<TrackKeys>)> = Vec::new();
    for jt in clip.tracks() {
        let j = jt.joint;
        let step = jt.channel.interpolation() == Interpolation::Step;
        let lever = reach.reach[j].max(f32::MIN_POSITIVE);
        let (times, keys) = match &jt.channel {
            Channel::Rotation(track) => {
                let (times, values) = linear_keys(track, share.cubic_steps);
                let keys = TrackKeys::Rotation {
                    joint: j as u32,
                    values,
                    tolerance: share.tolerance / lever,
                    lever,
                };
                (times, keys)
            }
            Channel::Translation(track) | Channel::Scale(track) => {
                let (times, values) = linear_keys(track, share.cubic_steps);
                let scale = jt.channel.property() == Property::Scale;
                let gain = reach.gain(j, scale);
                let keys = TrackKeys::Vector {
                    joint: j as u32,
                    scale,
                    values,
                    tolerance: share.tolerance / gain,
                    gain,
                };
                (times, keys)
            }
        };
        match groups
            .iter_mut()
            .find(|(t, s, _)| *s == step && *t == times)
        {
            Some((_, _, tracks)) => tracks.push(keys),
            None => groups.push((times, step, vec![keys])),
        }
    }
    groups
}

/// One kind's tracks of a group, packed tracks first: their joints, the packed tracks' segments
/// and the float tracks' rows, key-major.
#[derive(Default)]
struct KindKeys {
    joints: Vec<u32>,
    packed: Segments,
    f_rows: Vec<Vec4>,
}

/// A track's keys: quantized segments, or floats (unit quaternions for rotations).
type TrackPacking = Result<Vec<Quantized>, Vec<Vec4>>;

/// Rows a segment may take in a group of `n` keys: all of them, and ACL's 32 and 16 keys a
/// segment, balanced (as many segments as those take, of equal length) where they split it.
fn segment_lengths(n: usize) -> Vec<usize> {
    let mut lengths = vec![n.max(1)];
    for target in [32, 16] {
        let count = n.div_ceil(target);
        let rows = n.div_ceil(count.max(1));
        if count > 1 && !lengths.contains(&rows) {
            lengths.push(rows);
        }
    }
    lengths
}

/// The kept keys of one kind's `tracks`, in segments of `rows` rows: each track in the fewest
/// bits per segment whose quantization error at the joint's reach stays within `budget` (if
/// that saves bytes), else as floats.
fn kind_keys(
    tracks: &[&TrackKeys],
    kept: &[usize],
    (rows, range): (usize, Range),
    budget: f32,
) -> KindKeys {
    let mut list: Vec<(u32, TrackPacking)> = (tracks.iter())
        .map(|track| match track {
            TrackKeys::Vector {
                joint,
                values,
                gain,
                ..
            } => {
                let kept: Vec<Vec3> = kept.iter().map(|&i| values[i]).collect();
                // Half a step per component at the joint's gain.
                let keys = fewest_bits(&kept, rows, (range, 12), |q, _| {
                    (q.step * 0.5).length() * gain <= budget
                })
                .ok_or_else(|| kept.iter().map(|v| v.extend(0.0)).collect());
                (*joint, keys)
            }
            TrackKeys::Rotation {
                joint,
                values,
                lever,
                ..
            } => {
                // Unit, w made positive (q and -q are one rotation).
                let unit: Vec<Vec4> = kept
                    .iter()
                    .map(|&i| {
                        let q = Vec4::from(values[i].normalize());
                        if q.w < 0.0 { -q } else { q }
                    })
                    .collect();
                let xyz: Vec<Vec3> = unit.iter().map(|q| q.truncate()).collect();
                let fits = |q: &Quantized, first: usize| {
                    let segment = unit[first..].iter().take(q.len());
                    segment.enumerate().all(|(k, &want)| {
                        let got = rotation_from_xyz(q.value(k));
                        rotation_error(Quat::from_vec4(want), Quat::from_vec4(got)) * lever
                            <= budget
                    })
                };
                // Float keys stored unit, as the sampler's arcs need (`Clip::new` refuses zero
                // ones).
                let keys = fewest_bits(&xyz, rows, (range, 16), fits).ok_or(unit);
                (*joint, keys)
            }
        })
        .collect();
    // Packed tracks first, then the float ones, each kind's rows key-major.
    list.sort_by_key(|(_, k)| k.is_err());
    let joints: Vec<u32> = list.iter().map(|(j, _)| *j).collect();
    let (packed, floats): (Vec<_>, Vec<_>) =
        list.into_iter().map(|(_, k)| k).partition(Result::is_ok);
    let packed: Vec<Vec<Quantized>> = packed.into_iter().filter_map(Result::ok).collect();
    let floats: Vec<Vec<Vec4>> = floats.into_iter().filter_map(Result::err).collect();
    let f_rows = (0..kept.len())
        .flat_map(|row| floats.iter().map(move |f| f[row]))
        .collect();
    KindKeys {
        joints,
        packed: pack_segments(&packed, rows, range),
        f_rows,
    }
}

/// A group's kept keys, each kind (translations, scales, rotations) in the segment length
/// (`segment_lengths`, with `segments`) that stores it in the fewest bytes.
fn pack_group(
    times: &[f32],
    step: bool,
    tracks: &[TrackKeys],
    kept: &[usize],
    frame_secs: Option<f32>,
    (budget, segments): (f32, bool),
) -> CompressedGroup {
    let frames: Option<Vec<u16>> =
        frame_secs.and_then(|f| kept.iter().map(|&i| frame_of(times[i], f)).collect());
    let times = match frames {
        Some(frames) => Times::frames(&frames),
        None => Times::Seconds(kept.iter().map(|&i| times[i]).collect()),
    };
    let n = kept.len();
    let kind_of = |t: &TrackKeys| match t {
        TrackKeys::Vector { scale, .. } => usize::from(*scale),
        TrackKeys::Rotation { .. } => 2,
    };
    let [translations, scales, rotations] = [0, 1, 2].map(|kind| {
        let of_kind: Vec<&TrackKeys> = tracks.iter().filter(|t| kind_of(t) == kind).collect();
        let (range, float_bytes) = if kind == 2 {
            (Range::Unit16, 16)
        } else {
            (Range::Float, 12)
        };
        let lengths = if segments {
            segment_lengths(n)
        } else {
            vec![n.max(1)]
        };
        (lengths.into_iter())
            .map(|rows| kind_keys(&of_kind, kept, (rows, range), budget))
            .min_by_key(|k| k.packed.bytes(n) + k.f_rows.len() * float_bytes)
            .unwrap_or_default()
    });
    let vectors = |k: KindKeys| VectorTracks {
        joints: k.joints,
        packed: k.packed,
        f_rows: k.f_rows.iter().map(|v| v.truncate()).collect(),
    };
    CompressedGroup {
        times,
        step,
        translations: vectors(translations),
        scales: vectors(scales),
        rotations: RotationTracks {
            joints: rotations.joints,
            packed: rotations.packed,
            f_rows: rotations.f_rows.into_iter().map(Quat::from_vec4).collect(),
        },
    }
}

fn compress_with_share(
    clip: &Clip,
    share: Budget,
    reach: &Reach,
    segments: bool,
) -> CompressedClip {
    let frame_secs = frame_grid(clip);
    let mut groups = Vec::new();
    for (times, step, tracks) in track_groups(clip, share, reach) {
        // Tracks that hold still or move in a straight line keep their one or two keys in a
        // group of their own; the others share their reduced key times.
        // The others are clustered by the keys each would keep alone: a track joins the
        // cluster whose key set grows least by taking its keys, if the union is at most a
        // quarter larger than either set; else it starts a cluster. Few clusters keep sampling fast (one lookup each);
        // similar key sets keep the reduction.
        let mut simple: Vec<(Vec<usize>, Vec<TrackKeys>)> = Vec::new();
        let mut clusters: Vec<(Vec<usize>, Vec<TrackKeys>)> = Vec::new();
        let mut own: Vec<(Vec<usize>, TrackKeys)> = tracks
            .into_iter()
            .map(|track| (reduce(&times, std::slice::from_ref(&track), step), track))
            .collect();
        own.sort_by_key(|(kept, _)| std::cmp::Reverse(kept.len()));
        for (kept, track) in own {
            if kept.len() <= 2 {
                match simple.iter_mut().find(|(k, _)| *k == kept) {
                    Some((_, list)) => list.push(track),
                    None => simple.push((kept, vec![track])),
                }
                continue;
            }
            let best = clusters
                .iter()
                .enumerate()
                .map(|(c, (set, _))| (c, union_len(set, &kept)))
                .filter(|&(c, union)| 4 * union <= 5 * clusters[c].0.len().min(kept.len()))
                .min_by_key(|&(_, union)| union);
            match best {
                Some((c, _)) => {
                    let set = &mut clusters[c].0;
                    set.extend_from_slice(&kept);
                    set.sort_unstable();
                    set.dedup();
                    clusters[c].1.push(track);
                }
                None => clusters.push((kept, vec![track])),
            }
        }
        for (kept, list) in &simple {
            groups.push(pack_group(
                &times,
                step,
                list,
                kept,
                frame_secs,
                (share.budget, segments),
            ));
        }
        for (_, list) in &clusters {
            let kept = reduce(&times, list, step);
            groups.push(pack_group(
                &times,
                step,
                list,
                &kept,
                frame_secs,
                (share.budget, segments),
            ));
        }
    }
    CompressedClip {
        name: clip.name().to_string(),
        joint_count: clip.joint_count(),
        duration_secs: clip.duration_secs(),
        frame_secs: frame_secs.unwrap_or(0.0),
        groups,
        covers_all: clip.runtime().covers_all(),
        id: next_key_source_id(),
    }
}

/// What every track's share is multiplied by while the measured error is over the bound.
const SHRINK: f32 = 0.7;

/// Compresses `clip` for `skeleton` within `settings`, measuring the result. Two splits of the
/// tolerance are tried: half for key reduction, and none (every key kept, all of it for the bit
/// widths: what wins on clips keyed too sparsely to drop keys). Within each, every track's share
/// shrinks by `SHRINK` while the measured error exceeds the tolerance (at most 20 times), then
/// three halvings between the last two look for a larger one that holds; the smallest clip
/// within the tolerance is kept (else the one closest to it).
pub fn compress_clip(
    skeleton: &Skeleton,
    clip: &Clip,
    settings: &CompressionSettings,
) -> (CompressedClip, CompressionReport) {
    let reach = reach(skeleton, &settings.distances);
    let within = |e: f32| e <= settings.tolerance;
    let attempt = |(reduction, segments): (f32, bool)| {
        // Each track's keys within its share of the tolerance at the joint's reach, both for
        // reduction and quantization. While the measured error is over, both shares shrink
        // (fewer keys dropped, more bits) and cubic splines are resampled twice as finely.
        let mut share = Budget {
            tolerance: reduction * settings.tolerance,
            budget: settings.tolerance,
            cubic_steps: 8,
        };
        let mut compressed = compress_with_share(clip, share, &reach, segments);
        let mut error = measure_error(skeleton, clip, &compressed, &settings.distances);
        for _ in 0..20 {
            if within(error) {
                break;
            }
            share.tolerance *= SHRINK;
            share.budget *= SHRINK;
            share.cubic_steps = (share.cubic_steps * 2).min(256);
            compressed = compress_with_share(clip, share, &reach, segments);
            error = measure_error(skeleton, clip, &compressed, &settings.distances);
        }
        // Between the last share over the bound and the first within it: a bisection (in
        // ratio, three halvings), keeping the smallest clip that holds.
        if within(error) && share.budget < settings.tolerance {
            let (mut held, mut over) = (1.0f32, 1.0 / SHRINK);
            for _ in 0..3 {
                let mid = (held * over).sqrt();
                let tried_share = Budget {
                    tolerance: share.tolerance * mid,
                    budget: share.budget * mid,
                    ..share
                };
                let tried = compress_with_share(clip, tried_share, &reach, segments);
                let tried_error = measure_error(skeleton, clip, &tried, &settings.distances);
                if within(tried_error) {
                    held = mid;
                    if tried.bytes() < compressed.bytes() {
                        (compressed, error) = (tried, tried_error);
                    }
                } else {
                    over = mid;
                }
            }
        }
        (compressed, error)
    };
    // Whole-group packing, and with segments where allowed: a segment that saves bytes at one
    // share can leave more error and cost a smaller share (more bits) elsewhere.
    let segments = [false, true]
        .into_iter()
        .filter(|&s| !s || settings.segments);
    let (compressed, error) = (segments.flat_map(|s| [(0.5, s), (0.0, s)]))
        .map(attempt)
        .min_by(|(a, ea), (b, eb)| match (within(*ea), within(*eb)) {
            (true, true) => a.bytes().cmp(&b.bytes()),
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            (false, false) => ea.total_cmp(eb),
        })
        .unwrap_or_else(|| attempt((0.5, false)));
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
        segmented_tracks: compressed.segmented_tracks(),
        max_error: error,
        settings: settings.clone(),
    };
    (compressed, report)
}

/// `clip` with the keys dropped that its neighbours' interpolation reproduces within `settings`
/// (float keys, no quantization: a clip to write out, as glTF keeps it). Each LINEAR or STEP
/// track is reduced on its own (`reduce`) at one share of the tolerance at its joint's reach;
/// a track's own error seldom adds up along the chain to the whole tolerance, so the share is
/// searched: doubled from the tolerance while the measured error (`measure_clip_error`) holds,
/// or shrunk by `SHRINK` until it does; the clip with the fewest keys within the tolerance is
/// kept. Cubic-spline tracks are kept whole. Returns the reduced clip and its measured error.
pub fn reduce_clip(
    skeleton: &Skeleton,
    clip: &Clip,
    settings: &CompressionSettings,
) -> (Clip, f32) {
    let reach = reach(skeleton, &settings.distances);
    let attempt = |share: f32| {
        let tracks: Vec<JointTrack> = (clip.tracks().iter())
            .map(|jt| reduce_track(jt, share, &reach))
            .collect();
        let reduced = Clip::new(
            clip.name(),
            clip.joint_count(),
            tracks,
            clip.events().to_vec(),
        )
        .ok()?;
        let error = super::measure_clip_error(skeleton, clip, &reduced, &settings.distances);
        (error <= settings.tolerance).then_some((reduced, error))
    };
    let keys = |c: &Clip| -> usize { c.tracks().iter().map(|t| t.channel.times().len()).sum() };
    let mut share = settings.tolerance;
    let mut best: Option<(Clip, f32)> = None;
    for _ in 0..20 {
        match attempt(share) {
            Some(found) => {
                if best
                    .as_ref()
                    .is_some_and(|(b, _)| keys(b) <= keys(&found.0))
                {
                    break;
                }
                best = Some(found);
                share *= 2.0;
            }
            None if best.is_some() => break,
            None => share *= SHRINK,
        }
    }
    best.unwrap_or_else(|| (clip.clone(), 0.0))
}

/// One track with the keys `reduce` drops at `tolerance` (model-space, at the joint's reach).
fn reduce_track(jt: &JointTrack, tolerance: f32, reach: &Reach) -> JointTrack {
    let j = jt.joint;
    let interpolation = jt.channel.interpolation();
    if interpolation == Interpolation::CubicSpline {
        return jt.clone();
    }
    let step = interpolation == Interpolation::Step;
    let lever = reach.reach[j].max(f32::MIN_POSITIVE);
    let times = jt.channel.times();
    let pick = |keys: TrackKeys| reduce(times, std::slice::from_ref(&keys), step);
    let channel = match &jt.channel {
        Channel::Rotation(track) => {
            let kept = pick(TrackKeys::Rotation {
                joint: j as u32,
                values: track.values().to_vec(),
                tolerance: tolerance / lever,
                lever,
            });
            Track::new(
                kept.iter().map(|&k| times[k]).collect(),
                kept.iter().map(|&k| track.values()[k]).collect(),
                interpolation,
            )
            .map(Channel::Rotation)
        }
        Channel::Translation(track) | Channel::Scale(track) => {
            let scale = jt.channel.property() == Property::Scale;
            let gain = reach.gain(j, scale);
            let kept = pick(TrackKeys::Vector {
                joint: j as u32,
                scale,
                values: track.values().to_vec(),
                tolerance: tolerance / gain,
                gain,
            });
            let values = kept.iter().map(|&k| track.values()[k]).collect();
            Track::new(
                kept.iter().map(|&k| times[k]).collect(),
                values,
                interpolation,
            )
            .map(|t| {
                if scale {
                    Channel::Scale(t)
                } else {
                    Channel::Translation(t)
                }
            })
        }
    };
    match channel {
        Ok(channel) => JointTrack { joint: j, channel },
        Err(_) => jt.clone(),
    }
}
