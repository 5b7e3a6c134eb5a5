//! The `skinscope` command line: the viewer, and headless subcommands for testers and CI.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use glam::Vec3;
use skinscope::character::Character;
use skinscope::debug_views::ColorView;
use skinscope::import;
use skinscope::inspect::Report;
use skinscope::posing::{BlendSpec, PaletteMode};
use skinscope::render::gpu::Gpu;
use skinscope::render::headless::{self, CameraSpec, FrameRequest};
use skinscope::render::renderer::DrawOptions;

/// A glTF skinned-character viewer: CPU animation, GPU linear blend skinning, skinning-debug tools.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A .gltf or .glb file to open in the viewer (default: the built-in character).
    file: Option<PathBuf>,
    /// Draw this many frames in the window, then exit (with --screenshot: save the last one).
    #[arg(long)]
    frames: Option<u64>,
    /// Save the window's last frame (panel included) as PNG; needs --frames.
    #[arg(long, requires = "frames")]
    screenshot: Option<PathBuf>,
    /// The window's size in logical pixels.
    #[arg(long, default_value = "1280x800", value_parser = parse_size)]
    window_size: (u32, u32),
}

#[derive(Subcommand)]
enum Command {
    /// Describe a glTF file: skins, joints, clips, meshes, influences, warnings and errors.
    /// Exit status 0 when the file loads, 2 when it is refused.
    Inspect {
        file: PathBuf,
        /// One JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Render a posed character to a PNG without a window.
    Render(RenderArgs),
    /// Lint a file's skinning: bind-pose palette consistency, vertices against their joints,
    /// weights, influences, limits; bind vs identity renders. Exit status 0 when no error is
    /// found, 1 when one is, 2 when the file cannot be loaded.
    Check {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Print the skin palette at a clip time: per joint its name, palette index and 16 floats
    /// (column-major).
    Palette {
        #[command(flatten)]
        at: PoseAt,
        #[arg(long)]
        json: bool,
    },
    /// Write the posed mesh in world space as OBJ (every primitive of every mesh node, in scene
    /// order, vertices in file order, an `o` per node), or as GLB when --out ends in .glb.
    Pose {
        #[command(flatten)]
        at: PoseAt,
        #[arg(long)]
        out: PathBuf,
    },
    /// Print the GPU adapter wgpu picks (e.g. lavapipe without a GPU) and exit.
    GpuInfo,
    /// Write the built-in character (what `assets/skinscope_mannequin.glb` holds) to a file.
    GenerateBuiltin {
        /// Where to write it (the committed copy is assets/skinscope_mannequin.glb).
        #[arg(long)]
        out: PathBuf,
    },
}

/// A file posed at a clip time.
#[derive(clap::Args)]
struct PoseAt {
    file: PathBuf,
    /// Clip name or index (default: the first clip, or the rest pose when there is none).
    #[arg(long)]
    clip: Option<String>,
    /// Clip time in seconds (wraps around the clip).
    #[arg(long, default_value_t = 0.0, value_parser = parse_finite, allow_negative_numbers = true)]
    time: f32,
}

#[derive(Clone, Copy, ValueEnum)]
enum PaletteArg {
    Animated,
    Bind,
    Identity,
}

#[derive(clap::Args)]
struct RenderArgs {
    /// A .gltf or .glb file (default: the built-in character).
    file: Option<PathBuf>,
    /// The PNG to write.
    #[arg(long)]
    out: PathBuf,
    /// Image size in pixels.
    #[arg(long, default_value = "1280x720", value_parser = parse_size, allow_hyphen_values = true)]
    size: (u32, u32),
    /// Clip name or index (default: the first clip, or the rest pose when there is none).
    #[arg(long)]
    clip: Option<String>,
    /// Clip time in seconds (wraps around the clip).
    #[arg(long, default_value_t = 0.0, value_parser = parse_finite, allow_negative_numbers = true)]
    time: f32,
    /// A second clip blended in step with the first: NAME_OR_INDEX:WEIGHT (weight 0..1).
    #[arg(long)]
    blend: Option<String>,
    /// Which palette skins the mesh.
    #[arg(long, value_enum, default_value = "animated")]
    palette: PaletteArg,
    /// Draw the triangles' edges.
    #[arg(long)]
    wireframe: bool,
    /// Draw the bones on top.
    #[arg(long)]
    bones: bool,
    /// Background colour, R,G,B in 0..255.
    #[arg(long, value_parser = parse_rgb)]
    background: Option<[u8; 3]>,
    /// Camera position X,Y,Z (default: framed from the front).
    #[arg(long, value_parser = parse_vec3, allow_negative_numbers = true)]
    eye: Option<Vec3>,
    /// Point looked at X,Y,Z (default: the character's centre).
    #[arg(long, value_parser = parse_vec3, allow_negative_numbers = true)]
    target: Option<Vec3>,
    /// Vertical field of view in degrees.
    #[arg(long, default_value_t = 45.0, value_parser = parse_fov)]
    fov_y: f32,
    /// Near plane distance.
    #[arg(long, value_parser = parse_positive)]
    near: Option<f32>,
    /// Far plane distance.
    #[arg(long, value_parser = parse_positive)]
    far: Option<f32>,
    /// Every mesh flat white on black, no grid or overlays (mask comparisons).
    #[arg(long)]
    silhouette: bool,
    /// Colour the mesh for skinning debugging instead of by its materials.
    #[arg(long, value_enum, default_value = "material")]
    color_by: ColorArg,
    /// Draw this many copies on a grid, each at its own phase and weight of a blend of --clip and
    /// --blend's clip (or of --clip alone).
    #[arg(long)]
    crowd: Option<usize>,
    /// The palette `--color-by displacement` compares with.
    #[arg(long, value_enum, default_value = "bind")]
    compare: PaletteArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorArg {
    Material,
    DominantJoint,
    WeightSum,
    Influences,
    Displacement,
}

fn parse_finite(s: &str) -> Result<f32, String> {
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

fn parse_positive(s: &str) -> Result<f32, String> {
    let v = parse_finite(s)?;
    if v > 0.0 {
        Ok(v)
    } else {
        Err(format!("{s} must be greater than 0"))
    }
}

fn parse_fov(s: &str) -> Result<f32, String> {
    let v = parse_finite(s)?;
    if v > 0.0 && v < 180.0 {
        Ok(v)
    } else {
        Err(format!("{s} must be between 0 and 180 degrees"))
    }
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
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

fn parse_vec3(s: &str) -> Result<Vec3, String> {
    parse_numbers::<3>(s).map(Vec3::from)
}

fn parse_rgb(s: &str) -> Result<[u8; 3], String> {
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

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Inspect { file, json }) => return inspect(&file, json),
        Some(Command::Render(args)) => render(&args),
        Some(Command::Check { file, json }) => return check(&file, json),
        Some(Command::Palette { at, json }) => palette(&at.file, at.clip.as_deref(), at.time, json),
        Some(Command::Pose { at, out }) => pose_obj(&at.file, at.clip.as_deref(), at.time, &out),
        Some(Command::GenerateBuiltin { out }) => {
            std::fs::write(&out, skinscope::builtin::generate())
                .map_err(|e| format!("cannot write {}: {e}", out.display()))
        }
        Some(Command::GpuInfo) => Gpu::headless()
            .map(|gpu| println!("{}", gpu.describe()))
            .map_err(|e| e.to_string()),
        None => skinscope::app::run(skinscope::app::AppOptions {
            file: cli.file,
            frames: cli.frames,
            screenshot: cli.screenshot,
            size: cli.window_size,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("skinscope: {e}");
            ExitCode::from(2)
        }
    }
}

fn inspect(file: &Path, json: bool) -> ExitCode {
    let name = file.display().to_string();
    let (report, code) = match import::load(file) {
        Ok(character) => (Report::of_character(&name, &character), ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("skinscope: {e}");
            (Report::of_error(&name, &e), ExitCode::from(2))
        }
    };
    if json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_text());
    }
    code
}

/// A clip by name, or by index when no clip has that name.
fn find_clip(character: &Character, key: &str) -> Result<usize, String> {
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

fn palette_mode(p: PaletteArg) -> PaletteMode {
    match p {
        PaletteArg::Animated => PaletteMode::Animated,
        PaletteArg::Bind => PaletteMode::Bind,
        PaletteArg::Identity => PaletteMode::Identity,
    }
}

fn srgb_to_linear(c: u8) -> f64 {
    let c = c as f64 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn render(args: &RenderArgs) -> Result<(), String> {
    let character = match &args.file {
        Some(file) => import::load(file),
        None => skinscope::builtin::character(),
    }
    .map_err(|e| e.to_string())?;
    for w in &character.warnings {
        log::warn!("{}: {w}", character.name);
    }
    let clip = match &args.clip {
        Some(key) => Some(find_clip(&character, key)?),
        None => (!character.clips.is_empty()).then_some(0),
    };
    let blend = match &args.blend {
        None => None,
        Some(spec) => {
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
            Some(BlendSpec {
                b: find_clip(&character, key)?,
                weight,
            })
        }
    };
    let camera = match args.eye {
        Some(eye) => CameraSpec::Explicit {
            eye,
            target: args.target,
            fov_y_degrees: args.fov_y,
            near: args.near,
            far: args.far,
        },
        None if args.target.is_some() || args.near.is_some() || args.far.is_some() => {
            return Err("--target, --near and --far need --eye".into());
        }
        None => CameraSpec::Auto {
            fov_y_degrees: args.fov_y,
        },
    };
    let mut options = DrawOptions {
        wireframe: args.wireframe,
        bones: args.bones,
        silhouette: args.silhouette,
        ..Default::default()
    };
    if let Some(rgb) = args.background {
        options.background = rgb.map(srgb_to_linear);
    }
    let request = FrameRequest {
        size: args.size,
        clip,
        time_secs: args.time,
        blend,
        palette: palette_mode(args.palette),
        color_view: match args.color_by {
            ColorArg::Material => ColorView::Material,
            ColorArg::DominantJoint => ColorView::DominantJoint,
            ColorArg::WeightSum => ColorView::WeightSumDeviation,
            ColorArg::Influences => ColorView::InfluenceCount,
            ColorArg::Displacement => ColorView::Displacement,
        },
        compare: palette_mode(args.compare),
        crowd: args.crowd,
        camera,
        options,
    };
    let gpu = Gpu::headless().map_err(|e| e.to_string())?;
    let pixels = headless::render_frame(&gpu, &character, &request)?;
    headless::write_png(&args.out, args.size, &pixels)
}

fn check(file: &Path, json: bool) -> ExitCode {
    // Non-affine inverse binds load (with a warning) so that they can be diagnosed.
    let options = import::ImportOptions {
        keep_broken_inverse_binds: true,
    };
    let character = match import::load_with(file, options) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("skinscope: {e}");
            return ExitCode::from(2);
        }
    };
    let mut report = skinscope::check::check(&character);
    report.file = file.display().to_string();
    // Bind and identity palettes rendered offscreen, when a GPU (or lavapipe) is there.
    if !character.skins.is_empty() {
        match Gpu::headless() {
            Ok(gpu) => {
                report.bind_identity_pixel_difference =
                    headless::bind_identity_difference(&gpu, &character, 256).ok()
            }
            Err(e) => log::warn!("no render comparison: {e}"),
        }
    }
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print!("{}", report.to_text());
    }
    if report.errors() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The character posed at a clip time (default clip 0; the rest pose without clips).
fn posed(
    file: &Path,
    clip: Option<&str>,
    time: f32,
) -> Result<(Character, skinscope::posing::CharacterPose, Option<usize>), String> {
    let character = import::load(file).map_err(|e| e.to_string())?;
    let clip = match clip {
        Some(key) => Some(find_clip(&character, key)?),
        None => (!character.clips.is_empty()).then_some(0),
    };
    let mut pose = skinscope::posing::CharacterPose::new(&character);
    let duration = clip.map_or(0.0, |c| character.clips[c].duration_secs());
    pose.sample(
        &character,
        clip,
        skinscope::anim::wrap_time(time, duration),
        None,
    )
    .and_then(|_| pose.update(&character, PaletteMode::Animated))
    .map_err(|e| e.to_string())?;
    Ok((character, pose, clip))
}

fn palette(file: &Path, clip: Option<&str>, time: f32, json: bool) -> Result<(), String> {
    let (character, pose, clip) = posed(file, clip, time)?;
    let exported = skinscope::export::palettes(&character, &pose, clip, time);
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&exported).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", exported.to_text());
    }
    Ok(())
}

fn pose_obj(file: &Path, clip: Option<&str>, time: f32, out: &Path) -> Result<(), String> {
    let (character, pose, _) = posed(file, clip, time)?;
    let glb = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("glb"));
    let bytes = if glb {
        skinscope::export::posed_glb(&character, &pose)
    } else {
        skinscope::export::posed_obj(&character, &pose).into_bytes()
    };
    std::fs::write(out, bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))
}
