//! The mannequin's locomotion clips: walks and runs at several
//! speeds, turns, starts, stops and side steps, generated from one gait. A clip is a root path
//! (a speed in the character's frame and a turn rate over time); each foot plants, half a
//! stride apart, where the hip will be at the middle of its stance and stays there, then swings
//! to its next plant on an arc. The pelvis rides above the planted feet (never further from a
//! planted ankle than the leg reaches), bobbing with the steps; each leg reaches its ankle by
//! the analytic two-bone solution with the knee toward the foot's heading, the foot laid flat at
//! its plant's heading, the arms swinging against the legs. So the clips travel by root motion
//! and their planted feet do not slide.

use std::f32::consts::{PI, TAU};

use glam::{Mat3, Quat, Vec3};

use super::{ClipSpec, JOINTS, joint, rx, ry, rz, smoothstep};

/// Samples a second (the clips' key rate).
const HZ: f32 = 30.0;
/// The path's integration steps per key.
const SUBSTEPS: usize = 10;
/// Thigh and shin lengths, the ankle's height over the sole, the hip below the pelvis and the
/// feet's half-width.
const THIGH: f32 = 0.42;
const SHIN: f32 = 0.42;
const ANKLE: f32 = 0.06;
const HIP_DROP: f32 = 0.05;
const HALF_WIDTH: f32 = 0.10;

type Profile = Box<dyn Fn(f32) -> f32>;

/// One locomotion clip as asked for.
pub(super) struct Gait {
    pub name: &'static str,
    pub duration_secs: f32,
    /// Seconds a stride (two steps) and the fraction of it a foot is planted.
    pub cycle_secs: f32,
    pub duty: f32,
    /// The swing foot's height at full step length, metres.
    pub lift: f32,
    /// 0: a walk (the pelvis highest over the planted foot), 1: a run (lowest, arms bent).
    pub run: f32,
    /// Speed ahead and to the character's left (+X), m/s, over clip time.
    pub forward: Profile,
    pub sideways: Profile,
    /// Turn rate, radians a second (positive turns left, toward +X from +Z).
    pub turn: Profile,
}

/// The root path sampled finely from a little before the clip to a little after it (the
/// profiles held at their ends), so plants can be planned past both ends.
struct Path {
    start: f32,
    dt: f32,
    position: Vec<Vec3>,
    yaw: Vec<f32>,
    speed: Vec<f32>,
}

impl Path {
    fn of(g: &Gait) -> Self {
        let margin = 2.0 * g.cycle_secs;
        let dt = 1.0 / (HZ * SUBSTEPS as f32);
        let n = ((g.duration_secs + 2.0 * margin) / dt).ceil() as usize + 1;
        let (mut p, mut yaw) = (Vec3::ZERO, 0.0f32);
        let mut path = Self {
            start: -margin,
            dt,
            position: Vec::with_capacity(n),
            yaw: Vec::with_capacity(n),
            speed: Vec::with_capacity(n),
        };
        for i in 0..n {
            let t = (-margin + i as f32 * dt).clamp(0.0, g.duration_secs);
            let local = Vec3::new((g.sideways)(t), 0.0, (g.forward)(t));
            path.position.push(p);
            path.yaw.push(yaw);
            path.speed.push(local.length());
            p += Quat::from_rotation_y(yaw) * local * dt;
            yaw += (g.turn)(t) * dt;
        }
        // Time 0 at the origin, facing +Z.
        let (p0, y0) = path.at(0.0);
        let undo = Quat::from_rotation_y(-y0);
        for (q, y) in path.position.iter_mut().zip(&mut path.yaw) {
            *q = undo * (*q - p0);
            *y -= y0;
        }
        path
    }

    fn index(&self, t: f32) -> (usize, f32) {
        let x = ((t - self.start) / self.dt).max(0.0);
        let i = (x.floor() as usize).min(self.position.len() - 2);
        (i, (x - i as f32).min(1.0))
    }

    fn at(&self, t: f32) -> (Vec3, f32) {
        let (i, u) = self.index(t);
        (
            self.position[i].lerp(self.position[i + 1], u),
            self.yaw[i] + (self.yaw[i + 1] - self.yaw[i]) * u,
        )
    }

