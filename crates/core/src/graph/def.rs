//! A state machine's definition, read from JSON and resolved against a character (clips and
//! joints by name or index). Every error names the file and the JSON pointer of the value.
//!
//! ```json
//! {
//!   "parameters": [
//!     {"name": "speed", "type": "float", "min": 0, "max": 1.4, "default": 0},
//!     {"name": "wave", "type": "bool"},
//!     {"name": "hop", "type": "trigger"}
//!   ],
//!   "initial": "idle",
//!   "states": [
//!     {"name": "idle", "clip": "idle"},
//!     {"name": "locomotion",
//!      "blend_space": {"parameter": "speed", "clips": [{"clip": "idle", "at": 0}, {"clip": "walk", "at": 1.4}]},
//!      "layers": [{"clip": "wave", "mask": ["clavicle_r", {"joint": "head", "weight": 0.5}],
//!                  "weight": "wave", "half_life": 0.15}]}
//!   ],
//!   "transitions": [
//!     {"from": "idle", "to": "locomotion", "when": [{"parameter": "speed", "above": 0.05}],
//!      "duration": 0.15, "kind": "inertialize"},
//!     {"from": "*", "to": "idle", "when": [{"parameter": "hop"}], "exit_time": 0.5}
//!   ]
//! }
//! ```
//!
//! A layer's `mode` is `override` (default) or `additive` (with an optional `reference`:
//! `{"clip": ..., "time": ...}`; default its own first frame). Its `weight` is a number or the
//! name of a float or bool parameter. A transition's `duration` is the fade's length for a
//! crossfade and the half-life for `inertialize`; `exit_time` is a normalised time of the
//! current state's cycle from which it may fire.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use super::players::TransitionSpec;
use crate::anim::{BlendSpace1d, JointMask};
use crate::character::{Character, Problem};
use crate::pose::ClipTime;
use crate::pose::LayerBlend;

