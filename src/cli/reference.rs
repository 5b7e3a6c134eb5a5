//! The command line's references generated from its clap definitions: shell completions
//! (clap_complete) and man pages (clap_mangen), one page for the command and one per
//! subcommand, as `git` and `cargo` ship them.

use std::io::Write;
use std::path::Path;

use clap::CommandFactory;

/// `shell`'s completion script for skinscope, into `out`.
pub fn completions(shell: clap_complete::Shell, out: &mut dyn Write) -> std::io::Result<()> {
    let mut command = super::Cli::command();
    clap_complete::generate(shell, &mut command, "skinscope", out);
    out.flush()
}

/// skinscope.1 and skinscope-SUBCOMMAND.1 for each subcommand (clap's `help` left out), into
/// `dir` (made if missing), each written whole or not at all.
pub fn man_pages(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
    let command = super::Cli::command().name("skinscope");
    let mut pages = vec![("skinscope.1".to_string(), command.clone())];
    for sub in command.get_subcommands() {
        let name = format!("skinscope-{}", sub.get_name());
        let page = (sub.clone())
            .display_name(name.clone())
            .bin_name(format!("skinscope {}", sub.get_name()))
            .version(env!("CARGO_PKG_VERSION"));
        pages.push((format!("{name}.1"), page));
    }
    for (file, page) in pages {
        let mut roff = Vec::new();
        clap_mangen::Man::new(page)
            .render(&mut roff)
            .map_err(|e| format!("{file}: {e}"))?;
        let path = dir.join(&file);
        skinscope::files::write_bytes_whole(&path, &roff).map_err(|e| e.to_string())?;
    }
    Ok(())
}
