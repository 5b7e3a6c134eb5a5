//! `skinscope fix IN --out OUT.glb`: repairs what `check` finds and can repair safely, writes
//! the repaired file, and checks it again. Exit status 0 when it was written and re-checks clean
//! for what was repaired (or there was nothing to fix: then nothing is written), 1 when the
//! repaired file still shows a finding of a kind repaired, 2 when the file or the options are
//! refused.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use skinscope::debug::check;
use skinscope::debug::fix::{self, FixOptions, FixReport};
use skinscope::import::document::Document;
use skinscope::pose::PoseRequest;

use super::out;

#[derive(Args)]
pub struct FixArgs {
    /// The .gltf or .glb file to repair.
    pub file: PathBuf,
    /// Where to write the repaired file: a .glb (its buffers and images carried inside).
    #[arg(long, value_parser = super::values::parse_glb_path)]
    pub out: PathBuf,
    /// The most influences a vertex keeps (the largest; the rest dropped and the weights
    /// normalised again): 1 to 8.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=8))]
    pub limit: u8,
    /// Also drop from each skin's list the joints no vertex, no joint below them and no
    /// animation uses (their nodes stay in the scene).
    #[arg(long)]
    pub drop_unused: bool,
    /// One JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &FixArgs) -> ExitCode {
    match repair(args) {
        Ok(report) => {
            if let Err(e) = out::json_or_text(args.json, &report, FixReport::to_text) {
                eprintln!("skinscope: {e}");
                return ExitCode::from(2);
            }
            if report.left.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("skinscope: {e}");
            if args.json {
                out::json_error(Some(&args.file), &e);
            }
            ExitCode::from(2)
        }
    }
}

/// The bind pose's check, as `check` runs it on a file without a clip.
fn check_file(character: &skinscope::character::Character) -> check::CheckReport {
    check::check(character, &PoseRequest::default())
}

fn repair(args: &FixArgs) -> Result<FixReport, String> {
    skinscope::files::check_output(&args.out).map_err(|e| e.to_string())?;
    let character = super::load_model(&args.file).map_err(|e| e.to_string())?;
    let before = check_file(&character);
    let mut document = Document::open(&args.file, &super::reach())
        .map_err(|e| super::with_reach_remedy(e).to_string())?;
    let options = FixOptions {
        limit: args.limit as usize,
        drop_unused: args.drop_unused,
        only: None,
    };
    let repairs = fix::repair(&mut document, &character, &before, options)?;
    let mut report = FixReport {
        file: args.file.display().to_string(),
        ..FixReport::default()
    };
    if repairs.is_empty() {
        report.not_repaired = fix::remaining(&before, &before, &[], options).1;
        return Ok(report);
    }
    skinscope::files::write_bytes_whole(&args.out, &document.to_glb())
        .map_err(|e| e.to_string())?;
    let after = reload(&args.out)?;
    let (left, not_repaired) = fix::remaining(&before, &check_file(&after), &repairs, options);
    report.out = Some(args.out.display().to_string());
    report.repairs = repairs;
    report.left = left;
    report.not_repaired = not_repaired;
    Ok(report)
}

/// The written file, loaded as any other.
fn reload(path: &Path) -> Result<skinscope::character::Character, String> {
    skinscope::import::load(path).map_err(|e| format!("the repaired file does not load: {e}"))
}
