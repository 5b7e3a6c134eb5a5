//! The `skinscope` command line: the viewer, and headless subcommands for testers and CI, one
//! file per subcommand. `main` only parses and dispatches.

pub mod args;
pub mod check;
pub mod clips;
mod ddm;
pub mod diff;
mod diff_image;
pub mod environment;
pub mod fix;
pub mod inspect;
pub mod matching;
pub mod ml;
pub mod mocap;
mod muscles;
pub mod out;
pub mod palette;
pub mod performance;
pub mod physics;
pub mod pose;
mod record;
pub mod reference;
pub mod render;
pub mod report_format;
pub mod retarget;
#[cfg(test)]
mod same_performance;
mod sequence;
pub mod values;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use clap::{Parser, Subcommand};
use skinscope::character::Character;
use skinscope::import::{self, Reach};

use args::{PoseArgs, SkinArgs, parse_positive, parse_size};
use render::RenderArgs;

/// A glTF skinned-character viewer: CPU animation, GPU linear blend skinning, skinning-debug tools.
#[derive(Parser)]
#[command(version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// A .gltf or .glb file to open in the viewer (default: the built-in character).
    pub file: Option<PathBuf>,
    /// Draw this many frames in the window (1 or more), then exit (with --screenshot: save the
    /// last one). A FILE that fails to load then exits 2, drawing nothing.
    #[arg(long, value_parser = args::parse_frames, allow_hyphen_values = true)]
    pub frames: Option<u64>,
    /// Save the window's last frame (panel included) as .png, .jpg or .jpeg; needs --frames.
    #[arg(long, requires = "frames", value_parser = args::parse_image_path)]
    pub screenshot: Option<PathBuf>,
    /// The window's size in logical pixels.
    #[arg(long, default_value = "1280x800", value_parser = parse_size)]
    pub window_size: (u32, u32),
    /// Start with the panel hidden (H shows and hides it): the 3D view fills the window, as
    /// `render` draws it.
    #[arg(long)]
    pub no_panel: bool,
    /// Open this section of the panel at start and scroll the panel to it (the guide's
    /// screenshots are taken so).
    #[arg(long, value_enum)]
    pub open_section: Option<skinscope::viewer::PanelSection>,
    /// Listen for a live motion-capture stream on this loopback address (127.0.0.1:PORT): one
    /// BVH motion line a UDP datagram, in the hierarchy of --mocap-skeleton; it drives the
    /// joints it names (the panel's External pose section).
    #[arg(long, requires = "mocap_skeleton")]
    pub mocap_listen: Option<String>,
    /// The BVH whose hierarchy --mocap-listen's motion lines follow.
    #[arg(long, requires = "mocap_listen")]
    pub mocap_skeleton: Option<PathBuf>,
    /// Open the panel's Retarget section with this source beside the character (a .bvh take, or
    /// a glTF/GLB whose clips are retargeted), its joints auto-mapped (or through
    /// --retarget-map).
    #[arg(long)]
    pub retarget_from: Option<PathBuf>,
    /// The retarget map read over --retarget-from's auto-mapping.
    #[arg(long, requires = "retarget_from")]
    pub retarget_map: Option<PathBuf>,
    #[command(flatten)]
    pub environment: environment::EnvironmentArgs,
    /// Replay a history the window saved ("Save history..." in the Over time section), on the
    /// model it was recorded on (FILE, or the built-in character): its frames shown as they were
    /// drawn, paused at the first; Play plays them through, the tracks and stepping as live.
    #[arg(long, value_name = "HISTORY")]
    pub replay: Option<PathBuf>,
    /// The folder tree a model's buffers and images may come from (default: the model's own
    /// folder and those under it): name the root of an exported asset tree whose textures sit
    /// in a sibling folder (`../textures/a.png`). Every model the command reads, and the
    /// --clips-from files, are held to it.
    #[arg(long, global = true, value_name = "DIR")]
    pub asset_root: Option<PathBuf>,
}

/// The command line's `--asset-root`, set once by `main` before any model is read.
static REACH: OnceLock<Reach> = OnceLock::new();

