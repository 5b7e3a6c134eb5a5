//! A character's pose drivers: `anim::PoseDriver`s bound to its joints and
//! outputs, read from a JSON file (`--drivers FILE.json`), and their stage in the frame: after
//! IK and the physics pose, before local-to-model, beside the morph weights. Each driver reads
//! its joint's local rotation; its outputs add to a mesh's morph target weight (a corrective) or
//! offset a helper joint's local translation (units) or rotation (degrees about a local axis).
//!
//! The file:
//! ```json
//! {"drivers": [{"name": "elbow_l", "joint": "forearm_l", "mode": "swing", "width_degrees": 40,
//!   "outputs": [{"morph": "mannequin:smile"}, {"joint": "hand_l", "offset": "ty"}],
//!   "rest": [0, 0],
//!   "poses": [{"rotation_degrees": [-90, 0, 0], "values": [1, 0.02]},
//!             {"rotation": [0, 0, 0, 1], "values": [0, 0]}]}]}
//! ```
//! An exporter may write the same drivers into a node's extras, `{"skinscope_drivers": [...]}`
//! (their joint that node unless they name one): `DriverSet::from_extras`.
//! `mode` is `full`, `swing` or `twist` (about the bone: toward the joint's first child);
//! `rotation_degrees` is X, then Y, then Z (`Quat::from_euler(XYZ)`), `rotation` a quaternion
//! x, y, z, w; `rest` defaults to zeros.

use glam::{EulerRot, Quat, Vec3};
use serde_json::Value;

use crate::anim::{DriverMode, LocalPose, PoseDriver};
use crate::character::Character;

/// The most drivers, and outputs a driver, a file may hold.
pub const MAX_DRIVERS: usize = 256;
pub const MAX_OUTPUTS: usize = 64;

/// What a driver's output moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DriverOutput {
    /// Adds to glTF mesh `mesh`'s target `target` weight, on every node drawing it.
    Morph { mesh: usize, target: usize },
    /// Offsets joint `joint`'s local translation along axis `axis` (0, 1, 2: X, Y, Z).
    Translate { joint: usize, axis: usize },
    /// Turns joint `joint`'s local rotation about its axis `axis`, degrees.
    Rotate { joint: usize, axis: usize },
}

/// One driver bound to the character.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundDriver {
    pub name: String,
    pub joint: usize,
    pub driver: PoseDriver,
    pub outputs: Vec<DriverOutput>,
}

/// A character's pose drivers, in evaluation order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DriverSet {
    pub drivers: Vec<BoundDriver>,
}

/// A driver file's problem: where (a JSON pointer) and what.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{pointer}: {message}")]
pub struct DriverFileError {
    pub pointer: String,
    pub message: String,
}

fn problem(pointer: impl Into<String>, message: impl Into<String>) -> DriverFileError {
    DriverFileError {
        pointer: pointer.into(),
        message: message.into(),
    }
}

impl DriverSet {
    /// The drivers a file's text defines for `c`.
    pub fn parse(text: &str, c: &Character) -> Result<Self, DriverFileError> {
        let json: Value = serde_json::from_str(text).map_err(|e| {
            problem(
                format!("line {}, column {}", e.line(), e.column()),
                e.to_string(),
            )
        })?;
        let list = json
            .get("drivers")
            .and_then(Value::as_array)
            .ok_or_else(|| problem("/drivers", "expected an array of drivers"))?;
        if list.len() > MAX_DRIVERS {
            return Err(problem(
                "/drivers",
                format!("{} drivers, more than {MAX_DRIVERS}", list.len()),
            ));
        }
        let drivers = list
            .iter()
            .enumerate()
            .map(|(i, d)| bind(d, &format!("/drivers/{i}"), c))
            .collect::<Result<_, _>>()?;
        Ok(Self { drivers })
    }

    /// The drivers an exporter wrote in the file's node extras (`extras.skinscope_drivers` on
    /// a node: drivers as a drivers file holds them, their joint that node unless named);
    /// `None` when no node has any. A problem is named at its JSON pointer in the file.
    pub fn from_extras(c: &Character) -> Result<Option<Self>, DriverFileError> {
        if c.driver_extras.is_empty() {
            return Ok(None);
        }
        let mut drivers = Vec::new();
        for (node, joint, text) in &c.driver_extras {
            let at = format!("/nodes/{node}/extras/skinscope_drivers");
            let list: Value =
                serde_json::from_str(text).map_err(|e| problem(&at, e.to_string()))?;
            let list = list
                .as_array()
                .ok_or_else(|| problem(&at, "expected an array of drivers"))?;
            for (k, d) in list.iter().enumerate() {
                let mut d = d.clone();
                if let Some(o) = d.as_object_mut() {
                    let name = c.skeleton.names()[*joint].clone();
                    o.entry("joint").or_insert(Value::String(name));
                }
                drivers.push(bind(&d, &format!("{at}/{k}"), c)?);
                if drivers.len() > MAX_DRIVERS {
                    return Err(problem(at, format!("more than {MAX_DRIVERS} drivers")));
                }
            }
        }
        Ok(Some(Self { drivers }))
    }

