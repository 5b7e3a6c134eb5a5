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
//!    Tracks the rest pose reproduces within their share are not stored at all (ACL's default
//!    tracks; sampling lays the rest pose down under the clip), tracks that hold still keep one
//!    key, tracks moving in a straight line two; the others are clustered by the keys each would
//!    keep alone, and a cluster shares its reduced key times. CUBICSPLINE tracks are first
//!    resampled as LINEAR keys (8 per source interval, twice as many at each retry).
//! 2. **Quantization** (ACL's variable bit rates): each track's keys as whole steps of its own
//!    range, the widest component in the fewest of 3 to 19 bits whose error at the joint's reach
//!    stays within the track's share, each other component in as many as keep its steps no
//!    coarser (none when it holds still). Rotations are stored as x, y and z with w made positive
//!    (w rebuilt from unit length), their minimums as 16-bit steps of [-1, 1] (of 1/32,767: 0
//!    is exact) and their extents in a byte (`quantize::stored_extent`). A rotation track may
//!    be stored in a frame of its own, `left⁻¹ * key * right⁻¹`, where that takes fewer bytes:
//!    relative to its mean, where w comes near 0 (a joint turned half a turn from its parent,
//!    whose rebuilt w would take x, y and z's rounding out of all proportion), or turned onto
//!    the principal axes of its motion about that mean (a joint swinging about one axis then
//!    moves one component, and the others hold nearly still: `rotation_frame`); a track that
//!    would need more than 19 bits keeps f32 keys. Each kind of a group's tracks is packed whole
//!    and in ACL's segments of 16 and of 32 keys (balanced), each segment over its own ranges and
//!    widths, and the fewest bytes kept; the whole clip is compressed with and without segments
//!    and the smaller kept.
//!
//!    Quantization may run in closed loop (`compensate`): in hierarchy order, each joint's keys
//!    quantized towards what puts it where the raw clip does under its ancestors as they
//!    decode, so a parent's rounding is taken back by its children and a rotation's error
//!    reaches only as far as the next child that moves (`compensate::closed_levers`), not the
//!    end of the chain.
//! 3. **Measurement**: the raw and compressed clips are sampled at 120 Hz and at every source key,
//!    composed, and every joint's origin and virtual vertices compared. While the largest error
//!    exceeds the tolerance, the shares shrink by 0.7 and the clip is compressed again (at most 20
//!    times); then five halvings (in ratio) between the last share over and the first within
//!    look for a larger share that holds. This runs with half the tolerance for key reduction and
//!    with none (every key kept), open and closed loop, with and without segments, and the
//!    smallest clip within the tolerance is kept; the report gives its error.
//!
//! Key times are frame numbers when the clip is keyed on a frame grid (exporters' clips are; the
//! grid may be a whole fraction of the shortest interval, as for a 120 Hz bake keyed at 24 Hz):
//! nothing but the first frame when every frame is keyed (uniform sampling), else a bit for each
//! frame from the first to the last, set where a key is, the gaps between keys in as many bits
//! as the widest needs, or each frame in as many bits as the last needs, whichever is smaller.
//! Without a grid they are f32 seconds.
//!
//! Each cluster's keys are stored key-major, like a raw clip's groups (runtime.rs). A sampling
//! context (`ClipCursor::for_compressed`, `sample_compressed`) keeps each cluster's two rows
//! decoded and decodes one row when playback crosses a key, then interpolates as the raw
//! sampler does (`Rows`).

use glam::{Affine3A, Quat, Vec3, Vec4};

use super::clip::next_key_source_id;
use super::compensate::{Compensator, closed_levers};
use super::compress_error::{measure_error, raw_bytes};
use super::compressed::{
    CompressedClip, CompressedGroup, RotationTracks, Segments, Times, VectorTracks, frame_bytes,
    rotation_from_xyz,
};
use super::quantize::{Quantized, Range, fewest_bits, pack_segments};
use super::rotation_frame::{Frame, fewest_rotation_bytes, rotation_error};
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
    /// How far a rotation's error reaches when the children take it back (closed-loop
    /// quantization: `compensate::closed_levers`), where the clip is quantized so.
    closed: Option<Vec<f32>>,
    positions: Vec<Vec3>,
    parent_scale: Vec<f32>,
    own_scale: Vec<f32>,
}