    fn speed(&self, t: f32) -> f32 {
        self.speed[self.index(t).0]
    }
}

/// A foot's world position and heading at a time.
#[derive(Clone, Copy)]
struct Foot {
    position: Vec3,
    yaw: f32,
}

impl Gait {
    /// Where foot `side` (+1 left, -1 right) stands at `t`: planted, or swinging between plants.
    fn foot(&self, path: &Path, side: f32, t: f32) -> Foot {
        let period = self.cycle_secs;
        let offset = if side > 0.0 { 0.0 } else { 0.5 };
        let plant = |k: f32| {
            let mid = (k + offset) * period + self.duty * period / 2.0;
            let (p, yaw) = path.at(mid);
            Foot {
                position: p + Quat::from_rotation_y(yaw) * Vec3::new(side * HALF_WIDTH, 0.0, 0.0),
                yaw,
            }
        };
        let k = (t / period - offset).floor();
        let into = t - (k + offset) * period;
        let here = plant(k);
        if into < self.duty * period {
            return here;
        }
        let next = plant(k + 1.0);
        let u = (into - self.duty * period) / ((1.0 - self.duty) * period);
        // The foot rises before it moves ahead and is over its plant before it comes down.
        let s = smoothstep((u - 0.15) / 0.7);
        let step = here.position.distance(next.position);
        let lift = self.lift * (step / 0.3).min(1.0) * (PI * u).sin().max(0.0).sqrt();
        Foot {
            position: here.position.lerp(next.position, s) + Vec3::Y * lift,
            yaw: here.yaw + (next.yaw - here.yaw) * s,
        }
    }

    /// Every joint's local rotation and the pelvis's translation at `t`.
    fn pose(&self, path: &Path, t: f32) -> ([Quat; 24], Vec3) {
        let (root, yaw) = path.at(t);
        let phase = t / self.cycle_secs;
        let active = smoothstep(path.speed(t) / 0.3);
        let forward = ((self.forward)(t) / 1.5).clamp(-1.0, 1.0) * active;
        let turn = (self.turn)(t);
        let feet = [self.foot(path, 1.0, t), self.foot(path, -1.0, t)];
        // The pelvis: turned with the path, twisting against the legs, leaning into turns.
        let swing = (TAU * phase).cos();
        // The pelvis's twist is 0 at time 0: root motion reads the turn since the first frame.
        let pelvis_rotation = Quat::from_rotation_y(yaw)
            * ry(-5.0 * (TAU * phase).sin() * forward)
            * rz(-4.0 * turn * path.speed(t) / 1.5);
        let bob = 0.02 * active * (2.0 * TAU * (phase - self.duty / 2.0)).cos();
        let nominal = JOINTS[0].2[1] - 0.02 * active - 0.06 * self.run * active
            + bob * (1.0 - 2.0 * self.run);
        let sway = pelvis_rotation * Vec3::X * (0.015 * active * (1.0 - self.run) * swing);
        let mut height = nominal;
        for (side, foot) in [1.0f32, -1.0].into_iter().zip(&feet) {
            if foot.position.y > 1e-4 {
                continue;
            }
            let hip = root + sway + pelvis_rotation * Vec3::new(side * HALF_WIDTH, 0.0, 0.0);
            let across = (hip - foot.position).with_y(0.0).length();
            let reach = (0.97 * (THIGH + SHIN)).powi(2) - across * across;
            let highest = ANKLE + HIP_DROP + reach.max(0.0).sqrt();
            height = soft_min(height, highest, 0.01);
        }
        let pelvis = root + sway + Vec3::Y * height;
        let mut q = [Quat::IDENTITY; 24];
        q[joint("pelvis")] = pelvis_rotation;
        for (side, foot, names) in [
            (1.0f32, feet[0], ["thigh_l", "shin_l", "foot_l"]),
            (-1.0, feet[1], ["thigh_r", "shin_r", "foot_r"]),
        ] {
            let hip = pelvis + pelvis_rotation * Vec3::new(side * HALF_WIDTH, -HIP_DROP, 0.0);
            let ankle = foot.position + Vec3::Y * ANKLE;
            let foot_rotation = Quat::from_rotation_y(foot.yaw);
            let [thigh, shin] = leg(
                pelvis_rotation.inverse() * (ankle - hip),
                pelvis_rotation.inverse() * (foot_rotation * Vec3::Z),
            );
            q[joint(names[0])] = thigh;
            q[joint(names[1])] = shin;
            q[joint(names[2])] = (pelvis_rotation * thigh * shin).inverse() * foot_rotation;
        }
        let arm = (22.0 + 18.0 * self.run) * forward;
        let elbow = -20.0 - 55.0 * self.run * active;
        q[joint("upperarm_l")] = rx(arm * swing) * rz(6.0);
        q[joint("upperarm_r")] = rx(-arm * swing) * rz(-6.0);
        q[joint("forearm_l")] = rx(elbow - 10.0 * forward * swing.max(0.0));
        q[joint("forearm_r")] = rx(elbow - 10.0 * forward * (-swing).max(0.0));
        q[joint("spine_01")] = rx(10.0 * self.run * active + 3.0 * forward.abs());
        q[joint("spine_02")] = ry(6.0 * swing * forward);
        q[joint("head")] = rx(-6.0 * self.run * active) * ry(8.0 * turn.clamp(-1.0, 1.0));
        (q, pelvis)
    }