    /// The most poses and outputs of any driver (the scratch the stage needs).
    pub fn sizes(&self) -> (usize, usize) {
        self.drivers.iter().fold((0, 0), |(p, o), d| {
            (p.max(d.driver.poses.len()), o.max(d.outputs.len()))
        })
    }

    /// Every driver's poses, in order (how many pose weights the stage writes).
    pub fn pose_count(&self) -> usize {
        self.drivers.iter().map(|d| d.driver.poses.len()).sum()
    }

    /// The stage: every driver read from `local` in order, its outputs added to the morph
    /// weights (`weights`, by `base` per instance of `c`) and to `local`'s helper joints.
    /// `scratch` is sized here once and reused; it starts with every driver's pose weights, in
    /// order (`pose_count` of them), for the panel.
    pub fn apply(
        &self,
        c: &Character,
        local: &mut LocalPose,
        (weights, base): (&mut [f32], &[u32]),
        scratch: &mut Vec<f32>,
    ) {
        let (poses, outputs) = self.sizes();
        let all = self.pose_count();
        if scratch.len() != all + poses + outputs {
            scratch.resize(all + poses + outputs, 0.0);
        }
        let (pose_weights, rest) = scratch.split_at_mut(all);
        let (kernel, out) = rest.split_at_mut(poses);
        let mut at = 0;
        for d in &self.drivers {
            let n = d.driver.poses.len();
            let w = &mut pose_weights[at..at + n];
            at += n;
            let out = &mut out[..d.outputs.len()];
            let q = local.as_slice()[d.joint].rotation;
            d.driver.weights(q, &mut kernel[..n], w);
            d.driver.outputs_for(w, out);
            for (o, &v) in d.outputs.iter().zip(out.iter()) {
                match *o {
                    DriverOutput::Morph { mesh, target } => {
                        for (i, inst) in c.instances.iter().enumerate() {
                            let (a, b) = (base[i] as usize, base[i + 1] as usize);
                            if inst.mesh == mesh && target < b - a {
                                weights[a + target] += v;
                            }
                        }
                    }
                    DriverOutput::Translate { joint, axis } => {
                        local.as_mut_slice()[joint].translation[axis] += v;
                    }
                    DriverOutput::Rotate { joint, axis } => {
                        let t = &mut local.as_mut_slice()[joint];
                        let turn = Quat::from_axis_angle(Vec3::AXES[axis], v.to_radians());
                        t.rotation = (t.rotation * turn).normalize();
                    }
                }
            }
        }
    }
}

/// One driver of the file, bound to `c`'s joints and meshes.
fn bind(d: &Value, at: &str, c: &Character) -> Result<BoundDriver, DriverFileError> {
    let name = d
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("driver")
        .to_string();
    let joint_name = d
        .get("joint")
        .and_then(Value::as_str)
        .ok_or_else(|| problem(format!("{at}/joint"), "expected the driver joint's name"))?;
    let joint = c.skeleton.find(joint_name).ok_or_else(|| {
        problem(
            format!("{at}/joint"),
            format!("no joint {joint_name:?} in {}", c.name),
        )
    })?;
    let mode = match d.get("mode").and_then(Value::as_str).unwrap_or("full") {
        "full" => DriverMode::Full,
        "swing" => DriverMode::Swing,
        "twist" => DriverMode::Twist,
        other => {
            return Err(problem(
                format!("{at}/mode"),
                format!("{other:?} is not full, swing or twist"),
            ));
        }
    };
    let width = d
        .get("width_degrees")
        .map_or(Some(45.0), Value::as_f64)
        .filter(|w| w.is_finite() && *w > 0.0 && *w <= 360.0)
        .ok_or_else(|| problem(format!("{at}/width_degrees"), "expected an angle in 0..360"))?
        as f32;
    let outputs = outputs_of(d, at, c)?;
    let rest = match d.get("rest") {
        None => vec![0.0; outputs.len()],
        Some(v) => numbers(v, &format!("{at}/rest"), Some(outputs.len()))?,
    };
    let list = d
        .get("poses")
        .and_then(Value::as_array)
        .ok_or_else(|| problem(format!("{at}/poses"), "expected an array of poses"))?;
    let mut poses = Vec::with_capacity(list.len());
    for (k, p) in list.iter().enumerate() {
        let here = format!("{at}/poses/{k}");
        let rotation = rotation_of(p, &here)?;
        let values = p
            .get("values")
            .ok_or_else(|| problem(format!("{here}/values"), "expected the outputs' values"))?;
        let values = numbers(values, &format!("{here}/values"), Some(outputs.len()))?;
        poses.push((rotation, values));
    }
    let axis = c.skeleton.bone_axis(joint);
    let driver = PoseDriver::new((mode, axis, width.to_radians()), &poses, rest)
        .map_err(|e| problem(format!("{at}/poses"), e.to_string()))?;
    Ok(BoundDriver {
        name,
        joint,
        driver,
        outputs,
    })
}

