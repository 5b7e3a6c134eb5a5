//! The runtime layout of a raw clip, built once by `Clip::new`: what the sampler reads each frame.
//!
//! Tracks that share their key times and interpolation (glTF samplers often share an input, and
//! exported clips key every joint alike) form a group. A group's keys are stored key-major and
//! structure-of-arrays: for key `i`, the values of all its translation tracks side by side, then
//! (in their own arrays) all its rotations and all its scales. Sampling a group locates the time
//! once and then streams two rows of each array, in the order they are needed, with no per-track
//! branch. Rotations are stored sign-continuous (each key in the previous key's hemisphere, the
//! same rotation) with each interval's `cos(theta) - 1` and the number of slerp terms it needs, so
//! the per-frame slerp is Eberly's polynomial, four tracks per SIMD register, then a normalise.
//! CUBICSPLINE tracks (rare) keep the per-track sampler.

use glam::{Quat, Vec3, Vec4};

use super::sample::{eberly, slerp_terms};
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
    /// Squared length of each key in `rotations` (1 but for rounding in the file).
    rotation_norm2: Vec<f32>,
    /// Per interval (`times.len() - 1` rows), per rotation track: `dot(q_i, q_i+1) - 1`.
    rotation_xm1: Vec<f32>,
    /// Per interval: the slerp terms the group's widest rotation step needs.
    rotation_terms: Vec<u8>,
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
    /// Largest `i` with `times[i] <= t`, given `times[0] < t < times[last]`: first a guess from
    /// the mean key spacing (right at once for the evenly keyed clips exporters write, wherever
    /// the playhead jumped), then the hint and the interval after it (forward playback), then a
    /// binary search.
    #[inline]
    fn interval(&self, t: f32, hint: usize) -> usize {
        let times = &self.times;
        let last = times.len() - 1;
        let inside = |i: usize| i < last && times[i] <= t && t < times[i + 1];
        let guess = (((t - times[0]) * self.inv_mean_step) as usize).min(last - 1);
        if inside(guess) {
            guess
        } else if inside(hint) {
            hint
        } else if inside(hint + 1) {
            hint + 1
        } else {
            times.partition_point(|&k| k <= t) - 1
        }
    }

    fn locate(&self, t: f32, hint: &mut u32) -> Row {
        let times = &self.times;
        let last = times.len() - 1;
        let hold = |i: usize| Row {
            i,
            next: i,
            u: 0.0,
            interpolating: false,
        };
        if t.is_nan() || t <= times[0] {
            *hint = 0;
            return hold(0);
        }
        if t >= times[last] {
            *hint = last as u32;
            return hold(last);
        }
        let i = self.interval(t, *hint as usize);
        *hint = i as u32;
        if self.step {
            return hold(i);
        }
        Row {
            i,
            next: i + 1,
            u: (t - times[i]) / (times[i + 1] - times[i]),
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
            norm2: rows(&self.rotation_norm2, n_r, &row),
            xm1: self
                .rotation_xm1
                .get(interval * n_r..interval * n_r + n_r)
                .unwrap_or(&[]),
            terms: self
                .rotation_terms
                .get(interval)
                .map_or(1, |&t| usize::from(t)),
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
    pub norm2: (&'a [f32], &'a [f32]),
    pub xm1: &'a [f32],
    pub terms: usize,
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
        let (na, nb) = self.norm2;
        let (ua, ub) = (Vec4::splat(v), Vec4::splat(u));
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
        for (k, joints) in self.rotation_joints.chunks(4).enumerate() {
            let r = k * 4..k * 4 + joints.len();
            let x = lanes(&self.xm1[r.clone()], 0.0);
            let wa = eberly(ua, x, self.terms);
            let wb = eberly(ub, x, self.terms);
            // |a wa + b wb|^2 from the keys' lengths and dot, four tracks at once: the slerp
            // renormalised without a per-quaternion length.
            let dot = x + Vec4::ONE;
            let norm2 = wa * wa * lanes(&na[r.clone()], 1.0)
                + wb * wb * lanes(&nb[r.clone()], 1.0)
                + 2.0 * wa * wb * dot;
            let inv = Vec4::ONE / norm2.max(Vec4::splat(f32::MIN_POSITIVE)).sqrt();
            let (wa, wb) = ((wa * inv).to_array(), (wb * inv).to_array());
            for (lane, ((&j, &a), &b)) in joints.iter().zip(&a[r.clone()]).zip(&b[r]).enumerate() {
                pose[j as usize].rotation = Quat::from_vec4(a * wa[lane] + b * wb[lane]);
            }
        }
    }
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
                    rotation_norm2: Vec::new(),
                    rotation_xm1: Vec::new(),
                    rotation_terms: Vec::new(),
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
        // Rotations, each key flipped into the previous (flipped) key's hemisphere.
        let n = rotations.len();
        let mut rows = vec![Vec4::W; n_keys * n];
        for (k, jt) in rotations.iter().enumerate() {
            let Channel::Rotation(track) = &jt.channel else {
                continue;
            };
            let mut previous: Option<Vec4> = None;
            for i in 0..n_keys {
                let q = Vec4::from(track.values()[i]);
                let q = match previous {
                    Some(p) if p.dot(q) < 0.0 => -q,
                    _ => q,
                };
                rows[i * n + k] = q;
                previous = Some(q);
            }
        }
        let intervals = n_keys.saturating_sub(1);
        self.rotation_norm2 = rows.iter().map(|q| q.length_squared()).collect();
        self.rotation_xm1 = vec![0.0; intervals * n];
        self.rotation_terms = vec![1; intervals];
        for i in 0..intervals {
            for k in 0..n {
                let (a, b) = (rows[i * n + k], rows[(i + 1) * n + k]);
                // As `slerp_shortest` computes it (b is already in a's hemisphere).
                let xm1 = (a.dot(b) - 1.0).min(0.0);
                self.rotation_xm1[i * n + k] = xm1;
                self.rotation_terms[i] = self.rotation_terms[i].max(slerp_terms(xm1) as u8);
            }
        }
        self.rotations = rows;
    }
}
