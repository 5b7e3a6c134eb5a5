//! Sampling one track, and Eberly's slerp (whole clips: cursor.rs; raw clips slerp along arcs
//! worked out once, runtime.rs; compressed clips use the polynomial here).
//!
//! Interval lookup is a binary search, short-cut by a per-track hint: forward playback finds the
//! next interval in O(1) (the hint's interval or the one after it). Outside its keyed range a
//! track clamps to its first or last key, so a clip whose first key is after 0 holds that key
//! before it.
//!
//! Rotations: LINEAR uses shortest-arc slerp (q and -q are the same rotation, so the end key is
//! flipped into the start key's hemisphere). glTF defines LINEAR rotation as slerp and the Khronos
//! viewer and three.js use it; nlerp is cheaper but runs up to ~1.3 degrees off mid-way through a
//! 100-degree key interval. The slerp here is Eberly's polynomial form: as exact as the
//! trigonometric one in f32, without its acos and sines, for keys met as they come. Blending
//! layers (pose.rs) uses nlerp, where weights are not times.

use glam::{Quat, Vec3, Vec4};

use super::{Interpolation, Track};

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

/// Eberly's coefficients for SLERP ("A Fast and Accurate Estimate for SLERP", 2011), lane-wise:
/// `sin(t theta) / sin(theta)` for each lane's `t` and `cos(theta) = 1 + xm1`, by a polynomial in
/// `xm1` with no trigonometry. `terms` (1..=8) is how many terms of the series are kept: eight
/// (with Eberly's end correction) hold the error below 1e-5 up to 180 degrees of rotation between
/// keys; close keys need fewer (`slerp_terms`). The same arithmetic serves one pair of keys in two
/// lanes (`slerp_shortest`) and four tracks at once (the clip sampler), so both give one answer.
#[inline(always)]
pub(crate) fn eberly(t: Vec4, xm1: Vec4, terms: usize) -> Vec4 {
    const MU: f32 = 1.852_981_1;
    // u_i = 1 / (i (2i + 1)), v_i = i / (2i + 1) for i = 1..=8; the last pair times MU, which
    // only the full series uses.
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
    // The loop unrolled for each count of terms.
    match terms {
        0 | 1 => eberly_n::<1>(t, xm1, U, V),
        2 => eberly_n::<2>(t, xm1, U, V),
        3 => eberly_n::<3>(t, xm1, U, V),
        4 => eberly_n::<4>(t, xm1, U, V),
        5 => eberly_n::<5>(t, xm1, U, V),
        6 => eberly_n::<6>(t, xm1, U, V),
        7 => eberly_n::<7>(t, xm1, U, V),
        _ => eberly_n::<8>(t, xm1, U, V),
    }
}

#[inline(always)]
fn eberly_n<const N: usize>(t: Vec4, xm1: Vec4, u: [f32; 8], v: [f32; 8]) -> Vec4 {
    let t2 = t * t;
    let mut c = Vec4::ONE;
    for i in (0..N).rev() {
        c = Vec4::ONE + (t2 * u[i] - Vec4::splat(v[i])) * xm1 * c;
    }
    t * c
}

/// Terms of Eberly's series that keep SLERP's coefficients within about 1e-7 for keys whose dot
/// product is `1 + xm1` (`xm1` in [-1, 0]): the dropped tail is below `(|xm1| / 2)^terms`.
#[inline]
pub(crate) fn slerp_terms(xm1: f32) -> usize {
    // (|xm1| / 2)^n <= 5e-8.
    const LIMITS: [f32; 7] = [1.0e-7, 4.4e-4, 7.3e-3, 2.9e-2, 6.8e-2, 1.2e-1, 1.8e-1];
    let a = xm1.abs();
    LIMITS.iter().position(|&l| a <= l).map_or(8, |n| n + 1)
}

/// Spherical linear interpolation along the shorter arc (q and -q are one rotation, so the end
/// is flipped into the start's hemisphere), renormalised.
pub fn slerp_shortest(a: Quat, b: Quat, u: f32) -> Quat {
    let (a, b) = (Vec4::from(a), Vec4::from(b));
    let d = a.dot(b);
    let (b, d) = if d < 0.0 { (-b, -d) } else { (b, d) };
    let xm1 = (d - 1.0).min(0.0);
    let w = eberly(
        Vec4::new(1.0 - u, u, 0.0, 0.0),
        Vec4::splat(xm1),
        slerp_terms(xm1),
    );
    Quat::from_vec4(a * w.x + b * w.y).normalize()
}

/// Where a time falls among a track's keys: hold key `i` (`hold`), or interpolate from key `i`
/// to `i + 1` at `u` in [0, 1) over an interval of `dt` seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct KeyPosition {
    pub i: u32,
    pub u: f32,
    pub dt: f32,
    pub hold: bool,
}

/// Locates `t` among `len` strictly increasing key times `time(i)`, clamping outside them (NaN
/// holds the first key), with every sampler's lookup: a `guess` if the caller has one (the raw
/// clips' mean key spacing), then `hint` and the interval after it (forward playback), then a
/// binary search. `hint` is updated.
#[inline]
pub(crate) fn locate_key(
    len: usize,
    time: impl Fn(usize) -> f32,
    t: f32,
    hint: &mut u32,
    guess: Option<usize>,
) -> KeyPosition {
    let last = len - 1;
    let hold = |i: usize| KeyPosition {
        i: i as u32,
        u: 0.0,
        dt: 0.0,
        hold: true,
    };
    if t.is_nan() || t <= time(0) {
        *hint = 0;
        return hold(0);
    }
    if t >= time(last) {
        *hint = last as u32;
        return hold(last);
    }
    // Here time(0) < t < time(last): the interval holding t exists.
    let inside = |i: usize| i < last && time(i) <= t && t < time(i + 1);
    let h = *hint as usize;
    let i = match guess {
        Some(g) if inside(g) => g,
        _ if inside(h) => h,
        _ if inside(h + 1) => h + 1,
        _ => {
            let (mut lo, mut hi) = (0, last);
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if time(mid) <= t { lo = mid } else { hi = mid }
            }
            lo
        }
    };
    *hint = i as u32;
    let (t0, t1) = (time(i), time(i + 1));
    KeyPosition {
        i: i as u32,
        u: (t - t0) / (t1 - t0),
        dt: t1 - t0,
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
    let times = track.times();
    value_at(
        track,
        locate_key(times.len(), |i| times[i], time_secs, hint, None),
    )
}
