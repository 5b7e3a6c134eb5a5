//! The compressed clip's format and its runtime sampling (ozz-animation splits its offline
//! building from its runtime the same way): quantized key rows per cluster of tracks, and the
//! per-cluster decoding cursor a sampling context keeps (`ClipCursor::for_compressed`). Building
//! a compressed clip is `compress.rs`; measuring its error is `compress_error.rs`.
//!
//! Key times are 16-bit frame numbers when the clip is keyed on a frame grid (exporters' clips
//! are), else f32 seconds. Rotations are the three smallest components in 16 bits each plus the
//! index of the largest (8 bytes a key); translations and scales 16-bit fractions of the track's
//! range, or floats where 16-bit steps would show.

use glam::{Quat, Vec3, Vec4};

use super::sample::locate_key;

/// Key times: frame numbers on the clip's frame grid (`CompressedClip::frame_secs`), or seconds
/// where the clip has no grid.
#[derive(Clone, Debug)]
pub(super) enum Times {
    Frames(Vec<u16>),
    Seconds(Vec<f32>),
}

impl Times {
    pub(super) fn len(&self) -> usize {
        match self {
            Times::Frames(f) => f.len(),
            Times::Seconds(s) => s.len(),
        }
    }

    pub(super) fn bytes(&self) -> usize {
        match self {
            Times::Frames(f) => f.len() * 2,
            Times::Seconds(s) => s.len() * 4,
        }
    }

    pub(super) fn at(&self, i: usize, frame_secs: f32) -> f32 {
        match self {
            Times::Frames(f) => f32::from(f[i]) * frame_secs,
            Times::Seconds(s) => s[i],
        }
    }
}

/// The translation or scale tracks of a group, key-major: each row holds the 16-bit tracks (a
/// fraction of each track's range) then the float ones.
#[derive(Clone, Debug, Default)]
pub(super) struct VectorTracks {
    /// The 16-bit tracks' joints, then the float tracks'.
    pub(super) joints: Vec<u32>,
    pub(super) quantized: usize,
    pub(super) min: Vec<Vec3>,
    pub(super) extent: Vec<Vec3>,
    pub(super) q_rows: Vec<[u16; 3]>,
    pub(super) f_rows: Vec<Vec3>,
}

/// The rotation tracks of a group, key-major: smallest-three 16-bit tracks, then float ones.
#[derive(Clone, Debug, Default)]
pub(super) struct RotationTracks {
    pub(super) joints: Vec<u32>,
    pub(super) quantized: usize,
    pub(super) q_rows: Vec<[u16; 4]>,
    pub(super) f_rows: Vec<Quat>,
}

/// Tracks of one clip that share their (reduced) key times, stored key-major: the keys a sample
/// needs sit side by side, in the order they are needed.
#[derive(Clone, Debug)]
pub(super) struct CompressedGroup {
    pub(super) times: Times,
    pub(super) step: bool,
    pub(super) translations: VectorTracks,
    pub(super) scales: VectorTracks,
    pub(super) rotations: RotationTracks,
}

/// Bytes of a group's header (key count, interpolation, track counts: 8) and of each track's
/// (joint, kind and precision: 4); 16-bit vector tracks add their range (24).
pub(super) const GROUP_HEADER_BYTES: usize = 8;
pub(super) const TRACK_HEADER_BYTES: usize = 4;
pub(super) const RANGE_BYTES: usize = 24;

impl CompressedGroup {
    pub(super) fn bytes(&self) -> usize {
        let vectors = |v: &VectorTracks| {
            v.joints.len() * TRACK_HEADER_BYTES
                + v.quantized * RANGE_BYTES
                + v.q_rows.len() * 6
                + v.f_rows.len() * 12
        };
        let r = &self.rotations;
        GROUP_HEADER_BYTES
            + self.times.bytes()
            + vectors(&self.translations)
            + vectors(&self.scales)
            + r.joints.len() * TRACK_HEADER_BYTES
            + r.q_rows.len() * 8
            + r.f_rows.len() * 16
    }

