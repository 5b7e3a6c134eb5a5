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

use glam::{Mat4, Quat, Vec3, Vec4};

use super::sample::locate_key;
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
    /// `times.len()` rows of `rotation_joints.len().div_ceil(4)` blocks: unit quaternions,
    /// sign-continuous, four tracks a block in lanes (`Block`).
    rotations: Vec<Block>,
    /// Per interval (`times.len() - 1` rows), per block of rotation tracks: the arcs from key i
    /// to key i + 1 (their angles in 4D, at most pi/2, and the unit quaternions orthogonal to
    /// key i).
    rotation_theta: Vec<Vec4>,
    rotation_perp: Vec<Block>,
}

/// Four quaternions side by side: their x, y, z and w, each with one quaternion a lane (ozz's
/// `SoaQuaternion`). A part block's spare lanes hold the identity.
pub(crate) type Block = [Vec4; 4];

/// A block of identities.
pub(crate) const IDENTITY_BLOCK: Block = [Vec4::ZERO, Vec4::ZERO, Vec4::ZERO, Vec4::ONE];

/// Blocks of four for `n` tracks.
pub(crate) fn blocks(n: usize) -> usize {
    n.div_ceil(4)
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
            blocks(self.rotation_joints.len()),
        );
        let interval = row.i.min(self.times.len().saturating_sub(2));
        Rows {
            translation_joints: &self.translation_joints,
            translations: rows(&self.translations, n_t, &row),
            scale_joints: &self.scale_joints,
            scales: rows(&self.scales, n_s, &row),
            rotation_joints: &self.rotation_joints,
            // The start row: the end row is in the arcs.
            rotations: &self.rotations[row.i * n_r..row.i * n_r + n_r],
            theta: self
                .rotation_theta
                .get(interval * n_r..interval * n_r + n_r)
                .unwrap_or(&[]),
            perp: self
                .rotation_perp
                .get(interval * n_r..interval * n_r + n_r)
                .unwrap_or(&[]),
        }
        .interpolate(row.u, row.interpolating, pose);
    }
}

