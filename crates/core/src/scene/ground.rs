//! The ground: surfaces with a height query, and walls.

use std::path::{Path, PathBuf};

use glam::{Vec2, Vec3};
use serde_json::Value;

use crate::character::Problem;

/// Every number of a ground (heights, corners, wall ends) lies within a million units of 0.
pub const MAX_EXTENT: f32 = 1e6;

/// A raised box: `height` above the floor over `min..max` (x, z).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    pub min: Vec2,
    pub max: Vec2,
    pub height: f32,
}

/// A ramp over `min..max` (x, z), rising linearly along x (`along_x`) or z from `from` at the
/// min edge to `to` at the max edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slope {
    pub min: Vec2,
    pub max: Vec2,
    pub along_x: bool,
    pub from: f32,
    pub to: f32,
}

/// A wall from `from` to `to` (x, z), as high as anything.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wall {
    pub from: Vec2,
    pub to: Vec2,
}

/// The ground a character stands on.
#[derive(Clone, Debug, PartialEq)]
pub struct Ground {
    pub floor: f32,
    /// The walkable area (x, z); `None`: unbounded.
    pub area: Option<(Vec2, Vec2)>,
    pub steps: Vec<Step>,
    pub slopes: Vec<Slope>,
    pub walls: Vec<Wall>,
}

/// A ground file that was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}: {problem}", file.display())]
pub struct GroundError {
    pub file: PathBuf,
    pub problem: Problem,
}

fn inside(p: Vec2, min: Vec2, max: Vec2) -> bool {
    p.cmpge(min).all() && p.cmple(max).all()
}

impl Ground {
    /// A flat floor at `floor`, unbounded.
    pub fn flat(floor: f32) -> Self {
        Self {
            floor,
            area: None,
            steps: Vec::new(),
            slopes: Vec::new(),
            walls: Vec::new(),
        }
    }

    /// The viewer's scene, sized to a character `height` tall standing at the origin facing
    /// +Z: a step a twelfth of its height to its left, a slope rising to a fifth of its height to
    /// its right, a wall three heights ahead, and a walkable square four heights across.
    pub fn scene(height: f32) -> Self {
        let h = height.max(1e-3);
        Self {
            floor: 0.0,
            area: Some((Vec2::splat(-4.0 * h), Vec2::splat(4.0 * h))),
            steps: vec![Step {
                min: Vec2::new(0.4 * h, -0.5 * h),
                max: Vec2::new(1.2 * h, 1.5 * h),
                height: h / 12.0,
            }],
            slopes: vec![Slope {
                min: Vec2::new(-2.0 * h, -0.5 * h),
                max: Vec2::new(-0.6 * h, 1.5 * h),
                along_x: true,
                from: 0.2 * h,
                to: 0.0,
            }],
            walls: vec![Wall {
                from: Vec2::new(-4.0 * h, 3.0 * h),
                to: Vec2::new(4.0 * h, 3.0 * h),
            }],
        }
    }

    /// The ground's height at (x, z): the highest step or slope there, or else the floor (a
    /// step of negative height is a pit).
    pub fn height(&self, x: f32, z: f32) -> f32 {
        let p = Vec2::new(x, z);
        let mut h: Option<f32> = None;
        let mut raise = |v: f32| h = Some(h.map_or(v, |h| h.max(v)));
        for s in &self.steps {
            if inside(p, s.min, s.max) {
                raise(self.floor + s.height);
            }
        }
        for s in &self.slopes {
            if inside(p, s.min, s.max) {
                let (v, lo, hi) = if s.along_x {
                    (x, s.min.x, s.max.x)
                } else {
                    (z, s.min.y, s.max.y)
                };
                let u = if hi > lo { (v - lo) / (hi - lo) } else { 0.0 };
                raise(self.floor + s.from + (s.to - s.from) * u);
            }
        }
        h.unwrap_or(self.floor)
    }

    /// Reads a ground file.
    pub fn load(path: &Path) -> Result<Self, GroundError> {
        let fail = |problem| GroundError {
            file: path.to_path_buf(),
            problem,
        };
        let text = crate::files::read_text_capped(path, crate::files::MAX_JSON_BYTES)
            .map_err(|e| fail(Problem::new("", e.to_string())))?;
        Self::parse(&text).map_err(fail)
    }