impl Reach {
    /// Model-space distance per radian of joint `j`'s rotation error, as its keys are
    /// quantized.
    fn lever(&self, j: usize) -> f32 {
        let open = self.reach[j];
        self.closed
            .as_ref()
            .map_or(open, |c| c[j].min(open))
            .max(f32::MIN_POSITIVE)
    }

    /// `self` for closed-loop quantization of `clip`: its rotation tracks that move take back
    /// their parents' rotation errors.
    fn closed_for(&self, skeleton: &Skeleton, clip: &Clip, distances: &[f32]) -> Self {
        let mut compensates = vec![false; skeleton.joint_count()];
        for jt in clip.tracks() {
            if let Channel::Rotation(track) = &jt.channel
                && track.values().windows(2).any(|w| w[0] != w[1])
                && let Some(c) = compensates.get_mut(jt.joint)
            {
                *c = true;
            }
        }
        let parents: Vec<Option<usize>> = skeleton
            .parents()
            .iter()
            .map(|p| p.map(usize::from))
            .collect();
        Self {
            reach: self.reach.clone(),
            closed: Some(closed_levers(
                &parents,
                &self.positions,
                distances,
                &compensates,
            )),
            positions: self.positions.clone(),
            parent_scale: self.parent_scale.clone(),
            own_scale: self.own_scale.clone(),
        }
    }

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
        closed: None,
        positions: m.iter().map(|a| Vec3::from(a.translation)).collect(),
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
#[derive(Clone)]
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
    fn joint(&self) -> usize {
        match self {
            TrackKeys::Vector { joint, .. } | TrackKeys::Rotation { joint, .. } => *joint as usize,
        }
    }

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

impl TrackKeys {
    /// Whether every key lies within `limit` (a model-space distance at the joint's reach) of
    /// the joint's rest value for this property: a track the rest pose reproduces.
    fn rests_at(&self, rest: &super::Transform, limit: f32) -> bool {
        match self {
            TrackKeys::Vector {
                scale,
                values,
                gain,
                ..
            } => {
                let at = if *scale { rest.scale } else { rest.translation };
                values.iter().all(|v| v.distance(at) * gain <= limit)
            }
            TrackKeys::Rotation { values, lever, .. } => values
                .iter()
                .all(|&q| rotation_error(q, rest.rotation) * lever <= limit),
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

/// The frame `t` falls on with frames `step` seconds apart, if it lies on one (to 8 ulps, or a
/// hundred-thousandth of a frame: exporters' `frame / rate` in f32 can miss by a few more ulps than 8).
fn frame_of(t: f32, step: f32) -> Option<u16> {
    let k = (t / step).round();
    let exact = (k * step - t).abs() <= (8.0 * f32::EPSILON * t.abs().max(step)).max(1e-5 * step);
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
        let open = reach.reach[j].max(f32::MIN_POSITIVE);
        let (times, keys) = match &jt.channel {
            Channel::Rotation(track) => {
                let (times, values) = linear_keys(track, share.cubic_steps);
                // Keys are dropped at the whole reach (children take back a parent's rounding
                // at their keys, not between them), and quantized at the lever.
                let keys = TrackKeys::Rotation {
                    joint: j as u32,
                    values,
                    tolerance: share.tolerance / open,
                    lever: reach.lever(j),
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
    /// The frames of the packed tracks stored in one (the last packed ones).
    frames: Vec<Frame>,
    f_rows: Vec<Vec4>,
}

/// A track's keys: quantized segments (with the frame rotations are stored in, where one is),
/// or floats (unit quaternions for rotations).
type TrackPacking = Result<(Vec<Quantized>, Option<Frame>), Vec<Vec4>>;

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

/// One track's kept keys in segments of `rows` rows: in the fewest bits per segment whose
/// quantization error at the joint's reach stays within `budget` (if that saves bytes), else as
/// floats.
fn track_packing(
    track: &TrackKeys,
    kept: &[usize],
    (rows, range): (usize, Range),
    budget: f32,
) -> (u32, TrackPacking) {
    match track {
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
            .map(|q| (q, None))
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
            let best = fewest_rotation_bytes(&unit, (rows, range), (*lever, budget));
            // Float keys stored unit, as the sampler's arcs need (`Clip::new` refuses zero
            // ones).
            (*joint, best.ok_or(unit))
        }
    }
}

/// A track as it decodes from `packing` (its kept keys at `times`, of `kind`), for the
/// closed-loop targets of its joint's descendants; `None` if the keys make no track.
fn decoded_channel(
    packing: &TrackPacking,
    kind: usize,
    (times, step): (Vec<f32>, bool),
) -> Option<Channel> {
    let values: Vec<Vec4> = match packing {
        Ok((segments, frame)) => (segments.iter())
            .flat_map(|q| (0..q.len()).map(move |k| q.value(k)))
            .map(|v| {
                if kind == 2 {
                    let q = Quat::from_vec4(rotation_from_xyz(v));
                    Vec4::from(frame.map_or(q, |(l, r)| l * q * r))
                } else {
                    v.extend(0.0)
                }
            })
            .collect(),
        Err(floats) => floats.clone(),
    };
    let interpolation = if step {
        Interpolation::Step
    } else {
        Interpolation::Linear
    };
    let vectors = || values.iter().map(|v| v.truncate()).collect();
    match kind {
        0 => Track::new(times, vectors(), interpolation)
            .ok()
            .map(Channel::Translation),
        1 => Track::new(times, vectors(), interpolation)
            .ok()
            .map(Channel::Scale),
        _ => {
            let rotations = values.iter().map(|&v| Quat::from_vec4(v)).collect();
            Track::new(times, rotations, interpolation)
                .ok()
                .map(Channel::Rotation)
        }
    }
}

/// The kept keys of one kind's `tracks`, in segments of `rows` rows (`track_packing`).
fn kind_keys(
    tracks: &[&TrackKeys],
    kept: &[usize],
    (rows, range): (usize, Range),
    budget: f32,
) -> KindKeys {
    let list = (tracks.iter())
        .map(|track| track_packing(track, kept, (rows, range), budget))
        .collect();
    assemble(list, kept.len(), (rows, range))
}

/// One kind's tracks of a group from their packings: packed tracks first (those without a
/// frame, then those with one), then the float ones, each kind's rows key-major.
fn assemble(
    mut list: Vec<(u32, TrackPacking)>,
    n: usize,
    (rows, range): (usize, Range),
) -> KindKeys {
    // Each class in ascending joint order, so the headers may store the joints as a set
    // (`track_header_bytes`).
    list.sort_by_key(|(j, k)| {
        let class = match k {
            Ok((_, None)) => 0,
            Ok((_, Some(_))) => 1,
            Err(_) => 2,
        };
        (class, *j)
    });
    let joints: Vec<u32> = list.iter().map(|(j, _)| *j).collect();
    let (packed, floats): (Vec<_>, Vec<_>) =
        list.into_iter().map(|(_, k)| k).partition(Result::is_ok);
    let packed: Vec<(Vec<Quantized>, Option<Frame>)> =
        packed.into_iter().filter_map(Result::ok).collect();
    let frames = packed.iter().filter_map(|(_, f)| *f).collect();
    let packed: Vec<Vec<Quantized>> = packed.into_iter().map(|(q, _)| q).collect();
    let floats: Vec<Vec<Vec4>> = floats.into_iter().filter_map(Result::err).collect();
    let f_rows = (0..n)
        .flat_map(|row| floats.iter().map(move |f| f[row]))
        .collect();
    KindKeys {
        joints,
        packed: pack_segments(&packed, rows, range),
        frames,
        f_rows,
    }
}

/// A group's key times as stored: frame numbers on the clip's grid, else seconds.
fn group_times(times: &[f32], kept: &[usize], frame_secs: Option<f32>) -> Times {
    let frames: Option<Vec<u16>> =
        frame_secs.and_then(|f| kept.iter().map(|&i| frame_of(times[i], f)).collect());
    match frames {
        Some(frames) => Times::frames(&frames),
        None => Times::Seconds(kept.iter().map(|&i| times[i]).collect()),
    }
}

/// A track's kind: translations 0, scales 1, rotations 2 (`compensate::property_index`).
fn kind_of(t: &TrackKeys) -> usize {
    match t {
        TrackKeys::Vector { scale, .. } => usize::from(*scale),
        TrackKeys::Rotation { .. } => 2,
    }
}

/// How a kind's ranges are stored, and the bytes of one of its keys as floats.
fn kind_range(kind: usize) -> (Range, usize) {
    if kind == 2 {
        (Range::Unit16, 16)
    } else {
        (Range::Float, 12)
    }
}

/// A group's kept keys, each kind (translations, scales, rotations) in the segment length
/// (`segment_lengths`, with `segments`) that stores it in the fewest bytes; and those lengths.
fn pack_group(
    plan: &Plan,
    frame_secs: Option<f32>,
    (budget, segments): (f32, bool),
) -> (CompressedGroup, [usize; 3]) {
    let n = plan.kept.len();
    let mut chosen = [n.max(1); 3];
    let kinds = [0, 1, 2].map(|kind| {
        let of_kind: Vec<&TrackKeys> = (plan.tracks.iter())
            .filter(|t| kind_of(t) == kind)
            .collect();
        let (range, float_bytes) = kind_range(kind);
        let lengths = if segments {
            segment_lengths(n)
        } else {
            vec![n.max(1)]
        };
        let best = (lengths.into_iter())
            .map(|rows| (rows, kind_keys(&of_kind, &plan.kept, (rows, range), budget)))
            .min_by_key(|(_, k)| {
                k.packed.bytes(n) + frame_bytes(&k.frames) + k.f_rows.len() * float_bytes
            });
        match best {
            Some((rows, keys)) => {
                chosen[kind] = rows;
                keys
            }
            None => KindKeys::default(),
        }
    });
    let times = group_times(&plan.times, &plan.kept, frame_secs);
    (group_from(times, plan.step, kinds), chosen)
}

fn group_from(times: Times, step: bool, kinds: [KindKeys; 3]) -> CompressedGroup {
    let [translations, scales, rotations] = kinds;
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
        rotations: RotationTracks::new(
            rotations.joints,
            (rotations.packed, rotations.frames),
            rotations.f_rows.into_iter().map(Quat::from_vec4).collect(),
        ),
    }
}

/// Tracks that share their source key times and the keys they keep.
struct Plan {
    times: Vec<f32>,
    step: bool,
    kept: Vec<usize>,
    tracks: Vec<TrackKeys>,
}

/// The clip's tracks grouped (`track_groups`), reduced and clustered by the keys they keep;
/// tracks the rest pose reproduces are left out. Also whether any was.
fn plans(skeleton: &Skeleton, clip: &Clip, share: Budget, reach: &Reach) -> (Vec<Plan>, bool) {
    let mut plans = Vec::new();
    let mut dropped = false;
    for (times, step, tracks) in track_groups(clip, share, reach) {
        // Tracks that hold still or move in a straight line keep their one or two keys in a
        // group of their own; the others share their reduced key times.
        // The others are clustered by the keys each would keep alone: a track joins the
        // cluster whose key set grows least by taking its keys, if the union is at most a
        // quarter larger than either set; else it starts a cluster. Few clusters keep sampling
        // fast (one lookup each); similar key sets keep the reduction.
        let mut simple: Vec<(Vec<usize>, Vec<TrackKeys>)> = Vec::new();
        let mut clusters: Vec<(Vec<usize>, Vec<TrackKeys>)> = Vec::new();
        let mut own: Vec<(Vec<usize>, TrackKeys)> = tracks
            .into_iter()
            .map(|track| (reduce(&times, std::slice::from_ref(&track), step), track))
            .collect();
        own.sort_by_key(|(kept, _)| std::cmp::Reverse(kept.len()));
        for (kept, track) in own {
            // A track the rest pose reproduces within its quantization budget is not stored
            // (ACL's default tracks): sampling lays the rest pose down under the clip.
            if track.rests_at(&skeleton.rest()[track.joint()], share.budget) {
                dropped = true;
                continue;
            }
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
        for (kept, tracks) in simple {
            plans.push(Plan {
                times: times.clone(),
                step,
                kept,
                tracks,
            });
        }
        for (_, tracks) in clusters {
            let kept = reduce(&times, &tracks, step);
            plans.push(Plan {
                times: times.clone(),
                step,
                kept,
                tracks,
            });
        }
    }
    (plans, dropped)
}

/// `track` with its kept keys replaced by their closed-loop targets (`Compensator`): what puts
/// the joint where the raw clip does under its ancestors as they decode. Scales are kept.
fn compensated(track: &TrackKeys, plan: &Plan, c: &Compensator) -> TrackKeys {
    let j = track.joint();
    let mut out = track.clone();
    match &mut out {
        TrackKeys::Rotation { values, .. } => {
            for &i in &plan.kept {
                values[i] = c.rotation_target(j, plan.times[i], values[i]);
            }
        }
        TrackKeys::Vector {
            scale: false,
            values,
            ..
        } => {
            for &i in &plan.kept {
                values[i] = c.translation_target(j, plan.times[i], values[i]);
            }
        }
        TrackKeys::Vector { .. } => {}
    }
    out
}

/// `clip` compressed at `share`: reduced and clustered (`plans`), each group's kinds packed in
/// the segment length that takes the fewest bytes, and with `closed`, quantized again in closed
/// loop (`closed_loop`) in those lengths.
fn compress_with_share(
    skeleton: &Skeleton,
    clip: &Clip,
    share: Budget,
    (reach, segments, closed): (&Reach, bool, bool),
) -> CompressedClip {
    let frame_secs = frame_grid(clip);
    let (plans, dropped) = plans(skeleton, clip, share, reach);
    let (open, rows): (Vec<CompressedGroup>, Vec<[usize; 3]>) = (plans.iter())
        .map(|plan| pack_group(plan, frame_secs, (share.budget, segments)))
        .unzip();
    let groups = if closed {
        closed_loop(skeleton, clip, (&plans, &rows), frame_secs, share.budget)
    } else {
        open
    };
    CompressedClip {
        name: clip.name().to_string(),
        joint_count: clip.joint_count(),
        duration_secs: clip.duration_secs(),
        frame_secs: frame_secs.unwrap_or(0.0),
        groups,
        covers_all: clip.runtime().covers_all() && !dropped,
        id: next_key_source_id(),
    }
}

/// The groups of `plans` quantized in closed loop (`compensate`): track by track in hierarchy
/// order, each towards its targets under its ancestors as they decode, each kind of a group in
/// the segment length `rows` gives it.
fn closed_loop(
    skeleton: &Skeleton,
    clip: &Clip,
    (plans, rows): (&[Plan], &[[usize; 3]]),
    frame_secs: Option<f32>,
    budget: f32,
) -> Vec<CompressedGroup> {
    let mut order: Vec<(usize, usize, usize)> = (plans.iter().enumerate())
        .flat_map(|(p, plan)| (plan.tracks.iter().enumerate()).map(move |(i, t)| (t.joint(), p, i)))
        .collect();
    order.sort_unstable();
    let mut compensator = Compensator::new(skeleton, clip);
    let mut packings: Vec<Vec<Option<(u32, TrackPacking)>>> = (plans.iter())
        .map(|plan| plan.tracks.iter().map(|_| None).collect())
        .collect();
    for (j, p, i) in order {
        let plan = &plans[p];
        let track = compensated(&plan.tracks[i], plan, &compensator);
        let kind = kind_of(&track);
        let range = kind_range(kind).0;
        let packing = track_packing(&track, &plan.kept, (rows[p][kind], range), budget);
        let times = plan.kept.iter().map(|&k| plan.times[k]).collect();
        if let Some(channel) = decoded_channel(&packing.1, kind, (times, plan.step)) {
            compensator.record(j, channel);
        }
        packings[p][i] = Some(packing);
    }
    (plans.iter().zip(packings).zip(rows))
        .map(|((plan, packings), rows)| {
            let mut lists: [Vec<(u32, TrackPacking)>; 3] = Default::default();
            for (track, packing) in plan.tracks.iter().zip(packings) {
                if let Some(packing) = packing {
                    lists[kind_of(track)].push(packing);
                }
            }
            let [translations, scales, rotations] = lists;
            let kinds = [(translations, 0), (scales, 1), (rotations, 2)]
                .map(|(list, k)| assemble(list, plan.kept.len(), (rows[k], kind_range(k).0)));
            let times = group_times(&plan.times, &plan.kept, frame_secs);
            group_from(times, plan.step, kinds)
        })
        .collect()
}

/// What every track's share is multiplied by while the measured error is over the bound.
const SHRINK: f32 = 0.7;

/// Halvings (in ratio) between the last share over the bound and the first within it.
const HALVINGS: usize = 5;

/// Compresses `clip` for `skeleton` within `settings`, measuring the result. Two splits of the
/// tolerance are tried: half for key reduction, and none (every key kept, all of it for the bit
/// widths: what wins on clips keyed too sparsely to drop keys). Within each, every track's share
/// shrinks by `SHRINK` while the measured error exceeds the tolerance (at most 20 times), then
/// `HALVINGS` halvings between the last two look for a larger one that holds; the smallest clip
/// within the tolerance is kept (else the one closest to it).
pub fn compress_clip(
    skeleton: &Skeleton,
    clip: &Clip,
    settings: &CompressionSettings,
) -> (CompressedClip, CompressionReport) {
    let open_reach = reach(skeleton, &settings.distances);
    let closed_reach = open_reach.closed_for(skeleton, clip, &settings.distances);
    let within = |e: f32| e <= settings.tolerance;
    let attempt = |(reduction, segments, closed): (f32, bool, bool)| {
        let reach = if closed { &closed_reach } else { &open_reach };
        // Each track's keys within its share of the tolerance at the joint's reach, both for
        // reduction and quantization. While the measured error is over, both shares shrink
        // (fewer keys dropped, more bits) and cubic splines are resampled twice as finely.
        let mut share = Budget {
            tolerance: reduction * settings.tolerance,
            budget: settings.tolerance,
            cubic_steps: 8,
        };
        let mut compressed = compress_with_share(skeleton, clip, share, (reach, segments, closed));
        let mut error = measure_error(skeleton, clip, &compressed, &settings.distances);
        for _ in 0..20 {
            if within(error) {
                break;
            }
            share.tolerance *= SHRINK;
            share.budget *= SHRINK;
            share.cubic_steps = (share.cubic_steps * 2).min(256);
            compressed = compress_with_share(skeleton, clip, share, (reach, segments, closed));
            error = measure_error(skeleton, clip, &compressed, &settings.distances);
        }
        // Between the last share over the bound and the first within it: a bisection (in
        // ratio, `HALVINGS` halvings), keeping the smallest clip that holds.
        if within(error) && share.budget < settings.tolerance {
            let (mut held, mut over) = (1.0f32, 1.0 / SHRINK);
            for _ in 0..HALVINGS {
                let mid = (held * over).sqrt();
                let tried_share = Budget {
                    tolerance: share.tolerance * mid,
                    budget: share.budget * mid,
                    ..share
                };
                let tried =
                    compress_with_share(skeleton, clip, tried_share, (reach, segments, closed));
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
        .flat_map(|(r, s)| [(r, s, false), (r, s, true)])
        .map(attempt)
        .min_by(|(a, ea), (b, eb)| match (within(*ea), within(*eb)) {
            (true, true) => a.bytes().cmp(&b.bytes()),
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            (false, false) => ea.total_cmp(eb),
        })
        .unwrap_or_else(|| attempt((0.5, false, false)));
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

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::{CompressedClip, CompressionSettings, compress_clip};
    use crate::{
        Channel, Clip, ClipCursor, Interpolation, JointTrack, LocalPose, Skeleton, Track,
        Transform, sample_compressed,
    };

    fn two_joints() -> Skeleton {
        Skeleton::new(
            vec!["hip".into(), "knee".into()],
            vec![None, Some(0)],
            vec![
                Transform::IDENTITY,
                Transform::from_translation(Vec3::Y * 0.5),
            ],
        )
        .unwrap()
    }

    fn times() -> Vec<f32> {
        (0..31).map(|k| k as f32 / 30.0).collect()
    }

    /// The knee's rotation keyed at 30 Hz for a second from `at(t)`, compressed within 1e-4 at
    /// 10 cm (the bound checked).
    fn knee_compressed(at: impl Fn(f32) -> Quat) -> CompressedClip {
        let knee = times().into_iter().map(at).collect();
        let clip = Clip::new(
            "knee",
            2,
            vec![JointTrack {
                joint: 1,
                channel: Channel::Rotation(
                    Track::new(times(), knee, Interpolation::Linear).unwrap(),
                ),
            }],
            vec![],
        )
        .unwrap();
        let settings = CompressionSettings::uniform(1e-4, 0.1, 2);
        let (packed, report) = compress_clip(&two_joints(), &clip, &settings);
        assert!(report.max_error <= 1e-4, "{}", report.max_error);
        packed
    }

    /// A hip and a knee keyed at 30 Hz for a second by noise-like values (no key drops):
    /// the hip's translation and scale, both joints' rotations (the knee's near half a turn, so
    /// stored in a frame of its own), compressed within 1e-4 at 10 cm.
    fn noisy_compressed() -> CompressedClip {
        // A hash of (k, salt) in [0, 1) (murmur3's finaliser).
        let noise = |k: usize, salt: usize| {
            let mut h = (k * 7919 + salt * 104_729) as u32;
            h ^= h >> 16;
            h = h.wrapping_mul(0x85eb_ca6b);
            h ^= h >> 13;
            h = h.wrapping_mul(0xc2b2_ae35);
            h ^= h >> 16;
            h as f32 / 4_294_967_296.0
        };
        let keys = |f: &dyn Fn(usize) -> Vec3| (0..times().len()).map(f).collect();
        let vectors =
            |values: Vec<Vec3>| Track::new(times(), values, Interpolation::Linear).unwrap();
        let rotations = |axis: Vec3, base: f32, salt: usize| {
            let values = (0..times().len())
                .map(|k| Quat::from_axis_angle(axis, base + noise(k, salt)))
                .collect();
            Track::new(times(), values, Interpolation::Linear).unwrap()
        };
        let track = |joint: usize, channel: Channel| JointTrack { joint, channel };
        let clip = Clip::new(
            "noisy",
            2,
            vec![
                track(
                    0,
                    Channel::Translation(vectors(keys(&|k| {
                        Vec3::new(noise(k, 1), 1.0, noise(k, 2))
                    }))),
                ),
                track(
                    0,
                    Channel::Scale(vectors(keys(&|k| Vec3::splat(1.0 + 0.1 * noise(k, 3))))),
                ),
                track(0, Channel::Rotation(rotations(Vec3::Y, 0.0, 4))),
                track(1, Channel::Rotation(rotations(Vec3::X, 2.8, 5))),
            ],
            vec![],
        )
        .unwrap();
        let settings = CompressionSettings::uniform(1e-4, 0.1, 2);
        let (packed, report) = compress_clip(&two_joints(), &clip, &settings);
        assert!(report.max_error <= 1e-4, "{}", report.max_error);
        let framed = packed.groups.iter().map(|g| g.rotations.frames.len());
        assert_eq!(framed.sum::<usize>(), 1, "the knee's rotation in a frame");
        packed
    }

    #[test]
    fn a_context_samples_what_a_fresh_one_does_and_decodes_a_row_a_key_either_way() {
        let packed = noisy_compressed();
        let skeleton = two_joints();
        let (mut cursor, mut pose, mut fresh_pose) = (
            ClipCursor::for_compressed(&packed),
            LocalPose::rest(&skeleton),
            LocalPose::rest(&skeleton),
        );
        // Forward at 60 Hz (a key every other frame), the same times backward, then jumps.
        let forward: Vec<f32> = (0..=60).map(|k| k as f32 / 60.0).collect();
        let backward: Vec<f32> = forward.iter().rev().copied().collect();
        let jumps = [0.7, 0.1, 0.55, 0.56, 0.2, 1.3, -0.2];
        let mut decoded = Vec::new();
        for sweep in [&forward[..], &backward[..], &jumps[..]] {
            let before = cursor.rows_decoded();
            for &t in sweep {
                sample_compressed(&skeleton, &packed, t, &mut cursor, &mut pose).unwrap();
                let mut fresh = ClipCursor::for_compressed(&packed);
                sample_compressed(&skeleton, &packed, t, &mut fresh, &mut fresh_pose).unwrap();
                for (got, want) in pose.as_slice().iter().zip(fresh_pose.as_slice()) {
                    // The same values to the bit; a rotation may come back as its negation (the
                    // start row keeps the sign a past interval gave it), also to the bit.
                    assert_eq!(got.translation, want.translation, "t={t}");
                    assert_eq!(got.scale, want.scale, "t={t}");
                    assert!(
                        got.rotation == want.rotation || got.rotation == -want.rotation,
                        "t={t}: {} against {}",
                        got.rotation,
                        want.rotation
                    );
                }
            }
            decoded.push(cursor.rows_decoded() - before);
        }
        // Every key is kept: 31 rows a group. Forward: 0 holds the first key (two rows), each
        // of the 30 intervals then decodes one (it keeps the row it shares with the last), and
        // 1 s holds the last key (two): 34. Backward from there: one for each interval again,
        // and two where 0 holds the first key: 32.
        let groups = packed.groups.len() as u64;
        let rows: Vec<usize> = packed.groups.iter().map(|g| g.times.len()).collect();
        assert!(rows.iter().all(|&r| r == 31), "{rows:?}");
        assert_eq!(decoded[0], groups * (2 + 30 + 2), "forward");
        assert_eq!(decoded[1], groups * (30 + 2), "backward");
        // A jump to an interval that shares no row with the last decodes two; 0.56 after 0.55
        // (the same interval) none.
        assert_eq!(decoded[2], groups * 2 * 6, "jumps");
    }

    #[test]
    fn a_rotation_near_half_a_turn_is_stored_relative_to_its_mean() {
        // The knee turned 180 degrees about x, give or take 0.3 rad: w stays under 0.15, where
        // rebuilding it from x, y and z would take 19-bit keys or floats.
        let packed = knee_compressed(|t| {
            Quat::from_rotation_x(std::f32::consts::PI - 0.3 * (3.0 * t).sin())
        });
        let rotations = &packed.groups[0].rotations;
        assert_eq!(rotations.f_rows.len(), 0, "no float keys");
        assert_eq!(rotations.frames.len(), 1);
        // Relative to its mean the knee turns 0.3 rad either way about x: y and z hold still,
        // so a key takes x's bits alone (at most 12: 0.3 rad in steps of 1e-4 / 0.1 rad).
        assert!(
            rotations.packed.parts[0].row_bits <= 12,
            "{}",
            rotations.packed.parts[0].row_bits
        );
    }

    #[test]
    fn a_swing_about_an_oblique_axis_is_stored_in_the_frame_of_that_axis() {
        // The knee swings 0.6 rad either way about (1, 2, 2) / 3: x, y and z of its quaternion
        // all move, in the same proportions; turned onto that axis, one component moves.
        let axis = Vec3::new(1.0, 2.0, 2.0) / 3.0;
        let packed = knee_compressed(|t| Quat::from_axis_angle(axis, 0.6 * (3.0 * t).sin()));
        let rotations = &packed.groups[0].rotations;
        assert_eq!(rotations.frames.len(), 1);
        let (_, right) = rotations.frames[0];
        assert_ne!(right, Quat::IDENTITY, "turned onto the axis");
        // Its principal axis is the swing's: conjugating by `right⁻¹` turns (1, 2, 2) / 3 onto x.
        let onto = right * axis;
        assert!(onto.x.abs() > 0.999, "{onto}");
        // y and z come back within the frame's 16-bit rounding: far fewer bits than x.
        let widths = rotations.packed.parts[0].row_bits;
        assert!(widths <= 13 + 2 * 3, "{widths}");
    }

    #[test]
    fn tracks_the_rest_pose_reproduces_are_not_stored() {
        let hip = times()
            .iter()
            .map(|&t| Quat::from_rotation_z(0.3 * (3.0 * t).sin()))
            .collect();
        let held = |v: Vec3| Track::new(times(), vec![v; 31], Interpolation::Linear).unwrap();
        let clip = Clip::new(
            "held",
            2,
            vec![
                JointTrack {
                    joint: 0,
                    channel: Channel::Rotation(
                        Track::new(times(), hip, Interpolation::Linear).unwrap(),
                    ),
                },
                JointTrack {
                    joint: 1,
                    channel: Channel::Translation(held(Vec3::Y * 0.5)),
                },
                JointTrack {
                    joint: 1,
                    channel: Channel::Scale(held(Vec3::ONE)),
                },
            ],
            vec![],
        )
        .unwrap();
        let skeleton = two_joints();
        let settings = CompressionSettings::uniform(1e-4, 0.1, 2);
        let (packed, report) = compress_clip(&skeleton, &clip, &settings);
        assert!(report.max_error <= 1e-4, "{}", report.max_error);
        let stored: usize = packed.groups.iter().map(|g| g.track_count()).sum();
        assert_eq!(stored, 1, "the hip's rotation alone");
        assert!(!packed.covers_all());
        // Sampled over a pose that holds something else there, the knee comes back at rest.
        let mut pose = LocalPose::rest(&skeleton);
        pose.as_mut_slice()[1].translation = Vec3::X;
        let mut cursor = ClipCursor::for_compressed(&packed);
        sample_compressed(&skeleton, &packed, 0.5, &mut cursor, &mut pose).unwrap();
        assert_eq!(pose.as_slice()[1], skeleton.rest()[1]);
    }
}
