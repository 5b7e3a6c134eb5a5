//! `skinscope inspect`: what a file holds, or why it is refused.

use std::path::Path;
use std::process::ExitCode;

use skinscope::debug::compression::CompressionSection;
use skinscope::debug::inspect::Report;
use skinscope::import;

use super::out;

/// `file`: `None` for the built-in character, as every other command defaults to.
/// `compression`: `Some(tolerance)` to compress every clip and report it (`None` tolerance: the
/// default, 1e-4 of the character's height).
pub fn run(
    file: Option<&Path>,
    json: bool,
    compression: Option<Option<f32>>,
    ddm: Option<super::ddm::DdmArgs>,
    (clips_from, map): (&[std::path::PathBuf], Option<&Path>),
) -> ExitCode {
    let name = file.map_or_else(
        || format!("{} (built in)", skinscope::builtin::FILE_NAME),
        |f| f.display().to_string(),
    );
    let loaded = match file {
        Some(file) => super::load_model(file),
        None => skinscope::builtin::character(),
    };
    let (report, code) =
        match loaded {
            Ok(mut character) => {
                let mut report = Report::of_character(&name, &character);
                if let Some(tolerance) = compression {
                    report.compression =
                        Some(CompressionSection::of_character(&mut character, tolerance));
                }
                if !clips_from.is_empty() {
                    let map = match super::clips::read_retarget_map(map) {
                        Ok(map) => map,
                        Err(e) => {
                            eprintln!("skinscope: {e}");
                            return ExitCode::from(2);
                        }
                    };
                    for source in clips_from {
                        let reach = super::reach();
                        match import::joint_match(source, &character, map.as_ref(), &reach) {
                            Ok(m) => report.retarget.push(
                                skinscope::debug::inspect::RetargetSection::of(
                                    &source.display().to_string(),
                                    m,
                                ),
                            ),
                            Err(e) => {
                                eprintln!("skinscope: {e}");
                                return ExitCode::from(2);
                            }
                        }
                    }
                }
                if let Some(args) = ddm {
                    let started = std::time::Instant::now();
                    match args.precompute_now(&character) {
                        Ok(data) => {
                            report.ddm = Some(skinscope::debug::inspect::DdmSection::of(
                                &data,
                                started.elapsed().as_secs_f64(),
                            ));
                        }
                        Err(e) => {
                            eprintln!("skinscope: {e}");
                            return ExitCode::from(2);
                        }
                    }
                }
                (report, ExitCode::SUCCESS)
            }
            Err(e) => {
                eprintln!("skinscope: {e}");
                (Report::of_error(&name, &e), ExitCode::from(2))
            }
        };
    // A refused file's errors are said once in text (on standard error, above); JSON always
    // has its report.
    if json {
        out::println(&report.to_json());
    } else if report.loaded {
        out::print(&report.to_text());
    }
    code
}
