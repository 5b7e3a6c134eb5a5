//! The runtime layout of a raw clip, built once by `Clip::new`: what the sampler reads each frame.
//!
//! Tracks that share their key times and interpolation (glTF samplers often share an input, and
//! exported clips key every joint alike) form a group. A group's keys are stored key-major and
//! structure-of-arrays: for key `i`, the values of all its translation tracks side by side, then
//! (in their own arrays) all its rotations and all its scales. Sampling a group locates the time
//! once and then streams two rows of each array, in the order they are needed, with no per-track
//! branch. Rotations are stored normalised and sign-continuous (each key in the previous key's
//! hemisphere, the same rotation), with each interval's arc worked out once, in f64: its angle
//! `theta` and the unit quaternion `perp` orthogonal to the start key in the plane of the two, so
//! that the slerp is `start cos(u theta) + perp sin(u theta)` exactly: per frame, a sine and a
//! cosine polynomial for four tracks per SIMD register and no renormalisation. CUBICSPLINE tracks
//! (rare) keep the per-track sampler.

use glam::{Quat, Vec3, Vec4};

use super::sample::{eberly, locate_key};
use super::{Channel, Interpolation, JointTrack, Transform};

/// Tracks sharing key times and interpolation.
#[derive(Clone, Debug)]
struct KeyGroup {
    times: Vec<f32>,
    /// Keys per second on average: `(times.len() - 1) / (last - first)`.
    inv_mean_step: f32,
    step: bool,
    translation_joints: Vec<u32>,
    /// `times.len()` rows of `translation_joints.len()` values.
    translations: Vec<Vec3>,
    scale_joints: Vec<u32>,
    scales: Vec<Vec3>,
    rotation_joints: Vec<u32>,
    /// `times.len()` rows of `rotation_joints.len()` unit quaternions, sign-continuous.
    rotations: Vec<Vec4>,
    /// Per interval (`times.len() - 1` rows), per rotation track: the arc from key i to key
    /// i + 1 (its angle in 4D, at most pi/2, and the unit quaternion orthogonal to key i).
    rotation_theta: Vec<f32>,
    rotation_perp: Vec<Vec4>,
}

/// Where a group's time falls: row `i`, and `u` of the way to row `next`.
struct Row {
    i: usize,
    next: usize,
    u: f32,
    /// Between two keys with LINEAR interpolation (not held, not STEP).
    interpolating: bool,
}

impl KeyGroup {
    /// Where `t` falls: `locate_key` with a first guess from the mean key spacing (right at once
    /// for the evenly keyed clips exporters write, wherever the playhead jumped).
    fn locate(&self, t: f32, hint: &mut u32) -> Row {
        let times = &self.times;
        // A saturating cast: out-of-range guesses fail locate_key's check.
        let guess = ((t - times[0]) * self.inv_mean_step) as usize;
        let at = locate_key(times.len(), |i| times[i], t, hint, Some(guess));
        let i = at.i as usize;
        if at.hold || self.step {
            return Row {
                i,
                next: i,
                u: 0.0,
                interpolating: false,
            };
        }
        Row {
            i,
            next: i + 1,
            u: at.u,
            interpolating: true,
        }
    }

    fn sample(&self, t: f32, hint: &mut u32, pose: &mut [Transform]) {
        let row = self.locate(t, hint);
        fn rows<'a, T>(keys: &'a [T], n: usize, row: &Row) -> (&'a [T], &'a [T]) {
            (
                &keys[row.i * n..row.i * n + n],
                &keys[row.next * n..row.next * n + n],
            )
        }
        let (n_t, n_s, n_r) = (
            self.translation_joints.len(),
            self.scale_joints.len(),
            self.rotation_joints.len(),
        );
        let interval = row.i.min(self.times.len().saturating_sub(2));
        Rows {
            translation_joints: &self.translation_joints,
            translations: rows(&self.translations, n_t, &row),
            scale_joints: &self.scale_joints,
            scales: rows(&self.scales, n_s, &row),
            rotation_joints: &self.rotation_joints,
            rotations: rows(&self.rotations, n_r, &row),
            slerp: Slerp::Arc {
                theta: self
                    .rotation_theta
                    .get(interval * n_r..interval * n_r + n_r)
                    .unwrap_or(&[]),
                perp: self
                    .rotation_perp
                    .get(interval * n_r..interval * n_r + n_r)
                    .unwrap_or(&[]),
            },
        }
        .interpolate(row.u, row.interpolating, pose);
    }
}

