//! The `skinscope` command line: the viewer, and headless subcommands for testers and CI.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use skinscope::import;
use skinscope::inspect::Report;
use skinscope::render::gpu::Gpu;

/// A glTF skinned-character viewer: CPU animation, GPU linear blend skinning, skinning-debug tools.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A .gltf or .glb file to open in the viewer (default: the built-in character).
    file: Option<PathBuf>,
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
    /// Print the GPU adapter wgpu picks (e.g. lavapipe without a GPU) and exit.
    GpuInfo,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Inspect { file, json }) => inspect(&file, json),
        Some(Command::GpuInfo) => match Gpu::headless() {
            Ok(gpu) => {
                println!("{}", gpu.describe());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("skinscope: {e}");
                ExitCode::from(2)
            }
        },
        None => {
            let _ = cli.file;
            eprintln!(
                "skinscope: the viewer window is not built yet. This version has the animation \
                 core (sampling, blending, playback, skin palettes) and the GPU skinning shader, \
                 checked by `./scripts/test.sh`; `skinscope gpu-info` shows the GPU it would use."
            );
            ExitCode::from(1)
        }
    }
}

fn inspect(file: &std::path::Path, json: bool) -> ExitCode {
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
