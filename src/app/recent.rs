//! The recent-files list, kept between sessions in `$XDG_CONFIG_HOME/skinscope/recent-files` (or
//! `~/.config/...`), one path a line.

use std::path::PathBuf;

fn recent_files_path() -> Option<PathBuf> {
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(config.join("skinscope").join("recent-files"))
}

#[cfg(not(target_arch = "wasm32"))]
pub fn load() -> Vec<PathBuf> {
    let Some(text) = recent_files_path().and_then(|p| std::fs::read_to_string(p).ok()) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.is_empty())
        .take(8)
        .map(PathBuf::from)
        .collect()
}

pub fn save(list: &[PathBuf]) {
    let Some(path) = recent_files_path() else {
        return;
    };
    let text: String = list.iter().map(|p| format!("{}\n", p.display())).collect();
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|_| std::fs::write(&path, text));
    if let Err(e) = written {
        log::warn!(
            "cannot save the recent-files list to {}: {e}",
            path.display()
        );
    }
}
