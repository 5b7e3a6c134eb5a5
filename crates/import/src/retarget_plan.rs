//! A retarget map file (`--retarget-map`): which source joint each target joint takes its motion
//! from, and the retarget's settings. Two forms are read:
//!
//! - a JSON object of source joint name -> target joint name: those pairs, the settings'
//!   defaults;
//! - the form the window saves: `{"joints": {source: target, ...}, "offsets": {"left_arm":
//!   [x, y, z], ...}, "ik_limbs": bool, "rotation_only": bool, "root_motion": "keep" |
//!   "remove" | factor, "motion_scale": factor}`, every key optional (no `joints`: auto-mapping).
//!   An object with any of these keys is read in this form.

use std::path::Path;

use glam::Vec3;
use serde_json::{Map, Value, json};

use crate::anim::{BodyChain, RetargetSettings, RootTravel};

/// What a map file says: the pairs (none: auto-mapping) and the settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RetargetPlan {
    /// (source joint, target joint) by name; none: auto-mapping.
    pub pairs: Option<Vec<(String, String)>>,
    pub settings: RetargetSettings,
}

impl RetargetPlan {
    /// The pairs, as `match_joints` takes them.
    pub fn pairs(&self) -> Option<&[(String, String)]> {
        self.pairs.as_deref()
    }

    /// The file's JSON text in the saved form (`pairs` in order, defaults left out).
    pub fn to_json(&self) -> String {
        let mut out = Map::new();
        if let Some(pairs) = &self.pairs {
            let joints: Map<String, Value> = pairs
                .iter()
                .map(|(s, t)| (s.clone(), Value::from(t.clone())))
                .collect();
            out.insert("joints".into(), Value::Object(joints));
        }
        let s = &self.settings;
        let offsets: Map<String, Value> = BodyChain::ALL
            .iter()
            .filter(|c| s.offsets[c.index()] != Vec3::ZERO)
            .map(|c| (c.key().to_string(), json!(s.offsets[c.index()].to_array())))
            .collect();
        if !offsets.is_empty() {
            out.insert("offsets".into(), Value::Object(offsets));
        }
        if s.ik_limbs {
            out.insert("ik_limbs".into(), json!(true));
        }
        if s.rotation_only {
            out.insert("rotation_only".into(), json!(true));
        }
        match s.root_motion {
            RootTravel::Keep => {}
            RootTravel::Remove => {
                out.insert("root_motion".into(), json!("remove"));
            }
            RootTravel::Scale(k) => {
                out.insert("root_motion".into(), json!(k));
            }
        }
        if let Some(k) = s.motion_scale {
            out.insert("motion_scale".into(), json!(k));
        }
        serde_json::to_string_pretty(&Value::Object(out)).unwrap_or_default() + "\n"
    }

    /// Reads a map file's JSON text; an error names the JSON pointer and what is wrong.
    pub fn parse(text: &str) -> Result<Self, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let object = value.as_object().ok_or(
            "a retarget map is an object of source -> target joint names, or of \"joints\" and settings",
        )?;
        if !object.keys().any(|k| KEYS.contains(&k.as_str())) {
            return Ok(Self {
                pairs: Some(pairs_of(object)?),
                settings: RetargetSettings::default(),
            });
        }
        let mut plan = Self::default();
        for (key, v) in object {
            let at = format!("/{}", pointer_token(key));
            let number = |v: &Value| {
                v.as_f64()
                    .map(|f| f as f32)
                    .filter(|f| f.is_finite())
                    .ok_or_else(|| format!("{at}: a number"))
            };
            let flag = |v: &Value| v.as_bool().ok_or_else(|| format!("{at}: true or false"));
            match key.as_str() {
                "joints" => {
                    let joints = v
                        .as_object()
                        .ok_or(format!("{at}: an object of source -> target joint names"))?;
                    plan.pairs = Some(pairs_of(joints).map_err(|e| format!("/joints{e}"))?);
                }
                "offsets" => {
                    let offsets = v
                        .as_object()
                        .ok_or(format!("{at}: an object of chain -> [x, y, z] degrees"))?;
                    for (chain, angles) in offsets {
                        let at = format!("{at}/{}", pointer_token(chain));
                        let c = BodyChain::from_key(chain).ok_or_else(|| {
                            let keys: Vec<&str> = BodyChain::ALL.iter().map(|c| c.key()).collect();
                            format!("{at}: not a chain (one of {})", keys.join(", "))
                        })?;
                        let xyz: Option<Vec<f32>> = angles.as_array().and_then(|a| {
                            a.iter()
                                .map(|v| v.as_f64().map(|f| f as f32).filter(|f| f.is_finite()))
                                .collect()
                        });
                        match xyz.as_deref() {
                            Some([x, y, z]) => {
                                plan.settings.offsets[c.index()] = Vec3::new(*x, *y, *z)
                            }
                            _ => return Err(format!("{at}: three angles in degrees, [x, y, z]")),
                        }
                    }
                }
                "ik_limbs" => plan.settings.ik_limbs = flag(v)?,
                "rotation_only" => plan.settings.rotation_only = flag(v)?,
                "root_motion" => {
                    plan.settings.root_motion = match v.as_str() {
                        Some("keep") => RootTravel::Keep,
                        Some("remove") => RootTravel::Remove,
                        Some(other) => {
                            return Err(format!(
                                "{at}: \"keep\", \"remove\" or a factor, not {other:?}"
                            ));
                        }
                        None => RootTravel::Scale(number(v)?),
                    }
                }
                "motion_scale" => {
                    let k = number(v)?;
                    if k <= 0.0 {
                        return Err(format!("{at}: a scale above 0"));
                    }
                    plan.settings.motion_scale = Some(k);
                }
                other => {
                    return Err(format!(
                        "{at}: {other:?} is not a key of a retarget map (joints, offsets, ik_limbs, rotation_only, root_motion, motion_scale)"
                    ));
                }
            }
        }
        Ok(plan)
    }

    /// Reads a map file, naming it in an error.
    pub fn read(path: &Path) -> Result<Self, String> {
        crate::read_map(path).map_err(|e| e.to_string())
    }
}

/// The keys of the saved form: an object with none of them is the plain form.
const KEYS: [&str; 6] = [
    "joints",
    "offsets",
    "ik_limbs",
    "rotation_only",
    "root_motion",
    "motion_scale",
];

/// (source, target) pairs from an object of names; an error is a pointer below it.
fn pairs_of(object: &Map<String, Value>) -> Result<Vec<(String, String)>, String> {
    object
        .iter()
        .map(|(from, to)| match to.as_str() {
            Some(to) => Ok((from.clone(), to.to_owned())),
            None => Err(format!(
                "/{}: the target joint is a name (a string)",
                pointer_token(from)
            )),
        })
        .collect()
}

/// A JSON pointer's token for `key` (`~` and `/` escaped).
fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