fn outputs_of(d: &Value, at: &str, c: &Character) -> Result<Vec<DriverOutput>, DriverFileError> {
    let list = d
        .get("outputs")
        .and_then(Value::as_array)
        .ok_or_else(|| problem(format!("{at}/outputs"), "expected an array of outputs"))?;
    if list.len() > MAX_OUTPUTS {
        return Err(problem(
            format!("{at}/outputs"),
            format!("{} outputs, more than {MAX_OUTPUTS}", list.len()),
        ));
    }
    list.iter()
        .enumerate()
        .map(|(k, o)| {
            let here = format!("{at}/outputs/{k}");
            if let Some(spec) = o.get("morph").and_then(Value::as_str) {
                return morph_output(spec, &here, c);
            }
            let name = o.get("joint").and_then(Value::as_str).ok_or_else(|| {
                problem(&here, "expected {\"morph\": \"MESH:TARGET\"} or {\"joint\": NAME, \"offset\": \"tx\"|...}")
            })?;
            let joint = c.skeleton.find(name).ok_or_else(|| {
                problem(format!("{here}/joint"), format!("no joint {name:?} in {}", c.name))
            })?;
            let offset = o.get("offset").and_then(Value::as_str).unwrap_or("");
            let axis = |ch: char| "xyz".find(ch);
            match (offset.chars().next(), offset.chars().nth(1).and_then(axis), offset.len()) {
                (Some('t'), Some(axis), 2) => Ok(DriverOutput::Translate { joint, axis }),
                (Some('r'), Some(axis), 2) => Ok(DriverOutput::Rotate { joint, axis }),
                _ => Err(problem(
                    format!("{here}/offset"),
                    format!("{offset:?} is not tx, ty, tz, rx, ry or rz"),
                )),
            }
        })
        .collect()
}

/// `MESH:TARGET`, each by name or index.
fn morph_output(spec: &str, at: &str, c: &Character) -> Result<DriverOutput, DriverFileError> {
    let (mesh_key, target_key) = spec.rsplit_once(':').ok_or_else(|| {
        problem(
            format!("{at}/morph"),
            format!("{spec:?} is not MESH:TARGET"),
        )
    })?;
    let k = c
        .meshes
        .iter()
        .position(|m| m.name == mesh_key)
        .or_else(|| {
            let i: usize = mesh_key.parse().ok()?;
            c.meshes.iter().position(|m| m.index == i)
        })
        .ok_or_else(|| {
            problem(
                format!("{at}/morph"),
                format!("no mesh {mesh_key:?} in {}", c.name),
            )
        })?;
    let (mesh, names) = (c.meshes[k].index, &c.meshes[k].target_names);
    let count = c.meshes[k]
        .primitives
        .iter()
        .map(|p| p.morph_targets.len())
        .max()
        .unwrap_or(0);
    let target = names
        .iter()
        .position(|n| n == target_key)
        .or_else(|| target_key.parse().ok().filter(|&i: &usize| i < count))
        .ok_or_else(|| {
            problem(
                format!("{at}/morph"),
                format!("mesh {mesh_key:?} has no morph target {target_key:?}"),
            )
        })?;
    Ok(DriverOutput::Morph { mesh, target })
}

fn rotation_of(p: &Value, at: &str) -> Result<Quat, DriverFileError> {
    if let Some(v) = p.get("rotation") {
        let q = numbers(v, &format!("{at}/rotation"), Some(4))?;
        let q = Quat::from_xyzw(q[0], q[1], q[2], q[3]);
        if q.length() < 1e-6 {
            return Err(problem(format!("{at}/rotation"), "a zero quaternion"));
        }
        return Ok(q.normalize());
    }
    if let Some(v) = p.get("rotation_degrees") {
        let e = numbers(v, &format!("{at}/rotation_degrees"), Some(3))?;
        let [x, y, z] = [e[0], e[1], e[2]].map(f32::to_radians);
        return Ok(Quat::from_euler(EulerRot::XYZ, x, y, z));
    }
    Err(problem(
        at,
        "expected \"rotation\": [X, Y, Z, W] or \"rotation_degrees\": [X, Y, Z]",
    ))
}

/// A JSON array of finite numbers (of `len`, when given).
fn numbers(v: &Value, at: &str, len: Option<usize>) -> Result<Vec<f32>, DriverFileError> {
    let list = v
        .as_array()
        .ok_or_else(|| problem(at, "expected an array of numbers"))?;
    if let Some(n) = len
        && list.len() != n
    {
        return Err(problem(at, format!("{} numbers; expected {n}", list.len())));
    }
    list.iter()
        .enumerate()
        .map(|(k, x)| {
            x.as_f64()
                .map(|x| x as f32)
                .filter(|x| x.is_finite())
                .ok_or_else(|| problem(format!("{at}/{k}"), "expected a finite number"))
        })
        .collect()
}
