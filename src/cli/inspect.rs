//! `skinscope inspect`: what a file holds, or why it is refused.

use std::path::Path;
use std::process::ExitCode;

use skinscope::debug::inspect::Report;
use skinscope::import;

use super::out;

pub fn run(file: &Path, json: bool) -> ExitCode {
    let name = file.display().to_string();
    let (report, code) = match import::load(file) {
        Ok(character) => (Report::of_character(&name, &character), ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("skinscope: {e}");
            (Report::of_error(&name, &e), ExitCode::from(2))
        }
    };
    if json {
        out::println(&report.to_json());
    } else {
        out::print(&report.to_text());
    }
    code
}
