//! A rotation track's frame (compress.rs's second step): its keys stored as `left⁻¹ * key *
//! right⁻¹` and decoded as `left * stored * right`, where that takes fewer bytes than the keys
//! as they are. Relative to the track's mean where w comes near 0 (a joint turned half a turn
//! from its parent: w, rebuilt from x, y and z, would take their rounding out of all
//! proportion), or turned onto the principal axes of its motion about that mean (a joint
//! swinging about one axis then moves one stored component, and the others hold nearly still).
//! ACL stores every rotation as it is.

use glam::{Mat3, Quat, Vec3, Vec4};

use super::compressed::{frame_bytes, rotation_from_xyz};
use super::quantize::{Quantized, Range, fewest_bits, segments_bits};

/// Position error a rotation difference causes at unit distance: the angle between the two,
/// from the chord between the quaternions (twice it is the angle, to first order; a dot product
/// in f32 cannot tell rotations under 5e-4 radians apart).
pub(super) fn rotation_error(a: Quat, b: Quat) -> f32 {
    let (a, b) = (Vec4::from(a), Vec4::from(b));
    2.0 * (a - b).length().min((a + b).length())
}

/// A rotation track's frame: `(left, right)`.
pub(super) type Frame = (Quat, Quat);

/// A rotation track's kept keys `unit` (unit, w made positive) in the fewest bits per segment of
/// `rows` rows whose error at `lever` stays within `budget`: as they are, relative to their
/// mean (where w comes near 0) or in their principal axes' frame, whichever takes the fewest
/// bytes; `None` where none fits in 19 bits (the track keeps float keys).
pub(super) fn fewest_rotation_bytes(
    unit: &[Vec4],
    (rows, range): (usize, Range),
    (lever, budget): (f32, f32),
) -> Option<(Vec<Quantized>, Option<Frame>)> {
    let mut frames = vec![None];
    if unit.iter().any(|q| q.w < WELL_CONDITIONED_W) {
        frames.push(Some((stored_mean(unit), Quat::IDENTITY)));
    }
    if unit.len() > 2 {
        frames.push(Some(aligned_frame(unit)));
    }
    (frames.into_iter())
        .filter_map(|frame| {
            rotation_bits(unit, (rows, range), frame, (lever, budget)).map(|q| (q, frame))
        })
        .min_by_key(|(q, frame)| rotation_bytes(q, range, *frame))
}

/// The smallest `w` (made positive) of unit rotations under which x, y and z alone are stored
/// as they are: below it w, rebuilt from unit length, takes x, y and z's rounding out of all
/// proportion (w's error is theirs over w), and the track is tried relative to its mean.
const WELL_CONDITIONED_W: f32 = 0.7;

/// A rotation track's kept keys `unit` (unit, w made positive) in the fewest bits per segment
/// whose error at `lever` stays within `budget`, in `frame` where one is given (each key
/// stored as `left⁻¹ * key * right⁻¹`, decoded as `left * stored * right`).
fn rotation_bits(
    unit: &[Vec4],
    (rows, range): (usize, Range),
    frame: Option<Frame>,
    (lever, budget): (f32, f32),
) -> Option<Vec<Quantized>> {
    let stored: Vec<Vec4> = match frame {
        Some((l, r)) => (unit.iter())
            .map(|&q| {
                let d = Vec4::from(l.inverse() * Quat::from_vec4(q) * r.inverse());
                if d.w < 0.0 { -d } else { d }
            })
            .collect(),
        None => unit.to_vec(),
    };
    let xyz: Vec<Vec3> = stored.iter().map(|q| q.truncate()).collect();
    let fits = |q: &Quantized, first: usize| {
        let segment = unit[first..].iter().take(q.len());
        segment.enumerate().all(|(k, &want)| {
            let got = Quat::from_vec4(rotation_from_xyz(q.value(k)));
            let got = frame.map_or(got, |(l, r)| l * got * r);
            rotation_error(Quat::from_vec4(want), got) * lever <= budget
        })
    };
    fewest_bits(&xyz, rows, (range, 16), fits)
}

/// The frame in which a track's keys turn about x first, then y: `left` its mean times the
/// rotation `a` onto the principal axes of the keys' x, y and z relative to the mean, `right`
/// `a⁻¹` (conjugating by `a` turns each key's axis into those axes).
fn aligned_frame(unit: &[Vec4]) -> Frame {
    let mean = stored_mean(unit);
    let v: Vec<Vec3> = (unit.iter())
        .map(|&q| {
            let d = mean.inverse() * Quat::from_vec4(q);
            let d = if d.w < 0.0 { -d } else { d };
            Vec3::new(d.x, d.y, d.z)
        })
        .collect();
    let centre = v.iter().fold(Vec3::ZERO, |a, &b| a + b) / v.len().max(1) as f32;
    let mut c = Mat3::ZERO;
    for &x in &v {
        let d = x - centre;
        c += Mat3::from_cols(d * d.x, d * d.y, d * d.z);
    }
    let power = |m: Mat3, start: Vec3| {
        let mut e = start;
        for _ in 0..40 {
            e = (m * e).try_normalize().unwrap_or(e);
        }
        e
    };
    let e1 = power(c, Vec3::new(1.0, 0.7, 0.3).normalize())
        .try_normalize()
        .unwrap_or(Vec3::X);
    let lambda = e1.dot(c * e1);
    let deflated = c - Mat3::from_cols(e1 * e1.x, e1 * e1.y, e1 * e1.z) * lambda;
    let seed = e1.any_orthonormal_vector();
    let e2 = power(deflated, seed);
    let e2 = (e2 - e1 * e1.dot(e2)).try_normalize().unwrap_or(seed);
    let e3 = e1.cross(e2);
    let a = Quat::from_mat3(&Mat3::from_cols(e1, e2, e3)).normalize();
    (stored_rotation(mean * a), stored_rotation(a.inverse()))
}

/// Bytes a rotation track's quantized segments take (ranges, later segments' widths and
/// keys), and its frame if it has one.
fn rotation_bytes(segments: &[Quantized], range: Range, frame: Option<Frame>) -> usize {
    segments_bits(segments, range).div_ceil(8) + frame.map_or(0, |f| frame_bytes(&[f]))
}

/// A rotation track's mean, as a frame stores it: its keys' mean (each in the first key's
/// hemisphere), `stored_rotation`.
fn stored_mean(unit: &[Vec4]) -> Quat {
    let first = unit.first().copied().unwrap_or(Vec4::W);
    let sum = unit.iter().fold(Vec4::ZERO, |acc, &q| {
        acc + if q.dot(first) < 0.0 { -q } else { q }
    });
    stored_rotation(Quat::from_vec4(sum.try_normalize().unwrap_or(first)))
}

/// `q` as a frame stores it (`FRAME_ROTATION_BYTES`): x, y and z with w made positive, in 16-bit
/// steps of [-1, 1], and w rebuilt from unit length, so that compressing and decoding use the
/// same rotation.
fn stored_rotation(q: Quat) -> Quat {
    let v = Vec4::from(q);
    let v = if v.w < 0.0 { -v } else { v };
    let xyz = (v.truncate() * 32767.0).round() / 32767.0;
    Quat::from_vec4(rotation_from_xyz(xyz))
}