    /// The clip: every joint's rotation keyed at 30 Hz, the pelvis's translation with them.
    pub fn clip(self) -> ClipSpec {
        let path = Path::of(&self);
        let frames = (self.duration_secs * HZ).round() as usize;
        let samples: Vec<([Quat; 24], Vec3)> = (0..=frames)
            .map(|f| self.pose(&path, f as f32 / HZ))
            .collect();
        let samples = std::rc::Rc::new(samples);
        let key = move |t: f32| ((t * HZ).round().max(0.0) as usize).min(frames);
        let rotations = (0..JOINTS.len())
            .filter(|&j| !JOINTS[j].0.starts_with("toe"))
            .map(|j| {
                let samples = samples.clone();
                let curve: super::RotationCurve = Box::new(move |t| samples[key(t)].0[j]);
                (j, curve)
            })
            .collect();
        let pelvis = samples.clone();
        ClipSpec {
            name: self.name,
            duration_secs: self.duration_secs,
            events: Vec::new(),
            rotations,
            pelvis_translation: Some(Box::new(move |t| pelvis[key(t)].1)),
        }
    }
}

/// A smooth minimum of `a` and `b` within about `k`.
fn soft_min(a: f32, b: f32, k: f32) -> f32 {
    let m = a.min(b);
    m - k * ((-(a - m) / k).exp() + (-(b - m) / k).exp()).ln()
}

/// The thigh's and the shin's local rotations reaching `to` (the ankle from the hip, in the
/// pelvis's frame) with the knee toward `pole`; both bones rest along -Y, the knee bending
/// about the thigh's X.
fn leg(to: Vec3, pole: Vec3) -> [Quat; 2] {
    let reach = to.length().clamp(0.05, 0.999 * (THIGH + SHIN));
    let n = to.normalize_or(Vec3::NEG_Y);
    let ahead = (pole - n * pole.dot(n)).normalize_or(Vec3::Z);
    let cos_hip =
        ((THIGH * THIGH + reach * reach - SHIN * SHIN) / (2.0 * THIGH * reach)).clamp(-1.0, 1.0);
    let (sin_b, cos_b) = (cos_hip.acos().sin(), cos_hip);
    let thigh_dir = n * cos_b + ahead * sin_b;
    let z = ahead * cos_b - n * sin_b;
    let y = -thigh_dir;
    let thigh = Quat::from_mat3(&Mat3::from_cols(y.cross(z), y, z)).normalize();
    let knee = thigh_dir * THIGH;
    let shin_dir = thigh.inverse() * (to.normalize_or(Vec3::NEG_Y) * reach - knee).normalize();
    let bend = (-shin_dir.z).atan2(-shin_dir.y);
    [thigh, Quat::from_rotation_x(bend)]
}

fn constant(v: f32) -> Profile {
    Box::new(move |_| v)
}

/// Ramps from `from` to `to` between `t0` and `t1`.
fn ramp(from: f32, to: f32, t0: f32, t1: f32) -> Profile {
    Box::new(move |t| from + (to - from) * smoothstep((t - t0) / (t1 - t0)))
}

