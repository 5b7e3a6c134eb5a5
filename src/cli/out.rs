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

/// A count of steps done, shown on standard error when it is a terminal and the work has run
/// for more than a second (a long `--simulate` or an integration to a late `--time`).
pub struct Progress {
    what: &'static str,
    total: usize,
    start: std::time::Instant,
    shown: Option<std::time::Instant>,
    terminal: bool,
}

impl Progress {
    pub fn new(what: &'static str, total: usize) -> Self {
        use std::io::IsTerminal;
        Self {
            what,
            total,
            start: std::time::Instant::now(),
            shown: None,
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// The total, once it is known.
    pub fn set_total(&mut self, total: usize) {
        self.total = total;
    }

    /// Step `done` of the total is done (shown every 256th step at most: for many cheap
    /// steps).
    pub fn tick(&mut self, done: usize) {
        if done.is_multiple_of(256) {
            self.step(done);
        }
    }

    /// Step `done` of the total is done (for fewer, costlier steps than `tick`'s).
    pub fn step(&mut self, done: usize) {
        if !self.terminal {
            return;
        }
        let now = std::time::Instant::now();
        let due = self
            .shown
            .map_or(now - self.start > std::time::Duration::from_secs(1), |t| {
                now - t > std::time::Duration::from_millis(200)
            });
        if due {
            self.shown = Some(now);
            eprint!(
                "\r{} {done} of {} steps ({:.0}%)",
                self.what,
                self.total,
                100.0 * done as f64 / self.total.max(1) as f64
            );
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if self.shown.is_some() {
            eprintln!(
                "\r{} {} steps, done ({:.1} s)",
                self.what,
                self.total,
                self.start.elapsed().as_secs_f64()
            );
        }
    }
}

/// `print` with a line break after `text`.
pub fn println(text: &str) {
    print(&format!("{text}\n"));
}