/// Two rows of a group's keys, ready to interpolate: per kind, the joints and the values at the
/// interval's start and end (rotations unit and sign-continuous, with each track's arc). Raw
/// groups lend their stored rows and the arcs worked out at load; compressed groups their decoded
/// rows and the arcs worked out at decode.
pub(crate) struct Rows<'a> {
    pub translation_joints: &'a [u32],
    pub translations: (&'a [Vec3], &'a [Vec3]),
    pub scale_joints: &'a [u32],
    pub scales: (&'a [Vec3], &'a [Vec3]),
    pub rotation_joints: &'a [u32],
    /// The start row's rotations, four tracks a block: the end row is in the arcs.
    pub rotations: &'a [Block],
    /// Each block's arcs (see `arcs`): the slerp is `start cos(u theta) + perp sin(u theta)`.
    pub theta: &'a [Vec4],
    pub perp: &'a [Block],
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

        // Four tracks at a time, in lanes; each block turned back into four quaternions.
        #[inline(always)]
        fn write(joints: &[u32], [x, y, z, w]: Block, pose: &mut [Transform]) {
            let q = Mat4::from_cols(x, y, z, w).transpose();
            let q = [q.x_axis, q.y_axis, q.z_axis, q.w_axis];
            if let &[a, b, c, d] = joints {
                for (j, q) in [a, b, c, d].into_iter().zip(q) {
                    pose[j as usize].rotation = Quat::from_vec4(q);
                }
            } else {
                for (&j, q) in joints.iter().zip(q) {
                    pose[j as usize].rotation = Quat::from_vec4(q);
                }
            }
        }
        let blocks = self.rotation_joints.chunks(4).zip(self.rotations);
        if !interpolating {
            // Held or STEP: the key itself.
            for (joints, &a) in blocks {
                write(joints, a, pose);
            }
            return;
        }
        for ((joints, a), (&theta, p)) in blocks.zip(self.theta.iter().zip(self.perp)) {
            let (sin, cos) = sin_cos(theta * u);
            write(
                joints,
                std::array::from_fn(|c| a[c] * cos + p[c] * sin),
                pose,
            );
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

/// The arcs from the quaternions of `a` to those of `b` (unit, four tracks a block in lanes):
/// each of `b` flipped into its start's hemisphere, the angle `theta` between them in 4D (at
/// most pi/2) and the unit quaternion `perp` orthogonal to the start in their plane (zero where
/// they coincide), so that the slerp is `a cos(u theta) + perp sin(u theta)`. `KeyGroup::fill`
/// works the same out in f64 at load; this is for keys decoded at run time. Dot products are
/// summed in glam's order, `(x + z) + (y + w)`.
pub(crate) fn arcs(a: &[Block], b: &mut [Block], theta: &mut [Vec4], perp: &mut [Block]) {
    let dot = |p: &Block, q: &Block| (p[0] * q[0] + p[2] * q[2]) + (p[1] * q[1] + p[3] * q[3]);
    for ((a, b), (theta, perp)) in a.iter().zip(b).zip(theta.iter_mut().zip(perp)) {
        let d = dot(a, b);
        // -1 where the end key is on the far side (times -1 is the negation, to the bit).
        let sign = Vec4::select(d.cmplt(Vec4::ZERO), Vec4::NEG_ONE, Vec4::ONE);
        *b = b.map(|c| c * sign);
        let d = d * sign;
        let diff: Block = std::array::from_fn(|c| a[c] - b[c]);
        // The chord, accurate for small and large steps alike: |a - b| = 2 sin(theta / 2), at
        // most 2 sin(pi / 4) after the flip.
        let half_chord = dot(&diff, &diff).sqrt() * 0.5;
        *theta = asin_to_half(half_chord) * 2.0;
        // |b - a (a.b)| = sin theta = 2 sin(theta / 2) cos(theta / 2) for unit keys. Dividing by
        // it rather than by the rounded length leaves perp's length off by rounding over theta,
        // which sin(u theta) scales back to rounding.
        let sin = half_chord * 2.0 * (Vec4::ONE - half_chord * half_chord).sqrt();
        let inv_sin = Vec4::select(sin.cmpgt(Vec4::splat(1e-30)), Vec4::ONE / sin, Vec4::ZERO);
        *perp = std::array::from_fn(|c| (b[c] - a[c] * d) * inv_sin);
    }
}

/// `asin x` for each lane's `x` in [0, sin(pi / 4)]: Cephes' `asinf` (relative error about
/// 2.5e-7); past 0.5 (keys more than 120 degrees of rotation apart), its
/// `pi / 2 - 2 asin(sqrt((1 - x) / 2))`.
#[inline(always)]
fn asin_to_half(x: Vec4) -> Vec4 {
    let poly = |x: Vec4| {
        let z = x * x;
        let p = Vec4::splat(4.216_320_8e-2) * z + Vec4::splat(2.418_131_3e-2);
        let p = p * z + Vec4::splat(4.547_002_6e-2);
        let p = p * z + Vec4::splat(7.495_300_3e-2);
        let p = p * z + Vec4::splat(1.666_675_2e-1);
        p * z * x + x
    };
    let wide = x.cmpgt(Vec4::splat(0.5));
    if !wide.any() {
        return poly(x);
    }
    let folded = std::f32::consts::FRAC_PI_2 - 2.0 * poly(((Vec4::ONE - x) * 0.5).sqrt());
    Vec4::select(wide, folded, poly(x))
}

/// Tracks whose every key is the same value (one key, or all equal; LINEAR or STEP): their
/// value at every time, written once where the pose does not already hold it (ACL's constant
/// tracks; exporters often key every channel of every bone, most of them still).
#[derive(Clone, Debug, Default)]
struct Constants {
    translation_joints: Vec<u32>,
    translations: Vec<Vec3>,
    rotation_joints: Vec<u32>,
    /// Unit quaternions: the key normalised, as a held key of a group is sampled.
    rotations: Vec<Quat>,
    scale_joints: Vec<u32>,
    scales: Vec<Vec3>,
}

impl Constants {
    /// Takes `jt` if its keys are all one value.
    fn take(&mut self, jt: &JointTrack) -> bool {
        fn same<T: PartialEq + Copy>(values: &[T]) -> Option<T> {
            let first = *values.first()?;
            values.iter().all(|v| *v == first).then_some(first)
        }
        if jt.channel.interpolation() == Interpolation::CubicSpline {
            return false;
        }
        let joint = jt.joint as u32;
        match &jt.channel {
            Channel::Translation(t) => same(t.values()).map(|v| {
                self.translation_joints.push(joint);
                self.translations.push(v);
            }),
            Channel::Scale(t) => same(t.values()).map(|v| {
                self.scale_joints.push(joint);
                self.scales.push(v);
            }),
            Channel::Rotation(t) => same(t.values()).map(|q| {
                self.rotation_joints.push(joint);
                self.rotations
                    .push(Quat::from_vec4(Vec4::from(q).normalize()));
            }),
        }
        .is_some()
    }

    fn write(&self, pose: &mut [Transform]) {
        for (&j, &v) in self.translation_joints.iter().zip(&self.translations) {
            pose[j as usize].translation = v;
        }
        for (&j, &q) in self.rotation_joints.iter().zip(&self.rotations) {
            pose[j as usize].rotation = q;
        }
        for (&j, &v) in self.scale_joints.iter().zip(&self.scales) {
            pose[j as usize].scale = v;
        }
    }
}

/// A raw clip's key groups, its constant tracks, plus its CUBICSPLINE tracks (indices into the
/// clip's tracks).
#[derive(Clone, Debug)]
pub(crate) struct RuntimeClip {
    groups: Vec<KeyGroup>,
    constants: Constants,
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
        let mut constants = Constants::default();
        let mut driven = vec![[false; 3]; joint_count];
        for (k, jt) in tracks.iter().enumerate() {
            if let Some(d) = driven.get_mut(jt.joint) {
                d[jt.channel.property() as usize] = true;
            }
            if constants.take(jt) {
                continue;
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
            constants,
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

    /// Writes the constant tracks' values into `pose`.
    pub fn write_constants(&self, pose: &mut [Transform]) {
        self.constants.write(pose);
    }

    /// Samples every group at `t` into `pose`; constant tracks (`write_constants`) and cubic
    /// tracks (`cubic_tracks`, with `hints[groups..]`) are left to the caller.
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
        let mut theta = vec![0.0; intervals * n];
        let mut perp = vec![Vec4::ZERO; intervals * n];
        for i in 0..intervals {
            for k in 0..n {
                let (a, b) = (rows[i * n + k].as_dvec4(), rows[(i + 1) * n + k].as_dvec4());
                // Half-angle form: accurate for small and large steps alike.
                let angle = 2.0 * (a - b).length().atan2((a + b).length());
                let p = b - a * angle.cos();
                let len = p.length();
                theta[i * n + k] = angle as f32;
                if len > 1e-12 {
                    perp[i * n + k] = (p / len).as_vec4();
                }
            }
        }
        self.rotations = to_blocks(&rows, n, Vec4::W);
        self.rotation_perp = to_blocks(&perp, n, Vec4::ZERO);
        self.rotation_theta = (theta.chunks(n.max(1)))
            .flat_map(|row| row.chunks(4).map(|four| Vec4::from(lanes(four, 0.0))))
            .collect();
    }
}

/// Up to four values in lanes, `spare` in the rest.
fn lanes<T: Copy>(four: &[T], spare: T) -> [T; 4] {
    std::array::from_fn(|k| four.get(k).copied().unwrap_or(spare))
}

/// Rows of `n` quaternions (one after another) as rows of blocks (`Block`), spare lanes
/// `spare` (the identity for keys, zero for arcs' perpendiculars: a zero arc).
fn to_blocks(rows: &[Vec4], n: usize, spare: Vec4) -> Vec<Block> {
    (rows.chunks(n.max(1)))
        .flat_map(|row| {
            row.chunks(4).map(|four| {
                let [a, b, c, d] = lanes(four, spare);
                let q = Mat4::from_cols(a, b, c, d).transpose();
                [q.x_axis, q.y_axis, q.z_axis, q.w_axis]
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use glam::{DVec4, Quat, Vec3, Vec4};

    use super::{Block, sin_cos, to_blocks};

    /// `super::arcs` over quaternions one after another (the tests' layout): `b`, `theta` and
    /// `perp` written back track by track.
    fn arcs(a: &[Vec4], b: &mut [Vec4], theta: &mut [f32], perp: &mut [Vec4]) {
        let n = a.len();
        let (a_blocks, mut b_blocks) = (to_blocks(a, n, Vec4::W), to_blocks(b, n, Vec4::W));
        let mut theta_blocks = vec![Vec4::ZERO; a_blocks.len()];
        let mut perp_blocks = vec![[Vec4::ZERO; 4]; a_blocks.len()];
        super::arcs(
            &a_blocks,
            &mut b_blocks,
            &mut theta_blocks,
            &mut perp_blocks,
        );
        let lane = |blocks: &[Block], k: usize| {
            let block = &blocks[k / 4];
            Vec4::new(
                block[0][k % 4],
                block[1][k % 4],
                block[2][k % 4],
                block[3][k % 4],
            )
        };
        for k in 0..n {
            b[k] = lane(&b_blocks, k);
            perp[k] = lane(&perp_blocks, k);
            theta[k] = theta_blocks[k / 4][k % 4];
        }
        // Spare lanes (the identity to itself) have no arc.
        for k in n..theta_blocks.len() * 4 {
            assert_eq!(
                (theta_blocks[k / 4][k % 4], lane(&perp_blocks, k)),
                (0.0, Vec4::ZERO)
            );
        }
    }

    /// Slerp by the textbook formula in f64: `(sin((1 - u) theta) a + sin(u theta) b) / sin theta`
    /// along the shorter arc.
    fn slerp_f64(a: DVec4, b: DVec4, u: f64) -> DVec4 {
        let b = if a.dot(b) < 0.0 { -b } else { b };
        let theta = a.dot(b).clamp(-1.0, 1.0).acos();
        if theta < 1e-12 {
            return a;
        }
        (a * ((1.0 - u) * theta).sin() + b * (u * theta).sin()) / theta.sin()
    }

    #[test]
    fn decoded_arcs_slerp_like_the_textbook_from_a_microradian_to_a_right_angle() {
        // Steps from 1e-6 rad to just under 180 degrees of rotation (pi/2 in 4D), some with the
        // end key in the far hemisphere, six tracks (a block of four and a part block).
        let angles = [1e-6_f32, 1e-3, 0.05, 0.7, 2.0, 3.1];
        let axis = Vec3::new(0.3, -0.8, 0.52).normalize();
        let mut a = Vec::new();
        let mut b = Vec::new();
        for (k, &angle) in angles.iter().enumerate() {
            let start = Quat::from_euler(glam::EulerRot::YXZ, 0.4 * k as f32, -0.3, 1.1);
            let end = start * Quat::from_axis_angle(axis, angle);
            a.push(Vec4::from(start));
            b.push(if k % 2 == 1 {
                -Vec4::from(end)
            } else {
                Vec4::from(end)
            });
        }
        let ends = b.clone();
        let (mut theta, mut perp) = (vec![0.0; 6], vec![Vec4::ZERO; 6]);
        arcs(&a, &mut b, &mut theta, &mut perp);
        for k in 0..6 {
            // theta is half the rotation's angle, and the end is flipped into a's hemisphere.
            assert!(
                (theta[k] - angles[k] / 2.0).abs() < 2e-6,
                "{k}: {}",
                theta[k]
            );
            assert!(a[k].dot(b[k]) >= 0.0);
            assert!((b[k] + ends[k]).length() < 1e-7 || (b[k] - ends[k]).length() < 1e-7);
            // Orthogonal to a as far as it shows: perp is scaled by sin(u theta) <= theta.
            assert!(
                (perp[k].dot(a[k]) * theta[k]).abs() < 2e-7,
                "{k}: not orthogonal"
            );
            for u in [0.0, 0.25, 0.5, 0.9, 1.0] {
                let (s, c) = sin_cos(Vec4::splat(theta[k] * u));
                let ours = a[k] * c.x + perp[k] * s.x;
                let want = slerp_f64(a[k].as_dvec4(), ends[k].as_dvec4(), f64::from(u));
                let err = (ours.as_dvec4() - want).length();
                assert!(
                    err < 1e-6,
                    "track {k} at u = {u}: {ours} against {want} ({err:.2e})"
                );
            }
        }
    }

    #[test]
    fn equal_keys_have_no_arc() {
        let q = Vec4::from(Quat::from_rotation_y(0.8));
        let (mut b, mut theta, mut perp) = (vec![q], vec![1.0], vec![Vec4::ONE]);
        arcs(&[q], &mut b, &mut theta, &mut perp);
        assert_eq!(theta[0], 0.0);
        assert!(perp[0].length() <= 1.0 + 1e-6 && perp[0].is_finite());
        let (s, c) = sin_cos(Vec4::splat(theta[0] * 0.5));
        assert_eq!(q * c.x + perp[0] * s.x, q);
    }
}