/// Sets the reach of every model this run reads: `dir` when given (an existing folder), else
/// each model's own folder.
pub fn set_asset_root(dir: Option<&Path>) -> Result<(), String> {
    let reach = match dir {
        None => Reach::ModelFolder,
        Some(dir) if dir.is_dir() => Reach::Root(dir.to_path_buf()),
        Some(dir) => {
            return Err(format!(
                "--asset-root {}: not a folder that can be read",
                dir.display()
            ));
        }
    };
    REACH
        .set(reach)
        .map_err(|_| "--asset-root: set twice".to_string())
}

/// How far the models of this run may reach (`set_asset_root`).
pub fn reach() -> Reach {
    REACH.get().cloned().unwrap_or_default()
}

/// A model file loaded within `reach()`.
pub fn load_model(file: &Path) -> Result<Character, import::ImportError> {
    let options = import::LoadOptions {
        reach: reach(),
        ..Default::default()
    };
    import::load_with(file, options).map_err(with_reach_remedy)
}

/// `e` with the command line's way to widen the reach named where a file was refused for
/// lying outside it.
pub fn with_reach_remedy(mut e: import::ImportError) -> import::ImportError {
    for p in e.errors.iter_mut().chain(&mut e.warnings) {
        p.message = reach_remedy(&p.message);
    }
    e
}

/// `message`, naming `--asset-root` where it refuses a file outside the reach.
pub fn reach_remedy(message: &str) -> String {
    message.replace(
        import::WIDER_REACH,
        "name a folder that holds both with --asset-root DIR",
    )
}

/// `render`: a still, or a sequence when `--to` asks for one; false when a still is past its
/// `--tolerance` from `--golden`.
pub fn render_or_record(args: &render::RenderArgs) -> Result<bool, String> {
    if args.sequence.is_sequence() && args.onion.is_some() {
        return Err("--onion draws on a still image: leave out --to".into());
    }
    if args.sequence.is_sequence() && args.pose.replay.is_some() {
        return Err("--replay draws one kept frame (--frame N) as a still: leave out --to".into());
    }
    if args.sequence.is_sequence() && args.golden.is_some() {
        return Err("--golden compares a still: leave out --to".into());
    }
    if args.sequence.is_sequence() && args.motion_path.is_empty() {
        record::run(args).map(|()| true)
    } else {
        render::run(args)
    }
}