/// A graph file that was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}: {problem}", file.display())]
pub struct GraphError {
    pub file: PathBuf,
    pub problem: Problem,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    Float {
        min: f32,
        max: f32,
    },
    Bool,
    /// Set by a press; consumed by the transition it fires.
    Trigger,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ParamDef {
    pub name: String,
    pub kind: ParamKind,
    /// Booleans and triggers: 0 or 1.
    pub default: f32,
}

#[derive(Clone, Debug, PartialEq)]
pub enum MotionDef {
    Clip {
        clip: usize,
        speed: f32,
        looping: bool,
    },
    Space {
        parameter: usize,
        space: BlendSpace1d,
        speed: f32,
    },
}

/// Where a layer's target weight comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WeightSource {
    Constant(f32),
    Parameter(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub struct LayerDef {
    pub clip: usize,
    pub mask: Option<Arc<JointMask>>,
    pub blend: LayerBlend,
    pub weight: WeightSource,
    pub half_life_secs: f32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StateDef {
    pub name: String,
    pub motion: MotionDef,
    pub layers: Vec<LayerDef>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Test {
    Above(f32),
    Below(f32),
    Is(bool),
    /// A trigger was pressed (or a bool is true).
    Set,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Condition {
    pub parameter: usize,
    pub test: Test,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TransitionDef {
    /// `None`: from any state.
    pub from: Option<usize>,
    pub to: usize,
    pub when: Vec<Condition>,
    pub spec: TransitionSpec,
    pub exit_time: Option<f32>,
}

/// A resolved state machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    pub parameters: Vec<ParamDef>,
    pub states: Vec<StateDef>,
    pub transitions: Vec<TransitionDef>,
    pub initial: usize,
}

/// `Fox.skinscope.json` beside `Fox.glb`.
pub fn graph_path_beside(model: &Path) -> PathBuf {
    let stem = model.file_stem().map(|s| s.to_string_lossy().into_owned());
    model.with_file_name(format!("{}.skinscope.json", stem.unwrap_or_default()))
}

impl Graph {
    /// Reads and resolves a graph file.
    pub fn load(path: &Path, c: &Character) -> Result<Self, GraphError> {
        let fail = |pointer: &str, message: String| GraphError {
            file: path.to_path_buf(),
            problem: Problem::new(pointer, message),
        };
        let text = crate::files::read_text_capped(path, crate::files::MAX_JSON_BYTES)
            .map_err(|e| fail("", e.to_string()))?;
        Self::parse(&text, c).map_err(|problem| GraphError {
            file: path.to_path_buf(),
            problem,
        })
    }

    /// Parses and resolves a graph from JSON text.
    pub fn parse(text: &str, c: &Character) -> Result<Self, Problem> {
        let root: Value =
            serde_json::from_str(text).map_err(|e| Problem::new("", format!("not JSON: {e}")))?;
        let r = Reader { c };
        let root_obj = r.object(&root, "")?;
        let parameters = match root_obj.get("parameters") {
            Some(list) => r.parameters(list)?,
            None => Vec::new(),
        };
        let find_param = |v: &Value, at: &str| find_parameter(&r, &parameters, v, at);
        let states_json = r.array(r.field(&root, "", "states")?, "/states")?;
        let names = r.state_names(states_json)?;
        let find = |v: &Value, at: &str| find_state(&r, &names, v, at);
        let states = (states_json.iter().enumerate())
            .map(|(k, s)| r.state(s, k, &names[k], &parameters, &find_param))
            .collect::<Result<Vec<_>, _>>()?;
        let initial = match root.get("initial") {
            Some(v) => find(v, "/initial")?,
            None => 0,
        };
        let mut transitions = Vec::new();
        if let Some(list) = root.get("transitions") {
            for (k, t) in r.array(list, "/transitions")?.iter().enumerate() {
                let at = format!("/transitions/{k}");
                transitions.push(r.transition(t, &at, &parameters, &find_param, &find)?);
            }
        }
        Ok(Self {
            parameters,
            states,
            transitions,
            initial,
        })
    }

    pub fn parameter(&self, name: &str) -> Option<usize> {
        self.parameters.iter().position(|p| p.name == name)
    }
}

/// Reads values, naming the pointer of whatever is wrong.
struct Reader<'c> {
    c: &'c Character,
}

impl Reader<'_> {
    fn object<'v>(
        &self,
        v: &'v Value,
        at: &str,
    ) -> Result<&'v serde_json::Map<String, Value>, Problem> {
        v.as_object()
            .ok_or_else(|| Problem::new(at, "expected an object"))
    }

    fn array<'v>(&self, v: &'v Value, at: &str) -> Result<&'v Vec<Value>, Problem> {
        v.as_array()
            .ok_or_else(|| Problem::new(at, "expected an array"))
    }

    fn field<'v>(&self, v: &'v Value, at: &str, name: &str) -> Result<&'v Value, Problem> {
        self.object(v, at)?
            .get(name)
            .ok_or_else(|| Problem::new(at, format!("missing \"{name}\"")))
    }

    fn string(&self, v: &Value, at: &str) -> Result<String, Problem> {
        v.as_str()
            .map(str::to_owned)
            .ok_or_else(|| Problem::new(at, "expected a string"))
    }

    fn number(&self, v: &Value, at: &str) -> Result<f32, Problem> {
        v.as_f64()
            .map(|n| n as f32)
            .filter(|n| n.is_finite())
            .ok_or_else(|| Problem::new(at, "expected a finite number"))
    }

    fn number_or(&self, v: &Value, at: &str, name: &str, default: f32) -> Result<f32, Problem> {
        match v.get(name) {
            Some(n) => self.number(n, &format!("{at}/{name}")),
            None => Ok(default),
        }
    }

    fn boolean(&self, v: &Value, at: &str) -> Result<bool, Problem> {
        v.as_bool()
            .ok_or_else(|| Problem::new(at, "expected true or false"))
    }

    /// A clip by name, or by index.
    fn clip(&self, v: &Value, at: &str) -> Result<usize, Problem> {
        let clips = &self.c.clips;
        if let Some(i) = v.as_u64() {
            return usize::try_from(i)
                .ok()
                .filter(|&i| i < clips.len())
                .ok_or_else(|| {
                    Problem::new(
                        at,
                        format!("clip index {i} is out of range ({} clips)", clips.len()),
                    )
                });
        }
        let name = self.string(v, at)?;
        clips
            .iter()
            .position(|k| k.clip.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = clips.iter().map(|k| k.clip.name()).collect();
                Problem::new(
                    at,
                    format!(
                        "no clip {:?}; the clips are {}",
                        crate::files::shown(&name),
                        names.join(", ")
                    ),
                )
            })
    }

    /// A joint by name.
    fn joint(&self, v: &Value, at: &str) -> Result<usize, Problem> {
        let name = self.string(v, at)?;
        self.c.skeleton.find(&name).ok_or_else(|| {
            Problem::new(
                at,
                format!("no joint {:?} in the skeleton", crate::files::shown(&name)),
            )
        })
    }

    fn layer(&self, v: &Value, at: &str, find_param: &Find<'_>) -> Result<LayerDef, Problem> {
        let clip = self.clip(self.field(v, at, "clip")?, &format!("{at}/clip"))?;
        let mask = match v.get("mask") {
            None => None,
            Some(list) => {
                let mut roots = Vec::new();
                for (k, root) in self.array(list, &format!("{at}/mask"))?.iter().enumerate() {
                    let rat = format!("{at}/mask/{k}");
                    roots.push(if root.is_string() {
                        (self.joint(root, &rat)?, 1.0)
                    } else {
                        let joint =
                            self.joint(self.field(root, &rat, "joint")?, &format!("{rat}/joint"))?;
                        (joint, self.number_or(root, &rat, "weight", 1.0)?)
                    });
                }
                Some(Arc::new(JointMask::from_roots(&self.c.skeleton, &roots)))
            }
        };
        let blend = match v
            .get("mode")
            .map(|m| self.string(m, &format!("{at}/mode")))
            .transpose()?
            .as_deref()
        {
            None | Some("override") => LayerBlend::Override,
            Some("additive") => LayerBlend::Additive {
                reference: match v.get("reference") {
                    None => None,
                    Some(r) => {
                        let rat = format!("{at}/reference");
                        Some(ClipTime {
                            clip: self
                                .clip(self.field(r, &rat, "clip")?, &format!("{rat}/clip"))?,
                            time_secs: self.number_or(r, &rat, "time", 0.0)?,
                        })
                    }
                },
            },
            Some(other) => {
                return Err(Problem::new(
                    format!("{at}/mode"),
                    format!("{other:?} is not override or additive"),
                ));
            }
        };
        let weight = match v.get("weight") {
            None => WeightSource::Constant(1.0),
            Some(w) if w.is_string() => {
                WeightSource::Parameter(find_param(w, &format!("{at}/weight"))?)
            }
            Some(w) => {
                WeightSource::Constant(self.number(w, &format!("{at}/weight"))?.clamp(0.0, 1.0))
            }
        };
        let half_life_secs = self.number_or(v, at, "half_life", 0.15)?.max(0.0);
        Ok(LayerDef {
            clip,
            mask,
            blend,
            weight,
            half_life_secs,
        })
    }
}

