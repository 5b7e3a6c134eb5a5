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

/// `print` with a line break after `text`.
pub fn println(text: &str) {
    print(&format!("{text}\n"));
}
