//! The command line's value parsers and finders: numbers in range, points, sizes, colours,
//! morph overrides, and clips, scenes and cameras by name or index. Each error names the value
//! and what it should be.

use std::path::PathBuf;

use glam::Vec3;
use skinscope::character::Character;
use skinscope::pose::MorphOverride;

/// Additive layer and morph target weights: Blender's shape-key slider limits, -10..=10.
pub const WEIGHT_RANGE: (f32, f32) = (-10.0, 10.0);
/// World-space points given on the command line (`--ik` targets and poles): within a million
/// units of the origin.
pub const MAX_COORDINATE: f32 = 1e6;

/// A library's parameter error named by its command-line flag, `--{prefix}{field}` with the
/// field's underscores as hyphens: `--held-out 0: must be 1 to 20000`.
pub fn flag_error(prefix: &str, e: &skinscope::param::ParamError) -> String {
    let flag = e.field.replace('_', "-");
    format!("--{prefix}{flag} {}: {}", e.value, e.rule)
}

pub fn parse_range(s: &str, what: &str, (low, high): (f32, f32)) -> Result<f32, String> {
    let v = parse_finite(s)?;
    if (low..=high).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{what} {v} is outside {low}..={high}"))
    }
}

/// A world-space point within `MAX_COORDINATE` of the origin.
pub fn parse_point(s: &str, what: &str) -> Result<Vec3, String> {
    let v = parse_vec3(s)?;
    if v.abs().max_element() <= MAX_COORDINATE {
        Ok(v)
    } else {
        Err(format!(
            "{what} {s:?} is farther than {MAX_COORDINATE} from the origin on an axis"
        ))
    }
}

pub fn parse_unit(s: &str, what: &str) -> Result<f32, String> {
    let v = parse_finite(s)?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{what} {v} is outside 0..1"))
    }
}

/// `MESH:TARGET=WEIGHT`, mesh and target by name (`mesh.extras.targetNames`) or index.
pub fn parse_morph(character: &Character, spec: &str) -> Result<MorphOverride, String> {
    let bad = || format!("--morph {spec:?} is not MESH:TARGET=WEIGHT");
    let (target_at, weight) = spec.rsplit_once('=').ok_or_else(bad)?;
    let (mesh_key, target_key) = target_at.rsplit_once(':').ok_or_else(bad)?;
    let weight = parse_range(weight, "--morph weight", WEIGHT_RANGE)?;
    let mesh = character
        .meshes
        .iter()
        .find(|m| m.name == mesh_key)
        .or_else(|| {
            let index: usize = mesh_key.parse().ok()?;
            character.meshes.iter().find(|m| m.index == index)
        })
        .ok_or_else(|| {
            let names: Vec<String> = character
                .meshes
                .iter()
                .filter(|m| !m.target_names.is_empty())
                .map(|m| format!("{}: {:?}", m.index, m.name))
                .collect();
            format!(
                "--morph {spec:?}: no mesh {mesh_key:?}; the meshes with morph targets are {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            )
        })?;
    let target = mesh
        .target_names
        .iter()
        .position(|n| n == target_key)
        .or_else(|| {
            target_key
                .parse()
                .ok()
                .filter(|&t| t < mesh.target_names.len())
        })
        .ok_or_else(|| {
            format!(
                "--morph {spec:?}: mesh {:?} has no target {target_key:?}; its targets are {}",
                mesh.name,
                mesh.target_names.join(", ")
            )
        })?;
    Ok(MorphOverride {
        mesh: mesh.index,
        target,
        weight,
    })
}

/// A scene by name, or by index when no scene has that name.
pub fn find_scene(character: &Character, key: &str) -> Result<usize, String> {
    if let Some(i) = character.scenes.iter().position(|s| s == key) {
        return Ok(i);
    }
    match key.parse::<usize>() {
        Ok(i) if i < character.scenes.len() => Ok(i),
        _ => Err(format!(
            "no scene {key:?} in {}; its scenes are {}",
            character.name,
            character.scenes.join(", ")
        )),
    }
}

/// A camera of the displayed scene by name, or by glTF camera index (`/cameras/N`) when none
/// has that name: its position in `Character::cameras`.
pub fn find_camera(character: &Character, key: &str) -> Result<usize, String> {
    if let Some(i) = character.cameras.iter().position(|c| c.name == key) {
        return Ok(i);
    }
    let by_index = key
        .parse::<usize>()
        .ok()
        .and_then(|n| character.cameras.iter().position(|c| c.index == n));
    match by_index {
        Some(i) => Ok(i),
        None => {
            let names: Vec<String> = character
                .cameras
                .iter()
                .map(|c| format!("{}: {:?}", c.index, c.name))
                .collect();
            Err(format!(
                "no camera {key:?} in {}'s scene; its cameras are {}",
                character.name,
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ))
        }
    }
}

/// A clip by name, or by index when no clip has that name (`Character::find_clip`).
pub fn find_clip(character: &Character, key: &str) -> Result<usize, String> {
    character.find_clip(key)
}

/// A joint by name, or by index when no joint has that name; `option` names the option in the
/// error.
pub fn find_joint(character: &Character, key: &str, option: &str) -> Result<usize, String> {
    let key = key.trim();
    character
        .skeleton
        .find(key)
        .or_else(|| {
            key.parse::<usize>()
                .ok()
                .filter(|&j| j < character.skeleton.joint_count())
        })
        .ok_or_else(|| {
            format!(
                "{option}: no joint {key:?} in {} (names or indices 0..{})",
                character.name,
                character.skeleton.joint_count()
            )
        })
}

pub fn parse_finite(s: &str) -> Result<f32, String> {
    let v: f32 = s
        .trim()
        .parse()
        .map_err(|e| format!("{s:?} is not a number: {e}"))?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(format!("{s} is not a finite number"))
    }
}