    /// Parses a ground description (the format in `scene`'s module documentation).
    pub fn parse(text: &str) -> Result<Self, Problem> {
        let root: Value =
            serde_json::from_str(text).map_err(|e| Problem::new("", format!("not JSON: {e}")))?;
        if !root.is_object() {
            return Err(Problem::new("", "expected an object"));
        }
        let number = |v: Option<&Value>, at: &str, default: Option<f32>| -> Result<f32, Problem> {
            match (v, default) {
                (None, Some(d)) => Ok(d),
                (None, None) => Err(Problem::new(at, "missing")),
                (Some(v), _) => v
                    .as_f64()
                    .map(|n| n as f32)
                    .filter(|n| n.is_finite())
                    .ok_or_else(|| Problem::new(at, "expected a finite number"))
                    .and_then(|n| {
                        if n.abs() <= MAX_EXTENT {
                            Ok(n)
                        } else {
                            Err(Problem::new(
                                at,
                                format!("{n} is outside -{MAX_EXTENT}..={MAX_EXTENT}"),
                            ))
                        }
                    }),
            }
        };
        let point = |v: Option<&Value>, at: &str| -> Result<Vec2, Problem> {
            let a = v
                .and_then(Value::as_array)
                .filter(|a| a.len() == 2)
                .ok_or_else(|| Problem::new(at, "expected [x, z]"))?;
            Ok(Vec2::new(
                number(a.first(), &format!("{at}/0"), None)?,
                number(a.get(1), &format!("{at}/1"), None)?,
            ))
        };
        let list = |name: &str| -> Result<Vec<Value>, Problem> {
            match root.get(name) {
                None => Ok(Vec::new()),
                Some(Value::Array(a)) => Ok(a.clone()),
                Some(_) => Err(Problem::new(format!("/{name}"), "expected an array")),
            }
        };
        let boxed = |v: &Value, at: &str| -> Result<(Vec2, Vec2), Problem> {
            let (min, max) = (
                point(v.get("min"), &format!("{at}/min"))?,
                point(v.get("max"), &format!("{at}/max"))?,
            );
            if min.cmpge(max).any() {
                return Err(Problem::new(at, "min must be below max in x and z"));
            }
            Ok((min, max))
        };
        let floor = number(root.get("floor"), "/floor", Some(0.0))?;
        let area = match root.get("area") {
            None => None,
            Some(a) => Some(boxed(a, "/area")?),
        };
        let mut steps = Vec::new();
        for (k, s) in list("steps")?.iter().enumerate() {
            let at = format!("/steps/{k}");
            let (min, max) = boxed(s, &at)?;
            let height = number(s.get("height"), &format!("{at}/height"), None)?;
            steps.push(Step { min, max, height });
        }
        let mut slopes = Vec::new();
        for (k, s) in list("slopes")?.iter().enumerate() {
            let at = format!("/slopes/{k}");
            let (min, max) = boxed(s, &at)?;
            let along_x = match s.get("axis").and_then(Value::as_str) {
                None | Some("x") => true,
                Some("z") => false,
                Some(other) => {
                    return Err(Problem::new(
                        format!("{at}/axis"),
                        format!("{other:?} is not x or z"),
                    ));
                }
            };
            slopes.push(Slope {
                min,
                max,
                along_x,
                from: number(s.get("from"), &format!("{at}/from"), None)?,
                to: number(s.get("to"), &format!("{at}/to"), None)?,
            });
        }
        let mut walls = Vec::new();
        for (k, w) in list("walls")?.iter().enumerate() {
            let at = format!("/walls/{k}");
            walls.push(Wall {
                from: point(w.get("from"), &format!("{at}/from"))?,
                to: point(w.get("to"), &format!("{at}/to"))?,
            });
        }
        Ok(Self {
            floor,
            area,
            steps,
            slopes,
            walls,
        })
    }

    /// The ground's outline as line segments (pairs of points): steps and slopes as boxes,
    /// walls as upright rectangles `wall_height` tall, the area's border.
    pub fn outline(&self, wall_height: f32) -> Vec<(Vec3, Vec3)> {
        let mut out = Vec::new();
        let f = self.floor;
        let rect =
            |out: &mut Vec<(Vec3, Vec3)>, min: Vec2, max: Vec2, h: &dyn Fn(f32, f32) -> f32| {
                let corners = [
                    Vec2::new(min.x, min.y),
                    Vec2::new(max.x, min.y),
                    Vec2::new(max.x, max.y),
                    Vec2::new(min.x, max.y),
                ];
                for k in 0..4 {
                    let (a, b) = (corners[k], corners[(k + 1) % 4]);
                    out.push((
                        Vec3::new(a.x, h(a.x, a.y), a.y),
                        Vec3::new(b.x, h(b.x, b.y), b.y),
                    ));
                    out.push((Vec3::new(a.x, f, a.y), Vec3::new(a.x, h(a.x, a.y), a.y)));
                }
            };
        for s in &self.steps {
            rect(&mut out, s.min, s.max, &|_, _| f + s.height);
        }
        for s in &self.slopes {
            let height = |x: f32, z: f32| {
                let (v, lo, hi) = if s.along_x {
                    (x, s.min.x, s.max.x)
                } else {
                    (z, s.min.y, s.max.y)
                };
                f + s.from + (s.to - s.from) * ((v - lo) / (hi - lo).max(1e-6))
            };
            rect(&mut out, s.min, s.max, &height);
        }
        for w in &self.walls {
            let (a, b) = (w.from, w.to);
            let (a0, b0) = (Vec3::new(a.x, f, a.y), Vec3::new(b.x, f, b.y));
            let up = Vec3::Y * wall_height;
            out.extend([(a0, b0), (a0 + up, b0 + up), (a0, a0 + up), (b0, b0 + up)]);
        }
        if let Some((min, max)) = self.area {
            rect(&mut out, min, max, &|_, _| f);
        }
        out
    }
}