/// Two rows of a group's keys, ready to interpolate: per kind, the joints and the values at the
/// interval's start and end (rotations sign-continuous, with their squared lengths, the
/// interval's `dot - 1` per track and the slerp terms it needs). Raw groups lend their stored
/// rows; compressed groups their decoded ones.
pub(crate) struct Rows<'a> {
    pub translation_joints: &'a [u32],
    pub translations: (&'a [Vec3], &'a [Vec3]),
    pub scale_joints: &'a [u32],
    pub scales: (&'a [Vec3], &'a [Vec3]),
    pub rotation_joints: &'a [u32],
    pub rotations: (&'a [Vec4], &'a [Vec4]),
    pub slerp: Slerp<'a>,
}

/// How a `Rows` slerps its rotations.
pub(crate) enum Slerp<'a> {
    /// Eberly's series from the two rows (decoded compressed rows): each track's `dot - 1`, the
    /// terms the widest step needs and the keys' squared lengths, to renormalise.
    Series {
        norm2: (&'a [f32], &'a [f32]),
        xm1: &'a [f32],
        terms: usize,
    },
    /// Each track's arc, worked out once (raw rows): `start cos(u theta) + perp sin(u theta)`.
    Arc { theta: &'a [f32], perp: &'a [Vec4] },
}

impl Rows<'_> {
    /// Writes `start * (1 - u) + end * u` into `pose` (slerp for rotations); the start row alone
    /// when not `interpolating` (a held key, STEP).
    pub fn interpolate(&self, u: f32, interpolating: bool, pose: &mut [Transform]) {
        let v = 1.0 - u;
        let lerp_into =
            |joints: &[u32], (a, b): (&[Vec3], &[Vec3]), pose: &mut [Transform], scale: bool| {
                for ((&j, &a), &b) in joints.iter().zip(a).zip(b) {
                    // glam's lerp, as the track sampler computes it.
                    let value = a * v + b * u;
                    let target = &mut pose[j as usize];
                    if scale {
                        target.scale = value;
                    } else {
                        target.translation = value;
                    }
                }
            };
        lerp_into(self.translation_joints, self.translations, pose, false);
        lerp_into(self.scale_joints, self.scales, pose, true);

        let (a, b) = self.rotations;
        if !interpolating {
            // Held or STEP: the key itself.
            for (&j, &q) in self.rotation_joints.iter().zip(a) {
                pose[j as usize].rotation = Quat::from_vec4(q);
            }
            return;
        }
        // Up to four values in lanes (a whole block without a memcpy call).
        let lanes = |x: &[f32], pad: f32| match x {
            &[a, b, c, d] => Vec4::new(a, b, c, d),
            _ => {
                let mut l = [pad; 4];
                for (l, &x) in l.iter_mut().zip(x) {
                    *l = x;
                }
                Vec4::from(l)
            }
        };
        match &self.slerp {
            Slerp::Arc { theta, perp } => {
                for (k, joints) in self.rotation_joints.chunks(4).enumerate() {
                    let r = k * 4..k * 4 + joints.len();
                    let (sin, cos) = sin_cos(lanes(&theta[r.clone()], 0.0) * u);
                    let (sin, cos) = (sin.to_array(), cos.to_array());
                    for (lane, ((&j, &a), &p)) in
                        joints.iter().zip(&a[r.clone()]).zip(&perp[r]).enumerate()
                    {
                        pose[j as usize].rotation = Quat::from_vec4(a * cos[lane] + p * sin[lane]);
                    }
                }
            }
            Slerp::Series { norm2, xm1, terms } => {
                let (na, nb) = *norm2;
                let (ua, ub) = (Vec4::splat(v), Vec4::splat(u));
                for (k, joints) in self.rotation_joints.chunks(4).enumerate() {
                    let r = k * 4..k * 4 + joints.len();
                    let x = lanes(&xm1[r.clone()], 0.0);
                    let wa = eberly(ua, x, *terms);
                    let wb = eberly(ub, x, *terms);
                    // |a wa + b wb|^2 from the keys' lengths and dot, four tracks at once: the
                    // slerp renormalised without a per-quaternion length.
                    let dot = x + Vec4::ONE;
                    let norm2 = wa * wa * lanes(&na[r.clone()], 1.0)
                        + wb * wb * lanes(&nb[r.clone()], 1.0)
                        + 2.0 * wa * wb * dot;
                    let inv = Vec4::ONE / norm2.max(Vec4::splat(f32::MIN_POSITIVE)).sqrt();
                    let (wa, wb) = ((wa * inv).to_array(), (wb * inv).to_array());
                    for (lane, ((&j, &a), &b)) in
                        joints.iter().zip(&a[r.clone()]).zip(&b[r]).enumerate()
                    {
                        pose[j as usize].rotation = Quat::from_vec4(a * wa[lane] + b * wb[lane]);
                    }
                }
            }
        }
    }
}

