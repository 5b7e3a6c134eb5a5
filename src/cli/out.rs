//! Standard output for the subcommands: a reader that stops early (`skinscope inspect --json F |
//! head -1`) closes the pipe, and the command then stops writing quietly, as Unix tools do,
//! instead of panicking in `println!`.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set when a write to standard output failed (other than a closed pipe): the command then
/// exits 2, whatever else it did (`inspect F --json > /dev/full`).
static FAILED: AtomicBool = AtomicBool::new(false);

/// Whether a write to standard output failed.
pub fn failed() -> bool {
    FAILED.load(Ordering::Relaxed)
}

/// Writes `text` to standard output. A closed pipe is not an error (a reader that stopped
/// early); any other failure is reported on standard error and makes the command exit 2.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
        && !FAILED.swap(true, Ordering::Relaxed)
    {
        eprintln!("skinscope: cannot write to standard output: {e}");
    }
}

/// A `--json` command's failure on standard output, as one JSON object:
/// `{"file": ..., "loaded": false, "error": ...}` (`file` null for the built-in character), so a
/// tool reading the output always gets JSON.
pub fn json_error(file: Option<&std::path::Path>, error: &str) {
    let object = serde_json::json!({
        "file": file.map(|f| f.display().to_string()),
        "loaded": false,
        "error": error,
    });
    println(&serde_json::to_string_pretty(&object).unwrap_or_default());
}

/// A count of steps done: an indicatif bar on standard error when it is a terminal and the work
/// has run for more than a second (a long `--simulate`, an integration to a late `--time`, a
/// recorded sequence); nothing otherwise.
pub struct Progress {
    what: &'static str,
    bar: indicatif::ProgressBar,
    start: std::time::Instant,
    shown: bool,
    terminal: bool,
}

impl Progress {
    pub fn new(what: &'static str, total: usize) -> Self {
        use std::io::IsTerminal;
        let bar = indicatif::ProgressBar::hidden();
        bar.set_length(total as u64);
        let style = indicatif::ProgressStyle::with_template(
            "{msg} {bar:32} {pos}/{len} ({percent}%) {elapsed} (ETA {eta})",
        );
        if let Ok(style) = style {
            bar.set_style(style);
        }
        bar.set_message(what);
        Self {
            what,
            bar,
            start: std::time::Instant::now(),
            shown: false,
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// The total, once it is known.
    pub fn set_total(&mut self, total: usize) {
        self.bar.set_length(total as u64);
    }

    /// Step `done` of the total is done (shown every 256th step at most: for many cheap
    /// steps).
    pub fn tick(&mut self, done: usize) {
        if done.is_multiple_of(256) {
            self.step(done);
        }
    }

    /// Step `done` of the total is done (for fewer, costlier steps than `tick`'s; the bar
    /// redraws at most 20 times a second).
    pub fn step(&mut self, done: usize) {
        if !self.terminal {
            return;
        }
        self.bar.set_position(done as u64);
        if !self.shown && self.start.elapsed() > std::time::Duration::from_secs(1) {
            self.shown = true;
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr_with_hz(20));
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if self.shown {
            self.bar.abandon_with_message(format!(
                "{} done ({:.1} s)",
                self.what,
                self.start.elapsed().as_secs_f64()
            ));
        }
    }
}

/// `print` with a line break after `text`.
pub fn println(text: &str) {
    print(&format!("{text}\n"));
}

/// `value` as pretty JSON (`json`), or `text()` as it is.
pub fn json_or_text<T: serde::Serialize>(
    json: bool,
    value: &T,
    text: impl FnOnce(&T) -> String,
) -> Result<(), String> {
    if json {
        let json = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
        println(&json);
    } else {
        print(&text(value));
    }
    Ok(())
}