/// A parameter by name: its index in `parameters`.
fn find_parameter(
    r: &Reader<'_>,
    parameters: &[ParamDef],
    v: &Value,
    at: &str,
) -> Result<usize, Problem> {
    let name = r.string(v, at)?;
    parameters
        .iter()
        .position(|p| p.name == name)
        .ok_or_else(|| Problem::new(at, format!("no parameter {:?}", crate::files::shown(&name))))
}

/// A state by name: its index in `names`.
fn find_state(r: &Reader<'_>, names: &[String], v: &Value, at: &str) -> Result<usize, Problem> {
    let name = r.string(v, at)?;
    names.iter().position(|n| *n == name).ok_or_else(|| {
        Problem::new(
            at,
            format!(
                "no state {:?}; the states are {}",
                crate::files::shown(&name),
                names.join(", ")
            ),
        )
    })
}

/// Finds a parameter or a state by the name at a JSON pointer.
type Find<'a> = dyn Fn(&Value, &str) -> Result<usize, Problem> + 'a;

/// One reader per section of the graph file: `/parameters`, the states' names, a state and its
/// motion, a transition and its conditions.
impl Reader<'_> {
    fn parameters(&self, list: &Value) -> Result<Vec<ParamDef>, Problem> {
        let r = self;
        let mut parameters: Vec<ParamDef> = Vec::new();
        for (k, p) in r.array(list, "/parameters")?.iter().enumerate() {
            let at = format!("/parameters/{k}");
            let name = r.string(r.field(p, &at, "name")?, &format!("{at}/name"))?;
            if parameters.iter().any(|q| q.name == name) {
                return Err(Problem::new(
                    format!("{at}/name"),
                    format!("a second parameter {:?}", crate::files::shown(&name)),
                ));
            }
            let kind_at = format!("{at}/type");
            let kind = match r.string(r.field(p, &at, "type")?, &kind_at)?.as_str() {
                "float" => ParamKind::Float {
                    min: r.number_or(p, &at, "min", 0.0)?,
                    max: r.number_or(p, &at, "max", 1.0)?,
                },
                "bool" => ParamKind::Bool,
                "trigger" => ParamKind::Trigger,
                other => {
                    return Err(Problem::new(
                        kind_at,
                        format!("{other:?} is not float, bool or trigger"),
                    ));
                }
            };
            if let ParamKind::Float { min, max } = kind
                && min >= max
            {
                return Err(Problem::new(
                    at,
                    format!("min {min} is not below max {max}"),
                ));
            }
            let default = match (kind, p.get("default")) {
                (_, None) => 0.0,
                (ParamKind::Float { min, max }, Some(v)) => {
                    r.number(v, &format!("{at}/default"))?.clamp(min, max)
                }
                (_, Some(v)) => f32::from(u8::from(r.boolean(v, &format!("{at}/default"))?)),
            };
            parameters.push(ParamDef {
                name,
                kind,
                default,
            });
        }
        Ok(parameters)
    }

    /// The states' names, each once (`*` is taken: it means any state).
    fn state_names(&self, states: &[Value]) -> Result<Vec<String>, Problem> {
        if states.is_empty() {
            return Err(Problem::new("/states", "a graph needs at least one state"));
        }
        let mut names: Vec<String> = Vec::new();
        for (k, s) in states.iter().enumerate() {
            let at = format!("/states/{k}/name");
            let name = self.string(self.field(s, &format!("/states/{k}"), "name")?, &at)?;
            if names.contains(&name) || name == "*" {
                return Err(Problem::new(
                    at,
                    format!("state name {:?} is taken", crate::files::shown(&name)),
                ));
            }
            names.push(name);
        }
        Ok(names)
    }

    /// State `k`: its motion and its layers.
    fn state(
        &self,
        s: &Value,
        k: usize,
        name: &str,
        parameters: &[ParamDef],
        find_param: &Find<'_>,
    ) -> Result<StateDef, Problem> {
        let at = format!("/states/{k}");
        let motion = self.motion(s, &at, parameters, find_param)?;
        let mut layers = Vec::new();
        if let Some(list) = s.get("layers") {
            for (l, layer) in self
                .array(list, &format!("{at}/layers"))?
                .iter()
                .enumerate()
            {
                layers.push(self.layer(layer, &format!("{at}/layers/{l}"), find_param)?);
            }
        }
        Ok(StateDef {
            name: name.to_owned(),
            motion,
            layers,
        })
    }

    /// A state's `clip` or `blend_space`.
    fn motion(
        &self,
        s: &Value,
        at: &str,
        parameters: &[ParamDef],
        find_param: &Find<'_>,
    ) -> Result<MotionDef, Problem> {
        let r = self;
        let speed = r.number_or(s, at, "speed", 1.0)?;
        match (s.get("clip"), s.get("blend_space")) {
            (Some(clip), None) => Ok(MotionDef::Clip {
                clip: r.clip(clip, &format!("{at}/clip"))?,
                speed,
                looping: match s.get("loop") {
                    Some(v) => r.boolean(v, &format!("{at}/loop"))?,
                    None => true,
                },
            }),
            (None, Some(space)) => {
                let sat = format!("{at}/blend_space");
                let parameter = find_param(
                    r.field(space, &sat, "parameter")?,
                    &format!("{sat}/parameter"),
                )?;
                if !matches!(parameters[parameter].kind, ParamKind::Float { .. }) {
                    return Err(Problem::new(
                        format!("{sat}/parameter"),
                        "a blend space's parameter must be a float",
                    ));
                }
                let mut points = Vec::new();
                for (p, point) in r
                    .array(r.field(space, &sat, "clips")?, &format!("{sat}/clips"))?
                    .iter()
                    .enumerate()
                {
                    let pat = format!("{sat}/clips/{p}");
                    let clip = r.clip(r.field(point, &pat, "clip")?, &format!("{pat}/clip"))?;
                    let position = r.number(r.field(point, &pat, "at")?, &format!("{pat}/at"))?;
                    points.push((clip, position));
                }
                let space = BlendSpace1d::new(points).ok_or_else(|| {
                    Problem::new(
                        format!("{sat}/clips"),
                        "a blend space needs at least one clip",
                    )
                })?;
                Ok(MotionDef::Space {
                    parameter,
                    space,
                    speed,
                })
            }
            _ => Err(Problem::new(
                at,
                "a state has either \"clip\" or \"blend_space\"",
            )),
        }
    }

    /// A transition: from (a state or `*`), to, its conditions, how it exchanges the states.
    fn transition(
        &self,
        t: &Value,
        at: &str,
        parameters: &[ParamDef],
        find_param: &Find<'_>,
        find_state: &Find<'_>,
    ) -> Result<TransitionDef, Problem> {
        let r = self;
        let from_v = r.field(t, at, "from")?;
        let from = if from_v.as_str() == Some("*") {
            None
        } else {
            Some(find_state(from_v, &format!("{at}/from"))?)
        };
        let to = find_state(r.field(t, at, "to")?, &format!("{at}/to"))?;
        let mut when = Vec::new();
        if let Some(list) = t.get("when") {
            for (w, cond) in r.array(list, &format!("{at}/when"))?.iter().enumerate() {
                let cat = format!("{at}/when/{w}");
                when.push(r.condition(cond, &cat, parameters, find_param)?);
            }
        }
        let duration = r.number_or(t, at, "duration", 0.25)?;
        if duration < 0.0 {
            return Err(Problem::new(
                format!("{at}/duration"),
                "a duration cannot be negative",
            ));
        }
        let spec = match t
            .get("kind")
            .map(|v| r.string(v, &format!("{at}/kind")))
            .transpose()?
            .as_deref()
        {
            None | Some("crossfade") => TransitionSpec::Crossfade {
                duration_secs: duration,
            },
            Some("inertialize") => TransitionSpec::Inertialize {
                half_life_secs: duration,
            },
            Some(other) => {
                return Err(Problem::new(
                    format!("{at}/kind"),
                    format!("{other:?} is not crossfade or inertialize"),
                ));
            }
        };
        let exit_time = t
            .get("exit_time")
            .map(|v| r.number(v, &format!("{at}/exit_time")))
            .transpose()?;
        Ok(TransitionDef {
            from,
            to,
            when,
            spec,
            exit_time,
        })
    }

    /// One condition of a transition: a float above or below a value, a bool or trigger set.
    fn condition(
        &self,
        cond: &Value,
        cat: &str,
        parameters: &[ParamDef],
        find_param: &Find<'_>,
    ) -> Result<Condition, Problem> {
        let r = self;
        let parameter = find_param(
            r.field(cond, cat, "parameter")?,
            &format!("{cat}/parameter"),
        )?;
        let test = match (cond.get("above"), cond.get("below"), cond.get("is")) {
            (Some(v), None, None) => Test::Above(r.number(v, &format!("{cat}/above"))?),
            (None, Some(v), None) => Test::Below(r.number(v, &format!("{cat}/below"))?),
            (None, None, Some(v)) => Test::Is(r.boolean(v, &format!("{cat}/is"))?),
            (None, None, None) => Test::Set,
            _ => {
                return Err(Problem::new(
                    cat,
                    "a condition has one of \"above\", \"below\" or \"is\"",
                ));
            }
        };
        let float = matches!(parameters[parameter].kind, ParamKind::Float { .. });
        if float != matches!(test, Test::Above(_) | Test::Below(_)) {
            return Err(Problem::new(
                cat,
                format!(
                    "parameter {:?} cannot be tested this way: floats take \"above\"/\"below\", bools and triggers \"is\" or nothing",
                    parameters[parameter].name
                ),
            ));
        }
        Ok(Condition { parameter, test })
    }
}
