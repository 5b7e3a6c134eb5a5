//! The physics options of the posing subcommands: a ragdoll over the animation, limp or
//! powered, its per-subtree weights and stiffness, and impulses at set times, stepped at a
//! fixed 60 Hz through `--simulate`.

use clap::ValueEnum;
use glam::Vec3;
use skinscope::character::Character;
use skinscope::perform::PhysicsInput;
use skinscope::physics::{DEFAULT_STIFFNESS, MAX_STIFFNESS, PhysicsMode};

use super::values::{parse_finite, parse_range, parse_unit, parse_vec3};

/// The largest impulse component, in mass times speed (kg m/s at metres).
const MAX_IMPULSE: f32 = 1e4;

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum PhysicsArg {
    Powered,
    Limp,
}

#[derive(clap::Args, Clone, Debug, Default)]
pub struct PhysicsArgs {
    /// A ragdoll over the animation, last in the frame (after foot IK): powered (driven toward
    /// the animated pose at --physics-stiffness) or limp. Needs --simulate: it steps at 60 Hz.
    #[arg(long, value_enum)]
    pub physics: Option<PhysicsArg>,
    /// The physics weight of a subtree: ROOT=W, W from 0 (the animation) to 1 (the physics);
    /// joints under no listed root weigh 0 (repeatable; none: every joint 1).
    #[arg(long, requires = "physics")]
    pub physics_weight: Vec<String>,
    /// A powered ragdoll's drive toward the animation, per second (0 to 60).
    #[arg(long, requires = "physics", value_parser = parse_stiffness, default_value_t = DEFAULT_STIFFNESS, allow_negative_numbers = true)]
    pub physics_stiffness: f32,
    /// An impulse on a joint's body at a time of the run: JOINT=X,Y,Z@SECS, in mass times
    /// speed (kg m/s for a character in metres; repeatable).
    #[arg(long, requires = "physics", allow_hyphen_values = true)]
    pub impulse: Vec<String>,
}

fn parse_stiffness(s: &str) -> Result<f32, String> {
    parse_range(s, "--physics-stiffness", (0.0, MAX_STIFFNESS))
}

/// An impulse asked for: the joint, the impulse, and the run's time it lands at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impulse {
    pub joint: usize,
    pub impulse: Vec3,
    pub at_secs: f32,
}

impl PhysicsArgs {
    /// Refuses the physics outside a simulated run.
    pub fn check(&self, simulated: bool) -> Result<(), String> {
        if self.physics.is_some() && !simulated {
            return Err(
                "--physics steps a ragdoll at 60 Hz from t = 0: give --simulate SECS".into(),
            );
        }
        Ok(())
    }

    /// The physics input these options ask for, on `c`'s joints.
    pub fn input(&self, c: &Character) -> Result<PhysicsInput, String> {
        let weights =
            self.physics_weight
                .iter()
                .map(|spec| {
                    let (name, w) = spec
                        .rsplit_once('=')
                        .ok_or_else(|| format!("--physics-weight {spec:?} is not ROOT=W"))?;
                    let joint = c.skeleton.find(name).ok_or_else(|| {
                        format!("--physics-weight: no joint {name:?} in {}", c.name)
                    })?;
                    Ok((joint, parse_unit(w, "--physics-weight")?))
                })
                .collect::<Result<Vec<_>, String>>()?;
        Ok(PhysicsInput {
            mode: self.physics.map(|p| match p {
                PhysicsArg::Powered => PhysicsMode::Powered,
                PhysicsArg::Limp => PhysicsMode::Limp,
            }),
            stiffness: self.physics_stiffness,
            weights,
        })
    }

    /// The impulses, in the order given.
    pub fn impulses(&self, c: &Character) -> Result<Vec<Impulse>, String> {
        self.impulse
            .iter()
            .map(|spec| {
                let bad = || format!("--impulse {spec:?} is not JOINT=X,Y,Z@SECS");
                let (name, rest) = spec.split_once('=').ok_or_else(bad)?;
                let (vector, at) = rest.rsplit_once('@').ok_or_else(bad)?;
                let joint = c
                    .skeleton
                    .find(name)
                    .ok_or_else(|| format!("--impulse: no joint {name:?} in {}", c.name))?;
                let impulse = parse_vec3(vector).map_err(|e| format!("--impulse {spec:?}: {e}"))?;
                if impulse.abs().max_element() > MAX_IMPULSE {
                    return Err(format!(
                        "--impulse {spec:?}: a component beyond {MAX_IMPULSE}"
                    ));
                }
                let at_secs = parse_finite(at)?;
                if at_secs < 0.0 {
                    return Err(format!("--impulse {spec:?}: the time is negative"));
                }
                Ok(Impulse {
                    joint,
                    impulse,
                    at_secs,
                })
            })
            .collect()
    }
}
