//! The arguments shared by the posing subcommands (`render`, `pose`, `palette`, `check`) and the
//! value parsers. One clap struct, so every command poses a file the same way.

use std::path::PathBuf;

use clap::ValueEnum;
use glam::Vec3;
use skinscope::character::Character;
use skinscope::import;
use skinscope::pose::{ClipTime, MorphOverride, PaletteMode, PoseRequest};

/// What to pose: a file (default: the built-in character) at a clip time.
#[derive(clap::Args, Clone, Debug)]
pub struct PoseArgs {
    /// A .gltf or .glb file (default: the built-in character).
    pub file: Option<PathBuf>,
    /// Clip name or index (default: the first clip, or the rest pose when there is none).
    #[arg(long)]
    pub clip: Option<String>,
    /// Clip time in seconds; wraps around the clip, whose duration is its latest key over all
    /// its channels (morph weights included).
    #[arg(long, default_value_t = 0.0, value_parser = parse_finite, allow_negative_numbers = true)]
    pub time: f32,
    /// A second clip blended in step with the first: NAME_OR_INDEX:WEIGHT (weight 0..1).
    #[arg(long)]
    pub blend: Option<String>,
    /// Which palette skins the mesh.
    #[arg(long, value_enum, default_value = "animated")]
    pub palette: PaletteArg,
    /// A morph target's weight on top of the clip's: MESH:TARGET=WEIGHT, mesh and target by
    /// name or index (repeatable).
    #[arg(long, allow_hyphen_values = true)]
    pub morph: Vec<String>,
    /// The scene to show, by name or index (default: the file's default scene).
    #[arg(long)]
    pub scene: Option<String>,
    /// Play the clips compressed (within 1e-4 of the character's height, as inspect's
    /// compression report gives them), as the viewer's "Play compressed clips" does.
    #[arg(long)]
    pub compressed: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PaletteArg {
    Animated,
    Bind,
    Identity,
}

impl From<PaletteArg> for PaletteMode {
    fn from(p: PaletteArg) -> Self {
        match p {
            PaletteArg::Animated => PaletteMode::Animated,
            PaletteArg::Bind => PaletteMode::Bind,
            PaletteArg::Identity => PaletteMode::Identity,
        }
    }
}

/// A loaded file and the pose request its arguments describe.
pub struct Posing {
    pub character: Character,
    pub request: PoseRequest,
    /// The path as given (`None`: the built-in character).
    pub file: Option<PathBuf>,
}

impl PoseArgs {
    /// Loads the file (the scene asked for) and builds the request.
    pub fn load(&self) -> Result<Posing, String> {
        let mut character = match &self.file {
            Some(file) => import::load(file),
            None => skinscope::builtin::character(),
        }
        .map_err(|e| e.to_string())?;
        if let Some(key) = &self.scene {
            let scene = find_scene(&character, key)?;
            if scene != character.scene {
                let Some(file) = &self.file else {
                    return Err("the built-in character has one scene".into());
                };
                let options = import::LoadOptions { scene: Some(scene) };
                character = import::load_with(file, options).map_err(|e| e.to_string())?;
            }
        }
        if self.compressed {
            let settings = skinscope::pose::compression_settings(&character, None);
            skinscope::pose::compress_clips(&mut character, &settings);
        }
        let request = self.request(&character)?;
        Ok(Posing {
            character,
            request,
            file: self.file.clone(),
        })
    }

    /// The request these arguments describe for `character`.
    pub fn request(&self, character: &Character) -> Result<PoseRequest, String> {
        let clip = match &self.clip {
            Some(key) => Some(find_clip(character, key)?),
            None => (!character.clips.is_empty()).then_some(0),
        };
        let mut request = PoseRequest {
            clip: clip.map(|clip| ClipTime {
                clip,
                time_secs: self.time,
            }),
            palette: self.palette.into(),
            compressed: self.compressed,
            ..PoseRequest::default()
        };
        if let Some(spec) = &self.blend {
            let (key, weight) = spec
                .rsplit_once(':')
                .ok_or_else(|| format!("--blend {spec:?} is not CLIP:WEIGHT"))?;
            let weight = parse_finite(weight)?;
            if !(0.0..=1.0).contains(&weight) {
                return Err(format!("--blend weight {weight} is outside 0..1"));
            }
            if clip.is_none() {
                return Err("--blend needs a first clip, and the file has none".into());
            }
            request = request.with_blend(find_clip(character, key)?, weight);
        }
        request.morph_overrides = self
            .morph
            .iter()
            .map(|spec| parse_morph(character, spec))
            .collect::<Result<_, _>>()?;
        Ok(request)
    }
}

/// `MESH:TARGET=WEIGHT`, mesh and target by name (`mesh.extras.targetNames`) or index.
fn parse_morph(character: &Character, spec: &str) -> Result<MorphOverride, String> {
    let bad = || format!("--morph {spec:?} is not MESH:TARGET=WEIGHT");
    let (target_at, weight) = spec.rsplit_once('=').ok_or_else(bad)?;
    let (mesh_key, target_key) = target_at.rsplit_once(':').ok_or_else(bad)?;
    let weight = parse_finite(weight)?;
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
fn find_scene(character: &Character, key: &str) -> Result<usize, String> {
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

/// A camera of the displayed scene by name, or by index when none has that name.
pub fn find_camera(character: &Character, key: &str) -> Result<usize, String> {
    if let Some(i) = character.cameras.iter().position(|c| c.name == key) {
        return Ok(i);
    }
    match key.parse::<usize>() {
        Ok(i) if i < character.cameras.len() => Ok(i),
        _ => {
            let names: Vec<String> = character
                .cameras
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{i}: {:?}", c.name))
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

/// A clip by name, or by index when no clip has that name.
pub fn find_clip(character: &Character, key: &str) -> Result<usize, String> {
    if let Some(i) = character.clips.iter().position(|c| c.clip.name() == key) {
        return Ok(i);
    }
    match key.parse::<usize>() {
        Ok(i) if i < character.clips.len() => Ok(i),
        _ => {
            let names: Vec<String> = character
                .clips
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{i}: {:?}", c.clip.name()))
                .collect();
            Err(format!(
                "no clip {key:?} in {}; its clips are {}",
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

fn parse_numbers<const N: usize>(s: &str) -> Result<[f32; N], String> {
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