/// Sine and cosine of each lane, for angles in [0, pi/2] (a slerp's `u theta`): Taylor series to
/// x^11 and x^12, whose dropped terms stay under 6e-8 there.
#[inline(always)]
fn sin_cos(x: Vec4) -> (Vec4, Vec4) {
    let x2 = x * x;
    let s = Vec4::splat(-1.0 / 39_916_800.0);
    let s = s * x2 + Vec4::splat(1.0 / 362_880.0);
    let s = s * x2 + Vec4::splat(-1.0 / 5_040.0);
    let s = s * x2 + Vec4::splat(1.0 / 120.0);
    let s = s * x2 + Vec4::splat(-1.0 / 6.0);
    let s = (s * x2 + Vec4::ONE) * x;
    let c = Vec4::splat(1.0 / 479_001_600.0);
    let c = c * x2 + Vec4::splat(-1.0 / 3_628_800.0);
    let c = c * x2 + Vec4::splat(1.0 / 40_320.0);
    let c = c * x2 + Vec4::splat(-1.0 / 720.0);
    let c = c * x2 + Vec4::splat(1.0 / 24.0);
    let c = c * x2 + Vec4::splat(-0.5);
    let c = c * x2 + Vec4::ONE;
    (s, c)
}

/// A raw clip's key groups, plus its CUBICSPLINE tracks (indices into the clip's tracks).
#[derive(Clone, Debug)]
pub(crate) struct RuntimeClip {
    groups: Vec<KeyGroup>,
    cubic: Vec<u32>,
    /// Whether the clip drives every property of every joint (no rest pose to lay down first).
    covers_all: bool,
}

impl RuntimeClip {
    /// Lays out `tracks` (validated by `Clip::new`) for a skeleton of `joint_count` joints.
    pub fn new(tracks: &[JointTrack], joint_count: usize) -> Self {
        let mut groups: Vec<KeyGroup> = Vec::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        let mut cubic = Vec::new();
        let mut driven = vec![[false; 3]; joint_count];
        for (k, jt) in tracks.iter().enumerate() {
            if let Some(d) = driven.get_mut(jt.joint) {
                d[jt.channel.property() as usize] = true;
            }
            let interpolation = jt.channel.interpolation();
            if interpolation == Interpolation::CubicSpline {
                cubic.push(k as u32);
                continue;
            }
            let step = interpolation == Interpolation::Step;
            let times = jt.channel.times();
            let found = groups
                .iter()
                .position(|g| g.step == step && g.times.len() == times.len() && g.times == times);
            let g = found.unwrap_or_else(|| {
                let span = times[times.len() - 1] - times[0];
                groups.push(KeyGroup {
                    inv_mean_step: if span > 0.0 {
                        (times.len() - 1) as f32 / span
                    } else {
                        0.0
                    },
                    times: times.to_vec(),
                    step,
                    translation_joints: Vec::new(),
                    translations: Vec::new(),
                    scale_joints: Vec::new(),
                    scales: Vec::new(),
                    rotation_joints: Vec::new(),
                    rotations: Vec::new(),
                    rotation_theta: Vec::new(),
                    rotation_perp: Vec::new(),
                });
                members.push(Vec::new());
                groups.len() - 1
            });
            members[g].push(k);
        }
        for (group, members) in groups.iter_mut().zip(&members) {
            group.fill(tracks, members);
        }
        Self {
            groups,
            cubic,
            covers_all: driven.iter().all(|d| d.iter().all(|&x| x)),
        }
    }

