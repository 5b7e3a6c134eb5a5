//! The `skinscope` binary: parses the command line and dispatches (see `cli`).
#![forbid(unsafe_code)]

mod cli;

use std::process::ExitCode;

use clap::Parser;
use cli::{Cli, Command};
use skinscope::render::gpu::Gpu;

fn main() -> ExitCode {
    let code = run();
    // Output that did not reach standard output (a full disk) is a failure, whatever the
    // command concluded.
    if cli::out::failed() {
        return ExitCode::from(2);
    }
    code
}

/// Ctrl-C, SIGTERM and SIGHUP end the run without litter: encoders are stopped and every
/// output still being written is removed (none is renamed into place after this).
fn on_interrupt() {
    skinscope::record::kill_encoders();
    let _held = skinscope::files::hold_pending();
    eprintln!("skinscope: interrupted; unfinished outputs removed");
    std::process::exit(130);
}

fn run() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    if let Err(e) = ctrlc::set_handler(on_interrupt) {
        log::warn!("cannot catch Ctrl-C ({e}): an interrupted output may leave its temporary file");
    }
    let cli = Cli::parse();
    if let Err(e) = cli::set_asset_root(cli.asset_root.as_deref()) {
        eprintln!("skinscope: {e}");
        return ExitCode::from(2);
    }
    if let Some(Err(e)) = cli
        .screenshot
        .as_deref()
        .map(skinscope::files::check_output)
    {
        eprintln!("skinscope: --screenshot: {e}");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Some(Command::Inspect {
            file,
            json,
            compression,
            tolerance,
            ddm,
            ddm_params,
            clips_from,
            retarget_map,
        }) => {
            let compression = compression.then_some(tolerance);
            if !ddm && ddm_params.any_given() {
                eprintln!("skinscope: the --ddm-* options need --ddm");
                return ExitCode::from(2);
            }
            let retarget = (clips_from.as_slice(), retarget_map.as_deref());
            return cli::inspect::run(
                file.as_deref(),
                json,
                compression,
                ddm.then_some(ddm_params),
                retarget,
            );
        }
        Some(Command::Check {
            pose,
            skin,
            json,
            format,
            foot_slide,
        }) => {
            let format = if json {
                cli::report_format::ReportFormat::Json
            } else {
                format
            };
            return if foot_slide {
                cli::check::foot_slide(&pose, format == cli::report_format::ReportFormat::Json)
            } else {
                cli::check::run(&pose, skin, format)
            };
        }
        Some(Command::Fix(args)) => return cli::fix::run(&args),
        Some(Command::Retarget(args)) => return cli::retarget::run(&args),
        Some(Command::Diff(args)) => return cli::diff::run(&args),
        Some(Command::Render(args)) => match cli::render_or_record(&args) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(e) => Err(e),
        },
        Some(Command::Palette(args)) => {
            let result = cli::palette::run(&args);
            if let (Err(e), true) = (&result, args.json) {
                cli::out::json_error(args.pose.file.as_deref(), e);
            }
            result
        }
        Some(Command::Pose { pose, skin, out }) => cli::pose::run(&pose, skin, &out),
        Some(Command::GenerateBuiltin { out }) => {
            skinscope::files::write_bytes_whole(&out, &skinscope::builtin::generate())
                .map_err(|e| e.to_string())
        }
        Some(Command::MatchDb(args)) => cli::matching::match_db(&args),
        Some(Command::TrainDeformer(args)) => cli::ml::train_deformer(&args),
        Some(Command::Completions { shell }) => {
            cli::reference::completions(shell, &mut std::io::stdout()).map_err(|e| e.to_string())
        }
        Some(Command::Man { out }) => cli::reference::man_pages(&out),
        Some(Command::GpuInfo) => Gpu::headless()
            .map(|gpu| cli::out::println(&gpu.describe()))
            .map_err(|e| e.to_string()),
        None => skinscope::app::run(skinscope::app::AppOptions {
            file: cli.file,
            reach: cli::reach(),
            frames: cli.frames,
            screenshot: cli.screenshot,
            size: cli.window_size,
            no_panel: cli.no_panel,
            open_section: cli.open_section,
            mocap: cli.mocap_listen.zip(cli.mocap_skeleton),
            environment_view: cli.environment.view(),
            environment: cli.environment.environment,
            replay: cli.replay,
            retarget: cli.retarget_from.map(|s| (s, cli.retarget_map)),
        })
        .map_err(|e| e.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("skinscope: {e}");
            ExitCode::from(2)
        }
    }
}