/// A path to write a character to: a `.glb` (its buffers and images carried inside).
pub fn parse_glb_path(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("glb") => Ok(path),
        _ => Err(format!("{s:?}: the character is written as .glb")),
    }
}

/// An image path to write (`render --out`, `--screenshot`): `.png`, `.jpg` or `.jpeg`.
pub fn parse_image_path(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    match skinscope::image_file::image_format(&path) {
        Some(_) => Ok(path),
        None => Err(format!("{s:?}: the image must end in .png, .jpg or .jpeg")),
    }
}

/// The window's `--frames`: a whole number of at least 1.
pub fn parse_frames(s: &str) -> Result<u64, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if n >= 1 => Ok(n as u64),
        Ok(n) => Err(format!("{n} frames: draw at least 1")),
        Err(_) => Err(format!("{s:?} is not a whole number")),
    }
}

/// The most seconds the command line integrates from 0 at 60 Hz (`--simulate`, and `--time`
/// under root motion or a ground): ten minutes, 36,000 steps.
pub const MAX_INTEGRATED_SECS: f32 = 600.0;

pub fn parse_simulate(s: &str) -> Result<f32, String> {
    let v = parse_non_negative(s)?;
    if v <= MAX_INTEGRATED_SECS {
        Ok(v)
    } else {
        Err(format!(
            "{s} s is more than the {MAX_INTEGRATED_SECS} s the state machine is run for (36,000 steps at 60 Hz)"
        ))
    }
}

pub fn parse_non_negative(s: &str) -> Result<f32, String> {
    let v = parse_finite(s)?;
    if v >= 0.0 {
        Ok(v)
    } else {
        Err(format!("{s} must not be negative"))
    }
}

pub fn parse_positive(s: &str) -> Result<f32, String> {
    let v = parse_finite(s)?;
    if v > 0.0 {
        Ok(v)
    } else {
        Err(format!("{s} must be greater than 0"))
    }
}

pub fn parse_fov(s: &str) -> Result<f32, String> {
    let v = parse_finite(s)?;
    if v > 0.0 && v < 180.0 {
        Ok(v)
    } else {
        Err(format!("{s} must be between 0 and 180 degrees"))
    }
}

pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{s:?} is not WIDTHxHEIGHT"))?;
    let dim = |d: &str| -> Result<u32, String> {
        let v: u32 = d
            .trim()
            .parse()
            .map_err(|_| format!("{d:?} in {s:?} is not a positive whole number"))?;
        if (1..=8192).contains(&v) {
            Ok(v)
        } else {
            Err(format!("{v} in {s:?} is outside 1..8192"))
        }
    };
    Ok((dim(w)?, dim(h)?))
}

pub fn parse_numbers<const N: usize>(s: &str) -> Result<[f32; N], String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != N {
        return Err(format!("{s:?} needs {N} comma-separated numbers"));
    }
    let mut out = [0.0; N];
    for (o, p) in out.iter_mut().zip(parts) {
        *o = parse_finite(p)?;
    }
    Ok(out)
}

pub fn parse_vec3(s: &str) -> Result<Vec3, String> {
    parse_numbers::<3>(s).map(Vec3::from)
}

pub fn parse_rgb(s: &str) -> Result<[u8; 3], String> {
    let v = parse_numbers::<3>(s)?;
    let mut out = [0u8; 3];
    for (o, c) in out.iter_mut().zip(v) {
        if !(0.0..=255.0).contains(&c) || c.fract() != 0.0 {
            return Err(format!("{c} in {s:?} is not a whole number in 0..255"));
        }
        *o = c as u8;
    }
    Ok(out)
}

/// The window's speed range, and then some: -10..=10 times.
pub fn parse_speed(s: &str) -> Result<f32, String> {
    parse_range(s, "--speed", (-10.0, 10.0))
}

/// Driven mode's speed: 0..=1e4 units a second.
pub fn parse_drive_speed(s: &str) -> Result<f32, String> {
    parse_range(s, "--drive-speed", (0.0, 1e4))
}