    /// Hints the sampler keeps: one per group, then one per cubic track.
    pub fn hint_count(&self) -> usize {
        self.groups.len() + self.cubic.len()
    }

    pub fn covers_all(&self) -> bool {
        self.covers_all
    }

    /// Samples every group at `t` into `pose`; cubic tracks are left to the caller
    /// (`cubic_tracks`), with `hints[groups..]`.
    pub fn sample_groups(&self, t: f32, hints: &mut [u32], pose: &mut [Transform]) {
        for (group, hint) in self.groups.iter().zip(hints.iter_mut()) {
            group.sample(t, hint, pose);
        }
    }

    /// The clip's CUBICSPLINE tracks, each with its hint.
    pub fn cubic_tracks<'h>(
        &self,
        hints: &'h mut [u32],
    ) -> impl Iterator<Item = (usize, &'h mut u32)> + use<'_, 'h> {
        let skip = self.groups.len();
        self.cubic
            .iter()
            .map(|&k| k as usize)
            .zip(hints.iter_mut().skip(skip))
    }
}

impl KeyGroup {
    fn fill(&mut self, tracks: &[JointTrack], members: &[usize]) {
        let n_keys = self.times.len();
        let of = |want: fn(&Channel) -> bool| -> Vec<&JointTrack> {
            members
                .iter()
                .map(|&k| &tracks[k])
                .filter(|jt| want(&jt.channel))
                .collect()
        };
        let translations = of(|c| matches!(c, Channel::Translation(_)));
        let scales = of(|c| matches!(c, Channel::Scale(_)));
        let rotations = of(|c| matches!(c, Channel::Rotation(_)));
        self.translation_joints = translations.iter().map(|jt| jt.joint as u32).collect();
        self.scale_joints = scales.iter().map(|jt| jt.joint as u32).collect();
        self.rotation_joints = rotations.iter().map(|jt| jt.joint as u32).collect();
        let vector_rows = |list: &[&JointTrack]| -> Vec<Vec3> {
            (0..n_keys)
                .flat_map(|i| {
                    list.iter().map(move |jt| match &jt.channel {
                        Channel::Translation(t) | Channel::Scale(t) => t.values()[i],
                        Channel::Rotation(_) => Vec3::ZERO,
                    })
                })
                .collect()
        };
        self.translations = vector_rows(&translations);
        self.scales = vector_rows(&scales);
        // Rotations normalised, each key flipped into the previous (flipped) key's hemisphere.
        let n = rotations.len();
        let mut rows = vec![Vec4::W; n_keys * n];
        for (k, jt) in rotations.iter().enumerate() {
            let Channel::Rotation(track) = &jt.channel else {
                continue;
            };
            let mut previous: Option<Vec4> = None;
            for i in 0..n_keys {
                let q = Vec4::from(track.values()[i]).normalize();
                let q = match previous {
                    Some(p) if p.dot(q) < 0.0 => -q,
                    _ => q,
                };
                rows[i * n + k] = q;
                previous = Some(q);
            }
        }
        // Each interval's arc, in f64.
        let intervals = n_keys.saturating_sub(1);
        self.rotation_theta = vec![0.0; intervals * n];
        self.rotation_perp = vec![Vec4::ZERO; intervals * n];
        for i in 0..intervals {
            for k in 0..n {
                let (a, b) = (rows[i * n + k].as_dvec4(), rows[(i + 1) * n + k].as_dvec4());
                // Half-angle form: accurate for small and large steps alike.
                let theta = 2.0 * (a - b).length().atan2((a + b).length());
                let perp = b - a * theta.cos();
                let len = perp.length();
                self.rotation_theta[i * n + k] = theta as f32;
                if len > 1e-12 {
                    self.rotation_perp[i * n + k] = (perp / len).as_vec4();
                }
            }
        }
        self.rotations = rows;
    }
}