/// A cyclic walk or run: one stride at a constant speed.
fn steady(name: &'static str, speed: f32, cycle_secs: f32, run: f32) -> Gait {
    Gait {
        name,
        duration_secs: cycle_secs,
        cycle_secs,
        duty: 0.62 - 0.28 * run,
        lift: 0.08 + 0.06 * run,
        run,
        forward: constant(speed),
        sideways: constant(0.0),
        turn: constant(0.0),
    }
}

/// A walk at 1.2 m/s turning `degrees` (positive: left) over `turn_secs`, 0.6 s into the
/// clip, walking on 1.2 s after.
fn turning(name: &'static str, degrees: f32, turn_secs: f32) -> Gait {
    let rate = degrees.to_radians() / turn_secs;
    let (t0, t1) = (0.6, 0.6 + turn_secs);
    Gait {
        name,
        duration_secs: t1 + 1.2,
        cycle_secs: 0.9,
        duty: 0.62,
        lift: 0.08,
        run: 0.0,
        forward: constant(1.2),
        sideways: constant(0.0),
        turn: Box::new(move |t| {
            let edge = 0.15;
            rate * smoothstep((t - t0) / edge) * (1.0 - smoothstep((t - t1 + edge) / edge))
        }),
    }
}

/// The generated locomotion clips, after the hand-made ones.
pub(super) fn clips() -> Vec<ClipSpec> {
    let walk = |name, forward: Profile, sideways: Profile, duration_secs: f32| Gait {
        name,
        duration_secs,
        cycle_secs: 0.9,
        duty: 0.64,
        lift: 0.07,
        run: 0.0,
        forward,
        sideways,
        turn: constant(0.0),
    };
    [
        steady("walk_slow", 0.8, 1.0, 0.0),
        steady("walk_fast", 1.5, 0.8, 0.0),
        steady("run", 2.8, 0.7, 1.0),
        steady("run_fast", 3.8, 0.6, 1.0),
        turning("turn_left_45", 45.0, 0.6),
        turning("turn_right_45", -45.0, 0.6),
        turning("turn_left_90", 90.0, 0.9),
        turning("turn_right_90", -90.0, 0.9),
        turning("turn_left_180", 180.0, 1.5),
        turning("turn_right_180", -180.0, 1.5),
        walk("start", ramp(0.0, 1.2, 0.4, 1.2), constant(0.0), 2.6),
        walk("stop", ramp(1.2, 0.0, 0.3, 1.0), constant(0.0), 2.8),
        walk("side_step_left", constant(0.0), constant(0.7), 0.9),
        walk("side_step_right", constant(0.0), constant(-0.7), 0.9),
    ]
    .into_iter()
    .map(Gait::clip)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every joint's world position of a pose, by forward kinematics over `JOINTS`.
    fn world(q: &[Quat; 24], pelvis: Vec3) -> Vec<Vec3> {
        let mut out: Vec<(Vec3, Quat)> = Vec::new();
        for (k, (_, parent, t)) in JOINTS.iter().enumerate() {
            let local = if k == 0 { pelvis } else { Vec3::from(*t) };
            out.push(match parent {
                None => (local, q[k]),
                Some(p) => (out[*p].0 + out[*p].1 * local, out[*p].1 * q[k]),
            });
        }
        out.into_iter().map(|(p, _)| p).collect()
    }

    #[test]
    fn planted_ankles_stay_where_they_were_planted() {
        for g in [
            steady("walk_slow", 0.8, 1.0, 0.0),
            steady("run", 2.8, 0.7, 1.0),
            turning("turn_left_90", 90.0, 0.9),
        ] {
            let path = Path::of(&g);
            for f in 0..=(g.duration_secs * HZ) as usize {
                let t = f as f32 / HZ;
                let (q, pelvis) = g.pose(&path, t);
                let at = world(&q, pelvis);
                for (side, name) in [(1.0, "foot_l"), (-1.0, "foot_r")] {
                    let foot = g.foot(&path, side, t);
                    if foot.position.y > 0.0 {
                        continue;
                    }
                    let want = foot.position + Vec3::Y * ANKLE;
                    let got = at[joint(name)];
                    assert!(
                        got.distance(want) < 2e-3,
                        "{} {name} at {t}: {got} against {want}",
                        g.name
                    );
                }
            }
        }
    }
}