    pub(super) fn track_count(&self) -> usize {
        self.translations.joints.len() + self.scales.joints.len() + self.rotations.joints.len()
    }
}

/// A clip stored as quantized, reduced keys; sampled with `sample_compressed`.
#[derive(Clone, Debug)]
pub struct CompressedClip {
    pub(super) name: String,
    pub(super) joint_count: usize,
    pub(super) duration_secs: f32,
    /// Seconds per frame of the grid every key time lies on (0 without one).
    pub(super) frame_secs: f32,
    pub(super) groups: Vec<CompressedGroup>,
    /// Whether the clip drives every property of every joint.
    pub(super) covers_all: bool,
    pub(super) id: u64,
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
        self.groups.iter().map(CompressedGroup::bytes).sum()
    }

    /// Keys kept over all tracks.
    pub fn key_count(&self) -> usize {
        self.groups
            .iter()
            .map(|g| g.times.len() * g.track_count())
            .sum()
    }

    /// Whether key times are stored as 16-bit frame numbers (the clip is keyed on a frame grid).
    pub fn on_frame_grid(&self) -> bool {
        self.frame_secs > 0.0
    }
}

pub(super) const Q16: f32 = 65535.0;
pub(super) const INV_SQRT2: f32 = std::f32::consts::FRAC_1_SQRT_2;

pub(super) fn quantize_unit(x: f32) -> u16 {
    (x.clamp(0.0, 1.0) * Q16).round() as u16
}