#[derive(Subcommand)]
pub enum Command {
    /// Describe a glTF file: skins, joints, clips, meshes, influences, warnings and errors.
    /// Exit status 0 when the file loads, 2 when it is refused.
    Inspect {
        /// A .gltf, .glb or .bvh file (default: the built-in character).
        file: Option<PathBuf>,
        /// One JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// Compress every clip under a measured error bound and report, per clip, raw and
        /// compressed bytes, their ratio and the largest error measured over the clip.
        #[arg(long)]
        compression: bool,
        /// The error bound of --compression: the largest position error of a virtual vertex, in
        /// the file's units (default: 1e-4 of the character's height).
        #[arg(long, allow_negative_numbers = true, requires = "compression", value_parser = parse_positive)]
        tolerance: Option<f32>,
        /// Precompute direct delta mush (with the --ddm-* parameters) and report Ω: entries,
        /// the joints kept per vertex and the cap, the terms dropped, the welded vertices, the
        /// bytes on the GPU and the time it took.
        #[arg(long)]
        ddm: bool,
        #[command(flatten)]
        ddm_params: ddm::DdmArgs,
        /// List which of the character's joints this file's clips would drive (matched by
        /// name across the conventions, or through --retarget-map), the joints left out and
        /// the file's joints unused (repeatable).
        #[arg(long)]
        clips_from: Vec<PathBuf>,
        /// The source -> target joint names --clips-from matches through.
        #[arg(long, requires = "clips_from")]
        retarget_map: Option<PathBuf>,
    },
    /// Render a posed character to a PNG without a window.
    Render(Box<RenderArgs>),
    /// Lint a file's skinning: bind-pose palette consistency, vertices against their joints,
    /// weights, influences, limits; the posed frame (--clip, --time, --blend, --palette) can be
    /// posed; bind vs identity renders; with --skin-on gpu, the GPU skin pass's vertices of the
    /// posed frame against the CPU reference (an error beyond 1e-5 of the bounds' diagonal).
    /// Exit status 0 when no error is found, 1 when one is, 2 when the file cannot be loaded.
    Check {
        #[command(flatten)]
        pose: PoseArgs,
        #[command(flatten)]
        skin: SkinArgs,
        /// One JSON document instead of text (the same as --format json).
        #[arg(long)]
        json: bool,
        /// How to write the report: text, json, junit (JUnit XML: a test case per error or
        /// warning, errors failing) or sarif (SARIF 2.1.0: a result per finding).
        #[arg(long, value_enum, default_value_t = report_format::ReportFormat::Text)]
        format: report_format::ReportFormat,
        /// Instead of the lint: how far each planted foot slides over one loop of the clip
        /// (root motion applied), worst and mean speed in units per second.
        #[arg(long)]
        foot_slide: bool,
    },
    /// Repair what `check` finds and can repair safely (broken inverse binds, weights that do
    /// not sum to one, more influences than --limit, joints listed before their parents, and
    /// with --drop-unused the joints nothing uses) into a new .glb, everything else kept as it
    /// was; list each repair, and check the written file again. Exit status 0 when written and
    /// clean for what was repaired, or when there is nothing to fix (then nothing is written);
    /// 1 when a repaired kind is still found; 2 when the file or the options are refused.
    Fix(fix::FixArgs),
    /// Put clips from other files (BVH takes, glTF clips) on a character and write its file with them added as glTF animations, everything else kept
    Retarget(retarget::RetargetCommand),
    /// Compare two versions of a character: joints added, removed, renamed or re-parented;
    /// rest-pose and inverse-bind changes per joint; weights (dominant joint changes, the
    /// largest weight change) where the meshes match; clips added, removed or changed (duration,
    /// the largest joint displacement at their keys); the posed deformation (the largest vertex
    /// displacement per clip, and relative to the character's size). Exit status 0; 1 with
    /// --fail-over when a vertex moves farther; 2 when a file or an option is refused.
    Diff(diff::DiffArgs),
    /// Print the skin palette of a posed frame: per joint its name, palette index and 16 floats
    /// (column-major); with --json also every joint's world_from_joint and every mesh node's
    /// world_from_mesh.
    Palette(Box<palette::PaletteArgs>),
    /// Write the posed mesh in world space as OBJ (every primitive of every mesh node, in scene
    /// order, vertices in file order, an `o` per node), or as GLB when --out ends in .glb.
    Pose {
        #[command(flatten)]
        pose: PoseArgs,
        #[command(flatten)]
        skin: SkinArgs,
        /// The file to write: .obj or .glb.
        #[arg(long, value_parser = pose::parse_mesh_path)]
        out: PathBuf,
    },
    /// Build a character's motion-matching database (27 features a 60 Hz frame of its clips)
    /// and save it for --motion-db. Exit status 2 when the file or the options are refused.
    MatchDb(matching::MatchDbArgs),
    /// Train an ML deformer: learn from a reference deformer (direct delta mush, or linear
    /// blend with settled muscles) a corrective that linear blend skinning takes at its own cost
    /// (--ml-deformer), over poses from the clips; report its error on poses not trained on
    /// against linear blend's. Exit status 2 when the file or the options are refused.
    TrainDeformer(ml::TrainArgs),
    /// Print the GPU adapter wgpu picks (e.g. lavapipe without a GPU) and exit.
    GpuInfo,
    /// Write the built-in character (what `assets/skinscope_mannequin.glb` holds) to a file.
    GenerateBuiltin {
        /// Where to write it (the committed copy is assets/skinscope_mannequin.glb).
        #[arg(long)]
        out: PathBuf,
    },
    /// Print a shell completion script for skinscope (e.g. `skinscope completions bash >
    /// ~/.local/share/bash-completion/completions/skinscope`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Write skinscope's man pages (skinscope.1 and one per subcommand, skinscope-render.1 ...)
    /// into a folder.
    Man {
        /// The folder (made if missing).
        #[arg(long)]
        out: PathBuf,
    },
}
