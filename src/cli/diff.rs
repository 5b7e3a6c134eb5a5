//! `skinscope diff A B`: two versions of a character compared (`debug::diff`). Exit status 0,
//! 1 when `--fail-over` is given and a vertex moves farther, 2 when a file or an option is
//! refused.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use skinscope::debug::diff::{self, DiffReport};

use super::out;
use super::report_format::ReportFormat;

#[derive(Args)]
pub struct DiffArgs {
    /// The first version (.gltf, .glb or .bvh).
    pub a: PathBuf,
    /// The second version.
    pub b: PathBuf,
    /// One JSON document instead of text (the same as --format json).
    #[arg(long)]
    pub json: bool,
    /// How to write the report: text, json, junit (JUnit XML, one test case per compared part)
    /// or sarif (SARIF 2.1.0, one result per difference).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Exit 1 when a skinned vertex moves farther than this between the versions (in the bind
    /// pose or any clip both have): a distance in the file's units, or a share of the
    /// character's size with a % sign (1%).
    #[arg(long, value_parser = parse_distance, allow_hyphen_values = true)]
    pub fail_over: Option<Distance>,
    /// Render B at the worst frame with each vertex coloured by how far it moved from A (blue
    /// still, red at the largest displacement) into this PNG.
    #[arg(long, value_parser = super::values::parse_image_path)]
    pub image: Option<PathBuf>,
}

/// A distance in the file's units, or a share of the character's size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Distance {
    Units(f32),
    ShareOfSize(f32),
}

impl Distance {
    fn exceeded_by(self, report: &DiffReport) -> bool {
        let Some(worst) = &report.worst else {
            return false;
        };
        match self {
            Distance::Units(d) => worst.displacement > d,
            Distance::ShareOfSize(s) => worst.relative > s,
        }
    }
}

fn parse_distance(s: &str) -> Result<Distance, String> {
    let (number, percent) = match s.strip_suffix('%') {
        Some(n) => (n, true),
        None => (s, false),
    };
    match number.trim().parse::<f32>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(if percent {
            Distance::ShareOfSize(v / 100.0)
        } else {
            Distance::Units(v)
        }),
        _ => Err(format!(
            "{s:?}: a distance (0 or more, in the file's units) or a share of the character's size (1%)"
        )),
    }
}

pub fn run(args: &DiffArgs) -> ExitCode {
    let format = if args.json {
        ReportFormat::Json
    } else {
        args.format
    };
    let report = match compare(args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("skinscope: {e}");
            if format == ReportFormat::Json {
                out::json_error(Some(&args.a), &e);
            }
            return ExitCode::from(2);
        }
    };
    let failed = args.fail_over.is_some_and(|d| d.exceeded_by(&report));
    let written = match format {
        ReportFormat::Text => {
            out::print(&report.to_text());
            if failed && let Some(w) = &report.worst {
                eprintln!(
                    "skinscope: vertices move up to {} ({:.3}% of the size), over --fail-over",
                    w.displacement,
                    w.relative * 100.0
                );
            }
            Ok(())
        }
        ReportFormat::Json => out::json_or_text(true, &report, DiffReport::to_text),
        ReportFormat::Junit => {
            out::print(&super::report_format::diff_junit(&report, failed));
            Ok(())
        }
        ReportFormat::Sarif => {
            out::println(&super::report_format::diff_sarif(&report, failed));
            Ok(())
        }
    };
    if let Err(e) = written {
        eprintln!("skinscope: {e}");
        return ExitCode::from(2);
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn compare(args: &DiffArgs) -> Result<DiffReport, String> {
    if let Some(image) = &args.image {
        skinscope::files::check_output(image).map_err(|e| e.to_string())?;
    }
    let a = super::load_model(&args.a).map_err(|e| e.to_string())?;
    let b = super::load_model(&args.b).map_err(|e| e.to_string())?;
    let names = (args.a.display().to_string(), args.b.display().to_string());
    let report = diff::diff(&a, &b, (&names.0, &names.1))?;
    if let Some(image) = &args.image {
        super::diff_image::write(&a, &b, &report, image)?;
    }
    Ok(report)
}