pub(super) fn quantize_rotation(q: Quat) -> [u16; 4] {
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

pub(super) fn dequantize_rotation(key: [u16; 4]) -> Quat {
    let c = |k: u16| (f32::from(k) * (2.0 / Q16) - 1.0) * INV_SQRT2;
    let (a, b, d) = (c(key[0]), c(key[1]), c(key[2]));
    // The largest component from unit length (the sampler renormalises what rounding leaves).
    let w = (1.0 - a * a - b * b - d * d).max(0.0).sqrt();
    let (x, y, z, s) = match key[3] & 3 {
        0 => (w, a, b, d),
        1 => (a, w, b, d),
        2 => (a, b, w, d),
        _ => (a, b, d, w),
    };
    Quat::from_xyzw(x, y, z, s)
}

pub(super) fn dequantize_vector(min: Vec3, extent: Vec3, key: [u16; 3]) -> Vec3 {
    // A product, not a division per component: decoding is most of a compressed clip's cost.
    min + extent
        * (Vec3::new(f32::from(key[0]), f32::from(key[1]), f32::from(key[2])) * (1.0 / Q16))
}

impl CompressedClip {
    pub(crate) fn source_id(&self) -> u64 {
        self.id
    }

    pub(crate) fn covers_all(&self) -> bool {
        self.covers_all
    }

    pub(crate) fn group_count(&self) -> usize {
        self.groups.len()
    }

    /// Samples group `g` at `t` into `pose`, decoding into `cursor` only the rows it lacks.
    pub(crate) fn sample_group(
        &self,
        g: usize,
        t: f32,
        cursor: &mut GroupCursor,
        pose: &mut [super::Transform],
    ) {
        let group = &self.groups[g];
        let times = &group.times;
        let at = locate_key(
            times.len(),
            |i| times.at(i, self.frame_secs),
            t,
            &mut cursor.hint,
            None,
        );
        let i = at.i as usize;
        let (next, u) = if at.hold || group.step {
            (i, 0.0)
        } else {
            (i + 1, at.u)
        };
        cursor.decode(group, i, next);
        super::runtime::Rows {
            translation_joints: &group.translations.joints,
            translations: (&cursor.translations[0], &cursor.translations[1]),
            scale_joints: &group.scales.joints,
            scales: (&cursor.scales[0], &cursor.scales[1]),
            rotation_joints: &group.rotations.joints,
            rotations: &cursor.rotations[0],
            theta: &cursor.theta,
            perp: &cursor.perp,
        }
        .interpolate(u, next != i, pose);
    }
}

/// One group's decoded rows in a sampling context: rows `rows.0` and `rows.1` of the group, as
/// `Rows` reads them, with the interval's arcs worked out when the rows are decoded (the raw
/// clip's are worked out at load), so a frame between the same keys costs what a raw clip's
/// does. Moving on by one interval decodes one row; anything else decodes both.
#[derive(Clone, Debug)]
pub(crate) struct GroupCursor {
    /// The decoded rows (`usize::MAX` before the first sample).
    pub(super) rows: (usize, usize),
    /// The interval the last sample fell in (`locate_key`'s hint).
    pub(super) hint: u32,
    pub(super) translations: [Vec<Vec3>; 2],
    pub(super) scales: [Vec<Vec3>; 2],
    /// Unit quaternions (to rounding); the end row in the start row's hemisphere.
    pub(super) rotations: [Vec<Vec4>; 2],
    /// Per rotation track, the arc from the start row to the end row (`runtime::arcs`).
    pub(super) theta: Vec<f32>,
    pub(super) perp: Vec<Vec4>,
}

impl GroupCursor {
    pub(crate) fn new(clip: &CompressedClip, g: usize) -> Self {
        let group = &clip.groups[g];
        let (t, s, r) = (
            group.translations.joints.len(),
            group.scales.joints.len(),
            group.rotations.joints.len(),
        );
        Self {
            rows: (usize::MAX, usize::MAX),
            hint: 0,
            translations: [vec![Vec3::ZERO; t], vec![Vec3::ZERO; t]],
            scales: [vec![Vec3::ONE; s], vec![Vec3::ONE; s]],
            rotations: [vec![Vec4::W; r], vec![Vec4::W; r]],
            theta: vec![0.0; r],
            perp: vec![Vec4::ZERO; r],
        }
    }

    pub(super) fn decode(&mut self, group: &CompressedGroup, i: usize, next: usize) {
        if self.rows == (i, next) {
            return;
        }
        if self.rows.1 == i && next == i + 1 {
            // Forward by one interval: the end row becomes the start row.
            self.translations.swap(0, 1);
            self.scales.swap(0, 1);
            self.rotations.swap(0, 1);
        } else {
            self.decode_row(group, i, 0);
        }
        self.decode_row(group, next, 1);
        // The end row in the start row's hemisphere, and the interval's arcs.
        let [a, b] = &mut self.rotations;
        super::runtime::arcs(a, b, &mut self.theta, &mut self.perp);
        self.rows = (i, next);
    }

    pub(super) fn decode_row(&mut self, group: &CompressedGroup, row: usize, into: usize) {
        let vectors = |v: &VectorTracks, out: &mut Vec<Vec3>| {
            let (q, f) = (v.quantized, v.joints.len() - v.quantized);
            let q_row = &v.q_rows[row * q..row * q + q];
            for (((o, key), min), extent) in out.iter_mut().zip(q_row).zip(&v.min).zip(&v.extent) {
                *o = dequantize_vector(*min, *extent, *key);
            }
            out[q..].copy_from_slice(&v.f_rows[row * f..row * f + f]);
        };
        vectors(&group.translations, &mut self.translations[into]);
        vectors(&group.scales, &mut self.scales[into]);
        let r = &group.rotations;
        let (q, f) = (r.quantized, r.joints.len() - r.quantized);
        let out = &mut self.rotations[into];
        for (o, key) in out.iter_mut().zip(&r.q_rows[row * q..row * q + q]) {
            *o = Vec4::from(dequantize_rotation(*key));
        }
        for (o, key) in out[q..].iter_mut().zip(&r.f_rows[row * f..row * f + f]) {
            *o = Vec4::from(*key);
        }
        // Both unit length, as the arcs need: float keys are stored normalised, and a quantized
        // key's largest component is what makes it unit.
    }
}
