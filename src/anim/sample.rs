//! Sampling clips into local poses.
//!
//! Interval lookup is a binary search, short-cut by a per-track cursor: forward playback finds the
//! next interval in O(1) (the cursor's interval or the one after it). Outside its keyed range a
//! track clamps to its first or last key, so a clip whose first key is after 0 holds that key
//! before it.
//!
//! Rotations: LINEAR uses shortest-arc slerp (q and -q are the same rotation, so the end key is
//! flipped into the start key's hemisphere). glTF defines LINEAR rotation as slerp and the Khronos
//! viewer and three.js use it; nlerp is cheaper but runs up to ~1.3 degrees off mid-way through a
//! 100-degree key interval. The slerp here is Eberly's polynomial form: as exact as the
//! trigonometric one in f32, without its acos and sines. Blending layers (pose.rs) uses nlerp,
//! where weights are not times.

use glam::{Quat, Vec3, Vec4};

use super::pose::check_len;
use super::{Channel, Clip, Interpolation, LocalPose, PoseError, Skeleton, Track};

/// Per-track interval hints for one clip, owned by whoever plays it, and where the last sample
/// fell among each track's keys.
#[derive(Clone, Debug)]
pub struct ClipCursor {
    hints: Vec<u32>,
    positions: Vec<KeyPosition>,
}

impl ClipCursor {
    pub fn new(clip: &Clip) -> Self {
        Self {
            hints: vec![0; clip.tracks().len()],
            positions: vec![KeyPosition::default(); clip.tracks().len()],
        }
    }
}

/// Values a track interpolates.
pub trait Interpolate: Copy {
    fn lerp_keys(a: Self, b: Self, u: f32) -> Self;
    /// glTF's cubic Hermite spline between key values `v0` and `v1` with out-tangent `b0` of the
    /// first key and in-tangent `a1` of the second, at `u` in [0, 1] over an interval of `dt` s.
    fn hermite(v0: Self, b0: Self, v1: Self, a1: Self, u: f32, dt: f32) -> Self;
}

fn hermite_weights(u: f32) -> [f32; 4] {
    let u2 = u * u;
    let u3 = u2 * u;
    [
        2.0 * u3 - 3.0 * u2 + 1.0, // v0
        u3 - 2.0 * u2 + u,         // b0 * dt
        -2.0 * u3 + 3.0 * u2,      // v1
        u3 - u2,                   // a1 * dt
    ]
}

impl Interpolate for Vec3 {
    fn lerp_keys(a: Self, b: Self, u: f32) -> Self {
        a.lerp(b, u)
    }
    fn hermite(v0: Self, b0: Self, v1: Self, a1: Self, u: f32, dt: f32) -> Self {
        let [h0, h1, h2, h3] = hermite_weights(u);
        v0 * h0 + b0 * (h1 * dt) + v1 * h2 + a1 * (h3 * dt)
    }
}

impl Interpolate for Quat {
    fn lerp_keys(a: Self, b: Self, u: f32) -> Self {
        slerp_shortest(a, b, u)
    }
    fn hermite(v0: Self, b0: Self, v1: Self, a1: Self, u: f32, dt: f32) -> Self {
        let [h0, h1, h2, h3] = hermite_weights(u);
        let q = Vec4::from(v0) * h0
            + Vec4::from(b0) * (h1 * dt)
            + Vec4::from(v1) * h2
            + Vec4::from(a1) * (h3 * dt);
        // A spline of unit quaternions leaves the unit sphere: renormalise (glTF spec).
        let q = Quat::from_vec4(q);
        if q.length_squared() > f32::EPSILON {
            q.normalize()
        } else {
            v0
        }
    }
}

/// Both SLERP coefficients, `(sin((1-u) theta), sin(u theta)) / sin(theta)` for
/// `cos(theta) = 1 + xm1`, by David Eberly's polynomial ("A Fast and Accurate Estimate for
/// SLERP", 2011), side by side in two SIMD lanes: no trigonometry, error below 1e-5 (6e-4
/// degrees) in f32 up to 180 degrees of rotation between keys (tests/anim_core.rs).
#[inline]
fn slerp_coefficients(u: f32, xm1: f32) -> (f32, f32) {
    const MU: f32 = 1.852_981_1;
    const U: [f32; 8] = [
        1.0 / (1.0 * 3.0),
        1.0 / (2.0 * 5.0),
        1.0 / (3.0 * 7.0),
        1.0 / (4.0 * 9.0),
        1.0 / (5.0 * 11.0),
        1.0 / (6.0 * 13.0),
        1.0 / (7.0 * 15.0),
        MU / (8.0 * 17.0),
    ];
    const V: [f32; 8] = [
        1.0 / 3.0,
        2.0 / 5.0,
        3.0 / 7.0,
        4.0 / 9.0,
        5.0 / 11.0,
        6.0 / 13.0,
        7.0 / 15.0,
        MU * 8.0 / 17.0,
    ];
    let t = Vec4::new(1.0 - u, u, 0.0, 0.0);
    let t2 = t * t;
    let mut c = Vec4::ONE;
    for i in (0..8).rev() {
        c = Vec4::ONE + (t2 * U[i] - Vec4::splat(V[i])) * xm1 * c;
    }
    let c = t * c;
    (c.x, c.y)
}

/// Spherical linear interpolation along the shorter arc (q and -q are one rotation, so the end
/// is flipped into the start's hemisphere), renormalised.
pub fn slerp_shortest(a: Quat, b: Quat, u: f32) -> Quat {
    let mut d = a.dot(b);
    let b = if d < 0.0 {
        d = -d;
        -b
    } else {
        b
    };
    if d > 0.9995 {
        // Keys under 2.6 degrees apart (dense keys): lerp is slerp to float precision.
        return Quat::from_vec4(Vec4::from(a).lerp(Vec4::from(b), u)).normalize();
    }
    let (wa, wb) = slerp_coefficients(u, d - 1.0);
    Quat::from_vec4(Vec4::from(a) * wa + Vec4::from(b) * wb).normalize()
}

/// Index `i` of the interval `[times[i], times[i+1])` holding `t`, given
/// `times[0] < t < times[last]`; `hint` is read first and updated.
fn find_interval(times: &[f32], t: f32, hint: &mut u32) -> usize {
    let h = *hint as usize;
    let i = if h + 1 < times.len() && times[h] <= t && t < times[h + 1] {
        h
    } else if h + 2 < times.len() && times[h + 1] <= t && t < times[h + 2] {
        h + 1
    } else {
        // Largest i with times[i] <= t; t > times[0] so the point is at least 1.
        times.partition_point(|&k| k <= t) - 1
    };
    *hint = i as u32;
    i
}

/// Where a time falls among a track's keys: hold key `i` (`hold`), or interpolate from key `i`
/// to `i + 1` at `u` in [0, 1) over an interval of `dt` seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct KeyPosition {
    i: u32,
    u: f32,
    dt: f32,
    hold: bool,
}

/// Locates `time_secs` among `times` (clamping outside them), using and updating `hint`.
fn locate(times: &[f32], time_secs: f32, hint: &mut u32) -> KeyPosition {
    let last = times.len() - 1;
    // NaN holds the first key too.
    if time_secs.is_nan() || time_secs <= times[0] {
        *hint = 0;
        return KeyPosition {
            i: 0,
            u: 0.0,
            dt: 0.0,
            hold: true,
        };
    }
    if time_secs >= times[last] {
        *hint = last as u32;
        return KeyPosition {
            i: last as u32,
            u: 0.0,
            dt: 0.0,
            hold: true,
        };
    }
    let i = find_interval(times, time_secs, hint);
    let (t0, t1) = (times[i], times[i + 1]);
    let dt = t1 - t0;
    KeyPosition {
        i: i as u32,
        u: (time_secs - t0) / dt,
        dt,
        hold: false,
    }
}

/// The track's value at a located position.
fn value_at<T: Interpolate + super::TrackValue>(track: &Track<T>, at: KeyPosition) -> T {
    let i = at.i as usize;
    if at.hold {
        return track.key_value(i);
    }
    let values = track.values();
    match track.interpolation() {
        Interpolation::Step => values[i],
        Interpolation::Linear => T::lerp_keys(values[i], values[i + 1], at.u),
        Interpolation::CubicSpline => {
            // Per key: [in-tangent, value, out-tangent].
            let v0 = values[3 * i + 1];
            let b0 = values[3 * i + 2];
            let a1 = values[3 * (i + 1)];
            let v1 = values[3 * (i + 1) + 1];
            T::hermite(v0, b0, v1, a1, at.u, at.dt)
        }
    }
}

/// Samples one track at `time_secs`, using and updating `hint`.
pub fn sample_track<T: Interpolate + super::TrackValue>(
    track: &Track<T>,
    time_secs: f32,
    hint: &mut u32,
) -> T {
    value_at(track, locate(track.times(), time_secs, hint))
}

/// Samples `clip` at `time_secs` into `out`: the skeleton's rest pose, overwritten by every track.
/// `time_secs` is clip time (already looped or clamped by playback).
///
/// Tracks with the same key times (glTF samplers often share an input, and dense clips key every
/// track alike) are located once: the first of them searches, the others reuse its position.
pub fn sample_clip(
    skeleton: &Skeleton,
    clip: &Clip,
    time_secs: f32,
    cursor: &mut ClipCursor,
    out: &mut LocalPose,
) -> Result<(), PoseError> {
    check_len("sampled pose", skeleton.joint_count(), out.len())?;
    check_len("clip joints", skeleton.joint_count(), clip.joint_count())?;
    check_len("clip cursor", clip.tracks().len(), cursor.hints.len())?;
    let pose = out.as_mut_slice();
    pose.copy_from_slice(skeleton.rest());
    let leaders = clip.time_leaders();
    for (k, jt) in clip.tracks().iter().enumerate() {
        // Clip::new checked every joint against `joint_count`, checked equal above, and that
        // each track's leader comes at or before it.
        let leader = leaders[k] as usize;
        let at = if leader == k {
            let at = locate(jt.channel.times(), time_secs, &mut cursor.hints[k]);
            cursor.positions[k] = at;
            at
        } else {
            cursor.positions[leader]
        };
        let target = &mut pose[jt.joint];
        match &jt.channel {
            Channel::Translation(t) => target.translation = value_at(t, at),
            Channel::Rotation(t) => target.rotation = value_at(t, at),
            Channel::Scale(t) => target.scale = value_at(t, at),
        }
    }
    Ok(())
}
